"""mcts on ultimate with the move prior (issue 34): the prior's values, the tree's use of them, the defaults."""

from __future__ import annotations

import random

from games.engine import NestedState, get_strategy, get_variant
from games.engine.strategies.mcts_knowing import WIDEN, KnowingGame
from games.engine.strategies.mcts_prior import (
    PRIOR_BLOCK,
    PRIOR_DEAD,
    PRIOR_FREE,
    PRIOR_SEND,
    PRIOR_WIN,
    move_prior,
    ordered_moves,
)
from games.engine.strategies.mcts_search import _NestedGame
from games.engine.strategies.mcts_tree import PriorTree


def _raw(state: NestedState):
    return list(state.xs), list(state.os), [x | o for x, o in zip(state.xs, state.os, strict=True)], \
        [state.xwon, state.owon]


def _position(xs, os_, target, xwon=0, owon=0) -> NestedState:
    """A position given by 9-bit masks per board (X to move when the counts are equal)."""
    variant = get_variant("ultimate")
    cells = [("X" if xs[b] >> c & 1 else "O" if os_[b] >> c & 1 else None) for b in range(9) for c in range(9)]
    winners = ["X" if xwon >> b & 1 else "O" if owon >> b & 1 else None for b in range(9)]
    return variant.from_position(cells, board_winners=winners, target=target)


def test_the_prior_values_wins_blocks_and_where_a_move_sends() -> None:
    # X to move on board 0, where X holds cells 0, 1 (cell 2 wins it) and O holds 3, 4 (cell 5 would win it for O);
    # O can win board 6 at once (cells 0, 1: 2 wins), board 8 is full and drawn, board 7 is won by X
    xs = [0b000000011, 0, 0, 0, 0, 0, 0, 0b000000111, 0b110001101]
    os_ = [0b000011000, 0, 0, 0b000010001, 0, 0, 0b000000011, 0, 0b001110010]
    state = _position(xs, os_, target=0, xwon=0b010000000)
    assert state.to_move == "X"
    args = (*_raw(state), 0)
    assert move_prior(*args, 2) == PRIOR_WIN  # wins board 0, sends O to board 2 (empty)
    assert move_prior(*args, 5) == PRIOR_BLOCK  # blocks O on board 0, sends to board 5
    assert move_prior(*args, 6) == -PRIOR_SEND  # sends O to board 6, which O wins at once
    assert move_prior(*args, 8) == -PRIOR_FREE  # board 8 is full: O would choose any board
    assert move_prior(*args, 7) == PRIOR_DEAD  # board 7 is decided: O's move there changes no board
    order, priors = ordered_moves(*_raw(state), 0, state.legal_moves(), random.Random(1).random)
    assert sorted(order) == state.legal_moves() and order[-1] == 2  # the win is expanded first
    assert priors == sorted(priors)


def test_the_search_expands_the_best_looking_move_first_and_widens_with_visits() -> None:
    state = _position([0b011] + [0] * 8, [0b011000] + [0] * 8, target=0)
    game = KnowingGame(state, solver=True)
    tree = game.new_tree(0.5)
    assert isinstance(tree, PriorTree)
    game.run(tree, random.Random(3), 2, None, False)
    assert tree.kmove[tree.kids[0][0]] == 2  # the small-board win, first of all
    game.run(tree, random.Random(3), 400, None, False)
    for node in range(len(tree.visits)):
        if tree.untried[node]:  # a node that still has moves to expand keeps to its allowance
            assert len(tree.kids[node]) <= WIDEN[tree.visits[node]]


def test_late_positions_stay_legal_with_the_solver_and_widening() -> None:
    variant = get_variant("ultimate")
    rng = random.Random(11)
    for _ in range(5):  # late random positions, where the solver proves moves lost while nodes are still narrow
        state = variant.new_game()
        while not state.is_over and state.ply < 55:
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        strategy = get_strategy("mcts", iterations=1500, seed=2)
        assert strategy.choose(state) in state.legal_moves()


def test_the_defaults_know_ultimate_and_leave_multi_as_it_was() -> None:
    default = get_strategy("mcts", seconds=0.5)
    ultimate, closed, multi = get_variant("ultimate"), get_variant("ultimate", closed_boards=True), get_variant("multi")
    assert all(default.uses(option, ultimate) for option in ("solver", "prior", "book", "reuse"))
    assert default.uses("solver", closed) and not default.uses("prior", closed) and not default.uses("book", closed)
    assert not any(default.uses(option, multi) for option in ("solver", "prior", "book", "reuse"))
    state = ultimate.new_game().play(40)
    assert isinstance(default.game_for(state), KnowingGame)
    assert type(get_strategy("mcts", prior=False).game_for(state)) is _NestedGame
    assert type(default.game_for(multi.new_game())) is _NestedGame
    old = get_strategy("mcts", seconds=0.5, prior=False, book=False, reuse=False, solver=False)
    assert not any(old.uses(option, ultimate) for option in ("solver", "prior", "book", "reuse"))


def test_the_knowing_search_beats_the_plain_one_at_equal_iterations() -> None:
    """A short, seeded check of direction (the matches in docs/ladder.md measure it): 6 games, 300 iterations a
    move, sides alternating."""
    variant = get_variant("ultimate")
    score = 0.0
    for game in range(6):
        new = get_strategy("mcts", iterations=300, seed=game)
        old = get_strategy("mcts", iterations=300, seed=game, prior=False, book=False, reuse=False, solver=False)
        players = (new, old) if game % 2 == 0 else (old, new)
        state = variant.new_game()
        while not state.is_over:
            state = state.play(players[state.ply % 2].choose(state))
        if state.winner is None:
            score += 0.5
        elif (state.winner == "X") == (game % 2 == 0):
            score += 1
    assert score >= 4
