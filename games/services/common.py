"""What every service that changes a game shares: the compare-and-set and the check that the game is being played
(the locked read is the one loader's, ``selectors.game_for_viewer(..., for_update=True)``)."""

from __future__ import annotations

from ..errors import GameFinished, GameNotStarted
from ..models import Game


def save_if_unchanged(game: Game, fields: list[str], *, version: int) -> bool:
    """``game.save(update_fields=fields)`` only if the stored row is still at ``version`` (a compare-and-set):
    False, and nothing written, when another change came first. Fields are written as given (set ``updated``)."""
    values = {}
    for name in fields:
        attname = Game._meta.get_field(name).attname  # a foreign key by its id: no query for the related row
        values[attname] = getattr(game, attname)
    return Game.objects.filter(pk=game.pk, version=version).update(**values) == 1


def check_playable(game: Game) -> None:
    if game.is_finished:
        raise GameFinished(f"this game is over: {game.result_text()}")
    if game.status == Game.Status.OPEN:
        raise GameNotStarted("this game is waiting for an opponent to join")

