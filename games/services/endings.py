"""Endings other than by a move: resigning, claiming a win from a player who stopped, a result decided by the staff."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..engine import shown
from ..errors import (
    ClaimRefused,
    InvalidGameSettings,
    NotSeated,
)
from ..live import changed
from ..models import Game
from ..selectors import claim_win_after, game_for_viewer
from .arena_scores import arena_game_over
from .assists import analyse_when_over
from .common import check_playable
from .ratings import rate_game


def game_resign(*, game: Game, player) -> Game:
    """``player`` gives up; the other side wins. With both seats (local play) the side to move resigns."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game, so you cannot resign it")
        check_playable(locked)
        loser = locked.to_move if len(sides) == 2 else sides[0]
        end_game(locked, "O" if loser == "X" else "X", Game.Reason.RESIGNED)
    return locked


def stop_clock(game: Game, now: datetime) -> list[str]:
    """A game ends otherwise than by a move: its clock (if it has one) stops at ``now``, the running side charged.
    Returns the fields set."""
    clock = game.game_clock
    if clock is None:
        return []
    game.clock_deadline = None
    return [*game.set_clock(clock.stop(now)), "clock_deadline"]


def end_game(locked: Game, result: str, reason: str, *, now: datetime | None = None) -> Game:
    """Finish a running game otherwise than by a move (resigned, agreed, abandoned, decided by the staff, on
    time); a pending draw offer goes, the clock stops."""
    now = now or timezone.now()
    locked.status = Game.Status.FINISHED
    locked.result, locked.result_reason = result, reason
    locked.finished = now
    locked.draw_offered_by = None
    locked.version += 1
    locked.save(
        update_fields=[
            "status", "result", "result_reason", "finished", "draw_offered_by", "version", "updated",
            *stop_clock(locked, now), *rate_game(locked),
        ]
    )
    arena_game_over(locked, now=now)
    if locked.ply:
        analyse_when_over(locked)
    changed(locked)
    return locked


def game_claim_win(*, game: Game, player) -> Game:
    """The player waiting for a move wins a two-player game the opponent has left for GAME_ABANDON_AFTER.

    Only a move starts the time again (``Game.turn_started``): a draw offer, its answer or a withdrawal does
    not, or the player who keeps the other waiting could put the claim off for ever without playing.
    """
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        if not locked.is_two_players:
            raise ClaimRefused("only a game against another player can be won because the other stopped playing")
        check_playable(locked)
        if locked.clock:
            raise ClaimRefused("this game has a clock: your opponent loses on time when their time runs out")
        if locked.to_move in sides:
            raise ClaimRefused("it is your turn: your opponent is waiting for you")
        after = claim_win_after(locked)
        if timezone.now() < after:
            raise ClaimRefused(
                f"your opponent still has time to move: you may claim the win after {after:%d %b %Y, %H:%M} UTC"
            )
        end_game(locked, sides[0], Game.Reason.ABANDONED)
    return locked


def game_decide(*, game: Game | int, result: str) -> Game:
    """The staff end a running game with ``result`` (X, O or draw), e.g. after a dispute: it is finished and rated
    as if it had been played to that end, and says "decided by the staff". The admin's change form calls it."""
    if result not in Game.Result.values or not result:
        raise InvalidGameSettings(f"a decided game needs a result of X, O or draw, not {shown(result)}")
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        check_playable(locked)
        end_game(locked, result, Game.Reason.DECIDED)
    return locked

