"""Who is asking: a personal token (``Authorization: Bearer <token>``) or the site's session."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer, SessionAuth

from players.models import ApiToken


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>`` with a token made on the profile page (``ApiToken.authenticate``)."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        return ApiToken.authenticate(token)


class SignedInSession(SessionAuth):
    """The site's session; CSRF is checked (unsafe methods) only for a signed-in browser.

    Checking it before knowing whether anyone is signed in would answer an anonymous POST with
    403 (CSRF) instead of 401.
    """

    def __call__(self, request: HttpRequest) -> Any:
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)
