"""The computer players of a game: which strategy sits on a seat, and whether it answers at once."""

from __future__ import annotations

from ..engine import Strategy, Variant, difficulty, get_strategy
from ..models import Game
from ..positions import (
    game_variant,
)

#: strategies that answer in a few milliseconds on every variant they support (engine bench: <= 2 ms on 19 x 19)
QUICK_STRATEGIES = frozenset({"random", "ring", "threats", "pairing"})


def answers_at_once(strategy: Strategy, variant: Variant) -> bool:
    """Whether ``strategy`` answers in milliseconds, so its reply can come back in the player's own request.

    ``random``, ``ring``, ``threats``, ``pairing``; ``perfect`` on boards of at most 9 cells (classic:
    well under 10 ms; on 4 x 4 its first move in a process solves the board, about 0.15 s); ``alphabeta``
    at depth 1 or 2 (easy and medium: about 2 ms even on 19 x 19 and the nested boards). Everything
    else (mcts, deeper alphabeta) thinks for up to a second: the page asks for it in a second request.
    """
    name = strategy.name
    if name in QUICK_STRATEGIES:
        return True
    if name == "perfect":
        return variant.cell_count <= 9
    if name == "alphabeta":
        return int(strategy.options.get("depth") or 99) <= 2
    return False


def seat_strategy(game: Game, side: str, variant: Variant | None = None) -> Strategy:
    """The computer player sitting on ``side`` (ValueError if that seat is not a computer)."""
    level, name = game.seat_computer(side)
    if name:
        return get_strategy(name)
    if level:
        return difficulty(variant or game_variant(game), level)
    raise ValueError(f"seat {side} of game {game.pk} is not a computer")

