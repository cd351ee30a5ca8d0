"""The analysis of a finished game: on the replay page (each step's verdict, mistakes marked in the move list)
and in the API; never for a game still being played, and not on boards too big to solve exactly."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import game_analysis, move_play

pytestmark = pytest.mark.django_db


def played(game: Game, player, moves: list[int]) -> Game:
    for move in moves:
        move_play(game=game, player=player, move=move)
    return Game.objects.get(pk=game.pk)


def test_the_analysis_is_kept_once_worked_out(make_game, player, django_assert_num_queries):
    game = played(make_game(variant="four"), player, [0, 5, 1, 6, 2, 7, 3])  # X completes the top row
    first = game_analysis(game)
    with django_assert_num_queries(0):
        assert game_analysis(game) == first  # from the cache: no query, no search
