"""Django's SQLite backend, keeping the query planner's statistics up to date, and opening a read-only file.

SQLite plans a query from statistics that only ``ANALYZE`` gathers (PostgreSQL keeps its own). Without them
it guessed that "running games" narrows a search as well as "this player's games", and so read every running
game on the site for the navigation's badge, the profile and My games: 1 ms with a few games, 80 ms with
100,000. SQLite's advice for long-lived connections is ``PRAGMA optimize`` now and then: it analyses the
tables this connection's queries used whose statistics are missing or out of date, and nothing else. Here it
runs as a connection closes (``CONN_MAX_AGE``: every ten minutes or so per worker), bounded by
``analysis_limit`` so that a big table is sampled rather than read whole.

A read-only file (a full or read-only disk, wrong permissions) cannot be switched to WAL: Django runs the
settings' ``init_command`` pragmas on each new connection and failed the connection, so every page needing the
database was a 500 even to read. Here a pragma that needs to write is skipped on such a file: reads work, and
writes fail as writes (OperationalError: the site answers 503, /readyz says the write failed).

Writers take turns through a lock file beside the database (``<name>-writer``) before ``BEGIN IMMEDIATE``. Two
processes writing at once made one of them wait in SQLite's busy handler, which sleeps 1, 2, 5, 10, 15... ms
between tries whatever the other's transaction takes (a move's is a fraction of a millisecond): under 16 players
on two web processes a fifth of the transactions waited, 0.9-1.3 s in ten seconds per process, up to 79 ms at a
time, with the request (and its process's slot) held all along. The lock file is tried every 50 microseconds,
growing to a millisecond, so a writer starts about as soon as the other has committed; it is held from BEGIN to
COMMIT or ROLLBACK only, by transactions only (Django's atomic blocks; a single autocommit write still waits
in SQLite's own handler), and given up with "database is locked" after the settings' ``timeout`` as before.
The operating system releases it when a process dies. In-memory databases and URI names do without it.

Each statement's placeholders are rewritten from Django's ``%s`` to SQLite's ``?`` once per distinct statement
(``CursorWrapper``): Django rewrites them by a regular expression on every execution, 17 microseconds for a
game's 1 kB SELECT here, and the site runs the same few statements over and over.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from functools import lru_cache

from django.db import OperationalError
from django.db.backends.sqlite3 import base

#: rows ANALYZE reads per index at most (SQLite's recommended value): statistics good enough, in milliseconds
ANALYSIS_LIMIT = 400
#: how long the statistics wait for another process's write to end (ms): never the settings' 20 s, after a reply
BUSY_MS = 100


def optimize(connection: sqlite3.Connection) -> None:
    """Bring the planner's statistics up to date where they are missing or stale (a DB-API connection)."""
    connection.execute(f"PRAGMA busy_timeout={BUSY_MS}")
    connection.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
    connection.execute("PRAGMA optimize")


#: the first and the longest pause between tries of the writers' lock file (seconds)
FIRST_PAUSE, LONGEST_PAUSE = 0.00005, 0.001


class WriterLock:
    """The writers' turn: an exclusive ``flock`` on a file beside the database, tried every ``FIRST_PAUSE`` to
    ``LONGEST_PAUSE`` seconds until ``timeout``. One per connection (its own open file: threads exclude each
    other too)."""

    def __init__(self, path: str, timeout: float) -> None:
        self.path, self.timeout = path, timeout
        self.fd: int | None = None
        self.held = False

    def acquire(self) -> None:
        if self.fd is None:
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:  # a read-only directory: SQLite's own handler alone, as before
                self.fd = -1
        if self.fd < 0:
            return
        deadline, pause = time.monotonic() + self.timeout, FIRST_PAUSE
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.held = True
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OperationalError("database is locked") from None
                time.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)

    def release(self) -> None:
        if self.held:
            self.held = False
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        self.release()
        if self.fd is not None and self.fd >= 0:
            os.close(self.fd)
        self.fd = None


#: statements whose "?" form is remembered (per process), and the longest remembered: a long IN (...) is rewritten
QMARK_KEEP, QMARK_LONGEST = 2048, 8192


@lru_cache(maxsize=QMARK_KEEP)
def _qmark(query: str) -> str:
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class CursorWrapper(base.SQLiteCursorWrapper):
    """Django's cursor, with each statement's "?" form remembered (see the module's docstring)."""

    def convert_query(self, query: str, *, param_names: list[str] | None = None) -> str:
        if param_names is None and len(query) <= QMARK_LONGEST:
            return _qmark(query)
        return super().convert_query(query, param_names=param_names)


class DatabaseWrapper(base.DatabaseWrapper):
    _writer: WriterLock | None = None

    def create_cursor(self, name: str | None = None) -> sqlite3.Cursor:
        return self.connection.cursor(factory=CursorWrapper)

    def _writer_lock(self) -> WriterLock | None:
        if self._writer is None:
            name = str(self.settings_dict["NAME"])
            if self.is_in_memory_db() or name.startswith("file:"):
                return None
            self._writer = WriterLock(f"{name}-writer", float(self.settings_dict["OPTIONS"].get("timeout", 5)))
        return self._writer

    def _start_transaction_under_autocommit(self) -> None:
        writer = self._writer_lock()
        if writer is not None:
            writer.acquire()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            if writer is not None:
                writer.release()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            if self._writer is not None:
                self._writer.release()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            if self._writer is not None:
                self._writer.release()

    def get_new_connection(self, conn_params: dict) -> sqlite3.Connection:
        commands, self.init_commands = self.init_commands, []
        try:
            conn = super().get_new_connection(conn_params)  # Django's own pragmas, without the settings' ones
        finally:
            self.init_commands = commands
        for command in commands:
            if command := command.strip():
                try:
                    conn.execute(command)
                except sqlite3.OperationalError as err:
                    if "readonly" not in str(err):
                        conn.close()
                        raise
        return conn

    def _close(self) -> None:
        if self.connection is not None and not self.is_in_memory_db():
            try:
                optimize(self.connection)
            except sqlite3.Error:  # busy, or a read-only file: the statistics wait for the next close
                pass
        try:
            super()._close()
        finally:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
