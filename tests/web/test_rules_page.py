"""The "How to play" page: open to everyone, a section per variant, linked from the game page and the form."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse

from games.engine import VARIANTS


def test_everyone_may_read_it(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    html = response.content.decode()
    for key in VARIANTS:
        assert f'<h2 id="{key}">' in html and f'href="#{key}"' in html
    assert "X always moves first" in html
    assert "starts at 1500" in html and "72 hours" in html
    assert '<h2 id="after">After the game</h2>' in html and "<strong>analysis</strong>" in html
    assert "<strong>play on</strong>" in html
    assert f'href="{reverse("rules")}">How to play</a>' in html  # the footer of every page
    assert client.post(reverse("rules")).status_code == 405


def test_it_says_the_sites_own_settings(client, settings):
    settings.GAME_ABANDON_AFTER = timedelta(hours=48)
    assert "48 hours" in client.get(reverse("rules")).content.decode()


def test_game_page_and_form_link_to_it(player_client, make_game):
    game = make_game(variant="ultimate")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'href="{reverse("rules")}#ultimate"' in html
    html = player_client.get(reverse("games:new")).content.decode()
    assert f'href="{reverse("rules")}"' in html and "How each variant is played" in html
