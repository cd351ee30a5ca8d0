"""The lobby of the home page: games waiting for the player's move, challenges to accept, the player's own, games
to watch; and their version.

The rows are dicts of words for ``games/home.html#lobby_live``; a game's board beyond its variant's name
("7 x 7") is ``pov.variant_detail``, as in the history's rows (``pov.game_row``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from ...models import Game
from ...pov import other_side, variant_detail
from ...rating.glicko2 import is_provisional
from ...selectors import (
    bots,
    challenges_for,
    live_games,
    my_challenges,
    my_games_mark,
    open_challenges,
    open_seeks,
    variant_label,
    with_creator_rating,
    your_turn_games,
)
from ..forms import NewGameForm
from .seeks import quick_pairing_context, seek_rows

LOBBY_POLL = "5s"  # how often the home page asks whether the lobby changed while the push is down


def challenge_row(request: HttpRequest, game: Game) -> dict[str, Any]:
    side = game.open_side() or "X"
    rating = getattr(game, "creator_rating", None)
    return {
        "game": game,
        "label": variant_label(game.variant),
        "detail": variant_detail(game),
        "creator": game.created_by.display_name,
        # in the challenge's pool, "?" while provisional (no annotation: a list that does not show ratings)
        "creator_rating": (
            f"{round(rating)}{'?' if is_provisional(getattr(game, 'creator_deviation', None)) else ''}"
            if rating
            else None
        ),
        "their_side": other_side(side),
        "your_side": side,
        "invitee": game.invitee.display_name if game.invitee_id else "",
        "clock": game.clock,  # the time control ("3+2", "3d"), "" for none
        "share_url": request.build_absolute_uri(reverse("games:detail", args=[game.pk])),
    }


def lobby_live_context(request: HttpRequest) -> dict[str, Any]:
    """The lobby's lists and their version.

    ``lobby_version`` changes whenever a list gains or loses a game or one of its games changes (every change to
    a game bumps its ``version``): the page's poll sends it back and gets 204 while it holds.
    """
    player = request.user
    lists = [
        list(with_creator_rating(open_challenges(player))), list(with_creator_rating(challenges_for(player))),
        list(my_challenges(player)), list(live_games(player)), list(your_turn_games(player)),
    ]
    open_list, for_me, mine, live, to_move = lists
    now = timezone.now()
    seeks = open_seeks(now=now)  # quick pairing: who is looking for a game
    # ... and whenever one of this player's games against someone else moves on (the history's table)
    signature = repr(
        [[[(g.pk, g.version) for g in games] for games in lists], my_games_mark(player), [s.pk for s in seeks]]
    )
    return {
        "open_challenges": [challenge_row(request, g) for g in open_list],
        "challenges_for_me": [challenge_row(request, g) for g in for_me],
        "my_challenges": [challenge_row(request, g) for g in mine],
        "live_games": [
            {"game": g, "label": variant_label(g.variant), "x": g.seat_label("X"), "o": g.seat_label("O")}
            for g in live
        ],
        "your_turn_games": [
            {"game": g, "label": variant_label(g.variant), "opponent": g.seat_label(other_side(g.to_move))}
            for g in to_move
        ],
        "seeks": seek_rows(seeks, player, now),
        "lobby_version": hashlib.sha256(signature.encode()).hexdigest()[:16],
        "lobby_poll": LOBBY_POLL,
    }


def lobby_context(request: HttpRequest, *, board: str | None = None, note: str = "") -> dict[str, Any]:
    """The home page: quick pairing's tiles (of ``board``; ``note``: what the panel says first), the lobby's live
    lists and the form to challenge someone."""
    return {
        **lobby_live_context(request),
        **quick_pairing_context(request.user, board=board, note=note),
        "challenge_form": NewGameForm(initial={"opponent": "human"}, auto_id="challenge_%s"),
        "bots": bots(),  # bot accounts to name in the challenge (issue 33)
    }
