"""Preferences kept on the player (issue 30): the boards' colours, when a move takes two clicks, premoves; saved from
the profile and carried by every page (<body data-board-theme>, data-confirm-moves) and the game page (data-premove)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import challenge_accept, challenge_create, move_play
from players.models import Player

pytestmark = pytest.mark.django_db


def prefs(**fields):
    return {"board_theme": "standard", "confirm_moves": "touch", **fields}


def test_defaults_and_the_form_on_ones_own_profile(player_client, player, other_player):
    assert (player.board_theme, player.confirm_moves, player.premove) == ("standard", "touch", False)
    page = player_client.get(reverse("profile", args=[player.username])).content.decode()
    assert 'id="preferences-form"' in page
    assert 'data-board-theme="standard"' in page and 'data-confirm-moves="touch"' in page
    for value in ("standard", "wood", "sea", "contrast"):
        assert f'name="board_theme" value="{value}"' in page
    other = player_client.get(reverse("profile", args=[other_player.username])).content.decode()
    assert 'id="preferences-form"' not in other


def test_saving_preferences_follows_the_player(player_client, player):
    data = prefs(board_theme="wood", confirm_moves="always", premove="on")
    response = player_client.post(reverse("preferences_set", args=[player.username]), data)
    assert response.status_code == 302 and response["Location"].endswith("#preferences")
    player.refresh_from_db()
    assert (player.board_theme, player.confirm_moves, player.premove) == ("wood", "always", True)
    page = player_client.get("/rules/").content.decode()
    assert 'data-board-theme="wood"' in page and 'data-confirm-moves="always"' in page


@pytest.mark.parametrize("data", [prefs(board_theme="pink"), prefs(confirm_moves="sometimes"), {}])
def test_a_choice_that_is_not_offered_is_a_400_and_changes_nothing(player_client, player, data):
    response = player_client.post(reverse("preferences_set", args=[player.username]), data)
    assert response.status_code == 400 and 'id="preferences-form"' in response.content.decode()
    player.refresh_from_db()
    assert player.board_theme == "standard" and player.confirm_moves == "touch"


def test_nobody_sets_another_players_preferences(player_client, other_player):
    response = player_client.post(reverse("preferences_set", args=[other_player.username]), prefs(board_theme="sea"))
    assert response.status_code == 403
    assert Player.objects.get(pk=other_player.pk).board_theme == "standard"


def test_premove_only_in_a_running_game_with_a_clock(player_client, player, other_player):
    Player.objects.filter(pk=player.pk).update(premove=True)
    timed = challenge_accept(game=challenge_create(player=player, variant="classic", side="X", clock="3+2"),
                             player=other_player)
    untimed = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=other_player)
    move_play(game=timed, player=player, move=4)
    page = player_client.get(reverse("games:detail", args=[timed.pk])).content.decode()
    assert "data-premove" in page.split('id="play"')[1].split(">")[0]
    page = player_client.get(reverse("games:detail", args=[untimed.pk])).content.decode()
    assert "data-premove" not in page.split('id="play"')[1].split(">")[0]
