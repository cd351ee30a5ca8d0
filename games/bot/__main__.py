"""``python -m games.bot --url https://site --token ttt_... --strategy mcts [--option seconds=0.5]``.

``--strategy`` names one of the engine's strategies (``random``, ``alphabeta``, ``gomoku``, ``mcts``...: ``GET
/api/strategies``) or a class of your own by its dotted path (``mypackage.engine.MyEngine`` or
``mypackage.engine:MyEngine``), built with the ``--option name=value`` pairs (numbers and true/false are read as
such). Each game gets a strategy of its own. docs/bots.md.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import signal
import sys
from collections.abc import Callable
from typing import Any

from ..engine import STRATEGIES, get_strategy
from .client import Api
from .runner import Bot


def option_value(text: str) -> Any:
    """'0.5' -> 0.5, '3' -> 3, 'true' -> True; anything else stays text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"an option is name=value, not {pair!r}")
        options[name.strip()] = option_value(value)
    return options


def strategy_factory(name: str, options: dict[str, Any]) -> Callable[[], Any]:
    """What builds a fresh strategy for each game: an engine strategy by name, or a class by dotted path. The
    first one is built at once, so that a wrong name or option fails before the bot connects (ValueError)."""
    if name in STRATEGIES:
        get_strategy(name, **options)
        return lambda: get_strategy(name, **options)
    module_name, sep, class_name = name.partition(":") if ":" in name else name.rpartition(".")
    if not sep or not module_name:
        raise ValueError(f"unknown strategy {name!r}: one of {', '.join(sorted(STRATEGIES))}, or a class as "
                         "package.module.Class")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"cannot load strategy {name!r}: {err}") from None
    if not callable(getattr(cls(**options), "choose", None)):
        raise ValueError(f"{name} has no choose(state) method")
    return lambda: cls(**options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the site, e.g. https://ttt.example.org")
    parser.add_argument("--token", required=True, help="a personal token of a bot account (its profile page)")
    parser.add_argument("--strategy", default="mcts", help="an engine strategy, or package.module.Class")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="the strategy's options")
    parser.add_argument("--max-games", type=int, default=4, help="games at once; more challenges are declined")
    parser.add_argument("--quiet", action="store_true", help="warnings only")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(asctime)s %(message)s")
    try:
        make = strategy_factory(args.strategy, parse_options(args.option))
    except ValueError as err:
        parser.error(str(err))
    bot = Bot(Api(args.url, args.token), make, max_games=max(1, args.max_games))
    signal.signal(signal.SIGTERM, lambda *_: bot.stop())
    try:
        bot.run()
    except KeyboardInterrupt:
        bot.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
