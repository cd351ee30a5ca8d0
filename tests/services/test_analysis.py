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


def test_a_big_board_is_analysed_by_the_task_and_stored_with_chances(make_game, player):
    from django_tasks_db.models import DBTaskResult

    from games.engine import get_variant
    from games.services import game_resign
    from games.services.assists import analyse_game

    variant = get_variant("mnk", rows=15, cols=15, k=5)
    moves = [variant.parse_cell(n) for n in ("h8", "c3", "h9", "c4", "h10", "c5", "a15")]
    game = game_resign(
        game=played(make_game(variant="mnk", options={"rows": 15, "cols": 15, "k": 5}), player, moves), player=player
    )
    assert game.analysis is None  # not worked out when the game ended: when someone looks
    assert game_analysis(game, player=player) is None
    assert game_analysis(game, player=player) is None  # asked again: still the one task
    assert DBTaskResult.objects.filter(task_path="games.services.assists.analyse_game").count() == 1
    assert analyse_game.call(game_id=game.pk, player_id=player.pk) == "analysed"  # the worker's task, run here
    game = Game.objects.get(pk=game.pk)
    row = game.analysis[6]
    assert row["x_before"] == 1.0 and row["x_after"] == 0.0 and (row["before"], row["after"]) == ("win", "loss")
    verdicts = game_analysis(game)
    assert [v.move for v in verdicts] == moves and verdicts[6].verdict == "??"


def test_an_analysis_stored_before_chances_were_kept_still_reads(make_game, player):
    game = played(make_game(variant="four"), player, [0, 5, 1, 6, 2, 7, 3])
    work_out_analysis(game_id=game.pk)
    old = [
        {k: v for k, v in row.items() if k not in ("x_before", "x_after")}
        for row in Game.objects.get(pk=game.pk).analysis
    ]
    Game.objects.filter(pk=game.pk).update(analysis=old)
    verdicts = game_analysis(Game.objects.get(pk=game.pk))
    assert [v.move for v in verdicts] == [0, 5, 1, 6, 2, 7, 3] and all(v.exact for v in verdicts)
    assert verdicts[-1].chance_after == 1.0


def test_a_long_game_gets_less_time_per_position(settings):
    from games.services.assists import analysis_seconds

    settings.GAME_ANALYSIS_SECONDS, settings.GAME_ANALYSIS_TOTAL_SECONDS = 0.25, 20
    assert analysis_seconds(59) == 0.25 and analysis_seconds(199) == 0.1


def test_the_analysis_boards_best_move_uses_the_evaluation():
    from games.engine import get_variant, position_string
    from games.services.assists import evaluation_is_quick, work_out_evaluation

    variant = get_variant("mnk", rows=15, cols=15, k=5)
    state = variant.new_game()
    for name in ("h8", "a1", "h9", "a2", "h10", "o15"):  # X to move with an open three: a proven win
        state = state.play(variant.parse_cell(name))
    assert not evaluation_is_quick(state)  # a worker's (tests/web/test_records.py)
    found = work_out_evaluation(position=position_string(state))
    assert found["proven"] == "X" and found["outcome"] == "win" and found["x_chance"] == 1.0
    assert variant.cell_name(found["move"]) in ("h7", "h11")
    ultimate = work_out_evaluation(position=position_string(get_variant("ultimate").new_game().play(40)))
    assert 0 < ultimate["x_chance"] < 1 and ultimate["proven"] is None and ultimate["move"] in range(36, 45)
