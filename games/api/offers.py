"""Between two players: draw offers, rematch offers, and claiming the win from an opponent who stopped playing."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Status

from ..positions import game_position
from ..services import (
    draw_accept,
    draw_decline,
    draw_offer,
    game_claim_win,
    rematch_accept,
    rematch_decline,
    rematch_offer,
)
from .answers import game_state, load_game
from .errors import ERRORS
from .schemas import GameOut

router = Router()


def _state(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return game_state(game_position(load_game(request, game_id)), request.auth)


# Draws --------------------------------------------------------------------------------------------------


@router.post("/games/{int:game_id}/draw", response={200: GameOut, **ERRORS}, tags=["games"], summary="Offer a draw")
def offer_draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Offer a draw in a running game between two players. If your opponent had offered one already, this
    agrees and the game ends drawn. Your opponent's move declines the offer; after a declined offer, neither
    player offers again before the next move (``409 draw_refused``)."""
    game = draw_offer(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@router.post(
    "/games/{int:game_id}/draw/accept", response={200: GameOut, **ERRORS}, tags=["games"],
    summary="Accept the draw offer",
)
def accept_draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Agree to your opponent's draw offer: the game ends drawn (``result_reason`` ``agreed``)."""
    game = draw_accept(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@router.post(
    "/games/{int:game_id}/draw/decline", response={200: GameOut, **ERRORS}, tags=["games"],
    summary="Decline or withdraw a draw offer",
)
def decline_draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
    game = draw_decline(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


# Rematches -----------------------------------------------------------------------------------------------


@router.post(
    "/games/{int:game_id}/rematch", response={200: GameOut, **ERRORS}, tags=["challenges"], summary="Offer a rematch"
)
def offer_rematch(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Propose a rematch of a finished game between two players (sides swapped). If your opponent had offered one
    already, this agrees: ``rematch`` in the answer is the new game's id. After your opponent declined your offer:
    409 ``rematch_refused`` (after you declined theirs, this is a new offer of yours)."""
    rematch_offer(game=load_game(request, game_id), player=request.auth)
    return _state(request, game_id)


@router.post(
    "/games/{int:game_id}/rematch/accept", response={201: GameOut, **ERRORS}, tags=["challenges"],
    summary="Accept the rematch offer",
)
def accept_rematch(request: HttpRequest, game_id: int) -> Status:
    """Agree to your opponent's rematch offer: the new game (sides swapped), already started."""
    new = rematch_accept(game=load_game(request, game_id), player=request.auth)
    return Status(201, _state(request, new.pk))


@router.post(
    "/games/{int:game_id}/rematch/decline", response={200: GameOut, **ERRORS}, tags=["challenges"],
    summary="Decline or withdraw a rematch offer",
)
def decline_rematch(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Decline your opponent's offer (``rematch_declined`` becomes true: they may not offer again, you still may),
    or withdraw your own (as if it had never been made)."""
    game = rematch_decline(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


# Claiming the win ---------------------------------------------------------------------------------------


@router.post(
    "/games/{int:game_id}/claim-win", response={200: GameOut, **ERRORS}, tags=["games"],
    summary="Claim the win from an opponent who stopped playing",
)
def claim_win(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """In a game between two players, waiting for your opponent's move: once ``claim_win_after`` has passed
    (72 hours without any change to the game by default), you win (``result_reason`` ``abandoned``).
    Before that, or on your own turn: ``409 claim_refused``."""
    game = game_claim_win(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)
