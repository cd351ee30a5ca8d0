"""Puzzles (games.engine.puzzles): every puzzle generated from games of every variant that has them is proven again
here by an independent search, written in this file on the engine's rules alone (``State.play``, ``winner``,
``legal_moves``: not the solver, not the threat search, not the puzzle search); and a position with two winning first
moves is never a puzzle.

The independent checks, for a puzzle's position and line (the solving side's moves and the defence's between them):

- the line is a forced win: each move of the solving side is legal, the last one wins; at each defence, every other
  reply loses too, and no later than the line's own defence (the line's defence is the longest resistance): checked
  by a plain brute-force search ``wins_within`` (every move of both sides, memoised);
- each move of the solving side is the only one that keeps the win: on exact boards no other move wins at all (a
  plain negamax over the whole game, ``outcome``); on nested boards no other move wins within the puzzle search's
  bound; on gomoku-class boards no other move wins at once or within two moves (the depth a brute force reaches on
  225 cells).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from games.engine import State, get_strategy, get_variant
from games.engine.puzzles import MAX_MOVES, NESTED_MAX_MOVES, find_puzzle, refutation


def wins_within(state: State, side: str, n: int, memo: dict) -> bool:
    """``side`` (to move in ``state``) wins within ``n`` of its moves whatever the other side does: brute force."""
    if n < 1 or state.is_over:
        return False
    key = (state.key(), state.ply & 1, n)
    if key in memo:
        return memo[key]
    moves = state.legal_moves()
    result = any(state.play(m).winner == side for m in moves)
    if not result and n > 1:
        for move in moves:
            after = state.play(move)
            if after.is_over:
                continue
            if all(not (t := after.play(r)).is_over and wins_within(t, side, n - 1, memo) for r in after.legal_moves()):
                result = True
                break
    memo[key] = result
    return result


@cache
def _lines(rows: int, cols: int, k: int) -> tuple[int, ...]:
    """Every k-in-a-row of the board as a bit mask, worked out here (not the engine's tables)."""
    found = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.append(sum(1 << (rr * cols + cc) for rr, cc in cells))
    return tuple(found)


def outcome(me: int, opp: int, shape: tuple[int, int, int], memo: dict) -> int:
    """The side to move's result with best play, 1 / 0 / -1: a plain negamax over every move (small boards)."""
    key = (me, opp)
    if key in memo:
        return memo[key]
    rows, cols, _k = shape
    lines = _lines(*shape)
    full = (1 << rows * cols) - 1
    best = -1 if (me | opp) != full else 0
    for cell in range(rows * cols):
        bit = 1 << cell
        if (me | opp) & bit:
            continue
        mine = me | bit
        if any(mine & line == line for line in lines if line & bit):
            best = 1
            break
        best = max(best, 0 if (mine | opp) == full else -outcome(opp, mine, shape, memo))
        if best == 1:
            break
    memo[key] = best
    return best


def threat_cells(state: State, side: str) -> set[int]:
    """Cells where ``side`` would complete a line with its next stone (grids; from this file's own lines)."""
    variant = state.variant
    mine, theirs = (state.x, state.o) if side == "X" else (state.o, state.x)
    found: set[int] = set()
    for line in _lines(variant.rows, variant.cols, variant.k):
        if not line & theirs and (line & mine).bit_count() == variant.k - 1:
            found.add((line & ~mine).bit_length() - 1)
    return found


def other_winning_moves(state: State, move: int, kind: str) -> list[int]:
    """Moves of the side to move, other than ``move``, that win too (by the bound of ``kind``'s check)."""
    side = state.to_move
    others = [m for m in state.legal_moves() if m != move]
    found = []
    if kind == "exact":
        variant = state.variant
        shape = (variant.rows, variant.cols, variant.k)
        memo: dict = {}
        for m in others:
            after = state.play(m)
            if after.winner == side:
                found.append(m)
            elif not after.is_over:
                me, opp = (after.x, after.o) if after.to_move == "X" else (after.o, after.x)
                if outcome(me, opp, shape, memo) == -1:
                    found.append(m)
        return found
    bound = NESTED_MAX_MOVES if kind == "nested" else 2
    memo = {}
    for m in others:
        after = state.play(m)
        if after.winner == side:
            found.append(m)
            continue
        if after.is_over:
            continue
        replies = after.legal_moves()
        if kind == "gomoku":  # the blocks first: any other reply usually lets the solving side win at once
            blocks = threat_cells(after, side)
            replies.sort(key=lambda r: r not in blocks)
        if all(not (t := after.play(r)).is_over and wins_within(t, side, bound - 1, memo) for r in replies):
            found.append(m)
    return found


def check_puzzle(state: State, line: tuple[int, ...], kind: str) -> None:
    side = state.to_move
    memo: dict = {}
    for i, move in enumerate(line):
        left = (len(line) - i + 1) // 2  # the solving side's moves left, this one included (at its turn)
        if i % 2 == 0:
            assert state.to_move == side
            assert move in state.legal_moves()
            if kind == "exact" or i == 0 or kind == "nested":
                assert other_winning_moves(state, move, kind) == [], f"a second winning move at step {i}"
            state = state.play(move)
            if i == len(line) - 1:
                assert state.winner == side
                return
            assert not state.is_over
        else:
            assert move in state.legal_moves()
            for reply in state.legal_moves():
                after = state.play(reply)
                assert after.winner is None, "the defence wins at once"
                if reply != move:  # the line's own reply is proven by the rest of the line
                    # every other reply loses too, and none later than the line's (the longest resistance)
                    assert wins_within(after, side, left, memo), f"reply {reply} escapes at step {i}"
            state = state.play(move)
    raise AssertionError("the line does not end with the solving side's win")


def positions(variant_key: str, options: dict, *, games: int, seed: int, strategy: str | None = None,
              last: int | None = None):
    """Positions from random games (or a strategy's, with some random moves) of a variant."""
    variant = get_variant(variant_key, **options)
    rng = random.Random(seed)
    player = get_strategy(strategy) if strategy else None
    for _ in range(games):
        state, seen = variant.new_game(), []
        while not state.is_over:
            seen.append(state)
            move = player.choose(state) if player and rng.random() < 0.7 else rng.choice(state.legal_moves())
            state = state.play(move)
        yield from seen[-last:] if last else seen


CASES = [
    ("classic", {}, "exact", {"games": 40, "seed": 1}),
    ("four", {}, "exact", {"games": 12, "seed": 5}),
    ("nxn", {"size": 5}, "gomoku", {"games": 6, "seed": 3, "strategy": "threats", "last": 14}),
    ("mnk", {"rows": 15, "cols": 15, "k": 5}, "gomoku", {"games": 4, "seed": 5, "strategy": "threats", "last": 20}),
    ("ultimate", {}, "nested", {"games": 6, "seed": 5, "last": 12}),
    ("ultimate", {"closed_boards": True}, "nested", {"games": 6, "seed": 6, "last": 12}),
    ("multi", {}, "nested", {"games": 6, "seed": 7, "last": 8}),
]


@pytest.mark.parametrize(("key", "options", "kind", "how"), CASES, ids=lambda v: str(v) if isinstance(v, str) else "")
def test_every_generated_puzzle_is_proven_again_by_an_independent_search(key, options, kind, how):
    found = []
    for state in positions(key, options, **how):
        puzzle = find_puzzle(state)
        if puzzle is not None:
            found.append((state, puzzle))
            limit = NESTED_MAX_MOVES if kind == "nested" else MAX_MOVES
            assert 1 <= puzzle.moves_to_win <= limit and len(puzzle.solution) == 2 * puzzle.moves_to_win - 1
            check_puzzle(state, puzzle.solution, kind)
    if key != "multi":  # multi's wins come at the end of the game only: there may be none in a few games
        assert found, f"no puzzle found in {key} games: the test proves nothing"
    if key in ("classic", "four", "mnk"):  # lines longer than a win at once are among them (a VCF's blocks, ...)
        assert any(puzzle.moves_to_win >= 2 for _state, puzzle in found)


def grid(variant, rows: list[str]) -> State:
    cells = "".join(rows)
    state = variant.new_game()
    xs = [i for i, c in enumerate(cells) if c == "x"]
    os_ = [i for i, c in enumerate(cells) if c == "o"]
    for i in range(max(len(xs), len(os_))):
        if i < len(xs):
            state = state.play(xs[i])
        if i < len(os_):
            state = state.play(os_[i])
    return state


def test_a_position_with_two_winning_first_moves_is_never_a_puzzle():
    classic = get_variant("classic")
    two = grid(classic, ["xx.", "xoo", "..o"])  # X wins at c3 (the top row) and at a1 (the left column)
    assert two.to_move == "X" and sorted(m for m in two.legal_moves() if two.play(m).winner == "X") == [2, 6]
    assert find_puzzle(two) is None
    fork = grid(classic, ["xx.", "o..", "..o"])  # c3 wins at once, and b2 and b1 win too (two threats after each)
    assert other_winning_moves(fork, 2, "exact") == [4, 7] and find_puzzle(fork) is None
    gomoku = get_variant("mnk", rows=15, cols=15, k=5)
    rows = ["." * 15 for _ in range(15)]
    rows[7] = "....xxxx......."  # an open four: two cells win at once
    rows[11] = "o.o.o.o........"
    open_four = grid(gomoku, rows)
    assert open_four.to_move == "X" and find_puzzle(open_four) is None
    rows[7] = "...oxxxx......."  # blocked on one side: one cell wins, and no other move does
    rows[11] = "o.o.o.........."
    four = grid(gomoku, rows)
    found = find_puzzle(four)
    assert four.to_move == "X" and found is not None and found.solution == (8 + 7 * 15,) and found.proof == "fours"
    check_puzzle(four, found.solution, "gomoku")


def test_the_refutation_of_a_wrong_move_is_the_defences_best_answer():
    classic = get_variant("classic")
    one = grid(classic, ["xx.", "o..", "..o"])
    wrong = one.play(4)  # b2 instead of c3
    assert refutation(wrong) == 2  # O blocks c3
    ultimate = get_variant("ultimate")
    state = ultimate.new_game().play(40)
    assert refutation(state) in state.legal_moves()
