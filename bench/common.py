"""What the load benchmarks share (bench/web.py, bench/mixed.py): a player's HTTP session, a scratch server's
environment and static files, waiting for it, hammering a path, percentiles, CPU used by a process tree, and the
check that nothing was lost."""

from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent


PASSWORD = "bench-Passw0rd-not-secret"


# One per checkout: another checkout's files (an older commit benchmarked beside this one) would otherwise pass for
# this one's when newer, and pages naming a script the old manifest lacks would fail (500).
STATIC_CACHE = Path(tempfile.gettempdir()) / f"ttt-bench-static-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:10]}"


class Session:
    """One browser: a connection to the server (kept alive while the server allows it) and its cookies.

    HTTP/1.1 over a plain socket, written for this benchmark: the requests are a few formatted lines and
    the answers are read by their Content-Length, so that a request costs the client about a fifth of
    what http.client costs (the clients share the machine's cores with the server they measure).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.cookies: dict[str, str] = {}
        self.host = f"127.0.0.1:{port}"

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        return sock

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def request(self, method: str, path: str, data: dict | None = None, *, htmx: bool = False
                ) -> tuple[int, str, str]:
        """(status, where the answer sends the browser: its Location or HX-Push-Url header, body)."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        body = b""
        if method == "POST":
            body = urlencode(data or {}).encode()
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
            if "csrftoken" in self.cookies:
                lines.append(f"X-CSRFToken: {self.cookies['csrftoken']}")
        if htmx:
            lines.append("HX-Request: true")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        reused = self.sock is not None
        sock = self.sock or self._connect()
        try:
            sock.sendall(raw)
            head, rest = self._read_head(sock)
        except (ConnectionError, EOFError):
            # A kept-alive connection the server had closed meanwhile: the request never reached the
            # app; send it once more on a new connection.
            self.close()
            if not reused:
                raise
            sock = self._connect()
            sock.sendall(raw)
            head, rest = self._read_head(sock)
        status_line, *header_lines = head.split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        length, location, close = 0, "", False
        for line in header_lines:
            name, _, value = line.partition(":")
            name, value = name.lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                key, _, cookie = value.partition("=")
                self.cookies[key.strip()] = cookie.split(";", 1)[0]
            elif name in ("location", "hx-push-url"):
                location = value
            elif name == "connection":
                close = value.lower() == "close"
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection in the middle of an answer")
            rest += chunk
        if close:
            self.close()  # the server said "Connection: close" (gunicorn alone, without nginx, may)
        return status, location, rest[:length].decode()

    @staticmethod
    def _read_head(sock: socket.socket) -> tuple[str, bytes]:
        buffer = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            buffer += chunk
            end = buffer.find(b"\r\n\r\n")
            if end >= 0:
                return buffer[:end].decode("latin-1"), buffer[end + 4:]

    def login(self, username: str) -> None:
        status, _, _ = self.request("GET", "/accounts/login/")
        assert status == 200, f"login page: {status}"
        status, _, text = self.request("POST", "/accounts/login/", {"username": username, "password": PASSWORD})
        assert status == 302, f"login of {username}: {status} {text[:300]}"


def hammer_one(port: int, path: str, seconds: float, out: Any) -> None:
    session = Session(port)
    latencies: list[float] = []
    errors = 0
    cpu0 = time.process_time()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        began = time.perf_counter()
        try:
            status, _, _ = session.request("GET", path)
        except Exception:  # noqa: BLE001
            status = 0
            session.close()
        latencies.append(time.perf_counter() - began)
        if status != 200:
            errors += 1
    out.put((latencies, errors, time.process_time() - cpu0))


