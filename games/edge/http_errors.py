"""The one table from the domain's errors (``games.errors``) to HTTP: a status and a stable error code.

Both edges read it: the pages answer with the status and show the message, the API answers
``{"code": ..., "message": ...}`` with both. A subclass not in the table takes its nearest
ancestor's entry, so every ``GameError`` has one.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import errors


class HttpError(NamedTuple):
    status: int
    code: str


TABLE: dict[type[errors.GameError], HttpError] = {
    errors.GameError: HttpError(400, "bad_request"),
    errors.InvalidGameSettings: HttpError(400, "invalid_settings"),
    errors.InvalidInvitee: HttpError(400, "invalid_settings"),
    errors.InvalidMove: HttpError(400, "illegal_move"),
    errors.NotSeated: HttpError(403, "not_seated"),
    errors.GameNotFound: HttpError(404, "not_found"),
    errors.NotYourTurn: HttpError(409, "not_your_turn"),
    errors.GameFinished: HttpError(409, "game_finished"),
    errors.GameNotStarted: HttpError(409, "game_not_started"),
    errors.NotComputerTurn: HttpError(409, "not_computer_turn"),
    errors.MoveConflict: HttpError(409, "conflict"),
    errors.OwnChallenge: HttpError(400, "own_challenge"),
    errors.NotInvited: HttpError(403, "not_invited"),
    errors.NotCreator: HttpError(403, "not_creator"),
    errors.ChallengeTaken: HttpError(409, "challenge_taken"),
    errors.NotAChallenge: HttpError(409, "not_a_challenge"),
    errors.ChallengeGone: HttpError(404, "challenge_gone"),
    errors.RematchRefused: HttpError(409, "rematch_refused"),
    errors.DrawRefused: HttpError(409, "draw_refused"),
    errors.ClaimRefused: HttpError(409, "claim_refused"),
    errors.AbortRefused: HttpError(409, "abort_refused"),
    errors.TakebackRefused: HttpError(409, "takeback_refused"),
    errors.HintRefused: HttpError(409, "hint_refused"),
    errors.GameNotOver: HttpError(409, "game_not_over"),
    errors.AnalysisUnavailable: HttpError(409, "analysis_unavailable"),
    errors.InvalidRecord: HttpError(400, "invalid_record"),
    errors.Busy: HttpError(429, "busy"),
    errors.SeekNotFound: HttpError(404, "seek_not_found"),
    errors.NotYourSeek: HttpError(403, "not_your_seek"),
    errors.OwnSeek: HttpError(400, "own_seek"),
    errors.SeekTaken: HttpError(409, "seek_taken"),
    errors.ArenaNotFound: HttpError(404, "arena_not_found"),
    errors.InvalidArena: HttpError(400, "invalid_settings"),
    errors.ArenaFinished: HttpError(409, "arena_finished"),
    errors.ArenaPassword: HttpError(403, "arena_password"),
    errors.NotInArena: HttpError(409, "not_joined"),
    errors.BerserkRefused: HttpError(409, "berserk_refused"),
    errors.PuzzleNotFound: HttpError(404, "not_found"),
    errors.PuzzleDone: HttpError(409, "puzzle_done"),
    errors.NotABot: HttpError(403, "not_a_bot"),
    errors.BotRefused: HttpError(403, "bot_refused"),
    errors.BotUpgradeRefused: HttpError(409, "upgrade_refused"),
}


def http_error(err: errors.GameError) -> HttpError:
    """The status and code for ``err``: its class's entry, else its nearest ancestor's."""
    for cls in type(err).__mro__:
        if cls in TABLE:
            return TABLE[cls]
    return TABLE[errors.GameError]  # pragma: no cover - every GameError has GameError in its MRO
