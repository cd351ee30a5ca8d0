"""Puzzles cut from real games (``games.engine.puzzles`` finds and proves them; ``games.services.puzzles`` writes).

A ``Puzzle`` is a position of a game where the side to move had a proven forced win and did not take it: its
``solution`` is the winning line (the solving side's moves, each the only one that keeps the win, and the defence's
longest resistance between them). Each player's try at one is a ``PuzzleAttempt`` (a puzzle is served to a player
once), rated as a Glicko-2 game between the player's ``PuzzleRating`` on that board and the puzzle's own rating.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..rating.glicko2 import INITIAL_DEVIATION, INITIAL_RATING, INITIAL_VOLATILITY
from .game import Game


class Puzzle(models.Model):
    #: the game it was cut from (kept when the game is deleted: the puzzle stands on its own)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="puzzles")
    #: the position after this many moves of the game
    ply = models.PositiveIntegerField()
    variant = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    #: the board as a rating pool names it (``games.rating.pools.board_key``): puzzle ratings are kept per board
    board = models.CharField(max_length=40)
    #: the position (``games.engine.position_string``)
    position = models.CharField(max_length=1000)
    to_move = models.CharField(max_length=1, choices=[("X", "X"), ("O", "O")])
    #: the winning line as moves: the solver's, the defence's, ..., the solver's winning move
    solution = models.JSONField()
    moves_to_win = models.PositiveSmallIntegerField()
    #: how the win was proven: "solver" (the exact solver), "fours" (a VCF: forced by fours), "search" (a bounded
    #: exhaustive search: nested boards)
    proof = models.CharField(max_length=10)
    #: the player who missed the win (their "missed wins"); never shown in the public pool
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="missed_wins"
    )
    rating = models.FloatField(default=INITIAL_RATING)
    deviation = models.FloatField(default=INITIAL_DEVIATION)
    volatility = models.FloatField(default=INITIAL_VOLATILITY)
    plays = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    #: staff may take a puzzle out of the pools without deleting it
    enabled = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="puzzle_unique_game_ply")]
        indexes = [models.Index(fields=["board", "enabled", "rating"], name="puzzle_pool_idx")]

    def __str__(self) -> str:
        return f"Puzzle {self.pk} · {self.board} · win in {self.moves_to_win}"


class PuzzleRating(models.Model):
    """A player's puzzle rating on one board (Glicko-2, each attempt a game against the puzzle)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_ratings")
    board = models.CharField(max_length=40)
    rating = models.FloatField(default=INITIAL_RATING)
    deviation = models.FloatField(default=INITIAL_DEVIATION)
    volatility = models.FloatField(default=INITIAL_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "board"], name="puzzle_rating_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.board} · {round(self.rating)}"


class PuzzleAttempt(models.Model):
    """A puzzle served to a player (once: the unique pair), and how their try went."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    #: moves of the solution played so far (the player's and the defence's answers)
    step = models.PositiveSmallIntegerField(default=0)
    hints = models.PositiveSmallIntegerField(default=0)
    #: None while the try goes on; then whether it was solved (a wrong move ends it unsolved)
    solved = models.BooleanField(null=True, blank=True)
    #: the wrong move, when there was one (the page shows its refutation)
    wrong_move = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["player", "puzzle"], name="puzzle_attempt_once")]

    def __str__(self) -> str:
        return f"{self.player_id} · puzzle {self.puzzle_id} · {self.solved}"

    @property
    def done(self) -> bool:
        return self.solved is not None
