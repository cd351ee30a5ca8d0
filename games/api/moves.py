"""Moves: a player's (by number or by cell name) and the computer's."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from ..engine import InvalidCellName
from ..errors import InvalidMove
from ..models import Game
from ..positions import game_variant
from ..services import ask_computer, move_play
from .answers import load_game, play_answer
from .errors import ERRORS
from .schemas import MoveIn, PlayOut

router = Router(tags=["games"])


def move_number(game: Game, move: int | str) -> int:
    """The move a client sent: a number as it is (the engine checks it), a cell name read on ``game``'s board.
    A name of no cell is InvalidMove (400 ``illegal_move``) with the engine's words naming the board's range."""
    if isinstance(move, int):
        return move
    try:
        return game_variant(game).parse_cell(move)
    except InvalidCellName as err:
        raise InvalidMove(f"illegal move: {err}") from None


@router.post("/games/{int:game_id}/moves", response={200: PlayOut, **ERRORS}, summary="Play a move")
def play_move(request: HttpRequest, game_id: int, payload: MoveIn) -> dict[str, Any]:
    """Play ``move``, given as its cell name (``"b2"``) or its number (``4``). When a computer that answers in
    milliseconds holds the other seat, its reply is played too and is in ``played``; a slower one answers from
    the server's workers (poll the game: ``version`` grows with every change)."""
    game = load_game(request, game_id)
    move = move_number(game, payload.move)
    position = move_play(game=game, player=request.auth, move=move, ply=payload.ply, reply=True)
    return play_answer(position, request.auth, game.ply)


@router.post(
    "/games/{int:game_id}/computer-move", response={200: PlayOut, **ERRORS}, summary="Let the computer to move play"
)
def play_computer_move(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """For games where a computer is to move: a quick computer plays now; a slow one thinks in a worker (its move
    is queued if it was not), and its move shows in `GET /api/games/{id}` when it is stored."""
    game = load_game(request, game_id)
    before = game.ply
    position = ask_computer(game=game, player=request.auth)
    return play_answer(position, request.auth, before)
