"""The game page's context (``games/game.html`` and its ``#play`` partial), built on one ``GameView``.

Everything the templates show about the game as this viewer sees it is read from the view (``view.can_resign``,
``view.status_text``, ``view.name(move)``); this module adds only what is the page's own: its URLs, the board
and move list to draw, how often the page asks for news, its title and what a screen reader announces.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from ...models import Game
from ...pov import GameView, clock_text, other_side
from .arenas import game_arena
from .board import live_board
from .drawn import draw_each
from .moves import move_pairs, move_rows
from .swap2 import opening_context

#: after a two-player game ends, its players' pages keep polling this long for a rematch offer
REMATCH_WINDOW = timedelta(minutes=10)
#: polling period while something can change now, and while only a rematch offer can
POLL_EVERY = "1s"
POLL_EVERY_FINISHED = "2s"
#: a player's page in a background tab still asks, less often, so that its title can say "Your turn"
POLL_HIDDEN = "10s"

#: the game's URLs the #play partial uses, by the names the templates read (``urls.move``)
GAME_URLS = (
    ("move", "move"), ("computer", "computer_move"), ("resign", "resign"), ("poll", "poll"), ("draw", "draw"),
    ("draw_accept", "draw_accept"), ("draw_decline", "draw_decline"), ("claim", "claim"), ("takeback", "takeback"),
    ("again", "again"), ("hint", "hint"), ("rematch", "rematch"), ("rematch_accept", "rematch_accept"),
    ("rematch_decline", "rematch_decline"), ("replay", "replay"), ("accept", "accept"), ("cancel", "cancel"),
    ("decline", "decline"), ("record", "record"), ("abort", "abort"), ("berserk", "berserk"),
)


@cache
def _game_url_format(name: str) -> str:
    """``reverse(name, args=[pk])`` as a format string: a move's answer needs many game URLs."""
    marker = 987654321
    return reverse(name, args=[marker]).replace(str(marker), "{}")


def game_urls(pk: int) -> dict[str, str]:
    return {key: _game_url_format(f"games:{name}").format(pk) for key, name in GAME_URLS}


def poll_every(view: GameView) -> str:
    """How often this viewer's page asks for news ("" = never): only where someone else can change the game.

    Spectators (and the invitee of a challenge) while it is not finished; anyone while a computer is to move (it
    thinks in a worker); a player of a game between two people while it waits or runs, then for a while after the
    end for a rematch offer, and as long as one waits for its answer. Not on one screen: the page makes every
    change. (Pushed notices come first, static/js/live.js: these polls are the fallback.)
    """
    game = view.game
    if view.computer_to_move and view.running:
        return POLL_EVERY
    if not view.sides:
        return "" if game.is_finished else POLL_EVERY
    if not (game.is_two_players or (game.status == Game.Status.OPEN and game.opponent == "human")):
        return ""
    if not game.is_finished:
        return POLL_EVERY
    if view.rematch_id is not None:
        return ""
    # an offer waiting for its answer keeps both pages listening, however late it was made
    waiting = game.rematch_offered_by_id is not None and not game.rematch_declined
    if waiting or (game.finished and timezone.now() - game.finished < REMATCH_WINDOW):
        return POLL_EVERY_FINISHED
    return ""


def claim_poll_at(view: GameView) -> int | None:
    """For the player waiting on an opponent who stopped playing: the moment (epoch seconds) the page's poll asks
    for the page again, so that the Claim button appears without a reload."""
    if view.claim_after is None or view.can_claim_win:
        return None
    return int(view.claim_after.timestamp()) + 1


def your_turn(view: GameView) -> bool:
    """A running game between two people, and it is this viewer's move."""
    return bool(view.two_players and view.running and view.game.to_move in view.sides)


def page_title(view: GameView) -> str:
    """The tab's title says when the other player has moved (or joined), even from the background."""
    turn = "Your turn · " if your_turn(view) else ""
    return f"{turn}Game {view.game.pk} · {view.variant.describe()}"


def seats(game: Game) -> dict[str, Any]:
    """Who sits where, for the replay's players line."""
    return {
        "x_label": game.seat_label("X"),
        "o_label": game.seat_label("O"),
        "x_rating": game.rating_change("X"),
        "o_rating": game.rating_change("O"),
    }


