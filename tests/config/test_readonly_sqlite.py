"""A read-only SQLite file opens for reading (config.sqlite's pragmas on each connection): the WAL pragma that needs
to write is skipped, and a write fails as a write, which the site answers with a 503 (issue 20, item 5)."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler


@pytest.fixture(autouse=True)
def _own_files(django_db_blocker):
    """These connections open files of their own, not the suite's database."""
    with django_db_blocker.unblock():
        yield


def _connection(name: str, **options):
    handler = ConnectionHandler({  # a handler of its own: not the suite's connections
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": name,
                    "OPTIONS": {"timeout": 1, "transaction_mode": "IMMEDIATE", **options}}
    })
    return handler["default"]


@pytest.fixture
def read_only(tmp_path):
    """A database file in the default (rollback) journal mode, opened read-only (as root, file permissions
    would not stop a write: SQLite's read-only mode does)."""
    path = tmp_path / "site.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (a INTEGER)")
        db.execute("INSERT INTO t VALUES (7)")
    connection = _connection(f"file:{path}?mode=ro", uri=True)
    yield connection
    connection.close()


def test_a_writable_file_gets_its_pragmas(tmp_path):
    connection = _connection(str(tmp_path / "site.sqlite3"))
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone() == ("wal",)
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone() == (1,)  # NORMAL
    connection.close()


def test_a_read_only_file_can_still_be_read(read_only):
    with read_only.cursor() as cursor:
        cursor.execute("SELECT a FROM t")
        assert cursor.fetchall() == [(7,)]
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone() == (1,)  # NORMAL: the pragmas after the skipped one still ran


def test_a_write_to_it_fails_as_a_database_error(read_only):
    with pytest.raises(OperationalError, match="readonly"), read_only.cursor() as cursor:
        cursor.execute("INSERT INTO t VALUES (8)")


def test_other_failing_pragmas_still_fail(tmp_path, monkeypatch):
    import config.sqlite

    monkeypatch.setattr(config.sqlite, "PRAGMAS", ("PRAGMA journal_mode=WAL", "THIS IS NOT SQL"))
    connection = _connection(str(tmp_path / "x.sqlite3"))
    with pytest.raises(OperationalError):
        connection.cursor()
    connection.close()
