"""My games (the history and its filters) and the replay of a finished game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import get_variant
from games.models import Game
from games.services import game_create, game_resign, move_play
from tests.web.test_views import HTMX, data_moves, finish, vs_random

pytestmark = pytest.mark.django_db


# History --------------------------------------------------------------------------------------------


def test_history_lists_my_games_newest_first(player_client, player, other_player, make_game):
    first = make_game()
    second = vs_random(player)
    mine_hidden = game_create(player=other_player, variant="classic", options={}, opponent="local", side="X")
    html = player_client.get(reverse("games:history")).content.decode()
    assert html.index(f'data-game="{second.pk}"') < html.index(f'data-game="{first.pk}"')
    assert f'data-game="{mine_hidden.pk}"' not in html


def test_history_filters(player_client, player):
    won = vs_random(player)
    finish(won, player, ())  # unfinished for now
    lost = vs_random(player, side="O")
    nxn = game_create(player=player, variant="nxn", options={"size": 4}, opponent="easy", side="X", strategy="random")
    Game.objects.filter(pk=won.pk).update(status="finished", result="X")
    Game.objects.filter(pk=lost.pk).update(status="finished", result="X")

    def listed(**params):
        html = player_client.get(reverse("games:history"), params).content.decode()
        return {int(pk) for pk in re.findall(r'data-game="(\d+)"', html)}

    assert listed() == {won.pk, lost.pk, nxn.pk}
    assert listed(result="won") == {won.pk}
    assert listed(result="lost") == {lost.pk}
    assert listed(result="unfinished") == {nxn.pk}
    assert listed(result="drawn") == set()
    assert listed(variant="nxn") == {nxn.pk}
    assert listed(variant="classic", result="lost") == {lost.pk}
    assert listed(variant="bogus") == {won.pk, lost.pk, nxn.pk}  # an unknown filter is left out (and named)
    assert listed(variant="bogus", result="lost") == {lost.pk}  # the filters that make sense still hold


@pytest.mark.parametrize("htmx", [True, False])
def test_history_names_a_filter_it_does_not_know(player_client, player, htmx):
    params = {"variant": "nope", "result": "bogus"}
    response = player_client.get(reverse("games:history"), params, **(HTMX if htmx else {}))
    assert response.status_code == 400
    html = response.content.decode()
    if not htmx:  # the full page shows it under the filters; the partial is only the table
        assert (
            "There is no variant called “nope”, so every variant is shown. "
            "There is no result filter called “bogus”, so any result is shown."
        ) in html
        assert 'id="filter-error"' in html
    assert player_client.get(reverse("games:history"), {"variant": "nxn"}).status_code == 200
    assert 'id="filter-error"' not in player_client.get(reverse("games:history")).content.decode()


def test_an_empty_history_says_why(player_client, make_game):
    assert "No games here yet." in player_client.get(reverse("games:history")).content.decode()
    make_game()
    html = player_client.get(reverse("games:history"), {"variant": "ultimate"}).content.decode()
    assert "No games match these filters." in html and "No games here yet." not in html


def test_history_htmx_partial_and_pagination(player_client, player, make_game):
    for _ in range(23):
        make_game()
    response = player_client.get(reverse("games:history"))
    html = response.content.decode()
    assert len(re.findall(r'data-game="', html)) == 20
    assert "Page 1 of 2" in html
    response = player_client.get(reverse("games:history"), {"page": 2}, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="history"') and "<html" not in html
    assert len(re.findall(r'data-game="', html)) == 3
    # A page that is not there: the nearest is shown; a typed link is told so (400), the list refreshing itself is not
    for page, says in (("999", "There is no page 999 (pages 1 to 2), so page 2 is shown."),
                        ("0", "There is no page 0 (pages 1 to 2), so page 2 is shown."),
                        ("abc", "“abc” is not a page number, so page 1 is shown."),
                        ("-1", "“-1” is not a page number, so page 1 is shown."),
                        ("٢", "“٢” is not a page number, so page 1 is shown.")):
        response = player_client.get(reverse("games:history"), {"page": page})
        assert response.status_code == 400 and says in response.content.decode(), page
        assert len(re.findall(r'data-game="', response.content.decode())) in (3, 20)
    refreshed = player_client.get(reverse("games:history"), {"page": "3"}, **HTMX)
    assert refreshed.status_code == 200 and len(re.findall(r'data-game="', refreshed.content.decode())) == 3


# Replay ---------------------------------------------------------------------------------------------


def test_replay_steps_through_the_moves(player_client, make_game, player):
    game = make_game()
    finish(game, player)
    url = reverse("games:replay", args=[game.pk])
    html = player_client.get(url).content.decode()
    assert re.search(r'id="status"[^>]*>X wins<', html)
    assert html.count('data-mark="X"') == 3 and data_moves(html) == []

    response = player_client.get(url, {"ply": 2}, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay"')
    assert response["HX-Replace-Url"] == f"{url}?ply=2" and "HX-Push-Url" not in response
    assert html.count('data-mark="X"') == 1 and html.count('data-mark="O"') == 1
    assert 'data-cell="3" data-mark="O"' in html
    assert "After move 2 of 5" in html

    html = player_client.get(url, {"ply": 0}).content.decode()
    assert 'data-mark="X"' not in html and 'id="replay-first" aria-disabled="true"' in html
    # not a position of this game: refused (400), with the end shown and the reason
    for ply, says in (("junk", "“junk” is not a number of moves"), ("-1", "“-1” is not a number of moves"),
                      ("٣", "“٣” is not a number of moves"), ("99", "This game has 5 moves: there is no position after "
                                                                   "move 99, so its end is shown.")):
        response = player_client.get(url, {"ply": ply})
        html = response.content.decode()
        assert response.status_code == 400 and says in html, ply
        assert html.count('data-mark="X"') == 3 and "5 / 5" in html


def test_the_replay_end_is_announced_in_the_players_words(player_client, player):
    game = vs_random(player)  # alice is X
    player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX)  # the computer answers
    game_resign(game=game, player=player)
    html = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 2}, **HTMX).content.decode()
    said = html.split('id="replay-announce" hx-swap-oob="innerHTML">')[1].split("<")[0]
    assert said.startswith("Move 2 of 2: O on ") and said.endswith("O wins (X resigned) — you lost."), said
    assert 'class="status status-lost"' in html  # in the game page's colours too


def test_replay_of_nested_game(player_client, make_game, player):
    game = make_game(variant="multi")
    for move in (36, 2, 26):
        move_play(game=game, player=player, move=move)
    html = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 3}).content.decode()
    assert len(re.findall(r"data-cell=", html)) == 81
    names = [get_variant("multi").cell_name(move) for move in (36, 2, 26)]  # as one 9 x 9 board
    listed = re.findall(r'<td class="move-name[^"]*" data-ply="\d+"[^>]*><a [^>]*>(\w+)', html)
    assert listed == names == ["d6", "c9", "i7"]
    assert re.findall(r'<tr data-number="(\d)"><th scope="row">', html) == ["1", "2"]  # numbered pairs: 1. d6 c9 2. i7
