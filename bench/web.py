#!/usr/bin/env python3
"""Load benchmark of the real server: gunicorn (2 workers) on 127.0.0.1, DEBUG off, against SQLite and PostgreSQL.

    .venv/bin/python bench/web.py [--players 16] [--seconds 15] [--db sqlite,postgres]

For each database: a fresh database (a temporary SQLite file; a throw-away PostgreSQL server started by
scripts/with-postgres.sh with its production durability settings, or DATABASE_URL if given), migrated;
N players are created and each signs in through the real login page. Then N threads, one per player,
each with its own cookies, play whole classic games against the ``random`` strategy the way the game
page does with htmx: create the game (POST /games/new/, follow to the game page), then POST
/games/<id>/move/ (a cell among the page's ``data-move`` buttons) and, when the computer is to move,
POST /games/<id>/computer/, with HX-Request and the CSRF header, until the game is over or the time is
up. Every one of those two requests stores exactly one move; both count as "moves" below, and their
latency is measured from sending the request to having read the whole answer.

For scale, the same server's throughput on trivial GETs (the login page; the API's cached catalogue)
is measured with the same number of client threads.

At the end nothing may be lost: every game's stored moves replay cleanly through the engine
(games.services.state_after), ply numbers are 1..n, the game's ply, status and result agree with the
replay, and the number of moves the clients saw accepted equals the number stored.

The load stays on 127.0.0.1, bounded in time (--seconds per database) and count (--max-games).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-Passw0rd-not-secret"
STATIC_CACHE = Path(tempfile.gettempdir()) / "ttt-bench-static"


# HTTP client -------------------------------------------------------------------------------------------


class Session:
    """One browser: a connection to the server (reopened when the server closes it) and its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, data: dict | None = None, *, htmx: bool = False
                ) -> tuple[int, dict[str, str], str]:
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if method == "POST" and "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if htmx:
            headers["HX-Request"] = "true"
            headers["HX-Current-URL"] = f"http://127.0.0.1:{self.port}{path}"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (ConnectionError, http.client.RemoteDisconnected, http.client.CannotSendRequest):
                # gunicorn's sync workers close each connection after the answer; a request that
                # raced that close is sent again on a new connection (it never reached the app).
                self.conn.close()
                if attempt == 2:
                    raise
        if response.will_close:
            self.conn.close()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def login(self, username: str) -> None:
        status, _, _ = self.request("GET", "/accounts/login/")
        assert status == 200, f"login page: {status}"
        status, headers, text = self.request("POST", "/accounts/login/", {"username": username, "password": PASSWORD})
        assert status == 302, f"login of {username}: {status} {text[:300]}"


MOVE_RE = re.compile(r'data-move="(\d+)"')
STATUS_RE = re.compile(r'id="status"[^>]*>(.*?)</', re.S)
GAME_RE = re.compile(r"/games/(\d+)/$")


# The load -------------------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per move request
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # "move", "computer", "new game", "game page"
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)
    accepted: dict[int, int] = field(default_factory=dict)  # game id -> moves the client saw stored


