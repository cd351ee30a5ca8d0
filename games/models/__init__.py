"""The games app's tables, one module per concern: games and their moves (``game``), ratings (``rating``) and quick
pairing's seeks (``seek``). State changes live in ``games.services``."""

from __future__ import annotations

from .game import LEVELS, SIDES, Game, Move, Opponent
from .rating import Rating
from .seek import Seek

__all__ = ["LEVELS", "SIDES", "Game", "Move", "Opponent", "Rating", "Seek"]
