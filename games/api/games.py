"""The JSON API under ``/api/`` (django-ninja): the same services as the web pages, as JSON.

Authentication: the browser session (CSRF checked on unsafe methods) or a personal token from
the profile page, sent as ``Authorization: Bearer <token>``. Every refusal is JSON
``{"code": ..., "message": ...}`` with 400 (bad input), 401, 403, 404 or 409; the service errors
(``games.services.GameError``) map by their ``status_code`` onto a stable code. The catalogue
(variants, strategies) is public. OpenAPI at ``/api/openapi.json``; docs at ``/api/docs`` (Swagger
UI served from django-ninja's own static files, so it works offline).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from ninja import NinjaAPI, Query, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer, SessionAuth

from players.models import ApiToken

from . import selectors
from .api_schemas import (
    AnalysisOut,
    ChallengesOut,
    ErrorOut,
    GameCreateIn,
    GameFilters,
    GameOut,
    GamePage,
    HintOut,
    LeaderboardFilters,
    LeaderboardOut,
    MeOut,
    MoveIn,
    PlayOnIn,
    PlayOut,
    StrategyOut,
    VariantOut,
)
from .engine import STRATEGIES, VARIANTS, get_strategy, get_variant
from .engine.analysis import start_outcome
from .engine.render import move_label
from .errors import (
    ChallengeGone,
    GameError,
    GameFinished,
    MoveConflict,
    NotComputerTurn,
)
from .http_errors import http_error
from .models import LEVELS, SIDES, Game, Rating
from .positions import Position, game_position, game_variant
from .services import (
    challenge_accept,
    challenge_cancel,
    challenge_decline,
    claim_win_after,
    computer_move,
    draw_accept,
    draw_decline,
    draw_offer,
    game_again,
    game_analysis,
    game_claim_win,
    game_create,
    game_from_position,
    game_resign,
    move_hint,
    move_play,
    move_takeback,
    rematch_accept,
    rematch_decline,
    rematch_offer,
)

logger = logging.getLogger(__name__)

# Authentication --------------------------------------------------------------------------------------


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>`` with a token made on the profile page."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        return ApiToken.authenticate(token)


class SignedInSession(SessionAuth):
    """The site's session; CSRF is checked (unsafe methods) only for a signed-in browser.

    Checking it before knowing whether anyone is signed in would answer an anonymous POST with
    403 (CSRF) instead of 401.
    """

    def _get_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)


api = NinjaAPI(
    title="Tic-tac-toe API",
    version="1.0",
    description=(
        "Play the site's tic-tac-toe variants over JSON. Sign in on the site (session + CSRF) or send a "
        "personal token made on your profile page as `Authorization: Bearer <token>`. Moves are the engine's "
        "numbers: `row * cols + col` on grids, `9 * board + cell` on ultimate and multi. Errors are "
        '`{"code": ..., "message": ...}`.'
    ),
    auth=[TokenAuth(), SignedInSession()],
    urls_namespace="api",
)

# Errors ---------------------------------------------------------------------------------------------

#: statuses a refusal may have, documented on every operation
ERRORS: dict[int, type[Schema]] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut}


def error_code(err: GameError) -> str:
    return http_error(err).code


def _error(request: HttpRequest, status: int, code: str, message: str, **extra: Any) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


@api.exception_handler(GameError)
def _game_error(request: HttpRequest, exc: GameError) -> HttpResponse:
    status, code = http_error(exc)
    return _error(request, status if status in ERRORS else 400, code, str(exc))


def _loc(loc: Any) -> str:
    parts = [str(p) for p in (loc or [])]
    # ninja puts the parameter's name after the place ("body", "payload", "move"): keep what people know
    if len(parts) >= 2 and parts[0] == "body" and parts[1] == "payload":
        parts = ["body", *parts[2:]]
    return ".".join(parts)


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    details = [
        {"loc": _loc(err.get("loc")), "message": str(err.get("msg", "invalid")), "type": str(err.get("type", ""))}
        for err in exc.errors
    ]
    first = details[0] if details else {"loc": "", "message": "invalid input"}
    message = f"{first['loc']}: {first['message']}" if first["loc"] else first["message"]
    if len(details) > 1:
        message += f" (and {len(details) - 1} more)"
    return _error(request, 400, "invalid_input", message, details=details)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return _error(
        request, 401, "unauthenticated",
        "sign in, or send a valid personal token as 'Authorization: Bearer <token>'",
    )


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if exc.status_code == 403 and "csrf" in str(exc).lower():
        return _error(request, 403, "csrf_failed", "CSRF check failed: send the X-CSRFToken header with the cookie")
    codes = {400: "invalid_input", 401: "unauthenticated", 403: "forbidden", 404: "not_found", 409: "conflict"}
    return _error(request, exc.status_code, codes.get(exc.status_code, "error"), str(exc))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, 404, "not_found", str(exc) or "not found")


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return _error(request, 413, "too_large", f"the request body is larger than the {limit:,} bytes the API reads")


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("API error on %s %s", request.method, request.path)
    return _error(request, 500, "server_error", "something went wrong on our side; nothing was stored")


# Catalogue ------------------------------------------------------------------------------------------


def _type_name(kind: Any) -> str:
    names = {int: "integer", float: "number", str: "string", bool: "boolean"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return "|".join(names.get(k, getattr(k, "__name__", str(k))) for k in kinds)


def _supports(name: str, variant_key: str) -> bool:
    try:
        return get_strategy(name).supports(get_variant(variant_key))
    except Exception:  # noqa: BLE001 - a strategy that cannot be built or asked plays nothing
        return False


@lru_cache(maxsize=1)
def _catalogue() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(variants, strategies) as the API shows them; computed once (the registries are fixed at import)."""
    strategy_names = sorted(STRATEGIES)
    support = {(s, v): _supports(s, v) for s in strategy_names for v in VARIANTS}
    variants = []
    for key, cls in VARIANTS.items():
        options = []
        for name, (kind, default, low, high) in cls.option_spec.items():
            options.append(
                {"name": name, "type": "boolean" if kind is bool else "integer", "default": default,
                 "minimum": low, "maximum": high}
            )
        variants.append(
            {"key": key, "title": cls.title, "nested": cls.nested, "options": options,
             "default_cells": get_variant(key).cell_count,
             "strategies": [s for s in strategy_names if support[(s, key)]]}
        )
    strategies = [
        {
            "name": name,
            "options": [
                {"name": opt, "type": _type_name(kind), "default": default}
                for opt, (kind, default) in STRATEGIES[name].option_spec.items()
            ],
            "variants": [v for v in VARIANTS if support[(name, v)]],
        }
        for name in strategy_names
    ]
    return variants, strategies