def play(port: int, username: str, start: threading.Barrier, deadline: list[float], max_games: int, seed: int,
         stats: Stats) -> None:
    """Sign in (outside the measured time: the password hash costs about a second), then play until the deadline."""
    rng = random.Random(seed)
    session = Session(port)
    try:
        session.login(username)
    except Exception as err:  # noqa: BLE001 - counted and shown
        stats.errors.append(f"{username}: {err}")
        start.abort()
        return
    start.wait()

    def timed(kind: str, method: str, path: str, data: dict | None = None, *, htmx: bool = True
              ) -> tuple[int, dict[str, str], str]:
        start = time.perf_counter()
        status, headers, text = session.request(method, path, data, htmx=htmx)
        took = time.perf_counter() - start
        stats.by_kind.setdefault(kind, []).append(took)
        if kind in ("move", "computer"):
            stats.latencies.append(took)
        return status, headers, text

    for _ in range(max_games):
        if time.monotonic() >= deadline[0]:
            break
        try:
            status, headers, text = timed(
                "new game", "POST", "/games/new/",
                {"variant": "classic", "opponent": "easy", "strategy": "random", "side": rng.choice("XO")}, htmx=False,
            )
            match = GAME_RE.search(headers.get("location", ""))
            if status != 302 or not match:
                stats.errors.append(f"new game: {status} {text[:200]}")
                continue
            game_id = int(match.group(1))
            stats.games_started += 1
            stats.accepted[game_id] = 0
            status, _, text = timed("game page", "GET", f"/games/{game_id}/", htmx=False)
            if status != 200:
                stats.errors.append(f"game page: {status}")
                continue
            while time.monotonic() < deadline[0]:
                cells = MOVE_RE.findall(text)
                status_text = (STATUS_RE.search(text) or [None, ""])[1]
                if cells:
                    status, _, text = timed("move", "POST", f"/games/{game_id}/move/", {"move": rng.choice(cells)})
                elif "wins" in status_text or "Draw" in status_text:
                    stats.games_finished += 1
                    break
                else:
                    status, _, text = timed("computer", "POST", f"/games/{game_id}/computer/", {})
                if status != 200:
                    stats.errors.append(f"move in game {game_id}: {status} {text[:200]}")
                    break
                stats.moves += 1
                stats.accepted[game_id] += 1
        except Exception as err:  # noqa: BLE001 - counted and shown
            stats.errors.append(f"{username}: {type(err).__name__}: {err}")
            fresh = Session(port)
            fresh.cookies = session.cookies
            session = fresh


def hammer(port: int, path: str, threads: int, seconds: float) -> tuple[float, list[float], int]:
    """Requests/s, latencies and errors of ``threads`` clients GETting ``path`` for ``seconds``."""
    latencies: list[float] = []
    errors = [0]
    deadline = time.monotonic() + seconds

    def run() -> None:
        session = Session(port)
        mine = []
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                status, _, _ = session.request("GET", path)
            except Exception:  # noqa: BLE001
                status = 0
                session = Session(port)
            mine.append(time.perf_counter() - start)
            if status != 200:
                errors[0] += 1
        latencies.extend(mine)

    began = time.monotonic()
    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return len(latencies) / (time.monotonic() - began), latencies, errors[0]


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    qs = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {qs[49] * 1000:.1f} ms, p95 {qs[94] * 1000:.1f} ms, p99 {qs[98] * 1000:.1f} ms"


# One database ------------------------------------------------------------------------------------------


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


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            status, _, _ = Session(port).request("GET", "/accounts/login/")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer in time")


