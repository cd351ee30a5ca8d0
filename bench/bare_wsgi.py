"""The smallest WSGI application: what gunicorn and the machine cost per request before Django does anything.

The web benchmark serves it with the site's own gunicorn settings to show this machine's ceiling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

BODY = b"ok"
HEADERS = [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))]


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    start_response("200 OK", HEADERS)
    return [BODY]
