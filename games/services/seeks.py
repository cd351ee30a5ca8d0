"""Quick pairing: a player seeks a game (variant and board, time control, rated or casual) and is paired with the
waiting player closest in rating, within a window that widens with time waited (``games.rating.matchmaking``, the rule).

- ``seek_create`` replaces the player's seek (one each) and at once looks for a partner; ``seek_ping`` (the
  seeker's page asks every couple of seconds, an API client likewise) notes the seeker is still there and looks
  again, the window wider each time. A seek not asked about for ``SEEK_TTL`` seconds is dropped: left out of
  every read at once, deleted by the next ``seek_create`` and by the workers' sweep (``sweep_seeks``).
- Pairing happens in one transaction with the rows locked (``select_for_update``; on PostgreSQL the other
  seekers' rows with ``skip_locked``, so two seekers pairing at once never wait on each other; on SQLite the
  settings open every transaction with BEGIN IMMEDIATE, so pairings queue): two seekers pairing at once make
  exactly one game. The game is an accepted challenge between the two (sides drawn at random, rated unless the
  seek was casual), made by the seeker who waited longer; both seeks then point at it (``Seek.game``): they
  leave the lobby and stay only as the answer to their seekers' next ask, for ``KEEP_PAIRED``.
- ``seek_accept``: a player's "Play" on someone's seek in the lobby pairs them at once, whatever the window
  (the window is for automatic pairing; choosing an opponent by hand is the player's call).
- Every change notifies the lobby and the seekers' pages (``games.live``), and the new game notifies both
  players' pages (``player:<id>``), so a waiting page goes to the game at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..engine import get_variant, shown
from ..engine.clock import InvalidTimeControl, TimeControl
from ..errors import InvalidGameSettings, NotYourSeek, OwnSeek, SeekNotFound, SeekTaken
from ..live import seeks_changed
from ..models import Game, Opponent, Rating, Seek
from ..rating.glicko2 import INITIAL_RATING
from ..rating.matchmaking import SEEK_TTL, Waiting, pick_opponent
from ..rating.pools import pool_key
from ..selectors import fresh_seeks
from .bots import check_person
from .challenges import challenge_accept
from .create import game_create

#: a paired seek answers its seeker's asks this long, then the sweep deletes it
KEEP_PAIRED = timedelta(minutes=10)


class InvalidSeek(InvalidGameSettings):
    """A seek asked for a variant, options, time control or rated flag the site does not offer."""


def _check(*, variant: Any, options: Any, clock: Any, rated: Any) -> dict[str, Any]:
    """The seek's terms, checked and written canonically: variant, options, clock, rated and pool."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidSeek(f"options are a mapping of option names to values, not {type(options).__name__}")
    if not isinstance(variant, str):
        raise InvalidSeek(f"variant must be a variant's key, not {shown(variant)}")
    try:
        variant_obj = get_variant(variant, **options)
    except (ValueError, TypeError) as err:
        raise InvalidSeek(str(err)) from None
    try:
        control = TimeControl.parse("none" if clock is None else clock)
    except InvalidTimeControl as err:
        raise InvalidSeek(f"clock: {err}") from None
    if not isinstance(rated, bool):
        raise InvalidSeek(f"rated is true or false, not {shown(rated)}")
    options = dict(variant_obj.options)
    return {
        "variant": variant_obj.key,
        "options": options,
        "clock": str(control),
        "rated": rated,
        "pool": pool_key(variant_obj.key, options, control.speed),
    }


def _rating(player, pool: str) -> float:
    """The player's rating in ``pool`` (as a game notes it: the starting rating before a first rated game)."""
    found = Rating.objects.filter(player=player, pool=pool, games__gt=0).values_list("rating", flat=True).first()
    return INITIAL_RATING if found is None else found


def _drop_stale(now: datetime) -> None:
    stale = Seek.objects.filter(game__isnull=True, seen__lt=now - timedelta(seconds=SEEK_TTL))
    players = list(stale.values_list("player_id", flat=True))
    if players:
        stale.delete()
        seeks_changed(*players)


def seek_create(
    *,
    player,
    variant: str,
    options: dict[str, Any] | None = None,
    clock: str | None = "none",
    rated: bool = True,
    now: datetime | None = None,
) -> Seek:
    """``player`` seeks a game; their earlier seek, if any, is replaced. Paired at once if someone compatible is
    waiting within the window (``seek.game`` is then the new game). InvalidSeek for bad terms: nothing stored."""
    check_person(player, "seek a game in quick pairing")  # people seek people; bots are challenged by name
    terms = _check(variant=variant, options=options, clock=clock, rated=rated)
    now = now or timezone.now()
    with transaction.atomic():
        _drop_stale(now)
        Seek.objects.filter(player=player).delete()
        seek = Seek.objects.create(player=player, **terms, rating=_rating(player, terms["pool"]), created=now, seen=now)
        seeks_changed(player.pk)
        _pair(seek, now)
    seek.refresh_from_db()
    return seek


