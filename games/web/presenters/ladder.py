"""The computer's ladder in words, for the rules page: per level 1..8, what plays on each family of boards."""

from __future__ import annotations

from typing import Any

from ...engine import get_variant
from ...engine.levels import LADDER, NAMED_LEVELS, Erring, difficulty

#: a board of each family the ladder distinguishes (games.engine.levels.family), and its heading
FAMILIES = (
    ("Classic, 4 x 4 and other boards of up to 16 cells", get_variant("classic")),
    ("n x n, n in a row (5 and up)", get_variant("nxn", size=7)),
    ("Gomoku boards (e.g. 15 x 15, five in a row)", get_variant("mnk", rows=15, cols=15, k=5)),
    ("Ultimate", get_variant("ultimate")),
    ("Multi", get_variant("multi")),
)


def strategy_words(strategy: Any) -> str:
    """"alphabeta, depth 3", "mcts, 0.9 s, solver", "perfect"."""
    if isinstance(strategy, Erring):
        return f"{strategy_words(strategy.inner)}, {round(strategy.options['rate'] * 100)} % of moves at random"
    options = strategy.options
    words = [strategy.name]
    if options.get("depth"):
        words.append(f"depth {options['depth']}")
    if options.get("iterations"):
        words.append(f"{options['iterations']} iterations")
    elif options.get("seconds") and strategy.name in ("mcts", "gomoku"):
        words.append(f"{options['seconds']:g} s")
    if options.get("solver"):
        words.append("solver")
    if options.get("slip"):
        words.append(f"a quick guess on {round(options['slip'] * 100)} % of moves")
    return ", ".join(words)


def ladder_rows() -> list[dict[str, Any]]:
    """One row per level: its number, its name if it has one, and what plays it on each family of boards."""
    names = {rung: name for name, rung in NAMED_LEVELS.items()}
    return [
        {"level": rung, "name": names.get(rung, ""),
         "players": [strategy_words(difficulty(variant, rung)) for _, variant in FAMILIES]}
        for rung in LADDER
    ]


def ladder_heads() -> list[str]:
    return [heading for heading, _ in FAMILIES]
