"""The computer players of a game: which strategy sits on a seat, whether it answers at once, and where a new
turn of a player's computer stands in the queue (``fair_priority``). A slow computer never thinks inside a web
request: its turns are played by the task queue's workers (``moves.computer_turn``)."""

from __future__ import annotations

from datetime import timedelta

from ..engine import Strategy, Variant, difficulty, get_strategy
from ..models import Game
from ..positions import game_variant
from ..selectors import games_waiting_for_computer
from .queue import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY

#: a watched game's moves come this far apart, so that people can follow them
WATCH_PACE = timedelta(seconds=1)

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
    if getattr(variant, "swap2", False):  # its opening is weighed by a search (tenths of a second): in a worker
        return False
    if name in QUICK_STRATEGIES:
        return True
    if name == "perfect":
        return variant.cell_count <= 9
    if name == "alphabeta":  # shallow anywhere; any depth on classic's nine cells
        return int(strategy.options.get("depth") or 99) <= 2 or variant.cell_count <= 9
    if name == "mcts":  # the ladder's low rungs: a few hundred iterations are milliseconds (about 40,000 a second)
        return bool(strategy.options.get("iterations")) and int(strategy.options["iterations"]) <= 1000
    if name == "erring":
        return answers_at_once(strategy.inner, variant)
    return False


def seat_strategy(game: Game, side: str, variant: Variant | None = None) -> Strategy:
    """The computer player sitting on ``side`` (ValueError if that seat is not a computer)."""
    level, name = game.seat_computer(side)
    if name:
        return get_strategy(name)
    if level:
        return difficulty(variant or game_variant(game), level)
    raise ValueError(f"seat {side} of game {game.pk} is not a computer")



def game_owner_id(game: Game) -> int | None:
    """The player whose computer turns these are: the game's creator (a game against the computer, a watched
    game, a game from a position), else the player on a seat."""
    return game.created_by_id or game.x_player_id or game.o_player_id


def fair_priority(game: Game) -> int:
    """The queue priority of a new computer turn in ``game``: one step lower for each other game of its owner's
    (``game_owner_id``) already waiting for its computer. The workers take the highest priority first, the oldest
    among equals (django-tasks-db's order), so every player's first waiting turn comes before anyone's second,
    their second before anyone's third...: sixteen games of one player no longer put sixteen moves before another
    player's one. Only the order changes: every turn is still enqueued (and swept up again if lost), and two turns
    counted at the same moment at worst share a step."""
    owner = game_owner_id(game)
    if owner is None:
        return DEFAULT_TASK_PRIORITY
    waiting = games_waiting_for_computer(owner=owner).exclude(pk=game.pk).count()
    return max(TASK_MIN_PRIORITY, DEFAULT_TASK_PRIORITY - waiting)


def slow_computer_to_move(game: Game, variant: Variant | None = None) -> bool:
    """A computer is to move in the running ``game`` and thinks too long to answer inside a request."""
    if game.status != Game.Status.ACTIVE or not game.is_computer(game.to_move):
        return False
    variant = variant or game_variant(game)
    return not answers_at_once(seat_strategy(game, game.to_move, variant), variant)
