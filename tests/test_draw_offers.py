"""Draw offers between two players: the services' rules, the game page's controls and the JSON API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import DrawRefused, GameFinished, NotSeated
from games.models import Game
from games.services import draw_accept, draw_decline, draw_offer, game_resign, move_play

HTMX = {"HTTP_HX_REQUEST": "true"}


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# Services --------------------------------------------------------------------------------------------


def test_offer_then_accept_ends_the_game_drawn(duel, player, other_player):
    move_play(game=duel, player=player, move=4)
    before = fresh(duel).version
    offered = draw_offer(game=duel, player=player)
    assert offered.draw_offered_by_id == player.pk and offered.draw_offer_ply == 1
    assert offered.version == before + 1  # the opponent's poll picks the offer up
    draw_offer(game=duel, player=player)  # offering again changes nothing
    assert fresh(duel).version == before + 1

    game = draw_accept(game=duel, player=other_player)
    assert game.status == Game.Status.FINISHED
    assert (game.result, game.result_reason) == (Game.Result.DRAW, Game.Reason.AGREED)
    assert game.result_text() == "Draw (agreed)" and game.draw_offered_by_id is None
    assert fresh(duel).finished is not None
    with pytest.raises(GameFinished):
        move_play(game=duel, player=other_player, move=0)


def test_two_offers_agree(duel, player, other_player):
    draw_offer(game=duel, player=player)
    game = draw_offer(game=duel, player=other_player)
    assert game.is_finished and game.result_reason == Game.Reason.AGREED


def test_decline_and_withdraw_keep_the_game_going(duel, player, other_player):
    draw_offer(game=duel, player=player)
    game = draw_decline(game=duel, player=other_player)
    assert game.status == Game.Status.ACTIVE and game.draw_offered_by_id is None
    # Declined: no new offer, by either player, before the next move.
    for who in (player, other_player):
        with pytest.raises(DrawRefused, match="after the next move"):
            draw_offer(game=duel, player=who)
    move_play(game=duel, player=player, move=0)
    draw_offer(game=duel, player=other_player)
    game = draw_decline(game=duel, player=other_player)  # the one who offered withdraws it
    assert game.draw_offered_by_id is None and game.status == Game.Status.ACTIVE
    # A withdrawn offer declined nothing: the other player may offer at once (and the offer may be taken).
    assert draw_offer(game=duel, player=player).draw_offered_by_id == player.pk
    assert draw_offer(game=duel, player=other_player).result == Game.Result.DRAW


def test_a_withdrawn_offer_is_not_called_declined(duel, player_client, other_client):
    other_client.post(reverse("games:draw", args=[duel.pk]))
    assert other_client.post(reverse("games:draw_decline", args=[duel.pk])).status_code == 302
    for client in (player_client, other_client):
        text = client.get(reverse("games:detail", args=[duel.pk])).content.decode()
        assert "Draw declined" not in text and 'id="draw-offer-button"' in text


def test_a_move_by_the_other_player_declines_the_offer(duel, player, other_player):
    draw_offer(game=duel, player=player)  # alice offers on her own turn, then moves: it stands
    move_play(game=duel, player=player, move=4)
    assert fresh(duel).draw_offered_by_id == player.pk
    move_play(game=duel, player=other_player, move=0)  # bob plays on instead of answering
    game = fresh(duel)
    assert game.draw_offered_by_id is None and game.status == Game.Status.ACTIVE
    draw_offer(game=duel, player=other_player)  # a move was made: offers are open again


def test_the_end_of_the_game_clears_an_offer(duel, player, other_player):
    draw_offer(game=duel, player=player)
    game = game_resign(game=duel, player=other_player)
    assert game.draw_offered_by_id is None and game.result == "X"


@pytest.mark.parametrize(
    ("who", "error"),
    [("stranger", NotSeated), ("local", DrawRefused), ("computer", DrawRefused)],
)
def test_refusals(make_player, make_game, duel, who, error, player):
    if who == "stranger":
        game, by = duel, make_player("carol")
    elif who == "local":
        game, by = make_game(opponent="local"), player
    else:
        game, by = make_game(opponent="easy"), player
    with pytest.raises(error):
        draw_offer(game=game, player=by)
    assert fresh(game).draw_offered_by_id is None and fresh(game).status == Game.Status.ACTIVE


def test_nothing_to_accept_or_your_own_offer(duel, player, other_player):
    with pytest.raises(DrawRefused, match="no draw"):
        draw_accept(game=duel, player=other_player)
    with pytest.raises(DrawRefused, match="no draw"):
        draw_decline(game=duel, player=other_player)
    draw_offer(game=duel, player=player)
    with pytest.raises(DrawRefused, match="your opponent has to accept"):
        draw_accept(game=duel, player=player)
    assert fresh(duel).status == Game.Status.ACTIVE


# Pages -----------------------------------------------------------------------------------------------


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


# API -------------------------------------------------------------------------------------------------


def test_api_draw_offer_and_accept(duel, player_client, other_client):
    response = player_client.post(f"/api/games/{duel.pk}/draw")
    assert response.status_code == 200, response.content
    assert response.json()["draw_offered_by"] == "alice"
    assert other_client.get(f"/api/games/{duel.pk}").json()["draw_offered_by"] == "alice"

    response = player_client.post(f"/api/games/{duel.pk}/draw/accept")
    assert response.status_code == 409 and response.json()["code"] == "draw_refused"

    data = other_client.post(f"/api/games/{duel.pk}/draw/accept").json()
    assert data["status"] == "finished" and data["result"] == "draw" and data["result_reason"] == "agreed"
    assert data["result_text"] == "Draw (agreed)" and data["draw_offered_by"] is None


def test_api_draw_decline(duel, player_client, other_client):
    player_client.post(f"/api/games/{duel.pk}/draw")
    data = other_client.post(f"/api/games/{duel.pk}/draw/decline").json()
    assert data["status"] == "active" and data["draw_offered_by"] is None
    response = other_client.post(f"/api/games/{duel.pk}/draw")
    assert response.status_code == 409 and response.json()["code"] == "draw_refused"
    response = other_client.get(f"/api/games/{duel.pk}/draw")
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
