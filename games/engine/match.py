"""A match between two players, colours alternating: the score, game by game, and the time per move.

    python -m games.engine.match --variant ultimate --versus old --games 24
    python -m games.engine.match --variant ultimate --a "mcts seconds=0.3" --b "mcts seconds=0.3 rave=false" --games 12
    python -m games.engine.match --variant ultimate --a "level 7" --b "old 7" --games 12 --opening 2

A player is a strategy with options (``mcts seconds=0.9 solver=true``), a level of the ladder (``level 8``),
or a level as it was before issue 34 (``old 8``: ``mcts`` with every option that issue added turned off, the
search the ladder used until then). ``--versus old`` is ``--a "level 8" --b "old 8"``. Game ``i`` gives A the
X side when ``i`` is even; both players are built afresh for each game (seeded by the game's number), so
nothing carries over between games, and one process plays them one after another: two searches never share
the cores, and equal budgets stay equal under any load. ``--opening N`` plays N random plies first, shared by
the two games of a colour-swapped couple.

Printed: each game (sides, result, plies), then A's score with wins-draws-losses, as X and as O, and each
player's time per move (mean and worst, wall-clock) and mcts iterations per move where it reports them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import get_variant
from .core import State
from .levels import difficulty, parse_level
from .strategies import get_strategy

#: mcts's options that give the search as it was before issue 34 (``old`` players): none of what it added
OLD_OPTIONS: dict[str, Any] = {"prior": False, "book": False, "reuse": False, "solver": False, "smart": False}
#: the levels of ultimate and multi before issue 34 (games/engine/levels.py then): mcts's budget per level 2-8,
#: ultimate's and multi's, and whether the level used the solver
OLD_NESTED: dict[int, tuple[dict[str, Any], dict[str, Any], bool]] = {
    2: ({"iterations": 20}, {"iterations": 20}, False),
    3: ({"iterations": 80}, {"iterations": 80}, False),
    4: ({"iterations": 300}, {"iterations": 300}, False),
    5: ({"seconds": 0.05}, {"seconds": 0.05}, False),
    6: ({"seconds": 0.15}, {"seconds": 0.1}, False),
    7: ({"seconds": 0.4}, {"seconds": 0.3}, True),
    8: ({"seconds": 0.9}, {"seconds": 0.9}, True),
}

Player = Any  # anything with choose(state) -> move (a Strategy, or a yardstick of bench/)


class BadPlayer(ValueError):
    """A player description the match command cannot read."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player's name and how to build it for one game (from the game's seed)."""

    label: str
    make: Callable[[int], Player]

    @classmethod
    def parse(cls, text: str, variant_key: str = "ultimate", variant_options: dict[str, Any] | None = None
              ) -> PlayerSpec:
        """``mcts seconds=0.9``, ``level 8`` or ``old 8`` (see the module's doc)."""
        words = text.split()
        if not words:
            raise BadPlayer("a player is a strategy name with options, 'level N' or 'old N'")
        head, rest = words[0], words[1:]
        variant = get_variant(variant_key, **(variant_options or {}))
        if head in ("level", "old"):
            if len(rest) != 1:
                raise BadPlayer(f"{head!r} takes one level, 1..8: {text!r}")
            level = rest[0]
            if head == "level":
                return cls(text, lambda seed: difficulty(variant, level, seed))
            return cls(text, lambda seed: old_level(variant, level, seed))
        options = dict(_option(word) for word in rest)
        probe = get_strategy(head, **options)  # refuse a bad player before the first game
        seedable = "seed" in probe.option_spec and "seed" not in options
        return cls(text, lambda seed: get_strategy(head, **options, **({"seed": seed} if seedable else {})))


def old_level(variant: Any, level: int | str, seed: int | None = None) -> Player:
    """The ladder's ``level`` as it played before issue 34 (on ultimate and multi its mcts as it was then: the
    old budgets, none of the options added since); other boards' levels are unchanged."""
    number = parse_level(level)
    if not variant.nested or number not in OLD_NESTED:
        return difficulty(variant, number, seed)
    ultimate, multi, solver = OLD_NESTED[number]
    budget = ultimate if variant.key == "ultimate" else multi
    seeded = {} if seed is None else {"seed": seed}
    return get_strategy("mcts", **budget, **seeded, **{**OLD_OPTIONS, "solver": solver})


