"""Play on from a position of a finished game, against the computer (services, the replay's form, the API)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.errors import GameNotOver, InvalidGameSettings
from games.models import Game, Move
from games.positions import fresh_position
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


def test_the_new_game_starts_from_the_position_with_the_player_to_move(make_game, player, other_player):
    old = finished(make_game, player)
    new = game_from_position(game=old, ply=3, player=other_player, level="hard")
    assert (new.opponent, new.status, new.ply, new.move_list, new.created_by_id) == (
        "hard", Game.Status.ACTIVE, 3, "4,1,0", other_player.pk)
    assert new.o_player_id == other_player.pk and new.x_level == "hard"  # O is to move after three moves
    assert list(Move.objects.filter(game=new).order_by("ply").values_list("ply", "move", "side")) == [
        (1, 4, "X"), (2, 1, "O"), (3, 0, "X")]
    position = fresh_position(new)
    assert position.state.to_move == "O" and position.moves == [4, 1, 0]
    # It is a game like any other: the player moves and the computer (a quick one) answers at once.
    after = move_play(game=new, player=other_player, move=8, quick_reply=True)
    assert after.state.ply == 5
    assert Game.objects.get(pk=old.pk).move_list == ",".join(map(str, WON_BY_X))  # the old game is untouched


def test_from_the_start_and_as_x(make_game, player):
    old = finished(make_game, player)
    new = game_from_position(game=old, ply=2, player=player, level="easy")
    assert new.x_player_id == player.pk and new.o_level == "easy" and new.ply == 2
    start = game_from_position(game=old, ply=0, player=player, level="medium")
    assert start.ply == 0 and start.move_list == "" and start.x_player_id == player.pk


def test_multis_random_first_board_comes_along(make_game, player):
    game = make_game(variant="multi", options={"random_start": True}, seed=7)
    state = fresh_position(game).state
    move = state.legal_moves()[0]
    move_play(game=game, player=player, move=move)
    old = game_resign(game=Game.objects.get(pk=game.pk), player=player)
    new = game_from_position(game=old, ply=1, player=player, level="easy")
    assert new.start_board == old.start_board is not None
    assert fresh_position(new).moves == [move]


@pytest.mark.parametrize(("case", "words"), [
    ("running", "once it is over"),
    ("no ply", "ply must be a whole number"),
    ("past the end", "there is no position after move 8"),
    ("over there", "the game is over after move 7"),
    ("negative", "there is no position after move -1"),
    ("level", "unknown level 'brutal'"),
])
def test_refused_in_words_and_nothing_is_created(case, words, make_game, player):
    game = finished(make_game, player) if case != "running" else make_game()
    ply, level = {"past the end": 8, "over there": 7, "negative": -1, "no ply": None}.get(case, 1), "hard"
    if case == "level":
        level = "brutal"
    before = Game.objects.count()
    with pytest.raises(GameNotOver if case == "running" else InvalidGameSettings, match=words):
        game_from_position(game=game, ply=ply, player=player, level=level)
    assert Game.objects.count() == before


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


def test_api_play_on(make_game, player, player_client):
    old = finished(make_game, player)
    response = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 3}, content_type="application/json")
    assert response.status_code == 201
    data = response.json()
    assert data["ply"] == 3 and [m["move"] for m in data["moves"]] == [4, 1, 0] and data["your_turn"] is True
    assert data["opponent"] == "hard" and data["your_sides"] == ["O"]
    refused = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 7}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_settings"
    bad = player_client.post(f"/api/games/{old.pk}/play-on", {"ply": 1, "level": "x"},
                             content_type="application/json")
    assert bad.status_code == 400


def test_the_new_game_says_where_it_came_from(make_game, player, player_client):
    old = finished(make_game, player)
    new = game_from_position(game=old, ply=3, player=player, level="hard")
    assert (new.played_on_from_id, new.played_on_ply) == (old.pk, 3)
    page = player_client.get(reverse("games:detail", args=[new.pk])).content.decode()
    replay = reverse("games:replay", args=[old.pk])
    assert f'Played on from <a href="{replay}?ply=3">game #{old.pk}</a>, after its move 3.' in page
    assert player_client.get(f"/api/games/{new.pk}").json()["played_on_from"] == {"game": old.pk, "ply": 3}
    assert player_client.get(f"/api/games/{old.pk}").json()["played_on_from"] is None


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
