"""One app server as `make serve` runs it, on SQLite: nginx in front reads every request whole, gunicorn's sync
workers serve the pages, uvicorn holds the live streams, and supervisord starts again whatever exits (issue 28;
issue 29, items 1 and 4)."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.common import Session, process_tree
from bench.servers import ROOT, Stack

from .conftest import Stream, app_env, make_duel, make_players, manage, run_dir


@pytest.fixture(scope="module")
def server(production_static) -> Iterator[tuple[Stack, dict[str, str]]]:
    folder = run_dir("ttt-stack-")
    env = app_env(database_url=f"sqlite:///{folder / 'db.sqlite3'}", static_root=production_static,
                  LIVE_STREAMS_PER_PLAYER="50")
    manage(env, "migrate", "--noinput", "-v", "0")
    make_players(env, "alice", "bob")
    stack = Stack(env, folder, "run")
    stack.start()
    yield stack, env
    stack.stop()


def get(port: int, path: str, timeout: float = 10) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def pid_of(stack: Stack, program: str) -> int:
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "supervisorctl"), "-c",
                           f"{stack.env['SERVE_RUN_DIR']}/supervisord.conf", "pid", program],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    return int(done.stdout.strip())


def test_pages_answer_while_many_live_streams_are_open(server, streams):
    stack, _ = server
    alice = Session(stack.port)
    alice.login("alice")
    for _ in range(30):  # far more open pages than gunicorn has workers (one): uvicorn holds them
        stream = Stream(stack.port, alice.cookies)
        streams.append(stream)
        stream.read_until("event: open")
    for path in ("/healthz", "/accounts/login/", "/rules/"):
        assert get(stack.port, path, timeout=5) == 200
    status, _, _ = alice.request("GET", "/games/")
    assert status == 200


def test_slow_clients_hold_up_nobody(server):
    """Clients trickling their headers, or a login form's body, a byte at a time: nginx reads them; the pages'
    only worker never sees them until they are whole, so everyone else is answered meanwhile."""
    stack, _ = server
    slow: list[socket.socket] = []
    try:
        for n in range(12):
            sock = socket.create_connection(("127.0.0.1", stack.port), timeout=5)
            if n % 2:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            else:
                sock.sendall(b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4000\r\n"
                             b"Content-Type: application/x-www-form-urlencoded\r\n\r\nusername=")
            slow.append(sock)
        for _ in range(6):
            for sock in slow:
                sock.sendall(b"a")  # a byte now and then: the client is slow, not gone
            started = time.monotonic()
            assert get(stack.port, "/healthz", timeout=5) == 200
            assert get(stack.port, "/accounts/login/", timeout=5) == 200
            assert time.monotonic() - started < 5
            time.sleep(0.5)
    finally:
        for sock in slow:
            sock.close()


def test_a_process_that_exits_is_started_again(server, streams):
    stack, env = server
    for program in ("web", "push", "worker:worker-0"):
        before = pid_of(stack, program)
        orphans = process_tree(before)  # its own workers, which leave once they find their parent gone
        os.kill(before, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                now = pid_of(stack, program)
            except ValueError:  # not running at this instant
                now = 0
            if now and now != before:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"{program} was not started again")
        while any(Path(f"/proc/{pid}").exists() for pid in orphans):
            assert time.monotonic() < deadline, f"{program}'s old processes stayed"
            time.sleep(0.2)
    # everything answers again: pages, streams, and the computer's moves (the task worker)
    deadline = time.monotonic() + 60
    while not all(get(stack.port, path) == 200 for path in ("/healthz", "/accounts/login/", "/healthz")):
        assert time.monotonic() < deadline, "the pages did not come back"
        time.sleep(0.2)
    alice = Session(stack.port)
    alice.login("alice")
    stream = Stream(stack.port, alice.cookies)
    streams.append(stream)
    stream.read_until("event: open", timeout=30)
    status, location, _ = alice.request("POST", "/games/new/", {"variant": "ultimate", "opponent": "hard",
                                                                   "side": "O"})
    assert status == 302
    game = int(location.rstrip("/").rsplit("/", 1)[1])
    code = f"from games.models import Game; print(Game.objects.get(pk={game}).ply)"
    deadline = time.monotonic() + 60
    while int(manage(env, "shell", "--no-imports", "-c", code)) < 1:  # the hard computer, X, moved
        assert time.monotonic() < deadline, "the restarted task worker never played"
        time.sleep(0.5)


def test_a_move_reaches_the_other_page_through_the_servers(server, streams):
    stack, env = server
    game = make_duel(env, "alice", "bob")
    alice, bob = Session(stack.port), Session(stack.port)
    alice.login("alice")
    bob.login("bob")
    page = Stream(stack.port, bob.cookies, f"?game={game}")
    streams.append(page)
    page.read_until("event: open")
    status, _, _ = alice.request("POST", f"/games/{game}/move/", {"move": "4", "ply": "0"}, htmx=True)
    assert status == 200
    page.read_until(f"event: game\ndata: {game}\n")


BOT = """
from games.services import bot_upgrade
from players.models import ApiToken, Player
bot = bot_upgrade(player=Player.objects.create_user("robot", password="unused-password-42"))
print(ApiToken.issue(player=bot, name="engine")[1])
"""


def test_the_bot_streams_flow_through_the_servers(server, streams):
    """The bot API's streams (issue 33) as make serve serves them: nginx passes them unbuffered to uvicorn, where
    each is a coroutine woken by the push; the bot's move goes through the pages' workers (gunicorn)."""
    stack, env = server
    token = manage(env, "shell", "--no-imports", "-c", BOT).strip()
    game = make_duel(env, "alice", "robot")
    events = Stream(stack.port, {}, path="/api/stream/event", token=token)
    moves = Stream(stack.port, {}, path=f"/api/bot/game/stream/{game}", token=token)
    streams += [events, moves]
    assert events.status == 200 and moves.status == 200
    assert "application/x-ndjson" in events.read_until("\r\n\r\n")
    events.read_until(f'"type":"gameStart","game":{{"id":{game}')
    moves.read_until('"type":"gameFull"')
    alice = Session(stack.port)
    alice.login("alice")
    status, _, _ = alice.request("POST", f"/games/{game}/move/", {"move": "4", "ply": "0"}, htmx=True)
    assert status == 200
    moves.read_until('"moves":["b2"]')  # pushed at once, not held in a buffer
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
    conn.request("POST", f"/api/bot/game/{game}/move/a3", headers={"Authorization": f"Bearer {token}"})
    assert conn.getresponse().status == 200
    conn.close()
    moves.read_until('"moves":["b2","a3"]')
