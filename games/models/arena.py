"""Arena tournaments (``games.arena`` holds the rules; ``games.services.arenas`` and ``arena_scores`` write these).

An ``Arena`` runs from ``starts_at`` to ``ends_at``; its players (``ArenaPlayer``, the standings' rows) are paired
again and again while it runs, each pairing an ordinary game between two players (``Game.arena`` points back here)
with its arena details in ``ArenaPairing``: who went berserk and what the game was worth to each once it ended.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from ..arena.scoring import on_fire
from ..rating.pools import pool_label
from .game import Game


class Arena(models.Model):
    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=20)
    #: the variant's options exactly as the engine takes them, as a game's
    options = models.JSONField(default=dict, blank=True)
    #: a real-time control as written, ``M+S`` (``3+2``)
    clock = models.CharField(max_length=16)
    #: the rating pool its games count in (board and speed)
    pool = models.CharField(max_length=40)
    minutes = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(db_index=True)
    ends_at = models.DateTimeField(db_index=True)
    rated = models.BooleanField(default=True)
    #: whether players may go berserk (halve their own clock for an extra point on a win)
    berserk = models.BooleanField(default=True)
    #: a hashed password (django.contrib.auth.hashers) to join, "" for none
    password = models.CharField(max_length=128, blank=True, default="")
    #: who made it; None for the site's own schedule (``scheduled``)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="arenas_created"
    )
    scheduled = models.BooleanField(default=False)
    #: when the end was done (its last games finished and counted): the standings are final from then on
    closed = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "id"]

    def __str__(self) -> str:
        return f"Arena {self.pk} · {self.name}"

    def status(self, now: datetime) -> str:
        """"upcoming", "running" or "finished" at ``now`` (finished from ``ends_at`` on, before the end is done too)."""
        if now < self.starts_at:
            return "upcoming"
        return "running" if now < self.ends_at and self.closed is None else "finished"

    @property
    def protected(self) -> bool:
        return bool(self.password)

    @property
    def pool_label(self) -> str:
        try:
            return pool_label(self.pool)
        except ValueError:
            return self.pool


class ArenaPlayer(models.Model):
    """A player's row in an arena's standings, and what pairing needs to know of them."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries")
    score = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    #: wins in a row just now (two or more: on fire)
    streak = models.PositiveIntegerField(default=0)
    #: the player's rating in the arena's pool when they joined (the first round pairs by it)
    rating = models.FloatField()
    #: withdrawn players keep their score and are not paired until they join again
    withdrawn = models.BooleanField(default=False)
    joined = models.DateTimeField()
    #: the player's arena page, game page or API client last asked: not seen for ``games.arena.PRESENCE``, not paired
    seen = models.DateTimeField()
    #: since when the player has been free to pair (joined, or their last game ended); None while in a game
    free_since = models.DateTimeField(null=True, blank=True)
    #: the game of this arena the player is in now (at most one: it is set and cleared under the arena's lock)
    current_game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    xs = models.PositiveIntegerField(default=0)
    os = models.PositiveIntegerField(default=0)

    class Meta:
        # the standings' order (of one arena's rows); not by the arena, whose ordering would join its table
        ordering = ["-score", "-rating", "joined", "id"]
        constraints = [models.UniqueConstraint(fields=["arena", "player"], name="arena_player_unique")]
        indexes = [models.Index(fields=["arena", "-score"], name="arena_standings_idx")]

    def __str__(self) -> str:
        return f"{self.arena_id} · {self.player_id} · {self.score}"

    @property
    def on_fire(self) -> bool:
        return on_fire(self.streak)


class ArenaPairing(models.Model):
    """One game of an arena: its two players' rows, who went berserk, and (once it ended) what it was worth."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="pairings")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="arena_pairing")
    x_entry = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="+")
    o_entry = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="+")
    x_berserk = models.BooleanField(default=False)
    o_berserk = models.BooleanField(default=False)
    x_points = models.IntegerField(null=True, blank=True)
    o_points = models.IntegerField(null=True, blank=True)
    #: when the game's points were added to the standings (once: a game ends once)
    counted = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(x_entry=models.F("o_entry")), name="arena_pairing_two_players"),
        ]

    def __str__(self) -> str:
        return f"Arena {self.arena_id} · game {self.game_id}"

    def berserk_of(self, side: str) -> bool:
        return self.x_berserk if side == "X" else self.o_berserk