@api.get("/variants", auth=None, response=list[VariantOut], tags=["catalogue"], summary="Variants and their options")
def list_variants(request: HttpRequest) -> list[dict[str, Any]]:
    """Every variant with its options (type, default, limits) and the strategies that play it."""
    return _catalogue()[0]


@api.get(
    "/strategies", auth=None, response=list[StrategyOut], tags=["catalogue"], summary="Computer players"
)
def list_strategies(request: HttpRequest) -> list[dict[str, Any]]:
    """Every registered strategy with the variants it plays (checked with ``supports`` at default options)."""
    return _catalogue()[1]


@api.get(
    "/me", response={200: MeOut, 401: ErrorOut}, tags=["players"], summary="Who you are signed in as, and your ratings"
)
def me(request: HttpRequest) -> dict[str, Any]:
    history = selectors.rating_history(request.auth)
    ratings = {
        row.variant: {"rating": round(row.rating), "games": row.games, "won": row.won, "lost": row.lost,
                      "drawn": row.drawn, "history": history.get(row.variant, [])}
        for row in Rating.objects.filter(player=request.auth, games__gt=0).order_by("variant")
    }
    return {"id": request.auth.pk, "username": request.auth.get_username(), "ratings": ratings}


@api.get(
    "/leaderboard", response={200: LeaderboardOut, **ERRORS}, tags=["players"], summary="The best-rated players"
)
def leaderboard(request: HttpRequest, filters: Query[LeaderboardFilters]) -> dict[str, Any]:
    """Ratings (Elo, one per variant) come from finished games between two players; see the site's leaderboard."""
    rows = [
        {"rank": row.rank, "username": row.player.get_username(), "rating": round(row.rating), "games": row.games,
         "won": row.won, "lost": row.lost, "drawn": row.drawn}
        for row in selectors.leaderboard(filters.variant)
    ]
    return {"variant": filters.variant, "rows": rows}


