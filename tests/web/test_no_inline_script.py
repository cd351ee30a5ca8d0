"""A Content-Security-Policy without 'unsafe-inline' for scripts breaks no page: every page type, and the htmx
answers that swap parts of them, carry no inline ``<script>`` and no ``on*=`` handler attribute (issue 18).

Every script lives in static/js/ and is driven by data-* attributes.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.services import (
    challenge_accept,
    challenge_create,
    game_create,
    game_resign,
    move_play,
)

HTMX = {"HTTP_HX_REQUEST": "true"}

#: a script element without a src attribute: inline code (a JSON data block, which no browser runs, is left alone)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.IGNORECASE)
#: an event handler attribute: onclick=, onfocus=, onload=...
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)

VARIANTS = [
    ("classic", {}), ("four", {}), ("nxn", {"size": 5}), ("mnk", {"rows": 6, "cols": 7, "k": 4}),
    ("ultimate", {}), ("multi", {}),
]


def assert_no_inline_script(html: str, where: str) -> None:
    assert not INLINE_SCRIPT.findall(html), f"{where}: inline <script> {INLINE_SCRIPT.findall(html)[:2]}"
    handlers = [m.group(0)[-60:] for m in HANDLER.finditer(html)]
    assert not handlers, f"{where}: event handler attribute {handlers[:2]}"


def page(client: Client, url: str, *, status: int | tuple[int, ...] = 200, method: str = "get", **kwargs) -> str:
    response = getattr(client, method)(url, **kwargs)
    expected = status if isinstance(status, tuple) else (status,)
    assert response.status_code in expected, (url, response.status_code)
    html = response.content.decode()
    assert_no_inline_script(html, f"{method.upper()} {url}")
    return html


def test_the_check_finds_what_it_looks_for():
    for bad in ("<script>alert(1)</script>", '<script type="module">x()</script>', '<button onclick="x()">',
                '<input type="text" readonly\n       onfocus="this.select()">'):
        with pytest.raises(AssertionError):
            assert_no_inline_script(bad, "sample")
    assert_no_inline_script('<script src="/static/js/site.js" defer></script><p>Turn on the light</p>', "ok")
    assert_no_inline_script('<script type="application/json" id="settings">{"a": 1}</script>', "data")


def test_pages_for_visitors(client, db):
    for name in ("login", "signup", "password_reset", "rules"):
        page(client, reverse(name))
    page(client, "/no-such-page/", status=404)
    page(client, reverse("login"), method="post", data={"username": "nobody", "password": "x"}, status=(200, 400))


def test_pages_of_a_signed_in_player(player_client, player, other_player, make_game):
    page(player_client, reverse("games:new"))
    page(player_client, "/accounts/logout/")  # asks to confirm
    page(player_client, reverse("games:new"), method="post", data={"variant": "nxn", "size": "99"}, status=400)
    game = make_game(opponent="easy", strategy="random")
    game_resign(game=game, player=player)
    page(player_client, reverse("games:history"))
    page(player_client, reverse("games:history"), HTTP_HX_REQUEST="true")
    page(player_client, reverse("games:history") + "?variant=nope", status=400)
    page(player_client, reverse("games:lobby"), HTTP_HX_REQUEST="true")
    page(player_client, reverse("games:my_turn"), HTTP_HX_REQUEST="true")
    page(player_client, reverse("leaderboard"))
    page(player_client, "/api/docs")  # the API's docs page (Swagger UI)
    page(player_client, reverse("profile", args=[player.username]))
    page(player_client, reverse("profile", args=[other_player.username]))
    # the new token's page: the one with a Copy button
    html = page(player_client, reverse("token_create", args=[player.username]), method="post", data={"name": "bot"})
    assert "data-copy-from=" in html


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_game_pages_of_every_variant_and_opponent(variant, options, player, other_player, player_client,
                                                  other_client):
    games = {
        "computer": game_create(player=player, variant=variant, options=options, opponent="easy", side="X",
                                strategy="random"),
        "one screen": game_create(player=player, variant=variant, options=options, opponent="local", side="X"),
        "watched": game_create(player=player, variant=variant, options=options, opponent="watch", side="X",
                               strategy="random"),
        "open challenge": challenge_create(player=player, variant=variant, options=options, side="X"),
    }
    games["two players"] = challenge_accept(
        game=challenge_create(player=player, variant=variant, options=options, side="X"), player=other_player
    )
    for kind, game in games.items():
        url = reverse("games:detail", args=[game.pk])
        page(player_client, url)
        page(other_client, url)  # a spectator, or the one who may accept the challenge
        if kind != "open challenge":
            page(player_client, url, HTTP_HX_REQUEST="true")
    # playing: the htmx answers of a move, a refused move, a hint, a take back, a resignation
    computer = games["computer"]
    move_url = reverse("games:move", args=[computer.pk])
    page(player_client, move_url, method="post", data={"move": "nonsense"}, status=400, **HTMX)
    html = page(player_client, reverse("games:detail", args=[computer.pk]))
    first = re.search(r'data-move="(\d+)"', html).group(1)
    page(player_client, move_url, method="post", data={"move": first}, **HTMX)
    page(player_client, reverse("games:takeback", args=[computer.pk]), method="post", status=(200, 409), **HTMX)
    page(player_client, reverse("games:hint", args=[computer.pk]), method="post", status=(200, 409), **HTMX)
    duel = games["two players"]
    page(player_client, reverse("games:draw", args=[duel.pk]), method="post", **HTMX)
    page(other_client, reverse("games:poll", args=[duel.pk]) + "?v=0", **HTMX)
    page(player_client, reverse("games:resign", args=[duel.pk]), method="post", **HTMX)
    # the replay of a finished game, a step of it, and a refused Play on
    page(player_client, reverse("games:replay", args=[duel.pk]))
    page(player_client, reverse("games:replay", args=[duel.pk]) + "?ply=0", **HTMX)
    page(player_client, reverse("games:replay", args=[duel.pk]) + "?ply=x", status=400)
    page(player_client, reverse("games:play_on", args=[duel.pk]), method="post", data={"ply": "99"}, status=(400, 409))


def test_error_pages(player_client, player, other_player, make_game):
    game = make_game(player=other_player, private=True)
    page(player_client, reverse("games:detail", args=[game.pk]), status=404)
    page(player_client, reverse("games:move", args=[game.pk]), status=405)
    page(player_client, reverse("token_create", args=[other_player.username]), method="post", data={"name": "x"},
         status=403)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    page(browser, reverse("games:new"), method="post", data={"variant": "classic"}, status=403)


def test_the_500_page(player, monkeypatch):
    import games.web.views.history

    def broken(*args, **kwargs):
        raise RuntimeError("down")

    monkeypatch.setattr(games.web.views.history, "game_history", broken)
    browser = Client(raise_request_exception=False)
    browser.force_login(player)
    page(browser, reverse("games:history"), status=500)


def test_replay_of_every_variant(variant_games):
    for client, game in variant_games:
        page(client, reverse("games:replay", args=[game.pk]))


@pytest.fixture
def variant_games(player, player_client):
    games = []
    for variant, options in VARIANTS:
        game = game_create(player=player, variant=variant, options=options, opponent="local", side="X")
        for _ in range(3):
            game.refresh_from_db()
            html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
            move = int(re.search(r'data-move="(\d+)"', html).group(1))
            move_play(game=game, player=player, move=move)
        games.append((player_client, game_resign(game=game, player=player)))
    return games
