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
"""

from __future__ import annotations

import sqlite3

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


class DatabaseWrapper(base.DatabaseWrapper):
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
        super()._close()
