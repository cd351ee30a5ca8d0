"""Build mcts's opening book on ultimate: a long search for every position of the first plies where the computer
may be to move after book moves of its own, up to symmetry.

    python -m games.engine.book                                  # the shipped book (about an hour on 2 cores)
    python -m games.engine.book --plies 1 --iterations 500 --out /tmp/book.json   # a quick one

The positions are those the book player meets: as X, the empty board, then after its book move every reply of
O's (``--plies`` 2: 1 + 2 classes of positions); as O, every first move of X's (15 classes). Each class of
positions equal under the symmetries of the square is searched once by ``mcts`` with ``--iterations``
iterations (seeded: the same command and engine give the same book), and the most visited move is written with
its visits, their share of the root's and its mean result. The file records the command that built it.
``mcts`` reads it (``strategies/mcts_book.py``) with its option ``book`` (on by default on ultimate).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import get_variant
from .nested import NestedState
from .strategies import get_strategy
from .strategies.mcts_book import BOOK_PATH, canonical, map_move

DEFAULT_PLIES = 2
DEFAULT_ITERATIONS = 400_000
DEFAULT_SEED = 34


def book_positions(plies: int, move_for: Callable[[NestedState], int]) -> list[tuple[str, int, NestedState]]:
    """(canonical key, symmetry, a position) for each class of positions of at most ``plies`` plies the book
    player may be to move in: its own earlier moves are ``move_for``'s, the opponent's any. In the order of the
    plies (``move_for`` of a position is asked before any position after it)."""
    root = get_variant("ultimate").new_game()
    found: dict[str, tuple[int, NestedState]] = {}
    frontier = {0: [root], 1: [root]}  # per side of the book player: the positions reached so far
    for _ in range(plies + 1):
        for side in (0, 1):
            following: dict[str, NestedState] = {}
            for state in frontier[side]:
                if state.ply & 1 == side:
                    key, g = canonical(state)
                    found.setdefault(key, (g, state))
                    nexts = [state.play(move_for(state))]
                else:
                    nexts = [state.play(m) for m in state.legal_moves()]
                for after in nexts:
                    if not after.is_over:
                        following.setdefault(canonical(after)[0], after)
            frontier[side] = list(following.values())
    return [(key, g, state) for key, (g, state) in found.items() if state.ply <= plies]


def build(plies: int, iterations: int, seed: int, options: dict[str, Any] | None = None,
          progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The book as the JSON object the file holds."""
    options = {**(options or {}), "book": False, "reuse": False}
    entries: dict[str, dict[str, Any]] = {}

    def move_for(state: NestedState) -> int:
        key, g = canonical(state)
        if key not in entries:
            strategy = get_strategy("mcts", iterations=iterations, seed=seed, **options)
            move = strategy.choose(state)
            visits, share, score = strategy.root_stats(move)  # type: ignore[attr-defined]
            entries[key] = {"move": state.variant.cell_name(map_move(move, g)), "visits": visits,
                            "share": round(share, 3), "score": round(score, 3)}
            if progress:
                progress(f"{len(entries)} ply {state.ply}: {state.variant.cell_name(move)} "
                         f"({visits} visits, {share:.0%}, score {score:.2f})")
        return book_move_in(entries, state)

    book_positions(plies, move_for)
    command = f"python -m games.engine.book --plies {plies} --iterations {iterations} --seed {seed}"
    return {"variant": "ultimate", "plies": plies, "iterations": iterations, "seed": seed, "command": command,
            "positions": dict(sorted(entries.items()))}


def book_move_in(entries: dict[str, dict[str, Any]], state: NestedState) -> int:
    """The move of ``entries`` (a book's positions) for ``state``, turned into its frame."""
    from .strategies.mcts_book import INVERSE

    key, g = canonical(state)
    return map_move(state.variant.parse_cell(entries[key]["move"]), INVERSE[g])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.book", description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=DEFAULT_PLIES, help="positions of at most this many plies")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, help="mcts iterations a position")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=BOOK_PATH, help="where to write the book")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    book = build(args.plies, args.iterations, args.seed, progress=lambda text: print(text, flush=True))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(book, indent=1, sort_keys=True) + "\n")
    print(f"{len(book['positions'])} positions written to {args.out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
