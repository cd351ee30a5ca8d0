"""Challenges: the lobby, and accepting, cancelling or declining a game that waits for an opponent.

A challenge is made with ``POST /games`` and ``opponent: human``. One cancelled or declined meanwhile is no
game any more: 404 ``not_found``, as for any missing game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from ninja import Router, Status

from .. import selectors
from ..errors import ChallengeGone, GameNotFound
from ..positions import game_position
from ..services import challenge_accept, challenge_cancel, challenge_decline
from .answers import game_state, games_summaries, load_game
from .errors import ERRORS
from .schemas import ChallengesOut, GameOut

router = Router(tags=["challenges"])


@router.get("/challenges", response={200: ChallengesOut, **ERRORS}, summary="The lobby")
def list_challenges(request: HttpRequest) -> dict[str, Any]:
    """Open challenges you may accept (public ones and those sent to you) and yours still waiting.
    Make one with ``POST /games`` and ``opponent: human`` (``invite`` for a named player)."""
    player = request.auth
    return {
        "open": games_summaries(selectors.open_challenges(player), player),
        "for_you": games_summaries(selectors.challenges_for(player), player),
        "yours": games_summaries(selectors.my_challenges(player), player),
    }


def _gone(game_id: int) -> GameNotFound:
    return GameNotFound(f"there is no game {game_id}")


@router.post("/games/{int:game_id}/accept", response={200: GameOut, **ERRORS}, summary="Accept a challenge")
def accept_challenge(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Take the free seat of an open challenge; the game starts. Not your own (400 own_challenge), not one sent
    to someone else (403 not_invited); if someone else was first, 409 challenge_taken."""
    try:
        game = challenge_accept(game=load_game(request, game_id), player=request.auth)
    except ChallengeGone:
        raise _gone(game_id) from None
    return game_state(game_position(game), request.auth)


def _remove(request: HttpRequest, game_id: int, action: Callable[..., None]) -> Status:
    """Cancel or decline (``action``) a challenge: 204, or 404 once it is gone."""
    try:
        action(game=load_game(request, game_id), player=request.auth)
    except ChallengeGone:
        raise _gone(game_id) from None
    return Status(204, None)


@router.post("/games/{int:game_id}/cancel", response={204: None, **ERRORS}, summary="Cancel your challenge")
def cancel_challenge(request: HttpRequest, game_id: int) -> Status:
    """Withdraw a challenge nobody has accepted yet (it is deleted). Only its creator (403 not_creator)."""
    return _remove(request, game_id, challenge_cancel)


@router.post(
    "/games/{int:game_id}/decline", response={204: None, **ERRORS}, summary="Decline a challenge sent to you"
)
def decline_challenge(request: HttpRequest, game_id: int) -> Status:
    """Turn down a challenge sent to you by name (it is deleted). Only its invitee (403 not_invited)."""
    return _remove(request, game_id, challenge_decline)
