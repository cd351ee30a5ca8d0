"""The bot API over HTTP, with the standard library only: JSON requests and newline-delimited JSON streams.

``Api(url, token)`` sends ``Authorization: Bearer <token>`` with every request. ``stream(path)`` yields one dict per
line of a stream held open by the site (empty keep-alive lines are skipped) until the site ends it; after
``close()`` every stream ends at its next line (a keep-alive comes every few seconds: a bot stopping).
``requests`` records every request made, as ``(method, path)``: what a bot asked of the site, and how often (the
tests check that nothing polls).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

#: seconds a stream may stay silent before it counts as broken (the site sends a keep-alive line every 5 s)
STREAM_TIMEOUT = 30.0
#: seconds an ordinary request may take
REQUEST_TIMEOUT = 30.0


class ApiError(Exception):
    """A refusal of the site: the HTTP status and the API's ``{"code", "message"}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Api:
    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.requests: list[tuple[str, str]] = []
        self.closed = threading.Event()
        self._lock = threading.Lock()

    def _request(self, method: str, path: str, data: Any = None) -> urllib.request.Request:
        with self._lock:
            self.requests.append((method, path))
        body = None if data is None else json.dumps(data).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.url + path, data=body, method=method, headers=headers)

    def call(self, method: str, path: str, data: Any = None) -> Any:
        """One request; its JSON answer (None for 204). ApiError for a refusal."""
        try:
            with urllib.request.urlopen(self._request(method, path, data), timeout=REQUEST_TIMEOUT) as answer:
                text = answer.read()
        except urllib.error.HTTPError as err:
            raise _refusal(err) from None
        return json.loads(text) if text else None

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, data: Any = None) -> Any:
        return self.call("POST", path, data)

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The lines of the stream at ``path``, as dicts, until the site ends it (or ``close``). ApiError if it is
        refused; OSError if the connection breaks."""
        try:
            answer = urllib.request.urlopen(self._request("GET", path), timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as err:
            raise _refusal(err) from None
        with answer:
            for raw in answer:
                if self.closed.is_set():
                    return
                line = raw.strip()
                if line:  # an empty line is the stream's keep-alive
                    yield json.loads(line)

    def close(self) -> None:
        """End every stream at its next line."""
        self.closed.set()


def _refusal(err: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(err.read() or b"{}")
    except ValueError:
        body = {}
    return ApiError(err.code, str(body.get("code", "error")), str(body.get("message", err.reason)))
