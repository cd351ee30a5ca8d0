"""Quick pairing under simultaneous requests: real threads, each with its own connection, released together.

Pairing locks the seek rows in one transaction (SQLite: BEGIN IMMEDIATE queues writers; PostgreSQL:
``select_for_update`` with ``skip_locked`` for the others' seeks), so however the threads interleave, a seeker is
in at most one game and two compatible seekers make exactly one. On PostgreSQL two seekers that each skip the
other's locked row both stay waiting for a moment: their next ping pairs them, hence the ping round below.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.errors import SeekTaken
from games.models import Game, Seek
from games.services import seek_accept, seek_create, seek_ping
from tests.services.test_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def ping_all() -> None:
    for seek in Seek.objects.filter(game__isnull=True).select_related("player"):
        seek_ping(seek_id=seek.pk, player=seek.player)


@pytest.mark.parametrize("round_", range(3))
def test_two_seekers_at_once_make_exactly_one_game(make_player, round_):
    seekers = [make_player(f"s{round_}a"), make_player(f"s{round_}b")]
    results = run_together(lambda i: seek_create(player=seekers[i], variant="classic", clock="3+2"), n=2)
    assert not any(isinstance(r, Exception) for r in results), results
    ping_all()
    assert Game.objects.count() == 1
    game = Game.objects.get()
    assert {game.x_player_id, game.o_player_id} == {p.pk for p in seekers}
    assert set(Seek.objects.values_list("game_id", flat=True)) == {game.pk}


def test_many_seekers_at_once_each_land_in_at_most_one_game(make_player):
    seekers = [make_player(f"p{i}") for i in range(8)]
    results = run_together(lambda i: seek_create(player=seekers[i], variant="four", rated=False))
    assert not any(isinstance(r, Exception) for r in results), results
    ping_all()
    games = list(Game.objects.all())
    assert len(games) == 4
    seats = Counter(pid for g in games for pid in (g.x_player_id, g.o_player_id))
    assert set(seats) == {p.pk for p in seekers} and set(seats.values()) == {1}
    for seek in Seek.objects.select_related("game"):  # each seek points at its own player's game
        assert seek.player_id in (seek.game.x_player_id, seek.game.o_player_id)


def test_many_players_playing_one_seek_make_exactly_one_game(make_player):
    owner = make_player("owner")
    seek = seek_create(player=owner, variant="classic")
    takers = [make_player(f"t{i}") for i in range(6)]
    results = run_together(lambda i: seek_accept(seek_id=seek.pk, player=takers[i]), n=6)
    won = [r for r in results if isinstance(r, Game)]
    assert len(won) == 1, results
    assert all(isinstance(r, SeekTaken) for r in results if not isinstance(r, Game)), results
    assert Game.objects.count() == 1
