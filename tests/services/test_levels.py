"""Levels 1..8 of the ladder for a computer opponent (issue 21): through the services, the page and the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import InvalidGameSettings
from games.models import Game
from games.services import game_again, game_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("level", [1, 5, "8", " 3 "])
def test_a_level_is_the_computer_seat(player, level):
    game = game_create(player=player, variant="classic", opponent="hard", level=level)
    assert game.o_level == str(int(str(level).strip())) and game.seat_label("O") == f"Computer (level {game.o_level})"


@pytest.mark.parametrize("level,opponent,strategy,words", [
    (0, "hard", None, "from 1 to 8"), (9, "easy", None, "from 1 to 8"), ("x", "easy", None, "from 1 to 8"),
    (True, "easy", None, "from 1 to 8"), ("٣", "easy", None, "from 1 to 8"), (3, "local", None, "computer opponent"),
    (3, "human", None, "computer opponent"), (3, "easy", "random", "not both"),
])
def test_a_level_that_cannot_be_is_refused(player, level, opponent, strategy, words):
    with pytest.raises(InvalidGameSettings, match=words):
        game_create(player=player, variant="classic", opponent=opponent, level=level, strategy=strategy)
    assert not Game.objects.exists()


def test_a_watched_game_at_a_level_and_play_again_keeps_it(player):
    watched = game_create(player=player, variant="classic", opponent="watch", level=6)
    assert (watched.x_level, watched.o_level) == ("6", "6")
    game = game_create(player=player, variant="ultimate", opponent="easy", level=7)
    from games.services import game_resign

    game_resign(game=game, player=player)
    assert game_again(game=Game.objects.get(pk=game.pk), player=player).o_level == "7"


def test_the_new_game_form_takes_a_level(player_client):
    response = player_client.post(reverse("games:new"), {"variant": "classic", "opponent": "hard", "level": "3",
                                                         "side": "X"})
    assert response.status_code == 302
    assert Game.objects.get().o_level == "3"


def test_the_api_takes_a_level(player_client):
    created = player_client.post("/api/games", {"variant": "classic", "opponent": "hard", "level": 5},
                                 content_type="application/json")
    assert created.status_code == 201 and created.json()["seats"][1]["label"] == "Computer (level 5)"
    refused = player_client.post("/api/games", {"variant": "classic", "opponent": "hard", "level": 9},
                                 content_type="application/json")
    assert refused.status_code == 400 and Game.objects.count() == 1


def test_the_rules_page_shows_the_ladder(client):
    html = client.get(reverse("rules")).content.decode()
    assert 'id="ladder"' in html and html.count("<tr><th scope=\"row\">") == 8
    assert "8 (hard)" in html and "perfect" in html and "mcts, 0.9 s" in html
