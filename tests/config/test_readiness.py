"""/healthz is liveness (no database); /readyz reads and writes the database and answers 503 when it cannot;
a database that fails gives a clear 503 page, not a 500 (issue 20, item 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def database_failing(message: str, *, writes_only: bool = False):
    """Every statement (or every write) fails as on a read-only or missing SQLite file."""

    def refuse(execute, sql, params, many, context):
        if not writes_only or sql.lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE")):
            raise OperationalError(message)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield


def test_readyz_is_200_when_the_database_reads_and_writes(client, db):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "read and write", "push": "database ok"}
    assert response["Cache-Control"] == "no-store"


def test_readyz_writes_nothing(client, db):
    from django.db.migrations.recorder import MigrationRecorder

    before = list(MigrationRecorder.Migration.objects.order_by("id").values_list("id", "applied"))
    assert client.get("/readyz").status_code == 200
    assert list(MigrationRecorder.Migration.objects.order_by("id").values_list("id", "applied")) == before


def test_readyz_is_503_when_the_database_cannot_be_written(client, db):
    with database_failing("attempt to write a readonly database", writes_only=True):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["database"] == "write failed (OperationalError)"
    assert response.json()["status"] == "unavailable"


def test_readyz_says_when_redis_is_down_without_failing(client, db, redis_server, monkeypatch):
    """Redis down pauses the push (pages poll) and sessions are read from the database: the server still serves,
    so it stays ready, and says what is down."""
    import push.streams
    from push.hub import Hub
    from push.transports import RedisLog

    monkeypatch.setattr(push.streams, "hub", Hub(lambda: RedisLog(redis_server.url)))
    assert client.get("/readyz").json()["push"] == "redis ok"
    redis_server.stop()
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["push"].startswith("redis down (") and "pages poll" in response.json()["push"]


def test_readyz_is_503_when_the_database_cannot_be_read(client, db):
    with database_failing("no such table: django_migrations"):
        response = client.get("/readyz")
    assert response.status_code == 503
    # (the first statement refused: the connection's settings on SQLite, the transaction's on PostgreSQL)
    assert response.json()["database"] in {f"{step} failed (OperationalError)" for step in ("connect", "begin")}


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's write lock")
def test_readyz_waits_two_seconds_for_a_held_write_lock_not_twenty(client, transactional_db):
    """The audit held SQLite's write lock past the busy timeout: every write then hung for 20 s."""
    import sqlite3
    import time

    from django.conf import settings

    blocker = sqlite3.connect(settings.DATABASES["default"]["NAME"], isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        start = time.monotonic()
        response = client.get("/readyz")
        waited = time.monotonic() - start
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert response.status_code == 503
    assert response.json()["database"] in ("begin failed (OperationalError)", "write failed (OperationalError)")
    assert 1.5 < waited < 10
    assert client.get("/readyz").status_code == 200  # the lock gone, ready again
    with connection.cursor() as cursor:  # and the connection's own timeout is the settings' again
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone() == (int(settings.DATABASES["default"]["OPTIONS"]["timeout"] * 1000),)


def test_healthz_stays_200_without_a_database(client, db):
    with database_failing("unable to open database file"):
        assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize("path", ["games:history", "games:new", "leaderboard"])
def test_pages_answer_a_clear_503_when_the_database_fails(player, path):
    browser = Client(raise_request_exception=False)
    browser.force_login(player)
    with database_failing("attempt to write a readonly database"):
        response = browser.get(reverse(path))
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    text = response.content.decode()
    assert "Temporarily unavailable" in text and "database" in text and "Traceback" not in text


def test_a_login_while_the_database_fails_is_503(db):
    browser = Client(raise_request_exception=False)
    with database_failing("unable to open database file"):
        response = browser.post(reverse("login"), {"username": "alice", "password": "x"})
    assert response.status_code == 503


def test_other_server_errors_stay_500(player, monkeypatch):
    import games.web.views.history as history_views

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(history_views, "game_history", broken)
    browser = Client(raise_request_exception=False)
    browser.force_login(player)
    response = browser.get(reverse("games:history"))
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()


def test_a_missing_sqlite_database_is_a_503_not_a_500(tmp_path):
    """The real thing, in a production-like process: a database file in a directory that does not exist."""
    code = (
        "from django.test import Client, override_settings; c = Client(raise_request_exception=False); "
        # static files not collected here: their plain names
        "o = override_settings(STORAGES={'staticfiles': {'BACKEND': "
        "'django.contrib.staticfiles.storage.StaticFilesStorage'}}); o.enable(); "
        "print('statuses', c.get('/healthz').status_code, c.get('/readyz').status_code, "
        "c.post('/accounts/login/', {'username': 'a', 'password': 'b'}).status_code)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env = {
        **clean, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k3y-" + "abcdefghij" * 6, "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_LOG_LEVEL": "CRITICAL",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'gone' / 'db.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )
    assert "statuses 200 503 503" in result.stdout, result.stdout + result.stderr[-2000:]


def test_an_api_write_while_the_database_is_read_only_is_503_json(player, make_game):
    from django.test import Client

    game = make_game()
    api = Client(raise_request_exception=False)
    api.force_login(player)
    with database_failing("attempt to write a readonly database", writes_only=True):
        response = api.post(f"/api/games/{game.pk}/moves", {"move": 4}, content_type="application/json")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert response.json()["code"] == "unavailable"
