#!/usr/bin/env python3
"""Load benchmark of the real server: `make serve`'s stack on 127.0.0.1 (nginx in front of gunicorn's threaded
workers, 2 of them; uvicorn for the live streams, idle here), DEBUG off, against SQLite and PostgreSQL.

    .venv/bin/python bench/web.py [--players 16] [--seconds 15] [--db sqlite,postgres]

For each database: a fresh database (a temporary SQLite file; a throw-away PostgreSQL server started by
scripts/with-postgres.sh with its production durability settings, or DATABASE_URL if given), migrated;
N players are created. Each player is a separate client process (so the client does not serialise on
one interpreter lock and measures the server, not itself) with its own connection and cookies, speaking
HTTP/1.1 over a plain socket (``Session``: about a fifth of the client CPU that http.client cost);
it signs in through the real login page before the clock starts, then plays whole classic games
against the ``random`` strategy, one after another, the way a player does in the browser with htmx: the
first game from the new-game form (POST /games/new/, then GET the game page), each next one by the
finished game's "Play again" button (POST /games/<id>/again/ with htmx: the new game's board in one
answer, no page load; ``--start new`` opens every game from the form instead); each move is a POST
/games/<id>/move/ (a cell among the answer's ``data-move`` buttons), with HX-Request and the CSRF
header, until the game is over or the time is up. The player keeps one side for all its games (half
the players take X, half O); a quick computer that moves first (the player took O) has already moved
when the game opens; were it to ask for the computer's move (a slow computer), the page's POST
/games/<id>/computer/ is made.
``random`` answers in milliseconds, so the server plays its reply inside the player's move request:
one request usually stores two moves. Both figures are printed: moves stored per second (the player's
and the computer's) and move requests per second; latency is per request, from sending it to having
read the whole answer. The client reads only three attributes of each answer, with regular expressions:
``data-ply`` and ``data-game-status`` of ``#play`` and the ``data-move`` cells.

For scale, the same server's throughput on a trivial view (``/healthz``: no session, no database) and
on the login page is measured with the same number of client processes, and first, once, this
machine's ceiling: the same gunicorn settings serving a WSGI app that does nothing
(bench/bare_wsgi.py). Each of these is measured again with wrk when it is installed (Debian's
``wrk``: a C load generator that leaves the cores to the server). The CPU time the client processes
and the gunicorn processes used while playing is printed too: client and server share the machine's
cores.

At the end nothing may be lost: every game's stored moves (the Move rows) replay cleanly through the
engine (games.services.state_after), ply numbers are 1..n, the game's ply, move-list cache, status and
result agree with the replay, and the number of moves each client saw stored equals the number stored.

The load stays on 127.0.0.1, bounded in time (--seconds per database) and count (--max-games).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the project's packages
from bench.common import (  # noqa: E402
    PASSWORD,
    ROOT,
    Session,
    check_games,
    collect_static,
    free_port,
    hammer,
    percentiles,
    process_cpu,
    server_env,
    start_stack,
    wait_ready,
    wrk,
)
from bench.stalls import host_stalls  # noqa: E402

# HTTP client -------------------------------------------------------------------------------------------


MOVE_RE = re.compile(r'data-move="(\d+)"')
PLY_RE = re.compile(r'data-ply="(\d+)" data-game-status="(\w+)"')
GAME_RE = re.compile(r"/games/(\d+)/$")


# The load -------------------------------------------------------------------------------------------


@dataclass
class Stats:
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # seconds: "move", "computer", "new game", ...
    moves: int = 0  # moves stored, as the answers showed (the player's and the computer's)
    games_started: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)
    accepted: dict[int, int] = field(default_factory=dict)  # game id -> moves the client saw stored
    cpu: float = 0.0  # client CPU seconds while playing

    def merge(self, other: Stats) -> None:
        for kind, values in other.by_kind.items():
            self.by_kind.setdefault(kind, []).extend(values)
        self.moves += other.moves
        self.games_started += other.games_started
        self.games_finished += other.games_finished
        self.errors += other.errors
        self.accepted.update(other.accepted)
        self.cpu += other.cpu

    @property
    def move_latencies(self) -> list[float]:
        return self.by_kind.get("move", []) + self.by_kind.get("computer", [])


def play(port: int, username: str, start: Any, deadline: Any, max_games: int, seed: int, again: bool, out: Any
         ) -> None:
    """One client process: sign in (outside the measured time: the password hash costs about a second),
    wait for all the others, then play until the deadline; the Stats go to ``out``."""
    rng = random.Random(seed)
    stats = Stats()
    session = Session(port)
    try:
        session.login(username)
    except Exception as err:  # noqa: BLE001 - counted and shown
        stats.errors.append(f"{username}: {err}")
        start.abort()
        out.put(stats)
        return
    try:
        start.wait()
    except Exception:  # noqa: BLE001 - another player could not sign in
        out.put(stats)
        return
    cpu0 = time.process_time()
    end = deadline.value
    kinds = stats.by_kind

    def timed(kind: str, method: str, path: str, data: dict | None = None, *, htmx: bool = True
              ) -> tuple[int, str, str]:
        began = time.perf_counter()
        answer = session.request(method, path, data, htmx=htmx)
        kinds.setdefault(kind, []).append(time.perf_counter() - began)
        return answer

    side = "XO"[seed % 2]
    finished = None  # the game just played to its end, whose Play again opens the next
    for _ in range(max_games):
        if time.monotonic() >= end:
            break
        try:
            if again and finished is not None:  # the finished game's "Play again": the new game's #play
                status, location, text = timed("again", "POST", f"/games/{finished}/again/", {})
                match = GAME_RE.search(location)
                if status != 200 or not match:
                    stats.errors.append(f"play again: {status} {text[:200]}")
                    finished = None
                    continue
                game_id = int(match.group(1))
            else:
                status, location, text = timed(
                    "new game", "POST", "/games/new/",
                    {"variant": "classic", "opponent": "easy", "strategy": "random", "side": side}, htmx=False,
                )
                match = GAME_RE.search(location)
                if status != 302 or not match:
                    stats.errors.append(f"new game: {status} {text[:200]}")
                    continue
                game_id = int(match.group(1))
                status, _, text = timed("game page", "GET", f"/games/{game_id}/", htmx=False)
            stats.games_started += 1
            stats.accepted[game_id] = 0
            finished = None
            if status != 200:
                stats.errors.append(f"game page: {status}")
                continue
            ply = 0
            while time.monotonic() < end:
                found = PLY_RE.search(text)
                if found is None:
                    stats.errors.append(f"game {game_id}: no #play in the answer")
                    break
                new_ply, game_status = int(found.group(1)), found.group(2)
                stats.moves += new_ply - ply
                stats.accepted[game_id] = ply = new_ply
                if game_status == "finished":
                    stats.games_finished += 1
                    finished = game_id
                    break
                cells = MOVE_RE.findall(text)
                if cells:
                    # as the board's form sends it: the cell, and the ply the board showed
                    status, _, text = timed(
                        "move", "POST", f"/games/{game_id}/move/", {"move": rng.choice(cells), "ply": str(new_ply)}
                    )
                else:  # a slow computer is to move: the page asks for its move (random opens at once)
                    status, _, text = timed("computer", "POST", f"/games/{game_id}/computer/", {})
                if status != 200:
                    stats.errors.append(f"move in game {game_id}: {status} {text[:200]}")
                    break
            else:  # time is up: count what the last answer showed
                found = PLY_RE.search(text)
                if found is not None:
                    stats.moves += int(found.group(1)) - ply
                    stats.accepted[game_id] = int(found.group(1))
        except Exception as err:  # noqa: BLE001 - counted and shown
            stats.errors.append(f"{username}: {type(err).__name__}: {err}")
            session.close()  # the next request starts on a new connection, with the same cookies
    stats.cpu = time.process_time() - cpu0
    out.put(stats)


def rate_line(label: str, port: int, path: str, args: argparse.Namespace, pid: int) -> tuple[str, int]:
    """One trivial-view measure, printed as a line, and its errors: the benchmark's client processes
    (with the CPU per request of both sides), then wrk if it is installed."""
    hammer(port, path, args.players, 1.0)  # warm up
    cpu0 = process_cpu(pid)
    rate, lat, errors, client_cpu = hammer(port, path, args.players, args.trivial_seconds)
    server_cpu = process_cpu(pid) - cpu0
    n = max(1, len(lat))
    line = (f"  {label}: {rate:.0f} requests/s, {percentiles(lat)}, errors: {errors}; CPU per request: "
            f"server {server_cpu / n * 1000:.2f} ms, client {client_cpu / n * 1000:.2f} ms")
    by_wrk = wrk(port, path, args.players, args.trivial_seconds)
    if by_wrk is not None:
        line += f"; wrk: {by_wrk:.0f} requests/s"
    return line, errors


def calibrate(args: argparse.Namespace) -> None:
    """This machine's ceiling: gunicorn with the site's settings serving a WSGI app that does nothing."""
    port = free_port()
    env = dict(os.environ, PORT=str(port), WEB_CONCURRENCY=str(args.workers))
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.conf.py", "bench.bare_wsgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_ready(port, proc, path="/")
        print("\n== this machine (no Django, no database)")
        if args.stall_seconds > 0:
            print(f"  {host_stalls(args.stall_seconds)}", flush=True)
        line, _ = rate_line(f"gunicorn ({args.workers} workers) serving a bare WSGI app", port, "/", args, proc.pid)
        print(line, flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# One database ------------------------------------------------------------------------------------------


def run_one(label: str, args: argparse.Namespace) -> bool:
    """Benchmark the database named by DATABASE_URL (set by the caller); True if nothing went wrong."""
    env = server_env(os.environ["DATABASE_URL"])
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL"))})
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection

    from players.models import Player

    load_before = os.getloadavg()[0]
    print(f"\n== {label}: {connection.vendor}", flush=True)
    call_command("migrate", verbosity=0)
    collect_static(env)
    hashed = make_password(PASSWORD)
    names = [f"bench{i:03d}" for i in range(args.players)]
    Player.objects.bulk_create([Player(username=name, password=hashed) for name in names])
    connection.close()

    port = free_port()
    if args.server == "serve":  # make serve's processes, the pages behind nginx
        proc = start_stack(env, port, web_workers=args.workers)
    else:
        env.update(WEB_BIND=f"127.0.0.1:{port}", PORT=str(port), WEB_CONCURRENCY=str(args.workers))
        command = ([str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.conf.py",
                    "config.wsgi:application"] if args.server == "gunicorn" else
                   [str(Path(sys.executable).parent / "uvicorn"), "config.asgi:application", "--port", str(port),
                    "--workers", str(args.workers), "--lifespan", "off", "--no-access-log"])
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=None)
    ctx = mp.get_context("fork")
    try:
        wait_ready(port, proc)
        trivial = [rate_line(f"trivial GET {path}", port, path, args, proc.pid)
                   for path in ("/healthz", "/accounts/login/")]

        # The players: one process each, released together once all have signed in.
        deadline = ctx.Value("d", 0.0)

        def go() -> None:  # run by the last player to sign in
            deadline.value = time.monotonic() + args.seconds

        start = ctx.Barrier(len(names), action=go)
        out = ctx.Queue()
        players = [
            ctx.Process(target=play, args=(port, name, start, deadline, args.max_games, args.seed + i,
                                            args.start == "again", out))
            for i, name in enumerate(names)
        ]
        for player in players:
            player.start()
        results = []
        server_cpu0 = began = None
        while len(results) < len(players):
            if began is None and deadline.value:
                began, server_cpu0 = deadline.value - args.seconds, process_cpu(proc.pid)
            try:
                results.append(out.get(timeout=0.05))
            except Exception:  # noqa: BLE001 - queue.Empty: keep waiting
                continue
        elapsed = time.monotonic() - (began or deadline.value - args.seconds)
        server_cpu = process_cpu(proc.pid) - (server_cpu0 or 0.0)
        for player in players:
            player.join()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    stats = Stats()
    for result in results:
        stats.merge(result)

    latencies = stats.move_latencies
    requests = len(latencies)
    cores = os.cpu_count() or 1
    opened = "the first from the form, then Play again" if args.start == "again" else "each from the form"
    print(f"  {args.players} players (one client process each), {args.server} with {args.workers} workers, "
          f"{elapsed:.1f} s, "
          f"{cores} cores; load average before: {load_before:.2f}; games opened {opened}")
    print(f"  moves stored: {stats.moves} ({stats.moves / elapsed:.0f} moves/s, the players' and the computer's "
          f"replies); move requests: {requests} ({requests / elapsed:.0f}/s)")
    print(f"  move request latency: {percentiles(latencies)}, max {max(latencies, default=0) * 1000:.0f} ms")
    print(f"  games: {stats.games_started} started, {stats.games_finished} finished; errors: {len(stats.errors)}")
    for error in stats.errors[:5]:
        print(f"    {error}")
    for kind, values in stats.by_kind.items():
        print(f"    {kind:>9}: {len(values)} requests, {percentiles(values)}")
    all_requests = sum(len(v) for v in stats.by_kind.values())
    print(f"  CPU while playing: server ({args.server}) {server_cpu:.1f} s = "
          f"{server_cpu / elapsed * 100:.0f}% of a core, "
          f"{server_cpu / max(all_requests, 1) * 1000:.2f} ms per request; client {stats.cpu:.1f} s = "
          f"{stats.cpu / elapsed * 100:.0f}% of a core, {stats.cpu / max(all_requests, 1) * 1000:.2f} ms per request")
    for line, _ in trivial:
        print(line)
    ok = not stats.errors and all(errors == 0 for _, errors in trivial)

    # Nothing lost: replay every stored game through the engine.
    count, stored_total, problems = check_games(names, stats.accepted, stats.games_started)
    print(f"  check: {count} games, {stored_total} moves replayed through the engine: "
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
    parser.add_argument("--start", choices=("again", "new"), default="again",
                        help="how each next game opens: the finished game's Play again (default), or the new-game "
                             "form and then the game page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stall-seconds", type=float, default=6,
                        help="first, time the machine's own stalls for this long (bench/stalls.py; 0: skip)")
    parser.add_argument("--server", choices=("serve", "gunicorn", "uvicorn"), default="serve",
                        help="make serve's stack (nginx in front of gunicorn's threaded workers: the default), "
                             "gunicorn's workers alone, or uvicorn alone (ASGI)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: benchmark DATABASE_URL, labelled so
    args = parser.parse_args()
    if args.one:
        return 0 if run_one(args.one, args) else 1

    passthrough = [a for a in sys.argv[1:]]
    # The server runs on this same interpreter (.venv's): its build matters (see the Makefile's PYTHON).
    print(f"Python {sys.version.split()[0]} of {sys.base_prefix}, {os.cpu_count()} cores")
    calibrate(args)
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
