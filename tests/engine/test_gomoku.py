"""``gomoku``: pattern tables, forced wins (VCF, VCT) found and played out, the must-block, open threes blocked.

Budgets are short (a fraction of hard's second) so that the whole file stays well under a minute.
"""

from __future__ import annotations

import random
import time

import pytest

from games.engine import get_strategy, get_variant
from games.engine.grid import GridState, GridVariant
from games.engine.strategies import Strategy
from games.engine.strategies.gomoku import Searcher
from games.engine.strategies.gomoku_board import (
    C_FOUR,
    C_FOUR3,
    C_OPEN4,
    C_THREE,
    C_WIN,
    L_FIVE,
    L_FOUR,
    L_OPEN4,
    L_THREE,
    Board,
    GomokuOptionError,
    _level,
    shape_for,
)

GOMOKU = get_variant("mnk", rows=15, cols=15, k=5)


def position(variant: GridVariant, x: list[str], o: list[str]) -> GridState:
    """A position from cell names (X's and O's stones), X and O alternating, the extra stone X's."""
    assert len(x) in (len(o), len(o) + 1)
    state = variant.new_game()
    for i in range(len(x) + len(o)):
        state = state.play(variant.parse_cell(x[i // 2] if i % 2 == 0 else o[i // 2]))
    assert not state.is_over
    return state


def bits(text: str) -> tuple[int, int]:
    """A 9-cell window (k = 5) as (own, blocked) masks from text like 'xx.x_o...': x own, o or # blocked,
    '_' the centre (the cell being played)."""
    assert len(text) == 9 and text[4] == "_"
    mine = sum(1 << i for i, ch in enumerate(text) if ch == "x") | 1 << 4
    blocked = sum(1 << i for i, ch in enumerate(text) if ch in "o#")
    return mine, blocked


@pytest.mark.parametrize(
    ("window", "level"),
    [
        ("xxx._....", L_FOUR),  # x x x . _ : one way to five (the gap)
        ("xxxx_....", L_FIVE),
        (".xxx_....", L_OPEN4),  # . x x x _ . : two ways
        ("oxxx_....", L_FOUR),
        ("..xx_....", L_THREE),  # . . x x _ . . : one more makes an open four
        ("..x._x...", L_THREE),  # broken: x . _ x -> x x _ x or x . _ x x
        ("oxx._....", 1),  # only a closed four can follow: a dead three
        ("#xx._o...", 0),  # between the edge and a stone only four cells: never a five
    ],
)
def test_direction_levels(window: str, level: int) -> None:
    mine, blocked = bits(window)
    assert _level(mine, blocked, 5) == level


def test_incremental_levels_match_a_fresh_read() -> None:
    shape = shape_for(15, 15, 5)
    rng = random.Random(5)
    board = Board(shape, 0, 0)
    played: list[tuple[int, int]] = []
    for step in range(120):
        occupied = board.bb[0] | board.bb[1]
        if played and rng.random() < 0.3:
            cell, side = played.pop()
            board.undo(cell, side)
        else:
            cell = rng.choice([c for c in range(shape.n) if not occupied >> c & 1 and abs(c // 15 - 7) < 5])
            side = step & 1
            board.play(cell, side)
            played.append((cell, side))
        occupied = board.bb[0] | board.bb[1]
        for c in range(shape.n):
            if not occupied >> c & 1:
                for s in (0, 1):
                    assert board.cell_class(c, s) == board.fresh_class(c, s)


def test_cell_classes_on_a_board() -> None:
    state = position(GOMOKU, ["h8", "i8", "j8", "a1"], ["h9", "i9", "o15"])
    board = Board(shape_for(15, 15, 5), state.x, state.o)
    cls = {c: (mc, tc) for c, mc, _, tc, _ in board.scan(1)}  # O to move
    assert cls[GOMOKU.parse_cell("g8")][1] == C_OPEN4  # X would make an open four there
    assert cls[GOMOKU.parse_cell("k8")][1] == C_OPEN4
    assert cls[GOMOKU.parse_cell("j9")][0] == C_THREE  # O's h9 i9 j9


def _play_out(
    state: GridState, attacker: Strategy, defender: Strategy, limit: int, hero: int | None = None
) -> GridState:
    hero = state.ply & 1 if hero is None else hero
    for _ in range(limit):
        if state.is_over:
            break
        player = attacker if state.ply & 1 == hero else defender
        state = state.play(player.choose(state))
    return state


def _defenders(seed: int) -> list[Strategy]:
    return [
        get_strategy("random", seed=seed),
        get_strategy("threats"),
        get_strategy("alphabeta", depth=2, heuristic="weighted"),
        get_strategy("gomoku", seconds=0.2, seed=seed),
    ]


# seed 180 of a generator of random middle games: X to move wins by fours (no open four, no four-three yet)
VCF_X = ["e11", "e10", "f9", "h9", "j9"]
VCF_O = ["f11", "f10", "j10", "h7", "e6"]
# seed 14: O to move wins by threes and fours, and has no forced win by fours alone
VCT_X = ["e10", "g9", "g8", "h5", "k5"]
VCT_O = ["f9", "h8", "f7", "g6"]


def test_a_forced_win_by_fours_is_found_and_played_to_the_end() -> None:
    state = position(GOMOKU, VCF_X, VCF_O)
    attacker = get_strategy("gomoku", seconds=0.5)
    move, reason = attacker.analyse(state)  # type: ignore[attr-defined]
    assert reason == "vcf"
    for seed, defender in enumerate(_defenders(1)):
        end = _play_out(state, get_strategy("gomoku", seconds=0.5, seed=seed), defender, 30)
        assert end.winner == "X", f"the VCF was not carried through against {defender!r}"
        assert end.ply - state.ply <= 2 * 12  # continuous fours: short


def test_a_forced_win_by_threes_is_found_and_played_to_the_end() -> None:
    state = position(GOMOKU, VCT_X, VCT_O)
    assert state.to_move == "O"
    board = Board(shape_for(15, 15, 5), state.x, state.o)
    search = Searcher(board, GOMOKU.cell_lines, time.perf_counter() + 20, 8)
    assert search.winning_attack(1, False) < 0  # no win by fours alone
    first = search.winning_attack(1, True)
    assert first >= 0
    # the first threat is played; the strategy carries the attack through. Its threat search is bounded by time, and
    # finding the win returns at once: the generous budget only matters on a machine busy with other work.
    state = state.play(first)
    for seed, defender in enumerate(_defenders(2)):
        end = _play_out(state, get_strategy("gomoku", seconds=3.0, seed=seed), defender, 40, hero=1)
        assert end.winner == "O", f"the VCT was not carried through against {defender!r}"


def test_the_only_move_that_stops_two_open_threes() -> None:
    # X: an open three in row 8 (h8 i8 j8) and one in column k (k9 k10 k11); only k8 stops both open fours
    state = position(GOMOKU, ["h8", "i8", "j8", "k9", "k10", "k11", "a15"], ["a1", "c1", "a3", "o15", "o13", "m15"])
    assert state.to_move == "O"
    for strategy in (get_strategy("gomoku", seconds=0.5), get_strategy("gomoku", seconds=0.3, depth=2, seed=3)):
        assert GOMOKU.cell_name(strategy.choose(state)) == "k8"


def test_the_only_move_that_stops_a_four_three() -> None:
    # Seed 2797 of a generator of random middle games, O to move: X threatens a four-three at i5 (and a four
    # at j4). Of all 208 replies only i5 leaves X without a forced win (checked once with the searcher, every
    # reply, five seconds each).
    x = ["g11", "f10", "h9", "f8", "j8", "g7", "k7", "h6", "j6"]
    state = position(GOMOKU, x, ["f11", "h10", "e9", "g9", "j7", "f6", "i6", "k6"])
    assert state.to_move == "O"
    board = Board(shape_for(15, 15, 5), state.x, state.o)
    threat = {GOMOKU.cell_name(c): tc for c, _, _, tc, _ in board.scan(1) if tc >= C_FOUR}
    assert threat == {"i5": C_FOUR3, "j4": C_FOUR}
    for strategy in (get_strategy("gomoku", seconds=0.3), get_strategy("gomoku", seconds=0.3, depth=2, seed=4)):
        assert GOMOKU.cell_name(strategy.choose(state)) == "i5"


def _attacker_move(state: GridState, rng: random.Random) -> int:
    """A plain attacker: five, else open four, else a move that makes an open three, else next to its stones."""
    side = state.ply & 1
    board = Board(shape_for(GOMOKU.rows, GOMOKU.cols, GOMOKU.k), state.x, state.o)
    scan = board.scan(side)
    for want in (C_WIN, C_OPEN4):
        cells = [c for c, mc, _, _, _ in scan if mc == want]
        if cells:
            return cells[0]
    blocks = [c for c, _, _, tc, _ in scan if tc == C_WIN]
    if blocks:
        return blocks[0]
    threes = [c for c, mc, _, _, _ in scan if mc >= C_THREE]
    if threes:
        return rng.choice(threes)
    mine = state.o if side else state.x
    # neighbours in the 15-wide grid; a corner cell's would-be neighbours below 0 are off the board
    steps = (-16, -15, -14, -1, 1, 14, 15, 16)
    near = [c for c, _, _, _, _ in scan if any(c + d >= 0 and mine >> (c + d) & 1 for d in steps)]
    return rng.choice(near or [c for c, *_ in scan])


@pytest.mark.parametrize("game", range(3))
def test_hard_blocks_every_open_three_and_does_not_lose_to_a_plain_attack(game: int) -> None:
    # hard's strategy at a fifth of its second: the must-block does not depend on the budget
    hard = get_strategy("gomoku", seconds=0.2, seed=game)
    rng = random.Random(game)
    state = GOMOKU.new_game().play(GOMOKU.parse_cell("h8"))
    for _ in range(40):
        if state.is_over:
            break
        if state.to_move == "X":
            state = state.play(_attacker_move(state, rng))
            continue
        board = Board(shape_for(15, 15, 5), state.x, state.o)
        open_three = any(tc == C_OPEN4 for _, _, _, tc, _ in board.scan(1))
        state = state.play(hard.choose(state))
        if open_three and not state.is_over:
            after = Board(shape_for(15, 15, 5), state.x, state.o).scan(0)
            made_four = any(tc == C_WIN for _, _, _, tc, _ in after)  # hard's own four: X must answer it
            assert made_four or not any(mc == C_OPEN4 for _, mc, _, _, _ in after), "an open three was left open"
    assert state.winner != "X"


def test_the_issue_game_g10_h9_i8_is_blocked() -> None:
    # The issue's game: an open three on the diagonal g10-h9-i8 became an open four. Now it is blocked.
    state = position(GOMOKU, ["g10", "h9", "i8"], ["h8", "j9"])
    move = get_strategy("gomoku", seconds=0.3).choose(state)
    assert GOMOKU.cell_name(move) in ("f11", "j7")


def test_options_and_support() -> None:
    assert get_strategy("gomoku").supports(GOMOKU)
    assert not get_strategy("gomoku").supports(get_variant("ultimate"))
    assert not get_strategy("gomoku").supports(get_variant("classic"))  # solved: perfect's
    assert get_strategy("gomoku").supports(get_variant("nxn", size=5))
    for bad in ({"seconds": 0}, {"depth": 0}, {"width": 1}):
        with pytest.raises(GomokuOptionError):
            get_strategy("gomoku", **bad)
    assert issubclass(GomokuOptionError, ValueError)


@pytest.mark.parametrize(("rows", "cols", "k"), [(7, 9, 4), (9, 9, 5), (19, 19, 5), (10, 10, 6), (6, 7, 3)])
def test_legal_moves_on_other_shapes(rows: int, cols: int, k: int) -> None:
    variant = get_variant("mnk", rows=rows, cols=cols, k=k)
    strategy = get_strategy("gomoku", seconds=0.05, seed=1)
    other = get_strategy("random", seed=2)
    state = variant.new_game()
    while not state.is_over and state.ply < 30:
        player = strategy if state.ply % 2 == 0 else other
        move = player.choose(state)
        assert move in state.legal_moves()
        state = state.play(move)


def test_takes_the_win_and_blocks_the_five() -> None:
    state = position(GOMOKU, ["h8", "i8", "j8", "k8"], ["h9", "i9", "j9", "k9"])  # X to move: g8 or l8 wins
    assert GOMOKU.cell_name(get_strategy("gomoku", seconds=0.1).choose(state)) in ("g8", "l8")
    state = position(GOMOKU, ["h8", "i8", "j8", "a1", "c3"], ["h9", "i9", "j9", "k9"])  # O threatens g9 and l9
    # X must block one end (the other wins for O anyway); it never ignores the four
    assert GOMOKU.cell_name(get_strategy("gomoku", seconds=0.1).choose(state)) in ("g9", "l9")


def test_a_slip_is_a_plausible_move_and_never_skips_a_win_or_a_block() -> None:
    # slip=1: every move is a quick pick among the four best-looking cells, without search ...
    state = position(GOMOKU, ["h8", "i9"], ["h9"])
    picks = set()
    for seed in range(30):
        strategy = get_strategy("gomoku", seconds=0.1, slip=1, seed=seed)
        move = strategy.choose(state)
        assert strategy.last_reason == "slip"
        picks.add(move)
    board = Board(shape_for(15, 15, 5), state.x, state.o)
    ranked = sorted(board.scan(1), key=lambda e: -(e[2] + e[4] * 0.9))
    assert picks <= {e[0] for e in ranked[:4]} and len(picks) >= 2
    # ... but a win is taken, a five blocked and an open four made all the same
    win = position(GOMOKU, ["h8", "i8", "j8", "k8"], ["h9", "i9", "j9", "k9"])
    block = position(GOMOKU, ["h8", "i8", "j8", "a1", "c3"], ["h9", "i9", "j9", "k9"])
    for seed in range(10):
        assert GOMOKU.cell_name(get_strategy("gomoku", slip=1, seed=seed).choose(win)) in ("g8", "l8")
        assert GOMOKU.cell_name(get_strategy("gomoku", slip=1, seed=seed).choose(block)) in ("g9", "l9")


def test_slip_is_an_option_between_0_and_1() -> None:
    assert repr(get_strategy("gomoku", seconds=0.9)) == "<GomokuStrategy gomoku(seconds=0.9, vct=True)>"
    state = position(GOMOKU, ["h8", "i9"], ["h9"])
    strategy = get_strategy("gomoku", seconds=0.05, slip=0.0, seed=1)
    strategy.choose(state)
    assert strategy.last_reason != "slip"
    for bad in (-0.1, 1.5):
        with pytest.raises(GomokuOptionError, match="slip"):
            get_strategy("gomoku", slip=bad)
