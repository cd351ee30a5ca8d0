#!/usr/bin/env python3
"""How many idle live pages one stream server holds (issue 22), and what they cost the others.

    .venv/bin/python bench/live.py [--pages 2000] [--redis]

``make serve``'s processes (scripts/serve.py) with one page worker and one stream server (uvicorn, where every
stream is a coroutine), DEBUG off, a scratch SQLite database (``--redis``: the push through a Redis server of its
own). ``--pages`` signed-in pages open their push stream through nginx (``GET /games/live/?game=<id>``, each its
own connection, as a browser tab does) and stay idle. Printed:

- how many streams were open and answering (each read its opening line) and how long opening them all took;
- the stream server's memory (resident set) before and with the streams, and per stream;
- while they are all open: the latency of 200 other requests (a game page, one at a time), and how long a move
  takes to reach one of the open streams (``event: game`` read on it after the move's answer; 50 moves) —
  the push's share of an opponent seeing a move.

Nothing here is part of ``make test``; figures go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import selectors
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the project's packages
from bench.common import (  # noqa: E402
    PASSWORD,
    Session,
    collect_static,
    free_port,
    percentiles,
    process_tree,
    server_env,
    start_stack,
    wait_ready,
)
from bench.servers import RedisServer  # noqa: E402


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_stream(port: int, cookie: str, game: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(
        f"GET /games/live/?game={game} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    return sock


def read_until(sock: socket.socket, needle: bytes, timeout: float) -> bytes:
    sock.settimeout(timeout)
    buffer = b""
    while needle not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("stream closed")
        buffer += chunk
    return buffer


def measure(kind: str, args: argparse.Namespace) -> None:
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection

    from games.services import game_create
    from players.models import Player

    print(f"\n== {kind}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="ttt-live-bench-"))
    url = f"sqlite:///{workdir / 'db.sqlite3'}"
    env = server_env(url)
    env.update(LIVE_STREAMS_PER_PLAYER="0")  # one player's many tabs here: no per-account cap
    redis = None
    if kind == "redis":
        redis = RedisServer(workdir)
        redis.start()
        env["REDIS_URL"] = redis.url
    connection.close()
    connection.settings_dict["NAME"] = str(workdir / "db.sqlite3")  # this process's side: the same scratch file
    call_command("migrate", verbosity=0)
    collect_static(env)
    alice = Player.objects.create(username="alice", password=make_password(PASSWORD))
    game = game_create(player=alice, variant="nxn", options={"size": 10}, opponent="local", side="X")
    connection.close()

    port = free_port()
    proc = start_stack(env, port, web_workers=1, run_dir=workdir / "run")
    streams: list[socket.socket] = []
    try:
        wait_ready(port, proc)
        worker = next(pid for pid in process_tree(proc.pid)
                      if b"uvicorn" in Path(f"/proc/{pid}/cmdline").read_bytes())
        player = Session(port)
        player.login("alice")
        cookie = "; ".join(f"{k}={v}" for k, v in player.cookies.items())  # the player's other tabs
        for _ in range(20):  # warm up the page and the stream
            player.request("GET", f"/games/{game.pk}/")
        before = rss_kb(worker)

        began = time.perf_counter()
        pending = selectors.DefaultSelector()
        for _ in range(args.pages):
            sock = open_stream(port, cookie, game.pk)
            sock.setblocking(False)
            pending.register(sock, selectors.EVENT_READ, b"")
            streams.append(sock)
        opened = refused = 0
        answering: list[socket.socket] = []
        deadline = time.monotonic() + 120
        while opened + refused < len(streams) and time.monotonic() < deadline:
            for key, _ in pending.select(timeout=1):
                data = key.data + key.fileobj.recv(65536)
                if data.startswith((b"HTTP/1.1 503", b"HTTP/1.1 429")):  # past a cap: the page polls
                    pending.unregister(key.fileobj)
                    refused += 1
                elif b"retry:" in data:
                    pending.unregister(key.fileobj)
                    answering.append(key.fileobj)
                    opened += 1
                else:
                    pending.modify(key.fileobj, selectors.EVENT_READ, data)
        took = time.perf_counter() - began
        pending.close()
        time.sleep(2)
        during = rss_kb(worker)
        where = "one uvicorn process, behind nginx"
        print(f"  {opened} of {args.pages} streams open and answering, {refused} refused (503: the cap), in "
              f"{took:.1f} s ({where})", flush=True)
        per = (during - before) / max(opened, 1)
        print(f"  memory: {before / 1024:.0f} MB before, {during / 1024:.0f} MB with the streams: {per:.0f} kB each")

        latencies = []
        for _ in range(200):
            t = time.perf_counter()
            status, _, _ = player.request("GET", f"/games/{game.pk}/")
            latencies.append(time.perf_counter() - t)
            assert status == 200, status
        print(f"  a game page meanwhile (200 requests, one at a time): {percentiles(latencies)}")

        probe = answering[-1]
        probe.setblocking(True)
        pushes = []
        page = player.request("GET", f"/games/{game.pk}/")[2]
        free = [int(m) for m in re.findall(r'data-move="(\d+)"', page)]
        for move in free[:50]:
            probe.settimeout(0.01)
            try:
                while probe.recv(65536):  # drain keep-alives and earlier notices
                    pass
            except (TimeoutError, BlockingIOError):
                pass
            t = time.perf_counter()
            status, _, _ = player.request("POST", f"/games/{game.pk}/move/", {"move": move}, htmx=True)
            sent = time.perf_counter()
            read_until(probe, b"event: game", 10)
            pushes.append(time.perf_counter() - sent)
            assert status == 200, status
        print(f"  a move reaching an open stream after its answer ({len(pushes)} moves): {percentiles(pushes)}")
    finally:
        for sock in streams:
            sock.close()
        proc.terminate()
        proc.wait(60)
        if redis is not None:
            redis.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000, help="idle pages with an open stream (default 2000)")
    parser.add_argument("--redis", action="store_true", help="the push through Redis (default: the database)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.pages * 2 + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.update(server_env("sqlite://"))
    import django

    django.setup()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    measure("redis" if args.redis else "database", args)


if __name__ == "__main__":
    main()
