"""Login throttling (django-axes): password guessing is stopped, nobody else is disturbed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

LIMIT = settings.AXES_FAILURE_LIMIT
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.9"


def attempt(client: Client, username: str, password: str, *, url: str | None = None, ip: str = HOME):
    return client.post(url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def signed_in_as(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def guess(username: str, times: int = LIMIT, ip: str = HOME, url: str | None = None) -> Client:
    client = Client()
    for i in range(times):
        response = attempt(client, username, f"wrong-{i}", ip=ip, url=url)
        # The login form again with its error (400; the admin's own login page says 200); the failure that
        # reaches the limit gets the lockout page.
        assert response.status_code == (429 if i + 1 >= LIMIT else 200 if url else 400)
    return client


def test_settings_are_sensible():
    assert 3 <= LIMIT <= 10
    assert timedelta(minutes=5) <= settings.AXES_COOLOFF_TIME <= timedelta(hours=1)
    assert settings.AUTHENTICATION_BACKENDS[0] == "config.auth.ThrottledLoginBackend"


def test_wrong_passwords_lock_out_even_the_right_password(player, password):
    client = guess(player.username)
    response = attempt(client, player.username, password)
    assert response.status_code == 429
    assert signed_in_as(client) is None
    text = response.content.decode()
    assert "Too many failed log-ins" in text
    assert f"{settings.AXES_COOLOFF_TIME.seconds // 60} minutes" in text
    assert response["Retry-After"] == str(settings.AXES_COOLOFF_TIME.seconds)
    # A fresh client (new cookies) from the same address is refused too: the lock is not in the session.
    fresh = Client()
    assert attempt(fresh, player.username, password).status_code == 429
    assert signed_in_as(fresh) is None


def test_lockout_ends_after_the_cooloff(player, password):
    from axes.models import AccessAttempt

    guess(player.username)
    client = Client()
    assert attempt(client, player.username, password).status_code == 429
    # Fifteen minutes and a bit later...
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=5))
    response = attempt(client, player.username, password)
    assert response.status_code == 302
    assert signed_in_as(client) == str(player.pk)


def test_fewer_failures_than_the_limit_do_not_lock(player, password):
    guess(player.username, LIMIT - 1)
    client = Client()
    assert attempt(client, player.username, password).status_code == 302
    assert signed_in_as(client) == str(player.pk)


def test_a_right_password_clears_the_count_of_that_player_only(player, other_player, password):
    guess(player.username, LIMIT - 1)
    guess(other_player.username, LIMIT - 1)
    ok = Client()
    assert attempt(ok, player.username, password).status_code == 302
    # alice starts again from zero: LIMIT - 1 more failures do not lock her out...
    guess(player.username, LIMIT - 1)
    assert attempt(Client(), player.username, password).status_code == 302
    # ...but bob's failures still count: one more and he is locked.
    assert attempt(Client(), other_player.username, "wrong-again").status_code == 429
    assert attempt(Client(), other_player.username, password).status_code == 429


def test_a_lockout_touches_no_one_else(player, other_player, password):
    guess(player.username)
    # Another player from the same address logs in.
    client = Client()
    assert attempt(client, other_player.username, password).status_code == 302
    assert signed_in_as(client) == str(other_player.pk)
    # The same player from another address logs in (an attacker cannot lock a victim out from afar).
    client = Client()
    assert attempt(client, player.username, password, ip=ELSEWHERE).status_code == 302
    assert signed_in_as(client) == str(player.pk)
    # Sessions already open stay open; and the lock is still there for the guessing address.
    assert attempt(Client(), player.username, password).status_code == 429


def test_the_admin_login_is_throttled_too(staff, password):
    url = reverse("admin:login")
    guess(staff.username, url=url)
    client = Client()
    response = attempt(client, staff.username, password, url=url)
    assert response.status_code == 429
    assert signed_in_as(client) is None
    assert client.get(reverse("admin:index")).status_code == 302  # back to the login page


def test_signed_in_players_keep_working_while_locked_out(player, player_client, password):
    guess(player.username)
    assert player_client.get(reverse("games:history")).status_code == 200


def test_throttling_uses_the_database_and_records_the_address(player):
    from axes.models import AccessAttempt

    guess(player.username, 2)
    attempt_row = AccessAttempt.objects.get(username=player.username)
    assert attempt_row.failures_since_start == 2
    assert attempt_row.ip_address == HOME


@pytest.mark.parametrize("via", ["client.login", "force_login"])
def test_logins_without_a_request_still_work(player, password, via):
    """Test clients and scripts authenticate without a request: not throttled, and not broken."""
    client = Client()
    if via == "client.login":
        assert client.login(username=player.username, password=password)
    else:
        client.force_login(player)
    assert client.get(reverse("games:history")).status_code == 200


def test_signup_logs_the_new_player_in(db):
    client = Client()
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "a-Str0ng-passphrase", "password2": "a-Str0ng-passphrase"},
    )
    assert response.status_code == 302
    assert signed_in_as(client) is not None


def test_client_ip_behind_trusted_proxies(monkeypatch, rf):
    from config.auth import client_ip

    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert client_ip(request) == "10.0.0.1"  # no proxy trusted: the header is ignored
    monkeypatch.setenv("DJANGO_TRUSTED_PROXIES", "1")
    assert client_ip(request) == "203.0.113.7"  # what our proxy saw, not what the client wrote
