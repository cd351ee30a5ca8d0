"""Sound and attention on the pages (issue 22): the sound setting kept on the player and posted by a small form,
the data-* the script reads, the "Notify me" button, the game's data-your-turn, and all of it without inline
script."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import challenge_accept, challenge_create, move_play
from players.models import Player
from tests.web.test_no_inline_script import assert_no_inline_script


def test_sound_is_on_by_default(player):
    assert Player.objects.get(pk=player.pk).sound is True


def test_pages_carry_the_setting_and_the_script(player, player_client):
    html = player_client.get(reverse("games:new")).content.decode()
    assert 'data-sound="on"' in html and 'data-sound-base="/static/sounds/"' in html
    assert "js/attention.js" in html
    Player.objects.filter(pk=player.pk).update(sound=False)
    assert 'data-sound="off"' in player_client.get(reverse("games:new")).content.decode()


@pytest.mark.parametrize("value", ["off", "on"])
def test_the_toggle_posts_the_setting(value, player, player_client):
    Player.objects.filter(pk=player.pk).update(sound=value == "off")
    url = reverse("sound_set", args=["alice"])
    response = player_client.post(url, {"sound": value}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 204
    assert Player.objects.get(pk=player.pk).sound is (value == "on")
    # without JavaScript: back to the page it came from (this site's only), or the profile
    response = player_client.post(url, {"sound": value, "next": "/games/"})
    assert response.status_code == 302 and response["Location"] == "/games/"
    response = player_client.post(url, {"sound": value, "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == reverse("profile", args=["alice"])


def test_the_toggle_refuses_what_it_should(player, other_player, player_client, client):
    url = reverse("sound_set", args=["alice"])
    assert player_client.post(url, {"sound": "loud"}).status_code == 400
    assert player_client.get(url).status_code == 405
    assert player_client.post(reverse("sound_set", args=["bob"]), {"sound": "off"}).status_code == 403
    assert client.post(url, {"sound": "off"}).status_code == 302  # to the login page
    assert Player.objects.get(pk=player.pk).sound and Player.objects.get(pk=other_player.pk).sound


def test_the_game_page_has_the_toggle_notify_me_and_your_turn(player, other_player, player_client, other_client):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=other_player)
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert_no_inline_script(html, "game page")
    assert "data-sound-form" in html and 'data-sound-toggle aria-pressed="true"' in html
    assert 'id="notify-me" data-notify-me hidden' in html  # the script shows it where a browser can notify
    assert "data-your-turn" in html  # alice (X) to move
    assert "data-your-turn" not in other_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    move_play(game=game, player=player, move=4)
    answer = other_client.get(reverse("games:poll", args=[game.pk]), {"v": 0}, HTTP_HX_REQUEST="true")
    assert "data-your-turn" in answer.content.decode() and "<title>Your turn · Game" in answer.content.decode()


def test_the_profile_has_the_toggle_for_its_owner_only(player, other_player, player_client):
    assert "data-sound-form" in player_client.get(reverse("profile", args=["alice"])).content.decode()
    assert "data-sound-form" not in player_client.get(reverse("profile", args=["bob"])).content.decode()


def test_the_sounds_are_short_wav_files():
    import wave
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "static" / "sounds"
    for name in ("move", "end", "challenge"):
        with wave.open(str(folder / f"{name}.wav")) as sound:
            assert sound.getnchannels() == 1 and 0 < sound.getnframes() / sound.getframerate() < 1
