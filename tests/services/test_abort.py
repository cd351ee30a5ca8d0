"""Aborting (games.services.timekeeping): a game between people ends without a result and rates nobody while a side has
not made its first move, by either player, or by itself after a grace period when it has a clock; games against the
computer left for a day are aborted by the sweep and leave My games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import AbortRefused, GameFinished, NotSeated
from games.models import Game, Rating
from games.selectors import game_history, player_stats
from games.services import (
    challenge_accept,
    challenge_create,
    game_abort,
    move_play,
    settled,
    sweep_clocks,
    sweep_idle_games,
)
from games.services.timekeeping import ABORT_GRACE, IDLE_COMPUTER_GAME
from tests.services.test_timekeeping import Time, fresh, timed_duel


@pytest.fixture
def time(monkeypatch) -> Time:
    clock = Time()
    monkeypatch.setattr(timezone, "now", clock)
    return clock


def test_either_player_may_abort_before_each_side_has_moved(duel, player, other_player, published):
    with published() as heard:
        aborted = game_abort(game=duel, player=other_player)  # before any move
    assert aborted.status == Game.Status.FINISHED and aborted.result == "" and aborted.result_reason == "aborted"
    assert aborted.result_text() == "Game aborted" and aborted.is_aborted
    assert not aborted.is_rated and not Rating.objects.exists()
    assert [topics for topics in heard if f"game:{duel.pk}" in topics]  # the pages heard of it
    with pytest.raises(GameFinished):
        move_play(game=duel, player=player, move=4)

    second = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    move_play(game=second, player=player, move=4)  # O has not moved yet
    assert game_abort(game=second, player=player).is_aborted


def test_no_abort_once_both_have_moved_nor_by_others_nor_against_the_computer(
    duel, player, other_player, make_player, make_game
):
    move_play(game=duel, player=player, move=4)
    move_play(game=duel, player=other_player, move=0)
    with pytest.raises(AbortRefused, match="no longer be aborted"):
        game_abort(game=duel, player=player)
    other = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    with pytest.raises(NotSeated):
        game_abort(game=other, player=make_player("carol"))
    with pytest.raises(AbortRefused, match="resign instead"):
        game_abort(game=make_game(opponent="easy", strategy="random"), player=player)
    with pytest.raises(AbortRefused):
        game_abort(game=make_game(opponent="local"), player=player)
    assert fresh(duel).status == fresh(other).status == Game.Status.ACTIVE


def test_a_clock_aborts_a_game_whose_first_move_does_not_come(player, other_player, time):
    game = timed_duel(player, other_player, "1+0")
    time.pass_(ABORT_GRACE.total_seconds() - 1)
    assert settled(game).status == Game.Status.ACTIVE
    move_play(game=game, player=player, move=4)  # in time; now O's first move has its grace
    time.pass_(ABORT_GRACE.total_seconds() - 0.5)
    assert fresh(game).status == Game.Status.ACTIVE
    time.pass_(0.5)
    assert sweep_clocks() == 1  # nobody looking: the sweep does it
    stored = fresh(game)
    assert stored.is_aborted and stored.result == "" and stored.clock_deadline is None and not stored.is_rated

    late = timed_duel(player, other_player, "1+0")
    time.pass_(ABORT_GRACE.total_seconds() + 1)
    with pytest.raises(GameFinished, match="Game aborted"):  # X's first move came too late
        move_play(game=late, player=player, move=4)
    assert fresh(late).is_aborted and fresh(late).ply == 0


def test_a_game_without_a_clock_is_never_aborted_by_itself(duel, time):
    time.pass_(3600)
    assert sweep_clocks() == 0 and settled(duel).status == Game.Status.ACTIVE


def test_aborted_games_leave_my_games_and_count_for_nothing(duel, player, other_player):
    game_abort(game=duel, player=player)
    assert duel.pk not in [game.pk for game in game_history(player)]
    assert player_stats(player) == []


def test_games_against_the_computer_left_for_a_day_are_aborted_by_the_sweep(player, make_game, time):
    left = make_game(opponent="easy", strategy="random")
    move_play(game=left, player=player, move=4, reply=True)
    recent = make_game(opponent="easy", strategy="random")
    local = make_game(opponent="local")
    Game.objects.filter(pk__in=[left.pk, local.pk]).update(updated=time.now - IDLE_COMPUTER_GAME - timedelta(1))
    assert sweep_idle_games() == 1
    assert fresh(left).is_aborted and fresh(left).ply == 2
    assert fresh(recent).status == fresh(local).status == Game.Status.ACTIVE
    assert [game.pk for game in game_history(player)] == [local.pk, recent.pk]
