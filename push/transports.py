"""Where notices wait between the process that wrote a change and the processes holding open pages: an ordered
log that every reader follows from its own position.

One interface, two transports:

- ``RedisLog`` (``REDIS_URL`` set): a Redis stream. ``XADD`` appends in the order the appends reach Redis,
  ``XREAD BLOCK`` hands a reader the next notices the moment they are appended, and ``XRANGE`` replays what a
  page missed. Each web server, on any machine, reads the same stream: the way lichess feeds its socket servers
  through Redis. A stream rather than plain pub/sub because pub/sub forgets: a reader that reconnects (a page, a
  process, Redis itself) could not be given what it missed.
- ``DatabaseLog`` (no Redis: one machine, ``make run``, the tests): rows of the site's own database, read a few
  times a second by each process.

A position in the log is a string (``"17"`` in the database, ``"1732712345678-0"`` in Redis) that sorts by
``order``. The log also has an *epoch*: a name that changes whenever notices may have been lost (Redis emptied
or restarted, an append that failed), so that a page holding a position of another epoch reloads what it shows
instead of trusting a replay with holes in it.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from django.db import connection, transaction
from django.utils import timezone

from .models import Entry, Head

logger = logging.getLogger(__name__)

#: notices older than this are dropped (a page away longer reloads what it shows)
KEEP_FOR = timedelta(minutes=10)
#: at most this many notices are replayed to a reconnecting page; beyond, it reloads instead
REPLAY_LIMIT = 1000
#: notices one read takes at most
BATCH = 500

_POSITION = re.compile(r"\A\d{1,20}(-\d{1,20})?\Z")


@dataclass(frozen=True, slots=True)
class Notice:
    position: str
    topics: tuple[str, ...]


def order(position: str) -> tuple[int, int]:
    """The sort key of a position of either log."""
    first, _, second = position.partition("-")
    return int(first), int(second or 0)


def valid_position(position: str) -> bool:
    return bool(_POSITION.match(position))


class Log(Protocol):
    blocks: bool

    def append(self, topics: list[str]) -> None: ...

    def read(self, after: str, wait: float) -> list[Notice]:
        """The notices after ``after``, waiting up to ``wait`` seconds for one where the transport can wait."""
        ...

    def head(self) -> str:
        """The position of the last notice (the log's start if there is none)."""
        ...

    def since(self, after: str) -> list[Notice] | None:
        """The notices after ``after``; None when some of them may be gone (the page must reload)."""
        ...

    def epoch(self) -> str: ...

    def prune(self) -> None: ...


class DatabaseLog:
    """Entries in the site's database (push.models): no extra server; each reader polls (push.hub)."""

    #: the database log is never emptied behind a reader's back: one epoch for ever
    EPOCH = "db"
    #: reads answer at once (the hub polls)
    blocks = False

    def append(self, topics: list[str]) -> None:
        if self.commits_in_order():
            Entry.objects.create(topics=" ".join(topics))
            return
        with transaction.atomic():
            Head.objects.select_for_update().get_or_create(pk=1)  # one appender at a time: ids commit in order
            Entry.objects.create(topics=" ".join(topics))

    @staticmethod
    def commits_in_order() -> bool:
        """Whether the database commits one writer at a time (SQLite), so that entries' ids commit in order by
        themselves, even inside a change's own transaction."""
        return connection.vendor == "sqlite"

    def read(self, after: str, wait: float) -> list[Notice]:
        rows = Entry.objects.filter(id__gt=int(after)).order_by("id").values_list("id", "topics")[:BATCH]
        return [Notice(str(pk), tuple(topics.split())) for pk, topics in rows]

    def head(self) -> str:
        return str(Entry.objects.order_by("-id").values_list("id", flat=True).first() or 0)

    def since(self, after: str) -> list[Notice] | None:
        first = Entry.objects.order_by("id").values_list("id", flat=True).first()
        start = int(after)
        if first is None:
            return [] if start == 0 else None  # emptied (a test's flush, a restore): reload
        if first > start + 1:
            return None  # pruned past the page's position
        notices = list(
            Entry.objects.filter(id__gt=start).order_by("id").values_list("id", "topics")[: REPLAY_LIMIT + 1]
        )
        if len(notices) > REPLAY_LIMIT:
            return None
        return [Notice(str(pk), tuple(topics.split())) for pk, topics in notices]

    def epoch(self) -> str:
        return self.EPOCH

    def prune(self) -> None:
        last = Entry.objects.order_by("-id").values_list("id", flat=True).first()
        if last is not None:  # the newest entry stays: the log's position survives a quiet hour
            Entry.objects.filter(created__lt=timezone.now() - KEEP_FOR, id__lt=last).delete()


def configured_log() -> Log:
    """Redis when ``REDIS_URL`` is set, else the site's database."""
    from django.conf import settings

    url = getattr(settings, "REDIS_URL", "")
    return RedisLog(url) if url else DatabaseLog()


#: connections each of the Redis log's two pools opens at most, per process
POOL_SIZE = 32


class RedisLog:
    """A Redis stream (``<prefix>log``) and its epoch (``<prefix>epoch``)."""

    #: a read waits for the next notice
    blocks = True

    def __init__(self, url: str, prefix: str = "push:") -> None:
        import redis  # only where Redis is configured

        self.key, self.epoch_key = f"{prefix}log", f"{prefix}epoch"
        # Appends come from requests and task workers after their commit: a Redis that does not answer must not
        # hold them long (the page's polls cover a lost notice). Reads block up to a second on purpose.
        # One log serves every thread of the process, and under uvicorn each request runs its view in a thread of
        # its own: a burst of pages opening their streams at once (a server restarted with 2,000 pages open) asks
        # for more connections than redis-py's default pool allows (100; past it, "Too many connections" and the
        # page refused). Blocking pools make a thread wait for a free connection instead.
        self.writer = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=1.0, decode_responses=True, socket_timeout=1.0,
            socket_connect_timeout=1.0,
        ))
        self.reader = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=5.0, decode_responses=True, socket_timeout=5.0,
            socket_connect_timeout=2.0,
        ))
        self._lost = False  # an append failed: the next one that works starts a new epoch

    def append(self, topics: list[str]) -> None:
        try:
            if self._lost:
                self.writer.set(self.epoch_key, secrets.token_hex(6))
                self._lost = False
            self.writer.xadd(
                self.key, {"t": " ".join(topics)}, minid=f"{int((time.time() - KEEP_FOR.total_seconds()) * 1000)}-0",
                approximate=True,
            )
        except Exception:
            self._lost = True
            raise

    def read(self, after: str, wait: float) -> list[Notice]:
        answer = self.reader.xread({self.key: after}, count=BATCH, block=max(1, int(wait * 1000)))
        return [Notice(pos, tuple(fields.get("t", "").split())) for _, entries in answer for pos, fields in entries]

    def head(self) -> str:
        last = self.reader.xrevrange(self.key, count=1)
        return last[0][0] if last else "0-0"

    def since(self, after: str) -> list[Notice] | None:
        try:
            info = self.reader.xinfo_stream(self.key)
        except Exception as err:  # no stream yet (nothing appended since Redis started): nothing to replay
            if "no such key" in str(err).lower():
                return [] if order(after) == (0, 0) else None
            raise
        deleted = info.get("max-deleted-entry-id") or "0-0"
        if order(deleted) > order(after):
            return None  # trimmed past the page's position
        entries = self.reader.xrange(self.key, min=f"({after}", max="+", count=REPLAY_LIMIT + 1)
        if len(entries) > REPLAY_LIMIT:
            return None
        return [Notice(pos, tuple(fields.get("t", "").split())) for pos, fields in entries]

    def epoch(self) -> str:
        self.reader.set(self.epoch_key, secrets.token_hex(6), nx=True)
        return self.reader.get(self.epoch_key) or ""

    def prune(self) -> None:
        """Appends trim the stream themselves (MINID)."""
