"""Arena pairing and the arena's end: run by the task workers (``manage.py worker``'s arena loop, every second, and
its sweep), never in a web request.

Pairing is race-safe: each arena's pairing runs in one transaction holding the arena's row lock (as joining does),
so two workers pairing the same arena at once queue, and the second sees the first's games. The lock is PostgreSQL's
``FOR NO KEY UPDATE`` (``no_key``): it queues the arena's own writers but not the foreign-key checks of the rows that
point at the arena (a game's end, committing, checks its ``Game.arena``; with ``FOR UPDATE`` it waited for the end of
the arena, which waited for that game: a deadlock ``make arena-sim`` found). A player's
``current_game`` is set in that transaction and cleared in the one that ends the game (``arena_scores``), so no
player is ever in two games of one arena, and no pair is made twice at once. Only players who are joined, not
withdrawn, free and seen in the last 30 seconds (``games.arena.PRESENCE``) are paired; whom with is
``games.arena.pairing``'s rule.

Each pairing is an ordinary game between two players (``create.game_create`` and ``challenges.challenge_accept``,
as quick pairing makes its games): clocks on the server, rated in its pool (unless the arena is casual), records,
replay, marked with its arena (``Game.arena``). At the arena's end its running games are finished and counted: as a
draw (``Game.Reason.ARENA``), or aborted when a side has not made a first move (worth nothing).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..arena import LAST_PAIRING, PRESENCE
from ..arena.pairing import Entrant, pair
from ..live import arena_changed
from ..models import Arena, ArenaPairing, ArenaPlayer, Game, Opponent
from ..selectors import game_for_viewer
from .challenges import challenge_accept
from .create import game_create
from .endings import end_game
from .timekeeping import abort


def _entrant(entry: ArenaPlayer) -> Entrant:
    return Entrant(
        id=entry.player_id, score=entry.score, rating=entry.rating, last_opponent=entry.last_opponent_id,
        joined=entry.pk, xs=entry.xs, os=entry.os,
    )


def _start(arena: Arena, x: ArenaPlayer, o: ArenaPlayer, now: datetime) -> Game:
    """The game of a pairing, in the caller's transaction: an accepted challenge of X by O on the arena's terms."""
    game = game_create(
        player=x.player, variant=arena.variant, options=arena.options, opponent=Opponent.HUMAN, side="X",
        clock=arena.clock,
    )
    fields = {"arena": arena}
    if not arena.rated:
        fields["unrated_reason"] = "casual"
    Game.objects.filter(pk=game.pk).update(**fields)
    game.arena = arena
    game.unrated_reason = fields.get("unrated_reason", "")
    game = challenge_accept(game=game, player=o.player)
    ArenaPairing.objects.create(arena=arena, game=game, x_entry=x, o_entry=o)
    for entry, side in ((x, "xs"), (o, "os")):
        entry.current_game = game
        entry.free_since = None
        setattr(entry, side, getattr(entry, side) + 1)
        entry.save(update_fields=["current_game", "free_since", side])
    return game


def pair_arena(*, arena_id: int, now: datetime | None = None) -> list[Game]:
    """Pair the free players of a running arena (see the module's words). Returns the games started. ``now``: the
    moment of the pairing (by default the clock's, read once the arena's lock is held: a pairing that waited for the
    lock past the end, or behind the end itself, makes nothing; nor does one in the arena's last two seconds,
    ``LAST_PAIRING``: its games would begin after the end)."""
    with transaction.atomic():
        arena = Arena.objects.select_for_update(no_key=True).filter(pk=arena_id).first()
        now = now or timezone.now()
        if arena is None or arena.status(now) != "running" or arena.ends_at - now < LAST_PAIRING:
            return []
        free = {
            entry.player_id: entry
            for entry in ArenaPlayer.objects.select_for_update(of=("self",)).select_related("player")
            .filter(arena=arena, withdrawn=False, current_game__isnull=True, seen__gte=now - PRESENCE)
        }
        if len(free) < 2:
            return []
        games = [_start(arena, free[x.id], free[o.id], now) for x, o in pair([_entrant(e) for e in free.values()])]
        if games:
            arena_changed(arena.pk, *(pid for game in games for pid in (game.x_player_id, game.o_player_id)))
    return games


def end_arena(*, arena_id: int, now: datetime | None = None) -> int:
    """The arena's end, once ``ends_at`` has come: its running games are finished and counted (a draw, or aborted
    before both first moves), and the standings are final. Returns the games it ended; done once."""
    ended = 0
    with transaction.atomic():
        arena = Arena.objects.select_for_update(no_key=True).filter(pk=arena_id).first()
        now = now or timezone.now()
        if arena is None or arena.closed is not None or now < arena.ends_at:
            return 0
        for game_id in Game.objects.filter(arena=arena, status=Game.Status.ACTIVE).values_list("pk", flat=True):
            locked = game_for_viewer(game_id, None, visible_only=False, for_update=True)
            if locked.status != Game.Status.ACTIVE:
                continue
            if locked.ply < 2:
                abort(locked, now)
            else:
                end_game(locked, Game.Result.DRAW, Game.Reason.ARENA, now=now)
            ended += 1
        arena.closed = now
        arena.save(update_fields=["closed"])
        arena_changed(arena.pk)
    return ended


def sweep_arenas(*, now: datetime | None = None) -> tuple[int, int]:
    """Pair every running arena and end every arena whose time is up: (games started, arenas ended). The workers'
    arena loop calls it every second; several workers at once are harmless (each arena under its row lock)."""
    given = now
    now = now or timezone.now()
    started = ended = 0
    running = Arena.objects.filter(starts_at__lte=now, ends_at__gt=now, closed__isnull=True)
    for arena_id in running.values_list("pk", flat=True):
        started += len(pair_arena(arena_id=arena_id, now=given))  # each reads the clock under its lock
    due = Arena.objects.filter(ends_at__lte=now, closed__isnull=True)
    for arena_id in due.values_list("pk", flat=True):
        end_arena(arena_id=arena_id, now=given)
        ended += 1
    return started, ended
