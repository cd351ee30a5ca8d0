"""Arena tournaments: making one, joining, withdrawing, being there (pings), going berserk, the site's schedule.

The rules are ``games.arena`` (pure); the pairing and the end are ``arena_pairing`` (run by the task workers, never
in a web request), a game's points ``arena_scores``. An arena is made by any signed-in player (staff also from the
admin): the board as the new-game form takes it, a real-time clock (``M+S``), 10 to 120 minutes, a start (now or
up to a week ahead), rated or casual, an optional password (stored hashed), berserk allowed or not. The site also
schedules a few each hour for its busiest pools (``schedule_arenas``; the setting ``ARENA_SCHEDULE`` turns it off).

Joining locks the arena's row, as pairing does, so a player joining while a pairing is being made is either in it
or in the next one. A withdrawn player keeps their score and may join again. A joined player is paired only while
their arena page, game page or API client asks about the arena (``arena_ping``: ``seen``) at least every 30 seconds.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from ..arena import MAX_MINUTES, MAX_PASSWORD, MAX_STARTS_IN, MIN_MINUTES
from ..engine import get_variant, shown
from ..engine.clock import InvalidTimeControl, TimeControl
from ..errors import ArenaFinished, ArenaPassword, BerserkRefused, InvalidArena, NotInArena, NotSeated
from ..live import arena_changed, changed
from ..models import Arena, ArenaPairing, ArenaPlayer, Game, Rating
from ..rating.glicko2 import INITIAL_RATING
from ..rating.pools import Pool, pool_key
from ..selectors import game_for_viewer
from ..standings import arena_by_id
from .bots import check_person
from .common import check_playable

#: the site's own arenas when no pool has been busy lately: (variant, options, clock)
DEFAULT_SCHEDULE = (("classic", {}, "1+0"), ("ultimate", {}, "3+2"), ("mnk", {"rows": 15, "cols": 15, "k": 5}, "5+3"))
#: a ping rewrites ``seen`` only once it is this old (presence counts 30 seconds)
PING_GRAIN = timedelta(seconds=3)
#: how many arenas the site schedules each hour, and how long each lasts
SCHEDULED_POOLS = 3
SCHEDULED_MINUTES = 30


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidArena(f"{name} must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def check_terms(*, variant: Any, options: Any, clock: Any) -> dict[str, Any]:
    """An arena's board and clock, checked and written as stored: variant, options, clock and pool."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidArena(f"options are a mapping of option names to values, not {type(options).__name__}")
    if not isinstance(variant, str):
        raise InvalidArena(f"variant must be a variant's key, not {shown(variant)}")
    try:
        variant_obj = get_variant(variant, **options)
    except (ValueError, TypeError) as err:
        raise InvalidArena(str(err)) from None
    if not isinstance(clock, str):
        raise InvalidArena(f"clock must be written M+S (e.g. 3+2), not {shown(clock)}")
    try:
        control = TimeControl.parse(clock)
    except InvalidTimeControl as err:
        raise InvalidArena(f"clock: {err}") from None
    if control.kind != "realtime":
        raise InvalidArena(f"an arena's clock is real time, M+S (e.g. 3+2), not {shown(clock)}")
    options = dict(variant_obj.options)
    return {
        "variant": variant_obj.key, "options": options, "clock": str(control),
        "pool": pool_key(variant_obj.key, options, control.speed),
    }


def arena_create(
    *, player, variant: Any, options: Any = None, clock: Any, minutes: Any, starts_in: Any = 0, rated: Any = True,
    name: Any = "", password: Any = "", berserk: Any = True, scheduled: bool = False, now: datetime | None = None,
) -> Arena:
    """A new arena made by ``player`` (None: the site's schedule), starting ``starts_in`` seconds from now.
    InvalidArena for anything the site does not allow; nothing is stored then."""
    if player is not None:
        check_person(player, "make an arena")  # arenas are people's; bots play the challenges they accept
    terms = check_terms(variant=variant, options=options, clock=clock)
    minutes = _whole("minutes", minutes, MIN_MINUTES, MAX_MINUTES)
    starts_in = _whole("starts_in", starts_in, 0, int(MAX_STARTS_IN.total_seconds()))
    for flag, value in (("rated", rated), ("berserk", berserk)):
        if not isinstance(value, bool):
            raise InvalidArena(f"{flag} is true or false, not {shown(value)}")
    if not isinstance(name, str) or not isinstance(password, str):
        raise InvalidArena("the name and the password are text")
    name = " ".join(name.split())
    if len(name) > 100 or "\x00" in name:
        raise InvalidArena("a name is at most 100 characters, without NUL")
    if len(password) > MAX_PASSWORD or "\x00" in password:
        raise InvalidArena(f"a password is at most {MAX_PASSWORD} characters, without NUL")
    now = now or timezone.now()
    starts_at = now + timedelta(seconds=starts_in)
    label = Pool.parse(terms["pool"]).label.rsplit(" · ", 1)[0]
    with transaction.atomic():
        arena = Arena.objects.create(
            **terms, name=name or f"{label} {terms['clock']} arena", minutes=minutes, starts_at=starts_at,
            ends_at=starts_at + timedelta(minutes=minutes), rated=rated, berserk=berserk,
            password=make_password(password) if password else "", created_by=player, scheduled=scheduled,
        )
        arena_changed(arena.pk)
    return arena


def _rating(player, pool: str) -> float:
    found = Rating.objects.filter(player=player, pool=pool, games__gt=0).values_list("rating", flat=True).first()
    return INITIAL_RATING if found is None else found


