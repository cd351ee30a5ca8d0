"""Play on from a position of a finished game, against the computer (services, the replay's form, the API)."""

from __future__ import annotations

import pytest

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
    ("rung", "unknown level 9: choose one of easy, medium, hard, or 1 to 8"),
])
def test_refused_in_words_and_nothing_is_created(case, words, make_game, player):
    game = finished(make_game, player) if case != "running" else make_game()
    ply, level = {"past the end": 8, "over there": 7, "negative": -1, "no ply": None}.get(case, 1), "hard"
    if case in ("level", "rung"):
        level = "brutal" if case == "level" else 9
    before = Game.objects.count()
    with pytest.raises(GameNotOver if case == "running" else InvalidGameSettings, match=words):
        game_from_position(game=game, ply=ply, player=player, level=level)
    assert Game.objects.count() == before


@pytest.mark.parametrize("level", [3, "7"])
def test_a_rung_of_the_ladder_plays_on(level, make_game, player):
    new = game_from_position(game=finished(make_game, player), ply=3, player=player, level=level)
    assert new.sides_of(player) == ["O"] and new.x_level == str(level)  # the computer at that rung


def test_the_moves_brought_along_keep_their_sides_when_o_moved_first(player):
    from games.services import game_from_position_string

    game = game_from_position_string(player=player, position="classic_3.1x1.3_o", level="hard")  # O to move
    game = move_play(game=game, player=player, move=0, reply=True).game  # O a3, X answers
    game = game_resign(game=Game.objects.get(pk=game.pk), player=player)
    new = game_from_position(game=game, ply=2, player=player, level="easy")
    assert list(new.moves.order_by("ply").values_list("side", flat=True)) == ["O", "X"]
