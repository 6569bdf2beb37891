"""One HTTP call to the service over urllib: JSON in, JSON out, refusals raised as ApiError."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Mapping

from .errors import ApiError

USER_AGENT = "agent-match-python"


def call(
    base_url: str,
    method: str,
    path: str,
    *,
    token: str | None = None,
    query: Mapping[str, Any] | None = None,
    body: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30,
) -> Any:
    """The answer's JSON (None for a 204). Query values that are None are left out; lists are repeated."""
    url = base_url.rstrip("/") + path
    params = {name: _query_value(value) for name, value in (query or {}).items() if value is not None}
    if params:
        url += "?" + urllib.parse.urlencode(params, doseq=True)
    sent = {"Accept": "application/json", "User-Agent": USER_AGENT, **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    if token:
        sent["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as refused:
        with refused:
            raise _api_error(refused.code, refused.headers, refused.read()) from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as failure:
        reason = getattr(failure, "reason", failure)
        raise ApiError(0, "unavailable", f"could not reach {base_url}: {reason}") from None


def _query_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return [str(item) for item in value]
    return str(value)


def _api_error(status: int, headers: Any, text: bytes) -> ApiError:
    try:
        error = json.loads(text)["error"]
        code, message = str(error["code"]), str(error["message"])
    except (ValueError, KeyError, TypeError):
        # not the service's envelope (a proxy's page, say): keep what came
        error, code, message = None, "http_error", text.decode(errors="replace")[:200] or f"HTTP {status}"
    return ApiError(status, code, message, error, _retry_after(headers.get("Retry-After"), error))


def _retry_after(header: str | None, error: dict[str, Any] | None) -> float | None:
    try:
        if header is not None:
            return float(header)
    except ValueError:
        pass
    seconds = (error or {}).get("retry_after_seconds")
    return float(seconds) if isinstance(seconds, (int, float)) else None