def run_one(label: str, args: argparse.Namespace) -> bool:
    """Benchmark the database named by DATABASE_URL (set by the caller); True if nothing went wrong."""
    env = server_env(os.environ["DATABASE_URL"])
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL"))})
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection

    from games.models import Game
    from games.services import game_moves, state_after
    from players.models import Player

    print(f"\n== {label}: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}", flush=True)
    call_command("migrate", verbosity=0)
    collect_static(env)
    hashed = make_password(PASSWORD)
    names = [f"bench{i:03d}" for i in range(args.players)]
    Player.objects.bulk_create([Player(username=name, password=hashed) for name in names])
    connection.close()

    port = free_port()
    env["PORT"] = str(port)
    env["WEB_CONCURRENCY"] = str(args.workers)
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.conf.py", "config.wsgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=None,
    )
    ok = True
    try:
        wait_ready(port, proc)
        trivial = []
        for path in ("/accounts/login/", "/api/variants"):
            hammer(port, path, args.players, 1.0)  # warm up
            rate, lat, errors = hammer(port, path, args.players, args.trivial_seconds)
            trivial.append((path, rate, lat, errors))
        stats = Stats()
        deadline = [0.0]
        began = [0.0]

        def go() -> None:  # run by the last player to sign in, as all are released together
            began[0] = time.monotonic()
            deadline[0] = began[0] + args.seconds

        start = threading.Barrier(len(names), action=go)
        threads = [
            threading.Thread(target=play, args=(port, name, start, deadline, args.max_games, args.seed + i, stats))
            for i, name in enumerate(names)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began[0]
    finally:
        proc.terminate()
        proc.wait(timeout=30)

    print(f"  {args.players} players, {args.workers} gunicorn workers, {elapsed:.1f} s")
    print(f"  moves: {stats.moves} ({stats.moves / elapsed:.0f} moves/s), {percentiles(stats.latencies)}, "
          f"max {max(stats.latencies, default=0) * 1000:.0f} ms")
    print(f"  games: {stats.games_started} started, {stats.games_finished} finished; errors: {len(stats.errors)}")
    for error in stats.errors[:5]:
        print(f"    {error}")
    for kind, values in stats.by_kind.items():
        print(f"    {kind:>9}: {len(values)} requests, {percentiles(values)}")
    for path, rate, lat, errors in trivial:
        print(f"  trivial GET {path}: {rate:.0f} requests/s, {percentiles(lat)}, errors: {errors}")
    ok = not stats.errors and all(t[3] == 0 for t in trivial)

    # Nothing lost: replay every stored game through the engine.
    problems = []
    stored_total = 0
    games = Game.objects.filter(created_by__username__in=names)
    for game in games:
        moves = game_moves(game)
        stored_total += len(moves)
        plies = list(game.moves.order_by("ply").values_list("ply", flat=True))
        try:
            state = state_after(game, moves)
        except ValueError as err:
            problems.append(f"game {game.pk}: replay fails: {err}")
            continue
        if plies != list(range(1, len(moves) + 1)) or game.ply != len(moves):
            problems.append(f"game {game.pk}: plies {plies[:3]}... stored ply {game.ply}, {len(moves)} moves")
        if state.is_over != (game.status == Game.Status.FINISHED):
            problems.append(f"game {game.pk}: replay over={state.is_over}, stored status {game.status}")
        if state.is_over and (state.winner or Game.Result.DRAW) != game.result:
            problems.append(f"game {game.pk}: replay winner {state.winner}, stored result {game.result}")
        if stats.accepted.get(game.pk) != len(moves):
            problems.append(f"game {game.pk}: clients saw {stats.accepted.get(game.pk)} stored, db has {len(moves)}")
    if len(games) != stats.games_started:
        problems.append(f"{len(games)} games stored, clients started {stats.games_started}")
    print(f"  check: {len(games)} games, {stored_total} moves replayed through the engine: "
          + ("all consistent" if not problems else f"{len(problems)} PROBLEMS"))
    for problem in problems[:10]:
        print(f"    {problem}")
    return ok and not problems


# Both databases ---------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=16, help="concurrent simulated players (default 16)")
    parser.add_argument("--seconds", type=float, default=15, help="play time per database (default 15)")
    parser.add_argument("--max-games", type=int, default=500, help="games per player at most (default 500)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--trivial-seconds", type=float, default=4, help="time per trivial-view measure")
    parser.add_argument("--db", default="sqlite,postgres", help="databases, comma-separated: sqlite,postgres")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: benchmark DATABASE_URL, labelled so
    args = parser.parse_args()
    if args.one:
        return 0 if run_one(args.one, args) else 1

    passthrough = [a for a in sys.argv[1:]]
    failed = False
    for db in args.db.split(","):
        command = [sys.executable, str(Path(__file__).resolve()), *passthrough, "--one", db]
        env = dict(os.environ)
        if db == "sqlite":
            tmp = tempfile.mkdtemp(prefix="ttt-bench-")
            env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
            try:
                failed |= subprocess.run(command, env=env).returncode != 0
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        elif db == "postgres":
            env.setdefault("PG_DURABLE", "1")  # PostgreSQL's production settings: fsync and synchronous commit
            failed |= subprocess.run([str(ROOT / "scripts" / "with-postgres.sh"), *command], env=env).returncode != 0
        else:
            parser.error(f"unknown database {db!r}")
    print("\nFAILED: errors or lost moves above" if failed else "\nOK: zero errors, nothing lost")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
