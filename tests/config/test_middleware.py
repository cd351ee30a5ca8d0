"""config.middleware: a signed-out htmx request is sent to the login page as a whole page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_signed_out_poll_goes_to_login_and_back_to_the_page(make_game):
    game = make_game()
    page = f"http://testserver/games/{game.pk}/"
    response = Client().get(f"/games/{game.pk}/poll/", {"v": "1"}, HTTP_HX_CURRENT_URL=page, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    assert b"password" not in response.content  # no login form to swap into the board


def test_signed_out_move_goes_to_login_and_stores_nothing(make_game):
    game = make_game()
    response = Client().post(
        reverse("games:move", args=[game.pk]), {"move": "4"}, HTTP_HX_CURRENT_URL=f"http://testserver/games/{game.pk}/",
        **HTMX,
    )
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")
    game.refresh_from_db()
    assert game.ply == 0


def test_the_page_to_come_back_to_must_be_on_this_site():
    response = Client().get(reverse("games:lobby"), HTTP_HX_CURRENT_URL="https://evil.example/games/", **HTMX)
    assert response["HX-Redirect"] == "/accounts/login/?next=%2F"
    response = Client().get(reverse("games:lobby"), **HTMX)  # no HX-Current-URL at all
    assert response["HX-Redirect"] == "/accounts/login/?next=%2F"


def test_other_redirects_and_plain_requests_are_left_alone(player_client):
    response = Client().get(reverse("games:lobby"))
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/games/lobby/"
    assert "HX-Redirect" not in response
    response = player_client.get("/games/1/", **HTMX)  # signed in: a page's own answer (a 404 here)
    assert response.status_code == 404 and "HX-Redirect" not in response


def test_a_forged_current_url_still_goes_to_login():
    # not a URL at all: urlsplit raises on it
    response = Client().get(reverse("games:history"), HTTP_HX_CURRENT_URL="http://[::1", **HTMX)
    assert response["HX-Redirect"] == "/accounts/login/?next=%2F"


# NUL characters: refused before any view sees them ---------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/players/a%00b/", "/players/a%00b/email/", "/games/?variant=%00", "/admin/games/game/?variant=%00",
     "/games/lobby/?v=1%00"],
)
def test_nul_in_the_address_gets_400(player_client, staff_client, path):
    client = staff_client if path.startswith("/admin/") else player_client
    response = client.get(path)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()


def test_nul_in_a_form_gets_400_and_stores_nothing(player_client, player, make_game):
    from players.models import ApiToken

    response = player_client.post(reverse("token_create", args=[player.username]), {"name": "tok\x00en"})
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not ApiToken.objects.filter(player=player).exists()
    game = make_game()
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4\x00"}, **HTMX)
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.ply == 0
    # the same form without it works: the body read here is still there for the view
    assert player_client.post(reverse("token_create", args=[player.username]), {"name": "token"}).status_code in (
        200, 302
    )
    assert ApiToken.objects.filter(player=player, name="token").exists()


def test_nul_under_api_gets_json(player_client):
    response = player_client.get("/api/games?variant=%00")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_a_typed_percent_00_is_not_a_nul(player_client, player):
    # a form sends the text "%00" as %2500: that is allowed through to the form's own checks
    from players.models import ApiToken

    player_client.post(reverse("token_create", args=[player.username]), {"name": "100%00"})
    assert ApiToken.objects.filter(player=player, name="100%00").exists()