def _option(word: str) -> tuple[str, Any]:
    name, eq, value = word.partition("=")
    if not eq:
        raise BadPlayer(f"an option is name=value, not {word!r}")
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    for kind in (int, float):
        try:
            return name, kind(value)
        except ValueError:
            pass
    return name, value


def opening(variant: Any, plies: int, seed: int) -> State:
    state, rng = variant.new_game(), random.Random(seed)
    for _ in range(plies):
        if not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
    return state


def play_match(
    variant_key: str, variant_options: dict[str, Any], a: PlayerSpec, b: PlayerSpec, games: int, *,
    seed: int = 1, plies: int = 0, out: Callable[[str], None] | None = None,
) -> int:
    """Play the match, print as it goes and the summary; returns 0 (a command's exit status)."""
    def say(text: str = "") -> None:
        (out or (lambda t: print(t, flush=True)))(text)

    variant = get_variant(variant_key, **variant_options)
    say(f"Match on {variant.describe()}: A = {a.label}, B = {b.label}; {games} games, colours alternating"
        f"{f', {plies} random opening plies' if plies else ''}")
    scores: list[float] = []
    as_x: list[float] = []
    times: dict[str, list[float]] = {"A": [], "B": []}
    iters: dict[str, list[int]] = {"A": [], "B": []}
    started = time.perf_counter()
    for game in range(games):
        a_is_x = game % 2 == 0
        pa, pb = a.make(seed * 1000 + game), b.make(seed * 1000 + game + 500)
        seats = {0: ("A", pa), 1: ("B", pb)} if a_is_x else {0: ("B", pb), 1: ("A", pa)}
        state = opening(variant, plies, seed * 1000 + game // 2)
        while not state.is_over:
            who, player = seats[state.ply & 1]
            t = time.perf_counter()
            move = player.choose(state)
            times[who].append(time.perf_counter() - t)
            done = getattr(player, "last_iterations", None)
            if done:
                iters[who].append(done)
            state = state.play(move)
        x_score = 1.0 if state.winner == "X" else 0.0 if state.winner == "O" else 0.5
        score = x_score if a_is_x else 1 - x_score
        scores.append(score)
        if a_is_x:
            as_x.append(score)
        result = "draw" if state.winner is None else f"{state.winner} wins"
        say(f"  game {game + 1:>2}: A plays {'X' if a_is_x else 'O'}, {result} in {state.ply} plies; "
            f"A {sum(scores):g} of {len(scores)}")
    n = len(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    as_o = scores[1::2]
    say(f"\nA ({a.label}) scored {sum(scores):g} of {n} ({100 * sum(scores) / max(n, 1):.0f} %): "
        f"{wins}-{draws}-{n - wins - draws} (wins-draws-losses); as X {sum(as_x):g} of {len(as_x)}, "
        f"as O {sum(as_o):g} of {len(as_o)}")
    for who, spec in (("A", a), ("B", b)):
        ts = times[who] or [0.0]
        line = (f"  {who} {spec.label}: {len(times[who])} moves, {statistics.mean(ts):.3f} s a move, "
                f"worst {max(ts):.2f} s")
        if iters[who]:
            line += f"; {statistics.mean(iters[who]):,.0f} iterations a searched move"
        say(line)
    say(f"{n} games in {time.perf_counter() - started:.0f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.match", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="ultimate")
    parser.add_argument("--a", help="player A (e.g. 'level 8', 'mcts seconds=0.9')")
    parser.add_argument("--b", help="player B")
    parser.add_argument("--versus", choices=["old"], help="'old': A = level 8, B = level 8 as before issue 34")
    parser.add_argument("--level", default="8", help="with --versus: the level (default 8)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--opening", type=int, default=0, help="random plies before the players take over")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    a_text = args.a or (f"level {args.level}" if args.versus else None)
    b_text = args.b or (f"old {args.level}" if args.versus else None)
    if not a_text or not b_text:
        parser.error("name both players (--a and --b) or --versus old")
    try:
        a, b = PlayerSpec.parse(a_text, args.variant), PlayerSpec.parse(b_text, args.variant)
    except ValueError as exc:
        parser.error(str(exc))
    return play_match(args.variant, {}, a, b, args.games, seed=args.seed, plies=args.opening)


if __name__ == "__main__":
    sys.exit(main())
