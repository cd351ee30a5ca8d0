"""Claiming the win from an opponent who stopped playing (no clocks, but no endless games either)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import ClaimRefused, NotSeated
from games.models import Game, Move
from games.selectors import claim_win_after
from games.services import (
    challenge_accept,
    challenge_create,
    draw_decline,
    draw_offer,
    game_claim_win,
    move_play,
)


def idle(game: Game, *, hours: float) -> None:
    """Make the turn of the side to move, and the game's last change, ``hours`` old (a queryset update leaves
    ``updated`` as given)."""
    then = timezone.now() - timedelta(hours=hours)
    Game.objects.filter(pk=game.pk).update(updated=then, turn_started=then)


def test_the_waiting_player_wins_once_the_time_has_passed(duel, player, other_player, settings):
    move_play(game=duel, player=player, move=4)  # bob (O) to move, and he does not
    game = Game.objects.get(pk=duel.pk)
    assert claim_win_after(game) == game.turn_started + settings.GAME_ABANDON_AFTER
    assert abs((game.turn_started - Move.objects.get(game=game).created).total_seconds()) < 1  # alice's move
    idle(duel, hours=71)
    with pytest.raises(ClaimRefused, match="still has time"):
        game_claim_win(game=duel, player=player)
    idle(duel, hours=73)
    game = game_claim_win(game=duel, player=player)
    assert game.status == Game.Status.FINISHED and game.result == "X"
    assert game.result_reason == Game.Reason.ABANDONED and game.result_text() == "X wins (O stopped playing)"
    assert claim_win_after(game) is None


def test_no_claim_on_your_own_turn_or_by_others(duel, player, other_player, make_player, make_game):
    idle(duel, hours=100)  # alice (X) to move: she is the one keeping bob waiting
    with pytest.raises(ClaimRefused, match="your turn"):
        game_claim_win(game=duel, player=player)
    with pytest.raises(NotSeated):
        game_claim_win(game=duel, player=make_player("carol"))
    computer_game = make_game(opponent="easy")
    assert claim_win_after(computer_game) is None
    with pytest.raises(ClaimRefused):
        game_claim_win(game=computer_game, player=player)
    assert Game.objects.get(pk=duel.pk).status == Game.Status.ACTIVE


def test_only_a_move_starts_the_time_again(duel, player, other_player):
    """Bob keeps alice waiting: offering a draw and withdrawing it, again and again, does not put off her claim;
    his move does."""
    move_play(game=duel, player=player, move=4)
    idle(duel, hours=100)
    draw_offer(game=duel, player=other_player)
    draw_decline(game=duel, player=other_player)
    draw_offer(game=duel, player=player)  # nor does her own offer, declined
    draw_decline(game=duel, player=other_player)
    game = Game.objects.get(pk=duel.pk)
    assert claim_win_after(game) < timezone.now()
    move_play(game=duel, player=other_player, move=0)
    move_play(game=duel, player=player, move=8)
    idle(duel, hours=71)
    with pytest.raises(ClaimRefused, match="still has time"):
        game_claim_win(game=duel, player=player)
    idle(duel, hours=73)
    assert game_claim_win(game=duel, player=player).result == "X"


def test_the_time_counts_from_the_start_of_a_game_nobody_moved_in(player, other_player):
    """Accepted days after it was made: the player to move (X) has the full time from the start."""
    game = challenge_create(player=player, variant="classic", side="O")
    Game.objects.filter(pk=game.pk).update(created=timezone.now() - timedelta(days=10))
    game = challenge_accept(game=game, player=other_player)
    assert timezone.now() - game.turn_started < timedelta(minutes=1)
    with pytest.raises(ClaimRefused, match="still has time"):
        game_claim_win(game=game, player=player)
