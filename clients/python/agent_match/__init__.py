"""A client of the agent-match API, in the standard library only."""

from .client import Client
from .errors import ApiError
from .inbox import follow_events

__all__ = ["ApiError", "Client", "follow_events"]
