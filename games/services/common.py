"""What every service that changes a game shares: the check that the game is being played (the locked read is the
one loader's, ``selectors.game_for_viewer(..., for_update=True)``; the moves' compare-and-set is
``moves.save_if_unchanged``)."""

from __future__ import annotations

from ..errors import GameFinished, GameNotStarted
from ..models import Game


def check_playable(game: Game) -> None:
    if game.is_finished:
        raise GameFinished(f"this game is over: {game.result_text()}")
    if game.status == Game.Status.OPEN:
        raise GameNotStarted("this game is waiting for an opponent to join")

