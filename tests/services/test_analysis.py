"""The analysis of a finished game: on the replay page (each step's verdict, mistakes marked in the move list)
and in the API; never for a game still being played, and not on boards too big to solve exactly."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import game_analysis, move_play
from games.services.assists import work_out_analysis

pytestmark = pytest.mark.django_db


def played(game: Game, player, moves: list[int]) -> Game:
    for move in moves:
        move_play(game=game, player=player, move=move)
    return Game.objects.get(pk=game.pk)


def test_the_analysis_is_kept_once_worked_out(make_game, player, django_assert_num_queries):
    game = played(make_game(variant="four"), player, [0, 5, 1, 6, 2, 7, 3])  # X completes the top row
    assert game_analysis(game) is None  # a worker works it out (tests/services/test_tasks.py)
    assert work_out_analysis(game_id=game.pk) == "analysed"
    game = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(0):
        first = game_analysis(game)  # stored on the game: no query, no search
    assert [v.move for v in first] == [0, 5, 1, 6, 2, 7, 3]
