"""Players' ratings, one row per player and pool (games.rating.pools), kept by the services as games end."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..rating.glicko2 import INITIAL_DEVIATION, INITIAL_RATING, INITIAL_VOLATILITY, is_provisional
from ..rating.pools import pool_label


class Rating(models.Model):
    """A player's Glicko-2 rating in one pool (games.rating.pools: board and speed), from finished games against other
    players (``games.rating``, ``games.rating.glicko2``).

    Kept by ``games.services`` in the transaction that ends a game; ``won``, ``lost`` and ``drawn`` count the
    rated games only. ``variant`` is the pool's variant key (so a variant's pools are found without parsing keys).
    """

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    #: the pool key, ``<board>:<speed>`` (games.rating.pools.pool_key), e.g. ``mnk-15x15k5:blitz``
    pool = models.CharField(max_length=40)
    variant = models.CharField(max_length=20)
    rating = models.FloatField(default=INITIAL_RATING)
    deviation = models.FloatField(default=INITIAL_DEVIATION)
    volatility = models.FloatField(default=INITIAL_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pool", "-rating"]
        constraints = [models.UniqueConstraint(fields=["player", "pool"], name="rating_unique_player_pool")]
        indexes = [models.Index(fields=["pool", "-rating"], name="rating_pool_board_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.pool} · {self.display}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)

    @property
    def display(self) -> str:
        """The rating as shown: whole points, with "?" while provisional ("1500?", "1623")."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    @property
    def label(self) -> str:
        try:
            return pool_label(self.pool)
        except ValueError:
            return self.pool
