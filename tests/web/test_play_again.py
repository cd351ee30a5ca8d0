"""Play again: a new game with a finished game's settings, for the player who started it (page and API)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services import computer_move, game_again, game_resign, move_play

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_play_again_on_the_game_page(player, player_client, make_game):
    game = make_game(opponent="easy", strategy="random", side="O")
    computer_move(game=game)
    page = reverse("games:detail", args=[game.pk])
    url = reverse("games:again", args=[game.pk])
    assert 'id="play-again"' not in player_client.get(page).content.decode()  # not before the end

    game_resign(game=game, player=player)
    text = player_client.get(page).content.decode()
    assert 'id="play-again"' in text and url in text and "Other settings" in text

    response = player_client.post(url, **HTMX)
    new = Game.objects.exclude(pk=game.pk).get()
    assert (new.o_player_id, new.x_strategy, new.variant) == (player.pk, "random", "classic")
    # In place, one round trip: the new game's #play, the address bar moved to it, the title with it.
    text = response.content.decode()
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert response["HX-Push-Url"] == reverse("games:detail", args=[new.pk])
    assert text.lstrip().startswith('<div id="play"') and f'data-game="{new.pk}"' in text and 'data-ply="1"' in text
    assert f"<title>Game {new.pk} · Classic 3 x 3 · Tic-tac-toe</title>" in text
    assert 'id="players"' in text and "hx-swap-oob" not in text.split('id="announce"')[0]  # its seats, in #play
    # Its own version, and which game it is of: the page compares versions within one game only.
    assert (response["X-Game"], response["X-Game-Version"]) == (str(new.pk), str(new.version))
    assert new.version < Game.objects.get(pk=game.pk).version

    response = player_client.post(url)  # without JavaScript
    newest = Game.objects.order_by("-pk").first()
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[newest.pk])


def test_no_play_again_for_others(player, other_player, other_client, duel, make_game):
    game = make_game(opponent="easy", strategy="random")
    move_play(game=game, player=player, move=4, quick_reply=True)
    game_resign(game=game, player=player)
    page = reverse("games:detail", args=[game.pk])
    assert 'id="play-again"' not in other_client.get(page).content.decode()  # a spectator
    response = other_client.post(reverse("games:again", args=[game.pk]), **HTMX)
    assert response.status_code == 403 and "only the player who started" in response.content.decode().lower()

    move_play(game=duel, player=player, move=4)
    move_play(game=duel, player=other_player, move=0)
    game_resign(game=duel, player=other_player)
    text = other_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert 'id="play-again"' not in text and "rematch" in text.lower()
    before = Game.objects.count()
    assert other_client.post(reverse("games:again", args=[duel.pk]), **HTMX).status_code == 403
    assert Game.objects.count() == before


@pytest.mark.parametrize(
    ("strategy", "opponent", "opens"),
    [("random", "easy", True), (None, "medium", True), ("mcts", "hard", False)],
)
def test_a_quick_computer_that_moves_first_has_moved_when_the_page_opens(player_client, strategy, opponent, opens):
    data = {"variant": "classic", "opponent": opponent, "side": "O"}
    if strategy:
        data["strategy"] = strategy
    response = player_client.post(reverse("games:new"), data)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[game.pk])
    # A quick computer's first move is there at once; a slow one (mcts) is asked for by the page.
    assert game.ply == (1 if opens else 0)
    html = player_client.get(response["Location"]).content.decode()
    assert ('id="thinking"' in html) is not opens
    if opens:
        assert html.count("data-move=") == 8
        again = game_again(game=game, player=game.o_player)
        assert again.ply == 1  # Play again too


def test_a_watched_game_is_left_to_its_page(player_client):
    data = {"variant": "classic", "opponent": "watch", "strategy": "random", "side": "X"}
    player_client.post(reverse("games:new"), data)
    assert Game.objects.get().ply == 0
