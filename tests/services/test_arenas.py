"""Arena tournaments' services (games.services.arenas, arena_pairing, arena_scores): making, joining, pairing,
points, berserk, the end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import (
    ArenaFinished,
    ArenaPassword,
    BerserkRefused,
    InvalidArena,
    NotInArena,
    RematchRefused,
)
from games.models import Arena, ArenaPairing, ArenaPlayer, Game
from games.services import (
    arena_berserk,
    arena_create,
    arena_join,
    arena_withdraw,
    end_arena,
    game_resign,
    move_play,
    pair_arena,
    rematch_offer,
    schedule_arenas,
)

pytestmark = pytest.mark.django_db


def running_arena(creator, **terms):
    terms = {"variant": "classic", "clock": "1+0", "minutes": 10, **terms}
    return arena_create(player=creator, **terms)


def entry(arena, player):
    return ArenaPlayer.objects.get(arena=arena, player=player)


@pytest.mark.parametrize(
    ("terms", "words"),
    [
        ({"minutes": 9}, "minutes"),
        ({"minutes": 121}, "minutes"),
        ({"minutes": True}, "minutes"),
        ({"clock": "none"}, "real time"),
        ({"clock": "3d"}, "real time"),
        ({"clock": "3+"}, "clock"),
        ({"clock": 3}, "clock"),
        ({"variant": "chess"}, "variant"),
        ({"variant": "nxn", "options": {"size": 99}}, "size"),
        ({"starts_in": -1}, "starts_in"),
        ({"starts_in": 10**9}, "starts_in"),
        ({"rated": "yes"}, "rated"),
        ({"password": "x" * 101}, "password"),
    ],
)
def test_bad_terms_are_refused_and_nothing_is_stored(player, terms, words):
    with pytest.raises(InvalidArena, match=words):
        running_arena(player, **terms)
    assert not Arena.objects.exists()


def test_an_arena_runs_from_its_start_for_its_minutes(player):
    now = timezone.now()
    arena = arena_create(player=player, variant="ultimate", clock="3+2", minutes=45, starts_in=600, now=now)
    assert (arena.starts_at, arena.ends_at) == (now + timedelta(minutes=10), now + timedelta(minutes=55))
    assert arena.pool == "ultimate:blitz" and arena.name == "Ultimate 3+2 arena"
    assert [arena.status(now), arena.status(now + timedelta(minutes=20)), arena.status(now + timedelta(hours=1))] == [
        "upcoming", "running", "finished"]


def test_a_password_is_asked_of_newcomers_only(player, other_player):
    arena = running_arena(player, password="sesame")
    assert arena.password != "sesame"  # stored hashed
    with pytest.raises(ArenaPassword):
        arena_join(arena=arena, player=other_player)
    with pytest.raises(ArenaPassword):
        arena_join(arena=arena, player=other_player, password="open")
    arena_join(arena=arena, player=other_player, password="sesame")
    arena_withdraw(arena=arena, player=other_player)
    assert arena_join(arena=arena, player=other_player).withdrawn is False  # coming back: no password again


def test_nobody_joins_a_finished_arena_and_only_joined_players_withdraw(player, other_player):
    arena = running_arena(player)
    with pytest.raises(NotInArena):
        arena_withdraw(arena=arena, player=other_player)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ArenaFinished):
        arena_join(arena=arena, player=other_player)


def test_three_players_two_paired_the_third_waits_then_no_rematch_in_a_row(player, other_player, third_player):
    arena = running_arena(player)
    for who in (player, other_player, third_player):
        arena_join(arena=arena, player=who)
    [game] = pair_arena(arena_id=arena.pk)
    assert (game.arena_id, game.status, game.clock, game.pool) == (arena.pk, "active", "1+0", "classic:bullet")
    assert pair_arena(arena_id=arena.pk) == []  # nobody is free twice
    busy = {game.x_player_id, game.o_player_id}
    waiting = ({player.pk, other_player.pk, third_player.pk} - busy).pop()
    assert entry(arena, waiting).current_game is None
    loser = game.x_player
    game_resign(game=game, player=loser)
    [again] = pair_arena(arena_id=arena.pk)
    assert waiting in (again.x_player_id, again.o_player_id)  # not the two who just played each other
    assert {again.x_player_id, again.o_player_id} != busy


def test_no_game_is_paired_in_the_arenas_last_moments(player, other_player):
    """A game paired a moment before the end would begin after it (arena-sim on PostgreSQL found two): pairing stops
    ``LAST_PAIRING`` before the end, and the players wait for the end."""
    from games.arena import LAST_PAIRING

    arena = running_arena(player)
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() + LAST_PAIRING * 3)  # (both just seen)
    arena.refresh_from_db()
    assert pair_arena(arena_id=arena.pk, now=arena.ends_at - LAST_PAIRING / 2) == []
    [game] = pair_arena(arena_id=arena.pk, now=arena.ends_at - LAST_PAIRING * 2)
    assert game.arena_id == arena.pk


def test_points_on_fire_and_the_standings(player, other_player):
    arena = running_arena(player)
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    winner_points = []
    for _ in range(4):
        [game] = pair_arena(arena_id=arena.pk)
        loser = game.o_player if game.x_player_id == player.pk else game.x_player
        game_resign(game=game, player=loser)
        winner_points.append(ArenaPairing.objects.get(game=game).__dict__[
            "x_points" if game.x_player_id == player.pk else "o_points"])
    assert winner_points == [2, 2, 4, 4]
    mine, theirs = entry(arena, player), entry(arena, other_player)
    assert (mine.score, mine.games, mine.wins, mine.on_fire) == (12, 4, 4, True)
    assert (theirs.score, theirs.games, theirs.streak) == (0, 4, 0)


def test_a_withdrawn_or_absent_player_is_not_paired(player, other_player, third_player):
    arena = running_arena(player)
    for who in (player, other_player, third_player):
        arena_join(arena=arena, player=who)
    arena_withdraw(arena=arena, player=third_player)
    ArenaPlayer.objects.filter(arena=arena, player=other_player).update(seen=timezone.now() - timedelta(seconds=31))
    assert pair_arena(arena_id=arena.pk) == []
    arena_join(arena=arena, player=third_player)  # back, with the score kept
    [game] = pair_arena(arena_id=arena.pk)
    assert {game.x_player_id, game.o_player_id} == {player.pk, third_player.pk}


def test_berserk_halves_the_own_clock_before_the_first_move_and_pays_a_point_on_a_long_win(player, other_player):
    arena = running_arena(player, clock="3+2")
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    [game] = pair_arena(arena_id=arena.pk)
    x, o = game.x_player, game.o_player
    game = arena_berserk(game=game, player=x)
    assert (game.clock_x_ms, game.clock_o_ms) == (90_000, 180_000)
    with pytest.raises(BerserkRefused, match="already"):
        arena_berserk(game=game, player=x)
    for move, who in ((4, x), (1, o), (2, x), (6, o)):
        move_play(game=game.pk, player=who, move=move)
    with pytest.raises(BerserkRefused, match="before your first move"):
        arena_berserk(game=game, player=o)
    move_play(game=game.pk, player=x, move=8)
    move_play(game=game.pk, player=o, move=3)
    position = move_play(game=game.pk, player=x, move=0)  # a3-b2-c1: X's fourth move wins
    assert position.game.result == "X"
    pairing = ArenaPairing.objects.get(game=game)
    assert (pairing.x_points, pairing.o_points) == (3, 0)


def test_berserk_is_for_arena_games_only(duel, player):
    with pytest.raises(BerserkRefused, match="arena"):
        arena_berserk(game=duel, player=player)


def test_an_arena_game_has_no_rematch(player, other_player):
    arena = running_arena(player)
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    [game] = pair_arena(arena_id=arena.pk)
    game_resign(game=game, player=player)
    with pytest.raises(RematchRefused, match="arena"):
        rematch_offer(game=game, player=other_player)


def test_the_end_finishes_and_counts_the_running_games(player, other_player, third_player, make_player):
    arena = running_arena(player)
    fourth = make_player("dave")
    for who in (player, other_player, third_player, fourth):
        arena_join(arena=arena, player=who)
    played, idle = pair_arena(arena_id=arena.pk)
    move_play(game=played.pk, player=played.x_player, move=4)
    move_play(game=played.pk, player=played.o_player, move=0)
    later = timezone.now() + timedelta(minutes=11)
    assert end_arena(arena_id=arena.pk, now=later) == 2
    played.refresh_from_db()
    idle.refresh_from_db()
    assert (played.result, played.result_reason, played.result_text()) == ("draw", "arena", "Draw (the arena ended)")
    assert idle.result_reason == "aborted"
    scores = {e.player_id: (e.score, e.games) for e in ArenaPlayer.objects.filter(arena=arena)}
    assert scores[played.x_player_id] == scores[played.o_player_id] == (1, 1)
    assert scores[idle.x_player_id] == scores[idle.o_player_id] == (0, 0)
    assert end_arena(arena_id=arena.pk, now=later) == 0  # once
    assert pair_arena(arena_id=arena.pk, now=later) == []


def test_the_site_schedules_arenas_for_the_busiest_pools_once(settings):
    settings.ARENA_SCHEDULE = True
    now = timezone.now()
    made = schedule_arenas(now=now)
    assert sorted((a.variant, a.clock) for a in made) == [("classic", "1+0"), ("mnk", "5+3"), ("ultimate", "3+2")]
    assert all(a.scheduled and a.created_by is None and a.starts_at.minute == 0 for a in made)
    assert schedule_arenas(now=now) == []
    settings.ARENA_SCHEDULE = False
    assert schedule_arenas(now=now + timedelta(hours=1)) == []
    assert Game.objects.count() == 0


def test_a_pairing_that_comes_after_the_end_makes_nothing(player, other_player):
    """A worker's pairing may wait for the arena's lock while the end is done (or read the time before the end and
    get the lock after it): it reads the time again under the lock, and the closed arena pairs nobody."""
    from datetime import timedelta

    from django.utils import timezone

    arena = running_arena(player)
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert pair_arena(arena_id=arena.pk) == []  # the clock under the lock says it is over
    assert end_arena(arena_id=arena.pk) == 0 and pair_arena(arena_id=arena.pk) == []
    assert not Game.objects.filter(arena=arena).exists()
