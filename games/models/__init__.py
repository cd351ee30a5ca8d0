"""The games app's tables, one module per concern: games and their moves (``game``), ratings (``rating``), quick
pairing's seeks (``seek``), the record imports tried (``imports``), arena tournaments (``arena``), puzzles cut from
games (``puzzle``) and why challenges went away (``challenge_end``). State changes live in ``games.services``."""

from __future__ import annotations

from .arena import Arena, ArenaPairing, ArenaPlayer
from .challenge_end import ChallengeEnd
from .game import LEVELS, SIDES, Game, Move, Opponent
from .imports import ImportAttempt
from .puzzle import Puzzle, PuzzleAttempt, PuzzleRating
from .rating import Rating
from .seek import Seek

__all__ = [
    "LEVELS", "SIDES", "Arena", "ArenaPairing", "ArenaPlayer", "ChallengeEnd", "Game", "ImportAttempt", "Move",
    "Opponent", "Puzzle", "PuzzleAttempt", "PuzzleRating", "Rating", "Seek",
]
