"""``/games/live/``: server push for open pages (Server-Sent Events), fed by the process's hub (games.live).

A page opens one stream for what it shows: its game (``?game=<id>``, a game this player may see), the lobby
(``?lobby=1``) and always the player's own badges. Each notice is one line naming what changed (``event: game``
with the game's id, ``event: lobby``, ``event: me``); the page then asks for its fragment through the usual views,
so a notice carries no data that the player could not see anyway. Under a WSGI server (``make serve``'s threaded
gunicorn, ``runserver``, the tests' live server) a stream holds one thread; ``LIVE_MAX_STREAMS`` caps them per process
(config/gunicorn.conf.py sets it below the thread count, so pages always find a thread) and a page past the cap
polls. Under an ASGI server (``bench/live.py --server asgi``) the stream is a coroutine: thousands per process
(docs/benchmarks.md).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_safe

from ...errors import GameNotFound
from ...live import LOBBY, Subscription, game_topic, hub, player_topic
from ...selectors import game_for_viewer

#: a comment line this often keeps proxies from closing an idle stream (and finds pages that went away)
KEEPALIVE = 15.0
#: a stream ends after this long and the browser opens a new one (EventSource reconnects by itself)
MAX_AGE = 600.0
#: how long the browser waits before reconnecting after a stream ends or breaks (milliseconds)
RETRY_MS = 1000
#: seconds a page refused a stream (the process holds LIVE_MAX_STREAMS) is told to wait before asking again
RETRY_AFTER_FULL = 30


@login_required
@require_safe
def live(request: HttpRequest) -> HttpResponse:
    topics = [player_topic(request.user.pk)]
    game = request.GET.get("game", "")
    if game:
        if not (game.isascii() and game.isdigit()):
            return HttpResponse("game must be a game's number", status=400, content_type="text/plain")
        try:
            topics.append(game_topic(game_for_viewer(int(game), request.user).pk))
        except GameNotFound:
            return HttpResponse("no such game", status=404, content_type="text/plain")
    if request.GET.get("lobby") == "1":
        topics.append(LOBBY)
    cap = settings.LIVE_MAX_STREAMS
    if cap and hub.listeners >= cap:
        # Every stream holds one of the process's threads (gunicorn's gthread): past the cap, threads are kept for
        # the pages. The page polls meanwhile and tries its stream again later (static/js/live.js). The count is
        # read before this stream subscribes, so a burst may pass the cap by a few: the reserve allows for it.
        response = HttpResponse(
            "Too many live pages are open on this server: this page asks for changes now and then instead.",
            status=503, content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(RETRY_AFTER_FULL)
        return response
    hub.prime()  # here, where a query may run: the stream hears everything from now on
    subscription = Subscription(topics)
    stream = _stream_async(subscription) if isinstance(request, ASGIRequest) else _stream(subscription)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each notice on at once
    return response


def notices(topics: set[str]) -> str:
    """The SSE lines for the topics that changed."""
    lines = []
    for topic in sorted(topics):
        if topic == LOBBY:
            lines.append("event: lobby\ndata: 1\n\n")
        elif topic.startswith("game:"):
            lines.append(f"event: game\ndata: {topic.removeprefix('game:')}\n\n")
        else:
            lines.append("event: me\ndata: 1\n\n")
    return "".join(lines)


OPENING = f"retry: {RETRY_MS}\nevent: open\ndata: 1\n\n"


def _stream(subscription: Subscription) -> Iterator[str]:
    hub.subscribe(subscription)
    try:
        yield OPENING
        end = time.monotonic() + MAX_AGE
        while time.monotonic() < end:
            changed = subscription.get(KEEPALIVE)
            yield notices(changed) if changed else ": keepalive\n\n"
    finally:
        hub.unsubscribe(subscription)


async def _stream_async(subscription: Subscription) -> AsyncIterator[str]:
    subscription.bind_loop()
    hub.subscribe(subscription)
    try:
        yield OPENING
        end = time.monotonic() + MAX_AGE
        while time.monotonic() < end:
            changed = await subscription.aget(KEEPALIVE)
            yield notices(changed) if changed else ": keepalive\n\n"
    finally:
        hub.unsubscribe(subscription)
