"""Offers between the two players of a game: a draw while it runs, a rematch once it is over."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from ..errors import (
    DrawRefused,
    NotSeated,
    RematchRefused,
)
from ..live import changed
from ..models import Game, Opponent
from ..positions import (
    game_variant,
)
from ..selectors import game_for_viewer
from .common import check_playable
from .endings import end_game
from .ratings import note_ratings
from .timekeeping import start_clock


def _check_draw(locked: Game, player) -> None:
    if not locked.sides_of(player):
        raise NotSeated("you are not playing in this game")
    if not locked.is_two_players:
        raise DrawRefused("a draw is offered to another player; this game has no other player to agree")
    check_playable(locked)


def draw_offer(*, game: Game, player) -> Game:
    """``player`` offers a draw in a running game between two players; the opponent's page shows it.

    If the opponent had offered one already, this agrees: the game ends drawn. Offering again is a
    no-op. After a declined offer, neither player offers again before the next move.
    """
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        _check_draw(locked, player)
        offered_by = locked.draw_offered_by_id
        if offered_by is not None and offered_by != player.pk:
            return end_game(locked, Game.Result.DRAW, Game.Reason.AGREED)
        if offered_by is None:
            if locked.draw_offer_ply == locked.ply:
                raise DrawRefused("a draw was just declined; it can be offered again after the next move")
            locked.draw_offered_by = player
            locked.draw_offer_ply = locked.ply
            locked.version += 1
            locked.save(update_fields=["draw_offered_by", "draw_offer_ply", "version", "updated"])
            changed(locked)
    return locked


def draw_accept(*, game: Game, player) -> Game:
    """The opponent of the player who offered a draw agrees: the game ends drawn ("Draw (agreed)")."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        _check_draw(locked, player)
        if locked.draw_offered_by_id is None:
            raise DrawRefused("no draw has been offered")
        if locked.draw_offered_by_id == player.pk:
            raise DrawRefused("you offered this draw; your opponent has to accept it")
        return end_game(locked, Game.Result.DRAW, Game.Reason.AGREED)


def draw_decline(*, game: Game, player) -> Game:
    """Decline the opponent's draw offer, or withdraw your own; the game goes on. A declined offer is not made
    again before the next move; a withdrawn one declined nothing, so either player may offer again."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        _check_draw(locked, player)
        if locked.draw_offered_by_id is None:
            raise DrawRefused("no draw has been offered")
        if locked.draw_offered_by_id == player.pk:
            locked.draw_offer_ply = None
        locked.draw_offered_by = None
        locked.version += 1
        locked.save(update_fields=["draw_offered_by", "draw_offer_ply", "version", "updated"])
        changed(locked)
    return locked


def _check_rematch(locked: Game, player) -> None:
    if not locked.sides_of(player):
        raise NotSeated("you are not playing in this game")
    if not locked.is_two_players:
        raise RematchRefused("a rematch is for games between two players; start a new game instead")
    if not locked.is_finished:
        raise RematchRefused("the game is not over yet")
    if locked.arena_id is not None:
        raise RematchRefused("an arena game has no rematch: the arena pairs you again")
    if Game.objects.filter(rematch_of=locked).exists():
        raise RematchRefused("the rematch has already been agreed")


def _start_rematch(locked: Game) -> Game:
    """The new game: same variant, options and clock, sides swapped, linked to the old one."""
    new = Game(
        variant=locked.variant, options=dict(locked.options or {}), opponent=Opponent.HUMAN,
        created_by=locked.rematch_offered_by or locked.x_player, x_player=locked.o_player,
        o_player=locked.x_player, status=Game.Status.ACTIVE, private=locked.private, rematch_of=locked,
        turn_started=timezone.now(), clock=locked.clock,
    )
    note_ratings(new)
    start_clock(new, new.turn_started)
    variant_obj = game_variant(locked)
    if variant_obj.options.get("random_start"):
        new.start_board = variant_obj.new_game(seed=random.randrange(2**31)).active_boards[0]
    new.save()
    changed(new)
    locked.rematch_offered_by = None
    locked.rematch_declined = False
    locked.version += 1
    locked.save(update_fields=["rematch_offered_by", "rematch_declined", "version", "updated"])
    changed(locked)
    return new


def _offer_rematch(locked: Game, player) -> None:
    locked.rematch_offered_by = player
    locked.rematch_declined = False
    locked.version += 1
    locked.save(update_fields=["rematch_offered_by", "rematch_declined", "version", "updated"])
    changed(locked)


def rematch_offer(*, game: Game, player) -> Game | None:
    """``player`` proposes a rematch of a finished two-player game.

    If the opponent had already proposed one, this agrees to it: the new game is returned.
    Otherwise the offer is recorded (the opponent's page shows it) and None is returned. After a declined
    offer, only the player who declined may offer (a new offer of theirs): the other is not let to insist.
    """
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        _check_rematch(locked, player)
        offered_by = locked.rematch_offered_by_id
        if locked.rematch_declined:
            if offered_by == player.pk:
                raise RematchRefused("your opponent declined the rematch")
            _offer_rematch(locked, player)
        elif offered_by is not None and offered_by != player.pk:
            return _start_rematch(locked)
        elif offered_by is None:
            _offer_rematch(locked, player)
    return None


def rematch_accept(*, game: Game, player) -> Game:
    """The opponent of the player who offered a rematch agrees: the new game (sides swapped)."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        _check_rematch(locked, player)
        if locked.rematch_offered_by_id is None:
            raise RematchRefused("no rematch has been offered")
        if locked.rematch_declined:
            raise RematchRefused("the rematch has been declined")
        if locked.rematch_offered_by_id == player.pk:
            raise RematchRefused("you offered this rematch; your opponent has to accept it")
        return _start_rematch(locked)


def rematch_decline(*, game: Game, player) -> Game:
    """Decline the opponent's rematch offer (the offerer's page says so), or withdraw your own."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        _check_rematch(locked, player)
        if locked.rematch_offered_by_id is None:
            raise RematchRefused("no rematch has been offered")
        if locked.rematch_declined:
            raise RematchRefused("the rematch has already been declined")
        if locked.rematch_offered_by_id == player.pk:
            locked.rematch_offered_by = None  # withdrawn: as if never offered
        else:
            locked.rematch_declined = True
        locked.version += 1
        locked.save(update_fields=["rematch_offered_by", "rematch_declined", "version", "updated"])
        changed(locked)
    return locked

