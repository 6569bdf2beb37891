"""The service's error envelope as a Python exception."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refused call: the HTTP status and the envelope's `code` and `message`.

    `retry_after` is the seconds to wait before trying again (the `Retry-After` header, or the error's
    `retry_after_seconds`), or None. `error` is the whole envelope's `error` object: `details` and fields
    some codes carry (`ended_at`, `reason`, `scope`, `limit`). A service that could not be reached is
    status 0, code `unavailable`.
    """

    def __init__(self, status: int, code: str, message: str, error: dict[str, Any] | None = None, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.error: dict[str, Any] = error if error is not None else {"code": code, "message": message, "details": []}
        self.details: list[dict[str, Any]] = self.error.get("details", [])
        self.retry_after = retry_after
