"""Quick pairing's seeks (games.rating.matchmaking, games.services.seeks)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..rating.glicko2 import INITIAL_RATING
from .game import Game


class Seek(models.Model):
    """Quick pairing: a player waiting for an opponent for a game of ``variant``/``options`` with time control
    ``clock`` (``games.engine.clock`` text: ``none``, ``3+2``, ``3d``), rated or casual, in ``pool``; ``rating`` is the
    seeker's rating there when seeking. One per player (a new one replaces the old). ``seen``: the seeker's page
    (or API client) last asked about it; one not seen for ``games.rating.matchmaking.SEEK_TTL`` is dropped. Once paired,
    ``game`` is the new game: the seek leaves the lobby and stays only to answer its seeker's next ask
    (``games.services.seeks``)."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek")
    variant = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    clock = models.CharField(max_length=16, default="none")
    rated = models.BooleanField(default=True)
    pool = models.CharField(max_length=40)
    rating = models.FloatField(default=INITIAL_RATING)
    created = models.DateTimeField()
    seen = models.DateTimeField()
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["created", "id"]
        # the pairing's lookup: open seeks of one pool, control and rated flag, seen lately
        indexes = [models.Index(fields=["pool", "clock", "rated", "seen"], name="seek_pairing_idx")]

    def __str__(self) -> str:
        return f"Seek {self.pk} · {self.player_id} · {self.pool} · {self.clock}{'' if self.rated else ' casual'}"
