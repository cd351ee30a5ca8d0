#!/usr/bin/env python3
"""Measure three-stone openings for the computer's Swap2 book (games.engine.strategies.openings.BOOK): each opening
is played out from white's (the O stones') move by two equal players of each level named, colours fixed, turned by
the board's symmetries in turn (each orientation plays differently: the players are nearly deterministic), and the
X stones' (black's) score printed beside the evaluation's value. An opening near 50 % at every level is balanced
for the computer whatever side the chooser takes. Not a test (minutes); figures in docs/ladder.md, "Swap2".

    python scripts/swap2_book.py --levels 6,7 --games 8
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import difficulty, get_variant  # noqa: E402
from games.engine.strategies.openings import SYMMETRIES, stone_value  # noqa: E402

WHITES = ((0, 1), (1, 1), (0, 2), (1, 2), (2, 2))


def candidates() -> list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
    """White beside or near the centre; the second black stone 2 to 4 cells out (one of each mirror image)."""
    found = []
    for white in WHITES:
        for r in range(-4, 5):
            for c in range(-4, 5):
                if max(abs(r), abs(c)) < 2 or (r, c) == white:
                    continue
                if white[0] == white[1] and (c, r) < (r, c):
                    continue  # the mirror in the diagonal through both stones
                if white[0] == 0 and r < 0:
                    continue  # the mirror in their row
                found.append(((0, 0), white, (r, c)))
    return found


def board_of(opening, turn=SYMMETRIES[0]):
    variant = get_variant("mnk")
    board = variant.new_game()
    for r, c in (turn(*step) for step in opening):
        board = board.play((7 + r) * 15 + 7 + c)
    return board


def play(job) -> tuple[int, float]:
    index, opening, level, seed = job
    variant = get_variant("mnk")
    players = [difficulty(variant, level, seed), difficulty(variant, level, seed + 1)]
    state = board_of(opening, SYMMETRIES[seed % 8])  # each game on the opening turned some way, as the book plays it
    while not state.is_over:
        state = state.play(players[state.ply & 1].choose(state))
    return index, 1.0 if state.winner == "X" else 0.0 if state.winner == "O" else 0.5


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--levels", default="6,7")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--every", type=int, default=3, help="measure every n-th candidate")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    openings = candidates()[:: args.every]
    jobs = [
        (i, op, lv, 97 * i + 13 * lv + g) for i, op in enumerate(openings) for lv in levels for g in range(args.games)
    ]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, jobs, chunksize=4))
    else:
        results = [play(job) for job in jobs]
    scores: dict[int, list[float]] = {}
    for index, score in results:
        scores.setdefault(index, []).append(score)
    print(f"{'opening':<34} {'value':>6} {'X stones':>9}  games")
    for i, op in enumerate(openings):
        s = scores[i]
        print(f"{op!s:<34} {stone_value(board_of(op)):>6} {100 * sum(s) / len(s):>8.0f}%  {len(s)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
