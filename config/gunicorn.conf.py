"""gunicorn settings for the pages and the API (``make serve``, the web benchmark): gunicorn's own threaded workers
(``gthread``, as shipped), behind the buffering proxy that ``make serve`` starts (nginx: config/serve/nginx.conf),
which reads each request whole before it reaches a worker and takes each answer at once, so that a slow client
never holds a thread; nginx keeps its connections to the workers alive, so that no request pays for a new
connection and its closing. The live streams are not served here but by the ASGI server (uvicorn) behind the same
proxy. Each setting can be overridden from the environment (GUNICORN_CMD_ARGS, or the variables below).

Why threads, and two: gunicorn's sync workers close every connection after its answer and wait (up to 2 s) for
the proxy to hang up before taking the next request, one request at a time; measured against the threaded
workers with kept-alive connections, they served a third to a half of the moves per second (docs/benchmarks.md,
"Stock serving"). More than two threads per process only add turns on Python's interpreter lock and SQLite's
write lock."""

from __future__ import annotations

import gc
import os

bind = os.environ.get("WEB_BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
# the proxy's kept-alive connections stay open this long between requests (longer than nginx's own, 60 s)
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
# A live stream would hold one of these workers for as long as its page is open: they refuse streams (the proxy
# sends them to uvicorn), and a page that reaches one anyway polls (games/web/views/live.py).
os.environ["LIVE_STREAMS"] = "0"
# The app is imported once, before the workers fork (less memory, faster start); Django opens no
# database connection at import, so none is shared between workers.
preload_app = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
# Logs go to stdout/stderr like Django's; access log only when asked (GUNICORN_ACCESS_LOG=1).
errorlog = "-"
accesslog = "-" if os.environ.get("GUNICORN_ACCESS_LOG") == "1" else None
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
proc_name = "tictactoe"
# gunicorn's runtime control socket lives at one fixed path per user: two servers on one machine (the
# benchmark's, a developer's) would fight over it, and nothing here uses it.
control_socket_disable = True


def pre_fork(server: object, worker: object) -> None:
    """The preloaded app (Django's modules, settings, URL patterns: some 120,000 objects that live as long as the
    process) is moved out of the garbage collector's sight before each worker is forked. A worker's full
    collection then walks only what it made itself: measured in-process, 6 ms instead of 88 ms, and about
    0.12 ms instead of 0.21 ms of collection per move request (docs/benchmarks.md). It also keeps the shared
    pages shared: the collector no longer writes to the parent's objects (Python's gc.freeze documentation)."""
    gc.freeze()
