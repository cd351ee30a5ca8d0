"""Draw offers between two players: the services' rules, the game page's controls and the JSON API."""

from __future__ import annotations

from django.urls import reverse

from games.models import Game

HTMX = {"HTTP_HX_REQUEST": "true"}


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_a_withdrawn_offer_is_not_called_declined(duel, player_client, other_client):
    other_client.post(reverse("games:draw", args=[duel.pk]))
    assert other_client.post(reverse("games:draw_decline", args=[duel.pk])).status_code == 302
    for client in (player_client, other_client):
        text = client.get(reverse("games:detail", args=[duel.pk])).content.decode()
        assert "Draw declined" not in text and 'id="draw-offer-button"' in text


def test_draw_controls_on_the_game_page(duel, player, other_player, player_client, other_client, client):
    page = reverse("games:detail", args=[duel.pk])
    text = player_client.get(page).content.decode()
    assert 'id="draw-offer-button"' in text and reverse("games:draw", args=[duel.pk]) in text

    response = player_client.post(reverse("games:draw", args=[duel.pk]), **HTMX)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'id="draw-waiting"' in text and 'id="draw-offer-button"' not in text

    # Bob's page (his poll) shows the offer with its two buttons.
    text = other_client.get(reverse("games:poll", args=[duel.pk]), {"v": "0"}, **HTMX).content.decode()
    assert 'id="draw-offer"' in text and 'id="draw-accept"' in text and 'id="draw-decline"' in text

    response = other_client.post(reverse("games:draw_accept", args=[duel.pk]), **HTMX)
    text = response.content.decode()
    assert "Draw (agreed)" in text and 'id="draw-accept"' not in text
    assert fresh(duel).result_reason == Game.Reason.AGREED


def test_declined_offer_says_when_it_can_be_made_again(duel, player_client, other_client):
    player_client.post(reverse("games:draw", args=[duel.pk]))
    response = other_client.post(reverse("games:draw_decline", args=[duel.pk]))
    assert response.status_code == 302
    text = player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert "Draw declined" in text and 'id="draw-offer-button"' not in text
    response = player_client.post(reverse("games:draw", args=[duel.pk]), **HTMX)
    assert response.status_code == 409
    assert "after the next move" in response.content.decode()


def test_spectators_and_strangers_get_no_draw_controls(duel, make_player):
    from django.test import Client

    carol = Client()
    carol.force_login(make_player("carol"))
    text = carol.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert "draw-offer-button" not in text
    response = carol.post(reverse("games:draw", args=[duel.pk]), **HTMX)
    assert response.status_code == 403
    assert fresh(duel).draw_offered_by_id is None


def test_no_draw_button_against_the_computer(player_client, make_game):
    game = make_game(opponent="easy")
    assert "draw-offer-button" not in player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
