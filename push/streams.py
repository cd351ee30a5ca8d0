"""Opening a stream: the caps, the subscription and what the stream missed before it opened.

A stream is opened with the position its client last saw (a page's ``Last-Event-ID``, or the position the page
was rendered at): ``"<epoch>/<position>"``. If that position is still in the log and of the log's current epoch,
the notices since then for the stream's topics are replayed; otherwise the stream tells its client to reload what
it shows. Either way nothing is lost between a page's render and its stream, or across a reconnection.

Caps: ``LIVE_MAX_STREAMS`` streams per process (0: no cap), and ``LIVE_STREAMS_PER_PLAYER`` per account across
every process and server (counted in Redis where it is configured, else in this process: one machine).
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field

from django.conf import settings

from .hub import Subscription, hub
from .transports import RedisLog, valid_position

logger = logging.getLogger(__name__)

#: seconds between the keep-alive lines of a stream (and the refresh of its place in the account's count)
KEEPALIVE = 15.0
#: a stream ends after this long and its client opens a new one
MAX_AGE = 600.0


class Refused(Exception):
    """The stream cannot be opened now; ``status`` and ``message`` for the client, and when to ask again."""

    def __init__(self, status: int, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.status, self.message, self.retry_after = status, message, retry_after


@dataclass
class Opened:
    subscription: Subscription
    #: the topics that changed since the client's position (replayed), or None: the client must reload
    missed: set[str] | None
    #: the position to give the client now ("<epoch>/<position>")
    position: str
    token: str = field(default_factory=lambda: secrets.token_hex(8))


def cursor(epoch: str | None, position: str | None) -> str:
    return f"{epoch}/{position}" if epoch and position else ""


def _accounts_key(account: int) -> str:
    return f"push:streams:{account}"


def _count_and_register(account: int, token: str, cap: int) -> bool:
    """Register the stream ``token`` of ``account`` unless it already holds ``cap``: True if registered."""
    log = hub.log
    if isinstance(log, RedisLog):
        key, now = _accounts_key(account), time.time()
        pipe = log.writer.pipeline()
        pipe.zremrangebyscore(key, 0, now)
        pipe.zcard(key)
        _, held = pipe.execute()
        if held >= cap:
            return False
        pipe = log.writer.pipeline()
        pipe.zadd(key, {token: now + 3 * KEEPALIVE})
        pipe.expire(key, int(3 * KEEPALIVE) + 1)
        pipe.execute()
        return True
    return hub.listeners_of(account) < cap


def refresh(opened: Opened) -> None:
    """The stream is still open: keep its place in its account's count (Redis)."""
    account = opened.subscription.account
    log = hub.log
    if account is not None and isinstance(log, RedisLog) and settings.LIVE_STREAMS_PER_PLAYER:
        try:
            log.writer.zadd(_accounts_key(account), {opened.token: time.time() + 3 * KEEPALIVE})
            log.writer.expire(_accounts_key(account), int(3 * KEEPALIVE) + 1)
        except Exception:  # Redis away: the entry expires by itself
            logger.debug("push: refreshing a stream's place failed", exc_info=True)


def open_stream(*, topics: list[str], account: int | None, since: str) -> Opened:
    """Subscribe to ``topics`` for ``account``, after checking the caps; what the client missed since ``since``.
    Call where the database may be queried (a view's thread). Raises Refused."""
    cap = settings.LIVE_MAX_STREAMS
    if cap and hub.listeners >= cap:
        raise Refused(503, "Too many live pages are open on this server: this page asks for changes now and then "
                           "instead.", settings.LIVE_RETRY_MS // 1000)
    try:
        hub.prime()
    except Exception:
        logger.warning("push: the log cannot be read; a stream was refused", exc_info=True)
        raise Refused(503, "Live updates are down for a moment: this page asks for changes now and then instead.",
                      settings.LIVE_RETRY_MS // 1000) from None
    token = secrets.token_hex(8)
    per_player = settings.LIVE_STREAMS_PER_PLAYER
    if account is not None and per_player:
        try:
            registered = _count_and_register(account, token, per_player)
        except Exception:  # the count cannot be kept now: the per-process cap still holds
            logger.warning("push: counting an account's streams failed", exc_info=True)
            registered = True
        if not registered:
            raise Refused(429, f"You have {per_player} live pages open already: close some. This page asks for "
                               "changes now and then instead.", settings.LIVE_RETRY_MS // 1000)
    subscription = hub.subscribe(Subscription(topics, account=account))
    missed: set[str] | None = None
    position = hub.log.head()
    epoch, _, seen = since.partition("/")
    if epoch and epoch == hub.epoch and valid_position(seen):
        notices = hub.log.since(seen)
        if notices is not None:
            missed = {topic for notice in notices for topic in notice.topics if topic in subscription.topics}
            if notices:
                position = notices[-1].position
    return Opened(subscription, missed, cursor(hub.epoch, position), token)


def close_stream(opened: Opened) -> None:
    hub.unsubscribe(opened.subscription)
    account = opened.subscription.account
    log = hub.opened_log
    if account is not None and isinstance(log, RedisLog):
        try:
            log.writer.zrem(_accounts_key(account), opened.token)
        except Exception:  # Redis away: the entry expires by itself
            logger.debug("push: forgetting a stream failed", exc_info=True)


def transport_state() -> str:
    """The push's transport in a few words, for the readiness check."""
    log = hub.log
    name = "redis" if isinstance(log, RedisLog) else "database"
    try:
        log.head()
    except Exception as err:
        return f"{name} down ({type(err).__name__}): pages poll meanwhile"
    return f"{name} ok"


def position_now() -> str:
    """Where the log stands: a page rendered now hands this to its stream, which replays what came after."""
    try:
        return cursor(hub.log.epoch(), hub.log.head())
    except Exception:  # the push is down: the page's stream will reload what it shows
        logger.debug("push: the log's position cannot be read", exc_info=True)
        return ""
