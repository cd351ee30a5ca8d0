"""Moves (games/api/moves.py): a player's, by number or by cell name, and the computer's."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from games.engine import get_variant
from games.errors import MoveConflict
from games.models import Game, Move
from games.positions import game_position
from games.pov import game_view
from games.services import move_play

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db


def test_play_move_gets_the_computer_reply(token_client, vs_random):
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4})
    assert response.status_code == 200, response.content
    body = response.json()
    assert [m["side"] for m in body["played"]] == ["X", "O"]
    assert body["played"][0]["move"] == 4 and body["cells"][4] == "X"
    assert body["ply"] == 2 and body["to_move"] == "X" and body["your_turn"]
    assert list(Move.objects.filter(game=vs_random).values_list("side", flat=True)) == ["X", "O"]


def test_play_until_the_end(token_client, make_game):
    game = make_game(opponent="local")
    for move in (0, 3, 1, 4):
        assert post(token_client, f"/api/games/{game.pk}/moves", {"move": move}).status_code == 200
    body = post(token_client, f"/api/games/{game.pk}/moves", {"move": 2}).json()
    assert body["status"] == "finished" and body["result"] == "X" and body["result_text"] == "X wins"
    assert body["to_move"] is None and body["legal_moves"] == [] and body["finished"]
    assert [m["move"] for m in body["played"]] == [2]
    assert_error(post(token_client, f"/api/games/{game.pk}/moves", {"move": 5}), 409, "game_finished")


@pytest.mark.parametrize("move", [9, -1, 2**40])
def test_out_of_range_move_is_400_illegal_move(token_client, vs_random, move):
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": move}), 400, "illegal_move")
    assert not Move.objects.exists()


def test_occupied_cell_is_400_illegal_move(token_client, make_game, player):
    game = make_game(opponent="local")
    move_play(game=game, player=player, move=4)
    body = assert_error(post(token_client, f"/api/games/{game.pk}/moves", {"move": 4}), 400, "illegal_move")
    assert "b2" in body["message"]  # the engine names the cell
    assert Move.objects.count() == 1


@pytest.mark.parametrize(
    "payload", [{}, {"move": 1.5}, {"move": None}, {"move": {"name": "b2"}}, {"cell": 3}, {"move": 4, "plly": 0}]
)
def test_bad_move_payload_is_400_invalid_input(token_client, vs_random, payload):
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/moves", payload), 400, "invalid_input")
    assert not Move.objects.exists()


@pytest.mark.parametrize("value", [True, 4.0, None, [4]])
def test_a_move_must_be_a_json_integer_or_a_name(token_client, vs_random, value):
    # JSON's true is not cell 1, nor 4.0 cell 4: refused, not converted (the string "4" is no cell name, below)
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": value})
    body = assert_error(response, 400, "invalid_input")
    assert body["details"][0]["loc"] == "body.move"
    assert Move.objects.filter(game=vs_random).count() == 0


def test_not_your_turn_is_409(token_client, make_game):
    game = make_game(opponent="medium", strategy="random", side="O", seed=1)  # the computer (X) has not moved
    assert_error(post(token_client, f"/api/games/{game.pk}/moves", {"move": 0}), 409, "not_your_turn")


def test_human_opponent_game_waits_409(token_client, make_game):
    game = make_game(opponent="human")
    assert_error(post(token_client, f"/api/games/{game.pk}/moves", {"move": 0}), 409, "game_not_started")


def test_two_players_not_your_turn(make_game, player, other_player, token_client):
    game = make_game(opponent="human", side="X")
    Game.objects.filter(pk=game.pk).update(o_player=other_player, status="active")  # what joining does (issue 4)
    assert post(token_client, f"/api/games/{game.pk}/moves", {"move": 0}).json()["played"][0]["move"] == 0
    assert_error(post(token_client, f"/api/games/{game.pk}/moves", {"move": 1}), 409, "not_your_turn")
    other = Client()
    other.force_login(other_player)
    body = post(other, f"/api/games/{game.pk}/moves", {"move": 1}).json()
    assert body["your_sides"] == ["O"] and [m["side"] for m in body["played"]] == ["O"]


def test_watch_game_creator_sees_but_may_not_move_403(player_client):
    game = post(player_client, "/api/games", {"variant": "classic", "opponent": "watch", "strategy": "random"}).json()
    assert game["your_sides"] == [] and game["ply"] == 0
    assert_error(post(player_client, f"/api/games/{game['id']}/moves", {"move": 0}), 403, "not_seated")
    assert_error(post(player_client, f"/api/games/{game['id']}/resign"), 403, "not_seated")
    body = post(player_client, f"/api/games/{game['id']}/computer-move").json()
    assert body["ply"] == 1 and [m["side"] for m in body["played"]] == ["X"]
    for _ in range(9):
        response = post(player_client, f"/api/games/{game['id']}/computer-move")
        if response.status_code != 200:
            break
    assert_error(response, 409, "game_finished")


def test_computer_move_when_it_is_a_persons_turn_is_409(player_client, vs_random):
    assert_error(post(player_client, f"/api/games/{vs_random.pk}/computer-move"), 409, "not_computer_turn")


def test_a_move_for_an_older_position_is_409_conflict(token_client, vs_random):
    assert post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4, "ply": 0}).status_code == 200
    stale = assert_error(post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 0, "ply": 0}), 409, "conflict")
    assert "moved on" in stale["message"] and Move.objects.filter(game=vs_random).count() == 2
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 0, "ply": -1}), 400, "invalid_input")
    free = next(cell for cell in range(9) if not Move.objects.filter(game=vs_random, move=cell).exists())
    assert post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": free, "ply": 2}).status_code == 200


def test_move_conflict_is_409_conflict(player_client, vs_random, monkeypatch):
    def clash(**kwargs):
        raise MoveConflict("another move was recorded at the same moment; reload the game")

    monkeypatch.setattr("games.api.moves.move_play", clash)
    assert_error(post(player_client, f"/api/games/{vs_random.pk}/moves", {"move": 0}), 409, "conflict")


# Cell names (RULES.md): "name" beside every move, and moves sent by name ------------------------------------

#: (variant, options, move, its name): RULES.md's own examples, one board shape each
RULES_EXAMPLES = [
    ("classic", {}, 0, "a3"), ("classic", {}, 4, "b2"), ("classic", {}, 8, "c1"),
    ("four", {}, 0, "a4"), ("four", {}, 15, "d1"),
    ("nxn", {"size": 4}, 6, "c3"), ("nxn", {"size": 10}, 9, "j10"),
    ("mnk", {"rows": 15, "cols": 15, "k": 5}, 112, "h8"), ("mnk", {"rows": 19, "cols": 19, "k": 5}, 18, "s19"),
    ("mnk", {"rows": 3, "cols": 5, "k": 3}, 4, "e3"),
    ("ultimate", {}, 40, "e5"), ("ultimate", {}, 0, "a9"), ("ultimate", {}, 80, "i1"),
    ("multi", {}, 40, "e5"), ("multi", {}, 36, "d6"),
]


@pytest.mark.parametrize(("variant", "options", "move", "name"), RULES_EXAMPLES)
def test_every_variant_names_its_moves_in_answers_and_lists(token_client, variant, options, move, name):
    created = post(token_client, "/api/games", {"variant": variant, "options": options, "opponent": "local"})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    body = post(token_client, f"/api/games/{game_id}/moves", {"move": move}).json()
    entry = {"ply": 1, "side": "X", "move": move, "name": name, "label": name}
    assert {key: body["played"][0][key] for key in entry} == entry
    assert {key: body["moves"][0][key] for key in entry} == entry
    listed = token_client.get(f"/api/games/{game_id}").json()["moves"]
    assert [(m["move"], m["name"]) for m in listed] == [(move, name)]


@pytest.mark.parametrize(("variant", "options", "move", "name"), RULES_EXAMPLES)
@pytest.mark.parametrize("spelling", [str, str.upper, lambda name: f" {name} "])
def test_a_move_may_be_sent_by_its_name(token_client, variant, options, move, name, spelling):
    created = post(token_client, "/api/games", {"variant": variant, "options": options, "opponent": "local"})
    game_id = created.json()["id"]
    response = post(token_client, f"/api/games/{game_id}/moves", {"move": spelling(name)})
    assert response.status_code == 200, response.content
    assert response.json()["played"][0]["move"] == move and Move.objects.get(game_id=game_id).move == move


def test_names_and_numbers_mix_in_one_game_and_every_name_is_the_engines(token_client, make_game):
    game = make_game(variant="ultimate", opponent="local")
    for move in ("e5", 36, "A9", 4):  # X centre, O sent to board 4 (d6), X sent to board 0 (a9), O sent to board 0
        assert post(token_client, f"/api/games/{game.pk}/moves", {"move": move}).status_code == 200
    body = token_client.get(f"/api/games/{game.pk}").json()
    variant = get_variant("ultimate")
    assert [m["move"] for m in body["moves"]] == [40, 36, 0, 4]
    assert [m["name"] for m in body["moves"]] == ["e5", "d6", "a9", "b8"]
    assert all(m["name"] == variant.cell_name(m["move"]) == m["label"] for m in body["moves"])
    # the same names the pages read (the point-of-view value)
    assert [m.name for m in game_view(game_position(Game.objects.get(pk=game.pk)), game.x_player).moves] == [
        m["name"] for m in body["moves"]
    ]


@pytest.mark.parametrize("name", ["z9", "d1", "a4", "a0", "b 2", "b02", "2b", "", " ", "4", " 5 ", "ｂ2", "b²"])
def test_a_name_of_no_cell_is_400_illegal_move_naming_the_board(token_client, vs_random, name):
    body = assert_error(post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": name}), 400, "illegal_move")
    assert "columns a-c, rows 1-3" in body["message"] and len(body["message"]) < 200
    assert not Move.objects.filter(game=vs_random).exists()


def test_a_name_on_a_taken_cell_is_illegal_as_its_number_is(token_client, make_game, player):
    game = make_game(opponent="local")
    move_play(game=game, player=player, move=4)
    body = assert_error(post(token_client, f"/api/games/{game.pk}/moves", {"move": "b2"}), 400, "illegal_move")
    assert "b2" in body["message"] and Move.objects.count() == 1


def test_a_very_long_name_is_not_echoed_whole(token_client, vs_random):
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": "b" * 100_000})
    body = assert_error(response, 400, "illegal_move")
    assert len(body["message"]) < 300


def test_a_nul_in_a_name_is_invalid_input(token_client, vs_random):
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": "b2\u0000"})
    body = assert_error(response, 400, "invalid_input")
    assert body["details"][0]["loc"] == "body.move"


def test_a_move_costs_a_fixed_number_of_queries(token_client, make_game):
    game = make_game(opponent="local")
    counts = []
    for move in ("a3", "a2", "b3", "b2", "a1"):
        with CaptureQueriesContext(connection) as queries:
            assert post(token_client, f"/api/games/{game.pk}/moves", {"move": move}).status_code == 200
        counts.append(len(queries))
    # the first marks the token used (at most once a minute); none grows with the moves played
    assert max(counts) <= 10 and len(set(counts[1:-1])) == 1, counts


def test_a_slow_computer_answers_from_a_worker_not_in_the_request(token_client):
    # mcts on ultimate (the hard level) thinks for about a second: never inside an API request
    data = {"variant": "ultimate", "opponent": "hard", "strategy": "mcts", "side": "O"}
    created = post(token_client, "/api/games", data)
    assert created.status_code == 201 and created.json()["ply"] == 0 and created.json()["to_move"] == "X"
    assert DBTaskResult.objects.filter(args_kwargs__kwargs__game_id=created.json()["id"]).count() == 1
    data = {"variant": "ultimate", "opponent": "hard", "strategy": "mcts", "side": "X"}
    game_id = post(token_client, "/api/games", data).json()["id"]
    body = post(token_client, f"/api/games/{game_id}/moves", {"move": "e5"}).json()
    assert [m["name"] for m in body["played"]] == ["e5"] and body["to_move"] == "O" and not body["your_turn"]
    assert DBTaskResult.objects.filter(args_kwargs__kwargs__game_id=game_id).count() == 1


@pytest.mark.parametrize(("variant", "options", "moves"), [
    ("classic", {}, [4, 0, 8]), ("four", {}, [5, 15]), ("nxn", {"size": 7}, [24, 6]),
    ("mnk", {"rows": 15, "cols": 15, "k": 5}, [112, 0, 224]), ("ultimate", {}, [40, 36, 0]), ("multi", {}, [40, 36]),
])
def test_the_page_and_the_api_name_every_move_alike(player_client, make_game, player, variant, options, moves):
    # issue 18: the same move was G5 on the page and "5 7" in the API
    game = make_game(variant=variant, options=options, opponent="local")
    for move in moves:
        move_play(game=game, player=player, move=move)
    api = [(m["ply"], m["name"]) for m in player_client.get(f"/api/games/{game.pk}").json()["moves"]]
    page = player_client.get(f"/games/{game.pk}/").content.decode()
    moves_shown = re.findall(r'<td class="move-name" data-ply="(\d+)">([a-z]+\d+)</td>', page)  # "1. b2 a1" pairs
    listed = [(int(ply), name) for ply, name in moves_shown]
    assert listed == api and len(api) == len(moves)
