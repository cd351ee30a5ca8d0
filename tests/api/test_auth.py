"""Who may call the API: a personal token or the site's session (CSRF); the tokens made on the profile page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from players.models import ApiToken, hash_token

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", "/api/me"), ("get", "/api/games"), ("get", "/api/games/1"), ("post", "/api/games"),
     ("post", "/api/games/1/moves"), ("post", "/api/games/1/resign"), ("post", "/api/games/1/computer-move")],
)
def test_anonymous_gets_401_json(client, method, url):
    response = getattr(client, method)(url, content_type="application/json")
    assert_error(response, 401, "unauthenticated")


def test_session_auth(player_client, player):
    response = player_client.get("/api/me")
    assert response.status_code == 200
    assert response.json() == {"id": player.pk, "username": "alice", "bot": False, "ratings": {}}


def test_token_auth_marks_the_token_used(token_client, player, token):
    response = token_client.get("/api/me")
    assert response.json()["username"] == "alice"
    stored = ApiToken.objects.get(player=player)
    assert stored.last_used is not None
    assert stored.token_hash == hash_token(token) and token not in (stored.token_hash, stored.prefix)
    assert token.startswith(stored.prefix)


@pytest.mark.parametrize("header", ["Bearer ttt_nope", "Bearer ", "Basic YWxpY2U6eA==", "Bearer " + "x" * 5000])
def test_bad_tokens_get_401(client, header):
    assert_error(client.get("/api/me", HTTP_AUTHORIZATION=header), 401, "unauthenticated")


def test_revoked_token_gets_401(token_client, player):
    assert token_client.get("/api/me").status_code == 200
    ApiToken.objects.filter(player=player).delete()
    assert_error(token_client.get("/api/me"), 401, "unauthenticated")


def test_token_of_a_deactivated_player_gets_401(token_client, player):
    player.is_active = False
    player.save()
    assert_error(token_client.get("/api/me"), 401, "unauthenticated")


def test_session_post_needs_csrf_token_but_bearer_does_not(player, token):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    payload = {"variant": "classic", "opponent": "local"}
    assert_error(post(browser, "/api/games", payload), 403, "csrf_failed")
    assert not Game.objects.exists()
    browser.get(reverse("profile", args=["alice"]))  # sets the csrftoken cookie
    csrf = browser.cookies["csrftoken"].value
    assert post(browser, "/api/games", payload, HTTP_X_CSRFTOKEN=csrf).status_code == 201
    bot = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert post(bot, "/api/games", payload).status_code == 201


def test_anonymous_post_with_csrf_enforced_is_401_not_403():
    assert_error(post(Client(enforce_csrf_checks=True), "/api/games", {}), 401, "unauthenticated")


# Profile: API tokens -------------------------------------------------------------------------------------------


def test_profile_create_token_shows_it_once(player_client, player):
    url = reverse("token_create", args=["alice"])
    response = player_client.post(url, {"name": "my bot"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    stored = ApiToken.objects.get(player=player)
    html = response.content.decode()
    start = html.index('id="new-token-value">') + len('id="new-token-value">')
    raw = html[start: html.index("<", start)]
    assert stored.token_hash == hash_token(raw) and stored.name == "my bot"
    assert Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/me").json()["username"] == "alice"
    again = player_client.get(reverse("profile", args=["alice"])).content.decode()
    assert raw not in again and stored.prefix in again and "my bot" in again
    assert 'aria-label="Revoke my bot"' in again  # which one, for a screen reader


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_profile_create_token_needs_a_name(player_client, name):
    response = player_client.post(reverse("token_create", args=["alice"]), {"name": name})
    html = response.content.decode()
    assert response.status_code == 400 and 'class="form-errors" role="alert" id="token-name-error"' in html
    # the error belongs to the field, which takes the focus back
    assert 'aria-invalid="true" aria-describedby="token-name-error" autofocus' in html
    assert not ApiToken.objects.exists()


def test_profile_tokens_are_the_owners_business(player_client, other_client, player, other_player, token):
    stored = ApiToken.objects.get(player=player)
    own = player_client.get(reverse("profile", args=["alice"])).content.decode()
    assert ">bot<" in own and "Revoke bot" in own and stored.prefix in own
    page = other_client.get(reverse("profile", args=["alice"])).content.decode()
    # (">bot<", not "bot": the random CSRF token in the page can spell three letters)
    assert ">bot<" not in page and "Revoke bot" not in page and stored.prefix not in page and "token-form" not in page
    assert other_client.post(reverse("token_create", args=["alice"]), {"name": "evil"}).status_code == 403
    assert other_client.post(reverse("token_revoke", args=["alice", stored.pk])).status_code == 403
    # bob's own revoke URL with alice's token id: not his token
    assert other_client.post(reverse("token_revoke", args=["bob", stored.pk])).status_code == 404
    assert list(ApiToken.objects.values_list("player__username", flat=True)) == ["alice"]


def test_profile_token_views_need_post_and_login(client, player_client, player, token):
    stored = ApiToken.objects.get(player=player)
    assert player_client.get(reverse("token_create", args=["alice"])).status_code == 405
    assert player_client.get(reverse("token_revoke", args=["alice", stored.pk])).status_code == 405
    response = client.post(reverse("token_create", args=["alice"]), {"name": "x"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert ApiToken.objects.count() == 1


def test_profile_revoke_token(player_client, player, token):
    stored = ApiToken.objects.get(player=player)
    response = player_client.post(reverse("token_revoke", args=["alice", stored.pk]), follow=True)
    assert response.status_code == 200 and "revoked" in response.content.decode()
    assert not ApiToken.objects.exists()
    assert_error(Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/me"), 401, "unauthenticated")
