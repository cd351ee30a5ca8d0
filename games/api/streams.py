"""The bot API's streams (issue 33): newline-delimited JSON held open, fed by the live push as the pages are.

- ``GET /api/stream/event``: the account's events (any account: a person's client may listen too);
- ``GET /api/bot/game/stream/{id}``: one game, for a bot account.

Each stream subscribes to its topics on the process's hub (``push.streams.open_stream``: the same caps as the pages'
streams), then reads what is there (games.api.feeds), so nothing that changes after the first lines can be missed;
each notice of the push wakes it to read again. No polling: a stream that hears nothing sends an empty line every
``BOT_STREAM_KEEPALIVE`` seconds (5; a client or proxy can tell a quiet stream from a dead one) and ends after
``push.streams.MAX_AGE``, when its client opens another (which starts again with everything waiting).

Served like the pages' stream (games.web.views.live): as an async iterator under the ASGI server (uvicorn, ``make
serve``: ``config/serve/nginx.conf`` sends ``/api/stream/`` and ``/api/bot/game/stream/`` there, unbuffered), as a
plain iterator holding a thread under a threaded WSGI server (the development server, the tests' live server);
gunicorn's sync workers refuse them (``LIVE_STREAMS`` off: 503 ``unavailable``).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Protocol, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from ninja import Router

from push.streams import KEEPALIVE as REFRESH_EVERY
from push.streams import MAX_AGE, Opened, Refused, close_stream, open_stream, refresh

from ..live import game_topic, player_topic
from .bots import bot_account
from .errors import ERRORS
from .feeds import EventFeed, GameFeed

router = Router(tags=["bots"])

T = TypeVar("T")


class Feed(Protocol):
    over: bool

    def lines(self) -> list[dict[str, Any]]: ...

    def due(self) -> bool: ...


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), default=str) + "\n"


def _refusal(status: int, code: str, message: str, retry_after: int = 0) -> HttpResponse:
    response = JsonResponse({"code": code, "message": message}, status=status)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def _read(step: Callable[[], T]) -> T:
    """A read from the stream's loop: with a connection that is fresh (the loop outlives a request's own)."""
    close_old_connections()
    try:
        return step()
    finally:
        close_old_connections()


def _run(opened: Opened, feed: Feed, first: list[dict[str, Any]]) -> Iterator[str]:
    """The stream under a threaded WSGI server: one thread waits on the subscription."""
    try:
        yield "".join(map(_line, first)) or "\n"
        end = refreshed = time.monotonic()
        end += MAX_AGE
        while not feed.over and time.monotonic() < end:
            changed, _ = opened.subscription.get(settings.BOT_STREAM_KEEPALIVE)
            if opened.subscription.broken:
                return  # the push is down: the client opens a new stream later
            lines = _read(feed.lines) if changed or feed.due() else []
            if time.monotonic() - refreshed > REFRESH_EVERY:
                refreshed = time.monotonic()
                refresh(opened)
            yield "".join(map(_line, lines)) or "\n"
    finally:
        close_stream(opened)


async def _run_async(opened: Opened, feed: Feed, first: list[dict[str, Any]]) -> AsyncIterator[str]:
    """The stream under the ASGI server: a coroutine waits on the subscription; reads go to a thread."""
    opened.subscription.bind_loop()
    read = sync_to_async(_read, thread_sensitive=False)
    try:
        yield "".join(map(_line, first)) or "\n"
        end = refreshed = time.monotonic()
        end += MAX_AGE
        while not feed.over and time.monotonic() < end:
            changed, _ = await opened.subscription.aget(settings.BOT_STREAM_KEEPALIVE)
            if opened.subscription.broken:
                return
            lines = await read(feed.lines) if changed or feed.due() else []
            if time.monotonic() - refreshed > REFRESH_EVERY:
                refreshed = time.monotonic()
                await sync_to_async(refresh, thread_sensitive=False)(opened)
            yield "".join(map(_line, lines)) or "\n"
    finally:
        await sync_to_async(close_stream, thread_sensitive=False)(opened)


def _stream(
    request: HttpRequest, topics: list[str], feed: Feed, first: Callable[[], list[dict[str, Any]]]
) -> HttpResponse:
    """Open a stream of ``feed`` on ``topics``: subscribed before ``first`` reads the opening lines."""
    if not settings.LIVE_STREAMS:
        return _refusal(503, "unavailable", "streams are served by the site's ASGI server, not here: try again "
                                            "through the site's address", 30)
    try:
        opened = open_stream(topics=topics, account=request.auth.pk, since="")
    except Refused as refused:
        if refused.status == 429:
            message = (f"this account has {settings.LIVE_STREAMS_PER_PLAYER} streams and live pages open already: "
                       "close one first")
            return _refusal(429, "busy", message, refused.retry_after)
        return _refusal(503, "unavailable", "live updates are down for a moment: open the stream again shortly",
                        refused.retry_after)
    try:
        lines = first()
    except BaseException:
        close_stream(opened)
        raise
    stream = _run_async(opened, feed, lines) if isinstance(request, ASGIRequest) else _run(opened, feed, lines)
    response = StreamingHttpResponse(stream, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


@router.get(
    "/stream/event", response={200: None, **ERRORS}, summary="Your events, as they happen (newline-delimited JSON)"
)
def event_stream(request: HttpRequest) -> HttpResponse:
    """Held open: one JSON object a line, ``type`` one of ``challenge`` (sent to you or by you, still waiting),
    ``challengeCanceled``, ``challengeDeclined`` (``reason``: ``declined`` or ``timeout``), ``gameStart``,
    ``gameFinish``; an empty line every few seconds when nothing happens. It opens with the challenges waiting and
    the games running. See docs/bots.md."""
    feed = EventFeed(request.auth)
    return _stream(request, [player_topic(request.auth.pk)], feed, feed.lines)


@router.get(
    "/bot/game/stream/{int:game_id}", response={200: None, **ERRORS},
    summary="A game's state, then each change (newline-delimited JSON)",
)
def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """For a bot account (403 ``not_a_bot`` otherwise), a game it may see (404 ``not_found``): first
    ``{"type": "gameFull", ...}`` (variant, options, clock, seats, moves by cell name, clocks), then
    ``{"type": "gameState", "moves": [...], "clock_ms": ..., "status": ...}`` on each change; it ends after the
    game's last one. See docs/bots.md."""
    bot = bot_account(request)
    feed = GameFeed(game_id, bot)
    return _stream(request, [game_topic(game_id)], feed, lambda: [feed.full()])
