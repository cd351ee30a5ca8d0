"""Clocks between people (games.services.timekeeping): the server charges each move by its own time, adds the increment,
gives correspondence games their days again, and ends a game on time when a flag falls: on a read, on a move that
came too late, or by the workers' sweep. Time is the test's: ``django.utils.timezone.now`` is moved by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import ClaimRefused, GameFinished, InvalidGameSettings
from games.models import Game, Rating
from games.records import game_record
from games.selectors import claim_win_after
from games.services import (
    challenge_accept,
    challenge_create,
    draw_offer,
    game_claim_win,
    game_create,
    game_import,
    game_resign,
    move_play,
    rematch_accept,
    rematch_offer,
    settled,
    sweep_clocks,
)
from games.services.timekeeping import ABORT_GRACE


class Time:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def pass_(self, seconds: float):
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def time(monkeypatch) -> Time:
    clock = Time()
    monkeypatch.setattr(timezone, "now", clock)
    return clock


def timed_duel(player, other_player, clock: str = "3+2") -> Game:
    """alice (X) against bob (O), with ``clock``, accepted now."""
    game = challenge_create(player=player, variant="classic", side="X", clock=clock)
    return challenge_accept(game=game, player=other_player)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# Creating ------------------------------------------------------------------------------------------------------


def test_a_challenge_keeps_its_clock_as_written_and_accepting_readies_it(player, other_player, time):
    game = challenge_create(player=player, variant="classic", clock=" 3+2 ")
    assert game.clock == "3+2" and game.clock_x_ms is None  # nothing to count before someone accepts
    assert (game.game_clock.x_ms, game.game_clock.running) == (180_000, None)  # shown as the full time
    accepted = fresh(challenge_accept(game=game, player=other_player))
    clock = accepted.game_clock
    assert (clock.x_ms, clock.o_ms, clock.running) == (180_000, 180_000, None)
    assert accepted.clock_deadline == time.now + ABORT_GRACE  # X's first move has its grace
    assert challenge_create(player=player, variant="classic", clock="none").clock == ""
    assert challenge_create(player=player, variant="classic").clock == ""
    assert challenge_create(player=player, variant="classic", clock="3d").clock == "3d"


@pytest.mark.parametrize("opponent", ["easy", "local", "watch"])
def test_no_clock_without_another_person(player, opponent):
    with pytest.raises(InvalidGameSettings, match="only for a game against another player"):
        game_create(player=player, variant="classic", opponent=opponent, clock="3+2")
    assert game_create(player=player, variant="classic", opponent=opponent, clock="none").clock == ""
    assert Game.objects.filter(clock="3+2").count() == 0


@pytest.mark.parametrize("text", ["3+", "abc", "0+0", "181+0", "3+200", "4d", "0.3+0", "-1+0", "3+2+1"])
def test_a_clock_that_is_no_time_control_is_refused_and_nothing_made(player, text):
    with pytest.raises(InvalidGameSettings, match="^clock: "):
        challenge_create(player=player, variant="classic", clock=text)
    assert not Game.objects.exists()


# Charging ------------------------------------------------------------------------------------------------------


def test_the_clock_starts_after_both_first_moves_then_charges_the_mover_and_adds_the_increment(
    player, other_player, time
):
    game = timed_duel(player, other_player, "3+2")
    time.pass_(10)
    move_play(game=game, player=player, move=4)  # X's first move: no clock runs yet, O's first move has its grace
    after_x = fresh(game)
    assert after_x.clock_running == "" and after_x.clock_x_ms == 180_000
    assert after_x.clock_deadline == time.now + ABORT_GRACE
    time.pass_(20)
    move_play(game=game, player=other_player, move=0)  # O's first move: charged nothing; X's time starts
    after_o = fresh(game)
    assert (after_o.clock_x_ms, after_o.clock_o_ms, after_o.clock_running) == (180_000, 180_000, "X")
    assert after_o.clock_since == time.now and after_o.clock_deadline == time.now + timedelta(minutes=3)
    time.pass_(7.5)
    move_play(game=game, player=player, move=8)  # charged 7.5 s, given 2 s
    third = fresh(game)
    assert (third.clock_x_ms, third.clock_o_ms, third.clock_running) == (174_500, 180_000, "O")
    time.pass_(1)
    assert settled(third).game_clock.remaining_ms(time.now) == {"X": 174_500, "O": 179_000}


def test_correspondence_gives_the_full_days_for_every_move(player, other_player, time):
    game = timed_duel(player, other_player, "1d")
    assert fresh(game).clock_deadline == time.now + timedelta(days=1)  # a first move has the days per move
    move_play(game=game, player=player, move=4)
    move_play(game=game, player=other_player, move=0)
    time.pass_(20 * 3600)
    move_play(game=game, player=player, move=8)
    stored = fresh(game)
    assert (stored.clock_x_ms, stored.clock_o_ms, stored.clock_running) == (86_400_000, 86_400_000, "O")
    assert stored.clock_deadline == time.now + timedelta(days=1)


def test_the_clock_stops_when_the_game_ends(player, other_player, time):
    game = timed_duel(player, other_player, "3+0")
    for mover, move in ((player, 0), (other_player, 3), (player, 1), (other_player, 4)):
        time.pass_(1)
        move_play(game=game, player=mover, move=move)
    time.pass_(2)
    move_play(game=game, player=player, move=2)  # X completes the top row
    won = fresh(game)
    assert won.result == "X" and won.clock_running == "" and won.clock_deadline is None
    assert (won.clock_x_ms, won.clock_o_ms) == (177_000, 179_000)
    time.pass_(600)
    assert settled(won).result_reason == Game.Reason.LINE  # a stopped clock never flags

    other = timed_duel(player, other_player, "3+0")
    move_play(game=other, player=player, move=0)
    move_play(game=other, player=other_player, move=4)
    time.pass_(5)
    resigned = game_resign(game=other, player=player)
    assert resigned.clock_running == "" and fresh(other).clock_x_ms == 175_000


# Flags ---------------------------------------------------------------------------------------------------------


def flag_ready(player, other_player, time, clock: str = "0.25+0") -> Game:
    """A game whose first moves are made (X's time running), with some moves for a rating."""
    game = timed_duel(player, other_player, clock)
    for mover, move in ((player, 0), (other_player, 4), (player, 8), (other_player, 2)):
        move_play(game=game, player=mover, move=move)
    return fresh(game)


def test_a_flag_falls_on_a_read_and_the_other_side_wins_on_time(player, other_player, time):
    game = flag_ready(player, other_player, time)  # X to move, 15 s
    time.pass_(14.9)
    assert settled(game) is game and fresh(game).status == Game.Status.ACTIVE
    time.pass_(0.1)
    ended = settled(game)
    assert ended.status == Game.Status.FINISHED and ended.result == "O" and ended.result_reason == Game.Reason.TIME
    assert ended.result_text() == "O wins on time"
    stored = fresh(game)
    assert (stored.clock_x_ms, stored.clock_running, stored.clock_deadline) == (0, "", None)
    # through the ending path: rated, and the pages were told
    assert stored.is_rated and Rating.objects.get(player=other_player, variant="classic").won == 1
    assert stored.version == game.version + 1
    record = game_record(stored)  # the record says the control and how it ended
    assert '[Clock "0.25+0"]' in record and '[Termination "X lost on time"]' in record and '[Result "0-1"]' in record
    imported = game_import(player=player, text=record)  # and reads back: the same ending, the control kept as a tag
    assert imported.result_text() == "O wins on time" and imported.record_tags.get("Clock") == "0.25+0"
    assert imported.clock == "" and imported.game_clock is None  # a finished record runs no clock


def test_a_move_after_the_flag_fell_is_refused_and_the_game_ends_on_time(player, other_player, time):
    game = flag_ready(player, other_player, time)
    draw_offer(game=game, player=other_player)
    time.pass_(16)
    with pytest.raises(GameFinished, match="O wins on time"):
        move_play(game=game, player=player, move=6)
    stored = fresh(game)
    assert stored.ply == 4 and stored.result == "O" and stored.result_reason == Game.Reason.TIME
    assert stored.draw_offered_by is None
    with pytest.raises(GameFinished):
        game_resign(game=stored, player=player)


def test_the_sweep_ends_games_nobody_looks_at(player, other_player, make_player, time):
    flagging = flag_ready(player, other_player, time)
    carol = make_player("carol")
    untouched = flag_ready(carol, make_player("dave"), time, clock="10+0")
    untimed = challenge_accept(game=challenge_create(player=player, variant="classic"), player=carol)
    time.pass_(20)
    assert sweep_clocks() == 1
    assert fresh(flagging).result_text() == "O wins on time"
    assert fresh(untouched).status == fresh(untimed).status == Game.Status.ACTIVE
    assert sweep_clocks() == 0  # nothing twice
    time.pass_(600)
    assert sweep_clocks() == 1 and fresh(untouched).result == "O"


def test_a_rematch_has_the_same_clock(player, other_player, time):
    game = flag_ready(player, other_player, time)
    time.pass_(30)
    settled(game)
    rematch_offer(game=game, player=player)
    new = rematch_accept(game=game, player=other_player)
    assert new.clock == "0.25+0" and new.game_clock.x_ms == new.game_clock.o_ms == 15_000
    assert fresh(new).clock_deadline == time.now + ABORT_GRACE


def test_with_a_clock_the_clock_decides_not_a_claim(player, other_player, time):
    game = timed_duel(player, other_player, "7d")
    move_play(game=game, player=player, move=4)
    move_play(game=game, player=other_player, move=0)
    move_play(game=game, player=player, move=8)
    time.pass_(4 * 86400)  # more than the 72 hours after which a claim is allowed without a clock
    assert claim_win_after(fresh(game)) is None
    with pytest.raises(ClaimRefused, match="has a clock"):
        game_claim_win(game=game, player=player)
    time.pass_(3 * 86400)  # O's seven days are over
    assert settled(fresh(game)).result_text() == "X wins on time"


def test_a_game_with_a_clock_is_rated_in_the_pool_of_its_speed(player, other_player, time):
    """Clocks and pools together: the clock's speed (lichess's estimate of the game's length) picks the pool."""
    bullet = flag_ready(player, other_player, time)  # 0.25+0: a quarter-minute game, rated with bullet
    time.pass_(16)
    assert settled(bullet).result_reason == Game.Reason.TIME
    blitz = timed_duel(player, other_player, "3+2")
    assert fresh(blitz).pool == "classic:blitz"
    for mover, move in ((player, 0), (other_player, 3), (player, 1), (other_player, 4), (player, 2)):
        move_play(game=blitz, player=mover, move=move)
    assert fresh(bullet).pool == "classic:bullet"
    assert {r.pool for r in Rating.objects.filter(player=player)} == {"classic:bullet", "classic:blitz"}
    assert Rating.objects.get(player=player, pool="classic:blitz").won == 1
    assert Rating.objects.get(player=other_player, pool="classic:bullet").won == 1
