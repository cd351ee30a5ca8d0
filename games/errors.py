"""The domain's errors: what went wrong, in game terms and in words meant for people.

They know nothing of HTTP: ``games.edge.http_errors`` is the one table that maps each onto a status and a
stable error code, for the pages and the API alike. Every error is a ``ValueError`` (a refused
request changes nothing) whose message a page or an API answer shows as it is.
"""

from __future__ import annotations


class GameError(ValueError):
    """A refused request; ``str(err)`` is the message for people."""


class InvalidGameSettings(GameError):
    """A new game (or a game started from another) asked for settings the rules or the site do not allow."""


class InvalidInvitee(InvalidGameSettings):
    """The player named for a challenge (the new-game form shows it on that field)."""


class InvalidMove(GameError):
    """Not a move the rules allow here (the engine's reason is the message)."""


class NotSeated(GameError):
    """The player holds no seat in the game."""


class GameNotFound(GameError):
    """No such game, or one this viewer may not see (the two look the same from outside)."""


class NotYourTurn(GameError):
    pass


class GameFinished(GameError):
    pass


class GameNotStarted(GameError):
    """A challenge nobody has accepted yet."""


class NotComputerTurn(GameError):
    pass


class MoveConflict(GameError):
    """Another change was recorded at the same moment; nothing of this one was stored."""


class OwnChallenge(GameError):
    pass


class NotInvited(GameError):
    pass


class NotCreator(GameError):
    pass


class ChallengeTaken(GameError):
    """The challenge was accepted by someone else first (or is no longer open)."""


class NotAChallenge(GameError):
    """The game was never a challenge: it is played against the computer or on one screen."""


class ChallengeGone(GameError):
    """The challenge was cancelled or declined meanwhile."""


class RematchRefused(GameError):
    pass


class DrawRefused(GameError):
    pass


class ClaimRefused(GameError):
    pass


class TakebackRefused(GameError):
    pass


class HintRefused(GameError):
    pass


class GameNotOver(GameError):
    """Asked for something only a finished game gives (playing on from one of its positions)."""


class AnalysisUnavailable(GameError):
    """Asked for the analysis of a game still being played, or of a board too big to solve exactly."""


class InvalidRecord(GameError):
    """A game record (or position string) that cannot be imported: the message says where (line, move) and what
    was wrong; ``line`` and ``move_number`` (the ply) as the engine's RecordError gives them, else None."""

    def __init__(self, message: str, *, line: int | None = None, move_number: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.move_number = move_number


class Busy(GameError):
    """A player asked for more slow computer work (a hint, an analysis) while one of theirs is still waiting."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds: the edges say it (HTTP Retry-After)


class SeekNotFound(GameError):
    """Quick pairing: no such seek, or not any more (cancelled, replaced, or dropped when its page stopped asking)."""


class NotYourSeek(GameError):
    """Asked about, or cancelled, another player's seek."""


class OwnSeek(GameError):
    """Tried to play against one's own seek."""


class SeekTaken(GameError):
    """The seek was paired with someone else first."""


class AbortRefused(GameError):
    """Asked to abort a game that can no longer be (both sides have made their first move) or never could."""


class ArenaNotFound(GameError):
    """No such arena tournament."""


class InvalidArena(InvalidGameSettings):
    """An arena asked for a board, clock, length, start or password the site does not allow."""


class ArenaFinished(GameError):
    """The arena is over: nobody joins it any more."""


class ArenaPassword(GameError):
    """The arena is protected by a password, and the one given (if any) is not it."""


class NotInArena(GameError):
    """Asked to withdraw from an arena one has not joined."""


class BerserkRefused(GameError):
    """Berserk asked for where it cannot be: not an arena game, not allowed in this arena, already done, or after
    one's first move."""


class PuzzleNotFound(GameError):
    """No such puzzle, or none left to serve on that board."""


class PuzzleDone(GameError):
    """A move or a hint on a puzzle whose try is over."""


class NotABot(GameError):
    """A bot endpoint (``/api/bot/...``) asked by an account that is not a bot."""


class BotRefused(GameError):
    """Something a bot account may not do: play through the web pages, seek a game in the pool of people, join an
    arena."""


class BotUpgradeRefused(GameError):
    """An account that cannot become a bot: it has played a rated game against a person (or is a bot already)."""
