"""Each process's reader of the log: one thread that follows it and hands every notice to the open streams of its
topics (``Subscription``), however many pages are open. A stream reads its subscription from a thread (WSGI: the
development server, the tests' live server) or from the event loop (ASGI: uvicorn, ``make serve``).

The hub reads only while someone listens. When the transport fails (Redis or the database down), every open
stream is ended: their pages fall back to polling and reconnect later, replaying what they missed or reloading
what they show (push.streams).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import threading
import time
from collections.abc import Callable, Iterable

from django.db import close_old_connections, connections

from .transports import Log, Notice, configured_log, order

logger = logging.getLogger(__name__)

#: how often the database log is read when there was nothing new (seconds); Redis blocks instead
POLL_EVERY = 0.05
#: how long one blocking read of Redis waits (seconds)
BLOCK_FOR = 1.0
#: a hub nobody has listened to for this long forgets its place (and gives its database connection back)
IDLE_RESET = 5.0
#: how often old notices are pruned (seconds)
PRUNE_EVERY = 60.0


class Subscription:
    """The topics one open stream listens to, and what the hub has handed it since it last looked."""

    def __init__(self, topics: Iterable[str], *, account: int | None = None) -> None:
        self.topics = frozenset(topics)
        self.account = account
        self.position: str | None = None  # the newest notice handed over
        self.broken = False  # the transport failed: the stream ends
        self._changed: set[str] = set()
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._async_ready: asyncio.Event | None = None

    def bind_loop(self) -> None:
        """Read from the running event loop (call there, before subscribing)."""
        self._loop = asyncio.get_running_loop()
        self._async_ready = asyncio.Event()
        with self._lock:
            if self._changed or self.broken:  # handed over before the stream started to wait
                self._async_ready.set()

    def _wake(self) -> None:
        self._ready.set()
        if self._loop is not None and self._async_ready is not None:
            try:
                self._loop.call_soon_threadsafe(self._async_ready.set)
            except RuntimeError:  # its loop has closed: the stream is gone
                pass

    def notify(self, topic: str, position: str) -> None:  # the hub's thread
        with self._lock:
            self._changed.add(topic)
            if self.position is None or order(position) > order(self.position):
                self.position = position
        self._wake()

    def break_off(self) -> None:
        self.broken = True
        self._wake()

    def take(self) -> tuple[set[str], str | None]:
        """The topics that changed since the last call, and the newest position among them."""
        with self._lock:
            changed, self._changed = self._changed, set()
            position = self.position
        self._ready.clear()
        if self._async_ready is not None:
            self._async_ready.clear()
        return changed, position

    def get(self, timeout: float) -> tuple[set[str], str | None]:
        self._ready.wait(timeout)
        return self.take()

    async def aget(self, timeout: float) -> tuple[set[str], str | None]:
        assert self._async_ready is not None, "bind_loop() first"
        try:
            await asyncio.wait_for(self._async_ready.wait(), timeout)
        except TimeoutError:
            pass
        return self.take()


class Hub:
    """One per process: a thread following the log and handing each notice to the subscriptions of its topics."""

    def __init__(self, log: Callable[[], Log], *, threaded: bool = True) -> None:
        self._log_factory = log
        self._log: Log | None = None
        self.threaded = threaded  # False: the caller reads (read_once), as tests do
        self._subs: dict[str, set[Subscription]] = {}
        self._all: set[Subscription] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._cursor: str | None = None
        self.epoch: str | None = None
        self.down = False  # the last read failed: new streams are refused until one works again
        self._pruned = 0.0
        self._idle_since: float | None = None
        self._stop = threading.Event()
        atexit.register(self._stop.set)  # a process shutting down: no read on a closing interpreter

    @property
    def log(self) -> Log:
        if self._log is None:
            self._log = self._log_factory()
        return self._log

    @property
    def opened_log(self) -> Log | None:
        """The log if this process has opened it (closing a stream at shutdown must not open one)."""
        return self._log

    def prime(self) -> None:
        """Note where the log stands, before a stream subscribes (from a thread that may query): everything
        appended after this is handed to it; what came before, the stream replays itself. Raises when the
        transport is down.

        The log's epoch is read each time: a log emptied meanwhile (Redis restarted while this hub was idle, so
        that no read of its own failed) is followed from its new head, and the streams that still hold positions
        of the old epoch are ended (their pages reconnect, and reload what they show)."""
        epoch = self.log.epoch()
        with self._lock:
            self._idle_since = None
            stale = self.epoch is not None and epoch != self.epoch
            if self._cursor is None or stale:
                self._cursor = self.log.head()
            self.epoch = epoch
            self.down = False
            broken = list(self._all) if stale else []
        for sub in broken:
            sub.break_off()

    def subscribe(self, subscription: Subscription) -> Subscription:
        with self._lock:
            self._all.add(subscription)
            for topic in subscription.topics:
                self._subs.setdefault(topic, set()).add(subscription)
            if self.threaded and (self._thread is None or not self._thread.is_alive()):
                self._thread = threading.Thread(target=self._run, name="push-hub", daemon=True)
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

    def stop(self) -> None:
        """End the hub's thread (a test's own hub; the process's ends with it)."""
        self._stop.set()

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._all)

    def listeners_of(self, account: int) -> int:
        with self._lock:
            return sum(1 for sub in self._all if sub.account == account)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                idle = not self._all
                if not idle:
                    self._idle_since = None
                elif self._idle_since is None:
                    self._idle_since = time.monotonic()
                elif self._cursor is not None and time.monotonic() - self._idle_since > IDLE_RESET:
                    self._cursor = None  # the next stream primes it again
                    connections.close_all()  # an idle process holds no database connection
            if idle:
                self._stop.wait(POLL_EVERY)
                continue
            try:
                if not self.read_once(wait=BLOCK_FOR) and not getattr(self.log, "blocks", False):
                    self._stop.wait(POLL_EVERY)  # the database log answers at once: read again shortly
            except Exception:  # Redis or the database down: end the streams, try again shortly
                logger.log(logging.DEBUG if self.down else logging.WARNING, "push: reading the log failed",
                           exc_info=True)
                self._fail()
                self._stop.wait(1.0)
            finally:
                try:
                    close_old_connections()
                except Exception:  # a database that went away (or a test that forbids it): the next read says so
                    logger.debug("push: closing the old connections failed", exc_info=True)

    def _fail(self) -> None:
        with self._lock:
            self.down = True
            self._cursor = None  # read from the head again once the log answers: its streams have ended anyway
            broken = list(self._all)
        for sub in broken:
            sub.break_off()

    def read_once(self, wait: float = 0.0) -> int:
        """Read what was appended since the last read and hand it on; the number of notices read."""
        if self._cursor is None:
            self.prime()
            return 0
        notices = self.log.read(self._cursor, wait)
        self.down = False
        if notices:
            self._cursor = notices[-1].position
            self._dispatch(notices)
        now = time.monotonic()
        if now - self._pruned > PRUNE_EVERY:
            self._pruned = now
            self.log.prune()
        return len(notices)

    def _dispatch(self, notices: list[Notice]) -> None:
        with self._lock:
            for notice in notices:
                for topic in notice.topics:
                    for sub in self._subs.get(topic, ()):
                        sub.notify(topic, notice.position)


#: this process's hub
hub = Hub(configured_log)
