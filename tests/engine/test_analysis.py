"""engine.analysis: each move's effect on the outcome with best play, checked against known positions and
against the solver's exact values (a full-window search, not the narrow one the analysis uses)."""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalMove, get_strategy, get_variant
from games.engine.analysis import OUTCOMES, analyse, can_analyse, start_outcome
from games.engine.strategies.perfect import solver_for

CLASSIC = get_variant("classic")


def test_an_edge_reply_to_the_centre_loses_for_o():
    first, reply = analyse(CLASSIC, [4, 1])  # X in the centre, O on an edge: X now wins by force
    assert (first.side, first.before, first.after, first.mistake) == ("X", "draw", "draw", False)
    assert first.best == tuple(range(9))  # every first move keeps the draw
    assert (reply.side, reply.before, reply.after, reply.mistake) == ("O", "draw", "loss", True)
    assert reply.best == (0, 2, 6, 8)  # only a corner holds the draw


def test_a_lost_position_stays_lost_and_is_no_new_mistake():
    # O's edge reply; X forks with 6 (threats on 3 and 2) and wins on the diagonal.
    verdicts = analyse(CLASSIC, [4, 1, 0, 8, 6, 3, 2])
    assert [v.mistake for v in verdicts] == [False, True, False, False, False, False, False]
    assert all(v.before == "loss" for v in verdicts[3::2])  # every O move after the mistake: still lost
    assert verdicts[-1].before == verdicts[-1].after == "win"  # X's winning move


def test_letting_a_win_go_is_a_mistake_and_names_the_winning_move():
    # X: 0, 1; O: 3, 4. X to move wins with 2; X plays 8 instead, and O is then the one who wins (on 5).
    verdicts = analyse(CLASSIC, [0, 3, 1, 4, 8])
    last = verdicts[-1]
    assert (last.before, last.after, last.mistake) == ("win", "loss", True)
    assert 2 in last.best and 8 not in last.best


def test_perfect_play_makes_no_mistakes():
    perfect = get_strategy("perfect")
    for variant in (CLASSIC, get_variant("mnk", rows=3, cols=4, k=3)):
        state, moves = variant.new_game(), []
        while not state.is_over:
            move = perfect.choose(state)
            moves.append(move)
            state = state.play(move)
        verdicts = analyse(variant, moves)
        assert not any(v.mistake for v in verdicts)
        assert all(v.move in v.best for v in verdicts)


@pytest.mark.parametrize(("variant", "outcome"), [
    (CLASSIC, "draw"),
    (get_variant("four"), "draw"),
    (get_variant("mnk", rows=4, cols=4, k=3), "win"),  # known: X wins 3 in a row on 4 x 4
    (get_variant("mnk", rows=3, cols=4, k=3), "win"),  # known: X wins 3 in a row on 3 x 4 too
])
def test_outcome_from_the_start(variant, outcome):
    assert start_outcome(variant) == outcome
    assert analyse(variant, []) == []


@pytest.mark.parametrize("shape", [(3, 3, 3), (3, 4, 3), (4, 4, 3), (3, 4, 4)])
def test_verdicts_agree_with_the_solvers_exact_values(shape):
    rows, cols, k = shape
    variant = get_variant("mnk", rows=rows, cols=cols, k=k)
    solver = solver_for(rows, cols, k)
    rng = random.Random(sum(shape))
    for _ in range(6):
        state, moves = variant.new_game(), []
        while not state.is_over:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        state = variant.new_game()
        for verdict, move in zip(analyse(variant, moves), moves, strict=True):
            me, opp = (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)
            values = solver.move_values(me, opp)  # exact, full window
            def sign(value: int) -> str:
                return OUTCOMES[(value > 0) - (value < 0) + 1]
            assert verdict.before == sign(max(values.values()))
            assert verdict.after == sign(values[move])
            assert verdict.best == tuple(sorted(c for c, v in values.items() if sign(v) == verdict.before))
            state = state.play(move)


@pytest.mark.parametrize(
    ("key", "options"),
    [("ultimate", {}), ("multi", {}), ("nxn", {"size": 5}), ("mnk", {"rows": 15, "cols": 15, "k": 5})],
)
def test_boards_without_an_exact_solver_are_refused_in_words(key, options):
    variant = get_variant(key, **options)
    assert not can_analyse(variant)
    with pytest.raises(ValueError, match="at most 16 cells"):
        analyse(variant, [])
    with pytest.raises(ValueError, match="at most 16 cells"):
        start_outcome(variant)


def test_illegal_moves_are_refused():
    with pytest.raises(IllegalMove):
        analyse(CLASSIC, [4, 4])
    with pytest.raises(ValueError, match="out of range"):
        analyse(CLASSIC, [9])
    with pytest.raises(ValueError, match="after the end of the game"):
        analyse(CLASSIC, [0, 3, 1, 4, 2, 5])
