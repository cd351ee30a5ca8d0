"""The arenas' API (DESIGN.md "Arenas (API)"): make, list, one arena with its standings, join, withdraw; arena games
say their arena; bad input of every kind is a clear 4xx."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Arena, ArenaPlayer
from games.services import game_resign, pair_arena
from players.models import ApiToken

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob_client(other_player) -> Client:
    _token, raw = ApiToken.issue(player=other_player, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def make(client, **terms):
    body = {"variant": "classic", "options": {}, "clock": "1+0", "minutes": 10, "starts_in": 0, "rated": True}
    body.update(terms)
    return post(client, "/api/arenas", body)


def test_make_an_arena_and_read_it(token_client):
    response = make(token_client, variant="mnk", options={"rows": 15, "cols": 15, "k": 5}, clock="5+3", minutes=30,
                    starts_in=120)
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["status"] == "upcoming" and data["variant"] == "mnk" and data["clock"] == "5+3"
    assert data["options"] == {"rows": 15, "cols": 15, "k": 5} and data["pool"] == "mnk-15x15k5:blitz"
    assert data["standings"] == [] and data["your_game"] is None and data["joined"] is False
    contract = {"id", "status", "starts_at", "ends_at", "variant", "options", "clock", "standings", "your_game"}
    assert set(data) >= contract
    listed = token_client.get("/api/arenas").json()
    assert [a["id"] for a in listed["upcoming"]] == [data["id"]] and listed["running"] == listed["finished"] == []


@pytest.mark.parametrize(
    ("terms", "status", "code"),
    [
        ({"minutes": 5}, 400, "invalid_settings"),
        ({"clock": "none"}, 400, "invalid_settings"),
        ({"clock": "1d"}, 400, "invalid_settings"),
        ({"variant": "nxn", "options": {"size": 42}}, 400, "invalid_settings"),
        ({"variant": "chess"}, 400, "invalid_settings"),
        ({"starts_in": -5}, 400, "invalid_settings"),
        ({"minutes": "ten"}, 400, "invalid_input"),
        ({"rated": 1}, 400, "invalid_input"),
        ({"surprise": True}, 400, "invalid_input"),
        ({"name": "a\x00b"}, 400, "invalid_input"),
    ],
)
def test_bad_terms_are_refused(token_client, terms, status, code):
    assert_error(make(token_client, **terms), status, code)
    assert not Arena.objects.exists()


def test_join_play_and_see_the_standings(token_client, bob_client, player, other_player):
    arena = make(token_client).json()
    assert post(token_client, f"/api/arenas/{arena['id']}/join").json()["joined"] is True
    data = post(bob_client, f"/api/arenas/{arena['id']}/join", {}).json()
    assert [row["username"] for row in data["standings"]] == ["alice", "bob"]
    [game] = pair_arena(arena_id=arena["id"])
    mine = token_client.get(f"/api/arenas/{arena['id']}").json()
    assert mine["your_game"] == game.pk and mine["status"] == "running"
    assert token_client.get(f"/api/games/{game.pk}").json()["arena"] == arena["id"]
    game_resign(game=game, player=game.x_player)
    data = token_client.get(f"/api/arenas/{arena['id']}").json()
    assert data["your_game"] is None
    top = data["standings"][0]
    assert (top["username"], top["score"], top["games"], top["on_fire"], top["rank"]) == (
        game.o_player.username, 2, 1, False, 1)


def test_a_plain_game_has_no_arena(token_client, vs_random):
    assert token_client.get(f"/api/games/{vs_random.pk}").json()["arena"] is None


def test_password_withdraw_and_refusals(token_client, bob_client):
    arena = make(token_client, password="sesame").json()
    assert arena["protected"] is True
    assert_error(post(bob_client, f"/api/arenas/{arena['id']}/join"), 403, "arena_password")
    assert_error(post(bob_client, f"/api/arenas/{arena['id']}/join", {"password": "nope"}), 403, "arena_password")
    assert post(bob_client, f"/api/arenas/{arena['id']}/join", {"password": "sesame"}).status_code == 200
    data = post(bob_client, f"/api/arenas/{arena['id']}/withdraw").json()
    assert (data["joined"], data["withdrawn"]) == (False, True)
    assert_error(post(token_client, f"/api/arenas/{arena['id']}/withdraw"), 409, "not_joined")
    assert_error(token_client.get("/api/arenas/999999"), 404, "arena_not_found")
    assert_error(post(token_client, "/api/arenas/999999/join"), 404, "arena_not_found")
    assert_error(token_client.get("/api/arenas/1.5"), 404, "not_found")
    assert_error(token_client.get(f"/api/arenas/{arena['id']}?page=0"), 400, "invalid_input")
    assert_error(token_client.delete(f"/api/arenas/{arena['id']}"), 405, "method_not_allowed")
    Arena.objects.filter(pk=arena["id"]).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert_error(post(bob_client, f"/api/arenas/{arena['id']}/join"), 409, "arena_finished")


def test_asking_about_an_arena_keeps_a_player_present(token_client):
    arena = make(token_client).json()
    post(token_client, f"/api/arenas/{arena['id']}/join")
    ArenaPlayer.objects.update(seen=timezone.now() - timedelta(minutes=5))
    token_client.get(f"/api/arenas/{arena['id']}")
    assert ArenaPlayer.objects.get().seen > timezone.now() - timedelta(seconds=5)


def test_berserk_over_the_api(token_client, bob_client, player):
    arena = make(token_client, clock="3+2").json()
    post(token_client, f"/api/arenas/{arena['id']}/join")
    post(bob_client, f"/api/arenas/{arena['id']}/join")
    [game] = pair_arena(arena_id=arena["id"])
    client = token_client if game.x_player_id == player.pk else bob_client
    data = post(client, f"/api/games/{game.pk}/berserk").json()
    assert data["clock_ms"]["X"] == 90_000
    assert_error(post(client, f"/api/games/{game.pk}/berserk"), 409, "berserk_refused")


def test_anonymous_callers_are_refused(client, db):
    assert_error(client.get("/api/arenas"), 401, "unauthenticated")
