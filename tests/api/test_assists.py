"""Hints and analysis in the API (games/api/assists.py): moves named (``name``, ``best_names``) beside the numbers;
slow work answered 202 while the workers do it, and one waiting request per player (429 ``busy``).

(What hints and the analysis do is tested in test_hints.py and test_analysis.py.)
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import game_resign, move_play

from .helpers import assert_error, post, run_tasks

pytestmark = pytest.mark.django_db

#: X in the centre, O on an edge (b3, the mistake: X forks and wins)
WON_BY_X = [4, 1, 0, 8, 6, 3, 2]


def test_a_hint_names_its_move(token_client, make_game):
    game = make_game(opponent="easy", strategy="random")  # classic: the hard level answers at once
    response = post(token_client, f"/api/games/{game.pk}/hint")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["name"] == data["label"] == ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"][data["move"]]
    # the name is a move the API takes
    played = post(token_client, f"/api/games/{game.pk}/moves", {"move": data["name"]}).json()["played"][0]
    assert played["move"] == data["move"] and played["name"] == data["name"]


def test_a_slow_hint_is_202_until_a_worker_has_it_then_named(token_client, make_game):
    game = make_game(variant="ultimate", opponent="easy", strategy="random")  # the hard level: mcts, slow
    response = post(token_client, f"/api/games/{game.pk}/hint")
    assert response.status_code == 202 and response.json()["pending"] is True
    assert response["Retry-After"] == str(response.json()["retry_after"])
    assert post(token_client, f"/api/games/{game.pk}/hint").status_code == 202  # the same request, not a new one
    run_tasks()
    data = post(token_client, f"/api/games/{game.pk}/hint").json()
    assert data["hints"] == 1 and data["name"] == data["label"] and len(data["name"]) == 2
    assert post(token_client, f"/api/games/{game.pk}/moves", {"move": data["name"]}).status_code == 200


def test_one_slow_request_waits_per_player_the_next_is_429_busy(token_client, make_game):
    first = make_game(variant="ultimate", opponent="easy", strategy="random")
    second = make_game(variant="multi", opponent="easy", strategy="random")
    assert post(token_client, f"/api/games/{first.pk}/hint").status_code == 202
    response = post(token_client, f"/api/games/{second.pk}/hint")
    body = assert_error(response, 429, "busy")
    assert body["retry_after"] > 0 and response["Retry-After"] == str(body["retry_after"])
    assert Game.objects.get(pk=second.pk).hints == 0


def test_the_analysis_names_every_move_and_the_best_ones(token_client, make_game, player):
    game = make_game()
    for move in WON_BY_X:
        move_play(game=game, player=player, move=move)
    data = token_client.get(f"/api/games/{game.pk}/analysis").json()
    assert [m["name"] for m in data["moves"]] == ["b2", "b3", "a3", "c1", "a1", "a2", "c3"]
    assert all(m["label"] == m["name"] for m in data["moves"])
    second = data["moves"][1]
    assert second["mistake"] and second["best"] == [0, 2, 6, 8] and second["best_names"] == ["a3", "c3", "a1", "c1"]


def test_a_slow_analysis_is_202_until_a_worker_has_it(token_client, make_game, player):
    game = make_game(variant="four")
    for move in (0, 4, 1, 5, 2, 6):
        move_play(game=game, player=player, move=move)
    game_resign(game=game, player=player)
    response = token_client.get(f"/api/games/{game.pk}/analysis")
    assert response.status_code == 202 and response["Retry-After"] and response.json()["pending"] is True
    run_tasks()
    data = token_client.get(f"/api/games/{game.pk}/analysis").json()
    assert [m["name"] for m in data["moves"]] == ["a4", "a3", "b4", "b3", "c4", "c3"]
    assert all(len(m["best_names"]) == len(m["best"]) for m in data["moves"])
