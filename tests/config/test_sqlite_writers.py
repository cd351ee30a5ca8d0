"""config.sqlite3: writers take turns through a lock file beside the database, held from BEGIN to COMMIT or
ROLLBACK, so that a waiting writer starts as soon as the other has committed (not after SQLite's busy handler's
next sleep); it gives up with "database is locked" after the settings' timeout, as SQLite did."""

from __future__ import annotations

import fcntl
import os
import time

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

INIT = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"


@pytest.fixture(autouse=True)
def _own_files(django_db_blocker):
    """These connections open files of their own, not the suite's database."""
    with django_db_blocker.unblock():
        yield


def _handler(name: str, timeout: float = 2) -> ConnectionHandler:
    return ConnectionHandler({
        "default": {
            "ENGINE": "config.sqlite3", "NAME": name,
            "OPTIONS": {"init_command": INIT, "timeout": timeout, "transaction_mode": "IMMEDIATE"},
        }
    })


def _taken(path) -> bool:
    """Whether another open file holds the writers' lock now."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_the_lock_is_held_from_begin_to_commit_or_rollback(tmp_path):
    name = str(tmp_path / "site.sqlite3")
    connection = _handler(name)["default"]
    connection.cursor().execute("CREATE TABLE t (a INTEGER)")
    lock = f"{name}-writer"
    with _Atomic(connection):
        connection.cursor().execute("INSERT INTO t VALUES (1)")
        assert _taken(lock)
    assert not _taken(lock)  # committed
    with pytest.raises(RuntimeError), _Atomic(connection):
        connection.cursor().execute("INSERT INTO t VALUES (2)")
        assert _taken(lock)
        raise RuntimeError("the view failed")
    assert not _taken(lock)  # rolled back
    assert connection.cursor().execute("SELECT a FROM t").fetchall() == [(1,)]
    connection.close()
    assert not _taken(lock)


def test_a_writer_waits_its_turn_and_gives_up_after_the_timeout(tmp_path):
    name = str(tmp_path / "site.sqlite3")
    connection = _handler(name, timeout=0.3)["default"]
    connection.cursor().execute("CREATE TABLE t (a INTEGER)")
    fd = os.open(f"{name}-writer", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another process's transaction, never ending
    started = time.monotonic()
    with pytest.raises(OperationalError, match="database is locked"), _Atomic(connection):
        pass
    assert 0.3 <= time.monotonic() - started < 2
    fcntl.flock(fd, fcntl.LOCK_UN)  # its commit: the next transaction goes ahead
    with _Atomic(connection):
        connection.cursor().execute("INSERT INTO t VALUES (1)")
    os.close(fd)
    connection.close()


def test_an_in_memory_database_needs_no_lock_file(tmp_path):
    connection = _handler(":memory:")["default"]
    with _Atomic(connection):
        connection.cursor().execute("CREATE TABLE t (a INTEGER)")
    assert connection._writer is None
    connection.close()


class _Atomic:
    """What transaction.atomic does on the outermost block, on a connection of its own handler (atomic finds its
    connection by alias in the suite's handler)."""

    def __init__(self, connection):
        self.connection = connection

    def __enter__(self):
        self.connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)

    def __exit__(self, kind, value, tb):
        try:
            if kind is None:
                self.connection.commit()
            else:
                self.connection.rollback()
        finally:
            self.connection.set_autocommit(True)
        return False
