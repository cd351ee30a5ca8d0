"""Build mcts's opening book on ultimate: a long search for every position of the first plies, up to symmetry.

    python -m games.engine.book                                  # the shipped book (about an hour on 2 cores)
    python -m games.engine.book --plies 1 --iterations 500 --out /tmp/book.json   # a quick one

Every position reachable in at most ``--plies`` plies is searched once per class of positions equal under the
symmetries of the square (1 + 15 + 102 positions for 2 plies) by ``mcts`` with ``--iterations`` iterations
(seeded: the same command and engine give the same book), and the most visited move is written with its share
of the visits and its mean result. The file records the command that built it. ``mcts`` reads it
(``strategies/mcts_book.py``) with its default option ``book``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import get_variant
from .nested import NestedState
from .strategies import get_strategy
from .strategies.mcts_book import BOOK_PATH, canonical, map_move

DEFAULT_PLIES = 2
DEFAULT_ITERATIONS = 400_000
DEFAULT_SEED = 34


def book_positions(plies: int) -> list[tuple[str, int, NestedState]]:
    """(canonical key, symmetry, one position) for each class of positions of at most ``plies`` plies, by ply
    and then key."""
    variant = get_variant("ultimate")
    found: dict[str, tuple[int, NestedState]] = {}
    layer = [variant.new_game()]
    for ply in range(plies + 1):
        following = []
        for state in layer:
            key, g = canonical(state)
            if key in found:
                continue
            found[key] = (g, state)
            if ply < plies:
                following += [state.play(m) for m in state.legal_moves()]
        layer = following
    return sorted(((k, g, s) for k, (g, s) in found.items()), key=lambda item: (item[2].ply, item[0]))


def build(plies: int, iterations: int, seed: int, options: dict[str, Any] | None = None,
          progress: Any = None) -> dict[str, Any]:
    """The book as the JSON object the file holds."""
    options = {**(options or {}), "book": False, "reuse": False}
    entries: dict[str, dict[str, Any]] = {}
    positions = book_positions(plies)
    for n, (key, g, state) in enumerate(positions, start=1):
        strategy = get_strategy("mcts", iterations=iterations, seed=seed, **options)
        move = strategy.choose(state)
        visits, share, score = strategy.root_stats(move)  # type: ignore[attr-defined]
        entries[key] = {"move": state.variant.cell_name(map_move(move, g)), "visits": visits,
                        "share": round(share, 3), "score": round(score, 3)}
        if progress:
            progress(f"{n}/{len(positions)} ply {state.ply}: {state.variant.cell_name(move)} "
                     f"({visits} visits, {share:.0%}, score {score:.2f})")
    command = f"python -m games.engine.book --plies {plies} --iterations {iterations} --seed {seed}"
    return {"variant": "ultimate", "plies": plies, "iterations": iterations, "seed": seed, "command": command,
            "positions": entries}


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
