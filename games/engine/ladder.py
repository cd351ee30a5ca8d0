"""The ladder, measured: a round-robin between the levels of one variant, scores and Elo estimates.

    python -m games.engine.ladder --variant classic --games 10
    python -m games.engine.ladder --variant mnk --option rows=15 --option cols=15 --games 4 --seconds 0.5
    python -m games.engine.ladder --variant ultimate --games 6 --levels 4-8 --adjacent --jobs 2

Every pair of levels plays ``--games`` games, colours alternating, each game seeded by (pair, game
number) so a run is repeatable where the strategies are (time-bounded ones are not quite).
``--seconds`` scales the budget of every time-bounded level (0.5: half the time, for a quick look;
the ranking can change with it). ``--adjacent`` plays only neighbouring levels (what the check needs).
``--jobs`` runs games in separate processes: every game builds its own players, nothing is shared.
``--opening`` chooses how games start; the two games of a pair that swap colours share their opening
(drawn from the pair's seed), so each couple is comparable and a run repeatable:

- ``pro`` (the default on gomoku-class boards: mnk boards too big to solve that are not n x n with n in
  a row): three plies after the "pro" rule of gomoku tournaments, with a random part: X in the centre,
  O on one of its eight neighbours, X's second stone 3 or 4 cells from the centre (Chebyshev distance),
  then O moves. Freestyle 15 x 15 is a first-player win, and with shared random plies near the centre
  X still won 21 of 30 games between equal players (gomoku depth 2 against itself) and most games of the
  ladder, so a couple mostly split 1-1 whatever the levels; after a ``pro`` opening X won 15 of 30
  (gomoku depth 2 against itself), 12 of 24 (depth 4) and 9 of 16 (0.4 s) (docs/ladder.md).
- ``swap2`` (the default on gomoku boards: five in a row on at least 15 x 15): the games are played with the
  Swap2 opening rule (games.engine.swap2), each player making its own opening moves (the computer's Swap2 play:
  games.engine.strategies.openings); X is the opener. Freestyle gomoku's first-player advantage is what the rule
  takes away: ``--mirror`` shows how much of it is left.
- ``N`` (a whole number): N random plies within two cells of the centre (any legal move off grids);
  ``0`` (the default elsewhere) plays from the empty board.

``--mirror``: each level plays itself instead (``--games`` games each): what is printed is the first player's
(X's) score, the balance of the openings between equal players.

Printed: each pair's result, each level's total score and an Elo estimate (maximum likelihood over
all games, level 1 anchored at 0; a pair that is all wins is damped by one virtual draw), time per
move per level, and for every adjacent pair PASS when the higher level scores at least 60 %, else
FAIL. On boards the top levels have solved (classic, four, small n x n) perfect play never loses, so
those levels draw each other: such a FAIL is the game, not the ladder, and is marked as drawn.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from . import get_variant
from .core import State, Variant
from .levels import LADDER, difficulty, family
from .strategies import Strategy, get_strategy
from .swap2 import swap2_allowed

PASS_SCORE = 0.6
#: a pair counts as drawn (the game's limit, not the ladder's) when at least this share of games is drawn
DRAWN_SHARE = 0.7


def _scaled(strategy: Strategy, scale: float) -> Strategy:
    """The same strategy with its ``seconds`` budget multiplied by ``scale`` (inner ones too)."""
    inner = getattr(strategy, "inner", None)
    if inner is not None:
        strategy.inner = _scaled(inner, scale)  # type: ignore[attr-defined]
        return strategy
    seconds = strategy.options.get("seconds")
    if seconds is None or scale == 1.0:
        return strategy
    options = {k: v for k, v in strategy.options.items() if v is not None}
    options["seconds"] = seconds * scale
    return get_strategy(strategy.name, **options)


Job = tuple[str, dict[str, Any], int, int, int, float, str]

#: the ``pro`` opening, per ply: (nearest, farthest) Chebyshev distance from the centre
PRO_OPENING = ((0, 0), (1, 1), (3, 4))


def default_opening(variant: Variant) -> str:
    """``swap2`` on gomoku boards where the rule applies, ``pro`` on other gomoku-class boards (where the first
    player wins most games between equals), else ``0``."""
    if family(variant) != "gomoku":
        return "0"
    return "swap2" if swap2_allowed(variant.rows, variant.cols, getattr(variant, "k", 0)) else "pro"


def check_opening(text: str) -> str:
    """``swap2``, ``pro`` or a whole number of random plies (>= 0); argparse's type for ``--opening``."""
    if text in ("swap2", "pro") or (text.isascii() and text.isdigit()):
        return text
    raise argparse.ArgumentTypeError(f"an opening is 'swap2', 'pro' or a whole number of random plies, not {text!r}")