def clock_face(view: GameView, side: str) -> dict[str, Any] | None:
    """A seat's clock (None without one): the time left when the page was drawn, in ms and in words, whether it
    runs and whether it is low. static/js/clock.js counts the running one down from there."""
    clock = view.clock
    if clock is None:
        return None
    return {
        "side": side, "ms": clock.ms[side], "text": clock.text(side), "running": clock.running == side,
        "low": clock.ms[side] < clock.low_ms, "low_ms": clock.low_ms, "kind": clock.kind,
        "label": view.seat_label(side), "own": side in view.sides,
    }


def seat_bars(view: GameView) -> list[dict[str, Any]]:
    """The two seats beside the board, the top one first: each side's name, rating and clock. The viewer's own
    side is at the bottom (X on one screen, for spectators and in watched games), as a player sits at a board."""
    game = view.game
    bottom = "O" if view.sides == ("O",) else "X"
    to_move = view.to_move if view.running else None
    bars = []
    for side in (other_side(bottom), bottom):
        change = game.rating_change(side)
        bars.append({
            "side": side, "mark": side.lower(), "place": "bottom" if side == bottom else "top",
            "label": game.seat_label(side), "you": side in view.sides and len(view.sides) == 1,
            "rating_change": change, "rating_now": None if change else game.rating_now(side),
            "to_move": to_move == side, "clock": clock_face(view, side),
        })
    return bars


def premove(request: HttpRequest, view: GameView) -> bool:
    """Whether this page may premove (static/js/board.js): the player asked for it, and this is their running game
    with a clock against another person."""
    return bool(
        getattr(request.user, "premove", False) and view.clock is not None and view.running
        and len(view.sides) == 1 and view.two_players
    )


def play_context(
    request: HttpRequest, view: GameView, *, error: str = "", said: str = "", oob: bool = False,
    new_page: bool = False, hint_pending: bool = False,
) -> dict[str, Any]:
    """The context of the game page and of its ``#play`` partial: the view and what the page draws of it."""
    game = view.game
    rows = move_pairs(move_rows(view))
    every = poll_every(view) or (POLL_EVERY if hint_pending else "")
    return {
        "view": view,
        "game": game,
        "urls": game_urls(game.pk),
        "board": live_board(view),
        "moves": rows,
        "moves_html": draw_each("games/board.html#move_rows", "moves", rows),
        "nested": view.variant.nested,
        "variant_label": view.variant.describe(),
        "page_title": page_title(view),
        "your_turn": your_turn(view),  # data-your-turn: static/js/attention.js notifies a background tab
        # what a screen reader announces after an htmx answer: the hint, or the latest move (or what was just
        # done instead, ``said``) and the status, then an offer waiting
        "hint_name": view.name(view.hint) if view.hint is not None else "",
        "announce": f"Hint: {view.name(view.hint)}." if view.hint is not None else view.announcement(said=said),
        "error": error,
        "hint_pending": hint_pending,
        "poll_every": every,
        "poll_hidden": POLL_HIDDEN if every and view.sides and not game.is_finished else "",
        "claim_poll_at": claim_poll_at(view),
        "share_url": request.build_absolute_uri(reverse("games:detail", args=[game.pk])) if view.can_cancel else "",
        "invitee_label": game.invitee.display_name if game.invitee_id else "",
        "oob": oob,
        "new_page": new_page,
        # the seats beside the board, in #play: their clocks and an accepted challenge's new player come with
        # every answer
        "seat_bars": seat_bars(view),
        "premove": premove(request, view),
        "clock_control": view.clock.control if view.clock else "",
        **first_move(game, view),
        **game_arena(view),
        **opening_context(view),
    }


def first_move(game: Game, view: GameView) -> dict[str, Any]:
    """A game with a clock before both first moves: the side to move must make its own by ``first_move_by`` (else
    the game is aborted); ``first_move_ms`` is the time left, which static/js/clock.js counts down."""
    deadline = game.clock_deadline if view.clock and not view.clock.running and view.running else None
    if deadline is None:
        return {"first_move_by": None}
    left = max(0, int((deadline - timezone.now()).total_seconds() * 1000))
    return {"first_move_by": deadline, "first_move_ms": left, "first_move_left": clock_text(left)}
