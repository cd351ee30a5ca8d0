"""Clocks and aborts in the JSON API: ``clock`` when starting a game, ``clock``/``clock_ms``/``clock_running`` in
every game's JSON, the end on time seen on a read, and ``POST /api/games/{id}/abort``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services import challenge_accept, challenge_create, move_play
from tests.api.helpers import assert_error, post


def accepted(player, other_player, clock: str) -> Game:
    return challenge_accept(game=challenge_create(player=player, variant="classic", clock=clock), player=other_player)


def test_a_challenge_with_a_clock_and_its_json(token_client, other_player, other_client):
    response = post(token_client, "/api/games", {"variant": "classic", "opponent": "human", "clock": "3+2"})
    assert response.status_code == 201, response.content
    data = response.json()
    # not started: the full time, nothing running
    assert data["clock"] == "3+2" and data["clock_ms"] == {"X": 180_000, "O": 180_000} and data["clock_running"] is None
    game = Game.objects.get(pk=data["id"])
    other_client.post(f"/api/games/{game.pk}/accept")
    data = other_client.get(f"/api/games/{game.pk}").json()
    assert data["clock"] == "3+2" and data["clock_ms"] == {"X": 180_000, "O": 180_000}
    assert data["clock_running"] is None  # nothing runs before each side's first move
    # the lists say it too
    listed = token_client.get("/api/games").json()["items"][0]
    assert listed["id"] == game.pk and listed["clock"] == "3+2" and listed["clock_ms"] == {"X": 180_000, "O": 180_000}


def test_a_game_without_a_clock_says_none(token_client):
    data = post(token_client, "/api/games", {"variant": "classic", "opponent": "easy"}).json()
    assert data["clock"] == "none" and data["clock_ms"] is None and data["clock_running"] is None
    data = post(token_client, "/api/games", {"variant": "classic", "opponent": "human", "clock": "none"}).json()
    assert data["clock"] == "none"


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"opponent": "human", "clock": "3+"}, "increment is missing"),
        ({"opponent": "human", "clock": "4d"}, "days per move"),
        ({"opponent": "human", "clock": "0+5"}, "minutes"),
        ({"opponent": "human", "clock": "fast"}, "not a time control"),
        ({"opponent": "easy", "clock": "3+2"}, "only for a game against another player"),
        ({"opponent": "local", "clock": "1d"}, "only for a game against another player"),
        ({"opponent": "watch", "clock": "5+3"}, "only for a game against another player"),
    ],
)
def test_a_bad_clock_is_a_clear_400_and_makes_nothing(token_client, payload, says):
    response = post(token_client, "/api/games", {"variant": "classic", **payload})
    body = assert_error(response, 400, "invalid_settings")
    assert says in body["message"]
    assert not Game.objects.exists()


def test_a_clock_of_the_wrong_type_is_invalid_input(token_client):
    assert_error(
        post(token_client, "/api/games", {"variant": "classic", "opponent": "human", "clock": 3}), 400, "invalid_input"
    )
    assert not Game.objects.exists()


def test_clock_ms_is_the_time_left_at_the_answer_and_a_flag_ends_the_game_on_read(
    player, other_player, player_client, other_client
):
    game = accepted(player, other_player, "0.25+0")
    move_play(game=game, player=player, move=0)
    move_play(game=game, player=other_player, move=4)
    data = player_client.get(f"/api/games/{game.pk}").json()
    assert data["clock_running"] == "X" and data["clock_ms"]["O"] == 15_000 and 0 < data["clock_ms"]["X"] <= 15_000
    # X's time ran out a while ago (as if 20 s had passed): the next read ends the game on time
    Game.objects.filter(pk=game.pk).update(clock_since=timezone.now() - timedelta(seconds=20))
    data = other_client.get(f"/api/games/{game.pk}").json()
    assert data["status"] == "finished" and data["result"] == "O" and data["result_reason"] == "time"
    assert data["result_text"] == "O wins on time" and data["clock_ms"] == {"X": 0, "O": 15_000}
    assert data["clock_running"] is None
    # a move sent after the flag fell is refused
    assert_error(post(player_client, f"/api/games/{game.pk}/moves", {"move": "c1"}), 409, "game_finished")


def test_abort(player, other_player, player_client, other_client, make_player):
    game = accepted(player, other_player, "3+2")
    data = post(other_client, f"/api/games/{game.pk}/abort").json()
    assert data["status"] == "finished" and data["result"] is None and data["result_reason"] == "aborted"
    assert data["result_text"] == "Game aborted" and data["ratings"] is None
    assert_error(post(other_client, f"/api/games/{game.pk}/abort"), 409, "game_finished")

    started = accepted(player, other_player, "none")
    move_play(game=started, player=player, move=0)
    move_play(game=started, player=other_player, move=4)
    assert_error(post(player_client, f"/api/games/{started.pk}/abort"), 409, "abort_refused")
    assert Game.objects.get(pk=started.pk).status == "active"
    # aborted games are not in My games
    assert [item["id"] for item in player_client.get("/api/games").json()["items"]] == [started.pk]
