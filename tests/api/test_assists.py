"""Hints and analysis name their moves (games/api/assists.py): ``name`` and ``best_names`` beside the numbers.

(What hints and the analysis do is tested in test_hints.py and test_analysis.py.)
"""

from __future__ import annotations

import pytest

from games.engine import get_variant
from games.models import Game
from games.services import move_play

from .helpers import post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("variant", "options"), [("classic", {}), ("nxn", {"size": 4}), ("ultimate", {})])
def test_a_hint_names_its_move(token_client, make_game, variant, options):
    game = make_game(variant=variant, options=options, opponent="easy", strategy="random")
    response = post(token_client, f"/api/games/{game.pk}/hint")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["name"] == data["label"] == get_variant(variant, **options).cell_name(data["move"])
    # the name is a move the API takes
    played = post(token_client, f"/api/games/{game.pk}/moves", {"move": data["name"]}).json()["played"][0]
    assert played["move"] == data["move"] and played["name"] == data["name"]


def test_the_analysis_names_every_move_and_the_best_ones(token_client, make_game, player):
    game = make_game()
    for move in (4, 1, 0, 8, 6, 3, 2):  # O's edge reply (b3) is the mistake: X forks and wins
        move_play(game=game, player=player, move=move)
    assert Game.objects.get(pk=game.pk).result == "X"
    data = token_client.get(f"/api/games/{game.pk}/analysis").json()
    assert [m["name"] for m in data["moves"]] == ["b2", "b3", "a3", "c1", "a1", "a2", "c3"]
    assert all(m["label"] == m["name"] for m in data["moves"])
    second = data["moves"][1]
    assert second["mistake"] and second["best"] == [0, 2, 6, 8] and second["best_names"] == ["a3", "c3", "a1", "c1"]
