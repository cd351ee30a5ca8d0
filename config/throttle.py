"""Throttling of log-ins and sign-ups per client address and site-wide, before any password is hashed.

django-axes locks one (username, address) pair out after a few wrong passwords; that does not slow an
address trying a few passwords on each of many accounts (password spraying), nor a flood that makes the
server hash a password per request (0.25 s of CPU each). Here, before the view runs:

- an address with too many failed log-ins in the window (any usernames) gets a 429 until the window ends;
- every log-in attempt counts towards a site-wide ceiling, so that many addresses together cannot take all
  the server's CPU for hashing either. Over it, the site is being flooded: the addresses taking part (any failed
  log-in in their window) wait for the ceiling's window to end, while an address that has not failed still
  gets in (a ceiling that refused everyone would let a flood lock every player out);
- sign-ups count per address and site-wide in the same way, and so do password-reset requests (each may send an
  email: one address asking for many accounts' resets would flood their owners' inboxes and the mail server;
  ``ThrottledPasswordResetForm`` also sends one account at most one email per interval).

Counts live in the cache named by THROTTLE_CACHE (Redis when REDIS_URL is set, else a database table: shared by
every worker and server). A cache that fails (Redis restarting) counts nothing and refuses nobody meanwhile: a
site that cannot count for a moment is better than one nobody can log in to. Windows are fixed
(``limit/seconds`` in THROTTLE_RATES); the answer says when the window ends.
The client address is ``config.auth.client_ip``: behind a proxy, set DJANGO_TRUSTED_PROXIES (docs/operations.md).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import caches
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from config.auth import client_ip

logger = logging.getLogger(__name__)


def parse_rate(text: str | None) -> tuple[int, int] | None:
    """``"20/600"`` -> (20, 600): at most 20 in 600 seconds; None or "" for no limit."""
    if not text:
        return None
    limit, _, seconds = text.partition("/")
    return int(limit), int(seconds)


def client_key(request: HttpRequest) -> str:
    """The client's address; an IPv6 address counts by its /64, which one household or machine usually has."""
    address = client_ip(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ip.ipv4_mapped or ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _window(seconds: int, now: float) -> tuple[int, int]:
    """The current window's number and the seconds until it ends."""
    index = int(now // seconds)
    return index, max(1, math.ceil((index + 1) * seconds - now))


def _key(scope: str, who: str, seconds: int, index: int) -> str:
    return f"throttle:{scope}:{who}:{seconds}:{index}"


def used(scope: str, who: str) -> int:
    """How many of ``scope`` ``who`` has used in this window (0 when the scope has no limit)."""
    rate = parse_rate(settings.THROTTLE_RATES.get(scope))
    if rate is None:
        return 0
    index, _wait = _window(rate[1], time.time())
    try:
        return caches[settings.THROTTLE_CACHE].get(_key(scope, who, rate[1], index), 0)
    except Exception:  # the cache is down: nothing counted, nobody refused
        logger.warning("throttle: the cache failed; %s is not counted meanwhile", scope, exc_info=True)
        return 0


def over_limit(scope: str, who: str) -> int:
    """Seconds to wait if ``who`` has used up ``scope``'s rate in this window, else 0 (nothing is counted)."""
    rate = parse_rate(settings.THROTTLE_RATES.get(scope))
    if rate is None:
        return 0
    limit, seconds = rate
    _index, wait = _window(seconds, time.time())
    return wait if used(scope, who) >= limit else 0


def login_wait(who: str) -> int:
    """Seconds the address ``who`` waits before a log-in attempt, 0 for none: its own failures over their limit;
    or the site over its ceiling (a flood) and this address among those failing, so that the flood slows down
    while a player who knows their password, from an address that has not failed, still gets in."""
    wait = over_limit("login_failures_per_address", who)
    if wait:
        return wait
    flood = over_limit("login_attempts_site", "*")
    return flood if flood and used("login_failures_per_address", who) else 0


def count(scope: str, who: str) -> None:
    """Count one more of ``scope`` for ``who`` in this window."""
    rate = parse_rate(settings.THROTTLE_RATES.get(scope))
    if rate is None:
        return
    _limit, seconds = rate
    index, wait = _window(seconds, time.time())
    store, key = caches[settings.THROTTLE_CACHE], _key(scope, who, seconds, index)
    # add() then incr(): two workers at once may lose a count (the cache's incr is not atomic everywhere);
    # a limit off by one under a race is fine here.
    try:
        if not store.add(key, 1, timeout=wait + 1):
            try:
                store.incr(key)
            except ValueError:  # expired between the two calls
                store.add(key, 1, timeout=wait + 1)
    except Exception:  # the cache is down: not counted
        logger.warning("throttle: the cache failed; %s is not counted meanwhile", scope, exc_info=True)


@cache
def _paths() -> dict[str, str]:
    return {
        reverse("login"): "login", reverse("admin:login"): "login", reverse("signup"): "signup",
        reverse("password_reset"): "reset",
    }


def throttled(request: HttpRequest, wait: int, what: str) -> HttpResponse:
    """429 with when to try again, in words and in Retry-After."""
    minutes = max(1, math.ceil(wait / 60))
    context = {"what": what, "minutes": minutes}
    response = render(request, "registration/throttled.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


class ThrottleMiddleware:
    """Refuses a log-in, sign-up or password-reset POST over its rates with a 429, before the view (and any hash)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        scope = _paths().get(request.path_info) if request.method == "POST" else None
        if scope is None:
            return self.get_response(request)
        who = client_key(request)
        if scope == "login":
            wait = login_wait(who)
            if wait:
                return throttled(request, wait, "log-in attempts")
            count("login_attempts_site", "*")
        else:
            what = "sign-ups" if scope == "signup" else "password reset requests"
            wait = over_limit(f"{scope}_per_address", who) or over_limit(f"{scope}_site", "*")
            if wait:
                return throttled(request, wait, what)
            count(f"{scope}_per_address", who)
            count(f"{scope}_site", "*")
        return self.get_response(request)


@receiver(user_login_failed)
def _count_failure(sender: object, credentials: dict, request: HttpRequest | None = None, **kwargs: object) -> None:
    """Each failed log-in over HTTP counts against its address (axes counts it against the username too)."""
    if request is not None:
        count("login_failures_per_address", client_key(request))
