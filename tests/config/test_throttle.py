"""Log-ins and sign-ups throttled per client address and site-wide, before any password is hashed, beside axes'
per-(username, address) lock-out (issue 20, item 2). The suite's settings turn these rates off; each test here
sets the production ones (config/settings.py) or smaller."""

from __future__ import annotations

import http.client
import re
from urllib.parse import urlencode, urlsplit

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client
from django.urls import reverse

SPRAYER, NEIGHBOUR = "203.0.113.7", "198.51.100.9"
PRODUCTION = {
    "login_failures_per_address": "20/600",
    "login_attempts_site": "120/60",
    "signup_per_address": "10/3600",
    "signup_site": "30/60",
    "reset_per_address": "5/3600",
    "reset_site": "30/60",
}


@pytest.fixture
def rates(settings, db):
    settings.THROTTLE_RATES = dict(PRODUCTION)
    return settings.THROTTLE_RATES


@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """Every password hashed (to check or to store) while the test runs."""
    seen: list[str] = []
    encode = MD5PasswordHasher.encode

    def counting(self, password, salt):
        seen.append(password)
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", counting)
    return seen


@pytest.fixture
def steady_clock(monkeypatch) -> float:
    """The throttle's clock held one second into the next ten-minute window (and so into a minute's): a test of
    several requests never sees its window end halfway. (Ahead of the real clock, not behind it: the cache dates
    its entries' expiry by the same clock and reads them by the real one.)"""
    import config.throttle

    now = (config.throttle.time.time() // 600 + 1) * 600 + 1
    monkeypatch.setattr(config.throttle.time, "time", lambda: now)
    return now


def login(username: str, password: str, ip: str = SPRAYER, url: str | None = None):
    return Client().post(url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def signup(username: str, ip: str = SPRAYER):
    form = {"username": username, "password1": "a-Str0ng-passphrase", "password2": "a-Str0ng-passphrase"}
    return Client().post(reverse("signup"), form, REMOTE_ADDR=ip)


def test_password_spraying_from_one_address_is_stopped_before_hashing(rates, make_player, password, hashes):
    """Four guesses on each of many accounts never trips axes (five per account); the address limit does."""
    names = [f"victim{i}" for i in range(6)]
    for name in names:
        make_player(name)
    hashes.clear()
    attempts = 0
    for name in names[:5]:
        for guess in range(4):
            assert login(name, f"guess-{guess}").status_code == 400
            attempts += 1
    assert attempts == 20 and len(hashes) == 20
    response = login(names[5], "guess-0")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 600
    text = response.content.decode()
    assert "Too many log-in attempts" in text and re.search(r"Try again in \d+ minutes?", text)
    # Even the right password waits, and nothing more is hashed, unknown usernames included.
    assert login(names[5], password).status_code == 429
    assert login("nobody-at-all", "x").status_code == 429
    assert len(hashes) == 20


def test_another_address_and_signed_in_players_are_not_affected(rates, make_player, password):
    make_player("alice")
    for i in range(20):
        login(f"unknown{i}", "x")
    assert login("alice", password).status_code == 429
    assert login("alice", password, ip=NEIGHBOUR).status_code == 302
    signed_in = Client()
    signed_in.force_login(make_player("bob"))
    assert signed_in.get(reverse("games:history"), REMOTE_ADDR=SPRAYER).status_code == 200


def test_successful_logins_do_not_count_against_the_address(rates, make_player, password):
    """An office behind one address logs in all morning: only failures count per address."""
    for i in range(25):
        make_player(f"worker{i}")
        assert login(f"worker{i}", password).status_code == 302


def test_the_window_ends(rates, make_player, password, monkeypatch):
    import config.throttle

    make_player("alice")
    for i in range(20):
        login(f"unknown{i}", "x")
    assert login("alice", password).status_code == 429
    later = config.throttle.time.time() + 601
    monkeypatch.setattr(config.throttle.time, "time", lambda: later)
    assert login("alice", password).status_code == 302


def test_the_site_wide_ceiling_stops_the_addresses_of_the_flood(rates, make_player, password, hashes, steady_clock):
    rates["login_attempts_site"] = "3/60"
    make_player("alice")
    hashes.clear()
    for i in range(3):
        assert login("alice", "wrong", ip=f"192.0.2.{i + 1}").status_code == 400
    for i in range(3):  # the site is over its ceiling: the addresses that failed wait, the right password too
        response = login("alice", password, ip=f"192.0.2.{i + 1}")
        assert response.status_code == 429 and int(response["Retry-After"]) <= 60
    assert len(hashes) == 3  # nothing more hashed for them
    # a new address of the flood gets one guess, then waits as the others do
    assert login("alice", "wrong", ip="192.0.2.50").status_code == 400
    assert login("alice", "wrong", ip="192.0.2.50").status_code == 429
    assert len(hashes) == 4


def test_the_site_wide_ceiling_never_locks_out_a_player_from_an_address_that_has_not_failed(
    rates, make_player, password, steady_clock
):
    """Issue 29: 140 failed log-ins from 8 addresses, and a player with the right password from a ninth got 429,
    every minute the flood went on."""
    rates["login_attempts_site"] = "3/60"
    make_player("alice")
    make_player("bob")
    for i in range(8):
        login("alice", "wrong", ip=f"192.0.2.{i + 1}")
    assert login("alice", password, ip="192.0.2.99").status_code == 302  # the victim of the flood itself
    assert login("bob", password, ip=NEIGHBOUR).status_code == 302


def test_the_admin_login_counts_too(rates, make_player):
    make_player("staffer", is_staff=True)
    url = reverse("admin:login")
    for i in range(20):
        assert login(f"unknown{i}", "x", url=url).status_code == 200
    assert login("staffer", "x", url=url).status_code == 429


def test_axes_still_locks_one_username_from_one_address(rates, make_player, password):
    make_player("alice")
    make_player("bob")
    for i in range(5):
        login("alice", f"wrong{i}")
    assert login("alice", password).status_code == 429  # axes' lock-out page
    assert login("bob", password).status_code == 302  # the address itself is still under its limit


def test_signups_per_address(rates):
    from players.models import Player

    for i in range(10):
        assert signup(f"newbie{i}").status_code == 302
    response = signup("newbie10")
    assert response.status_code == 429 and "Too many sign-ups" in response.content.decode()
    assert not Player.objects.filter(username="newbie10").exists()
    assert signup("newbie10", ip=NEIGHBOUR).status_code == 302


def test_signups_site_wide(rates):
    rates["signup_site"] = "2/60"
    assert signup("one", ip="192.0.2.1").status_code == 302
    assert signup("two", ip="192.0.2.2").status_code == 302
    assert signup("three", ip="192.0.2.3").status_code == 429


def reset(email: str, ip: str = SPRAYER):
    return Client().post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def test_password_reset_requests_per_address_send_no_more_emails(rates, make_player):
    """One address asking for the resets of many accounts (each its first in the interval, so the per-account
    limit never applies) is stopped after five: their owners' inboxes are not flooded."""
    from django.core import mail

    for i in range(7):
        player = make_player(f"owner{i}")
        player.email = f"owner{i}@example.com"
        player.save(update_fields=["email"])
    for i in range(5):
        assert reset(f"owner{i}@example.com").status_code == 302
    assert len(mail.outbox) == 5
    response = reset("owner5@example.com")
    assert response.status_code == 429 and 0 < int(response["Retry-After"]) <= 3600
    assert "Too many password reset requests" in response.content.decode()
    assert len(mail.outbox) == 5  # nothing sent
    assert reset("owner6@example.com", ip=NEIGHBOUR).status_code == 302 and len(mail.outbox) == 6


def test_password_reset_requests_site_wide(rates):
    rates["reset_site"] = "2/60"
    assert reset("a@example.com", ip="192.0.2.1").status_code == 302
    assert reset("b@example.com", ip="192.0.2.2").status_code == 302
    assert reset("c@example.com", ip="192.0.2.3").status_code == 429


def test_ipv6_addresses_count_by_their_64(rf):
    from config.throttle import client_key

    assert client_key(rf.get("/", REMOTE_ADDR="2001:db8:1:2:aaaa::1")) == "2001:db8:1:2::/64"
    assert client_key(rf.get("/", REMOTE_ADDR="2001:db8:1:2:bbbb::9")) == "2001:db8:1:2::/64"
    assert client_key(rf.get("/", REMOTE_ADDR="::ffff:192.0.2.5")) == "192.0.2.5"
    assert client_key(rf.get("/", REMOTE_ADDR="192.0.2.5")) == "192.0.2.5"


def test_spraying_against_the_live_server(rates, live_server, make_player):
    """The audit's probe as it ran: real requests with CSRF, many usernames, one address."""
    from django.core.cache import caches

    rates["login_failures_per_address"] = "6/600"
    host = urlsplit(live_server.url)
    statuses = []
    try:
        for i in range(8):
            conn = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
            conn.request("GET", "/accounts/login/")
            page = conn.getresponse()
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode()).group(1)
            cookie = page.getheader("Set-Cookie").split(";")[0]
            body = urlencode({"csrfmiddlewaretoken": token, "username": f"sprayed{i}", "password": "guess"})
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
            conn.request("POST", "/accounts/login/", body=body, headers=headers)
            answer = conn.getresponse()
            answer.read()
            statuses.append((answer.status, answer.getheader("Retry-After")))
            conn.close()
    finally:
        caches["throttle"].clear()  # committed here (a live server): leave nothing for other tests
    assert [status for status, _ in statuses] == [400] * 6 + [429] * 2
    assert all(int(wait) > 0 for _, wait in statuses[6:])


def test_a_cache_that_fails_counts_nothing_and_refuses_nobody(rates, settings, make_player, password, redis_server):
    """The counts live in Redis with several servers: Redis restarting must not lock every player out (nor 500)."""
    settings.CACHES = {**settings.CACHES, "throttle": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                                      "LOCATION": redis_server.url}}
    make_player("walter")
    redis_server.stop()
    assert login("walter", "wrong").status_code == 400  # counted nowhere, refused by the password alone
    assert login("walter", password).status_code == 302
    assert signup("newcomer").status_code == 302
