"""The quick-pairing API: POST/GET/DELETE /api/seeks, GET /api/seeks/{id} as the ping, playing a seek."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, Seek
from players.models import ApiToken

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob_client(other_player) -> Client:
    _token, raw = ApiToken.issue(player=other_player, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def test_a_seek_waits_then_a_second_one_pairs(token_client, bob_client, player, other_player):
    response = post(token_client, "/api/seeks", {"variant": "nxn", "options": {"size": 5}, "clock": "3+2"})
    assert response.status_code == 201, response.content
    seek = response.json()
    assert (seek["status"], seek["game"], seek["pool"], seek["rating"]) == ("waiting", None, "nxn-5:blitz", 1500)
    assert 100 <= seek["window"] < 110  # ±100 at first, 10 more a second: the answer's moment, a little later
    assert seek["yours"] and seek["rated"] and seek["player"] == player.username

    listed = bob_client.get("/api/seeks").json()
    assert [(s["id"], s["yours"]) for s in listed] == [(seek["id"], False)]

    paired = post(bob_client, "/api/seeks", {"variant": "nxn", "options": {"size": 5}, "clock": "3+2"}).json()
    assert paired["status"] == "paired" and paired["game"]
    game = Game.objects.get(pk=paired["game"])
    assert {game.x_player_id, game.o_player_id} == {player.pk, other_player.pk} and game.clock == "3+2"

    ping = token_client.get(f"/api/seeks/{seek['id']}")
    assert ping.status_code == 200
    assert (ping.json()["status"], ping.json()["game"]) == ("paired", game.pk)
    assert token_client.get("/api/seeks").json() == []
    state = token_client.get(f"/api/games/{game.pk}").json()
    assert state["clock"] == "3+2" and state["status"] == "active"


def test_a_casual_seek_makes_a_casual_game(token_client, bob_client):
    post(token_client, "/api/seeks", {"variant": "classic", "rated": False})
    paired = post(bob_client, "/api/seeks", {"variant": "classic", "rated": False}).json()
    assert bob_client.get(f"/api/games/{paired['game']}").json()["unrated_reason"] == "casual"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "chess"}, 400, "invalid_settings"),
        ({"variant": "nxn", "options": {"size": 11}}, 400, "invalid_settings"),
        ({"variant": "classic", "clock": "3+"}, 400, "invalid_settings"),
        ({"variant": "classic", "clock": "4d"}, 400, "invalid_settings"),
        ({"variant": "classic", "rated": "yes"}, 400, "invalid_input"),
        ({"variant": "classic", "colour": "X"}, 400, "invalid_input"),
        ({}, 400, "invalid_input"),
    ],
)
def test_bad_seeks_are_refused_clearly(token_client, body, status, code):
    body = assert_error(post(token_client, "/api/seeks", body), status, code)
    assert not Seek.objects.exists(), body


def test_not_yours_gone_and_own(token_client, bob_client):
    seek = post(token_client, "/api/seeks", {"variant": "classic"}).json()
    assert_error(bob_client.get(f"/api/seeks/{seek['id']}"), 403, "not_your_seek")
    assert_error(bob_client.delete(f"/api/seeks/{seek['id']}"), 403, "not_your_seek")
    assert_error(post(token_client, f"/api/seeks/{seek['id']}/accept"), 400, "own_seek")
    assert token_client.delete(f"/api/seeks/{seek['id']}").status_code == 204
    assert_error(token_client.get(f"/api/seeks/{seek['id']}"), 404, "seek_not_found")
    assert_error(token_client.delete(f"/api/seeks/{seek['id']}"), 404, "seek_not_found")
    assert_error(post(bob_client, f"/api/seeks/{seek['id']}/accept"), 404, "seek_not_found")
    assert_error(token_client.get("/api/seeks/99999"), 404, "seek_not_found")


def test_playing_a_seek_starts_the_game(token_client, bob_client, player, other_player, make_player):
    seek = post(token_client, "/api/seeks", {"variant": "ultimate", "clock": "10+5"}).json()
    response = post(bob_client, f"/api/seeks/{seek['id']}/accept")
    assert response.status_code == 201, response.content
    state = response.json()
    assert state["variant"] == "ultimate" and state["clock"] == "10+5" and state["status"] == "active"
    assert token_client.get(f"/api/seeks/{seek['id']}").json()["game"] == state["id"]
    assert_error(post(bob_client, f"/api/seeks/{seek['id']}/accept"), 409, "seek_taken")
    assert_error(token_client.delete(f"/api/seeks/{seek['id']}"), 409, "seek_taken")


def test_seeks_need_a_signed_in_player():
    assert_error(Client().get("/api/seeks"), 401, "unauthenticated")
    assert_error(post(Client(), "/api/seeks", {"variant": "classic"}), 401, "unauthenticated")


def test_other_methods_are_405_in_json(token_client):
    response = token_client.put("/api/seeks/1")
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "DELETE, GET"
