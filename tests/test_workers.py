"""Real worker processes (``manage.py worker``) on a database of their own: a worker killed mid-thought does not
leave a game waiting for ever, and two workers share the jobs without storing a move twice.

The database is a SQLite file, or under the PostgreSQL pass (DATABASE_URL names PostgreSQL) a scratch database
on the same server: the workers are other processes, so they cannot see the test's own database.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    if not PG:
        yield f"sqlite:///{tmp_path / 'workers.sqlite3'}"
        return
    import psycopg

    base = os.environ["DATABASE_URL"]
    name = f"ttt_workers_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield base.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def _env(url: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "TASK"))}
    # no thinking on the player's time (games.services.thinking): a task here ends with its move
    return {**clean, "DJANGO_DEBUG": "1", "DATABASE_URL": url, "TASK_SWEEP_GRACE": "1", "TASK_LOST_AFTER": "3",
            "DJANGO_COMPUTER_PONDER_SECONDS": "0"}


def manage(url: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=_env(url), capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def query(url: str, code: str) -> object:
    """Run ``code`` (which sets ``out``) in a Django shell on the scratch database; its JSON result."""
    script = "import json\nfrom games.models import Game, Move\nfrom django_tasks_db.models import DBTaskResult\n"
    return json.loads(manage(url, "shell", "--no-imports", "-c", script + code + "\nprint(json.dumps(out))"))


def sql(url: str, statement: str) -> object:
    """The first column of the first row of ``statement``, read straight from the scratch database (fast enough to
    catch a worker in the middle of its second of thought)."""
    if url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            return conn.execute(statement).fetchone()[0]
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(statement).fetchone()[0]


TASKS = "django_tasks_database_dbtaskresult"


def start_worker(url: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--nice", "0", "--sweep-every", "0.5", "--interval", "0.05", *extra],
        cwd=ROOT, env=_env(url), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def wait_for(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    pytest.fail(f"not within {seconds} s: {what}")


def make_games(url: str, count: int, *, past_the_book: bool = False) -> list[int]:
    """``count`` games of Ultimate against the hard computer (mcts), each with the player's first move played: each
    has one computer turn waiting in the queue. The computer answers a first move from its opening book, at once;
    ``past_the_book``: the computer's book reply and the player's second move played here too, so that the turn
    waiting is one it thinks about (about a second), and the queue holds that one task alone."""
    return query(url, f"""
from games.services import computer_move, game_create, move_play
from players.models import Player
alice = Player.objects.create_user("alice", password="x")
out = []
for _ in range({count}):
    game = game_create(player=alice, variant="ultimate", opponent="hard")
    move_play(game=game, player=alice, move=40)
    if {past_the_book}:
        after = computer_move(game=game.pk).state
        move_play(game=game, player=alice, move=after.legal_moves()[0])
        DBTaskResult.objects.exclude(id=Game.objects.get(pk=game.pk).computer_task).delete()  # the book reply's
    out.append(game.pk)
""")


def test_a_worker_killed_mid_thought_does_not_leave_the_game_waiting(database_url):
    manage(database_url, "migrate", "--noinput", "-v", "0")
    (game,) = make_games(database_url, 1, past_the_book=True)
    first = start_worker(database_url)
    try:
        # it takes the task and thinks (about a second): kill it then, with no chance to clean up
        wait_for(lambda: sql(database_url, f"SELECT COUNT(*) FROM {TASKS} WHERE status = 'RUNNING'") == 1,
                 60, "the first worker to start thinking")
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        first.kill()
    assert query(database_url, f"out = Game.objects.get(pk={game}).ply") == 3  # no reply stored
    killed_at = time.monotonic()
    second = start_worker(database_url)
    try:
        wait_for(lambda: sql(database_url, f"SELECT ply FROM games_game WHERE id = {game}") == 4, 60,
                 "another worker to make the computer's move")
    finally:
        second.send_signal(signal.SIGINT)
        second.wait(10)
    waited = time.monotonic() - killed_at
    assert waited < 30  # bounded: the lost task is noticed after TASK_LOST_AFTER (3 s here) and replaced
    state = query(database_url, f"""
out = {{"moves": list(Move.objects.filter(game_id={game}).values_list("ply", flat=True)),
       "statuses": sorted(DBTaskResult.objects.values_list("status", flat=True))}}
""")
    assert state["moves"] == [1, 2, 3, 4]
    assert state["statuses"] == ["FAILED", "SUCCESSFUL"]  # the lost one is shown to staff as failed


def test_two_workers_share_the_jobs_and_store_no_move_twice(database_url):
    manage(database_url, "migrate", "--noinput", "-v", "0")
    # turns that take thought: replies from the opening book are instant, and the first worker up took them all
    games = make_games(database_url, 6, past_the_book=True)
    workers = [start_worker(database_url, "--worker-id", f"w{n}") for n in (1, 2)]
    try:
        wait_for(lambda: sql(database_url, "SELECT COUNT(*) FROM games_game WHERE ply = 4") == 6,
                 120, "both workers to answer every game")
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGINT)
        for worker in workers:
            worker.wait(10)
    state = query(database_url, f"""
out = {{"moves": [Move.objects.filter(game_id=g).count() for g in {games}],
       "by": sorted({{w for ids in DBTaskResult.objects.values_list("worker_ids", flat=True) for w in ids}})}}
""")
    assert state["moves"] == [4] * 6  # the setup's three moves and one reply each
    assert state["by"] == ["w1", "w2"]  # the jobs were shared between the two
