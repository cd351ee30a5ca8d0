"""Game records (RULES.md "Game records"): a game's record as text, and a record imported as a game.

The record is the same text the pages download (``games.records.game_record``); an import is the pages' service
(``games.services.game_import``): a bad record is ``400 invalid_record`` with the line and move in the message,
more than the hourly number of imports ``429 busy`` (``Retry-After``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status

from ..positions import game_position
from ..records import game_record
from ..services import game_import
from .answers import game_state, load_game
from .errors import BUSY, ERRORS
from .schemas import GameOut, RecordIn

router = Router(tags=["records"])


@router.get(
    "/games/{int:game_id}/record", response={200: str, **ERRORS}, summary="A game's record",
    openapi_extra={"responses": {200: {"description": "the record", "content": {"text/plain": {}}}}},
)
def game_record_text(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game as a record (``text/plain; charset=utf-8``): tags (Variant, Options, X, O, Date, Result,
    Termination...), then the moves by cell name and the result token."""
    game = load_game(request, game_id)
    response = HttpResponse(game_record(game, site=request.get_host()), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.txt"'
    return response


@router.post("/games/import", response={201: GameOut, **ERRORS, **BUSY}, summary="Import a game record")
def import_record(request: HttpRequest, payload: RecordIn) -> Status:
    """A record becomes a game of yours: finished, unrated, private, its players named as the record names them
    (``seats[].label``); a ``*`` result imports it unfinished (finished with no result). Every move is checked
    by the engine and the result against the final position (unless a Termination tag says how it ended):
    ``400 invalid_record`` says the line, the move and what was wrong. At most 30 imports an hour: ``429 busy``."""
    game = game_import(player=request.auth, text=payload.record)
    return Status(201, game_state(game_position(load_game(request, game.pk)), request.auth))
