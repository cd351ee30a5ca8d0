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


def test_games_ending_while_the_arena_pairs_neither_wait_on_each_other_in_a_circle(make_player):
    """A game's end locks its pairing row and its players' rows, never the arena's (which pairing and the end hold
    while they lock games): on PostgreSQL, ``make arena-sim`` saw deadlocks while a game's end took the arena's row
    too (its query joined the arena). Eight games end in eight threads while four more pair, and nobody is left in
    two games."""
    players = [make_player(f"d{i}") for i in range(20)]
    arena = arena_create(player=players[0], variant="classic", clock="1+0", minutes=10)
    for who in players:
        arena_join(arena=arena, player=who)
    games = pair_arena(arena_id=arena.pk)
    assert len(games) == 10

    def act(i):
        if i < 8:
            return game_resign(game=games[i], player=games[i].x_player)
        return pair_arena(arena_id=arena.pk)

    results = run_together(act, n=12)
    assert not any(isinstance(r, Exception) for r in results), results
    running = list(Game.objects.filter(arena=arena, status="active"))
    seats = Counter(pid for g in running for pid in (g.x_player_id, g.o_player_id))
    assert set(seats.values()) <= {1}


def test_the_arenas_end_while_its_games_end_by_moves(make_player):
    """The end locks the arena, then each running game; a game ending by a move at that moment holds its row and,
    committing, checks its ``Game.arena`` key against the arena's row. The arena's lock must not queue that check
    (PostgreSQL's FOR NO KEY UPDATE), or the two wait on each other. Every game ends once: by its move or by the
    end (a draw), and is counted once."""
    from datetime import timedelta

    from django.utils import timezone

    from games.errors import GameFinished
    from games.models import Arena, ArenaPairing
    from games.services import end_arena, move_play

    players = [make_player(f"e{i}") for i in range(12)]
    arena = arena_create(player=players[0], variant="classic", clock="1+0", minutes=10)
    for who in players:
        arena_join(arena=arena, player=who)
    games = pair_arena(arena_id=arena.pk)
    for game in games:
        for move, who in ((0, game.x_player), (3, game.o_player), (1, game.x_player), (4, game.o_player)):
            move_play(game=game.pk, player=who, move=move)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))

    def act(i):
        if i < len(games):
            return move_play(game=games[i].pk, player=games[i].x_player, move=2)  # X completes the top row
        return end_arena(arena_id=arena.pk)

    results = run_together(act, n=len(games) + 1)
    assert not any(isinstance(r, Exception) and not isinstance(r, GameFinished) for r in results), results
    assert Arena.objects.get(pk=arena.pk).closed is not None
    assert not Game.objects.filter(arena=arena, status="active").exists()
    assert ArenaPairing.objects.filter(arena=arena, counted__isnull=True).count() == 0
