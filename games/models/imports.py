"""Tries at importing a game record (games.services.records), counted towards each player's hourly limit."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportAttempt(models.Model):
    """One try at importing a record, good or bad: reading a bad record costs the server as much as reading a
    good one, so every try counts towards the player's hourly limit. Rows older than the window are deleted as
    the player's next try is counted."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()

    class Meta:
        # the limit's count: one player's tries since an hour ago
        indexes = [models.Index(fields=["player", "at"], name="import_attempt_idx")]

    def __str__(self) -> str:
        return f"Import attempt {self.pk} · player {self.player_id} · {self.at:%Y-%m-%d %H:%M:%S}"
