"""Engine benchmark: random playouts per second, time per move of every strategy, mcts iterations/s.

    python -m games.engine.bench            # about two minutes on a 2-core machine
    python -m games.engine.bench --quick    # about half a minute, rougher figures

Rates (playouts/s, iterations/s) are per second of CPU time, the engine's own speed, with the
wall-clock rate beside them; times per move are wall-clock (what a player waits), so a busy
machine shows up in them. Strategy moves are
measured in seeded games against ``random``, the strategy playing X and O in turn; the first few
moves of the strategy are timed, which are the expensive ones for searching players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import get_strategy, get_variant
from .core import State, Variant
from .strategies import STRATEGIES, Strategy

#: (label, key, options): the variants the benchmark covers
BENCH_VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("classic", "classic", {}),
    ("four", "four", {}),
    ("nxn 7", "nxn", {"size": 7}),
    ("mnk 15x15 k5", "mnk", {"rows": 15, "cols": 15, "k": 5}),
    ("ultimate", "ultimate", {}),
    ("multi", "multi", {}),
)
#: settings measured besides each strategy's defaults: the new players of issue 21 at the hard level's budget
EXTRA_SETTINGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("gomoku", {"seconds": 0.9}),
    ("gomoku", {"depth": 1, "vct": False, "seconds": 0.3}),
    ("mcts", {"seconds": 0.9, "solver": True, "prior": False, "book": False, "reuse": False}),  # before issue 34
)
#: a (strategy, variant) pair stops being measured once one move took this long
SLOW_MOVE = 15.0


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns padded to their widest cell; text left-aligned, numbers right-aligned."""
    cells = [[str(h) for h in headers]] + [[_fmt(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    numeric = [all(isinstance(row[i], (int, float)) for row in rows) if rows else False for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        padded = (c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        lines.append("  ".join(padded).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def playouts_per_second(variant: Variant, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Random playouts per second from the empty board over ``seconds`` of CPU time: (per CPU second,
    per wall second). The CPU figure is the engine's speed; the wall figure also shows how busy the
    machine is."""
    playout: Callable[..., str | None] = variant.playout  # type: ignore[attr-defined]
    state, rng = variant.new_game(), random.Random(seed)
    count, cpu_start, wall_start = 0, time.process_time(), time.perf_counter()
    while True:
        for _ in range(50):
            playout(state, rng)
        count += 50
        cpu = time.process_time() - cpu_start
        if cpu >= seconds:
            return count / cpu, count / (time.perf_counter() - wall_start)


def move_times(make: Callable[[int], Strategy], variant: Variant, games: int, moves: int) -> list[float]:
    """Seconds per move of the strategy over its first ``moves`` moves in ``games`` games against random
    (one strategy object per game, kept across its moves, as a game would)."""
    times: list[float] = []
    for game in range(games):
        strategy, opponent = make(game), get_strategy("random", seed=100 + game)
        side = game % 2  # the strategy plays X in even games, O in odd ones
        state: State = variant.new_game()
        mine = 0
        while not state.is_over and mine < moves:
            if state.ply % 2 == side:
                started = time.perf_counter()
                move = strategy.choose(state)
                times.append(time.perf_counter() - started)
                mine += 1
                if times[-1] > SLOW_MOVE:
                    return times
            else:
                move = opponent.choose(state)
            state = state.play(move)
    return times


def _maker(name: str, options: dict[str, Any]) -> Callable[[int], Strategy]:
    seedable = "seed" in STRATEGIES[name].option_spec and "seed" not in options

    def make(game: int) -> Strategy:
        return get_strategy(name, **options, **({"seed": game} if seedable else {}))

    return make


def _ms(times: list[float]) -> tuple[float, float]:
    """Median and worst, in milliseconds."""
    return 1000 * statistics.median(times), 1000 * max(times)


def _setting(strategy: Strategy) -> str:
    return ", ".join(
        f"{k}={v}" for k, v in strategy.options.items() if v is not None and v is not False and k != "seed"
    ) or "-"


def strategy_rows(
    variants: list[tuple[str, Variant]], games: int, moves: int, out: Callable[[str], None]
) -> list[list[object]]:
    rows: list[list[object]] = []
    for name in sorted(STRATEGIES):
        try:
            probe = get_strategy(name)
        except ValueError as exc:  # a strategy without usable defaults
            out(f"  ({name}: no default setting: {exc})")
            continue
        for label, variant in variants:
            if not probe.supports(variant):
                continue
            times = move_times(_maker(name, {}), variant, games, moves)
            rows.append([name, _setting(probe), label, len(times), *_ms(times)])
    for name, options in EXTRA_SETTINGS:
        probe = get_strategy(name, **options)
        for label, variant in variants:
            if not probe.supports(variant) or (name == "mcts" and not variant.nested):
                continue  # the mcts options act on the nested variants only
            times = move_times(_maker(name, options), variant, games, moves)
            rows.append([name, _setting(probe), label, len(times), *_ms(times)])
    return rows


def hard_rows(variants: list[tuple[str, Variant]], games: int, moves: int) -> list[list[object]] | None:
    try:
        from .levels import difficulty
    except ImportError:
        return None
    rows: list[list[object]] = []
    for label, variant in variants:
        probe = difficulty(variant, "hard")
        name, options = probe.name, {k: v for k, v in probe.options.items() if v is not None and k != "seed"}
        times = move_times(_maker(name, options), variant, games, moves)
        rows.append([label, name, _setting(probe), len(times), *_ms(times)])
    return rows


#: the searches whose iterations per second are measured: mcts's defaults (without the opening book, which
#: would answer from the empty board without searching) and the plain search of before issue 34
MCTS_SEARCHES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("default", {"book": False}),
    ("plain UCT + solver", {"prior": False, "book": False, "reuse": False, "solver": True}),
)


def mcts_rows(iterations: int) -> list[list[object]]:
    """One search of ``iterations`` from the empty board per search setting: iterations per CPU second and per
    wall second."""
    rows: list[list[object]] = []
    for key in ("ultimate", "multi"):
        for label, options in MCTS_SEARCHES:
            strategy = get_strategy("mcts", iterations=iterations, seed=1, **options)
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            strategy.choose(get_variant(key).new_game())
            cpu, wall = time.process_time() - cpu_start, time.perf_counter() - wall_start
            done: int = strategy.last_iterations  # type: ignore[attr-defined]
            rows.append([key, label, done, done / cpu, done / wall])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and shorter measurements")
    parser.add_argument("--games", type=int, help="seeded games per strategy and variant (default 2, quick 1)")
    parser.add_argument("--moves", type=int, help="strategy moves timed per game (default 3, quick 2)")
    parser.add_argument("--playout-seconds", type=float, help="seconds of playouts per variant (default 1, quick 0.3)")
    parser.add_argument("--mcts-iterations", type=int, help="iterations of the mcts search (default 20000, quick 5000)")
    parser.add_argument("--skip-strategies", action="store_true", help="only playouts and mcts iterations")
    args = parser.parse_args(argv)
    games = args.games or (1 if args.quick else 2)
    moves = args.moves or (2 if args.quick else 3)
    playout_seconds = args.playout_seconds or (0.3 if args.quick else 1.0)

    def out(text: str = "") -> None:
        print(text, flush=True)

    variants = [(label, get_variant(key, **options)) for label, key, options in BENCH_VARIANTS]
    started = time.perf_counter()
    out(f"Engine benchmark (Python {sys.version.split()[0]})\n")

    out("Random playouts from the empty board")
    out(table(
        ["variant", "playouts/s", "per wall s"],
        [[label, *playouts_per_second(v, playout_seconds)] for label, v in variants],
    ))

    iterations = args.mcts_iterations or (5_000 if args.quick else 20_000)  # 20,000: about one 'hard' move
    out(f"\nmcts from the empty board (one search of up to {iterations:,} iterations)")
    out(table(["variant", "search", "iterations", "iterations/s", "per wall s"], mcts_rows(iterations)))

    if not args.skip_strategies:
        out(f"\nTime per move at the default setting (ms; first {moves} moves of each of {games} seeded games "
            "against random)")
        rows = strategy_rows(variants, games, moves, out)
        out(table(["strategy", "setting", "variant", "moves", "median", "worst"], rows))

        out("\nTime per move at the 'hard' level (level 8 of the ladder; ms; same games): what a player waits")
        hard = hard_rows(variants, games, moves)
        if hard is None:
            out("  (games/engine/levels.py is not there yet: no levels to measure)")
        else:
            out(table(["variant", "strategy", "setting", "moves", "median", "worst"], hard))

    out(f"\nTotal {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