def _own(seek_id: int, player) -> Seek:
    seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
    if seek is None:
        raise SeekNotFound(f"there is no seek {seek_id}: it was cancelled, replaced or expired")
    if seek.player_id != getattr(player, "pk", None):
        raise NotYourSeek("this seek is another player's")
    return seek


def seek_ping(*, seek_id: int, player, now: datetime | None = None) -> Seek:
    """The seeker is still there: the seek is seen now and looks for a partner again (the window a little wider).
    Returns it, paired (``game`` set) or still waiting. SeekNotFound once it is gone, NotYourSeek for another's."""
    now = now or timezone.now()
    with transaction.atomic():
        seek = _own(seek_id, player)
        if seek.game_id is None:
            seek.seen = now
            seek.save(update_fields=["seen"])
            _pair(seek, now)
            seek.refresh_from_db()
    return seek


def seek_cancel(*, seek_id: int, player) -> None:
    """The seeker stops waiting: the seek is deleted. SeekTaken if it was paired meanwhile (the game is on)."""
    with transaction.atomic():
        seek = _own(seek_id, player)
        if seek.game_id is not None:
            raise SeekTaken(f"too late to cancel: you were paired, game {seek.game_id} has started")
        seek.delete()
        seeks_changed(player.pk)


def seek_accept(*, seek_id: int, player, now: datetime | None = None) -> Game:
    """``player`` plays another player's seek from the lobby at once, on its terms; ``player``'s own seek, if
    any, is withdrawn. OwnSeek for one's own, SeekTaken if someone was first, SeekNotFound once it is gone."""
    check_person(player, "play a seek in quick pairing")
    now = now or timezone.now()
    with transaction.atomic():
        seek = Seek.objects.select_for_update(of=("self",)).select_related("player").filter(pk=seek_id).first()
        if seek is None or (seek.game_id is None and seek.seen < now - timedelta(seconds=SEEK_TTL)):
            raise SeekNotFound("this seek is no longer there: its player cancelled it or left")
        if seek.player_id == getattr(player, "pk", None):
            raise OwnSeek("this is your own seek: wait for someone to play it, or cancel it")
        if seek.game_id is not None:
            raise SeekTaken("someone else was first: this seek has been paired")
        Seek.objects.filter(player=player, game__isnull=True).delete()
        _start(seek, creator=seek.player, joiner=player, seeks=[seek])
    return Game.objects.get(pk=seek.game_id)


def _pair(seek: Seek, now: datetime) -> None:
    """In the caller's transaction: pair ``seek`` (if still open) with the closest compatible seek in the window."""
    me = Seek.objects.select_for_update().filter(pk=seek.pk, game__isnull=True).first()
    if me is None:
        return
    candidates = {
        other.pk: other
        for other in fresh_seeks(now=now)
        .filter(pool=me.pool, clock=me.clock, rated=me.rated)
        .exclude(player_id=me.player_id)
        .select_for_update(skip_locked=True)
    }
    chosen = pick_opponent(
        me.rating,
        (now - me.created).total_seconds(),
        [Waiting(pk, other.rating, (now - other.created).total_seconds()) for pk, other in candidates.items()],
    )
    if chosen is None:
        return
    other = candidates[chosen.id]
    older, newer = sorted((me, other), key=lambda s: (s.created, s.pk))
    _start(older, creator=older.player, joiner=newer.player, seeks=[me, other])


def _start(terms: Seek, *, creator, joiner, seeks: list[Seek]) -> None:
    """The game of a pairing: an open challenge by ``creator`` on the seek's terms, sides drawn at random,
    accepted by ``joiner`` in the same transaction; ``seeks`` then point at it."""
    game = game_create(
        player=creator,
        variant=terms.variant,
        options=terms.options,
        opponent=Opponent.HUMAN,
        side="random",
        clock=terms.clock,
    )
    if not terms.rated:
        Game.objects.filter(pk=game.pk).update(unrated_reason="casual")
    game = challenge_accept(game=game, player=joiner)
    Seek.objects.filter(pk__in=[s.pk for s in seeks]).update(game=game)
    for seek in seeks:
        seek.game = game
    seeks_changed(creator.pk, joiner.pk)


def sweep_seeks(*, now: datetime | None = None) -> int:
    """Delete the seeks whose seeker stopped asking (``SEEK_TTL``) and paired ones kept past ``KEEP_PAIRED``;
    the workers' periodic sweep runs it. Returns how many were deleted."""
    now = now or timezone.now()
    with transaction.atomic():
        stale = Seek.objects.filter(game__isnull=True, seen__lt=now - timedelta(seconds=SEEK_TTL))
        players = list(stale.values_list("player_id", flat=True))
        dropped, _ = stale.delete()
        old, _ = Seek.objects.filter(game__isnull=False, seen__lt=now - KEEP_PAIRED).delete()
        if players:
            seeks_changed(*players)
    return dropped + old
