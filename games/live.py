"""Live updates: every change to a game reaches the pages open on it at once (server push, games.web's /live/).

Writers: the services call ``changed(game)`` in the transaction of each change; it writes one ``Event`` row, so a
change and its notice commit together, from any process (web or worker) on any machine sharing the database.
Readers: each web process runs one ``Hub`` thread that reads the new events a few times a second (one indexed
query however many pages are open) and hands each to the pages subscribed to its topics: ``game:<id>``, the
badges of ``player:<id>``, and ``lobby``. A page told that something changed asks for its fragment as before
(the same views, the same version checks), so a missed notice costs nothing but speed, and a page whose push
connection drops falls back to polling (static/js/live.js).

This works on SQLite and PostgreSQL alike with no extra server; see docs/operations.md, "Live updates".
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import threading
import time
from collections.abc import Iterable
from datetime import timedelta

from django.db import close_old_connections, connections
from django.utils import timezone

from .models import Event, Game, Opponent
from .pk_lookup import insert_rows

logger = logging.getLogger(__name__)

LOBBY = "lobby"
#: how often a hub reads new events (seconds): the push's share of a move's way to the other page
POLL_EVERY = 0.05
#: a hub nobody has listened to for this long (seconds) forgets its place, and the next page's view notes it anew
IDLE_RESET = 5.0
#: events older than this are deleted (pages that were away longer simply ask for their fragment again)
KEEP_FOR = timedelta(minutes=10)


def game_topic(pk: int) -> str:
    return f"game:{pk}"


def player_topic(pk: int) -> str:
    return f"player:{pk}"


def changed(game: Game, *, lobby: bool | None = None) -> None:
    """``game`` changed (or was deleted), in the caller's transaction: its pages hear of it, and for a game between
    people also its players' badges and the lobby. ``lobby``: override whether the lobby's lists change."""
    people = game.opponent == Opponent.HUMAN
    players = {game.x_player_id, game.o_player_id, game.invitee_id, game.created_by_id} - {None} if people else set()
    who = ",".join(map(str, sorted(players)))
    insert_rows([Event(game_id=game.pk, players=who, lobby=people if lobby is None else lobby)])


def seeks_changed(*player_ids: int) -> None:
    """Quick pairing's seeks changed (one made, cancelled, paired or dropped), in the caller's transaction: the
    lobby hears it, and so do the seekers' own pages (``player:<id>``). No game: the event's game is 0."""
    who = ",".join(map(str, sorted(set(player_ids))))
    insert_rows([Event(game_id=0, players=who, lobby=True)])


def signed_out(player_id: int) -> None:
    """The player logged out: their other open pages hear it (``player:<id>``), ask for their badges, find no
    session and go to the login page (config.middleware), rather than showing a signed-out player's lists until
    their next safety-net poll."""
    insert_rows([Event(game_id=0, players=str(player_id), lobby=False)])


def topics_of(game_id: int, players: str, lobby: bool) -> list[str]:
    topics = [game_topic(game_id)] if game_id else []  # 0: no game (quick pairing's seeks)
    topics += [player_topic(int(pid)) for pid in players.split(",") if pid]
    if lobby:
        topics.append(LOBBY)
    return topics


class Subscription:
    """The topics one open page listens to; the hub hands it the topics that changed. Read it from a thread
    (``get``, under WSGI) or from the event loop (``aget``, under ASGI)."""

    def __init__(self, topics: Iterable[str]) -> None:
        self.topics = frozenset(topics)
        self._changed: set[str] = set()
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._async_ready: asyncio.Event | None = None

    def bind_loop(self) -> None:
        """Read from the running event loop (call there, before subscribing)."""
        self._loop = asyncio.get_running_loop()
        self._async_ready = asyncio.Event()

    def notify(self, topic: str) -> None:  # the hub's thread
        with self._lock:
            self._changed.add(topic)
        self._ready.set()
        if self._loop is not None and self._async_ready is not None:
            self._loop.call_soon_threadsafe(self._async_ready.set)

    def _take(self) -> set[str]:
        with self._lock:
            changed, self._changed = self._changed, set()
        self._ready.clear()
        if self._async_ready is not None:
            self._async_ready.clear()
        return changed

    def get(self, timeout: float) -> set[str]:
        """The topics that changed since the last call, waiting up to ``timeout`` seconds for one."""
        self._ready.wait(timeout)
        return self._take()

    async def aget(self, timeout: float) -> set[str]:
        assert self._async_ready is not None, "bind_loop() first"
        try:
            await asyncio.wait_for(self._async_ready.wait(), timeout)
        except TimeoutError:
            pass
        return self._take()


class Hub:
    """One per process: a thread reading new events and handing them to the subscriptions of their topics."""

    def __init__(self, every: float = POLL_EVERY, *, threaded: bool = True) -> None:
        self.every = every
        self.threaded = threaded  # False: the caller reads (read_once), as tests do
        self._subs: dict[str, set[Subscription]] = {}
        self._all: set[Subscription] = set()  # every subscription open in this process (the stream cap counts them)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._last_id: int | None = None
        self._pruned = 0.0
        self._idle_since: float | None = None
        self._stop = threading.Event()
        atexit.register(self._stop.set)  # a process shutting down: no read on a closing interpreter

    def prime(self) -> None:
        """Note where the events stand now, before a page subscribes: whatever happens after it is heard (call from
        a thread that may query, e.g. a view; the page catches up on what came before when its stream opens)."""
        with self._lock:
            self._idle_since = None  # a page is about to subscribe: keep the place for it
            if self._last_id is None:
                self._last_id = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0

    def subscribe(self, subscription: Subscription) -> Subscription:
        with self._lock:
            self._all.add(subscription)
            for topic in subscription.topics:
                self._subs.setdefault(topic, set()).add(subscription)
            if self.threaded and (self._thread is None or not self._thread.is_alive()):
                self._thread = threading.Thread(target=self._run, name="live-hub", daemon=True)
                self._thread.start()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._all.discard(subscription)
            for topic in subscription.topics:
                subs = self._subs.get(topic)
                if subs is not None:
                    subs.discard(subscription)
                    if not subs:
                        del self._subs[topic]

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._all)

    def _run(self) -> None:
        failing = False
        while not self._stop.wait(self.every):
            with self._lock:
                idle = not self._subs
                if not idle:
                    self._idle_since = None
                elif self._idle_since is None:
                    self._idle_since = time.monotonic()
                elif self._last_id is not None and time.monotonic() - self._idle_since > IDLE_RESET:
                    self._last_id = None  # nobody has listened for a while: the next page primes it again
                    # and the database connection this thread opened is given back: an idle process holds none
                    # (PostgreSQL counts them; a test database could not be dropped while one was open)
                    connections.close_all()
            if idle:
                continue  # nobody listens: no query
            try:
                self.read_once()
                failing = False
            except Exception:  # a locked or restarting database: read again shortly, never die
                # once per run of failures, not twenty times a second
                logger.log(logging.DEBUG if failing else logging.WARNING, "live hub: reading events failed",
                           exc_info=True)
                failing = True
                try:
                    close_old_connections()
                except Exception:  # (a database that cannot even be closed now: the next round tries again)
                    logger.debug("live hub: closing the connection failed", exc_info=True)

    def read_once(self) -> int:
        """Read the events since the last read and notify their subscribers; the number read."""
        if self._last_id is None:
            self.prime()
            return 0
        rows = list(
            Event.objects.filter(id__gt=self._last_id).order_by("id").values_list("id", "game_id", "players", "lobby")
        )
        if rows:
            self._last_id = rows[-1][0]
            with self._lock:
                for _, game_id, players, lobby in rows:
                    for topic in topics_of(game_id, players, lobby):
                        for sub in self._subs.get(topic, ()):
                            sub.notify(topic)
        now = time.monotonic()
        if now - self._pruned > 60:
            self._pruned = now
            Event.objects.filter(created__lt=timezone.now() - KEEP_FOR).delete()
        return len(rows)


#: this process's hub
hub = Hub()
