"""config.middleware: a signed-out htmx request is sent to the login page as a whole page."""

from __future__ import annotations

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
    response = player_client.get("/", **HTMX)  # signed in: the home page's own redirect
    assert response.status_code == 302 and response["Location"] == reverse("games:history")
