"""Taking a move back in a game without another person: the services' rules, the game page and the JSON API."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import move_play

HTMX = {"HTTP_HX_REQUEST": "true"}


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_take_back_on_the_game_page(make_game, player, player_client):
    game = make_game(opponent="easy", strategy="random")
    page = reverse("games:detail", args=[game.pk])
    url = reverse("games:takeback", args=[game.pk])
    assert 'id="takeback"' not in player_client.get(page).content.decode()  # nothing to take back yet

    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX)
    text = response.content.decode()
    assert 'id="takeback"' in text and url in text

    response = player_client.post(url, **HTMX)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'data-ply="0"' in text and 'data-move="4"' in text  # the cell is free again
    assert "1 takeback in this game." in text and 'id="takeback"' not in text
    assert fresh(game).ply == 0

    player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"})
    response = player_client.post(url)  # without JavaScript: back to the game page
    assert response.status_code == 302 and response["Location"] == page
    assert "2 takebacks in this game." in player_client.get(page).content.decode()


def test_no_take_back_while_the_computer_thinks(make_game, player, player_client):
    game = make_game(opponent="hard", strategy="mcts")
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX)
    text = response.content.decode()
    assert 'id="thinking"' in text and 'id="takeback"' not in text
    # the buttons stay where they were, disabled, so that nothing jumps while the computer thinks
    assert '<button type="button" disabled title="After the computer\'s move">Take back</button>' in text
    assert '<button type="button" disabled title="After the computer\'s move">Hint</button>' in text
    assert text.index('id="thinking"') > text.index('id="board"')  # under the board, in its note line


def test_against_another_player_the_page_refuses(duel, player, player_client, other_client):
    move_play(game=duel, player=player, move=4)
    assert 'id="takeback"' not in player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    response = player_client.post(reverse("games:takeback", args=[duel.pk]), **HTMX)
    assert response.status_code == 409
    assert "cannot be taken back in a game against another player" in response.content.decode()
    assert fresh(duel).ply == 1


def test_a_spectator_cannot_take_back(make_game, make_player, player):
    game = make_game(opponent="easy", strategy="random")
    move_play(game=game, player=player, move=4, quick_reply=True)
    carol = Client()
    carol.force_login(make_player("carol"))
    assert 'id="takeback"' not in carol.get(reverse("games:detail", args=[game.pk])).content.decode()
    response = carol.post(reverse("games:takeback", args=[game.pk]), **HTMX)
    assert response.status_code == 403
    assert fresh(game).ply == 2
    assert carol.get(reverse("games:takeback", args=[game.pk])).status_code == 405
