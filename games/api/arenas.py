"""Arena tournaments: make one, the lists, one arena with its standings, join, withdraw; berserk in a game.

``GET /arenas/{id}`` is also your presence: a joined player is paired only while their client asks about the arena
(this, or the arena's and game's pages) at least every 30 seconds. Pairing itself happens on the server's workers
within a few seconds; ``your_game`` then names your game (``GET /api/games/{id}``, which says ``"arena": id``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from ninja import Query, Router, Status

from ..arena.scoring import on_fire
from ..models import Arena, ArenaPlayer
from ..positions import game_position
from ..services import arena_berserk, arena_create, arena_join, arena_ping, arena_withdraw
from ..standings import Row, arena_by_id, arena_lists, entry_of, podium, standings
from .answers import game_state, load_game
from .arena_schemas import ArenaIn, ArenaJoinIn, ArenaListOut, ArenaOut, StandingsQuery
from .errors import ERRORS
from .schemas import GameOut

router = Router(tags=["arenas"])


def arena_summary(arena: Arena, now: Any, players: int | None = None) -> dict[str, Any]:
    return {
        "id": arena.pk,
        "url": reverse("games:arena", args=[arena.pk]),
        "name": arena.name,
        "status": arena.status(now),
        "starts_at": arena.starts_at,
        "ends_at": arena.ends_at,
        "minutes": arena.minutes,
        "variant": arena.variant,
        "options": arena.options or {},
        "clock": arena.clock,
        "pool": arena.pool,
        "rated": arena.rated,
        "berserk": arena.berserk,
        "protected": arena.protected,
        "scheduled": arena.scheduled,
        "created_by": arena.created_by.get_username() if arena.created_by_id else None,
        "players": players if players is not None else _player_count(arena),
    }


def _player_count(arena: Arena) -> int:
    counted = getattr(arena, "player_count", None)  # the lists count them in their query
    return arena.entries.count() if counted is None else counted


def standing(row: Row) -> dict[str, Any]:
    entry: ArenaPlayer = row.entry
    return {
        "rank": row.rank, "username": entry.player.get_username(), "score": entry.score, "games": entry.games,
        "wins": entry.wins, "on_fire": on_fire(entry.streak), "rating": round(entry.rating),
        "withdrawn": entry.withdrawn, "playing": entry.current_game_id is not None,
    }


def arena_detail(arena: Arena, viewer: Any, *, page: int = 1, mine: ArenaPlayer | None = None) -> dict[str, Any]:
    now = timezone.now()
    table = standings(arena, page=page)
    data = arena_summary(arena, now, players=table.count)
    data.update(
        standings=[standing(row) for row in table.rows],
        page=table.page,
        pages=table.pages,
        podium=[standing(row) for row in podium(arena)] if data["status"] == "finished" else [],
        joined=mine is not None and not mine.withdrawn,
        withdrawn=mine is not None and mine.withdrawn,
        your_game=mine.current_game_id if mine is not None else None,
    )
    return data


@router.get("/arenas", response={200: ArenaListOut, **ERRORS}, summary="Arenas: upcoming, running, finished")
def list_arenas(request: HttpRequest) -> dict[str, Any]:
    now = timezone.now()
    return {kind: [arena_summary(a, now) for a in arenas] for kind, arenas in arena_lists(now=now).items()}


@router.post("/arenas", response={201: ArenaOut, **ERRORS}, summary="Make an arena")
def create_arena(request: HttpRequest, payload: ArenaIn) -> Status:
    """A new arena tournament: the board (``variant``, ``options``), a real-time ``clock`` (``M+S``), ``minutes`` (10
    to 120), ``starts_in`` seconds (0 to a week), ``rated``, an optional ``name`` and ``password``, ``berserk``
    allowed or not. Anything the site does not allow: ``400 invalid_settings``, nothing stored."""
    arena = arena_create(
        player=request.auth, variant=payload.variant, options=payload.options, clock=payload.clock,
        minutes=payload.minutes, starts_in=payload.starts_in, rated=payload.rated, name=payload.name,
        password=payload.password, berserk=payload.berserk,
    )
    return Status(201, arena_detail(arena, request.auth))


@router.get("/arenas/{int:arena_id}", response={200: ArenaOut, **ERRORS}, summary="An arena and its standings")
def get_arena(request: HttpRequest, arena_id: int, query: Query[StandingsQuery]) -> dict[str, Any]:
    """The arena, one page of its standings (``?page=``, 20 rows each), the podium once finished, and your game
    (``your_game``) if you are playing one. Asking counts as your presence (see the router's words)."""
    arena = arena_by_id(arena_id)
    mine = arena_ping(arena=arena, player=request.auth)
    return arena_detail(arena, request.auth, page=query.page, mine=mine)


@router.post("/arenas/{int:arena_id}/join", response={200: ArenaOut, **ERRORS}, summary="Join an arena")
def join_arena(request: HttpRequest, arena_id: int, payload: ArenaJoinIn | None = None) -> dict[str, Any]:
    """Join (or come back after withdrawing, with your score kept): you are paired as soon as it runs and someone is
    free. A protected arena: ``{"password": ...}`` (else ``403 arena_password``); over: ``409 arena_finished``."""
    password = payload.password if payload is not None else None
    mine = arena_join(arena=arena_id, player=request.auth, password=password or "")
    return arena_detail(arena_by_id(arena_id), request.auth, mine=mine)


@router.post("/arenas/{int:arena_id}/withdraw", response={200: ArenaOut, **ERRORS}, summary="Withdraw")
def withdraw_arena(request: HttpRequest, arena_id: int) -> dict[str, Any]:
    """Stop being paired; your score stays and you may join again (a game you are playing goes on). Not joined:
    ``409 not_joined``."""
    arena_withdraw(arena=arena_id, player=request.auth)
    return arena_detail(arena_by_id(arena_id), request.auth, mine=entry_of(arena_id, request.auth))


@router.post("/games/{int:game_id}/berserk", response={200: GameOut, **ERRORS}, summary="Go berserk (arena games)")
def berserk(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """In an arena game, before your first move: halve your own clock; a win of at least three of your moves then
    earns an extra point. Otherwise ``409 berserk_refused``."""
    game = arena_berserk(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)