# Game state -----------------------------------------------------------------------------------------

MAX_ID = 2**63 - 1


def _game_url(pk: int) -> str:
    try:
        return reverse("games:detail", args=[pk])
    except NoReverseMatch:  # pragma: no cover - the web app not mounted
        return f"/games/{pk}/"


def _seat(game: Game, side: str) -> dict[str, Any]:
    player = game.seat_player(side) if game.seat_player_id(side) is not None else None
    level, strategy = game.seat_computer(side)
    kind = "player" if player is not None else ("computer" if level or strategy else "open")
    return {
        "side": side, "kind": kind, "username": player.get_username() if player is not None else None,
        "level": level or None, "strategy": strategy or None, "label": game.seat_label(side),
    }


def game_summary(game: Game, viewer: Any) -> dict[str, Any]:
    sides = game.sides_of(viewer)
    active = game.status == Game.Status.ACTIVE
    return {
        "id": game.pk,
        "url": _game_url(game.pk),
        "variant": game.variant,
        "variant_title": selectors.variant_label(game.variant),
        "options": game.options or {},
        "opponent": game.opponent,
        "status": game.status,
        "result": game.result or None,
        "result_reason": game.result_reason or None,
        "result_text": game.result_text(),
        "ply": game.ply,
        "to_move": None if game.is_finished else game.to_move,
        "seats": [_seat(game, side) for side in SIDES],
        "your_sides": sides,
        "your_turn": active and game.to_move in sides,
        "created": game.created,
        "updated": game.updated,
        "finished": game.finished,
        "private": game.private,
        "invitee": game.invitee.get_username() if game.invitee_id else None,
        "version": game.version,
        "rematch_of": game.rematch_of_id,
        # the offer comes from one of the two seated players, already loaded
        "rematch_offered_by": _offered_by(game, game.rematch_offered_by_id),
        "rematch_declined": game.rematch_declined,
        "draw_offered_by": _offered_by(game, game.draw_offered_by_id),
        "claim_win_after": claim_win_after(game),
        "takebacks": game.takebacks,
        "hints": game.hints,
        "ratings": {side: _rating(game, side) for side in SIDES} if game.is_rated else None,
        "unrated_reason": game.unrated_reason or None,
        "played_on_from": (
            {"game": game.played_on_from_id, "ply": game.played_on_ply} if game.played_on_from_id else None
        ),
    }


def _rating(game: Game, side: str) -> dict[str, int] | None:
    change = game.rating_change(side)
    return None if change is None else {key: change[key] for key in ("before", "after", "delta")}


def _offered_by(game: Game, player_id: int | None) -> str | None:
    """The name of the seated player who made an offer (already loaded with the seats), or None."""
    if player_id is None:
        return None
    return next(
        (game.seat_player(side).get_username() for side in SIDES if game.seat_player_id(side) == player_id), None
    )


def move_entry(state_variant: Any, ply: int, move: int) -> dict[str, Any]:
    nested = state_variant.nested
    return {
        "ply": ply,
        "side": "X" if ply % 2 == 1 else "O",
        "move": move,
        "board": move // 9 if nested else None,
        "position": move % 9 if nested else move,
        "label": move_label(state_variant, move),
    }


