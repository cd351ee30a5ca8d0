"""Reads of arena tournaments: one arena, the lists (upcoming, running, finished), the standings and a player's row.

The standings are ranked as lichess ranks an arena: score, then the rating the player joined with, then who joined
first (``ArenaPlayer``'s ordering); the pages and the API show them 20 to a page (``games.arena.STANDINGS_PAGE``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, QuerySet

from .arena import STANDINGS_PAGE
from .errors import ArenaNotFound
from .models import Arena, ArenaPlayer

#: arenas each list shows at most
LIST_SIZE = 30
#: the largest id an arena can have
MAX_ID = 2**63 - 1


def arena_by_id(arena_id: Any) -> Arena:
    """The arena ``arena_id``; ArenaNotFound when there is none (or the id is no id)."""
    if isinstance(arena_id, bool) or not isinstance(arena_id, int) or not 1 <= arena_id <= MAX_ID:
        raise ArenaNotFound("there is no such arena")
    arena = Arena.objects.filter(pk=arena_id).select_related("created_by").first()
    if arena is None:
        raise ArenaNotFound(f"there is no arena {arena_id}")
    return arena


def _with_players(arenas: QuerySet[Arena]) -> list[Arena]:
    return list(arenas.annotate(player_count=Count("entries")).select_related("created_by")[:LIST_SIZE])


def arena_lists(*, now: datetime) -> dict[str, list[Arena]]:
    """The arenas to list: upcoming (soonest first), running (ending soonest first), finished (latest first)."""
    return {
        "upcoming": _with_players(Arena.objects.filter(starts_at__gt=now).order_by("starts_at", "id")),
        "running": _with_players(
            Arena.objects.filter(starts_at__lte=now, ends_at__gt=now, closed__isnull=True).order_by("ends_at", "id")
        ),
        "finished": _with_players(
            Arena.objects.exclude(starts_at__gt=now).exclude(ends_at__gt=now, closed__isnull=True)
            .order_by("-ends_at", "-id")
        ),
    }


@dataclass(frozen=True)
class Row:
    """A standings row as shown: its rank (1 for the first) and the player's entry."""

    rank: int
    entry: ArenaPlayer


@dataclass(frozen=True)
class Standings:
    rows: list[Row]
    page: int
    pages: int
    count: int


def standings(arena: Arena, *, page: int = 1) -> Standings:
    """One page of ``arena``'s standings (a page past the last shows the last)."""
    entries = ArenaPlayer.objects.filter(arena=arena).select_related("player")
    count = entries.count()
    pages = max(1, math.ceil(count / STANDINGS_PAGE))
    page = min(max(1, page), pages)
    start = (page - 1) * STANDINGS_PAGE
    rows = [Row(start + n, entry) for n, entry in enumerate(entries[start: start + STANDINGS_PAGE], start=1)]
    return Standings(rows, page, pages, count)


def podium(arena: Arena) -> list[Row]:
    """The first three of a finished arena (fewer if fewer played); those who played no game are not on it."""
    entries = ArenaPlayer.objects.filter(arena=arena, games__gt=0).select_related("player")[:3]
    return [Row(n, entry) for n, entry in enumerate(entries, start=1)]


def entry_of(arena: Arena | int, player: Any) -> ArenaPlayer | None:
    """``player``'s row in ``arena`` (a player or their id; None if they never joined)."""
    player_id = player if isinstance(player, int) else getattr(player, "pk", None)
    if player_id is None:
        return None
    arena_id = arena.pk if isinstance(arena, Arena) else arena
    return ArenaPlayer.objects.filter(arena_id=arena_id, player_id=player_id).first()
