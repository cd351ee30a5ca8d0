"""``/games/live/``: server push for open pages (Server-Sent Events), fed by the process's hub (the ``push`` app).

A page opens one stream for what it shows: its game (``?game=<id>``, a game this player may see), the lobby
(``?lobby=1``), an arena tournament (``?arena=<id>``) and always the player's own badges. Each notice is one line
naming what changed (``event: game`` with the game's id, ``event: lobby``, ``event: me``, ``event: arena`` with the
arena's id) and carries the log's position as its id; the page then asks
for its fragment through the usual views. A page (re)connecting says where it was (``Last-Event-ID``, or
``?since=`` with the position its page was rendered at): the notices it missed are replayed, or ``event:
reload`` tells it to ask for everything it shows.

Served as an async view by the ASGI server (uvicorn, ``make serve``: thousands of streams per process as
coroutines); under a threaded WSGI server (``make run``'s development server, the tests' live server) a stream
holds a thread; gunicorn's sync workers, one request at a time each, refuse streams (``LIVE_STREAMS`` off,
config/gunicorn.conf.py), so that one page cannot hold a whole process: its pages poll.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_safe

from push.streams import KEEPALIVE, MAX_AGE, Opened, Refused, close_stream, cursor, open_stream, refresh

from ...errors import ArenaNotFound, GameNotFound
from ...live import LOBBY, arena_topic, game_topic, player_topic
from ...selectors import game_for_viewer
from ...standings import arena_by_id

#: how long the browser waits before reconnecting after a stream ends or breaks (milliseconds)
RETRY_MS = 1000
#: what a position the client sends may hold at most
SINCE_MAX = 80


def _refusal(status: int, message: str, retry_after: int) -> HttpResponse:
    response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


@login_required
@require_safe
def live(request: HttpRequest) -> HttpResponse:
    topics = [player_topic(request.user.pk)]
    game = request.GET.get("game", "")
    if game:
        if not (game.isascii() and game.isdigit()):
            return _refusal(400, "game must be a game's number", 0)
        try:
            topics.append(game_topic(game_for_viewer(int(game), request.user).pk))
        except GameNotFound:
            return _refusal(404, "no such game", 0)
    if request.GET.get("lobby") == "1":
        topics.append(LOBBY)
    arena = request.GET.get("arena", "")
    if arena:
        if not (arena.isascii() and arena.isdigit() and len(arena) <= 19):
            return _refusal(400, "arena must be an arena's number", 0)
        try:
            topics.append(arena_topic(arena_by_id(int(arena)).pk))
        except ArenaNotFound:
            return _refusal(404, "no such arena", 0)
    if not settings.LIVE_STREAMS:
        return _refusal(503, "Live updates are served by the site's ASGI server: this page asks for changes now "
                             "and then instead.", 30)
    since = (request.headers.get("Last-Event-ID") or request.GET.get("since", ""))[:SINCE_MAX]
    try:
        opened = open_stream(topics=topics, account=request.user.pk, since=since)
    except Refused as refused:
        return _refusal(refused.status, refused.message, refused.retry_after)
    stream = _stream_async(opened) if isinstance(request, ASGIRequest) else _stream(opened)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each notice on at once
    return response


def notices(topics: set[str], position: str) -> str:
    """The SSE lines for the topics that changed, the last one carrying the log's position."""
    lines = []
    for topic in sorted(topics):
        if topic == LOBBY:
            lines.append("event: lobby\ndata: 1\n")
        elif topic.startswith("game:"):
            lines.append(f"event: game\ndata: {topic.removeprefix('game:')}\n")
        elif topic.startswith("arena:"):
            lines.append(f"event: arena\ndata: {topic.removeprefix('arena:')}\n")
        else:
            lines.append("event: me\ndata: 1\n")
    if lines and position:
        lines[-1] = f"id: {position}\n" + lines[-1]
    return "\n".join(lines) + "\n" if lines else ""


def opening(opened: Opened) -> str:
    """The first lines: how soon to reconnect, where the stream starts, and what the page missed (or to reload)."""
    head = f"retry: {RETRY_MS}\nid: {opened.position}\nevent: open\ndata: 1\n\n"
    if opened.missed is None:
        return head + "event: reload\ndata: 1\n\n"
    return head + notices(opened.missed, opened.position)


def _next(opened: Opened, changed: set[str], position: str | None) -> str | None:
    """What to send after a wait: the notices, a keep-alive, or None when the stream must end."""
    if opened.subscription.broken:
        return None  # the push is down: the page polls, and reconnects later
    if changed:
        return notices(changed, cursor(opened.position.partition("/")[0], position))
    return ": keepalive\n\n"


def _stream(opened: Opened) -> Iterator[str]:
    try:
        yield opening(opened)
        end = time.monotonic() + MAX_AGE
        while time.monotonic() < end:
            chunk = _next(opened, *opened.subscription.get(KEEPALIVE))
            if chunk is None:
                return
            if chunk.startswith(":"):
                refresh(opened)
            yield chunk
    finally:
        close_stream(opened)


async def _stream_async(opened: Opened) -> AsyncIterator[str]:
    opened.subscription.bind_loop()
    try:
        yield opening(opened)
        end = time.monotonic() + MAX_AGE
        while time.monotonic() < end:
            chunk = _next(opened, *await opened.subscription.aget(KEEPALIVE))
            if chunk is None:
                return
            if chunk.startswith(":"):
                await sync_to_async(refresh, thread_sensitive=False)(opened)
            yield chunk
    finally:
        await sync_to_async(close_stream, thread_sensitive=False)(opened)
