"""Games (games/api/games.py): starting, reading, resigning, the list of your games."""

from __future__ import annotations

import pytest

from games.models import Game, Move
from games.services import game_create, game_resign, move_play

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db


# Creating games ------------------------------------------------------------------------------------------------


def test_create_against_a_computer(token_client, player):
    response = post(token_client, "/api/games", {"variant": "classic", "opponent": "medium", "strategy": "random"})
    assert response.status_code == 201
    body = response.json()
    game = Game.objects.get(pk=body["id"])
    assert game.x_player == player and game.o_strategy == "random" and game.created_by == player
    assert body["status"] == "active" and body["to_move"] == "X" and body["your_sides"] == ["X"]
    assert body["your_turn"] is True and body["legal_moves"] == list(range(9))
    assert body["cells"] == [None] * 9 and body["moves"] == [] and body["result"] is None
    assert body["board_winners"] is None and body["active_boards"] is None
    assert body["seats"][1] == {
        "side": "O", "kind": "computer", "username": None, "bot": False, "level": None, "strategy": "random",
        "label": "Computer (random)",
    }
    assert body["url"] == f"/games/{game.pk}/"


def test_create_as_o_the_computer_moves_first(token_client):
    response = post(
        token_client, "/api/games", {"variant": "four", "opponent": "hard", "strategy": "random", "side": "O"}
    )
    body = response.json()
    assert response.status_code == 201
    assert body["ply"] == 1 and body["to_move"] == "O" and body["your_turn"]
    assert len(body["moves"]) == 1 and body["moves"][0]["side"] == "X"
    assert body["cells"].count("X") == 1 and len(body["cells"]) == 16


def test_create_nested_with_options(player_client):
    response = post(
        player_client, "/api/games", {"variant": "ultimate", "options": {"closed_boards": True}, "opponent": "local"}
    )
    body = response.json()
    assert response.status_code == 201
    assert body["options"] == {"closed_boards": True} and body["your_sides"] == ["X", "O"]
    assert body["board_winners"] == [None] * 9 and body["active_boards"] == list(range(9))
    assert len(body["legal_moves"]) == 81 and body["rows"] == 9 and body["cols"] == 9


@pytest.mark.parametrize(
    "payload",
    [
        {"variant": "hexagon", "opponent": "local"},
        {"variant": "nxn", "options": {"size": 11}, "opponent": "local"},
        {"variant": "classic", "options": {"size": 4}, "opponent": "local"},
        {"variant": "ultimate", "options": {"closed_boards": 1}, "opponent": "local"},
        {"variant": "four", "opponent": "easy", "strategy": "ring"},
        {"variant": "classic", "opponent": "easy", "strategy": "no-such-player"},
        {"variant": "classic", "opponent": "local", "strategy": "random"},
    ],
)
def test_create_with_bad_settings_is_400_invalid_settings(player_client, payload):
    assert_error(post(player_client, "/api/games", payload), 400, "invalid_settings")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"variant": "classic"},
        {"variant": "classic", "opponent": "robot"},
        {"variant": "classic", "opponent": "local", "side": "Z"},
        {"variant": "classic", "opponent": "local", "options": {"size": "big"}},
        {"variant": ["classic"], "opponent": "local"},
        [1, 2, 3],
    ],
)
def test_create_with_bad_input_is_400_invalid_input(player_client, payload):
    body = assert_error(post(player_client, "/api/games", payload), 400, "invalid_input")
    assert body["details"] and all({"loc", "message"} <= set(d) for d in body["details"])
    assert not Game.objects.exists()


def test_a_long_name_is_not_echoed_whole(token_client):
    response = post(token_client, "/api/games", {"variant": "classic", "opponent": "easy", "strategy": "x" * 100_000})
    body = assert_error(response, 400, "invalid_settings")
    assert "unknown strategy 'xxxx" in body["message"] and len(body["message"]) < 300
    response = post(token_client, "/api/games", {"variant": "nxn", "opponent": "easy", "options": {"y" * 5000: 1}})
    assert len(assert_error(response, 400, "invalid_settings")["message"]) < 300


