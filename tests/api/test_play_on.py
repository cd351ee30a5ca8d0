"""Play on from a position of a finished game, against the computer (services, the replay's form, the API)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services import game_from_position, game_resign, move_play

pytestmark = pytest.mark.django_db

#: X centre, O edge, X corner, O blocks, X forks, O blocks one threat, X wins on the diagonal
WON_BY_X = [4, 1, 0, 8, 6, 3, 2]


def finished(make_game, player, moves=WON_BY_X, **kwargs) -> Game:
    game = make_game(**kwargs)
    for move in moves:
        move_play(game=game, player=player, move=move)
    game = Game.objects.get(pk=game.pk)
    return game if game.is_finished else game_resign(game=game, player=player)


def test_api_play_on(make_game, player, player_client):
    old = finished(make_game, player)
    response = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 3}, content_type="application/json")
    assert response.status_code == 201
    data = response.json()
    assert data["ply"] == 3 and [m["move"] for m in data["moves"]] == [4, 1, 0] and data["your_turn"] is True
    assert data["opponent"] == "hard" and data["your_sides"] == ["O"]
    refused = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 7}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_settings"
    for level in ("x", 0, 9, "5", True):  # a name, or a rung of the ladder as a number
        bad = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 1, "level": level},
                                 content_type="application/json")
        assert bad.status_code == 400, level
    rung = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 3, "level": 5}, content_type="application/json")
    assert rung.status_code == 201 and Game.objects.get(pk=rung.json()["id"]).x_level == "5"


def test_the_new_game_says_where_it_came_from(make_game, player, player_client):
    old = finished(make_game, player)
    new = game_from_position(game=old, ply=3, player=player, level="hard")
    assert (new.played_on_from_id, new.played_on_ply) == (old.pk, 3)
    page = player_client.get(reverse("games:detail", args=[new.pk])).content.decode()
    replay = reverse("games:replay", args=[old.pk])
    assert f'Played on from <a href="{replay}?ply=3">game #{old.pk}</a>, after its move 3.' in page
    assert player_client.get(f"/api/games/{new.pk}").json()["played_on_from"] == {"game": old.pk, "ply": 3}
    assert player_client.get(f"/api/games/{old.pk}").json()["played_on_from"] is None
