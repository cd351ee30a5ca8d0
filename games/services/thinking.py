"""The computer thinks on its opponent's time, in the task worker that has just played its move (issue 34).

A game of a person against the computer: once the worker has stored the computer's move, it goes on searching the
position the person now faces (``games.engine.pondering.ponder``), and keeps the tree in this process for the
computer's next move (``choose_in_game``, keyed by the game and the computer's seat). The move chosen never depends
on what was kept, only how much the search starts with: a worker process that did not ponder the game (another
one took the next task) searches afresh, as before.

The worker stays free for the site's work: pondering stops as soon as the person moves (the game's version changes)
or any game waits for its computer (another task is coming, or is queued behind this one), checked a few times a
second, and after ``settings.COMPUTER_PONDER_SECONDS`` (0 turns it off) or at the tree's size limit.
Only strategies that keep trees ponder (mcts on ultimate); for the others nothing happens.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from django.conf import settings

from ..engine.pondering import forget, ponder
from ..engine.strategies import Strategy
from ..models import Game
from ..positions import Position
from ..selectors import games_waiting_for_computer
from .computer import seat_strategy

#: how often pondering asks the database whether it should stop (seconds): the person's move is seen this late
CHECK_EVERY = 0.2


def seat_key(game: Game, side: str) -> Hashable:
    """The key of the tree kept for the computer sitting on ``side`` of ``game``."""
    return (game.pk, side)


def stop_when_needed(game: Game) -> Callable[[], bool]:
    """``stop()`` for pondering: true once ``game`` has changed or any game waits for its computer."""
    checked, answer = 0.0, False

    def stop() -> bool:
        nonlocal checked, answer
        now = time.monotonic()
        if not answer and now - checked >= CHECK_EVERY:
            checked = now
            moved = not Game.objects.filter(pk=game.pk, version=game.version).exists()
            answer = moved or games_waiting_for_computer().exists()
        return answer

    return stop


def ponder_after_move(position: Position, *, seconds: float | None = None) -> int:
    """After the computer's move (``position``: the game as stored, and its state): think on the opponent's time
    when that opponent is a person, until they move or other work comes (see the module). Returns the iterations
    run (0: nothing to do)."""
    game, state = position.game, position.state
    seconds = settings.COMPUTER_PONDER_SECONDS if seconds is None else seconds
    if game.status != Game.Status.ACTIVE:  # the game is over: its trees are of no more use
        for seat in ("X", "O"):
            forget(seat_key(game, seat))
        return 0
    side = game.to_move  # the opponent's seat now
    computer = "O" if side == "X" else "X"
    if seconds <= 0 or game.is_computer(side) or not game.is_computer(computer):
        return 0
    strategy: Strategy = seat_strategy(game, computer)
    key = seat_key(game, computer)
    if state.is_over or state.to_move != side:  # (a Swap2 opening's consecutive moves: nothing to ponder)
        forget(key)
        return 0
    return ponder(strategy, state, key, seconds, stop=stop_when_needed(game))
