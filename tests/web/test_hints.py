"""Hints: the hard level's move, shown on the board, in games without another person (services, page, API)."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from games.engine import get_variant
from games.models import Game

HTMX = {"HTTP_HX_REQUEST": "true"}
CLASSIC = get_variant("classic")


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_hint_on_the_game_page(make_game, player, player_client):
    game = make_game(opponent="easy", strategy="random")
    page = reverse("games:detail", args=[game.pk])
    url = reverse("games:hint", args=[game.pk])
    html = player_client.get(page).content.decode()
    assert 'id="hint-button"' in html and url in html
    response = player_client.post(url, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("data-hint") == 1 and 'id="hint"' in html and "1 hint in this game." in html
    cell = int(html.split("data-hint")[0].rsplit('data-move="', 1)[1].split('"')[0])
    assert f"Hint: {CLASSIC.cell_name(cell)}, highlighted on the board." in html
    assert f'hx-swap-oob="innerHTML">Hint: {CLASSIC.cell_name(cell)}.</span>' in html  # and read out
    assert 'id="hint-button"' not in html and 'disabled title="The hint is on the board">Hint<' in html
    response = player_client.post(url)  # without JavaScript: the page itself, with the same hint
    assert response.status_code == 200 and f'data-move="{cell}" data-hint' in response.content.decode()
    assert fresh(game).hints == 1  # the same position's hint again: not counted twice
    html = player_client.get(page).content.decode()  # a reload keeps it on the board
    name = CLASSIC.cell_name(cell)
    assert f'data-move="{cell}" data-hint' in html and f"Hint: {name}, highlighted on the board." in html


def test_no_hint_button_against_another_player_or_for_spectators(duel, make_game, make_player, player_client):
    assert 'id="hint-button"' not in player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    response = player_client.post(reverse("games:hint", args=[duel.pk]), **HTMX)
    assert response.status_code == 409 and "not against another player" in response.content.decode()
    game = make_game(opponent="easy", strategy="random")
    carol = Client()
    carol.force_login(make_player("carol"))
    assert 'id="hint-button"' not in carol.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert carol.post(reverse("games:hint", args=[game.pk]), **HTMX).status_code == 403
    assert carol.get(reverse("games:hint", args=[game.pk])).status_code == 405