def test_a_private_challenge_without_a_player_is_refused(token_client):
    response = post(token_client, "/api/games", {"variant": "classic", "opponent": "human", "private": True})
    body = assert_error(response, 400, "invalid_settings")
    assert "needs the name of the player who may accept it" in body["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("invite", ["", "   ", None])
def test_an_empty_invite_is_an_open_challenge_as_on_the_web(token_client, invite):
    response = post(token_client, "/api/games", {"variant": "classic", "opponent": "human", "invite": invite})
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert game.status == "open" and game.invitee is None and not game.private
    response = post(token_client, "/api/games", {"variant": "classic", "opponent": "human", "invite": " bob "})
    assert_error(response, 400, "invalid_settings")  # trimmed, then looked up: there is no bob here


def test_play_on_ply_and_options_must_be_json_integers(token_client, player, make_game):
    game = make_game()
    for move in (0, 3, 1, 4, 2):
        move_play(game=game, player=player, move=move)
    before = Game.objects.count()
    assert_error(post(token_client, f"/api/games/{game.pk}/play-on", {"ply": True}), 400, "invalid_input")
    assert_error(post(token_client, f"/api/games/{game.pk}/play-on", {"ply": "2"}), 400, "invalid_input")
    for options in ({"size": "5"}, {"size": 5.0}, {"size": None}):
        data = {"variant": "nxn", "opponent": "easy", "options": options}
        assert_error(post(token_client, "/api/games", data), 400, "invalid_input")
    assert Game.objects.count() == before
    created = post(token_client, "/api/games", {"variant": "nxn", "opponent": "easy", "options": {"size": 5}})
    assert created.status_code == 201 and created.json()["options"] == {"size": 5}


# Reading games -------------------------------------------------------------------------------------------------


def test_get_game_full_state(player_client, make_game, player):
    game = make_game(variant="multi", opponent="local")
    for move in (36, 2, 20):  # X board 4 cell 0, O board 0 cell 2, X board 2 cell 2
        move_play(game=game, player=player, move=move)
    response = player_client.get(f"/api/games/{game.pk}")
    assert response.status_code == 200
    body = response.json()
    assert body["ply"] == 3 and body["to_move"] == "O" and body["variant_title"]
    assert [m["move"] for m in body["moves"]] == [36, 2, 20]
    # the cell name (RULES.md): board 4's top-left cell is d6 on the 9 x 9 drawing; label says the same
    assert body["moves"][0] == {
        "ply": 1, "side": "X", "move": 36, "name": "d6", "board": 4, "position": 0, "label": "d6"
    }
    assert body["moves"][1]["side"] == "O" and body["moves"][2]["board"] == 2
    assert body["active_boards"] == [2] and all(18 <= m < 27 for m in body["legal_moves"])
    assert body["cells"][36] == "X" and body["cells"][2] == "O"


def test_grid_move_entries(player_client, make_game, player):
    game = make_game(variant="nxn", options={"size": 4}, opponent="local")
    move_play(game=game, player=player, move=6)
    entry = player_client.get(f"/api/games/{game.pk}").json()["moves"][0]
    assert entry == {"ply": 1, "side": "X", "move": 6, "name": "c3", "board": None, "position": 6, "label": "c3"}


def test_someone_elses_private_game_is_404(other_client, make_game):
    game = make_game(private=True)
    assert_error(other_client.get(f"/api/games/{game.pk}"), 404, "not_found")
    assert_error(post(other_client, f"/api/games/{game.pk}/moves", {"move": 0}), 404, "not_found")
    assert_error(post(other_client, f"/api/games/{game.pk}/resign"), 404, "not_found")
    assert_error(post(other_client, f"/api/games/{game.pk}/computer-move"), 404, "not_found")
    assert not Move.objects.exists() and Game.objects.get().status == "active"


def test_someone_elses_public_game_is_watched_read_only_403(other_client, make_game):
    game = make_game(opponent="medium", strategy="random")
    body = other_client.get(f"/api/games/{game.pk}").json()
    assert body["your_sides"] == [] and body["your_turn"] is False and body["private"] is False
    assert_error(post(other_client, f"/api/games/{game.pk}/moves", {"move": 0}), 403, "not_seated")
    assert_error(post(other_client, f"/api/games/{game.pk}/resign"), 403, "not_seated")
    assert_error(post(other_client, f"/api/games/{game.pk}/computer-move"), 403, "not_seated")
    assert not Move.objects.exists() and Game.objects.get().status == "active"


@pytest.mark.parametrize("game_id", ["999999", "0", str(2**70)])
def test_missing_game_is_404(player_client, game_id):
    assert_error(player_client.get(f"/api/games/{game_id}"), 404, "not_found")


@pytest.mark.parametrize("shape", ["{}.0", "+{}", "{}x", "0{}x", "{}e0", "%20{}", "{}%20", "-{}", "{}.", "0x{}"])
def test_a_game_id_is_digits_only(player_client, make_game, player, shape):
    # issue 20: /api/games/1.0 and /api/games/+1 were game 1
    game = make_game(opponent="local")
    assert player_client.get(f"/api/games/{game.pk}").status_code == 200
    url = f"/api/games/{shape.format(game.pk)}"
    assert_error(player_client.get(url), 404, "not_found")
    assert_error(post(player_client, f"{url}/moves", {"move": 4}), 404, "not_found")
    assert_error(post(player_client, f"{url}/resign"), 404, "not_found")
    assert not Move.objects.exists() and Game.objects.get().status == "active"


def test_non_numeric_game_id_is_400_or_404(player_client):
    response = player_client.get("/api/games/abc")
    assert response.status_code in (400, 404) and "code" in response.json()


# Resigning -----------------------------------------------------------------------------------------------------


def test_resign(token_client, vs_random):
    response = post(token_client, f"/api/games/{vs_random.pk}/resign")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["result"] == "O" and body["result_reason"] == "resigned"
    assert body["result_text"] == "O wins (X resigned)" and body["legal_moves"] == []
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/resign"), 409, "game_finished")


# History -------------------------------------------------------------------------------------------------------


def test_list_my_games_paginated_and_filtered(token_client, make_game, player, other_player):
    won = make_game(opponent="medium", strategy="random")
    Game.objects.filter(pk=won.pk).update(status="finished", result="X")
    lost = make_game(opponent="medium", strategy="random")
    game_resign(game=lost, player=player)
    for _ in range(3):
        make_game(variant="four", opponent="local")
    game_create(player=other_player, variant="classic", opponent="local")  # not mine

    body = token_client.get("/api/games").json()
    assert body["count"] == 5 and body["page"] == 1 and body["pages"] == 1 and len(body["items"]) == 5
    assert body["items"][0]["variant"] == "four"  # newest first
    assert {"cells", "moves"}.isdisjoint(body["items"][0])

    page = token_client.get("/api/games?page_size=2&page=3").json()
    assert page["pages"] == 3 and len(page["items"]) == 1 and page["items"][0]["id"] == won.pk
    assert token_client.get("/api/games?page=99").json()["items"] == []
    assert token_client.get("/api/games?variant=four").json()["count"] == 3
    assert [g["id"] for g in token_client.get("/api/games?result=won").json()["items"]] == [won.pk]
    assert [g["id"] for g in token_client.get("/api/games?result=lost").json()["items"]] == [lost.pk]
    assert token_client.get("/api/games?status=finished").json()["count"] == 2
    assert token_client.get("/api/games?status=active&variant=classic").json()["count"] == 0


@pytest.mark.parametrize(
    "query", ["variant=hexagon", "result=maybe", "status=paused", "page=0", "page=abc", "page_size=1000"]
)
def test_list_games_bad_filters_are_400(token_client, query):
    assert_error(token_client.get(f"/api/games?{query}"), 400, "invalid_input")
