#!/usr/bin/env python3
"""Mixed load (issue 19): quick moves while the computer thinks hard in the task workers.

    .venv/bin/python bench/mixed.py [--quick 8] [--hard 4] [--seconds 10] [--workers 2] [--db sqlite]

The real site as ``make serve`` runs it, on a scratch database (a temporary SQLite file; ``--db postgres``: a
throw-away PostgreSQL server started by scripts/with-postgres.sh with its production durability settings, or
DATABASE_URL if given), migrated: scripts/serve.py's processes (nginx in front of gunicorn's threaded workers, 2 of
them; uvicorn) and ``--workers`` task workers (``manage.py worker``, at their own lower CPU priority). Every
simulated player is a client process with its own API token (players.models.ApiToken), speaking the JSON API
over HTTP/1.1 (bench/web.py's ``Session``, with the token and JSON bodies), and all are released together:

1. for ``--seconds``, the ``--quick`` players play classic against ``easy`` alone: POST /api/games, then
   POST /api/games/{id}/moves (a random legal move, with the ply it was chosen on) until the game is over, then
   a new game. ``easy`` answers inside the move request: one request stores the move and the reply;
2. for ``--seconds`` more, the same quick players go on while the ``--hard`` players play Ultimate against
   ``hard`` (mcts, about a second a move): their move is answered at once with the move alone, and the player
   polls GET /api/games/{id} every 50 ms until the computer's reply is stored (``ply`` grows). Those polls are
   load on the web workers too, as a real client's would be.

Printed: the quick players' move latency (p50/p95/p99) and moves/s in each phase; for the hard players, the
time from sending their move to seeing the reply, beside the computer's think time and the time its task
waited in the queue (the task rows: django_tasks_database_dbtaskresult's enqueued_at -> started_at ->
finished_at, matched to each move by game and version). A task's queue wait is "explained" while every
task worker was busy with another task; time a task waited while a worker was idle (beyond the worker's
polling interval) is flagged. Then a verdict against the issue's target, and the check that nothing was lost:
every game's stored moves replay through the engine and agree with what the clients saw stored.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    Session,
    collect_static,
    free_port,
    process_cpu,
    server_env,
    start_stack,
    wait_ready,
)
from bench.mixed_report import Result, report  # noqa: E402

POLL = 0.05  # seconds between a hard player's looks for the computer's reply
REPLY_TIMEOUT = 90.0  # a reply not seen after this long is an error


# The client ------------------------------------------------------------------------------------------------


class ApiSession(Session):
    """bench/web.py's client, speaking JSON with a personal token (``Authorization: Bearer``)."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__(port)
        self.token = token

    def call(self, method: str, path: str, payload: dict | None = None) -> tuple[int, Any]:
        """(status, the decoded JSON answer or None)."""
        body = json.dumps(payload).encode() if payload is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", f"Authorization: Bearer {self.token}",
                 "Accept: application/json"]
        if method != "GET":
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        reused = self.sock is not None
        sock = self.sock or self._connect()
        try:
            sock.sendall(raw)
            head, rest = self._read_head(sock)
        except (ConnectionError, EOFError):  # a kept-alive connection closed meanwhile: once more, new one
            self.close()
            if not reused:
                raise
            sock = self._connect()
            sock.sendall(raw)
            head, rest = self._read_head(sock)
        status_line, *header_lines = head.split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        length, close = 0, False
        for line in header_lines:
            name, _, value = line.partition(":")
            name, value = name.lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "connection":
                close = value.lower() == "close"
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection in the middle of an answer")
            rest += chunk
        if close:
            self.close()  # the server said "Connection: close" (gunicorn alone, without nginx, may)
        text = rest[:length]
        try:
            return status, json.loads(text) if text else None
        except ValueError:
            return status, text.decode(errors="replace")


