"""Arena pairing under simultaneous workers: real threads, each with its own connection, released together.

Each pairing holds the arena's row lock (SQLite: BEGIN IMMEDIATE queues writers; PostgreSQL: ``select_for_update``),
so however the workers interleave, no player is in two games of the arena and no pair is made twice."""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Game
from games.services import arena_create, arena_join, game_resign, pair_arena
from tests.services.test_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_workers_pairing_one_arena_at_once_put_each_player_in_one_game(make_player):
    players = [make_player(f"a{i}") for i in range(8)]
    arena = arena_create(player=players[0], variant="classic", clock="1+0", minutes=10)
    for who in players:
        arena_join(arena=arena, player=who)
    for _ in range(2):
        results = run_together(lambda i: pair_arena(arena_id=arena.pk), n=4)
        assert not any(isinstance(r, Exception) for r in results), results
        running = list(Game.objects.filter(arena=arena, status="active"))
        assert len(running) == 4 and sum(len(r) for r in results) == 4
        seats = Counter(pid for g in running for pid in (g.x_player_id, g.o_player_id))
        assert set(seats) == {p.pk for p in players} and set(seats.values()) == {1}
        for game in running:
            game_resign(game=game, player=game.x_player)
    assert Game.objects.filter(arena=arena).count() == 8
