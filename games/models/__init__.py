"""The games app's tables, one module per concern: games and their moves (``game``), ratings (``rating``), the
live pages' events (``live``), quick pairing's seeks (``seek``) and the record imports tried (``imports``). State
changes live in ``games.services``."""

from __future__ import annotations

from .game import LEVELS, SIDES, Game, Move, Opponent
from .imports import ImportAttempt
from .live import Event
from .rating import Rating
from .seek import Seek

__all__ = ["LEVELS", "SIDES", "Event", "Game", "ImportAttempt", "Move", "Opponent", "Rating", "Seek"]