def new_game(api: ApiSession, result: Result, settings: dict) -> dict | None:
    status, game = api.call("POST", "/api/games", settings)
    if status != 201 or not isinstance(game, dict):
        result.errors.append(f"new game: {status} {str(game)[:200]}")
        return None
    result.games_started += 1
    result.accepted[game["id"]] = game["ply"]
    return game


def player(role: str, port: int, token: str, index: int, start: Any, t0: Any, seconds: float, seed: int, out: Any
           ) -> None:
    """One client process. Quick: classic against easy from t0 for both phases. Hard: Ultimate against hard
    (as X) in the second phase only, waiting for each reply before the next move. The Result goes to ``out``."""
    rng = random.Random(seed)
    result = Result(role)
    api = ApiSession(port, token)
    try:
        start.wait()
    except Exception:  # noqa: BLE001 - another player could not start
        out.put(result)
        return
    begin = t0.value + (seconds if role == "hard" else 0.0)
    end = t0.value + 2 * seconds
    time.sleep(max(0.0, begin - time.monotonic()))
    if role == "quick":
        settings = {"variant": "classic", "opponent": "easy", "side": "XO"[index % 2]}
    else:
        settings = {"variant": "ultimate", "opponent": "hard", "side": "X"}
    game: dict | None = None
    while time.monotonic() < end:
        try:
            if game is None or game["status"] == "finished":
                game = new_game(api, result, settings)
                if game is None:
                    time.sleep(0.1)
                continue
            gid = game["id"]
            if not game["your_turn"]:  # the computer opened, or a reply not seen yet: look again
                time.sleep(POLL)
                status, seen = api.call("GET", f"/api/games/{gid}")
                if status != 200:
                    result.errors.append(f"game {gid}: GET {status} {str(seen)[:200]}")
                    game = None
                    continue
                game = seen
                result.accepted[gid] = game["ply"]
                continue
            move = rng.choice(game["legal_moves"])
            sent = time.monotonic()
            began = time.perf_counter()
            status, answer = api.call("POST", f"/api/games/{gid}/moves", {"move": move, "ply": game["ply"]})
            latency = time.perf_counter() - began
            if status != 200 or not isinstance(answer, dict):
                result.errors.append(f"move in game {gid}: {status} {str(answer)[:200]}")
                game = None
                continue
            result.moves.append((sent - t0.value, latency, len(answer["played"])))
            result.accepted[gid] = answer["ply"]
            game = answer
            if role == "quick" or answer["status"] == "finished" or answer["your_turn"]:
                continue
            # The computer thinks in a worker: poll until its reply is stored (even past the end: none is left
            # waiting, so what the clients saw is what the database holds).
            ply, version = answer["ply"], answer["version"]
            give_up = time.monotonic() + REPLY_TIMEOUT
            while True:
                time.sleep(POLL)
                status, seen = api.call("GET", f"/api/games/{gid}")
                result.polls += 1
                if status != 200 or not isinstance(seen, dict):
                    result.errors.append(f"game {gid}: GET {status} {str(seen)[:200]}")
                    game = None
                    break
                if seen["ply"] > ply:
                    result.replies.append((gid, version, time.perf_counter() - began, latency))
                    result.accepted[gid] = seen["ply"]
                    game = seen
                    break
                if time.monotonic() > give_up:
                    result.errors.append(f"game {gid}: no reply {REPLY_TIMEOUT:.0f} s after the move at ply {ply}")
                    game = None
                    break
        except Exception as err:  # noqa: BLE001 - counted and shown
            result.errors.append(f"{role} {index}: {type(err).__name__}: {err}")
            api.close()
            game = None
    out.put(result)


# The task queue --------------------------------------------------------------------------------------------


def wait_for_queue(timeout: float) -> int:
    """Wait until no task is waiting or running (the last replies stored); the number still left."""
    from django.db import connection
    from django_tasks_db.models import DBTaskResult

    give_up = time.monotonic() + timeout
    while True:
        left = DBTaskResult.objects.filter(status__in=("READY", "RUNNING")).count()
        connection.close()
        if not left or time.monotonic() > give_up:
            return left
        time.sleep(0.2)


