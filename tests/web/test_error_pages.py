"""The site's own error pages (config.views handlers, templates/4xx.html, 500.html) and the logout page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

HTMX = {"HTTP_HX_REQUEST": "true"}


def _in_site_frame(response) -> str:
    text = response.content.decode()
    assert 'class="site-header"' in text and "site.css" in text, "not the site's own page"
    return text


def test_an_address_nothing_answers_is_a_404_page_of_the_site(player_client):
    response = player_client.get("/no/such/page/")
    assert response.status_code == 404
    text = _in_site_frame(response)
    assert "Page not found" in text and "Error 404" in text
    assert reverse("games:history") in text  # a way on for a signed-in player
    assert "Resolver404" not in text and "tried" not in text  # nothing of the URL patterns leaks


def test_signed_out_404_offers_the_login(client, db):
    text = _in_site_frame(client.get("/no/such/page/"))
    assert reverse("login") in text


def test_a_game_nobody_may_see_says_so_in_words(player_client, make_player, make_game):
    stranger = make_player("carol")
    hidden = make_game(player=stranger, private=True)
    for pk in (hidden.pk, 999_999):
        response = player_client.get(reverse("games:detail", args=[pk]))
        assert response.status_code == 404
        assert "No such game." in _in_site_frame(response)


def test_unknown_player_is_named_escaped(player_client):
    response = player_client.get("/players/%3Cb%3Ex/")
    assert response.status_code == 404
    text = _in_site_frame(response)
    assert "There is no player called" in text
    assert "&lt;b&gt;x" in text and "<b>x" not in text


def test_403_page_carries_the_views_reason(player_client, other_player):
    response = player_client.post(reverse("token_create", args=[other_player.username]), {"name": "bot"})
    assert response.status_code == 403
    text = _in_site_frame(response)
    assert "Not allowed" in text and "Only the owner of a profile can change it." in text
    assert not other_player.api_tokens.exists()


def test_a_form_address_opened_as_a_page_is_a_405_page(player_client, make_game):
    game = make_game()
    response = player_client.get(reverse("games:move", args=[game.pk]))
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert "Not a page" in _in_site_frame(response)


def test_htmx_and_api_405_answers_are_left_alone(player_client, make_game):
    game = make_game()
    response = player_client.get(reverse("games:move", args=[game.pk]), **HTMX)
    assert response.status_code == 405 and response.content == b""
    response = player_client.delete("/api/games")
    assert response.status_code == 405
    assert "site-header" not in response.content.decode()


def test_an_expired_form_gets_the_sites_csrf_page(player):
    from games.models import Game

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    response = browser.post(reverse("games:new"), {"variant": "classic", "opponent": "easy", "side": "X"})
    assert response.status_code == 403
    text = _in_site_frame(response)
    assert "Form expired" in text
    assert reverse("games:history") in text and "Log out" in text  # still shown as signed in
    assert not Game.objects.exists()


def test_a_server_error_shows_the_sites_500_page(player, monkeypatch):
    import games.web.views.history

    def broken(*args, **kwargs):
        raise RuntimeError("the database fell over")

    monkeypatch.setattr(games.web.views.history, "game_history", broken)
    browser = Client(raise_request_exception=False)
    browser.force_login(player)
    response = browser.get(reverse("games:history"))
    assert response.status_code == 500
    text = response.content.decode()
    assert "Something went wrong" in text and "site.css" in text
    assert "the database fell over" not in text and "Traceback" not in text


@pytest.mark.parametrize("signed_in", [True, False])
def test_logout_address_opened_as_a_page(client, player, signed_in):
    if signed_in:
        client.force_login(player)
    response = client.get(reverse("logout"))
    if not signed_in:
        assert response.status_code == 302 and response["Location"] == reverse("login")
        return
    assert response.status_code == 200
    text = _in_site_frame(response)
    assert "Log out?" in text and f'action="{reverse("logout")}"' in text and 'method="post"' in text
    assert client.get(reverse("games:history")).status_code == 200  # a GET logs nobody out
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("games:history")).status_code == 302  # the button's POST does


# Addresses without their slash, methods nobody answers, the API's own 404 and CSRF answers --------------


@pytest.mark.parametrize("debug", [True, False])
def test_a_post_to_an_address_without_its_slash_is_a_404_that_says_so(player_client, make_game, settings, debug):
    # Django's slash redirect cannot carry a POST's body: under DEBUG it raised (a 500), otherwise it lost it
    settings.DEBUG = debug
    game = make_game()
    response = player_client.post(f"/games/{game.pk}/move", {"move": "4"})
    assert response.status_code == 404
    if not debug:  # (under DEBUG, Django's own 404 page shows instead of the site's)
        assert f"This address needs a slash at its end: /games/{game.pk}/move/" in _in_site_frame(response)
    game.refresh_from_db()
    assert game.ply == 0
    assert player_client.post("/games/new", {"variant": "classic", "opponent": "local"}).status_code == 404
    # a page opened without its slash is still sent to it
    redirected = player_client.get(f"/games/{game.pk}")
    assert redirected.status_code == 301 and redirected["Location"] == f"/games/{game.pk}/"


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch", "get"])
def test_the_api_without_an_endpoint_is_a_json_404(player_client, method):
    for url in ("/api", "/api/"):
        response = getattr(player_client, method)(url)
        if method == "get" and url == "/api":
            assert response.status_code == 301 and response["Location"] == "/api/"  # a GET may be sent on
            continue
        assert response.status_code == 404 and response["Content-Type"] == "application/json", (url, response)
        assert response.json()["code"] == "not_found" and "/api/docs" in response.json()["message"]


@pytest.mark.parametrize("url", ["/rules/", "/api/docs", "/api/openapi.json", "/api/variants", "/healthz"])
def test_trace_and_unknown_methods_are_405(client, db, url):
    for method in ("TRACE", "CONNECT", "BREW"):
        response = client.generic(method, url)
        assert response.status_code == 405 and "GET" in response["Allow"]
        if url.startswith("/api/"):
            assert response.json() == {
                "code": "method_not_allowed", "message": f"This site does not answer '{method}' requests."
            }
        else:
            assert f"does not answer &#x27;{method}&#x27; requests" in response.content.decode()


def test_a_session_post_to_the_api_without_its_csrf_token_is_a_json_403(player):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    response = browser.post("/api/docs", {})
    assert response.status_code == 403 and response.json()["code"] == "csrf_failed"


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/players/alice/"), ("put", "/players/alice/"), ("delete", "/players/alice/"), ("post", "/"),
        ("post", "/accounts/profile/"), ("post", "/healthz"), ("put", "/accounts/signup/"),
        ("delete", "/accounts/signup/"),
    ],
)
def test_pages_refuse_methods_they_do_not_take(player_client, method, url):
    response = getattr(player_client, method)(url)
    assert response.status_code == 405, (method, url, response.status_code)


def test_head_answers_as_get_on_the_logout_page(player_client):
    head, get = player_client.head("/accounts/logout/"), player_client.get("/accounts/logout/")
    assert head.status_code == get.status_code == 200


@pytest.mark.parametrize("path", ["/no/such/page/", "/games/999999/", "/players/nobody-here/"])
def test_under_debug_a_wrong_address_is_the_site_404_not_the_debug_page(player_client, settings, path):
    """`make run` runs with DEBUG on: a player who mistypes an address sees the site's page, not Django's list of
    URL patterns."""
    settings.DEBUG = True
    response = player_client.get(path)
    assert response.status_code == 404
    text = _in_site_frame(response)
    assert "Page not found" in text and "URLconf" not in text and "urlpatterns" not in text


def test_under_debug_an_address_without_its_slash_is_still_sent_on(player_client, settings):
    settings.DEBUG = True
    response = player_client.get("/rules")
    assert response.status_code == 301 and response["Location"] == "/rules/"
