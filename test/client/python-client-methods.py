"""Calls every method of the Python client once against AGENT_MATCH_URL and prints what came back, as JSON.

Run by python-client.test.ts with the installed package, which checks the answers.
"""

import json
import os
import uuid

from agent_match import ApiError, Client

URL = os.environ["AGENT_MATCH_URL"]
PASSWORD, NEW_PASSWORD = "Sturdy-Pass-42", "Sturdier-Pass-43"
seen = {}


def refusal(call):
    try:
        call()
    except ApiError as error:
        return {"status": error.status, "code": error.code, "details": error.details, "retry_after": error.retry_after, "error": error.error}
    raise AssertionError("not refused")


def agent(name):
    client, email = Client(URL), f"{name.lower()}-{uuid.uuid4().hex[:12]}@example.com"
    seen[f"register {name}"] = client.register(email, PASSWORD, name, "1990-05-17", "nonbinary", interests=["chess", "go"], city="Porto")
    return client, email, seen[f"register {name}"]["user_id"]


a, a_email, a_id = agent("Cy")
b, b_email, b_id = agent("Di")
seen["login"] = a.login(a_email, PASSWORD)
seen["me"] = a.me()
seen["update_profile"] = a.update_profile(bio="Plays chess.")
seen["user"] = a.user(b_id)
seen["feed"] = a.feed(limit=50)
seen["browse"] = b.browse(interests=["chess", "go"], interests_mode="all", city="Porto", limit=5)
seen["swipe pass"] = a.swipe(b_id, "pass")
seen["undo_pass"] = a.undo_pass(b_id)
seen["swipe bad kind"] = refusal(lambda: a.swipe(b_id, "maybe"))
seen["swipe like"] = a.swipe(b_id, "like", idempotency_key=str(uuid.uuid4()))
seen["swipe super_like"] = b.swipe(a_id, "super_like")
match_id = seen["swipe super_like"]["match"]["id"]
seen["matches"] = a.matches(limit=5)
seen["match"] = a.match(match_id)
seen["send_message"] = b.send_message(match_id, "Hello, Cy", idempotency_key=str(uuid.uuid4()))
seen["messages"] = a.messages(match_id, limit=5)
seen["mark_read"] = a.mark_read(match_id, seen["send_message"]["id"])
seen["events"] = b.events(since="0", limit=10)
seen["events waited"] = b.events(since=seen["events"]["next_cursor"], wait=1)
seen["report"] = a.report(b_id, "spam", match_id=match_id, message_id=seen["send_message"]["id"], text="Checking reports.")

hook = seen["create_webhook"] = a.create_webhook("http://127.0.0.1:9/hook", ["match.created"])
seen["webhooks"] = a.webhooks()
seen["webhook"] = a.webhook(hook["id"])
seen["test_webhook"] = a.test_webhook(hook["id"])
seen["webhook_deliveries"] = a.webhook_deliveries(hook["id"])
seen["rotate_webhook_secret"] = a.rotate_webhook_secret(hook["id"])
seen["update_webhook"] = a.update_webhook(hook["id"], event_types=["match.created", "match.ended"], enabled=False)
seen["delete_webhook"] = a.delete_webhook(hook["id"])

seen["unmatch"] = a.unmatch(match_id)
seen["match ended"] = refusal(lambda: a.match(match_id))
seen["block"] = a.block(b_id)
seen["blocks"] = a.blocks()
seen["unblock"] = a.unblock(b_id)

seen["change_password"] = a.change_password(PASSWORD, NEW_PASSWORD)
old_token = a.token
seen["logout"] = a.logout()
seen["token after logout"] = a.token
seen["revoked token"] = refusal(lambda: Client(URL, token=old_token).me())
seen["logout everywhere"] = b.logout(everywhere=True)
a.login(a_email, NEW_PASSWORD)
seen["leave"] = a.leave(NEW_PASSWORD)
seen["login after leave"] = refusal(lambda: Client(URL).login(a_email, NEW_PASSWORD))

# Profile changes are limited per account (30 a minute): past it, a 429 with Retry-After.
c, _, _ = agent("Ed")
seen["rate limited"] = refusal(lambda: [c.update_profile(bio=f"Change {n}.") for n in range(100)])
seen["unreachable"] = refusal(lambda: Client("http://127.0.0.1:1").me())

print(json.dumps(seen))
