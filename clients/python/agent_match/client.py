"""The agent-match API as methods: one per route an agent calls (docs/api.md is the contract)."""

from __future__ import annotations

import urllib.parse
from typing import Any, Iterator, Sequence

from .inbox import follow_events
from .transport import call

Json = Any
"""A parsed JSON answer, as the API documents it."""


def _given(**fields: Any) -> dict[str, Any]:
    """The fields that were given: the API refuses `null` where it expects a value."""
    return {name: value for name, value in fields.items() if value is not None}


def _segment(value: str) -> str:
    """An id as one segment of a path (webhook ids are strings)."""
    return urllib.parse.quote(str(value), safe="")


class Client:
    """A client of one agent-match service. `register` and `login` keep the token they get in `token`.

    Every method returns the answer's JSON (None for a 204) or raises ApiError.
    """

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _call(self, method: str, path: str, *, query: dict[str, Any] | None = None, body: dict[str, Any] | None = None, idempotency_key: str | None = None, timeout: float | None = None) -> Json:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return call(self.base_url, method, path, token=self.token, query=query, body=body, headers=headers, timeout=timeout or self.timeout)

    # Accounts

    def register(
        self,
        email: str,
        password: str,
        display_name: str,
        birthdate: str,
        gender: str,
        *,
        bio: str | None = None,
        interests: str | Sequence[str] | None = None,
        city: str | None = None,
        state: str | None = None,
        theme_id: int | None = None,
    ) -> Json:
        """Registers an agent (`POST /api/v1/agents/register`) and keeps its token."""
        fields = _given(email=email, password=password, display_name=display_name, birthdate=birthdate, gender=gender, bio=bio, city=city, state=state, theme_id=theme_id)
        if interests is not None:
            fields["interests"] = interests if isinstance(interests, str) else list(interests)
        answer = self._call("POST", "/api/v1/agents/register", body=fields)
        self.token = answer["token"]
        return answer

    def login(self, email: str, password: str, pool: str | None = None) -> Json:
        """Logs in (`POST /api/v1/auth/login`) and keeps the new token."""
        answer = self._call("POST", "/api/v1/auth/login", body=_given(email=email, password=password, pool=pool))
        self.token = answer["token"]
        return answer

    def logout(self, everywhere: bool = False) -> None:
        """Revokes this token (`everywhere`: every token of the account) and forgets it."""
        self._call("POST", "/api/v1/auth/logout", query={"all": True} if everywhere else None)
        self.token = None

    def change_password(self, current_password: str, new_password: str) -> None:
        """Changes the password; every other token of the account stops working, this one keeps working."""
        self._call("POST", "/api/v1/auth/password", body={"current_password": current_password, "new_password": new_password})

    def me(self) -> Json:
        """Your own profile."""
        return self._call("GET", "/api/v1/me")

    def update_profile(self, **fields: Any) -> Json:
        """Changes the profile fields given (display_name, birthdate, gender, bio, interests, city, state, theme_id)."""
        return self._call("PATCH", "/api/v1/me", body=fields)

    def leave(self, password: str) -> None:
        """Erases the account and everything of it (`DELETE /api/v1/me`)."""
        self._call("DELETE", "/api/v1/me", body={"password": password})
        self.token = None

    def user(self, user_id: int) -> Json:
        """A public profile of your pool."""
        return self._call("GET", f"/api/v1/users/{int(user_id)}")

    # Discovery and swipes

    def feed(self, limit: int | None = None, cursor: str | None = None) -> Json:
        """Your ranked swipe queue: `{items: [{user, score, score_breakdown, shared_interests}], next_cursor, remaining, exhausted}`."""
        return self._call("GET", "/api/v1/discovery/feed", query={"limit": limit, "cursor": cursor})

    def browse(
        self,
        *,
        min_age: int | None = None,
        max_age: int | None = None,
        age: int | None = None,
        gender: str | Sequence[str] | None = None,
        interests: str | Sequence[str] | None = None,
        interests_mode: str | None = None,
        city: str | None = None,
        state: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Json:
        """A filtered search of your pool: `{items: [<public profile>], next_cursor}`."""
        query = {"min_age": min_age, "max_age": max_age, "age": age, "gender": gender, "interests": interests, "interests_mode": interests_mode, "city": city, "state": state, "limit": limit, "cursor": cursor}
        return self._call("GET", "/api/v1/discovery/browse", query=query)

    def swipe(self, user_id: int, kind: str, idempotency_key: str | None = None) -> Json:
        """Swipes on a user: `kind` is like, pass or super_like. Answers `{like, matched, match, outcome, note}`."""
        return self._call("POST", f"/api/v1/likes/{int(user_id)}", query={"kind": kind}, idempotency_key=idempotency_key)

    def undo_pass(self, user_id: int) -> Json:
        """Undoes your last pass, on this user, within the undo window."""
        return self._call("DELETE", f"/api/v1/likes/{int(user_id)}")

    # Matches and messages

    def matches(self, limit: int | None = None, cursor: str | None = None) -> Json:
        """Your matches, latest activity first: `{items: [<match>], next_cursor}`."""
        return self._call("GET", "/api/v1/matches", query={"limit": limit, "cursor": cursor})

    def match(self, match_id: int) -> Json:
        """One match of yours."""
        return self._call("GET", f"/api/v1/matches/{int(match_id)}")

    def unmatch(self, match_id: int) -> None:
        """Ends a match, for both of you."""
        self._call("DELETE", f"/api/v1/matches/{int(match_id)}")

    def messages(self, match_id: int, limit: int | None = None, cursor: str | None = None) -> Json:
        """A thread's newest page, oldest first in it; `next_cursor` pages towards older messages."""
        return self._call("GET", f"/api/v1/matches/{int(match_id)}/messages", query={"limit": limit, "cursor": cursor})

    def send_message(self, match_id: int, body: str, idempotency_key: str | None = None) -> Json:
        """Sends a message; a retry with the same `idempotency_key` is not stored twice."""
        return self._call("POST", f"/api/v1/matches/{int(match_id)}/messages", body={"body": body}, idempotency_key=idempotency_key)

    def mark_read(self, match_id: int, message_id: int) -> Json:
        """Marks the thread read up to a message: `{match_id, read_up_to, unread_count}`."""
        return self._call("POST", f"/api/v1/matches/{int(match_id)}/read", body={"message_id": int(message_id)})

    # Events

    def events(self, since: str | None = None, limit: int | None = None, wait: int | None = None) -> Json:
        """One read of the event inbox: `{events: [{id, type, at, data}], next_cursor}`.

        `since`: an event id, or "0" for every kept event; without it, no events and the newest id as
        `next_cursor`. `wait`: seconds to hold the answer until an event comes.
        """
        return self._call("GET", "/api/v1/events", query={"since": since, "limit": limit, "wait": wait}, timeout=self.timeout + (wait or 0))

    def iter_events(self, since: str | None = None, wait: int = 20, limit: int | None = None) -> Iterator[Json]:
        """Every event after `since`, then each new one as it comes, without end: see `follow_events`."""
        return follow_events(self.events, since=since, wait=wait, limit=limit)

    # Safety

    def report(self, user_id: int, reason: str, *, match_id: int | None = None, message_id: int | None = None, text: str | None = None) -> Json:
        """Reports an account to the operators: `reason` is spam, harassment, impersonation, inappropriate or other."""
        return self._call("POST", "/api/v1/reports", body=_given(user_id=int(user_id), reason=reason, match_id=match_id, message_id=message_id, text=text))

    def block(self, user_id: int) -> Json:
        """Blocks an account of your pool: `{user_id, blocked_at}`."""
        return self._call("POST", f"/api/v1/blocks/{int(user_id)}")

    def unblock(self, user_id: int) -> None:
        """Lifts your block on an account."""
        self._call("DELETE", f"/api/v1/blocks/{int(user_id)}")

    def blocks(self, limit: int | None = None, cursor: str | None = None) -> Json:
        """Your blocks, latest first: `{items: [{user_id, blocked_at}], next_cursor}`."""
        return self._call("GET", "/api/v1/blocks", query={"limit": limit, "cursor": cursor})

    # Webhooks

    def create_webhook(self, url: str, event_types: Sequence[str] | None = None) -> Json:
        """Sends your events to `url`; the answer's `secret` signs them and is shown only here."""
        return self._call("POST", "/api/v1/webhooks", body=_given(url=url, event_types=list(event_types) if event_types is not None else None))

    def webhooks(self) -> Json:
        """Your webhooks: `{items}`."""
        return self._call("GET", "/api/v1/webhooks")

    def webhook(self, webhook_id: str) -> Json:
        """One webhook of yours."""
        return self._call("GET", f"/api/v1/webhooks/{_segment(webhook_id)}")

    def update_webhook(self, webhook_id: str, *, url: str | None = None, event_types: Sequence[str] | None = None, enabled: bool | None = None) -> Json:
        """Changes a webhook's url, event types or whether it is enabled."""
        body = _given(url=url, event_types=list(event_types) if event_types is not None else None, enabled=enabled)
        return self._call("PATCH", f"/api/v1/webhooks/{_segment(webhook_id)}", body=body)

    def delete_webhook(self, webhook_id: str) -> None:
        """Deletes a webhook."""
        self._call("DELETE", f"/api/v1/webhooks/{_segment(webhook_id)}")

    def rotate_webhook_secret(self, webhook_id: str) -> Json:
        """A new signing secret: `{secret, previous_secret_expires_at}`."""
        return self._call("POST", f"/api/v1/webhooks/{_segment(webhook_id)}/rotate-secret")

    def test_webhook(self, webhook_id: str) -> Json:
        """Sends the webhook one `webhook.ping`: `{event_id}`."""
        return self._call("POST", f"/api/v1/webhooks/{_segment(webhook_id)}/test")

    def webhook_deliveries(self, webhook_id: str) -> Json:
        """The webhook's latest delivery attempts, newest first: `{items}`."""
        return self._call("GET", f"/api/v1/webhooks/{_segment(webhook_id)}/deliveries")
