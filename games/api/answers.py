"""What the routers share: loading the caller's game, and a game as JSON from the caller's point of view.

Every endpoint loads its game through ``selectors.game_for_viewer`` (404 ``not_found`` when there is none or
the caller may not see it: the two look the same). The answer's view of the caller (``your_sides``,
``your_turn``, ``to_move``, the rematch) comes from ``games.pov``, as the pages' does, and every move carries
its cell name (``name``, RULES.md) beside its number.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from ..engine import Variant, side_of_ply
from ..models import SIDES, Game
from ..positions import Position
from ..pov import GameView, SeatsView, game_view, seats_view
from ..selectors import claim_win_after, game_for_viewer, variant_label
from ..services import settled


def load_game(request: HttpRequest, game_id: int) -> Game:
    """Game ``game_id`` if the caller may see it; GameNotFound (404 ``not_found``) otherwise. A game whose clock
    says it is over (a flag fell, a first move not made in time) is ended first (``services.settled``)."""
    return settled(game_for_viewer(game_id, request.auth))


# Games as JSON ---------------------------------------------------------------------------------------------


def _game_url(pk: int) -> str:
    try:
        return reverse("games:detail", args=[pk])
    except NoReverseMatch:  # pragma: no cover - the web app not mounted
        return f"/games/{pk}/"


def _seat(game: Game, side: str) -> dict[str, Any]:
    player = game.seat_player(side) if game.seat_player_id(side) is not None else None
    level, strategy = game.seat_computer(side)
    kind = "player" if player is not None else ("computer" if level or strategy else "open")
    if kind == "open" and game.imported:
        kind = "named"
    return {
        "side": side, "kind": kind, "username": player.get_username() if player is not None else None,
        "bot": bool(getattr(player, "is_bot", False)),
        "level": level or None, "strategy": strategy or None, "label": game.seat_label(side),
    }


def _rating(game: Game, side: str) -> dict[str, int] | None:
    change = game.rating_change(side)
    return None if change is None else {key: change[key] for key in ("before", "after", "delta", "provisional")}


def _offered_by(game: Game, player_id: int | None) -> str | None:
    """The name of the seated player who made an offer (already loaded with the seats), or None."""
    if player_id is None:
        return None
    return next(
        (game.seat_player(side).get_username() for side in SIDES if game.seat_player_id(side) == player_id), None
    )


def game_summary(game: Game, seen: GameView | SeatsView) -> dict[str, Any]:
    """A game without its board (lists); ``seen``: the caller's view of it (``pov``)."""
    return {
        "id": game.pk,
        "url": _game_url(game.pk),
        "variant": game.variant,
        "variant_title": variant_label(game.variant),
        "options": game.options or {},
        "opponent": game.opponent,
        "status": game.status,
        "result": game.result or None,
        "result_reason": game.result_reason or None,
        "result_text": game.result_text(),
        "ply": game.ply,
        "imported": game.imported,
        "to_move": seen.to_move,
        "seats": [_seat(game, side) for side in SIDES],
        "your_sides": list(seen.sides),
        "your_turn": seen.your_turn,
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
        # the time control as the API takes it ("none" without a clock) and each side's time left right now
        "clock": seen.clock.control if seen.clock else "none",
        "clock_ms": dict(seen.clock.ms) if seen.clock else None,
        "clock_running": seen.clock.running if seen.clock else None,
        "takebacks": game.takebacks,
        "hints": game.hints,
        "ratings": {side: _rating(game, side) for side in SIDES} if game.is_rated else None,
        "pool": game.pool or None,
        "unrated_reason": game.unrated_reason or None,
        "arena": game.arena_id,
        "played_on_from": (
            {"game": game.played_on_from_id, "ply": game.played_on_ply} if game.played_on_from_id else None
        ),
    }


def games_summaries(games: Any, viewer: Any) -> list[dict[str, Any]]:
    """Summaries of a list of games as ``viewer`` sees them (no positions rebuilt)."""
    return [game_summary(game, seats_view(game, viewer)) for game in games]


def move_entry(
    variant: Variant, ply: int, move: int, name: str | None = None, side: str | None = None
) -> dict[str, Any]:
    """One move as the API shows it: its number, its cell name (``name``; ``label`` says the same)."""
    name = name if name is not None else variant.cell_name(move)
    nested = variant.nested
    return {
        "ply": ply,
        "side": side or side_of_ply(ply),  # a game started from a position may start with O
        "move": move,
        "name": name,
        "board": move // 9 if nested else None,
        "position": move % 9 if nested else move,
        "label": name,
    }


def game_state(position: Position, viewer: Any) -> dict[str, Any]:
    """Everything about a game a client needs to draw it and move: summary, cells, legal moves, move list."""
    view = game_view(position, viewer)
    game, state, variant = position.game, position.state, view.variant
    active = view.running
    data = game_summary(game, view)
    data.update(
        rows=variant.rows,
        cols=variant.cols,
        cells=list(state.cells),
        board_winners=list(state.board_winners) if variant.nested else None,
        active_boards=(list(state.active_boards) if active else []) if variant.nested else None,
        legal_moves=state.legal_moves() if active else [],
        moves=[move_entry(variant, m.ply, m.move, m.name, m.side) for m in view.moves],
        rematch=view.rematch_id,
    )
    return data


def play_answer(position: Position, viewer: Any, before: int) -> dict[str, Any]:
    """``game_state`` and ``played``: the moves recorded after the first ``before`` (this request's)."""
    data = game_state(position, viewer)
    data["played"] = data["moves"][before:]
    return data
