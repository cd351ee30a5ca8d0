"""SQLite as shipped by Django, with the two things this site needs of it done through public hooks.

- **Pragmas on every new connection** (``connection_created``): WAL, so that readers never wait for the writer,
  and ``synchronous=NORMAL``, safe in WAL mode. On a read-only file (a full or read-only disk, wrong permissions)
  the pragmas that need to write are skipped: reads work, and writes fail as writes (the site answers 503,
  ``/readyz`` says the write failed), instead of every page failing to connect.
- **The planner's statistics** (``refresh_statistics``, run by the task workers' sweep as it starts and
  every hour): SQLite plans from statistics that only ``ANALYZE`` gathers. Without them it guessed that "running
  games" narrows a search as well as "this player's games", and read every running game on the site for the
  navigation's badge: 1 ms with a few games, 80 ms with 100,000. ``analysis_limit`` samples big tables, so it
  takes milliseconds (SQLite's documentation of ``PRAGMA optimize`` and ``analysis_limit``).
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

#: run on every new connection, in order; a pragma that needs to write is skipped on a read-only file
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")
#: rows ANALYZE reads per index at most (SQLite's recommended value)
ANALYSIS_LIMIT = 400


def tune(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: the pragmas above on each new SQLite connection."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for pragma in PRAGMAS:
            try:
                cursor.execute(pragma)
            except (sqlite3.OperationalError, DatabaseError) as err:
                if "readonly" not in str(err):
                    raise


def refresh_statistics(alias: str = "default") -> None:
    """Gather the query planner's statistics (SQLite; nothing on other databases, which keep their own)."""
    connection = connections[alias]
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
        cursor.execute("ANALYZE")
