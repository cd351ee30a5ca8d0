"""The bot API (issue 33): an account becomes a bot, and a bot acts in its games.

A bot is told what happens by its streams (games.api.streams: its events, each game's changes) and acts here;
challenges are accepted and declined through the usual endpoints (``POST /api/games/{id}/accept``, ``/decline``),
and a bot challenges another bot with ``POST /api/games`` (``opponent: human``, ``invite``). Every refusal is the
API's usual ``{"code", "message"}``. docs/bots.md is the guide, with a reference bot to start from
(``python -m games.bot``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from ninja import Router

from ..errors import NotABot
from ..positions import game_position
from ..services import bot_upgrade, draw_accept, draw_decline, draw_offer, game_abort, game_resign, move_play
from .answers import game_state, load_game, play_answer
from .catalogue import me
from .errors import ERRORS
from .moves import move_number
from .schemas import GameOut, MeOut, PlayOut

router = Router(tags=["bots"])


def bot_account(request: HttpRequest) -> Any:
    """The caller, who must be a bot account: NotABot (403 ``not_a_bot``) otherwise."""
    if not getattr(request.auth, "is_bot", False):
        raise NotABot(
            "this endpoint is for bot accounts: turn an account into a bot with POST /api/bot/account/upgrade "
            "(docs/bots.md)"
        )
    return request.auth


@router.post("/bot/account/upgrade", response={200: MeOut, **ERRORS}, summary="Turn your account into a bot")
def upgrade(request: HttpRequest) -> dict[str, Any]:
    """For good: the account is shown as BOT, plays through the bot API only (not the web pages, not quick pairing)
    and is listed apart on the leaderboard. Refused (409 ``upgrade_refused``) once the account has played a rated
    game against a person, and for a bot already."""
    bot_upgrade(player=request.auth)
    return me(request)  # the answer of GET /api/me, now with "bot": true


@router.post(
    "/bot/game/{int:game_id}/move/{name}", response={200: PlayOut, **ERRORS}, summary="Play a move (by cell name)"
)
def bot_move(request: HttpRequest, game_id: int, name: str) -> dict[str, Any]:
    """``name``: the move's cell name (``h8``; in a Swap2 opening also its choices, RULES.md). The errors of
    ``POST /api/games/{id}/moves``: 400 ``illegal_move``, 409 ``not_your_turn``, ``game_finished``..."""
    bot = bot_account(request)
    game = load_game(request, game_id)
    move = move_number(game, name)
    position = move_play(game=game, player=bot, move=move)
    return play_answer(position, bot, game.ply)


def _act(request: HttpRequest, game_id: int, action: Callable[..., Any]) -> dict[str, Any]:
    bot = bot_account(request)
    game = action(game=load_game(request, game_id), player=bot)
    return game_state(game_position(game), bot)


@router.post("/bot/game/{int:game_id}/resign", response={200: GameOut, **ERRORS}, summary="Resign")
def bot_resign(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return _act(request, game_id, game_resign)


@router.post("/bot/game/{int:game_id}/abort", response={200: GameOut, **ERRORS}, summary="Abort")
def bot_abort(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """While a side has not made its first move (409 ``abort_refused`` later)."""
    return _act(request, game_id, game_abort)


@router.post("/bot/game/{int:game_id}/draw/offer", response={200: GameOut, **ERRORS}, summary="Offer a draw")
def bot_draw_offer(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Or agree to the opponent's offer; as ``POST /api/games/{id}/draw``."""
    return _act(request, game_id, draw_offer)


@router.post("/bot/game/{int:game_id}/draw/accept", response={200: GameOut, **ERRORS}, summary="Accept a draw")
def bot_draw_accept(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return _act(request, game_id, draw_accept)


@router.post(
    "/bot/game/{int:game_id}/draw/decline", response={200: GameOut, **ERRORS}, summary="Decline a draw offer"
)
def bot_draw_decline(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return _act(request, game_id, draw_decline)
