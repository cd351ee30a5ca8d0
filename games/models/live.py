"""The events that open pages hear of at once (games.live)."""

from __future__ import annotations

from django.db import models


class Event(models.Model):
    """A change that open pages should hear of at once (games.live): written by the services in the transaction
    of the change, read by every web process's hub a few times a second, kept for a few minutes.

    One row per change: the game, the people whose badges it may change, and whether the lobby's lists change.
    No foreign key: a cancelled challenge's game is deleted, and its pages still hear that it went.
    """

    id = models.BigAutoField(primary_key=True)
    game_id = models.BigIntegerField()
    #: comma-separated ids of the players concerned (seats, creator, invitee): their navigation badges
    players = models.CharField(max_length=100, blank=True, default="")
    lobby = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"Event {self.pk} · game {self.game_id}"
