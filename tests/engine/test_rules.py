"""The rules of RULES.md, checked against the engine: perft table, classic whole tree, legality, options."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import IllegalMove, State, get_variant
from games.engine.nested import ALL9

# --- perft -------------------------------------------------------------------------------------------

PERFT_TABLE: list[tuple[str, dict[str, Any], list[int]]] = [
    ("classic", {}, [9, 72, 504, 3024, 15120, 54720, 148176]),
    ("four", {}, [16, 240, 3360, 43680, 524160, 5765760, 57657600]),
    ("ultimate", {}, [81, 720, 6336, 55080, 473256, 4017888, 33702480]),
    ("multi", {}, [81, 720, 6336, 55080, 473256, 4018018, 33704980]),
    ("ultimate", {"closed_boards": True}, [81, 720, 6336, 55080, 473256, 4020960, 33782544]),
]

# The eight symmetries of a 3 x 3 square as permutations old index -> new index. Ultimate's rules
# (both settings) are invariant when one symmetry is applied to board numbers and cell numbers at
# once, so its perft may memoise on a canonical key. Multi's "next higher board" rule is not
# symmetric, so multi is counted without this reduction. test_ultimate_is_symmetric checks the premise.
_ROT = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # new[i] = old[_ROT[i]]: a quarter turn
_MIR = (2, 1, 0, 5, 4, 3, 8, 7, 6)


def _compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a[b[i]] for i in range(9))


def _symmetries() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    p = tuple(range(9))
    for _ in range(4):
        out += [p, _compose(p, _MIR)]
        p = _compose(p, _ROT)
    assert len(set(out)) == 8
    # as "old -> new" maps
    return [tuple(g.index(i) for i in range(9)) for g in out]


SYMMETRIES = _symmetries()
#: MASK_MAP[g][mask]: a 9-bit mask moved by symmetry g
MASK_MAP = [tuple(sum(1 << g[c] for c in range(9) if m >> c & 1) for m in range(512)) for g in SYMMETRIES]


def _canonical_ultimate_key(key: tuple) -> tuple:
    xs, os_, target, xwon, owon = key
    best = None
    for g, mm in zip(SYMMETRIES, MASK_MAP, strict=True):
        nxs = [0] * 9
        nos = [0] * 9
        for b in range(9):
            nxs[g[b]] = mm[xs[b]]
            nos[g[b]] = mm[os_[b]]
        cand = (tuple(nxs), tuple(nos), g[target] if target >= 0 else -1, mm[xwon], mm[owon])
        if best is None or cand < best:
            best = cand
    return best


def perft(state: State, depth: int, memo: dict, canon=None) -> int:
    """Count move sequences of length ``depth``; memoised on the position key (and depth)."""
    if depth == 1:
        return len(state.legal_moves())
    if depth == 2:  # transpositions are rare this close to the leaves: skip the memo's hashing cost
        return sum(len(state.play(m).legal_moves()) for m in state.legal_moves())
    key = state.key()
    if canon is not None:
        key = canon(key)
    key = (key, depth)
    count = memo.get(key)
    if count is None:
        count = sum(perft(state.play(m), depth - 1, memo, canon) for m in state.legal_moves())
        memo[key] = count
    return count


@pytest.mark.parametrize(
    "variant_key,options,expected", PERFT_TABLE, ids=[f"{k}-{'-'.join(o) or 'default'}" for k, o, _ in PERFT_TABLE]
)
def test_perft_table(variant_key: str, options: dict[str, Any], expected: list[int]) -> None:
    variant = get_variant(variant_key, **options)
    canon = _canonical_ultimate_key if variant_key == "ultimate" else None
    memo: dict = {}
    got = [perft(variant.new_game(), d, memo, canon) for d in range(1, 8)]
    assert got == expected


def test_ultimate_is_symmetric() -> None:
    """The premise of the canonical perft memo: a symmetry maps legal moves to legal moves, results to results."""
    for closed in (False, True):
        variant = get_variant("ultimate", closed_boards=closed)
        rng = random.Random(11)
        for _ in range(30):
            g = rng.choice(SYMMETRIES)
            s, t = variant.new_game(), variant.new_game()
            while not s.is_over:
                image = sorted(9 * g[m // 9] + g[m % 9] for m in s.legal_moves())
                assert t.legal_moves() == image
                m = rng.choice(s.legal_moves())
                s, t = s.play(m), t.play(9 * g[m // 9] + g[m % 9])
            assert t.is_over and t.winner == s.winner


# --- classic whole tree ------------------------------------------------------------------------------


def _outcomes(state: State, memo: dict) -> tuple[int, int, int]:
    """(X wins, O wins, draws) over all complete games from ``state``."""
    if state.is_over:
        return (state.winner == "X", state.winner == "O", state.winner is None)
    key = state.key()
    if key not in memo:
        x = o = d = 0
        for m in state.legal_moves():
            cx, co, cd = _outcomes(state.play(m), memo)
            x, o, d = x + cx, o + co, d + cd
        memo[key] = (x, o, d)
    return memo[key]


def test_classic_whole_tree() -> None:
    x, o, d = _outcomes(get_variant("classic").new_game(), {})
    assert (x, o, d) == (131_184, 77_904, 46_080)
    assert x + o + d == 255_168


def test_classic_distinct_positions() -> None:
    start = get_variant("classic").new_game()
    seen = {start.key()}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for m in state.legal_moves():
            child = state.play(m)
            if child.key() not in seen:
                seen.add(child.key())
                frontier.append(child)
    assert len(seen) == 5_478


# --- immutability ------------------------------------------------------------------------------------


def _snapshot(state: State) -> tuple:
    fields = tuple(getattr(state, name) for name in state.__slots__)
    extra = (state.board_winners, tuple(state.active_boards)) if state.variant.nested else ()
    return fields, state.cells, state.to_move, state.is_over, state.winner, tuple(state.legal_moves()), extra


@pytest.mark.parametrize(
    "variant_key,options",
    [("classic", {}), ("four", {}), ("nxn", {"size": 6}), ("mnk", {"rows": 4, "cols": 7, "k": 3}),
     ("ultimate", {}), ("ultimate", {"closed_boards": True}), ("multi", {}), ("multi", {"random_start": True})],
)
def test_play_never_mutates(variant_key: str, options: dict[str, Any]) -> None:
    rng = random.Random(5)
    variant = get_variant(variant_key, **options)
    for _ in range(5):
        history: list[tuple[State, tuple]] = []
        state = variant.new_game()
        while not state.is_over:
            history.append((state, _snapshot(state)))
            state = state.play(rng.choice(state.legal_moves()))
            # also an illegal attempt must leave the state alone
            with pytest.raises(IllegalMove):
                history[-1][0].play(-1)
        for old, snap in history:
            assert _snapshot(old) == snap


# --- illegal moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_key", ["classic", "four", "ultimate", "multi"])
@pytest.mark.parametrize(
    "bad,words",
    [("3", "whole number"), (3.0, "whole number"), (None, "whole number"), (True, "whole number"),
     (False, "whole number"), (-1, "out of range"), (10_000, "out of range")],
)
def test_bad_moves(variant_key: str, bad: object, words: str) -> None:
    state = get_variant(variant_key).new_game()
    with pytest.raises(IllegalMove, match=words):
        state.play(bad)  # type: ignore[arg-type]


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)


@pytest.mark.parametrize("variant_key,size", [("classic", 9), ("four", 16), ("ultimate", 81), ("multi", 81)])
def test_just_out_of_range(variant_key: str, size: int) -> None:
    state = get_variant(variant_key).new_game()
    state.play(size - 1)
    with pytest.raises(IllegalMove, match="out of range"):
        state.play(size)


def test_occupied_cell() -> None:
    state = get_variant("classic").new_game().play(4)
    with pytest.raises(IllegalMove, match="taken"):
        state.play(4)
    nested = get_variant("ultimate").new_game().play(40)  # board 4 cell 4: O is sent to board 4
    with pytest.raises(IllegalMove, match="taken"):
        nested.play(40)


def test_wrong_board_nested() -> None:
    for key in ("ultimate", "multi"):
        state = get_variant(key).new_game().play(9 * 4 + 0)  # sent to board 0
        assert state.active_boards == [0]
        with pytest.raises(IllegalMove, match="board 0"):
            state.play(9 * 4 + 1)


def test_no_move_after_the_end() -> None:
    state = get_variant("classic").new_game()
    for m in (0, 3, 1, 4, 2):
        state = state.play(m)
    assert state.is_over and state.winner == "X" and state.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        state.play(8)
    # a draw is over too
    state = get_variant("classic").new_game()
    for m in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        state = state.play(m)
    assert state.is_over and state.winner is None
    with pytest.raises(IllegalMove, match="over"):
        state.play(0)


# --- ultimate ----------------------------------------------------------------------------------------

# X takes board 1 (cells 0, 1, 2) with its last move on cell 1, sending O to the board X just won.
SENT_TO_WON = [9, 1, 11, 19, 10]
# Ends with O sent (cell 3) to board 3, which is full.
SENT_TO_FULL = [34, 66, 28, 9, 3, 30, 35, 73, 16, 69, 57, 29, 21, 27, 8, 80, 75, 31, 42, 61, 64, 10, 12, 32, 48,
                33, 62, 76, 39]


def _play(variant_key: str, moves: list[int], **options: Any) -> State:
    state = get_variant(variant_key, **options).new_game()
    for m in moves:
        state = state.play(m)
    return state


def test_ultimate_first_move_anywhere() -> None:
    state = get_variant("ultimate").new_game()
    assert state.legal_moves() == list(range(81))
    assert state.active_boards == list(range(9))


def test_ultimate_sent_to_won_board_still_plays_there() -> None:
    state = _play("ultimate", SENT_TO_WON)
    assert state.board_winners[1] == "X"
    assert state.active_boards == [1]
    assert state.legal_moves() == [9 + c for c in range(3, 9)]
    with pytest.raises(IllegalMove, match="board 1"):
        state.play(0)
    # a later line on the won board does not change its owner
    state = state.play(9 + 3)  # O board 1 cell 3 -> X to board 3
    for m in (27 + 1, 9 + 4, 36 + 1, 9 + 5):  # X sends O back to board 1 twice: O gets 3, 4, 5 there
        state = state.play(m)
    assert state.cells[9 + 3: 9 + 6] == ("O", "O", "O")
    assert state.board_winners[1] == "X"


def test_ultimate_sent_to_full_board_plays_anywhere() -> None:
    state = _play("ultimate", SENT_TO_FULL)
    assert state.last_move % 9 == 3 and state.cells[27:36].count(None) == 0
    assert state.active_boards == [b for b in range(9) if b != 3]
    assert state.legal_moves() == [m for m in range(81) if m // 9 != 3 and state.cells[m] is None]


def test_ultimate_closed_boards_option() -> None:
    state = _play("ultimate", SENT_TO_WON, closed_boards=True)
    assert state.board_winners[1] == "X"
    assert 1 not in state.active_boards and state.active_boards == [0, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(IllegalMove, match="closed"):
        state.play(9 + 4)
    assert state.play(0).cells[0] == "O"


def test_ultimate_won_by_three_boards() -> None:
    # Random games, checked at every ply: a line of owned boards ends the game for its owner at once.
    rng = random.Random(3)
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    results = set()
    for _ in range(200):
        state = get_variant("ultimate").new_game()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            owners = state.board_winners
            lined = {owners[a] for a, b, c in lines if owners[a] is not None and owners[a] == owners[b] == owners[c]}
            if lined:
                assert state.is_over and lined == {state.winner}
                line_boards = {b for line in lines for b in line if all(owners[c] == state.winner for c in line)}
                assert set(state.winning_boards) == line_boards
            else:
                assert state.winner is None and state.winning_boards == ()
        if state.winner is None:
            assert None not in state.cells
        results.add(state.winner)
    assert results >= {"X", "O"}


# --- multi -------------------------------------------------------------------------------------------

# O wins board 8 (cells 6, 7, 8) with its last move on cell 8: X is sent to 8, closed, so wraps to 0.
MULTI_WRAP = [8, 79, 71, 78, 62, 80]


def test_multi_wraps_to_next_open_board() -> None:
    state = _play("multi", MULTI_WRAP)
    assert state.board_winners[8] == "O"
    assert state.active_boards == [0]
    with pytest.raises(IllegalMove):
        state.play(72)  # board 8 is closed


def test_multi_skips_closed_boards_upwards() -> None:
    # X wins board 1 (cells 0, 1, 2) on cell 1: O is sent to board 1, closed, so board 2.
    state = _play("multi", SENT_TO_WON)
    assert state.board_winners[1] == "X"
    assert state.active_boards == [2]
    with pytest.raises(IllegalMove):
        state.play(9 + 4)


def test_multi_random_games_obey_the_rules() -> None:
    rng = random.Random(8)
    winners = set()
    for _ in range(150):
        state = get_variant("multi").new_game()
        while not state.is_over:
            prev = state
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            owners = state.board_winners
            closed = {b for b in range(9) if owners[b] or None not in state.cells[9 * b: 9 * b + 9]}
            # a won or full board is closed: no legal move goes there
            assert not closed & {m // 9 for m in state.legal_moves()}
            # won boards stay won by the same side
            assert all(o is None or o == n for o, n in zip(prev.board_winners, owners, strict=True))
            if len(closed) < 9:
                assert not state.is_over
                c = move % 9
                expected = next((c + i) % 9 for i in range(9) if (c + i) % 9 not in closed)
                assert state.active_boards == [expected]
        assert state.closed == ALL9
        nx, no = state.board_winners.count("X"), state.board_winners.count("O")
        assert state.winner == ("X" if nx > no else "O" if no > nx else None)
        # what won it: every board of the winner
        assert state.winning_boards == tuple(b for b in range(9) if state.winner and owners[b] == state.winner)
        winners.add(state.winner)
    assert winners == {"X", "O", None}


def test_multi_random_start_repeatable() -> None:
    variant = get_variant("multi", random_start=True)
    boards = set()
    for seed in range(40):
        a, b = variant.new_game(seed=seed), variant.new_game(seed=seed)
        assert a.active_boards == b.active_boards and len(a.active_boards) == 1
        board = a.active_boards[0]
        assert a.legal_moves() == [9 * board + c for c in range(9)]
        other = (board + 1) % 9
        with pytest.raises(IllegalMove):
            a.play(9 * other)
        boards.add(board)
        replay = variant.new_game(start_board=board)
        assert replay == a and replay.legal_moves() == a.legal_moves()
    assert len(boards) > 3
    # without random_start any board is allowed first
    assert get_variant("multi").new_game().active_boards == list(range(9))


def test_multi_start_board_checks() -> None:
    with pytest.raises(ValueError, match="random_start"):
        get_variant("multi").new_game(start_board=3)
    for bad in (9, -1, "3", True):
        with pytest.raises(ValueError, match="start_board"):
            get_variant("multi", random_start=True).new_game(start_board=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        get_variant("ultimate").new_game(start_board=3)


# --- grid win detection ------------------------------------------------------------------------------


def _with_marks(variant_key: str, x_cells: list[int], o_cells: list[int], **options: Any) -> State:
    """Alternate X and O moves from the two lists (X's list is one longer or equal)."""
    state = get_variant(variant_key, **options).new_game()
    for i, cell in enumerate(x_cells):
        state = state.play(cell)
        if i < len(o_cells):
            state = state.play(o_cells[i])
    return state


@pytest.mark.parametrize(
    "line", [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
)
def test_classic_lines(line: list[int]) -> None:
    others = [c for c in range(9) if c not in line]
    # O's two marks cannot make a line; X's third move completes the line
    state = _with_marks("classic", line, others[:2])
    assert state.is_over and state.winner == "X"
    assert state.winning_cells == tuple(sorted(line))


def test_winning_cells() -> None:
    # one move can make two lines: X's 0 completes the top row and the left column
    state = _play("classic", [1, 4, 2, 5, 3, 7, 6, 8, 0])
    assert state.winner == "X" and state.winning_cells == (0, 1, 2, 3, 6)
    assert _play("classic", [0, 4, 8]).winning_cells == ()  # not over
    assert _play("classic", [0, 1, 2, 4, 3, 5, 7, 6, 8]).winning_cells == ()  # a draw
    # gomoku: six in a row is a win, and all six are the line
    x_cells, o_cells = [0, 1, 2, 3, 5, 4], [100, 122, 144, 166, 188]
    state = _with_marks("mnk", x_cells, o_cells, rows=15, cols=15, k=5)
    assert state.winner == "X" and state.winning_cells == (0, 1, 2, 3, 4, 5)


def test_classic_o_wins() -> None:
    state = _with_marks("classic", [0, 1, 8], [3, 4, 5])
    assert state.is_over and state.winner == "O" and state.ply == 6


def test_no_win_before_the_line_is_complete() -> None:
    state = _with_marks("classic", [0, 1], [3, 4])
    assert not state.is_over and state.winner is None


@pytest.mark.parametrize(
    "x_cells",
    [
        [6, 7, 8],  # row, off the left edge
        [2, 7, 12],  # column
        [0, 6, 12],  # diagonal from the corner
        [8, 12, 16],  # anti-diagonal in the middle
        [14, 18, 22],  # anti-diagonal ending on the bottom row
    ],
)
def test_mnk_three_in_a_row_on_five_by_five(x_cells: list[int]) -> None:
    o_cells = [24, 20]
    state = _with_marks("mnk", x_cells, o_cells, rows=5, cols=5, k=3)
    assert state.is_over and state.winner == "X"


def test_mnk_no_wraparound() -> None:
    # 3, 4 end row 0 and 5 starts row 1: not a line; nor 4, 8, 12 ... on a 5-wide board diagonal wrap
    state = _with_marks("mnk", [3, 4, 5], [20, 21], rows=5, cols=5, k=3)
    assert not state.is_over
    state = _with_marks("mnk", [4, 8, 12], [0, 1], rows=5, cols=5, k=3)
    assert state.is_over  # 4, 8, 12 is a true anti-diagonal (0,4), (1,3), (2,2)
    state = _with_marks("mnk", [9, 10, 11], [0, 1], rows=4, cols=5, k=3)  # (1,4), (2,0), (2,1)
    assert not state.is_over


def test_mnk_rectangular_and_k_equal_to_long_side() -> None:
    state = _with_marks("mnk", [0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10], rows=3, cols=6, k=6)
    assert state.is_over and state.winner == "X"
    variant = get_variant("mnk", rows=3, cols=6, k=4)
    assert variant.cell_count == 18
    state = _with_marks("mnk", [0, 6, 12], [1, 2], rows=3, cols=6, k=3)
    assert state.winner == "X"


def test_nxn_full_row_needed() -> None:
    state = _with_marks("nxn", [0, 1, 2, 3], [5, 6, 7], size=5)
    assert not state.is_over
    state = state.play(8).play(4)
    assert state.is_over and state.winner == "X"


def test_grid_draw_on_full_board() -> None:
    state = get_variant("four").new_game()
    # a 4 x 4 filling with no four in a row: rows XXOO / OOXX / XXOO / OOXX
    pattern = "XXOOOOXXXXOOOOXX"
    xs = [i for i, p in enumerate(pattern) if p == "X"]
    os_ = [i for i, p in enumerate(pattern) if p == "O"]
    for a, b in zip(xs, os_, strict=True):
        state = state.play(a).play(b)
    assert state.is_over and state.winner is None and state.legal_moves() == []


# --- options -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key,options,words",
    [
        ("nxn", {"size": 2}, "size"),
        ("nxn", {"size": 11}, "size"),
        ("nxn", {"size": "5"}, "size"),
        ("nxn", {"size": True}, "size"),
        ("nxn", {"size": 5.0}, "size"),
        ("nxn", {"colour": 5}, "colour"),
        ("mnk", {"rows": 3, "cols": 3, "k": 4}, "k"),
        ("mnk", {"rows": 20}, "rows"),
        ("mnk", {"k": 2}, "k"),
        ("classic", {"size": 3}, "size"),
        ("ultimate", {"closed_boards": 1}, "closed_boards"),
        ("ultimate", {"closed_boards": "yes"}, "closed_boards"),
        ("multi", {"random_start": None}, "random_start"),
        ("multi", {"closed_boards": True}, "closed_boards"),
        ("hexagonal", {}, "hexagonal"),
    ],
)
def test_bad_options(key: str, options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        get_variant(key, **options)


def test_good_options() -> None:
    assert get_variant("nxn", size=3).cell_count == 9
    assert get_variant("nxn", size=10).cell_count == 100
    assert get_variant("mnk", rows=19, cols=19, k=5).cell_count == 361
    assert get_variant("mnk", rows=3, cols=7, k=7).cell_count == 21
    assert get_variant("nxn").options == {"size": 5}


def test_mnk_default_k_fits_small_boards():
    from games.engine import get_variant

    assert get_variant("mnk").options["k"] == 5
    assert get_variant("mnk", rows=3, cols=4).options["k"] == 4
    assert get_variant("mnk", rows=3, cols=3).options["k"] == 3
