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
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.positions import game_position
from games.services import challenge_accept, challenge_create, game_create

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


def test_simultaneous_move_requests_one_200_the_rest_409(duel):
    """The same through the web: each thread a logged-in browser posting a different cell at once."""
    alice = duel.x_player
    url = reverse("games:move", args=[duel.pk])

    def post(i: int) -> tuple[int, str]:
        client = Client()
        client.force_login(alice)
        response = client.post(url, {"move": str(i)}, HTTP_HX_REQUEST="true")
        return response.status_code, response.content.decode()

    results = run_together(post)
    assert not [r for r in results if isinstance(r, Exception)], results
    codes = Counter(code for code, _ in results)
    assert codes == {200: 1, 409: THREADS - 1}, codes
    assert all("not your turn" in body.lower() or "same moment" in body for code, body in results if code == 409)
    assert Move.objects.filter(game=duel).count() == 1
    assert_consistent(duel)


def test_simultaneous_moves_against_a_quick_computer_store_one(make_player):
    """Against a computer that answers at once it is the player's turn again after each request: the pages' moves
    carry the ply they were made on, so the ones sent at the same moment from the same position are refused
    (409, with the board as it stands) instead of being played one after another in the new positions."""
    alice = make_player("alice")
    game = game_create(player=alice, variant="four", options={}, opponent="easy", side="X", strategy="random")
    url = reverse("games:move", args=[game.pk])

    def post(i: int) -> tuple[int, str]:
        client = Client()
        client.force_login(alice)
        response = client.post(url, {"move": str(i), "ply": "0"}, HTTP_HX_REQUEST="true")
        return response.status_code, response.content.decode()

    results = run_together(post)
    assert not [r for r in results if isinstance(r, Exception)], results
    codes = Counter(code for code, _ in results)
    assert codes == {200: 1, 409: THREADS - 1}, codes
    assert all("moved on" in body and 'id="board"' in body for code, body in results if code == 409)
    assert Move.objects.filter(game=game).count() == 2  # one move of alice's and the computer's reply
    assert_consistent(game)
