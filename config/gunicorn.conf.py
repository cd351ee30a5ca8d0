"""gunicorn settings for `make serve` and the web benchmark; each can be overridden from the environment
(GUNICORN_CMD_ARGS, or the variables below)."""

from __future__ import annotations

import gc
import os

bind = os.environ.get("BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads, so that a page's live stream (/games/live/: one held request per open page, idle but for a notice now
# and then) does not hold a whole process: requests are served by a pool of threads per process; keep-alive
# connections wait in gunicorn's poller, not in a thread. GUNICORN_THREADS bounds the open pages per process.
# config/gworker.py: gunicorn's threaded worker, taking a connection only when its request slot is free.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "config.gworker.ThreadWorker")
threads = int(os.environ.get("GUNICORN_THREADS", "1000"))
# The threads hold the live pages' streams (about 330 kB each, docs/benchmarks.md); ordinary requests take one slot
# per process (config/slots.py). Streams stop short of the thread count (LIVE_MAX_STREAMS, games/web/views/live.py),
# so that pages always find a thread; the pages past it poll. gthread also caps its connections (worker_connections).
os.environ.setdefault("WEB_REQUEST_SLOTS", "1")
os.environ.setdefault("LIVE_MAX_STREAMS", str(max(threads - 100, threads // 2)))
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", str(threads + 1000)))
# The app is imported once, before the workers fork (less memory, faster start); Django opens no
# database connection at import, so none is shared between workers.
preload_app = True
# Every answer closes its connection, so that the next request goes to whichever process is free (a kept-alive
# connection would bring its client back to the same process, busy or not: config/gworker.py). Put a buffering
# proxy (nginx, a load balancer) in front that speaks keep-alive to the browsers; the streams are single requests.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "0"))
timeout = 30
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
