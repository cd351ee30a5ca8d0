"""The JSON API (games/api.py): every endpoint, every error code, session and token auth; profile tokens."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.errors import GameError, MoveConflict
from games.models import Game, Move
from games.services import game_create, game_resign, move_play
from players.models import ApiToken, hash_token

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, data: object = None, **extra) -> object:
    body = "" if data is None else json.dumps(data)
    return client.post(url, body, content_type="application/json", **extra)


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return body


@pytest.fixture
def token(player) -> str:
    _token, raw = ApiToken.issue(player=player, name="bot")
    return raw


@pytest.fixture
def token_client(token) -> Client:
    """A client with no session that authenticates by ``Authorization: Bearer``."""
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


@pytest.fixture
def vs_random(make_game):
    """A classic game: ``player`` is X against the random strategy."""
    return make_game(opponent="medium", strategy="random", side="X")


# Catalogue ------------------------------------------------------------------------------------------


def test_variants_are_public_with_options_limits_and_strategies(client):
    response = client.get("/api/variants")
    assert response.status_code == 200
    variants = {v["key"]: v for v in response.json()}
    assert list(variants) == ["classic", "four", "nxn", "mnk", "ultimate", "multi"]
    size = variants["nxn"]["options"][0]
    assert size == {"name": "size", "type": "integer", "default": 5, "minimum": 3, "maximum": 10}
    assert {o["name"] for o in variants["mnk"]["options"]} == {"rows", "cols", "k"}
    assert variants["ultimate"]["options"][0]["type"] == "boolean" and variants["ultimate"]["nested"]
    assert variants["ultimate"]["default_cells"] == 81
    assert "ring" in variants["classic"]["strategies"] and "ring" not in variants["four"]["strategies"]
    assert all("random" in v["strategies"] for v in variants.values())


def test_strategies_are_public_with_the_variants_they_play(client):
    response = client.get("/api/strategies")
    assert response.status_code == 200
    strategies = {s["name"]: s for s in response.json()}
    assert strategies["ring"]["variants"] == ["classic"]
    assert len(strategies["random"]["variants"]) == 6
    assert "threats" in strategies and "ultimate" not in strategies["threats"]["variants"]
    depth = next(o for o in strategies["alphabeta"]["options"] if o["name"] == "depth")
    assert depth == {"name": "depth", "type": "integer", "default": 3}


# Authentication ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", "/api/me"), ("get", "/api/games"), ("get", "/api/games/1"), ("post", "/api/games"),
     ("post", "/api/games/1/moves"), ("post", "/api/games/1/resign"), ("post", "/api/games/1/computer-move")],
)
def test_anonymous_gets_401_json(client, method, url):
    response = getattr(client, method)(url, content_type="application/json")
    assert_error(response, 401, "unauthenticated")


def test_session_auth(player_client, player):
    response = player_client.get("/api/me")
    assert response.status_code == 200
    assert response.json() == {"id": player.pk, "username": "alice", "ratings": {}}


def test_token_auth_marks_the_token_used(token_client, player, token):
    response = token_client.get("/api/me")
    assert response.json()["username"] == "alice"
    stored = ApiToken.objects.get(player=player)
    assert stored.last_used is not None
    assert stored.token_hash == hash_token(token) and token not in (stored.token_hash, stored.prefix)
    assert token.startswith(stored.prefix)


@pytest.mark.parametrize("header", ["Bearer ttt_nope", "Bearer ", "Basic YWxpY2U6eA==", "Bearer " + "x" * 5000])
def test_bad_tokens_get_401(client, header):
    assert_error(client.get("/api/me", HTTP_AUTHORIZATION=header), 401, "unauthenticated")


def test_revoked_token_gets_401(token_client, player):
    assert token_client.get("/api/me").status_code == 200
    ApiToken.objects.filter(player=player).delete()
    assert_error(token_client.get("/api/me"), 401, "unauthenticated")


def test_token_of_a_deactivated_player_gets_401(token_client, player):
    player.is_active = False
    player.save()
    assert_error(token_client.get("/api/me"), 401, "unauthenticated")


def test_session_post_needs_csrf_token_but_bearer_does_not(player, token):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    payload = {"variant": "classic", "opponent": "local"}
    assert_error(post(browser, "/api/games", payload), 403, "csrf_failed")
    assert not Game.objects.exists()
    browser.get(reverse("profile", args=["alice"]))  # sets the csrftoken cookie
    csrf = browser.cookies["csrftoken"].value
    assert post(browser, "/api/games", payload, HTTP_X_CSRFTOKEN=csrf).status_code == 201
    bot = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert post(bot, "/api/games", payload).status_code == 201


def test_anonymous_post_with_csrf_enforced_is_401_not_403():
    assert_error(post(Client(enforce_csrf_checks=True), "/api/games", {}), 401, "unauthenticated")


# Creating games ---------------------------------------------------------------------------------------


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
        "side": "O", "kind": "computer", "username": None, "level": None, "strategy": "random",
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


def test_malformed_json_is_400(player_client):
    response = player_client.post("/api/games", "{not json", content_type="application/json")
    assert_error(response, 400, "invalid_input")


# Reading games ----------------------------------------------------------------------------------------------


def test_get_game_full_state(player_client, make_game, player):
    game = make_game(variant="multi", opponent="local")
    for move in (36, 2, 20):  # X board 4 cell 0, O board 0 cell 2, X board 2 cell 2
        move_play(game=game, player=player, move=move)
    response = player_client.get(f"/api/games/{game.pk}")
    assert response.status_code == 200
    body = response.json()
    assert body["ply"] == 3 and body["to_move"] == "O" and body["variant_title"]
    assert [m["move"] for m in body["moves"]] == [36, 2, 20]
    assert body["moves"][0] == {"ply": 1, "side": "X", "move": 36, "board": 4, "position": 0, "label": "4 0"}
    assert body["moves"][1]["side"] == "O" and body["moves"][2]["board"] == 2
    assert body["active_boards"] == [2] and all(18 <= m < 27 for m in body["legal_moves"])
    assert body["cells"][36] == "X" and body["cells"][2] == "O"


def test_grid_move_entries(player_client, make_game, player):
    game = make_game(variant="nxn", options={"size": 4}, opponent="local")
    move_play(game=game, player=player, move=6)
    entry = player_client.get(f"/api/games/{game.pk}").json()["moves"][0]
    assert entry == {"ply": 1, "side": "X", "move": 6, "board": None, "position": 6, "label": "2 3"}


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


def test_non_numeric_game_id_is_400_or_404(player_client):
    response = player_client.get("/api/games/abc")
    assert response.status_code in (400, 404) and "code" in response.json()


def test_unknown_endpoint_is_404_json(player_client):
    assert_error(player_client.get("/api/nothing/here"), 404, "not_found")


# Playing -----------------------------------------------------------------------------------------------


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
    assert "4" in body["message"]
    assert Move.objects.count() == 1


@pytest.mark.parametrize(
    "payload", [{}, {"move": "four"}, {"move": 1.5}, {"move": None}, {"cell": 3}, {"move": 4, "plly": 0}]
)
def test_bad_move_payload_is_400_invalid_input(token_client, vs_random, payload):
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/moves", payload), 400, "invalid_input")
    assert not Move.objects.exists()


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

    monkeypatch.setattr("games.api.move_play", clash)
    assert_error(post(player_client, f"/api/games/{vs_random.pk}/moves", {"move": 0}), 409, "conflict")


def test_future_service_errors_get_a_stable_code():
    from games.api import error_code

    class SeatTaken(GameError):
        status_code = 409

    class Coded(GameError):
        code = "custom_code"

    assert error_code(SeatTaken("x")) == "seat_taken" and error_code(Coded("x")) == "custom_code"
    assert error_code(MoveConflict("x")) == "conflict"


# Resigning ---------------------------------------------------------------------------------------------------


def test_resign(token_client, vs_random):
    response = post(token_client, f"/api/games/{vs_random.pk}/resign")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["result"] == "O" and body["result_reason"] == "resigned"
    assert body["result_text"] == "O wins (X resigned)" and body["legal_moves"] == []
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/resign"), 409, "game_finished")


# History -----------------------------------------------------------------------------------------------------


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


# OpenAPI and docs --------------------------------------------------------------------------------------------


def test_openapi_document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    for path in ("/api/variants", "/api/strategies", "/api/games", "/api/games/{game_id}",
                 "/api/games/{game_id}/moves", "/api/games/{game_id}/resign", "/api/games/{game_id}/computer-move"):
        assert path in paths
    assert "409" in paths["/api/games/{game_id}/moves"]["post"]["responses"]
    schemes = schema["components"]["securitySchemes"]
    assert {s["type"] for s in schemes.values()} >= {"http", "apiKey"}


def test_docs_page_works_offline(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    # Every script, style and link is served by the site itself: no CDN, no other host.
    # (Not a search for "cdn" in the page: the random CSRF token can spell it.)
    addresses = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert addresses and all(a.startswith("/") and not a.startswith("//") for a in addresses), addresses
    # The site's bar (templates/ninja/swagger.html): the way back, and Swagger UI's dark theme on a dark system.
    assert '<a class="api-home" id="api-home" href="/">' in html and 'href="/api/openapi.json"' in html
    assert 'classList.toggle("dark-mode"' in html


# Profile: API tokens ------------------------------------------------------------------------------------


def test_profile_create_token_shows_it_once(player_client, player):
    url = reverse("token_create", args=["alice"])
    response = player_client.post(url, {"name": "my bot"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    stored = ApiToken.objects.get(player=player)
    html = response.content.decode()
    start = html.index('id="new-token-value">') + len('id="new-token-value">')
    raw = html[start: html.index("<", start)]
    assert stored.token_hash == hash_token(raw) and stored.name == "my bot"
    assert Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/me").json()["username"] == "alice"
    again = player_client.get(reverse("profile", args=["alice"])).content.decode()
    assert raw not in again and stored.prefix in again and "my bot" in again
    assert 'aria-label="Revoke my bot"' in again  # which one, for a screen reader


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_profile_create_token_needs_a_name(player_client, name):
    response = player_client.post(reverse("token_create", args=["alice"]), {"name": name})
    html = response.content.decode()
    assert response.status_code == 400 and 'class="form-errors" role="alert" id="token-name-error"' in html
    # the error belongs to the field, which takes the focus back
    assert 'aria-invalid="true" aria-describedby="token-name-error" autofocus' in html
    assert not ApiToken.objects.exists()


def test_profile_tokens_are_the_owners_business(player_client, other_client, player, other_player, token):
    stored = ApiToken.objects.get(player=player)
    own = player_client.get(reverse("profile", args=["alice"])).content.decode()
    assert ">bot<" in own and "Revoke bot" in own and stored.prefix in own
    page = other_client.get(reverse("profile", args=["alice"])).content.decode()
    # (">bot<", not "bot": the random CSRF token in the page can spell three letters)
    assert ">bot<" not in page and "Revoke bot" not in page and stored.prefix not in page and "token-form" not in page
    assert other_client.post(reverse("token_create", args=["alice"]), {"name": "evil"}).status_code == 403
    assert other_client.post(reverse("token_revoke", args=["alice", stored.pk])).status_code == 403
    # bob's own revoke URL with alice's token id: not his token
    assert other_client.post(reverse("token_revoke", args=["bob", stored.pk])).status_code == 404
    assert list(ApiToken.objects.values_list("player__username", flat=True)) == ["alice"]


def test_profile_token_views_need_post_and_login(client, player_client, player, token):
    stored = ApiToken.objects.get(player=player)
    assert player_client.get(reverse("token_create", args=["alice"])).status_code == 405
    assert player_client.get(reverse("token_revoke", args=["alice", stored.pk])).status_code == 405
    response = client.post(reverse("token_create", args=["alice"]), {"name": "x"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert ApiToken.objects.count() == 1


def test_profile_revoke_token(player_client, player, token):
    stored = ApiToken.objects.get(player=player)
    response = player_client.post(reverse("token_revoke", args=["alice", stored.pk]), follow=True)
    assert response.status_code == 200 and "revoked" in response.content.decode()
    assert not ApiToken.objects.exists()
    assert_error(Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/me"), 401, "unauthenticated")


@pytest.mark.parametrize(
    ("method", "url"),
    [("delete", "/api/games/1"), ("put", "/api/games"), ("get", "/api/games/1/moves"), ("post", "/api/variants")],
)
def test_wrong_method_is_405_json(player_client, method, url):
    response = getattr(player_client, method)(url)
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"]


# Input that only looks like what was asked for -------------------------------------------------------------


@pytest.mark.parametrize("value", [True, "4", " 5 ", 4.0, None, [4]])
def test_a_move_must_be_a_json_integer(token_client, vs_random, value):
    # JSON's true is not cell 1, nor the string "4" cell 4: refused, not converted
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": value})
    body = assert_error(response, 400, "invalid_input")
    assert body["details"][0]["loc"] == "body.move"
    assert Move.objects.filter(game=vs_random).count() == 0


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


def test_a_body_over_the_limit_gets_413_and_changes_nothing(token_client, vs_random, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4, "pad": "x" * 20_000})
    body = assert_error(response, 413, "too_large")
    assert "10,000 bytes" in body["message"]
    assert Move.objects.filter(game=vs_random).count() == 0
    assert post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4}).status_code == 200


@pytest.mark.parametrize("url", ["/api/variants", "/api/games/1", "/api/no-such-thing"])
def test_options_and_head_get_json_405_or_404(token_client, url):
    for method in ("options", "head"):
        response = getattr(token_client, method)(url)
        assert response["Content-Type"].startswith("application/json")
        assert response.status_code in (404, 405)
        if method == "options":
            assert response.json()["code"] in ("method_not_allowed", "not_found")
            assert response.json()["code"] == ("not_found" if "no-such" in url else "method_not_allowed")


@pytest.mark.parametrize("field", ["variant", "strategy", "invite"])
def test_a_nul_in_a_json_string_is_refused(token_client, field):
    # PostgreSQL cannot hold one (a lookup of the invitee would fail there): refused on every database alike
    data = {"variant": "classic", "opponent": "human" if field == "invite" else "easy", field: "ali\u0000ce"}
    before = Game.objects.count()
    body = assert_error(post(token_client, "/api/games", data), 400, "invalid_input")
    assert body["details"][0]["loc"] == f"body.{field}" and "NUL" in body["message"]
    assert Game.objects.count() == before


@pytest.mark.parametrize("field", ["variant", "strategy", "invite"])
@pytest.mark.parametrize("text", ["\ud800", "bo\udfffb"])
def test_a_lone_surrogate_in_a_json_string_is_refused(token_client, field, text):
    # JSON can escape one ("\ud800"), no database driver can encode it: it was a 500 on the invitee's lookup
    data = {"variant": "classic", "opponent": "human" if field == "invite" else "easy", field: text}
    before = Game.objects.count()
    body = assert_error(post(token_client, "/api/games", data), 400, "invalid_input")
    assert body["details"][0]["loc"] == f"body.{field}" and "surrogate" in body["message"]
    assert Game.objects.count() == before


def test_a_form_body_gets_the_apis_json_answers(token_client, vs_random, settings):
    # what curl -F move=4 sends: the API reads JSON, and says so in JSON (the NUL check leaves /api/ bodies alone)
    response = token_client.post(f"/api/games/{vs_random.pk}/moves", {"move": "4"})  # multipart
    assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body, form = "move=4&pad=" + "x" * 20_000, "application/x-www-form-urlencoded"
    response = token_client.post(f"/api/games/{vs_random.pk}/moves", body, content_type=form)
    assert_error(response, 413, "too_large")
    assert Move.objects.filter(game=vs_random).count() == 0


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


def test_a_body_field_the_api_does_not_know_is_refused(token_client, vs_random):
    body = assert_error(
        post(token_client, "/api/games", {"variant": "classic", "opponent": "easy", "colour": "red"}), 400,
        "invalid_input",
    )
    assert body["details"][0]["loc"] == "body.colour" and "not permitted" in body["details"][0]["message"].lower()
    assert Game.objects.count() == 1  # vs_random only
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/play-on", {"ply": 0, "speed": 1}), 400, "invalid_input")