def opening_state(variant: Variant, opening: str, seed: int) -> State:
    """The position after ``opening`` (``pro`` or a number of random plies), drawn from ``seed``; ``swap2``: the
    empty board of the variant with the Swap2 rule (the players make the opening's moves).

    The ladder passes ``seed // 2``, the same for the two games of a colour-swapped couple."""
    if opening == "swap2":
        return get_variant(variant.key, **{**variant.options, "opening": "swap2"}).new_game()
    state = variant.new_game()
    rng = random.Random(seed)
    if opening == "pro":
        spans = PRO_OPENING if not variant.nested else ()
        for nearest, farthest in spans:
            if not state.is_over:
                state = state.play(rng.choice(_around_centre(state, nearest, farthest)))
        return state
    for _ in range(int(opening)):
        if not state.is_over:
            state = state.play(rng.choice(_around_centre(state, 0, 2)))
    return state


def play_game(job: Job) -> tuple[int, int, float, list[float], list[float]]:
    """One game: (level playing X, level playing O, result for X: 1, 0.5 or 0, X's and O's move times)."""
    key, options, x_level, o_level, seed, scale, opening = job
    variant = get_variant(key, **options)
    players = [
        _scaled(difficulty(variant, x_level, seed), scale),
        _scaled(difficulty(variant, o_level, seed + 1), scale),
    ]
    times: list[list[float]] = [[], []]
    state = opening_state(variant, opening, seed // 2)  # shared by the two games of a colour-swapped couple
    while not state.is_over:
        side = 0 if state.to_move == "X" else 1  # (a Swap2 opening's seat to move is no ply's parity)
        started = time.perf_counter()
        move = players[side].choose(state)
        times[side].append(time.perf_counter() - started)
        state = state.play(move)
    result = 1.0 if state.winner == "X" else 0.0 if state.winner == "O" else 0.5
    return x_level, o_level, result, times[0], times[1]


def _around_centre(state: State, nearest: int, farthest: int) -> list[int]:
    """Legal moves of an opening: on a grid, those ``nearest`` to ``farthest`` cells from the centre
    (Chebyshev distance; all legal moves if none is); off grids, every legal move."""
    moves = state.legal_moves()
    variant = state.variant
    if variant.nested:
        return moves
    rows, cols = variant.rows, variant.cols
    near = [m for m in moves if nearest <= max(abs(m // cols - rows // 2), abs(m % cols - cols // 2)) <= farthest]
    return near or moves


def elo(levels: Sequence[int], games: list[tuple[int, int, float]]) -> dict[int, float]:
    """Maximum-likelihood Elo ratings from (a, b, score of a) games, levels[0] anchored at 0."""
    rating = {lv: 0.0 for lv in levels}
    pairs: dict[tuple[int, int], list[float]] = {}
    for a, b, s in games:
        pairs.setdefault((a, b), []).append(s)
    # one virtual draw per pair played keeps a clean sweep from running off to infinity
    records = [(a, b, sum(ss) + 0.5, len(ss) + 1) for (a, b), ss in pairs.items()]
    for _ in range(2000):
        change = 0.0
        for lv in levels:
            expected = actual = 0.0
            weight = 0.0
            for a, b, score, n in records:
                if lv not in (a, b):
                    continue
                other, mine = (b, score) if lv == a else (a, n - score)
                p = 1 / (1 + 10 ** ((rating[other] - rating[lv]) / 400))
                expected += n * p
                actual += mine
                weight += n * p * (1 - p)
            if weight:
                step = (actual - expected) / weight * 400 / math.log(10)
                step = max(-200.0, min(200.0, step))
                rating[lv] += step
                change = max(change, abs(step))
        base = rating[levels[0]]
        for lv in levels:
            rating[lv] -= base
        if change < 0.01:
            break
    return rating


def _parse_levels(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            out.extend(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    bad = [lv for lv in out if lv not in LADDER]
    if bad:
        raise argparse.ArgumentTypeError(f"levels run from 1 to 8, not {bad}")
    return sorted(set(out))


def _parse_option(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    if value in ("true", "false"):
        return name, value == "true"
    try:
        return name, int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"an option is name=value with a whole number or true/false: {text!r}"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic", help="variant key (classic, four, nxn, mnk, ultimate, multi)")
    parser.add_argument("--option", action="append", type=_parse_option, default=[], help="variant option name=value")
    parser.add_argument("--games", type=int, default=4, help="games per pair of levels (colours alternate)")
    parser.add_argument("--seconds", type=float, default=1.0, help="scale of the time-bounded levels' budgets")
    parser.add_argument("--levels", type=_parse_levels, default=list(LADDER), help="e.g. 1-8 or 2,4,8")
    parser.add_argument("--adjacent", action="store_true", help="only neighbouring levels play each other")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in separate processes")
    parser.add_argument("--opening", type=check_opening, default=None,
                        help="how games start: 'swap2' (the Swap2 rule, played by the players: the default on "
                        "gomoku boards of at least 15 x 15), 'pro' (X centre, O beside it, X 3-4 cells out; the "
                        "default on other gomoku-class boards) or N random plies near the centre (default 0 "
                        "elsewhere); the two games of a pair with swapped colours share it")
    parser.add_argument("--mirror", action="store_true", help="each level plays itself: the first player's score")
    args = parser.parse_args(argv)
    options = dict(args.option)
    variant = get_variant(args.variant, **options)
    levels: list[int] = args.levels
    if len(levels) < 2 and not args.mirror:
        parser.error("name at least two levels")
    opening = args.opening if args.opening is not None else default_opening(variant)
    if opening == "swap2" and not swap2_allowed(variant.rows, variant.cols, getattr(variant, "k", 0)):
        parser.error("the swap2 opening is for gomoku boards: five in a row on at least 15 x 15")

    def out(text: str = "") -> None:
        print(text, flush=True)

    if args.mirror:
        return _mirror(args, options, variant, levels, opening, out)
    pairs = [(a, b) for i, a in enumerate(levels) for b in levels[i + 1 :] if not args.adjacent or b == levels[i + 1]]
    jobs = []
    for a, b in pairs:
        for g in range(args.games):
            seed = 1000 * a + 100 * b + g
            jobs.append((args.variant, options, a, b, seed, args.seconds, opening) if g % 2 == 0 else
                        (args.variant, options, b, a, seed, args.seconds, opening))
    out(f"Ladder on {variant.describe()} ({args.variant}{' ' + str(options) if options else ''}; "
        f"family {family(variant)}): levels {', '.join(map(str, levels))}; {args.games} games per pair, "
        f"{'adjacent pairs' if args.adjacent else 'round-robin'}, time scale {args.seconds}"
        f"{_opening_words(opening)}")
    for lv in levels:
        out(f"  level {lv}: {difficulty(variant, lv)!r}")
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(play_game, jobs))
    else:
        results = [play_game(job) for job in jobs]

    per_pair: dict[tuple[int, int], list[float]] = {p: [] for p in pairs}  # score of the lower level of the pair
    times: dict[int, list[float]] = {lv: [] for lv in levels}
    games: list[tuple[int, int, float]] = []
    for x, o, result, xt, ot in results:
        times[x] += xt
        times[o] += ot
        games.append((x, o, result))
        low, high = min(x, o), max(x, o)
        per_pair[(low, high)].append(result if x == high else 1 - result)  # the higher level's score

    out("\nPairs (score of the higher level: wins-draws-losses)")
    out(f"{'pair':>7}  {'games':>5}  {'W-D-L':>9}  {'score':>6}  check")
    failures = 0
    for (a, b), scores in per_pair.items():
        n = len(scores)
        wins, draws = scores.count(1.0), scores.count(0.5)
        share = sum(scores) / n
        verdict = ""
        if b == levels[levels.index(a) + 1]:
            if share >= PASS_SCORE:
                verdict = "PASS"
            elif draws >= DRAWN_SHARE * n:
                verdict = f"FAIL (drawn: {draws} of {n} games; the game allows no more between these two)"
                failures += 1
            else:
                verdict = "FAIL"
                failures += 1
        out(f"{a:>3}-{b:<3}  {n:>5}  {wins:>3}-{draws}-{n - wins - draws:<3}  {100 * share:>5.0f}%  {verdict}")

    ratings = elo(levels, games)
    out("\nLevels (score over all its games, Elo estimate with level "
        f"{levels[0]} = 0, time per move: median / worst)")
    out(f"{'level':>5}  {'strategy':<44}  {'score':>7}  {'Elo':>6}  {'median':>8}  {'worst':>8}")
    for lv in levels:
        mine = [(r if x == lv else 1 - r) for x, o, r in games if lv in (x, o)]
        ts = times[lv] or [0.0]
        out(f"{lv:>5}  {_label(difficulty(variant, lv)):<44}  {100 * sum(mine) / len(mine):>6.0f}%  "
            f"{ratings[lv]:>6.0f}  {1000 * statistics.median(ts):>6.1f}ms  {1000 * max(ts):>6.0f}ms")
    out(f"\n{len(results)} games in {time.perf_counter() - started:.0f} s; adjacent pairs failing: {failures}")
    return 0


def _mirror(args: Any, options: dict[str, Any], variant: Variant, levels: list[int], opening: str, out: Any) -> int:
    """Each level against itself: X's (the first player's) score, the balance of the openings."""
    jobs = [(args.variant, options, lv, lv, 1000 * lv + 100 * lv + g, args.seconds, opening)
            for lv in levels for g in range(args.games)]
    out(f"Mirror on {variant.describe()} ({args.variant}{' ' + str(options) if options else ''}): each of levels "
        f"{', '.join(map(str, levels))} plays itself {args.games} times, time scale {args.seconds}"
        f"{_opening_words(opening)}")
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(play_game, jobs))
    else:
        results = [play_game(job) for job in jobs]
    out("\nFirst player (X) against the same level as O: X's wins-draws-losses and score")
    out(f"{'level':>5}  {'strategy':<44}  {'games':>5}  {'W-D-L':>9}  {'X score':>7}")
    for lv in levels:
        scores = [result for x, _o, result, _xt, _ot in results if x == lv]
        n, wins, draws = len(scores), scores.count(1.0), scores.count(0.5)
        out(f"{lv:>5}  {_label(difficulty(variant, lv)):<44}  {n:>5}  {wins:>3}-{draws}-{n - wins - draws:<3}  "
            f"{100 * sum(scores) / n:>6.0f}%")
    total = [result for *_, result, _xt, _ot in results]
    out(f"\n{len(results)} games in {time.perf_counter() - started:.0f} s; "
        f"X scored {100 * sum(total) / len(total):.0f}%")
    return 0


def _opening_words(opening: str) -> str:
    if opening == "swap2":
        return ", Swap2 openings (made by the players)"
    if opening == "pro":
        return ", pro openings (X centre, O beside it, X 3-4 cells out)"
    return f", {opening} random opening plies" if opening != "0" else ""


def _label(strategy: Strategy) -> str:
    inner = getattr(strategy, "inner", None)
    if inner is not None:
        return f"{_label(inner)} erring {strategy.options['rate']:.0%}"
    opts = ", ".join(f"{k}={v}" for k, v in strategy.options.items() if v not in (None, False) and k != "seed")
    return f"{strategy.name}({opts})"


if __name__ == "__main__":
    sys.exit(main())
