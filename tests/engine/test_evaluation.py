"""The evaluation of a position on every board (engine.evaluation) and the analysis of a game built on it:
proven results where a search proves them, chances to win elsewhere, the best move, "?" and "??"."""

from __future__ import annotations

import pytest

from games.engine import get_variant
from games.engine.analysis import MoveVerdict
from games.engine.evaluation import analyse_moves, evaluate

#: a small budget: the positions below are decided by the threat search or the solver, not by the time
SECONDS = 0.05


def gomoku():
    return get_variant("mnk", rows=15, cols=15, k=5)


def test_an_open_three_to_move_is_a_proven_win_on_gomoku():
    variant = gomoku()
    state = variant.new_game()
    for name in ("h8", "a1", "h9", "a2", "h10", "o15"):  # X: h8-h10, both ends empty; O far away
        state = state.play(variant.parse_cell(name))
    found = evaluate(state, SECONDS)
    assert found.proven == "X" and found.x_chance == 1.0
    assert variant.cell_name(found.best) in ("h7", "h11")  # the open four


def test_throwing_away_a_won_gomoku_position_is_a_blunder():
    variant = gomoku()
    # X makes an open three (move 5); O ignores it for one of its own (move 6: a mistake, X now wins by force);
    # X ignores both (move 7, a15: the blunder: O now makes an open four and wins)
    names = ["h8", "c3", "h9", "c4", "h10", "c5", "a15"]
    verdicts = analyse_moves(variant, [variant.parse_cell(n) for n in names], SECONDS)
    assert [v.ply for v in verdicts] == list(range(1, 8)) and not verdicts[0].exact
    seventh = verdicts[6]
    assert (seventh.before, seventh.after) == ("win", "loss") and seventh.verdict == "??"
    assert seventh.chance_before == 1.0 and seventh.chance_after == 0.0
    assert variant.cell_name(seventh.best[0]) in ("h7", "h11")
    assert verdicts[5].after == "loss" and verdicts[5].proven_after == "X"  # after O's move 6, X wins by force


def _ultimate_x_to_win():
    """X owns the top-left and top-middle boards and, sent to the top-right, can complete it and the top row."""
    cells = [None] * 81
    for move in (0, 1, 2, 9, 10, 11, 18, 19):
        cells[move] = "X"
    for move in (27, 28, 36, 37, 45, 46, 54, 55):
        cells[move] = "O"
    return get_variant("ultimate").from_position(cells, "X", target=2)


def test_a_forced_win_on_ultimate_is_proven():
    found = evaluate(_ultimate_x_to_win(), SECONDS)
    assert found.proven == "X" and found.x_chance == 1.0 and found.best == 20


def test_an_ultimate_position_by_mcts_has_a_chance_and_a_legal_best_move():
    state = get_variant("ultimate").new_game().play(40)
    found = evaluate(state, 0.02)
    assert 0.0 < found.x_chance < 1.0 and found.proven is None and found.best in state.legal_moves()


def test_a_finished_position_is_its_result():
    state = get_variant("classic").new_game()
    for move in (0, 3, 1, 4, 2):
        state = state.play(move)
    assert evaluate(state) == evaluate(state, 0.01)
    assert evaluate(state).proven == "X" and evaluate(state).x_chance == 1.0 and evaluate(state).best is None


def test_small_boards_stay_exact():
    verdicts = analyse_moves(get_variant("classic"), [4, 1, 0, 8, 6, 3, 2])
    assert all(v.exact for v in verdicts)
    assert verdicts[1].verdict == "?" and verdicts[1].chance_before == 0.5 and verdicts[1].chance_after == 1.0


@pytest.mark.parametrize(
    ("side", "before", "after", "best", "mark"),
    [
        ("X", 0.60, 0.50, 9, ""),  # a drop of 0.10: noise
        ("X", 0.60, 0.44, 9, "?"),  # 0.16
        ("X", 0.70, 0.39, 9, "??"),  # 0.31
        ("O", 0.30, 0.70, 9, "??"),  # O's chance 0.70 -> 0.30
        ("O", 0.30, 0.20, 9, ""),  # O's chance went up
        ("X", 0.90, 0.10, 5, ""),  # the best move found is never marked
    ],
)
def test_marks_by_the_drop_in_the_movers_chance(side, before, after, best, mark):
    verdict = MoveVerdict(1 if side == "X" else 2, side, 5, None, None, (best,), before, after)
    assert verdict.verdict == mark and verdict.mistake == bool(mark)


def test_a_stored_exact_row_reads_as_before():
    # rows stored before chances were kept: no x_before / x_after
    row = {"ply": 2, "side": "O", "move": 1, "before": "draw", "after": "loss", "best": (0, 2, 6, 8)}
    verdict = MoveVerdict(**row)
    assert verdict.exact and verdict.verdict == "?" and verdict.chance_before == 0.5 and verdict.chance_after == 1.0
    assert verdict.proven_before == "draw" and verdict.proven_after == "X"
    assert MoveVerdict(1, "X", 0, "win", "loss", (4,)).verdict == "??"


@pytest.mark.parametrize(
    "variant, names",
    [
        (get_variant("four"), ["b2", "a1", "c3", "d4", "b3", "c2", "a4", "b1"]),  # the solver's board
        (gomoku(), ["h8", "c3", "h9", "c4", "h10", "c5", "a15"]),  # evaluated positions
    ],
    ids=["4x4", "15x15"],
)
def test_a_game_from_a_position_is_analysed_from_there(variant, names):
    """A game started from a position (the analysis board's Play) gets the verdicts its moves get in the game that
    reached the position, numbered from its own first move and with its own first mover (here O)."""
    moves = [variant.parse_cell(n) for n in names]
    whole = analyse_moves(variant, moves, SECONDS)
    start = variant.new_game().play(moves[0])  # O to move
    later = analyse_moves(variant, moves[1:], SECONDS, start=start)
    assert [v.ply for v in later] == list(range(1, len(moves)))
    assert [v.side for v in later] == [v.side for v in whole[1:]] and later[0].side == "O"
    assert [v.move for v in later] == moves[1:]
    if variant.cell_count <= 16:  # the solver's verdicts, best moves included
        assert [(v.before, v.after, v.best) for v in later] == [(v.before, v.after, v.best) for v in whole[1:]]
    else:  # the outcomes the threat search proves (elsewhere: chances and best moves from a timed search)
        assert [(v.before, v.after) for v in later] == [(v.before, v.after) for v in whole[1:]]
        assert later[-1].verdict == "??"
