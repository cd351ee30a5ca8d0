"""Login throttling glue for django-axes (see AXES_* in settings).

``ThrottledLoginBackend`` is axes' standalone backend with one difference: a call of
``authenticate()`` without a request (Django's test ``Client.login``, a management command, a
shell) is not an HTTP login attempt, so it is not throttled and does not raise; every login over
HTTP (the login page, the admin's login, anything else that passes ``request``) is.

``client_ip`` is the address attempts are counted against: REMOTE_ADDR, or, behind N trusted
reverse proxies (``DJANGO_TRUSTED_PROXIES=N``), the address the outermost of them saw.
"""

from __future__ import annotations

import os
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest


class ThrottledLoginBackend(AxesStandaloneBackend):
    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class PlayerBackend(ModelBackend):
    """Django's ModelBackend as shipped, under the name the sessions of signed-in players already carry (a
    session names the backend that authenticated it: renaming it would sign everyone out)."""


def client_ip(request: HttpRequest) -> str:
    proxies = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)
    remote = request.META.get("REMOTE_ADDR", "") or ""
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    # Each trusted proxy appends the address it received the request from; the client's own part of the
    # header (everything left of those) can be forged, so take the entry the outermost proxy wrote.
    if len(forwarded) >= proxies:
        return forwarded[-proxies]
    return forwarded[0] if forwarded else remote


#: the longest username any player can have (Player.username's max_length)
USERNAME_MAX = 150


def attempted_username(request: HttpRequest, credentials: dict | None = None) -> str:
    """The username axes counts and stores (AXES_USERNAME_CALLABLE): at most USERNAME_MAX characters, so that a
    huge one cannot fill the database (or overflow PostgreSQL's varchar(255), a 500)."""
    from django.conf import settings

    field = settings.AXES_USERNAME_FORM_FIELD
    source = credentials if credentials else getattr(request, "data", None) or request.POST
    value = source.get(field) if source else None
    return str(value)[:USERNAME_MAX] if value is not None else ""


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: dict | None = None) -> Any:
    """The page a locked-out login attempt gets: 429 with when to try again (axes' AXES_LOCKOUT_CALLABLE)."""
    from axes.helpers import get_client_username, get_cool_off, get_failure_limit
    from django.conf import settings
    from django.shortcuts import render

    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "username": get_client_username(request, credentials) or "",
        "minutes": minutes,
    }
    response = render(request, "registration/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
    if minutes:
        response["Retry-After"] = str(minutes * 60)
    return response
