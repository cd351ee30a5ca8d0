"""The puzzles' API (DESIGN.md "Puzzles (API)"): the next puzzle of a board, a try's moves (right, wrong), hints,
never the same puzzle twice, and every bad input a clear 4xx."""

from __future__ import annotations

import pytest

from games.engine import get_variant
from games.models import Puzzle
from games.services import cut_puzzles, game_analysis, move_play

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db
CLASSIC = get_variant("classic")


@pytest.fixture
def puzzle(make_game, other_player):
    """bob's classic game where X missed a win in two (c1, then a1 after O's block at c3): a puzzle."""
    game = make_game(player=other_player)
    for name in ("c2", "b2", "b1", "a2", "a3", "b3", "c1", "c3", "a1"):
        move_play(game=game, player=other_player, move=CLASSIC.parse_cell(name))
    game.refresh_from_db()
    game_analysis(game)
    cut_puzzles(game_id=game.pk)
    return Puzzle.objects.get()


def test_next_then_solve_it(token_client, puzzle):
    data = token_client.get("/api/puzzles/next?variant=classic").json()
    assert {k: data[k] for k in ("id", "variant", "options", "to_move", "moves_to_win")} == {
        "id": puzzle.pk, "variant": "classic", "options": {}, "to_move": "X", "moves_to_win": 2}
    assert data["cells"] == [None, None, None, "O", "O", "X", None, "X", None]
    assert isinstance(data["rating"], int) and "player" not in data and "game" not in data  # no names shown
    first = post(token_client, f"/api/puzzles/{puzzle.pk}/moves", {"move": "c1"}).json()
    assert first == {"correct": True, "reply": "c3", "done": False, "solution": None, "refutation": None,
                     "rating": None, "rating_delta": None}
    last = post(token_client, f"/api/puzzles/{puzzle.pk}/moves", {"move": "A1"}).json()
    assert last["correct"] and last["done"] and last["solution"] == ["c1", "c3", "a1"] and last["rating"] > 1500
    assert_error(post(token_client, f"/api/puzzles/{puzzle.pk}/moves", {"move": "b3"}), 409, "puzzle_done")
    assert_error(token_client.get("/api/puzzles/next?variant=classic"), 404, "not_found")  # never served twice


def test_a_wrong_move_shows_the_refutation_and_the_solution(token_client, puzzle):
    token_client.get("/api/puzzles/next?variant=classic")
    data = post(token_client, f"/api/puzzles/{puzzle.pk}/moves", {"move": "a3"}).json()
    assert data["correct"] is False and data["done"] is True and data["reply"] is None
    assert data["solution"] == ["c1", "c3", "a1"] and data["refutation"] and data["rating"] < 1500


def test_hints_and_the_players_own_missed_wins(token_client, puzzle, other_player):
    assert post(token_client, f"/api/puzzles/{puzzle.pk}/hint").json() == {"hint": "c1", "hints": 1}
    assert_error(token_client.get("/api/puzzles/next?variant=classic&mine=1"), 404, "not_found")
    from django.test import Client

    from players.models import ApiToken

    bob = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(player=other_player, name='b')[1]}")
    assert bob.get("/api/puzzles/next?variant=classic&mine=1").json()["id"] == puzzle.pk


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/api/puzzles/next", 400, "invalid_input"),
        ("/api/puzzles/next?variant=chess", 400, "invalid_settings"),
        ("/api/puzzles/next?variant=nxn&size=40", 400, "invalid_settings"),
        ("/api/puzzles/next?variant=nxn&size=five", 400, "invalid_input"),
        ("/api/puzzles/next?variant=ultimate", 404, "not_found"),
        ("/api/puzzles/987654", 404, "not_found"),
    ],
)
def test_bad_asks_are_refused(token_client, url, status, code):
    assert_error(token_client.get(url), status, code)


def test_bad_moves_are_refused_and_the_try_goes_on(token_client, puzzle):
    url = f"/api/puzzles/{puzzle.pk}/moves"
    assert_error(post(token_client, url, {"move": "z9"}), 400, "illegal_move")
    assert_error(post(token_client, url, {"move": "b2"}), 400, "illegal_move")  # taken
    assert_error(post(token_client, url, {"move": 4}), 400, "invalid_input")
    assert_error(post(token_client, url, {}), 400, "invalid_input")
    assert_error(post(token_client, "/api/puzzles/987654/moves", {"move": "a1"}), 404, "not_found")
    assert_error(token_client.delete(url), 405, "method_not_allowed")
    assert post(token_client, url, {"move": "c1"}).json()["correct"] is True
