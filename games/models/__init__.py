"""The games app's tables, one module per concern: games and their moves (``game``), ratings (``rating``), quick
pairing's seeks (``seek``), the record imports tried (``imports``) and why challenges went away
(``challenge_end``). State changes live in ``games.services``."""

from __future__ import annotations

from .challenge_end import ChallengeEnd
from .game import LEVELS, SIDES, Game, Move, Opponent
from .imports import ImportAttempt
from .rating import Rating
from .seek import Seek

__all__ = ["LEVELS", "SIDES", "ChallengeEnd", "Game", "ImportAttempt", "Move", "Opponent", "Rating", "Seek"]
