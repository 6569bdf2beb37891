"""A generator over the event inbox (`GET /api/v1/events`), resuming from the last event it saw."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from .errors import ApiError

# What a later read may get past: the service unreachable or stalled, or a limit that Retry-After lifts.
TRANSIENT_STATUSES = (0, 429, 503)


def follow_events(read: Callable[..., Any], since: str | None = None, wait: int = 20, limit: int | None = None) -> Iterator[Any]:
    """Yields each event `{id, type, at, data}` after `since`, oldest first, then each new one as it comes.

    `since` is an event id, "0" for every event the service keeps, or None to start with the next new
    event. Each read waits up to `wait` seconds (every deployment allows 20) for an event. A read the
    service refuses for now (429, 503) or does not answer is made again, from the last event yielded,
    after `Retry-After` or a growing pause; any other refusal (a revoked token: 401) is raised. Keep the
    id of the last event you handled to resume from it after a restart.
    """
    cursor, pause = since, 1.0
    while True:
        try:
            page = read(since=cursor, limit=limit, wait=wait)
        except ApiError as error:
            if error.status not in TRANSIENT_STATUSES:
                raise
            time.sleep(error.retry_after if error.retry_after is not None else pause)
            pause = min(pause * 2, 30.0)
            continue
        pause = 1.0
        for event in page["events"]:
            cursor = event["id"]
            yield event
        if not page["events"]:
            cursor = page["next_cursor"]