def game_state(position: Position, viewer: Any) -> dict[str, Any]:
    """Everything about a game a client needs to draw it and move: summary, cells, legal moves, move list."""
    game, state = position.game, position.state
    variant = state.variant
    data = game_summary(game, viewer)
    data.update(
        rows=variant.rows,
        cols=variant.cols,
        cells=list(state.cells),
        board_winners=list(state.board_winners) if variant.nested else None,
        active_boards=list(state.active_boards) if variant.nested and game.status == Game.Status.ACTIVE else (
            [] if variant.nested else None
        ),
        legal_moves=state.legal_moves() if game.status == Game.Status.ACTIVE else [],
        moves=[move_entry(variant, i + 1, m) for i, m in enumerate(position.moves)],
        rematch=(
            Game.objects.filter(rematch_of_id=game.pk).values_list("pk", flat=True).first()
            if game.is_finished else None
        ),
    )
    return data


def _played(before: int, position: Position) -> list[dict[str, Any]]:
    variant = position.state.variant
    return [move_entry(variant, i + 1, m) for i, m in enumerate(position.moves) if i >= before]


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    """The game if the caller may see it (seated, or the creator of a watched game); 404 otherwise."""
    if not 1 <= game_id <= MAX_ID:
        raise Http404(f"there is no game {game_id}")
    game = Game.objects.select_related("x_player", "o_player", "created_by", "invitee").filter(pk=game_id).first()
    if game is None or not selectors.can_view(game, request.auth):
        # Someone else's game looks exactly like a missing one.
        raise Http404(f"there is no game {game_id}")
    return game


def _computer_reply(game: Game) -> Position | None:
    """Let a computer seat to move play now; None if it is not a computer's turn or the game moved on."""
    if game.status != Game.Status.ACTIVE or not game.is_computer(game.to_move):
        return None
    try:
        return computer_move(game=game)
    except (NotComputerTurn, MoveConflict, GameFinished):
        return None  # someone else triggered it first: the answer shows the game as it stands


# Games ----------------------------------------------------------------------------------------------


@api.get("/games", response={200: GamePage, **ERRORS}, tags=["games"], summary="My games")
def list_games(request: HttpRequest, filters: Query[GameFilters]) -> dict[str, Any]:
    """Games you play, played or watch, newest first; filter by variant, result and status; paginated."""
    variant, result, status = filters.variant, filters.result, filters.status
    page, page_size = filters.page, filters.page_size
    qs = selectors.game_history(request.auth, variant=variant, result=result)
    if status:
        qs = qs.filter(status=status)
    count = qs.count()
    pages = max(1, math.ceil(count / page_size))
    start = (page - 1) * page_size
    items = list(qs[start: start + page_size]) if start < count else []
    return {
        "count": count, "page": page, "page_size": page_size, "pages": pages,
        "items": [game_summary(game, request.auth) for game in items],
    }


@api.post("/games", response={201: GameOut, **ERRORS}, tags=["games"], summary="Start a game")
def create_game(request: HttpRequest, payload: GameCreateIn) -> Status:
    """Start a game with the words of the web form. Against a computer that moves first (you chose O),
    its first move is already played in the answer; for a watched game, call ``computer-move`` to step."""
    game = game_create(
        player=request.auth, variant=payload.variant, options=payload.options, opponent=payload.opponent,
        side=payload.side, strategy=payload.strategy or None, invitee=(payload.invite or "").strip() or None,
        private=payload.private,
    )
    if game.opponent in LEVELS:
        _computer_reply(game)
    return Status(201, game_state(game_position(_visible_game(request, game.pk)), request.auth))


@api.get("/games/{game_id}", response={200: GameOut, **ERRORS}, tags=["games"], summary="A game's full state")
def get_game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return game_state(game_position(_visible_game(request, game_id)), request.auth)


