"""Quick pairing's services (games.services.seeks): seeking, pairing by rating within a widening window, what
never pairs, cancelling, playing someone's seek, stale seeks dropped, and two seekers at once making one game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import InvalidGameSettings, NotYourSeek, OwnSeek, SeekNotFound, SeekTaken
from games.models import Game, Rating, Seek
from games.services import seek_accept, seek_cancel, seek_create, seek_ping, sweep_seeks
from games.services.ratings import rate_game

pytestmark = pytest.mark.django_db

T0 = timezone.now()


def at(seconds: float):
    return T0 + timedelta(seconds=seconds)


def rate(player, rating: float, pool: str = "classic:untimed") -> None:
    Rating.objects.create(player=player, pool=pool, variant=pool.split(":")[0], rating=rating, games=10)


@pytest.fixture
def players(make_player):
    return [make_player(name) for name in ("ann", "ben", "cat", "dan")]


def test_a_seek_waits_with_its_pool_and_rating(players, published):
    ann = players[0]
    rate(ann, 1620, "nxn-5:blitz")
    with published() as heard:
        seek = seek_create(player=ann, variant="nxn", options={"size": 5}, clock="3+2", rated=True, now=at(0))
    assert (seek.game, seek.pool, seek.clock, seek.rating, seek.rated) == (None, "nxn-5:blitz", "3+2", 1620, True)
    assert seek_create(player=players[1], variant="classic", now=at(0)).rating == 1500  # no rating yet
    assert any("lobby" in topics for topics in heard)  # the lobby heard of it


def test_a_new_seek_replaces_the_old_one(players):
    ann = players[0]
    first = seek_create(player=ann, variant="classic", now=at(0))
    second = seek_create(player=ann, variant="four", now=at(1))
    assert list(Seek.objects.values_list("pk", flat=True)) == [second.pk]
    with pytest.raises(SeekNotFound):
        seek_ping(seek_id=first.pk, player=ann, now=at(2))


@pytest.mark.parametrize(
    "bad",
    [
        {"variant": "chess"},
        {"variant": "nxn", "options": {"size": 42}},
        {"variant": "classic", "options": "size=3"},
        {"variant": "classic", "clock": "3+"},
        {"variant": "classic", "clock": "9d"},
        {"variant": "classic", "rated": "yes"},
    ],
)
def test_bad_terms_are_refused_and_nothing_is_stored(players, bad):
    with pytest.raises(InvalidGameSettings):
        seek_create(player=players[0], **bad)
    assert not Seek.objects.exists()


def test_two_compatible_seekers_are_paired_into_one_game(players, published):
    ann, ben = players[:2]
    waiting = seek_create(player=ann, variant="mnk", options={"rows": 7, "cols": 6, "k": 4}, clock="5+3", now=at(0))
    with published() as heard:
        paired = seek_create(player=ben, variant="mnk", options={"rows": 6, "cols": 7, "k": 4}, clock="5+3",
                             now=at(1))
    game = paired.game
    assert game is not None and game.status == Game.Status.ACTIVE
    assert {game.x_player_id, game.o_player_id} == {ann.pk, ben.pk}
    assert game.clock == "5+3" and game.pool == "mnk-6x7k4:blitz" and game.unrated_reason == ""
    assert game.created_by_id == ann.pk  # the one who waited longer
    assert seek_ping(seek_id=waiting.pk, player=ann, now=at(2)).game_id == game.pk  # the waiting page learns it
    # both players' pages hear of it
    told = set().union(*(topics for topics in heard if f"game:{game.pk}" in topics))
    assert {f"player:{ann.pk}", f"player:{ben.pk}"} <= told


def test_sides_are_drawn_at_random(players):
    ann, ben = players[:2]
    seen = set()
    for _ in range(24):
        seek_create(player=ann, variant="classic", now=at(0))
        game = seek_create(player=ben, variant="classic", now=at(0)).game
        seen.add(game.x_player_id)
        if len(seen) == 2:
            break
    assert seen == {ann.pk, ben.pk}


def test_a_casual_pairing_makes_a_game_that_is_not_rated(players):
    ann, ben = players[:2]
    seek_create(player=ann, variant="classic", rated=False, now=at(0))
    game = seek_create(player=ben, variant="classic", rated=False, now=at(0)).game
    assert game.unrated_reason == "casual"
    game.status, game.result, game.ply = Game.Status.FINISHED, Game.Result.X, 5
    assert rate_game(game) == []
    assert not Rating.objects.exists()


def test_the_closest_rating_within_the_window_is_chosen(players):
    ann, ben, cat, dan = players
    for player, rating in ((ann, 1700), (ben, 1560), (cat, 1530), (dan, 1500)):
        rate(player, rating)
    seek_create(player=ann, variant="classic", now=at(0))
    seek_create(player=ben, variant="classic", now=at(0))
    # (ann 1700 and ben 1560 are 140 apart: not within ±100 at first)
    assert not Game.objects.exists()
    cat_seek = seek_create(player=cat, variant="classic", now=at(0))
    assert {cat_seek.game.x_player_id, cat_seek.game.o_player_id} == {ben.pk, cat.pk}  # 30 apart, not 170
    dan_seek = seek_create(player=dan, variant="classic", now=at(1))
    assert dan_seek.game is None  # ann is 200 away: the window (±110 after a second of ann's wait) is too narrow


def test_the_window_widens_with_time_until_they_pair(players):
    ann, ben = players[:2]
    rate(ann, 1500)
    rate(ben, 1750)
    seek_create(player=ann, variant="classic", now=at(0))
    ben_seek = seek_create(player=ben, variant="classic", now=at(10))  # ann waited 10 s: ±200
    assert ben_seek.game is None
    assert seek_ping(seek_id=ben_seek.pk, player=ben, now=at(14)).game is None  # ±240
    assert seek_ping(seek_id=ben_seek.pk, player=ben, now=at(15)).game is not None  # ±250


def test_far_apart_ratings_pair_once_the_window_is_unbounded(players):
    ann, ben = players[:2]
    rate(ann, 1000)
    rate(ben, 2600)
    ann_seek = seek_create(player=ann, variant="classic", now=at(0))
    for second in range(5, 90, 5):  # the page asks all along (every 2 s in the browser)
        seek_ping(seek_id=ann_seek.pk, player=ann, now=at(second))
    ben_seek = seek_create(player=ben, variant="classic", now=at(89))
    assert ben_seek.game is None
    assert seek_ping(seek_id=ann_seek.pk, player=ann, now=at(90)).game is not None


@pytest.mark.parametrize(
    "other",
    [
        {"variant": "four", "clock": "5+0"},  # another board
        {"variant": "nxn", "options": {"size": 5}, "clock": "5+0"},
        {"variant": "classic", "clock": "3+2"},  # the same pool (classic:blitz), another time control
        {"variant": "classic", "clock": "none"},  # another speed
        {"variant": "classic", "clock": "5+0", "rated": False},  # casual against rated
    ],
)
def test_other_pools_clocks_or_rated_flags_never_pair(players, other):
    first = seek_create(player=players[0], variant="classic", clock="5+0", now=at(0))
    assert first.pool == "classic:blitz"
    seek_ping(seek_id=first.pk, player=players[0], now=at(60))
    seek_create(player=players[1], now=at(80), **other)
    assert seek_ping(seek_id=first.pk, player=players[0], now=at(95)).game is None  # even with no window left
    assert not Game.objects.exists()


def test_same_board_by_another_name_pairs(players):
    seek_create(player=players[0], variant="nxn", options={"size": 3}, now=at(0))
    assert seek_create(player=players[1], variant="classic", now=at(0)).game is not None


def test_a_player_never_pairs_with_themselves(players):
    ann = players[0]
    seek = seek_create(player=ann, variant="classic", now=at(0))
    with pytest.raises(OwnSeek):
        seek_accept(seek_id=seek.pk, player=ann, now=at(1))
    assert seek_ping(seek_id=seek.pk, player=ann, now=at(100)).game is None


def test_stale_seeks_are_left_out_then_dropped(players):
    ann, ben = players[:2]
    old = seek_create(player=ann, variant="classic", now=at(0))
    fresh = seek_create(player=ben, variant="classic", now=at(31))  # ann's page stopped asking 31 s ago
    assert fresh.game is None
    assert not Seek.objects.filter(pk=old.pk).exists()  # dropped on the way
    assert sweep_seeks(now=at(40)) == 0
    assert sweep_seeks(now=at(62)) == 1  # ben's too, once his page stopped asking
    assert not Seek.objects.exists()


def test_the_sweep_deletes_paired_seeks_after_a_while(players):
    seek_create(player=players[0], variant="classic", now=at(0))
    seek_create(player=players[1], variant="classic", now=at(0))
    assert sweep_seeks(now=at(60)) == 0
    assert sweep_seeks(now=at(601)) == 2


def test_cancel(players):
    ann, ben = players[:2]
    seek = seek_create(player=ann, variant="classic", now=at(0))
    with pytest.raises(NotYourSeek):
        seek_cancel(seek_id=seek.pk, player=ben)
    with pytest.raises(NotYourSeek):
        seek_ping(seek_id=seek.pk, player=ben)
    seek_cancel(seek_id=seek.pk, player=ann)
    assert not Seek.objects.exists()
    with pytest.raises(SeekNotFound):
        seek_cancel(seek_id=seek.pk, player=ann)
    assert seek_create(player=ben, variant="classic", now=at(1)).game is None  # nobody left to pair with


def test_cancel_after_pairing_is_too_late(players):
    seek = seek_create(player=players[0], variant="classic", now=at(0))
    seek_create(player=players[1], variant="classic", now=at(0))
    with pytest.raises(SeekTaken):
        seek_cancel(seek_id=seek.pk, player=players[0])


def test_playing_someones_seek_pairs_at_once_whatever_the_ratings(players):
    ann, ben, cat = players[:3]
    rate(ann, 2400)
    seek = seek_create(player=ann, variant="ultimate", clock="10+5", now=at(0))
    own = seek_create(player=ben, variant="classic", now=at(0))
    game = seek_accept(seek_id=seek.pk, player=ben, now=at(1))
    assert {game.x_player_id, game.o_player_id} == {ann.pk, ben.pk}
    assert (game.variant, game.clock, game.status) == ("ultimate", "10+5", Game.Status.ACTIVE)
    assert not Seek.objects.filter(pk=own.pk).exists()  # ben's own seek withdrawn
    with pytest.raises(SeekTaken):
        seek_accept(seek_id=seek.pk, player=cat, now=at(2))
    stale = seek_create(player=cat, variant="classic", now=at(0))
    with pytest.raises(SeekNotFound):
        seek_accept(seek_id=stale.pk, player=ann, now=at(45))