def arena_join(*, arena: Arena | int, player, password: Any = "", now: datetime | None = None) -> ArenaPlayer:
    """``player`` joins ``arena`` (or comes back after withdrawing, keeping their score): paired as soon as it runs
    and someone is free. ArenaFinished once it is over; ArenaPassword for a protected one without its password
    (a player coming back needs none)."""
    check_person(player, "join an arena")
    with transaction.atomic():
        locked = Arena.objects.select_for_update(no_key=True).filter(pk=arena_by_id(_id(arena)).pk).get()
        now = now or timezone.now()  # read under the lock: the moment the player is in
        if locked.status(now) == "finished":
            raise ArenaFinished("this arena is over: join another one")
        entry = ArenaPlayer.objects.select_for_update().filter(arena=locked, player=player).first()
        if entry is None:
            if locked.protected and not (isinstance(password, str) and check_password(password, locked.password)):
                raise ArenaPassword("this arena asks for a password" if not password else "wrong password")
            entry = ArenaPlayer.objects.create(
                arena=locked, player=player, rating=_rating(player, locked.pool), joined=now, seen=now, free_since=now,
            )
        else:
            entry.withdrawn = False
            entry.seen = now
            if entry.current_game_id is None:
                entry.free_since = now
            entry.save(update_fields=["withdrawn", "seen", "free_since"])
        arena_changed(locked.pk, player.pk)
    return entry


def _id(arena: Arena | int) -> Any:
    return arena.pk if isinstance(arena, Arena) else arena


def arena_withdraw(*, arena: Arena | int, player) -> ArenaPlayer:
    """``player`` stops being paired in ``arena``: they keep their score (and a game they are playing goes on) and
    may join again. NotInArena if they never joined."""
    with transaction.atomic():
        locked = Arena.objects.select_for_update(no_key=True).filter(pk=arena_by_id(_id(arena)).pk).get()
        entry = ArenaPlayer.objects.select_for_update().filter(arena=locked, player=player).first()
        if entry is None:
            raise NotInArena("you have not joined this arena")
        if not entry.withdrawn:
            entry.withdrawn = True
            entry.save(update_fields=["withdrawn"])
            arena_changed(locked.pk, player.pk)
    return entry


def arena_ping(*, arena: Arena | int, player, now: datetime | None = None) -> ArenaPlayer | None:
    """``player`` is there (their arena page, game page or API client asked): they may be paired for the next 30
    seconds. Returns their row (None if they never joined)."""
    now = now or timezone.now()
    arena_id = _id(arena)
    if getattr(player, "pk", None) is None:
        return None
    # written at most every few seconds: a bot asking ten times a second costs one write, not ten
    stale = now - PING_GRAIN
    ArenaPlayer.objects.filter(arena_id=arena_id, player_id=player.pk, seen__lt=stale).update(seen=now)
    return ArenaPlayer.objects.filter(arena_id=arena_id, player_id=player.pk).first()


def arena_berserk(*, game: Game | int, player) -> Game:
    """``player`` goes berserk in an arena game, before their first move: their own clock is halved, and a win of
    at least a few of their moves earns an extra point. BerserkRefused otherwise (not an arena game, berserk not
    allowed in this arena, already done, a first move already made)."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        check_playable(locked)
        pairing = (ArenaPairing.objects.select_for_update(of=("self",)).select_related("arena").filter(game=locked)
                   .order_by("pk").first())
        if pairing is None:
            raise BerserkRefused("berserk is for arena games")
        if not pairing.arena.berserk:
            raise BerserkRefused("this arena does not allow berserk")
        side = sides[0]
        if pairing.berserk_of(side):
            raise BerserkRefused("you have gone berserk already in this game")
        if locked.ply >= (1 if side == "X" else 2) or locked.clock_running:
            raise BerserkRefused("berserk is only before your first move")
        field = f"clock_{side.lower()}_ms"
        setattr(locked, field, getattr(locked, field) // 2)
        locked.version += 1
        locked.save(update_fields=[field, "version", "updated"])
        setattr(pairing, f"{side.lower()}_berserk", True)
        pairing.save(update_fields=[f"{side.lower()}_berserk"])
        changed(locked)
        arena_changed(pairing.arena_id)
    return locked


def busiest_pools(*, now: datetime, count: int = SCHEDULED_POOLS) -> list[tuple[str, dict[str, Any], str]]:
    """(variant, options, clock) of the real-time pools most played in the last day, the defaults after them."""
    busy = (
        Game.objects.filter(finished__gte=now - timedelta(days=1), clock__contains="+").exclude(pool="")
        .values("pool", "clock").annotate(played=Count("id")).order_by("-played", "pool", "clock")[:count]
    )
    chosen: list[tuple[str, dict[str, Any], str]] = []
    for row in busy:
        try:
            variant, options = Pool.parse(row["pool"]).game
        except ValueError:
            continue
        chosen.append((variant, options, row["clock"]))
    for default in DEFAULT_SCHEDULE:
        if len(chosen) >= count:
            break
        if default not in chosen:
            chosen.append(default)
    return chosen[:count]


def schedule_arenas(*, now: datetime | None = None) -> list[Arena]:
    """The site's own arenas: for each of the busiest pools, one starting at the next full hour, unless there is
    one already. Off when the setting ``ARENA_SCHEDULE`` is. The workers' sweep calls it."""
    if not settings.ARENA_SCHEDULE:
        return []
    now = now or timezone.now()
    start = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    made = []
    for variant, options, clock in busiest_pools(now=now):
        terms = check_terms(variant=variant, options=options, clock=clock)
        if Arena.objects.filter(scheduled=True, pool=terms["pool"], clock=terms["clock"], starts_at=start).exists():
            continue
        made.append(arena_create(
            player=None, variant=variant, options=options, clock=clock, minutes=SCHEDULED_MINUTES, starts_in=0,
            scheduled=True, now=start,
        ))
    return made
