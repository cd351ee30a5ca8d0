"""Games: the caller's list, starting one, reading one, resigning, and new games from old ones.

Paths take a game's id as digits only (``/games/{int:game_id}``): ``/api/games/1.0`` or ``/api/games/+1`` is
no game, 404 ``not_found``, never game 1.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Status

from .. import selectors
from ..models import Game
from ..positions import fresh_position, game_position
from ..services import computer_opening, game_abort, game_again, game_create, game_from_position, game_resign
from .answers import game_state, games_summaries, load_game
from .errors import ERRORS
from .schemas import GameCreateIn, GameFilters, GameOut, GamePage, PlayOnIn

router = Router(tags=["games"])


@router.get("/games", response={200: GamePage, **ERRORS}, summary="My games")
def list_games(request: HttpRequest, filters: Query[GameFilters]) -> dict[str, Any]:
    """Games you play, played or watch, newest first; filter by variant, result and status; paginated."""
    page, page_size = filters.page, filters.page_size
    qs = selectors.game_history(request.auth, variant=filters.variant, result=filters.result)
    if filters.status:
        qs = qs.filter(status=filters.status)
    count = qs.count()
    start = (page - 1) * page_size
    items = list(qs[start: start + page_size]) if start < count else []
    return {
        "count": count, "page": page, "page_size": page_size, "pages": max(1, math.ceil(count / page_size)),
        "items": games_summaries(items, request.auth),
    }


def _started(request: HttpRequest, game: Game) -> Status:
    """201 with a game just made for the caller (a quick computer that moves first has moved)."""
    return Status(201, game_state(game_position(load_game(request, game.pk)), request.auth))


@router.post("/games", response={201: GameOut, **ERRORS}, summary="Start a game")
def create_game(request: HttpRequest, payload: GameCreateIn) -> Status:
    """Start a game with the words of the web form. Against a computer that moves first (you chose O), a quick
    one's first move is already played in the answer; a slow one (and a watched game) plays from the server's
    workers: poll the game (``version`` grows with every change), or step a watched game with ``computer-move``."""
    game = game_create(
        player=request.auth, variant=payload.variant, options=payload.options, opponent=payload.opponent,
        side=payload.side, strategy=payload.strategy or None, invitee=(payload.invite or "").strip() or None,
        private=payload.private, level=payload.level, clock=payload.clock,
    )
    return _started(request, computer_opening(game=game))


@router.get("/games/{int:game_id}", response={200: GameOut, **ERRORS}, summary="A game's full state")
def get_game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    # the moves from the row just read (its move list), so that ply, moves and legal moves agree however many
    # moves land meanwhile (the Move rows read in a second query could be ahead of the row)
    return game_state(fresh_position(load_game(request, game_id)), request.auth)


@router.post("/games/{int:game_id}/resign", response={200: GameOut, **ERRORS}, summary="Resign")
def resign_game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Give up: the other side wins. In a local game (both seats yours) the side to move resigns."""
    game = game_resign(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@router.post("/games/{int:game_id}/abort", response={200: GameOut, **ERRORS}, summary="Abort")
def abort_game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """End a game against another player without a result and without rating anyone, while a side has not made
    its first move yet (either player). After both first moves: ``409 abort_refused``; a game against the computer
    or on one screen: ``409 abort_refused`` (resign instead)."""
    game = game_abort(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@router.post(
    "/games/{int:game_id}/play-on", response={201: GameOut, **ERRORS},
    summary="Play on against the computer from a position of a finished game",
)
def play_on(request: HttpRequest, game_id: int, payload: PlayOnIn) -> Status:
    """A new game of yours against the computer at ``level`` that starts with this finished game's first
    ``ply`` moves; you take the side to move there. A game still being played, a position where the game is
    already over or a ``ply`` past its end: ``400 invalid_settings``; a game still being played:
    ``409 game_not_over``."""
    game = game_from_position(
        game=load_game(request, game_id), ply=payload.ply, player=request.auth, level=payload.level
    )
    return Status(201, game_state(game_position(load_game(request, game.pk)), request.auth))


@router.post(
    "/games/{int:game_id}/again", response={201: GameOut, **ERRORS},
    summary="Start a new game with this game's settings",
)
def play_again(request: HttpRequest, game_id: int) -> Status:
    """For the player who started the game (``403 not_creator`` otherwise): a new game with the same variant,
    options, opponent, side and computer; as with ``POST /games``, a quick computer that moves first has moved.
    Against another player: ``409 rematch_refused`` (offer a rematch instead)."""
    game = game_again(game=load_game(request, game_id), player=request.auth)
    return _started(request, game)