@api.post("/games/{game_id}/moves", response={200: PlayOut, **ERRORS}, tags=["games"], summary="Play a move")
def play_move(request: HttpRequest, game_id: int, payload: MoveIn) -> dict[str, Any]:
    """Play ``move``; when a computer holds the other seat its reply is played too and is in ``played``."""
    game = _visible_game(request, game_id)
    before = game.ply
    position = move_play(game=game, player=request.auth, move=payload.move, ply=payload.ply)
    reply = _computer_reply(position.game)
    position = reply or position
    return {**game_state(position, request.auth), "played": _played(before, position)}


@api.post(
    "/games/{game_id}/computer-move", response={200: PlayOut, **ERRORS}, tags=["games"],
    summary="Let the computer to move play",
)
def play_computer_move(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """For games where a computer is to move (watched games, or a reply that did not happen): one move."""
    game = _visible_game(request, game_id)
    before = game.ply
    position = computer_move(game=game, player=request.auth)
    return {**game_state(position, request.auth), "played": _played(before, position)}


@api.post("/games/{game_id}/resign", response={200: GameOut, **ERRORS}, tags=["games"], summary="Resign")
def resign_game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Give up: the other side wins. In a local game (both seats yours) the side to move resigns."""
    game = game_resign(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


# Two players: challenges and rematches -----------------------------------------------------------------


@api.get("/challenges", response={200: ChallengesOut, **ERRORS}, tags=["challenges"], summary="The lobby")
def list_challenges(request: HttpRequest) -> dict[str, Any]:
    """Open challenges you may accept (public ones and those sent to you) and yours still waiting.
    Make one with ``POST /games`` and ``opponent: human`` (``invite`` for a named player)."""
    player = request.auth
    return {
        "open": [game_summary(g, player) for g in selectors.open_challenges(player)],
        "for_you": [game_summary(g, player) for g in selectors.challenges_for(player)],
        "yours": [game_summary(g, player) for g in selectors.my_challenges(player)],
    }


@api.post(
    "/games/{game_id}/accept", response={200: GameOut, **ERRORS}, tags=["challenges"], summary="Accept a challenge"
)
def accept_challenge(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Take the free seat of an open challenge; the game starts. Not your own (400 own_challenge), not one sent
    to someone else (403 not_invited); if someone else was first, 409 challenge_taken."""
    try:
        game = challenge_accept(game=_visible_game(request, game_id), player=request.auth)
    except ChallengeGone:
        raise Http404(f"there is no game {game_id}") from None
    return game_state(game_position(game), request.auth)


@api.post(
    "/games/{game_id}/cancel", response={204: None, **ERRORS}, tags=["challenges"], summary="Cancel your challenge"
)
def cancel_challenge(request: HttpRequest, game_id: int) -> Status:
    """Withdraw a challenge nobody has accepted yet (it is deleted). Only its creator (403 not_creator)."""
    return _remove_challenge(request, game_id, challenge_cancel)


@api.post(
    "/games/{game_id}/decline", response={204: None, **ERRORS}, tags=["challenges"],
    summary="Decline a challenge sent to you",
)
def decline_challenge(request: HttpRequest, game_id: int) -> Status:
    """Turn down a challenge sent to you by name (it is deleted). Only its invitee (403 not_invited)."""
    return _remove_challenge(request, game_id, challenge_decline)


def _remove_challenge(request: HttpRequest, game_id: int, action: Callable[..., None]) -> Status:
    """Cancel or decline (``action``) a challenge: 204, or 404 once it is gone."""
    try:
        action(game=_visible_game(request, game_id), player=request.auth)
    except ChallengeGone:
        raise Http404(f"there is no game {game_id}") from None
    return Status(204, None)


@api.post("/games/{game_id}/rematch", response={200: GameOut, **ERRORS}, tags=["challenges"], summary="Offer a rematch")
def offer_rematch(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Propose a rematch of a finished game between two players (sides swapped). If your opponent had offered one
    already, this agrees: ``rematch`` in the answer is the new game's id. After your opponent declined your offer:
    409 ``rematch_refused`` (after you declined theirs, this is a new offer of yours)."""
    game = _visible_game(request, game_id)
    rematch_offer(game=game, player=request.auth)
    return game_state(game_position(_visible_game(request, game_id)), request.auth)


@api.post(
    "/games/{game_id}/rematch/accept", response={201: GameOut, **ERRORS}, tags=["challenges"],
    summary="Accept the rematch offer",
)
def accept_rematch(request: HttpRequest, game_id: int) -> Status:
    """Agree to your opponent's rematch offer: the new game (sides swapped), already started."""
    new = rematch_accept(game=_visible_game(request, game_id), player=request.auth)
    return Status(201, game_state(game_position(_visible_game(request, new.pk)), request.auth))


@api.post(
    "/games/{game_id}/rematch/decline", response={200: GameOut, **ERRORS}, tags=["challenges"],
    summary="Decline or withdraw a rematch offer",
)
def decline_rematch(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Decline your opponent's offer (``rematch_declined`` becomes true: they may not offer again, you still may),
    or withdraw your own (as if it had never been made)."""
    game = rematch_decline(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@api.post(
    "/games/{game_id}/claim-win", response={200: GameOut, **ERRORS}, tags=["games"],
    summary="Claim the win from an opponent who stopped playing",
)
def claim_win(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """In a game between two players, waiting for your opponent's move: once ``claim_win_after`` has passed
    (72 hours without any change to the game by default), you win (``result_reason`` ``abandoned``).
    Before that, or on your own turn: ``409 claim_refused``."""
    game = game_claim_win(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@api.post(
    "/games/{game_id}/play-on", response={201: GameOut, **ERRORS}, tags=["games"],
    summary="Play on against the computer from a position of a finished game",
)
def play_on(request: HttpRequest, game_id: int, payload: PlayOnIn) -> Status:
    """A new game of yours against the computer at ``level`` that starts with this finished game's first
    ``ply`` moves; you take the side to move there. A game still being played, a position where the game is
    already over or a ``ply`` past its end: ``400 invalid_settings``; a game still being played:
    ``409 game_not_over``."""
    game = game_from_position(game=_visible_game(request, game_id), ply=payload.ply, player=request.auth,
                              level=payload.level)
    return Status(201, game_state(game_position(_visible_game(request, game.pk)), request.auth))


@api.post(
    "/games/{game_id}/again", response={201: GameOut, **ERRORS}, tags=["games"],
    summary="Start a new game with this game's settings",
)
def play_again(request: HttpRequest, game_id: int) -> Status:
    """For the player who started the game (``403 not_creator`` otherwise): a new game with the same variant,
    options, opponent, side and computer; as with ``POST /games``, a computer that moves first has moved.
    Against another player: ``409 rematch_refused`` (offer a rematch instead)."""
    game = game_again(game=_visible_game(request, game_id), player=request.auth)
    if game.opponent in LEVELS:
        _computer_reply(game)
    return Status(201, game_state(game_position(_visible_game(request, game.pk)), request.auth))


@api.get(
    "/games/{game_id}/analysis", response={200: AnalysisOut, **ERRORS}, tags=["games"], summary="What each move did"
)
def analysis(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """A finished game on one board of at most 16 cells (classic, 4 x 4, small m,n,k): for each move, the mover's
    outcome with best play before and after it, whether it was a mistake, and the moves that kept the outcome.
    A game still being played, or a bigger board: ``409 analysis_unavailable``."""
    game = _visible_game(request, game_id)
    verdicts = game_analysis(game)
    variant = game_variant(game)
    start = verdicts[0].before if verdicts else start_outcome(variant)
    return {
        "outcome": "draw" if start == "draw" else "X" if start == "win" else "O",
        "mistakes": {side: sum(v.mistake for v in verdicts if v.side == side) for side in SIDES},
        "moves": [
            {
                "ply": v.ply, "side": v.side, "move": v.move, "label": move_label(variant, v.move),
                "before": v.before, "after": v.after, "mistake": v.mistake, "best": list(v.best),
            }
            for v in verdicts
        ],
    }


@api.post("/games/{game_id}/hint", response={200: HintOut, **ERRORS}, tags=["games"], summary="Suggest a move")
def hint(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """On your turn, in a running game without another player: the move the hard level would play (up to
    about a second of thought); it is not played. ``hints`` counts them. Against another player:
    ``409 hint_refused``; not your turn: ``409 not_your_turn``."""
    game, move = move_hint(game=_visible_game(request, game_id), player=request.auth)
    return {"move": move, "label": move_label(game_variant(game), move), "hints": game.hints}


@api.post(
    "/games/{game_id}/takeback", response={200: GameOut, **ERRORS}, tags=["games"], summary="Take your move back"
)
def take_back(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """In a running game without another player (against the computer, or both seats yours): your latest
    move goes, with the computer's replies after it, so it is your turn again; both seats yours: the last
    move. ``takebacks`` counts them. Against another player, in a finished game, or before your first move:
    ``409 takeback_refused`` (or the usual ``game_finished``)."""
    game = move_takeback(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@api.post("/games/{game_id}/draw", response={200: GameOut, **ERRORS}, tags=["games"], summary="Offer a draw")
def offer_draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Offer a draw in a running game between two players. If your opponent had offered one already, this
    agrees and the game ends drawn. Your opponent's move declines the offer; after a declined offer, neither
    player offers again before the next move (``409 draw_refused``)."""
    game = draw_offer(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@api.post(
    "/games/{game_id}/draw/accept", response={200: GameOut, **ERRORS}, tags=["games"], summary="Accept the draw offer"
)
def accept_draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Agree to your opponent's draw offer: the game ends drawn (``result_reason`` ``agreed``)."""
    game = draw_accept(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@api.post(
    "/games/{game_id}/draw/decline", response={200: GameOut, **ERRORS}, tags=["games"],
    summary="Decline or withdraw a draw offer",
)
def decline_draw(request: HttpRequest, game_id: int) -> dict[str, Any]:
    game = draw_decline(game=_visible_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


# Anything else under /api/ ------------------------------------------------------------------------------

ALL_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def _not_allowed_view(allowed: list[str], with_id: bool) -> Any:
    def answer(request: HttpRequest) -> HttpResponse:
        response = _error(
            request, 405, "method_not_allowed", f"{request.method} is not allowed here; use {', '.join(allowed)}"
        )
        response["Allow"] = ", ".join(allowed)
        return response

    if not with_id:
        return answer

    def answer_for_game(request: HttpRequest, game_id: str) -> HttpResponse:
        return answer(request)

    return answer_for_game


def _answer_other_methods_in_json() -> None:
    """ninja answers a wrong method with a bare text 405; give each path a JSON one (kept out of the schema)."""
    for path, view in list(api.default_router.path_operations.items()):
        allowed = sorted({method for op in view.operations for method in op.methods})
        missing = [m for m in ALL_METHODS if m not in allowed]
        if missing:
            api.api_operation(missing, path, auth=None, include_in_schema=False)(
                _not_allowed_view(allowed, "{game_id}" in path)
            )


_answer_other_methods_in_json()


@api.api_operation(
    list(ALL_METHODS), "/{path:rest}", auth=None, include_in_schema=False,
)
def unknown_endpoint(request: HttpRequest, rest: str) -> HttpResponse:
    return _error(request, 404, "not_found", f"there is no API endpoint /api/{rest}; see /api/docs")


__all__ = ["api", "error_code", "game_state", "game_summary"]