# One database ----------------------------------------------------------------------------------------------


def run_one(label: str, args: argparse.Namespace) -> bool:
    """Benchmark the database named by DATABASE_URL (set by the caller); True if the target is met and nothing
    went wrong."""
    env = server_env(os.environ["DATABASE_URL"])
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL"))})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from players.models import ApiToken, Player

    load_before = os.getloadavg()
    print(f"\n== {label}: {connection.vendor}; load average before: "
          + " ".join(f"{x:.2f}" for x in load_before), flush=True)
    call_command("migrate", verbosity=0)
    collect_static(env)
    quick = [f"quick{i:03d}" for i in range(args.quick)]
    hard = [f"hard{i:03d}" for i in range(args.hard)]
    tokens = {}
    for name in quick + hard:
        player_row = Player.objects.create(username=name)
        tokens[name] = ApiToken.issue(player=player_row, name="bench")[1]
    connection.close()

    logs = Path(tempfile.mkdtemp(prefix="ttt-bench-mixed-"))
    port = free_port()
    web = start_stack(env, port, web_workers=args.web_workers, task_workers=args.workers, run_dir=logs)
    ctx = mp.get_context("fork")
    try:
        wait_ready(port, web, path="/healthz")
        t0 = ctx.Value("d", 0.0)

        def go() -> None:  # run by the last player to be ready
            t0.value = time.monotonic() + 0.1

        roles = [("quick", name) for name in quick] + [("hard", name) for name in hard]
        start = ctx.Barrier(len(roles), action=go)
        out = ctx.Queue()
        procs = [ctx.Process(target=player, args=(role, port, tokens[name], i, start, t0, args.seconds,
                                                   args.seed + i, out))
                 for i, (role, name) in enumerate(roles)]
        for proc in procs:
            proc.start()
        cpu: dict[str, list[float]] = {"web": [], "workers": []}
        marks = iter((0.0, args.seconds, 2 * args.seconds))
        mark = next(marks)
        results: list[Result] = []
        while len(results) < len(procs):
            if t0.value and mark is not None and time.monotonic() >= t0.value + mark:
                cpu["web"].append(process_cpu(web.pid, workers=False))
                cpu["workers"].append(process_cpu(web.pid, workers=True))
                mark = next(marks, None)
            try:
                results.append(out.get(timeout=0.02))
            except Exception:  # noqa: BLE001 - queue.Empty: keep waiting
                continue
        for proc in procs:
            proc.join()
        left = wait_for_queue(30)
    finally:
        web.terminate()
        try:
            web.wait(timeout=60)
        except subprocess.TimeoutExpired:
            web.kill()
    load_after = os.getloadavg()

    return report(args, quick, hard, results, cpu, left, load_after, logs)


# Main ------------------------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", type=int, default=8, help="players playing classic against easy (default 8)")
    parser.add_argument("--hard", type=int, default=4, help="players playing Ultimate against hard (default 4)")
    parser.add_argument("--seconds", type=float, default=10, help="seconds per phase: alone, then mixed (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="task workers, manage.py worker (default 2: one per "
                        "core, as make serve)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--db", default="sqlite", help="databases, comma-separated: sqlite,postgres (default sqlite)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: benchmark DATABASE_URL, labelled so
    return parser


def main(argv: list[str] | None = None) -> int:
    cli = parser()
    args = cli.parse_args(argv)
    if args.one:
        return 0 if run_one(args.one, args) else 1
    passthrough = list(sys.argv[1:] if argv is None else argv)
    print(f"Python {sys.version.split()[0]} of {sys.base_prefix}, {os.cpu_count()} cores")
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
            cli.error(f"unknown database {db!r}")
    print("\nNOT MET or FAILED: see above" if failed else "\nOK: target met, zero errors, nothing lost")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
