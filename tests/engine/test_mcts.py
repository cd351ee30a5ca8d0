"""mcts and the fast random playouts it stands on.

The strength games at the end are the expensive part (80 games at 2,000 iterations a move);
everything else takes a few seconds.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from games.engine import NestedState, State, Variant, get_strategy, get_variant
from games.engine.nested import ONGOING, NestedVariant
from games.engine.strategies import Strategy

ALL_VARIANTS = [
    ("classic", {}),
    ("four", {}),
    ("nxn", {"size": 5}),
    ("mnk", {"rows": 7, "cols": 9, "k": 4}),
    ("mnk", {"rows": 15, "cols": 15, "k": 5}),
    ("ultimate", {}),
    ("ultimate", {"closed_boards": True}),
    ("multi", {}),
    ("multi", {"random_start": True}),
]
NESTED = [("ultimate", {}), ("ultimate", {"closed_boards": True}), ("multi", {})]


def _random_game(variant: Variant, rng: random.Random, start: State | None = None) -> State:
    state = start or variant.new_game()
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _play(variant: Variant, x: Strategy, o: Strategy) -> str | None:
    state = variant.new_game()
    while not state.is_over:
        player = x if state.ply % 2 == 0 else o
        move = player.choose(state)
        assert move in state.legal_moves()
        state = state.play(move)
    return state.winner


# mcts: legal, repeatable, takes wins --------------------------------------------------------------


@pytest.mark.parametrize(("key", "options"), ALL_VARIANTS, ids=str)
def test_mcts_plays_legal_moves_on_every_variant(key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    mcts = get_strategy("mcts", iterations=40, seed=1)
    assert mcts.supports(variant)
    rng = random.Random(2)
    state = variant.new_game()
    # mcts plays X against random moves; a long grid game is cut short, the rest play to the end
    while not state.is_over and state.ply < 40:
        move = mcts.choose(state) if state.ply % 2 == 0 else rng.choice(state.legal_moves())
        assert move in state.legal_moves()
        state = state.play(move)


@pytest.mark.parametrize("key", ["classic", "ultimate", "multi", "mnk"])
def test_mcts_with_a_seed_is_repeatable(key: str) -> None:
    variant = get_variant(key)

    def moves(seed: int) -> list[int]:
        a, b = get_strategy("mcts", iterations=150, seed=seed), get_strategy("mcts", iterations=150, seed=seed + 1)
        state, played = variant.new_game(), []
        while not state.is_over and state.ply < 12:
            move = (a if state.ply % 2 == 0 else b).choose(state)
            played.append(move)
            state = state.play(move)
        return played

    assert moves(5) == moves(5)


def test_mcts_takes_an_immediate_win_on_classic() -> None:
    state = get_variant("classic").new_game()
    for move in (0, 3, 1, 4):  # X: 0, 1; O: 3, 4; X to move: 2 wins (5 would only block)
        state = state.play(move)
    assert get_strategy("mcts", iterations=1, seed=0).choose(state) == 2
    state = state.play(8)  # O to move, X threatens 2: O wins at 5 instead
    assert get_strategy("mcts", iterations=1, seed=0).choose(state) == 5


@pytest.mark.parametrize("key", ["ultimate", "multi"])
def test_mcts_takes_an_immediate_win_on_nested(key: str) -> None:
    variant = get_variant(key)
    assert isinstance(variant, NestedVariant)
    # X has won boards 0 and 1 and holds cells 0, 1 of board 2; O has stones on boards 4..7.
    xs = (0b111, 0b111, 0b011, 0, 0, 0, 0, 0, 0)
    os_ = (0, 0, 0, 0, 0b011, 0b011, 0b011, 0b011, 0)
    if key == "ultimate":
        # sent to board 2: 9 * 2 + 2 = 20 completes the top row of the big board
        state = NestedState(variant, xs, os_, 0b11, 0, 0, 2, 16, None, False)
        assert get_strategy("mcts", iterations=1, seed=0).choose(state) == 20
    else:
        # multi ends when every board is closed: all but board 8 are won; X, sent to board 8 (X on
        # cells 0, 1, O on 3, 4), closes it by winning it at cell 2 and so wins the game 6 boards to 3;
        # any other cell leaves the game going
        xs_m = (0b111, 0b111, 0b111, 0b111, 0b111, 0, 0, 0, 0b000000011)
        os_m = (0, 0, 0, 0, 0, 0b111, 0b111, 0b111, 0b000011000)
        state = NestedState(variant, xs_m, os_m, 0b11111, 0b11100000, 0, 8, 28, None, False)
        assert get_strategy("mcts", iterations=1, seed=0).choose(state) == 9 * 8 + 2


def test_mcts_blocks_and_forks_on_classic() -> None:
    state = get_variant("classic").new_game()
    for move in (0, 4, 8, 2):  # O threatens 6 (2-4-6); X at 6 blocks and makes a double threat (3, 7)
        state = state.play(move)
    assert get_strategy("mcts", iterations=2000, seed=3).choose(state) == 6


def test_mcts_options() -> None:
    assert get_strategy("mcts").seconds == 1.0  # neither bound given
    with pytest.raises(ValueError):
        get_strategy("mcts", iterations=0)
    with pytest.raises(ValueError):
        get_strategy("mcts", seconds=-1.0)
    for seconds in (math.inf, math.nan, 3600.5):
        with pytest.raises(ValueError, match="at most 3600"):
            get_strategy("mcts", seconds=seconds)
    for c in (math.inf, math.nan, -0.5):
        with pytest.raises(ValueError, match="finite number"):
            get_strategy("mcts", c=c)
    assert get_strategy("mcts", seconds=3600, c=0).c == 0.0
    with pytest.raises(ValueError):
        get_strategy("mcts", iterations="many")
    with pytest.raises(ValueError):
        get_strategy("mcts", depth=3)
    with pytest.raises(ValueError):
        get_strategy("mcts").choose(_random_game(get_variant("classic"), random.Random(0)))


def test_mcts_seconds_bound_is_kept() -> None:
    import time

    strategy = get_strategy("mcts", seconds=0.2, seed=1)
    started = time.perf_counter()
    move = strategy.choose(get_variant("ultimate").new_game())
    assert 0 <= move < 81 and time.perf_counter() - started < 1.0


# playouts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "options"), ALL_VARIANTS, ids=str)
def test_playouts_return_valid_results(key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    rng = random.Random(4)
    results = Counter(variant.playout(variant.new_game(), rng) for _ in range(200))
    assert set(results) <= {"X", "O", None}
    finished = _random_game(variant, rng)
    assert variant.playout(finished, rng) == finished.winner
    # the state is left as it was
    start = variant.new_game()
    state = start.play(start.legal_moves()[0])
    cells = state.cells
    variant.playout(state, rng)
    assert state.cells == cells and not state.is_over


@pytest.mark.parametrize(
    ("key", "options", "games"),
    [
        ("classic", {}, 3000),
        ("four", {}, 3000),
        ("nxn", {"size": 5}, 2000),
        ("mnk", {"rows": 6, "cols": 8, "k": 4}, 2000),
        ("mnk", {"rows": 3, "cols": 7, "k": 5}, 2000),
        ("ultimate", {}, 2000),
        ("ultimate", {"closed_boards": True}, 2000),
        ("multi", {}, 2000),
    ],
    ids=str,
)
def test_playout_statistics_match_random_play(key: str, options: dict, games: int) -> None:
    """The fast playout must be the same random process as random moves through ``state.play``."""
    variant = get_variant(key, **options)
    rng = random.Random(6)
    for start_moves in (0, 5):
        start = variant.new_game()
        for _ in range(start_moves):
            start = start.play(rng.choice(start.legal_moves()))
        fast = Counter(variant.playout(start, rng) for _ in range(games))
        slow = Counter(_random_game(variant, rng, start).winner for _ in range(games))
        for outcome in ("X", "O", None):
            # ~3.5 standard deviations of the difference of two frequencies
            assert abs(fast[outcome] - slow[outcome]) / games < 0.055, (start_moves, outcome, fast, slow)


def test_classic_playouts_match_the_known_odds() -> None:
    # random play on classic: X wins 737/1260, O 121/420, draws 8/63 (exact figures)
    variant = get_variant("classic")
    rng = random.Random(8)
    results = Counter(variant.playout(variant.new_game(), rng) for _ in range(20000))
    for outcome, p in (("X", 737 / 1260), ("O", 121 / 420), (None, 8 / 63)):
        assert abs(results[outcome] / 20000 - p) < 0.015


@pytest.mark.parametrize(("key", "options"), [*NESTED, ("multi", {"random_start": True})], ids=str)
def test_raw_step_agrees_with_play(key: str, options: dict) -> None:
    """mcts walks its tree with ``raw_step``/``raw_moves``; they must be the rules exactly."""
    variant = get_variant(key, **options)
    assert isinstance(variant, NestedVariant)
    rng = random.Random(9)
    for _ in range(150):
        state = variant.new_game(seed=rng.randrange(100)) if options.get("random_start") else variant.new_game()
        xs, os_, occ, won = list(state.xs), list(state.os), [0] * 9, [0, 0]
        full, target, side = 0, state.target, 0
        while True:
            closed = variant.raw_closed(won[0], won[1], full)
            assert variant.raw_moves(occ, closed, target) == state.legal_moves()
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            full, target, result = variant.raw_step(xs, os_, occ, won, full, side, move)
            side ^= 1
            if state.is_over:
                assert result == ("XO".index(state.winner) if state.winner else -1)
                break
            assert result == ONGOING
            assert (tuple(xs), tuple(os_), won, full, target) == (
                state.xs, state.os, [state.xwon, state.owon], state.full, state.target,
            )


@pytest.mark.parametrize(
    ("key", "options", "expected"),
    [
        ("ultimate", {}, [81, 720, 6336, 55080, 473256]),
        ("multi", {}, [81, 720, 6336, 55080, 473256]),
        ("ultimate", {"closed_boards": True}, [81, 720, 6336, 55080, 473256]),
    ],
    ids=str,
)
def test_raw_perft(key: str, options: dict, expected: list[int]) -> None:
    variant = get_variant(key, **options)
    assert isinstance(variant, NestedVariant)
    memo: dict[tuple, int] = {}

    def perft(xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, target: int, side: int,
              depth: int) -> int:
        moves = variant.raw_moves(occ, variant.raw_closed(won[0], won[1], full), target)
        if depth == 1:
            return len(moves)
        key = (tuple(xs), tuple(os_), won[0], won[1], target, depth)
        if key not in memo:
            count = 0
            for m in moves:
                xs2, os2, occ2, won2 = xs[:], os_[:], occ[:], won[:]
                full2, target2, result = variant.raw_step(xs2, os2, occ2, won2, full, side, m)
                if result == ONGOING:
                    count += perft(xs2, os2, occ2, won2, full2, target2, side ^ 1, depth - 1)
            memo[key] = count
        return memo[key]

    assert [perft([0] * 9, [0] * 9, [0] * 9, [0, 0], 0, -1, 0, d) for d in range(1, 6)] == expected


@pytest.mark.parametrize(
    ("key", "options"),
    [("classic", {}), ("four", {}), ("nxn", {"size": 7}), ("mnk", {"rows": 5, "cols": 11, "k": 4}),
     ("mnk", {"rows": 9, "cols": 4, "k": 6})],
    ids=str,
)
def test_grid_has_line_matches_the_line_table(key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    rng = random.Random(10)
    for _ in range(3000):
        bits = [rng.getrandbits(variant.cell_count) for _ in range(4)]
        mask = bits[0] & bits[1] | bits[2] & bits[3]  # about 44% of the cells: lines are neither rare nor certain
        assert variant.has_line(mask) == any(mask & line == line for line in variant.lines)


# strength ----------------------------------------------------------------------------------------

STRENGTH = [
    ("ultimate", "random", 19),
    ("multi", "random", 19),
    ("ultimate", "alphabeta", 14),
    ("multi", "alphabeta", 14),
]


@pytest.mark.parametrize(("key", "opponent", "needed"), STRENGTH, ids=str)
def test_mcts_2000_iterations_is_strong(key: str, opponent: str, needed: int) -> None:
    """20 seeded games, sides alternating: >= 95% wins against random, >= 70% against alphabeta depth 2."""
    variant = get_variant(key)
    wins = 0
    for game in range(20):
        mcts = get_strategy("mcts", iterations=2000, seed=game)
        other = (
            get_strategy("random", seed=1000 + game)
            if opponent == "random"
            else get_strategy("alphabeta", depth=2, seed=1000 + game)
        )
        if game % 2 == 0:
            wins += _play(variant, mcts, other) == "X"
        else:
            wins += _play(variant, other, mcts) == "O"
    assert wins >= needed, f"mcts won {wins} of 20 against {opponent} on {key}"


# Issue 21: MCTS-solver, playouts that look one move ahead, a reused tree -----------------------------


def _late_positions(key: str, count: int, ply: int) -> list[State]:
    variant = get_variant(key)
    out = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        state = variant.new_game()
        while not state.is_over and state.ply < ply:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            out.append(state)
    return out


@pytest.mark.parametrize(("key", "ply"), [("ultimate", 50), ("multi", 55)])
def test_solver_proven_wins_are_real(key: str, ply: int) -> None:
    checked = 0
    for state in _late_positions(key, 30, ply):
        strategy = get_strategy("mcts", iterations=1500, seed=1, solver=True)
        move = strategy.choose(state)
        assert move in state.legal_moves()
        tree = getattr(strategy, "_last_tree", None)
        if tree is None or tree.proven[tree.root] != -1:
            continue
        # the root is a proven loss for the side that moved into it: the side to move wins whatever happens
        checked += 1
        hero = state.to_move
        for game in range(3):
            other = get_strategy("random", seed=game)
            end = state
            while not end.is_over:
                player = get_strategy("mcts", iterations=300, seed=game, solver=True) if end.to_move == hero else other
                end = end.play(player.choose(end))
            assert end.winner == hero
    assert checked, "no proven position among the samples: the solver never proved anything"


@pytest.mark.parametrize(("key", "options"), NESTED, ids=str)
def test_smart_playouts_return_valid_results(key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    for state in [variant.new_game(), *_late_positions(key, 5, 30)]:
        if state.variant != variant:
            continue
        strategy = get_strategy("mcts", iterations=200, seed=2, smart=True)
        assert strategy.choose(state) in state.legal_moves()


def test_the_tree_is_reused_and_choices_stay_legal_and_repeatable() -> None:
    variant = get_variant("ultimate")

    def game(seed: int) -> tuple[list[int], int]:
        keeper = get_strategy("mcts", iterations=400, seed=seed, reuse=True, solver=True)
        other = get_strategy("mcts", iterations=50, seed=seed + 1)
        state, moves, reused = variant.new_game(), [], 0
        while not state.is_over and state.ply < 20:
            if state.ply % 2 == 0:
                move = keeper.choose(state)
                reused += keeper.last_reused  # type: ignore[attr-defined]
            else:
                move = other.choose(state)
            assert move in state.legal_moves()
            moves.append(move)
            state = state.play(move)
        return moves, reused

    first, reused = game(3)
    assert reused > 0  # some of the searches started from a kept subtree
    assert game(3) == (first, reused)  # a fresh strategy with the same seed plays the same game
