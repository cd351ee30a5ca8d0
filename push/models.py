"""The database transport's log (push.transports.DatabaseLog): used when no Redis is configured."""

from __future__ import annotations

from django.db import models


class Entry(models.Model):
    """One notice: the topics it concerns ("game:12 player:3 lobby"), appended after the change committed and
    kept for a few minutes so that a page reconnecting with its last id gets what it missed."""

    id = models.BigAutoField(primary_key=True)
    topics = models.TextField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.pk}: {self.topics}"


class Head(models.Model):
    """A single row every appender locks first (SELECT ... FOR UPDATE), so that entries are numbered and committed
    one after the other: on PostgreSQL an id is handed out at INSERT, not at COMMIT, and a reader that had moved
    past a later id would never see an earlier one committed after it. (SQLite's one writer at a time does this by
    itself; the lock is then a no-op.)"""

    id = models.PositiveSmallIntegerField(primary_key=True)

    def __str__(self) -> str:
        return "push log head"
