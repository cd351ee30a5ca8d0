"""Arena tournaments in words: the lists, an arena's page (its state, the standings, the podium) and what the game
page shows of its arena (``templates/games/arenas.html``, ``arena.html``; the game page's ``#arena_*`` partials)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from ...models import Arena, ArenaPairing, ArenaPlayer, Game
from ...pov import GameView, clock_text
from ...standings import entry_of, podium, standings


def board_words(arena: Arena) -> str:
    return arena.pool_label.rsplit(" · ", 1)[0]


def countdown(arena: Arena, now: datetime) -> dict[str, Any]:
    """What the arena's clock counts down to: its start, or its end ({} once finished); ms and words."""
    status = arena.status(now)
    if status == "finished":
        return {}
    moment = arena.starts_at if status == "upcoming" else arena.ends_at
    ms = max(0, int((moment - now).total_seconds() * 1000))
    return {"words": "Starts in" if status == "upcoming" else "Ends in", "ms": ms, "text": clock_text(ms)}


def arena_row(arena: Arena, now: datetime) -> dict[str, Any]:
    return {
        "arena": arena, "status": arena.status(now), "board": board_words(arena), "players": arena.player_count,
        "countdown": countdown(arena, now),
    }


def arena_lists_context(lists: dict[str, list[Arena]], now: datetime) -> dict[str, Any]:
    return {kind: [arena_row(arena, now) for arena in arenas] for kind, arenas in lists.items()}


def arena_context(arena: Arena, viewer: Any, *, page: int = 1, mine: ArenaPlayer | None = None) -> dict[str, Any]:
    """An arena's page (and its live part): the state, the viewer's own row and game, a page of the standings."""
    now = timezone.now()
    status = arena.status(now)
    table = standings(arena, page=page)
    joined = mine is not None and not mine.withdrawn
    your_game = mine.current_game if mine is not None and mine.current_game_id else None
    return {
        "arena": arena,
        "status": status,
        "board": board_words(arena),
        "countdown": countdown(arena, now),
        "mine": mine,
        "joined": joined,
        "your_game": your_game.pk if your_game else None,
        # the ping takes the page to the player's game unless it is the game they are already playing (moved in): a
        # game paired while the page loaded (no move yet) is gone to at once
        "ping_game": your_game.pk if your_game and your_game.ply else None,
        "can_join": status != "finished" and not joined,
        "needs_password": arena.protected and mine is None,
        "can_withdraw": status != "finished" and joined,
        "table": table,
        "page_range": range(1, table.pages + 1) if table.pages > 1 else (),
        "podium": podium(arena) if status == "finished" else [],
        "live_url": reverse("games:arena_live", args=[arena.pk]),
        "ping_url": reverse("games:arena_ping", args=[arena.pk]),
    }


def game_arena(view: GameView) -> dict[str, Any]:
    """The game page's arena parts: the arena's name and link, Berserk before the viewer's first move, and once the
    game is over the panel that takes its player to their next pairing. Nothing (no query) for other games."""
    game: Game = view.game
    if game.arena_id is None:
        return {"game_arena": None}
    pairing = ArenaPairing.objects.select_related("arena").filter(game_id=game.pk).first()
    if pairing is None:
        return {"game_arena": None}
    arena = pairing.arena
    now = timezone.now()
    side = view.sides[0] if len(view.sides) == 1 else None
    mine = entry_of(arena, view.viewer_id) if side is not None else None
    return {"game_arena": {
        "arena": arena,
        "url": reverse("games:arena", args=[arena.pk]),
        "running": arena.status(now) == "running",
        "berserk": {"X": pairing.x_berserk, "O": pairing.o_berserk},
        "can_berserk": side is not None and arena.berserk and view.running and not pairing.berserk_of(side)
        and game.ply < (1 if side == "X" else 2),
        "next_pairing": side is not None and game.is_finished and arena.status(now) == "running"
        and mine is not None and not mine.withdrawn,
        "ping_url": f"{reverse('games:arena_ping', args=[arena.pk])}?game={game.pk}",
    }}
