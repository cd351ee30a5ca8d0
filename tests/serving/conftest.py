"""App servers as `make serve` runs them (bench/servers.py: nginx, gunicorn, uvicorn and a task worker under
supervisord), for the tests of how the site is served. Each is another set of processes on a database of its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.common import PASSWORD
from bench.servers import ROOT

PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "x7!kq2-production-like-secret-key-with-enough-entropy-0a9s8d7f6g5h4j3k",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain http on the loopback
    "DJANGO_SECURE_COOKIES": "0",
    "DJANGO_LOG_LEVEL": "WARNING",
}


def app_env(*, database_url: str, static_root: Path, redis_url: str = "", **extra: str) -> dict[str, str]:
    """The environment of an app server: nothing of the test run's own settings, the production ones above."""
    leave_out = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "LIVE_", "GUNICORN_", "WEB_", "PUSH_", "TASK")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(leave_out)}
    env = {**clean, **PRODUCTION, "DATABASE_URL": database_url, "DJANGO_STATIC_ROOT": str(static_root), **extra}
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def run_dir(prefix: str) -> Path:
    """A folder nginx's workers (www-data, when the tests run as root) can reach: not under pytest's 0700 one."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path


PLAYERS = """
from players.models import Player
for name in {names!r}:
    Player.objects.create_user(name, password={password!r})
"""


def make_players(env: dict[str, str], *names: str) -> None:
    manage(env, "shell", "--no-imports", "-c", PLAYERS.format(names=list(names), password=PASSWORD))


DUEL = """
from players.models import Player
from games.services import challenge_accept, challenge_create
x, o = Player.objects.get(username={x!r}), Player.objects.get(username={o!r})
game = challenge_accept(game=challenge_create(player=x, variant={variant!r}, side="X", clock={clock!r}), player=o)
print(game.pk)
"""


def make_duel(env: dict[str, str], x: str, o: str, variant: str = "classic", clock: str = "none") -> int:
    """A game between two players, X to move; its id."""
    return int(manage(env, "shell", "--no-imports", "-c", DUEL.format(x=x, o=o, variant=variant, clock=clock)))


@pytest.fixture(scope="session")
def production_static(tmp_path_factory) -> Path:
    """The site's static files as production serves them (hashed, compressed), collected once for the session;
    the admin's and the API docs' own are left out (compressing them takes a minute; nothing here opens them)."""
    root = tmp_path_factory.mktemp("production-static")
    env = app_env(database_url="sqlite:///unused", static_root=root)
    manage(env, "collectstatic", "--noinput", "-v", "0", "-i", "admin", "-i", "ninja")
    return root


class Stream:
    """A page's push stream, read as a browser does (Server-Sent Events over HTTP/1.0: no chunked framing)."""

    def __init__(
        self, port: int, cookies: dict[str, str], query: str = "", last_event_id: str = "", *,
        path: str = "/games/live/", token: str = "",
    ) -> None:
        """``path`` and ``token``: another stream (the bot API's, newline-delimited JSON, with a personal token)."""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
        extra += f"Authorization: Bearer {token}\r\n" if token else ""
        self.sock.sendall(f"GET {path}{query} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
                          f"Accept: text/event-stream\r\n{extra}\r\n".encode())
        self.buffer = b""
        self.closed = False

    def read_until(self, needle: str, timeout: float = 10) -> str:
        """Everything read until ``needle`` (AssertionError if it does not come in time or the stream ends)."""
        deadline = time.monotonic() + timeout
        wanted = needle.encode()
        while wanted not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0 and not self.closed, f"{needle!r} did not come; read: {self.buffer.decode()[-500:]!r}"
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                self.closed = True
            self.buffer += chunk
        return self.buffer.decode()

    @property
    def status(self) -> int:
        head = self.read_until("\r\n")
        return int(head.split(" ", 2)[1])

    def last_id(self) -> str:
        return self.buffer.decode().rsplit("\nid: ", 1)[1].split("\n", 1)[0]

    def ends(self, timeout: float = 15) -> bool:
        """True once the server has closed the stream (within ``timeout``)."""
        deadline = time.monotonic() + timeout
        while not self.closed and time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                chunk = b""
            self.closed = not chunk
            self.buffer += chunk
        return self.closed

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()
