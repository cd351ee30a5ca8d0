"""Sessions end everywhere on logout; a player can log out their other sessions; API tokens end with the password
and may expire (issue 20, item 9)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.forms import SetPasswordForm
from django.test import Client
from django.urls import reverse
from django.utils import timezone

NEW_PASSWORD = "an-0ther-Str0ng-passphrase"


def logged_in(player, password: str) -> Client:
    """A browser that logged in through the log-in page."""
    client = Client()
    assert client.post(reverse("login"), {"username": player.username, "password": password}).status_code == 302
    return client


def signed_in(client: Client) -> bool:
    return client.get(reverse("games:history")).status_code == 200


def copy_of(client: Client) -> Client:
    """Another browser holding a copy of ``client``'s session cookie (stolen, or synced)."""
    thief = Client()
    thief.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return thief


def test_logging_out_ends_the_session_for_every_copy_of_its_cookie(player, password):
    browser = logged_in(player, password)
    thief = copy_of(browser)
    assert signed_in(thief)
    assert browser.post(reverse("logout")).status_code == 302
    assert not signed_in(browser)
    assert not signed_in(thief)


def test_sessions_are_stored_with_their_player(player, other_player, password):
    from players.models import PlayerSession

    logged_in(player, password)
    logged_in(player, password)
    logged_in(other_player, password)
    assert PlayerSession.objects.filter(player=player).count() == 2
    assert PlayerSession.objects.filter(player=other_player).count() == 1


def test_log_out_other_sessions(player, other_player, password):
    here, laptop, phone = (logged_in(player, password) for _ in range(3))
    someone_else = logged_in(other_player, password)
    profile = here.get(reverse("profile", args=[player.username])).content.decode()
    assert f'action="{reverse("sessions_end_others", args=[player.username])}"' in profile
    assert "Log out other sessions" in profile
    response = here.post(reverse("sessions_end_others", args=[player.username]), follow=True)
    assert "Logged out 2 other sessions." in response.content.decode()
    assert signed_in(here)
    assert not signed_in(laptop) and not signed_in(phone)
    assert signed_in(someone_else)
    response = here.post(reverse("sessions_end_others", args=[player.username]), follow=True)
    assert "You were not signed in anywhere else." in response.content.decode()


def test_only_the_owner_can_log_out_a_players_sessions(player, other_player, password):
    victim = logged_in(other_player, password)
    attacker = logged_in(player, password)
    assert attacker.post(reverse("sessions_end_others", args=[other_player.username])).status_code == 403
    assert signed_in(victim)
    assert attacker.get(reverse("sessions_end_others", args=[player.username])).status_code == 405


def test_the_button_is_only_on_ones_own_profile(player, other_player, password):
    page = logged_in(player, password).get(reverse("profile", args=[other_player.username])).content.decode()
    assert "Log out other sessions" not in page


# API tokens ----------------------------------------------------------------------------------------------------


def api_status(raw: str) -> tuple[int, dict]:
    response = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/me")
    return response.status_code, response.json()


def test_a_password_change_ends_every_token(player, password):
    from players.models import ApiToken

    _token, raw = ApiToken.issue(player=player, name="bot")
    assert api_status(raw)[0] == 200
    browser = logged_in(player, password)
    form = {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert browser.post(reverse("password_change"), form).status_code == 302
    assert api_status(raw)[0] == 401
    assert not ApiToken.objects.filter(player=player).exists()


def test_a_password_reset_ends_every_token_too(player):
    from players.models import ApiToken

    _token, raw = ApiToken.issue(player=player, name="bot")
    form = SetPasswordForm(player, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert form.is_valid()
    form.save()  # what the reset link's page does
    assert api_status(raw)[0] == 401


def test_other_saves_keep_the_tokens(player):
    from players.models import ApiToken

    _token, raw = ApiToken.issue(player=player, name="bot")
    player.email = "alice@example.com"
    player.save()
    player.check_password("a-Str0ng-passphrase")  # may upgrade the hash: not a new password
    assert api_status(raw)[0] == 200


def test_an_expired_token_is_refused_with_a_clear_401(player):
    from players.models import ApiToken

    _token, raw = ApiToken.issue(player=player, name="bot", expires=timezone.now() - timedelta(minutes=1))
    status, body = api_status(raw)
    assert status == 401
    assert body["code"] == "unauthenticated"
    assert "expired on" in body["message"] and "profile page" in body["message"]


def test_a_token_before_its_expiry_works(player):
    from players.models import ApiToken

    _token, raw = ApiToken.issue(player=player, name="bot", expires=timezone.now() + timedelta(days=1))
    assert api_status(raw)[0] == 200


@pytest.mark.parametrize(("choice", "days"), [("", None), ("30", 30), ("365", 365)])
def test_the_profile_makes_tokens_with_an_expiry(player_client, player, choice, days):
    from players.models import ApiToken

    url = reverse("token_create", args=[player.username])
    response = player_client.post(url, {"name": "bot", "expires_in": choice})
    assert response.status_code == 200
    token = ApiToken.objects.get(player=player)
    if days is None:
        assert token.expires is None
        assert "never" in response.content.decode()
    else:
        assert abs(token.expires - (timezone.now() + timedelta(days=days))) < timedelta(minutes=1)


def test_a_forged_expiry_choice_is_a_400(player_client, player):
    response = player_client.post(reverse("token_create", args=[player.username]), {"name": "bot", "expires_in": "9"})
    assert response.status_code == 400
    assert "Choose when the token expires" in response.content.decode()
    assert not player.api_tokens.exists()
