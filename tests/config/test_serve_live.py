"""`make serve`'s server holds pages' live streams without holding up other requests: gunicorn's threaded workers
(config/gunicorn.conf.py) give each open stream a thread, not a process."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.config.test_settings import PRODUCTION, ROOT, _free_port, _run

SESSION = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from players.models import Player
from players.sessions import SessionStore
alice = Player.objects.create_user("alice", password="x")
session = SessionStore()
session[SESSION_KEY] = str(alice.pk)
session[BACKEND_SESSION_KEY] = "config.auth.PlayerBackend"
session[HASH_SESSION_KEY] = alice.get_session_auth_hash()
session.create()
print(session.session_key)
"""


@contextmanager
def serving(tmp_path: Path, **extra: str) -> Iterator[tuple[int, str]]:
    """`make serve`'s gunicorn (config/gunicorn.conf.py) on a fresh SQLite file, ready: (port, a signed-in cookie)."""
    env = {
        **PRODUCTION, "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SESSION_CACHE_LOCATION": str(tmp_path / "sessions"),
    }
    assert _run(["migrate", "--noinput", "-v", "0"], **env).returncode == 0
    made = _run(["shell", "--no-imports", "-c", SESSION], **env)
    assert made.returncode == 0, made.stderr
    cookie = f"sessionid={made.stdout.strip()}"
    port = _free_port()
    # config/gunicorn.conf.py derives WEB_REQUEST_SLOTS and LIVE_MAX_STREAMS from its threads: none inherited
    leave_out = ("DJANGO_", "DATABASE_URL", "GUNICORN_", "WEB_REQUEST_SLOTS", "LIVE_MAX_STREAMS")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(leave_out)}
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.conf.py", "config.wsgi:application"],
        cwd=ROOT, env={**clean, **env, "PORT": str(port), "WEB_CONCURRENCY": "1", **extra},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz")
                assert conn.getresponse().status == 200
                conn.close()
                break
            except (ConnectionRefusedError, OSError):
                assert time.monotonic() < deadline and server.poll() is None, server.stderr.read()
                time.sleep(0.2)
        yield port, cookie
    finally:
        server.terminate()  # gunicorn waits graceful_timeout (10 s) for open streams, then ends them
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()


def _healthz_seconds(port: int) -> float:
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/healthz")
    assert conn.getresponse().status == 200
    conn.close()
    return time.monotonic() - started


def test_open_live_streams_do_not_hold_up_other_requests(tmp_path):
    streams: list[http.client.HTTPConnection] = []
    with serving(tmp_path, GUNICORN_THREADS="16") as (port, cookie):
        try:
            for _ in range(8):  # more open pages than a process would have sync workers
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("GET", "/games/live/", headers={"Cookie": cookie})
                response = conn.getresponse()
                assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
                assert b"event: open" in response.read1(200)
                streams.append(conn)
            # 16 threads: config/gunicorn.conf.py caps the streams at 8, so that pages always find a thread
            extra = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            extra.request("GET", "/games/live/", headers={"Cookie": cookie})
            refused = extra.getresponse()
            assert refused.status == 503 and refused.getheader("Retry-After") == "30"
            extra.close()
            assert _healthz_seconds(port) < 2  # answered while eight streams stay open
        finally:
            for conn in streams:
                conn.close()


def test_a_client_slow_to_hang_up_holds_up_nobody(tmp_path):
    # Every answer closes its connection (config/gworker.py); gunicorn lingers until the client closes its side too
    # (up to 2 s). That wait is a pool thread's: the next client is answered at once.
    with serving(tmp_path) as (port, _):
        lingering = socket.create_connection(("127.0.0.1", port), timeout=5)
        lingering.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += lingering.recv(4096)
        assert b"200 OK" in answer and b"Connection: close" in answer
        try:
            assert _healthz_seconds(port) < 1  # while the first client still holds its connection
        finally:
            lingering.close()
