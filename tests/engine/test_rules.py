"""The rules of RULES.md, checked against the engine: perft table, classic whole tree, legality, options.

Ultimate's and multi's own rules are checked in test_rules_nested.py, wins on a grid in test_rules_grid.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import IllegalMove, State, get_variant

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


# --- positions ---------------------------------------------------------------------------------------

# A position by the moves that reach it (test_rules_nested.py, test_rules_grid.py).


def _play(variant_key: str, moves: list[int], **options: Any) -> State:
    state = get_variant(variant_key, **options).new_game()
    for m in moves:
        state = state.play(m)
    return state


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
