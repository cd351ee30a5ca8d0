"""Challenges: a game against another person that waits until someone accepts it (made by ``create``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..errors import (
    ChallengeGone,
    ChallengeTaken,
    GameNotFound,
    NotAChallenge,
    NotCreator,
    NotInvited,
    OwnChallenge,
)
from ..live import changed
from ..models import ChallengeEnd, Game, Opponent
from ..selectors import game_for_viewer
from .ratings import note_ratings
from .timekeeping import start_clock


def _lock_challenge(game: Game) -> Game:
    try:
        return game_for_viewer(game, None, visible_only=False, for_update=True)
    except GameNotFound:
        raise ChallengeGone("this challenge was cancelled") from None


def challenge_accept(*, game: Game, player) -> Game:
    """``player`` takes the open seat of a challenge; the game starts.

    Under the row lock, so of two simultaneous acceptors exactly one wins; the other gets
    ChallengeTaken. Refused for your own challenge (OwnChallenge) and for a direct challenge sent
    to someone else (NotInvited).
    """
    with transaction.atomic():
        locked = _lock_challenge(game)
        _check_challenge(locked)
        if locked.status != Game.Status.OPEN:
            raise ChallengeTaken("this challenge has already been accepted")
        if getattr(player, "pk", None) in (locked.created_by_id, locked.x_player_id, locked.o_player_id):
            raise OwnChallenge("you cannot accept your own challenge")
        if locked.invitee_id is not None and locked.invitee_id != player.pk:
            raise NotInvited("this challenge was sent to another player")
        side = locked.open_side()
        if side is None:  # pragma: no cover - an open game always has an open seat
            raise ChallengeTaken("this challenge has no free seat")
        setattr(locked, f"{side.lower()}_player", player)
        locked.status = Game.Status.ACTIVE
        locked.turn_started = timezone.now()
        locked.version += 1
        changed(locked)
        locked.save(
            update_fields=[
                f"{side.lower()}_player", "status", "turn_started", "version", "updated", *note_ratings(locked),
                *start_clock(locked, locked.turn_started),
            ]
        )
    return locked


def _check_challenge(game: Game) -> None:
    if game.opponent != Opponent.HUMAN:
        raise NotAChallenge(f"game {game.pk} is not a challenge: it is not played against another player")


def challenge_cancel(*, game: Game, player) -> None:
    """The creator withdraws a challenge nobody has accepted yet; it is deleted (it has no moves)."""
    with transaction.atomic():
        locked = _lock_challenge(game)
        _check_challenge(locked)
        if locked.created_by_id != getattr(player, "pk", None):
            raise NotCreator("only the player who made this challenge can cancel it")
        if locked.status != Game.Status.OPEN:
            raise ChallengeTaken("this challenge has already been accepted; resign instead")
        close_challenge(locked, ChallengeEnd.Reason.CANCELED)


def close_challenge(locked: Game, reason: str) -> None:
    """Delete the locked open challenge ``locked``, noting why (``ChallengeEnd``: the accounts' event streams say it),
    in the caller's transaction; its pages and the lobby hear of it."""
    ChallengeEnd.objects.create(
        game_id=locked.pk, creator_id=locked.created_by_id, invitee_id=locked.invitee_id, reason=reason
    )
    changed(locked)
    locked.delete()


def challenge_decline(*, game: Game, player) -> None:
    """The player a challenge was sent to turns it down; it is deleted, as a cancelled one is (its maker's page
    says it is no longer available)."""
    with transaction.atomic():
        locked = _lock_challenge(game)
        _check_challenge(locked)
        if locked.invitee_id is None or locked.invitee_id != getattr(player, "pk", None):
            raise NotInvited("only the player this challenge was sent to can decline it")
        if locked.status != Game.Status.OPEN:
            raise ChallengeTaken("this challenge has already been accepted; resign instead")
        close_challenge(locked, ChallengeEnd.Reason.DECLINED)

