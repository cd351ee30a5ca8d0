#!/usr/bin/env python3
"""Two app servers, one PostgreSQL, one Redis (issue 28): how fast a move made through one server reaches the
opponent's page on the other, and that none is missed.

    .venv/bin/python bench/cluster.py [--games 16] [--seconds 30] [--think 0.2]

Starts a throw-away PostgreSQL (scripts/with-postgres.sh, or a scratch database on DATABASE_URL's server), a Redis
server, and two app servers as ``make serve`` runs them (scripts/serve.py: nginx, gunicorn's threaded workers, uvicorn,
a task worker), A and B, each configured by its environment alone. ``--games`` games between two players run at
once, each in a client process: X plays through A's API and has its game page's push stream open on A; O plays
through B's API and listens on B. Each move (a random legal cell of a 10 x 10 board, then ``--think`` seconds
before the next) is timed from the mover sending it to ``event: game`` arriving on the opponent's stream on the other
server (the mover's own answer often comes later);
one not heard within ``--miss-after`` seconds is missed. Printed: moves made and pushed across, missed, median,
p95 and p99, and the check that every stored game replays through the engine as the clients saw it.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the project's packages
from bench.common import collect_static, server_env, wait_ready  # noqa: E402
from bench.mixed import ApiSession  # noqa: E402
from bench.servers import Postgres, RedisServer, Stack  # noqa: E402

SIZE = 10  # a 10 x 10 board, ten in a row: random moves almost never end a game before it is full


@dataclass
class Outcome:
    latencies: list[float] = field(default_factory=list)  # seconds, the move sent -> the other page's notice
    answers: list[float] = field(default_factory=list)  # seconds, the move sent -> the mover's answer read
    missed: int = 0
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    accepted: dict[int, int] = field(default_factory=dict)  # game id -> moves the client saw stored


class Page:
    """A game page's push stream (raw Server-Sent Events over HTTP/1.0), read by a thread of its own that notes when
    each notice of its game arrived: a notice often arrives before the mover has read its own answer."""

    def __init__(self, port: int, token_cookie: str, game: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(f"GET /games/live/?game={game} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
                          f"Cookie: {token_cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.wanted = f"event: game\ndata: {game}\n".encode()
        self.opened = threading.Event()
        self.arrivals: queue.Queue[float] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.opened.wait(30):
            raise ConnectionError(f"the stream of game {game} did not open")

    def _read(self) -> None:
        buffer = b""
        self.sock.settimeout(None)
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            now = time.perf_counter()
            buffer += chunk
            if not self.opened.is_set() and b"event: open" in buffer:
                buffer = buffer.split(b"event: open", 1)[1]
                self.opened.set()
            while self.opened.is_set() and self.wanted in buffer:
                buffer = buffer.split(self.wanted, 1)[1]
                self.arrivals.put(now)

    def forget(self) -> None:
        """Drop the notices heard so far (the page's own moves, echoes)."""
        while not self.arrivals.empty():
            self.arrivals.get_nowait()

    def heard(self, timeout: float) -> float | None:
        """When the next notice of the game arrived (perf_counter), or None if none came in ``timeout`` s."""
        try:
            return self.arrivals.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.sock.close()


def client(index: int, a: int, b: int, games: list[int], tokens: tuple[str, str], cookies: tuple[str, str],
           start: Any, deadline: Any, args: argparse.Namespace, out: Any) -> None:
    rng = random.Random(args.seed + index)
    outcome = Outcome()
    apis = (ApiSession(a, tokens[0]), ApiSession(b, tokens[1]))  # X through A, O through B
    try:
        start.wait()
        for game in games:
            if time.monotonic() >= deadline.value:
                break
            pages = (Page(a, cookies[0], game), Page(b, cookies[1], game))  # X's page on A, O's on B
            free = list(range(SIZE * SIZE))
            rng.shuffle(free)
            ply = 0
            try:
                while free and time.monotonic() < deadline.value:
                    mover = ply % 2
                    pages[1 - mover].forget()
                    sent = time.perf_counter()
                    status, answer = apis[mover].call("POST", f"/api/games/{game}/moves",
                                                      {"move": free.pop(), "ply": ply})
                    outcome.answers.append(time.perf_counter() - sent)
                    if status != 200:
                        outcome.errors.append(f"game {game} move {ply + 1}: {status} {str(answer)[:200]}")
                        break
                    ply += 1
                    outcome.moves += 1
                    outcome.accepted[game] = ply
                    arrived = pages[1 - mover].heard(args.miss_after)
                    if arrived is not None:
                        outcome.latencies.append(arrived - sent)
                    else:
                        outcome.missed += 1
                    if answer.get("game", {}).get("status") == "finished":
                        break
                    time.sleep(args.think)
            finally:
                for page in pages:
                    page.close()
    except Exception as err:  # noqa: BLE001 - counted and shown
        outcome.errors.append(f"client {index}: {type(err).__name__}: {err}")
    out.put(outcome)


def figures(values: list[float]) -> str:
    if len(values) < 2:
        return "no figures"
    q = statistics.quantiles(values, n=100, method="inclusive")
    return f"median {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms"


def setup(env: dict[str, str], pairs: int, per_pair: int) -> list[tuple[list[int], tuple[str, str], tuple[str, str]]]:
    """Players, their tokens and session cookies, and each pair's games (X to move): per pair (games, tokens,
    cookies)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.db import connection

    from games.services import challenge_accept, challenge_create
    from players.models import ApiToken, Player
    from players.sessions import SessionStore

    def cookie(player: Player) -> str:
        session = SessionStore()
        session[SESSION_KEY] = str(player.pk)
        session[BACKEND_SESSION_KEY] = "config.auth.PlayerBackend"
        session[HASH_SESSION_KEY] = player.get_session_auth_hash()
        session.create()
        return f"sessionid={session.session_key}"

    made = []
    for n in range(pairs):
        x, o = (Player.objects.create(username=f"{side}{n:03d}", password="!") for side in ("x", "o"))
        games = [challenge_accept(game=challenge_create(player=x, variant="nxn", options={"size": SIZE}, side="X"),
                                  player=o).pk for _ in range(per_pair)]
        tokens = (ApiToken.issue(player=x, name="bench")[1], ApiToken.issue(player=o, name="bench")[1])
        made.append((games, tokens, (cookie(x), cookie(o))))
    connection.close()
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16, help="games at once (default 16)")
    parser.add_argument("--seconds", type=float, default=30, help="how long they play (default 30)")
    parser.add_argument("--think", type=float, default=0.2, help="seconds between a move and the next (default 0.2)")
    parser.add_argument("--miss-after", type=float, default=3.0, help="a notice later than this is missed (3 s)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers per app server (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="ttt-cluster-"))
    folder.chmod(0o755)
    database, redis = Postgres(), RedisServer(folder)
    redis.start()
    stacks: list[Stack] = []
    try:
        env = server_env(database.url)
        env.update(REDIS_URL=redis.url, LIVE_STREAMS_PER_PLAYER="0")
        os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        collect_static(env)
        per_pair = max(2, int(args.seconds / max(args.think, 0.05) / (SIZE * SIZE)) + 2)
        pairs = setup(env, args.games, per_pair)
        stacks = [Stack(env, folder, name) for name in ("a", "b")]
        for stack in stacks:
            stack.env["WEB_CONCURRENCY"] = str(args.web_workers)
            stack.start()
        a, b = stacks
        print(f"two app servers (nginx :{a.port} and :{b.port}, {args.web_workers} page workers each, uvicorn, a "
              f"task worker), PostgreSQL, Redis; {args.games} games, a move every {args.think} s after the last "
              f"was heard, {args.seconds:.0f} s; {os.cpu_count()} cores", flush=True)
        wait_ready(a.port, a.process)
        ctx = mp.get_context("fork")
        deadline = ctx.Value("d", 0.0)

        def go() -> None:
            deadline.value = time.monotonic() + args.seconds

        start = ctx.Barrier(len(pairs), action=go)
        out = ctx.Queue()
        procs = [ctx.Process(target=client, args=(i, a.port, b.port, games, tokens, cookies, start, deadline, args,
                                                  out))
                 for i, (games, tokens, cookies) in enumerate(pairs)]
        for proc in procs:
            proc.start()
        results = [out.get() for _ in procs]
        for proc in procs:
            proc.join()
    finally:
        for stack in stacks:
            stack.stop()
        redis.stop()

    latencies = sorted(x for r in results for x in r.latencies)
    moves, missed = sum(r.moves for r in results), sum(r.missed for r in results)
    errors = [e for r in results for e in r.errors]
    answers = sorted(x for r in results for x in r.answers)
    print(f"moves made: {moves}; pushed across to the other server's page: {len(latencies)}; missed "
          f"(not heard within {args.miss_after:.0f} s): {missed}; errors: {len(errors)}")
    print(f"  from the move sent to the opponent's page on the other server: {figures(latencies)}")
    print(f"  (the mover's own answer, for comparison: {figures(answers)})")
    for error in errors[:5]:
        print(f"  {error}")
    from django.db import connection

    from bench.common import check_games
    from games.models import Game

    accepted = {game: n for r in results for game, n in r.accepted.items()}
    names = [f"x{n:03d}" for n in range(args.games)]
    every = list(Game.objects.filter(created_by__username__in=names).values_list("pk", flat=True))
    count, total, problems = check_games(names, {pk: accepted.get(pk, 0) for pk in every}, len(every))
    connection.close()
    print(f"check: {count} games, {total} moves replayed through the engine: "
          + ("all consistent" if not problems else f"{len(problems)} PROBLEMS"))
    for problem in problems[:10]:
        print(f"  {problem}")
    database.close()
    ok = not errors and not problems and missed == 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
