"""Follows the event inbox of a service that allows an account a few inbox reads per short window, with
the window's reads used up: the generator's first read is refused (429), and it reads again after
Retry-After, from where it was. Prints JSON: each read's outcome, and the first event yielded.

Run by python-client.test.ts with the installed package, which checks the output.
"""

import json
import os

from agent_match import ApiError, Client, follow_events

client = Client(os.environ["AGENT_MATCH_URL"], token=os.environ["AGENT_MATCH_TOKEN"])
reads = []


def read(**query):
    try:
        page = client.events(**query)
    except ApiError as error:
        reads.append({"status": error.status, "code": error.code, "retry_after": error.retry_after})
        raise
    reads.append({"status": 200, "events": len(page["events"])})
    return page


def use_up_the_window():
    while True:
        try:
            client.events()
        except ApiError as error:
            if error.code == "rate_limited":
                return
            raise


for attempt in range(3):
    reads.clear()
    use_up_the_window()
    event = next(follow_events(read, since="0", wait=5))
    if reads[0]["status"] == 429:
        break  # else the window turned in between: use up the next one
print(json.dumps({"reads": reads, "event": event}))
