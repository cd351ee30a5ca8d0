"""Real servers that the benchmarks and the tests start for themselves: Redis (Debian's redis-server), a scratch
PostgreSQL database, and app servers as `make serve` runs them (nginx in front); `make test` installs the three."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """A throw-away redis-server on 127.0.0.1 (no persistence), which a test may stop and start again."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if not Path(REDIS_SERVER).exists():
            raise RuntimeError(f"{REDIS_SERVER} is missing: `make test` installs it (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


class Postgres:
    """A scratch database on a PostgreSQL server: the suite's own server under the PostgreSQL pass (DATABASE_URL),
    else a throw-away server started by scripts/with-postgres.sh for as long as this object lives."""

    def __init__(self) -> None:
        import os

        self.server: subprocess.Popen[str] | None = None
        base = os.environ.get("DATABASE_URL", "")
        if not base.startswith(("postgres://", "postgresql://")):
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            # the script starts a server, runs the command (which prints the address and waits for its input to
            # close), then stops the server
            self.server = subprocess.Popen(
                [str(ROOT / "scripts" / "with-postgres.sh"), "sh", "-c", 'echo "$DATABASE_URL"; cat >/dev/null'],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
            )
            base = (self.server.stdout.readline() if self.server.stdout else "").strip()
            if not base:
                raise RuntimeError("scripts/with-postgres.sh did not start a server")
        import uuid

        import psycopg

        self.name = f"ttt_scratch_{uuid.uuid4().hex[:8]}"
        self.base = base
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        self.url = base.rsplit("/", 1)[0] + "/" + self.name

    def close(self) -> None:
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{self.name}" WITH (FORCE)')
        if self.server is not None and self.server.stdin is not None:
            self.server.stdin.close()
            self.server.wait(60)


class Stack:
    """One app server as `make serve` runs it (scripts/serve.py: nginx, gunicorn, uvicorn, a task worker, under
    supervisord) on a migrated database with collected static files; ``kill()`` ends it as a machine would go."""

    def __init__(self, env: dict[str, str], workdir: Path, name: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(env, PORT=str(self.port), WEB_PORT=str(free_port()), PUSH_PORT=str(free_port()),
                        SERVE_RUN_DIR=str(workdir / name), WEB_CONCURRENCY="1", TASK_WORKERS="1")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120) -> None:
        import sys
        import urllib.request

        self.process = subprocess.Popen(
            [sys.executable, "scripts/serve.py"], cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the app server on {self.port} exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as answer:
                    if answer.status == 200 and self._streams_ready():
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the app server on {self.port} did not answer in {timeout} s")

    def _streams_ready(self) -> bool:
        """uvicorn answers too (a stream without a session is sent to the login page)."""
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            conn.request("GET", "/games/live/")
            return conn.getresponse().status == 302
        except OSError:
            return False
        finally:
            conn.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def kill(self) -> None:
        """Every process of this server at once (SIGKILL), as when its machine goes down (supervisord puts each
        program in a process group of its own: the whole tree is found and killed)."""
        import os
        import signal

        from bench.common import process_tree

        if self.process is not None:
            for pid in process_tree(self.process.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.process.wait(10)
            self.process = None