def hammer(port: int, path: str, clients: int, seconds: float) -> tuple[float, list[float], int, float]:
    """Requests/s, latencies, errors and client CPU seconds of ``clients`` processes GETting ``path``."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=hammer_one, args=(port, path, seconds, out)) for _ in range(clients)]
    began = time.monotonic()
    for proc in procs:
        proc.start()
    results = [out.get() for _ in procs]
    elapsed = time.monotonic() - began
    for proc in procs:
        proc.join()
    latencies = [x for lat, _, _ in results for x in lat]
    return len(latencies) / elapsed, latencies, sum(r[1] for r in results), sum(r[2] for r in results)


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    qs = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {qs[49] * 1000:.1f} ms, p95 {qs[94] * 1000:.1f} ms, p99 {qs[98] * 1000:.1f} ms"


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it (a server's workers; the stack's proxy, servers and their workers)."""
    found, todo = [], [pid]
    while todo:
        one = todo.pop()
        found.append(one)
        try:
            todo += [int(child) for child in Path(f"/proc/{one}/task/{one}/children").read_text().split()]
        except OSError:
            continue
    return found


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, *, workers: bool | None = None) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and every process under it; ``workers``: only
    the task workers among them (True), or all but them (False)."""
    total = 0.0
    for one in process_tree(pid):
        if workers is not None:
            try:
                is_worker = b"manage.py\x00worker" in Path(f"/proc/{one}/cmdline").read_bytes()
            except OSError:
                continue
            if is_worker != workers:
                continue
        total += _cpu(one)
    return total


def start_stack(env: dict[str, str], port: int, *, web_workers: int = 2, task_workers: int = 0,
                run_dir: str | Path | None = None) -> subprocess.Popen:
    """`make serve`'s processes (scripts/serve.py under supervisord: nginx on ``port``, gunicorn's threaded workers,
    uvicorn for the streams, ``task_workers`` task workers), on a migrated database with collected static files;
    every process's output goes to ``stack.log`` in ``run_dir``. Stop it with ``terminate()``."""
    run = Path(run_dir) if run_dir else Path(tempfile.mkdtemp(prefix="ttt-stack-"))
    run.mkdir(parents=True, exist_ok=True)
    run.chmod(0o755)  # nginx's workers (www-data, under root) reach their folders through it
    env = dict(env, PORT=str(port), WEB_CONCURRENCY=str(web_workers), TASK_WORKERS=str(task_workers),
               SERVE_RUN_DIR=str(run), WEB_PORT=str(free_port()), PUSH_PORT=str(free_port()))
    with open(run / "stack.log", "ab") as log:
        return subprocess.Popen([sys.executable, "scripts/serve.py"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def wrk(port: int, path: str, connections: int, seconds: float) -> float | None:
    """Requests/s of ``wrk`` (a load generator written in C: it costs the server's cores almost nothing)
    on ``path``, or None when wrk is not installed (Debian package ``wrk``)."""
    if shutil.which("wrk") is None:
        return None
    done = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True,
    )
    found = re.search(r"Requests/sec:\s*([\d.]+)", done.stdout)
    return float(found.group(1)) if done.returncode == 0 and found else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        # Plain http on the loopback: no TLS proxy in front here.
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_STATIC_ROOT=str(STATIC_CACHE),
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=database_url,
    )
    return env


def collect_static(env: dict[str, str]) -> None:
    """Production static files (hashed + compressed), collected once and reused: compressing takes a while."""
    newest = max(p.stat().st_mtime for p in (ROOT / "static").rglob("*") if p.is_file())
    manifest = STATIC_CACHE / "staticfiles.json"
    if manifest.exists() and manifest.stat().st_mtime > newest:
        return
    print("  collecting static files (once)...", flush=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True)


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 60, path: str = "/accounts/login/") -> None:
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            session = Session(port)
            try:
                status, _, _ = session.request("GET", path)
            finally:
                session.close()
            if status == 200:
                return
            last = f"{status} from {path}"
        except OSError as err:
            last = f"{type(err).__name__}: {err}"
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer in time (last: {last})")


def check_games(usernames: list[str], accepted: dict[int, int], started: int) -> tuple[int, int, list[str]]:
    """Nothing lost: every game of ``usernames`` replays through the engine and agrees with its row and with what
    the clients saw stored (``accepted``: game id -> moves), and the clients started ``started`` of them. (games,
    moves, problems)"""
    from games.models import Game
    from games.positions import game_moves, state_after

    problems: list[str] = []
    stored_total = 0
    games = list(Game.objects.filter(created_by__username__in=usernames))
    for game in games:
        moves = game_moves(game)
        stored_total += len(moves)
        plies = list(game.moves.order_by("ply").values_list("ply", flat=True))
        try:
            state = state_after(game, moves)
        except ValueError as err:
            problems.append(f"game {game.pk}: replay fails: {err}")
            continue
        if game.move_list != ",".join(map(str, moves)):
            problems.append(f"game {game.pk}: move-list cache {game.move_list[:30]!r} is not the stored moves")
        if plies != list(range(1, len(moves) + 1)) or game.ply != len(moves):
            problems.append(f"game {game.pk}: plies {plies[:3]}... stored ply {game.ply}, {len(moves)} moves")
        if state.is_over != (game.status == Game.Status.FINISHED):
            problems.append(f"game {game.pk}: replay over={state.is_over}, stored status {game.status}")
        if state.is_over and (state.winner or Game.Result.DRAW) != game.result:
            problems.append(f"game {game.pk}: replay winner {state.winner}, stored result {game.result}")
        if accepted.get(game.pk) != len(moves):
            problems.append(f"game {game.pk}: clients saw {accepted.get(game.pk)} stored, db has {len(moves)}")
    if len(games) != started:
        problems.append(f"{len(games)} games stored, clients started {started}")
    return len(games), stored_total, problems
