"""Two people playing each other (issue 4): challenges, refusals, private games, spectators, live poll, rematch.

Services first (the rules), then the pages (only your own controls; the poll answers 204 while nothing
changed), then the JSON API over the same services.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.errors import (
    NotAChallenge,
)
from games.models import Game
from games.services import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    move_play,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def finish(game: Game, x, o) -> Game:
    """X wins along the top row."""
    for move, who in ((0, x), (3, o), (1, x), (4, o), (2, x)):
        move_play(game=game, player=who, move=move)
    game.refresh_from_db()
    return game


def version(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def test_api_decline(player, other_player, player_client, other_client):
    game = challenge_create(player=player, variant="classic", invitee=other_player)
    refused = api_post(player_client, f"/api/games/{game.pk}/decline")
    assert refused.status_code == 403 and refused.json()["code"] == "not_invited"
    assert api_post(other_client, f"/api/games/{game.pk}/decline").status_code == 204
    assert api_post(other_client, f"/api/games/{game.pk}/decline").status_code == 404


@pytest.mark.parametrize("opponent", ["easy", "local", "watch"])
def test_a_game_that_never_was_a_challenge_says_so(make_game, other_player, other_client, opponent):
    game = make_game(opponent=opponent)
    version, seated = game.version, game.o_player_id
    for action, who in ((challenge_accept, other_player), (challenge_cancel, game.created_by)):
        with pytest.raises(NotAChallenge, match="is not a challenge"):
            action(game=game, player=who)
    response = other_client.post(reverse("games:accept", args=[game.pk]))
    assert response.status_code == 409 and "not a challenge" in response.content.decode()
    response = other_client.post(f"/api/games/{game.pk}/accept", content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "not_a_challenge"
    game.refresh_from_db()
    assert game.version == version and game.o_player_id == seated


def test_private_game_is_hidden_from_others_everywhere(player, other_player, third_client):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", invitee=other_player),
                            player=other_player)
    for name in ("games:detail", "games:replay", "games:poll"):
        assert third_client.get(reverse(name, args=[game.pk])).status_code == 404, name
    for name in ("games:move", "games:resign", "games:accept", "games:cancel", "games:rematch"):
        assert third_client.post(reverse(name, args=[game.pk]), {"move": "0"}).status_code == 404, name
    assert third_client.get(f"/api/games/{game.pk}").status_code == 404
    assert third_client.post(f"/api/games/{game.pk}/accept", content_type="application/json").status_code == 404


def poll(client: Client, game: Game, v: int):
    return client.get(reverse("games:poll", args=[game.pk]), {"v": v}, **HTMX)


def api_post(client: Client, path: str, payload: dict | None = None):
    return client.post(path, json.dumps(payload or {}), content_type="application/json")


def test_api_challenge_accept_and_lobby(player_client, other_client, third_client):
    body = api_post(player_client, "/api/games", {"variant": "classic", "opponent": "human", "side": "O"}).json()
    assert body["status"] == "open" and body["private"] is False and body["invitee"] is None
    lobby = other_client.get("/api/challenges").json()
    assert [g["id"] for g in lobby["open"]] == [body["id"]] and lobby["yours"] == []
    assert [g["id"] for g in player_client.get("/api/challenges").json()["yours"]] == [body["id"]]
    own = api_post(player_client, f"/api/games/{body['id']}/accept")
    assert own.status_code == 400 and own.json()["code"] == "own_challenge"
    accepted = api_post(other_client, f"/api/games/{body['id']}/accept").json()
    assert accepted["status"] == "active" and accepted["your_sides"] == ["X"] and accepted["your_turn"]
    taken = api_post(third_client, f"/api/games/{body['id']}/accept")
    assert taken.status_code == 409 and taken.json()["code"] == "challenge_taken"


def test_api_direct_private_challenge(player_client, other_client, third_client):
    payload = {"variant": "classic", "opponent": "human", "invite": "bob"}
    body = api_post(player_client, "/api/games", payload).json()
    assert body["private"] is True and body["invitee"] == "bob"
    assert [g["id"] for g in other_client.get("/api/challenges").json()["for_you"]] == [body["id"]]
    assert third_client.get(f"/api/games/{body['id']}").status_code == 404
    assert api_post(third_client, f"/api/games/{body['id']}/accept").status_code == 404
    assert api_post(other_client, f"/api/games/{body['id']}/accept").status_code == 200


def test_api_cancel(player_client, other_client):
    body = api_post(player_client, "/api/games", {"variant": "classic", "opponent": "human"}).json()
    refused = api_post(other_client, f"/api/games/{body['id']}/cancel")
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    assert api_post(player_client, f"/api/games/{body['id']}/cancel").status_code == 204
    assert api_post(player_client, f"/api/games/{body['id']}/cancel").status_code == 404


def test_api_rematch(duel, player, other_player, player_client, other_client):
    finish(duel, player, other_player)
    body = api_post(player_client, f"/api/games/{duel.pk}/rematch").json()
    assert body["rematch_offered_by"] == "alice" and body["rematch"] is None
    assert other_client.get(f"/api/games/{duel.pk}").json()["rematch_offered_by"] == "alice"
    own = api_post(player_client, f"/api/games/{duel.pk}/rematch/accept")
    assert own.status_code == 409 and own.json()["code"] == "rematch_refused"
    new = api_post(other_client, f"/api/games/{duel.pk}/rematch/accept")
    assert new.status_code == 201
    new = new.json()
    assert new["rematch_of"] == duel.pk and new["your_sides"] == ["X"] and new["status"] == "active"
    assert player_client.get(f"/api/games/{duel.pk}").json()["rematch"] == new["id"]


def test_api_rematch_declined(duel, player, other_player, player_client, other_client):
    finish(duel, player, other_player)
    api_post(player_client, f"/api/games/{duel.pk}/rematch")
    assert player_client.get(f"/api/games/{duel.pk}").json()["rematch_declined"] is False
    body = api_post(other_client, f"/api/games/{duel.pk}/rematch/decline").json()
    assert body["rematch_declined"] is True and body["rematch_offered_by"] == "alice"
    again = api_post(player_client, f"/api/games/{duel.pk}/rematch")
    assert again.status_code == 409 and again.json()["code"] == "rematch_refused"
    assert again.json()["message"] == "your opponent declined the rematch"
    body = api_post(other_client, f"/api/games/{duel.pk}/rematch").json()  # bob changes his mind
    assert body["rematch_declined"] is False and body["rematch_offered_by"] == "bob"


def test_api_spectator_reads_but_cannot_act(duel, third_client):
    body = third_client.get(f"/api/games/{duel.pk}").json()
    assert body["your_sides"] == [] and body["your_turn"] is False
    for path, code in (("moves", "not_seated"), ("resign", "not_seated"), ("rematch", "not_seated")):
        response = api_post(third_client, f"/api/games/{duel.pk}/{path}", {"move": 0})
        assert response.status_code == 403 and response.json()["code"] == code
