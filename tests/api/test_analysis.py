"""The analysis of a finished game: on the replay page (each step's verdict, mistakes marked in the move list)
and in the API; never for a game still being played, and not on boards too big to solve exactly."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import game_resign, move_play

pytestmark = pytest.mark.django_db

#: X in the centre, O on an edge (the mistake: X now wins by force), X forks and wins on the diagonal
WON_BY_X = [4, 1, 0, 8, 6, 3, 2]


def played(game: Game, player, moves: list[int]) -> Game:
    for move in moves:
        move_play(game=game, player=player, move=move)
    return Game.objects.get(pk=game.pk)


def replay(client: Client, game: Game, ply: int) -> str:
    response = client.get(reverse("games:replay", args=[game.pk]), {"ply": ply})
    assert response.status_code == 200
    return response.content.decode()


def test_api_analysis(make_game, player, player_client):
    game = played(make_game(), player, WON_BY_X)
    response = player_client.get(f"/api/games/{game.pk}/analysis")
    assert response.status_code == 200
    data = response.json()
    assert data["outcome"] == "draw" and data["mistakes"] == {"X": 0, "O": 1}
    assert [m["move"] for m in data["moves"]] == WON_BY_X
    second = data["moves"][1]
    assert second == {
        "ply": 2, "side": "O", "move": 1, "name": "b3", "label": "b3", "before": "draw", "after": "loss",
        "mistake": True, "best": [0, 2, 6, 8], "best_names": ["a3", "c3", "a1", "c1"],
        "verdict": "?", "evaluation_before": 0.5, "evaluation": 1.0, "proven_before": "draw", "proven": "X",
        "exact": True, "best_name": "a3",
    }


def test_api_outcome_of_a_game_without_moves(make_game, player, player_client):
    game = game_resign(game=make_game(variant="mnk", options={"rows": 4, "cols": 4, "k": 3}), player=player)
    data = player_client.get(f"/api/games/{game.pk}/analysis").json()
    assert data == {"outcome": "X", "mistakes": {"X": 0, "O": 0}, "moves": []}  # X wins 3 in a row on 4 x 4


def test_api_refuses_in_words(make_game, player, player_client):
    game, words = played(make_game(), player, [4]), "when the game is over"
    response = player_client.get(f"/api/games/{game.pk}/analysis")
    assert response.status_code == 409
    assert response.json()["code"] == "analysis_unavailable" and words in response.json()["message"]


def test_a_private_game_is_not_analysed_for_strangers(make_game, make_player, player):
    game = played(make_game(private=True), player, WON_BY_X)
    stranger = Client()
    stranger.force_login(make_player("mallory"))
    assert stranger.get(f"/api/games/{game.pk}/analysis").status_code == 404
    assert stranger.get(reverse("games:replay", args=[game.pk])).status_code == 404


def test_api_analysis_of_an_ultimate_game_comes_from_the_workers(make_game, player, player_client):
    from games.engine import get_variant
    from games.services.assists import work_out_analysis

    state, moves = get_variant("ultimate").new_game(), []
    for _ in range(6):
        moves.append(state.legal_moves()[0])
        state = state.play(moves[-1])
    game = game_resign(game=played(make_game(variant="ultimate"), player, moves), player=player)
    pending = player_client.get(f"/api/games/{game.pk}/analysis")
    assert pending.status_code == 202 and pending.json()["pending"] is True
    assert work_out_analysis(game_id=game.pk) == "analysed"  # what the worker's task does
    data = player_client.get(f"/api/games/{game.pk}/analysis").json()
    assert data["outcome"] is None and [m["move"] for m in data["moves"]] == moves
    first = data["moves"][0]
    assert first["exact"] is False and first["verdict"] in ("", "?", "??")
    assert 0 <= first["evaluation_before"] <= 1 and 0 <= first["evaluation"] <= 1
    assert first["proven_before"] is None and first["best_name"] == first["best_names"][0]
    rows = data["moves"]
    assert all(rows[n]["evaluation_before"] == rows[n - 1]["evaluation"] for n in range(1, len(rows)))
