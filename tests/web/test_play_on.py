"""Play on from a position of a finished game, against the computer (services, the replay's form, the API)."""

from __future__ import annotations

import pytest
from django.test import Client
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


def test_the_replay_offers_it_and_the_form_starts_the_game(make_game, player, player_client):
    old = finished(make_game, player)
    url = reverse("games:replay", args=[old.pk])
    page = player_client.get(url, {"ply": 2}).content.decode()
    assert 'id="play-on"' in page and "Play on from here as X" in page and 'name="ply" value="2"' in page
    assert 'id="play-on"' not in player_client.get(url).content.decode()  # the final position: nothing to play
    response = player_client.post(reverse("games:play_on", args=[old.pk]), {"ply": "2", "level": "hard"})
    new = Game.objects.latest("pk")
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[new.pk])
    page = player_client.get(response["Location"]).content.decode()
    assert 'data-ply="2"' in page and "data-move=" in page  # the player's turn, cells to play
    # With htmx, the browser is sent there.
    response = player_client.post(reverse("games:play_on", args=[old.pk]), {"ply": "4", "level": "easy"},
                                  HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"].startswith("/games/")


def test_a_running_game_offers_nothing(make_game, player, player_client):
    game = make_game()
    move_play(game=game, player=player, move=4)
    page = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 0}).content.decode()
    assert 'id="play-on"' not in page


@pytest.mark.parametrize("data", [{"ply": "abc", "level": "hard"}, {"level": "hard"}, {"ply": "1", "level": ""},
                                  {"ply": "99", "level": "hard"}, {"ply": "7", "level": "hard"},
                                  # '²' passes str.isdigit(), which int() does not; a long one passes int()'s limit
                                  {"ply": "²", "level": "hard"}, {"ply": "9" * 5000, "level": "hard"},
                                  {"ply": "99999999999", "level": "hard"}, {"ply": "1", "level": "h" * 5000}])
def test_bad_form_answers_400_on_the_replay_and_creates_nothing(data, make_game, player, player_client):
    old = finished(make_game, player)
    before = Game.objects.count()
    response = player_client.post(reverse("games:play_on", args=[old.pk]), data)
    assert response.status_code == 400
    text = response.content.decode()
    assert 'id="play-on-error"' in text and 'id="replay"' in text
    assert Game.objects.count() == before


def test_strangers_and_get_are_refused(make_game, make_player, player, player_client):
    private = finished(make_game, player, private=True)
    stranger = Client()
    stranger.force_login(make_player("mallory"))
    before = Game.objects.count()
    assert stranger.post(reverse("games:play_on", args=[private.pk]), {"ply": "1", "level": "hard"}).status_code == 404
    assert player_client.get(reverse("games:play_on", args=[private.pk])).status_code == 405
    assert Game.objects.count() == before
    # A public finished game: a spectator may play on from it, as their own game.
    public = finished(make_game, player)
    response = stranger.post(reverse("games:play_on", args=[public.pk]), {"ply": "1", "level": "hard"})
    assert response.status_code == 302 and Game.objects.latest("pk").created_by.username == "mallory"


def test_the_moves_it_started_with_are_not_taken_back(make_game, player, player_client):
    from games.errors import TakebackRefused
    from games.services import move_takeback

    old = finished(make_game, player)
    new = game_from_position(game=old, ply=2, player=player, level="easy")  # X to move after X 4, O 1
    page = player_client.get(reverse("games:detail", args=[new.pk])).content.decode()
    assert 'id="takeback"' not in page  # nothing of this game's own to take back yet
    with pytest.raises(TakebackRefused, match="not made a move in this game yet"):
        move_takeback(game=new, player=player)
    move_play(game=new, player=player, move=0, quick_reply=True)  # the player's move and the computer's reply
    assert 'id="takeback"' in player_client.get(reverse("games:detail", args=[new.pk])).content.decode()
    back = move_takeback(game=new, player=player)
    assert (back.ply, back.move_list) == (2, "4,1")  # back to where the game started, not further
    with pytest.raises(TakebackRefused):
        move_takeback(game=back, player=player)


def test_a_mistake_offers_to_try_the_better_move(make_game, player, player_client):
    old = finished(make_game, player)  # X 4, O 1: an edge against the centre loses, so move 2 is a mistake
    replay = reverse("games:replay", args=[old.pk])
    page = player_client.get(replay, {"ply": 2}).content.decode()
    assert "a mistake" in page and 'id="try-better"' in page
    assert "Try the better move as O, from before move 2:" in page
    form = page[page.index('id="try-better"'):]
    assert 'name="ply" value="1"' in form[: form.index("</form>")]
    assert 'id="try-better"' not in player_client.get(replay, {"ply": 1}).content.decode()  # a good move
    response = player_client.post(reverse("games:play_on", args=[old.pk]), {"ply": "1", "level": "hard"})
    new = Game.objects.exclude(pk=old.pk).latest("pk")
    assert response["Location"] == reverse("games:detail", args=[new.pk])
    assert new.o_player == player and new.ply == 1  # O to move, where the mistake was made


def test_a_whole_number_is_judged_as_one(make_game, player, player_client):
    old = finished(make_game, player)
    url = reverse("games:play_on", args=[old.pk])
    text = player_client.post(url, {"ply": "99999999999", "level": "hard"}).content.decode()
    assert "there is no position after move 99999999999" in text.lower()
    text = player_client.post(url, {"ply": "1", "level": "h" * 5000}).content.decode()
    assert "unknown level" in text.lower() and "h" * 100 not in text
    response = player_client.post(url, {"ply": " 3", "level": "easy"})  # spaces around a number are no error
    assert response.status_code == 302


def test_the_form_offers_the_ladder_too(make_game, player, player_client):
    old = finished(make_game, player)
    page = player_client.get(reverse("games:replay", args=[old.pk]), {"ply": 2}).content.decode()
    form = page[page.index('id="play-on"'):]
    form = form[: form.index("</form>")]
    assert '<option value="hard">hard</option>' in form and '<option value="5">level 5</option>' in form
    response = player_client.post(reverse("games:play_on", args=[old.pk]), {"ply": "2", "level": "5"})
    new = Game.objects.latest("pk")
    assert response.status_code == 302 and new.played_on_from_id == old.pk and new.o_level == "5"
