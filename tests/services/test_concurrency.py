"""Simultaneous requests on one game: exactly one move is stored, the others get a clear 409, the game stays whole.

Real threads, each with its own database connection, released together by a Barrier. The guarantee
comes from the database, not from timing: ``move_play`` records a move only by a compare-and-set on
the game's version (an UPDATE that waits for the row lock on PostgreSQL; on SQLite the settings open
every transaction with BEGIN IMMEDIATE, so writers queue for the database lock), judges the move again
when it lost, and the unique (game, ply) constraint turns any slip into a MoveConflict. The other
changes lock the game row (``select_for_update``). Nothing here depends on which thread wins.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.edge.http_errors import http_error
from games.errors import ChallengeTaken, GameError
from games.models import Game, Move
from games.positions import game_position
from games.services import challenge_accept, challenge_create, move_play

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def run_together(work: Callable[[int], Any], n: int = THREADS) -> list[Any]:
    """Run ``work(i)`` for i in range(n) in n threads released at the same moment; results (or exceptions) by i."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def target(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = work(i)
        except Exception as err:  # noqa: BLE001 - the test inspects what each thread got
            results[i] = err
        finally:
            connection.close()  # each thread has its own connection: give it back

    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread hung (a lock was never released?)"
    return results


@pytest.fixture
def duel(make_player) -> Game:
    alice, bob = make_player("alice"), make_player("bob")
    game = challenge_create(player=alice, variant="classic", side="X")
    return challenge_accept(game=game, player=bob)


def assert_consistent(game: Game) -> None:
    """The cached ply and version agree with the stored moves, and the moves replay through the engine."""
    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.ply for m in moves] == list(range(1, len(moves) + 1))
    assert [m.side for m in moves] == ["X" if m.ply % 2 else "O" for m in moves]
    assert game.ply == len(moves)
    position = game_position(game)  # replays every move through the engine (raises on an illegal one)
    assert position.state.ply == len(moves)


def test_simultaneous_moves_store_exactly_one(duel):
    alice, before = duel.x_player, duel.version
    results = run_together(lambda i: move_play(game=Game.objects.get(pk=duel.pk), player=alice, move=i))
    stored = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(stored) == 1, results
    assert all(isinstance(err, GameError) and http_error(err).status == 409 for err in refused), refused
    assert Move.objects.filter(game=duel).count() == 1
    assert Move.objects.get(game=duel).move == stored[0].moves[0]
    assert_consistent(duel)
    assert Game.objects.get(pk=duel.pk).version == before + 1


def test_both_players_and_a_spectator_at_once(duel, make_player):
    """Both players and a spectator fire moves at once. Whatever the arrival order, every stored move was
    its side's turn (X, O, X... with no ply twice), each success is one stored move, the spectator is always
    refused with 403 and everyone else refused gets a 409."""
    alice, bob, carol = duel.x_player, duel.o_player, make_player("carol")
    who = [alice, bob, carol] * 3

    results = run_together(
        lambda i: move_play(game=Game.objects.get(pk=duel.pk), player=who[i], move=i), n=len(who)
    )
    stored = [r for r in results if not isinstance(r, Exception)]
    assert stored and Move.objects.filter(game=duel).count() == len(stored)
    assert sorted(r.state.ply for r in stored) == list(range(1, len(stored) + 1))
    for i, result in enumerate(results):
        if who[i] == carol:
            assert isinstance(result, GameError) and http_error(result).status == 403, result
        elif isinstance(result, Exception):
            assert isinstance(result, GameError) and http_error(result).status in (400, 409), result
    assert_consistent(duel)


def test_simultaneous_accepts_one_wins(make_player):
    """Several players accept one open challenge at the same moment: one seat, one winner, the rest 409."""
    creator = make_player("alice")
    takers = [make_player(f"taker{i}") for i in range(THREADS)]
    game = challenge_create(player=creator, variant="classic", side="X")

    results = run_together(lambda i: challenge_accept(game=Game.objects.get(pk=game.pk), player=takers[i]))
    winners = [r for r in results if isinstance(r, Game)]
    assert len(winners) == 1, results
    assert all(isinstance(r, ChallengeTaken) for r in results if not isinstance(r, Game)), results
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.o_player_id == winners[0].o_player_id
    assert game.version == 1


def test_games_ending_at_the_same_moment_all_count_in_the_ratings(make_player):
    """Each ending locks both players' rating rows (created on first need without a conflict, locked in the
    players' order): games of the same two players, in both seatings, ending at once lose no update and
    never deadlock; and the pair's limit of rated games holds, since it is counted under the same lock."""
    from games.models import Rating
    from games.rating import PAIR_GAMES_LIMIT
    from games.rating.glicko2 import Glicko
    from games.rating.glicko2 import rate_game as glicko_rate_game
    from games.services import game_resign

    assert THREADS > PAIR_GAMES_LIMIT  # so that the limit is reached by games ending at once

    alice, bob = make_player("alice"), make_player("bob")
    games = []
    for i in range(THREADS):
        x, o = (alice, bob) if i % 2 == 0 else (bob, alice)
        game = challenge_accept(game=challenge_create(player=x, variant="classic", side="X"), player=o)
        move_play(game=game, player=x, move=4)
        move_play(game=game, player=o, move=0)
        games.append(game)

    results = run_together(lambda i: game_resign(game=Game.objects.get(pk=games[i].pk), player=bob))
    assert all(isinstance(result, Game) for result in results), results
    a, b = Rating.objects.get(player=alice), Rating.objects.get(player=bob)
    rated = PAIR_GAMES_LIMIT
    assert (a.games, a.won, b.games, b.lost) == (rated, rated, rated, rated)
    ended = Game.objects.filter(pk__in=[g.pk for g in games])
    assert ended.filter(x_rating_after__isnull=False).count() == rated
    assert ended.filter(unrated_reason="pair_limit").count() == THREADS - rated
    # Applied one after another, in some order: each game's "before" is the previous game's "after".
    chain = sorted(
        ended.filter(x_rating_after__isnull=False),
        key=lambda g: g.x_rating_before if g.x_player_id == alice.pk else g.o_rating_before,
    )
    mine, theirs = Glicko(), Glicko()  # alice wins each game: Glicko-2, each game its own rating period
    for game in chain:
        side = "X" if game.x_player_id == alice.pk else "O"
        before = game.x_rating_before if side == "X" else game.o_rating_before
        after = game.x_rating_after if side == "X" else game.o_rating_after
        assert before == pytest.approx(mine.rating)
        mine, theirs = glicko_rate_game(mine, theirs, 1.0)
        assert after == pytest.approx(mine.rating)
    assert a.rating == pytest.approx(mine.rating) and b.rating == pytest.approx(theirs.rating)
