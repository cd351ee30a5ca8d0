"""Quick pairing: seek a game and be paired with the waiting player closest in rating (``games.services.seeks``).

``POST /seeks`` makes your seek (replacing any earlier one) and may pair you at once; ``GET /seeks/{id}`` is the
ping that keeps it alive (ask every couple of seconds: a seek nobody asks about for 30 s is dropped) and tells you
when you were paired; ``DELETE /seeks/{id}`` cancels it; ``GET /seeks`` lists the seeks waiting now;
``POST /seeks/{id}/accept`` plays someone's seek at once.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router, Status

from ..models import Seek
from ..positions import game_position
from ..rating.matchmaking import rating_window
from ..rating.pools import pool_label
from ..selectors import open_seeks
from ..services import seek_accept, seek_cancel, seek_create, seek_ping
from .answers import game_state
from .errors import ERRORS
from .schemas import GameOut, SeekIn, SeekOut

router = Router(tags=["quick pairing"])


def seek_out(seek: Seek, viewer: Any, now: Any) -> dict[str, Any]:
    window = rating_window((now - seek.created).total_seconds()) if seek.game_id is None else math.inf
    return {
        "id": seek.pk,
        "status": "waiting" if seek.game_id is None else "paired",
        "game": seek.game_id,
        "player": seek.player.get_username(),
        "yours": seek.player_id == viewer.pk,
        "variant": seek.variant,
        "options": seek.options,
        "clock": seek.clock,
        "rated": seek.rated,
        "pool": seek.pool,
        "pool_label": pool_label(seek.pool),
        "rating": round(seek.rating),
        "window": None if math.isinf(window) else round(window),
        "created": seek.created,
    }


@router.get("/seeks", response={200: list[SeekOut], **ERRORS}, summary="Seeks waiting now")
def list_seeks(request: HttpRequest) -> list[dict[str, Any]]:
    """Every seek waiting for an opponent (yours included, ``yours: true``), the longest waiting first."""
    now = timezone.now()
    return [seek_out(seek, request.auth, now) for seek in open_seeks(now=now)]


@router.post("/seeks", response={201: SeekOut, **ERRORS}, summary="Seek a game (quick pairing)")
def create_seek(request: HttpRequest, payload: SeekIn) -> Status:
    """Wait for an opponent for this game; your earlier seek, if any, is replaced. If a compatible player (same
    board, time control and rated flag) is waiting within the rating window, you are paired at once
    (``status: paired``, ``game``); else ``status: waiting``: ping it with ``GET /seeks/{id}``. Bad terms:
    ``400 invalid_settings``, nothing stored."""
    seek = seek_create(
        player=request.auth,
        variant=payload.variant,
        options=payload.options,
        clock=payload.clock,
        rated=payload.rated,
    )
    return Status(201, seek_out(seek, request.auth, timezone.now()))


@router.get("/seeks/{int:seek_id}", response={200: SeekOut, **ERRORS}, summary="Ping your seek")
def ping_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    """Keep your seek alive and look for an opponent again (the window widens with time): ``waiting``, or
    ``paired`` with ``game``. Another player's seek: ``403 not_your_seek``; gone (cancelled, replaced, dropped after
    30 s without a ping): ``404 seek_not_found``."""
    seek = seek_ping(seek_id=seek_id, player=request.auth)
    return seek_out(seek, request.auth, timezone.now())


@router.delete("/seeks/{int:seek_id}", response={204: None, **ERRORS}, summary="Cancel your seek")
def cancel_seek(request: HttpRequest, seek_id: int) -> Status:
    """Stop waiting. Already paired: ``409 seek_taken`` (the game has started)."""
    seek_cancel(seek_id=seek_id, player=request.auth)
    return Status(204, None)


@router.post("/seeks/{int:seek_id}/accept", response={201: GameOut, **ERRORS}, summary="Play someone's seek")
def accept_seek(request: HttpRequest, seek_id: int) -> Status:
    """Play another player's seek at once, on its terms (your own seek, if any, is withdrawn): 201 with the new
    game. Your own: ``400 own_seek``; someone was first: ``409 seek_taken``; gone: ``404 seek_not_found``."""
    game = seek_accept(seek_id=seek_id, player=request.auth)
    return Status(201, game_state(game_position(game), request.auth))
