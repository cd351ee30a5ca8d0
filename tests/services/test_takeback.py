"""Taking a move back in a game without another person: the services' rules, the game page and the JSON API."""

from __future__ import annotations

import pytest

from games import services
from games.engine import takeback_keeps
from games.errors import GameFinished, MoveConflict, NotSeated, TakebackRefused
from games.models import Game, Move
from games.positions import state_after
from games.services import computer_move, game_resign, move_play, move_takeback


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def stored(game: Game) -> list[int]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("move", flat=True))


def assert_consistent(game: Game) -> None:
    """The row's caches agree with the Move rows, which replay through the engine."""
    game = fresh(game)
    moves = stored(game)
    assert game.ply == len(moves)
    assert game.move_list == ",".join(map(str, moves))
    assert list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True)) == list(
        range(1, len(moves) + 1)
    )
    state_after(game, moves)  # raises if a stored move is illegal


@pytest.mark.parametrize(
    ("moves", "sides", "keeps"),
    [
        ([], ["X"], None),
        ([4, 0], ["X"], 0),  # my move and the computer's reply
        ([4, 0, 8], ["X"], 2),  # my move, the computer still to answer
        ([4], ["O"], None),  # only the computer has moved
        ([4, 0, 8], ["O"], 1),  # the computer's answer to my move, and my move
        ([4, 0, 8], ["X", "O"], 2),  # one screen: the last move
        ([4], ["X", "O"], 0),
    ],
)
def test_takeback_keeps(moves, sides, keeps):
    assert takeback_keeps(moves, sides) == keeps


def test_against_the_computer_my_move_and_its_reply_go(make_game, player):
    game = make_game(opponent="easy", strategy="random")
    move_play(game=game, player=player, move=4, quick_reply=True)
    move_play(game=game, player=player, move=next(c for c in range(9) if c not in stored(game)), quick_reply=True)
    before, moves = fresh(game), stored(game)
    assert before.ply == 4

    taken = move_takeback(game=game, player=player)
    assert taken.ply == 2 and taken.to_move == "X" and taken.takebacks == 1
    assert taken.version == before.version + 1  # an open page sees the change
    assert stored(game) == moves[:2]
    assert_consistent(game)

    move_takeback(game=game, player=player)
    game = fresh(game)
    assert game.ply == 0 and game.move_list == "" and game.takebacks == 2 and stored(game) == []
    with pytest.raises(TakebackRefused, match="not made a move in this game yet"):
        move_takeback(game=game, player=player)

    move_play(game=game, player=player, move=8, quick_reply=True)  # the game goes on from there
    assert stored(game)[0] == 8 and fresh(game).ply == 2
    assert_consistent(game)


def test_playing_o_the_computers_first_move_stays(make_game, player):
    game = make_game(opponent="easy", strategy="random", side="O")
    computer_move(game=game)
    first = stored(game)[0]
    mine = next(cell for cell in range(9) if cell != first)
    move_play(game=game, player=player, move=mine, quick_reply=True)
    assert fresh(game).ply == 3

    game = move_takeback(game=game, player=player)
    assert game.ply == 1 and game.to_move == "O" and stored(game) == [first]
    assert_consistent(game)
    with pytest.raises(TakebackRefused):
        move_takeback(game=game, player=player)


def test_on_one_screen_the_last_move_goes(make_game, player):
    game = make_game(opponent="local")
    for cell in (4, 0, 8):
        move_play(game=game, player=player, move=cell)
    game = move_takeback(game=game, player=player)
    assert (game.ply, game.to_move, stored(game)) == (2, "X", [4, 0])
    game = move_takeback(game=game, player=player)
    assert (game.ply, game.to_move, stored(game)) == (1, "O", [4])
    assert game.takebacks == 2
    assert_consistent(game)


@pytest.mark.parametrize("case", ["two players", "stranger", "watch", "finished", "no move"])
def test_refused_and_nothing_changes(case, make_game, make_player, duel, player, other_player):
    if case == "two players":
        move_play(game=duel, player=player, move=4)
        game, by, error, words = duel, player, TakebackRefused, "against another player"
    elif case == "stranger":
        game = make_game(opponent="easy", strategy="random")
        move_play(game=game, player=player, move=4, quick_reply=True)
        by, error, words = make_player("carol"), NotSeated, "not playing"
    elif case == "watch":
        game = make_game(opponent="watch", strategy="random")
        computer_move(game=game)
        by, error, words = player, NotSeated, "not playing"
    elif case == "finished":
        game = make_game(opponent="local")
        move_play(game=game, player=player, move=4)
        game_resign(game=game, player=player)
        by, error, words = player, GameFinished, "over"
    else:
        game = make_game(opponent="easy", strategy="random", side="O")
        computer_move(game=game)
        by, error, words = player, TakebackRefused, "not made a move"
    before = fresh(game)
    moves = stored(game)
    with pytest.raises(error, match=words):
        move_takeback(game=game, player=by)
    after = fresh(game)
    assert stored(game) == moves
    assert (after.ply, after.version, after.takebacks, after.status) == (
        before.ply, before.version, before.takebacks, before.status
    )


def test_a_slow_computer_does_not_answer_a_position_taken_back(make_game, player, monkeypatch):
    """The computer thinks outside the lock; if meanwhile the move it answers is taken back and another one
    played (the same ply again), its answer is refused rather than stored after the wrong moves."""
    game = make_game(opponent="hard", strategy="mcts")
    move_play(game=game, player=player, move=4)  # mcts is slow: the page asks for its move separately
    assert fresh(game).ply == 1

    class Meanwhile:
        name = "slow"

        def choose(self, state):
            move_takeback(game=game, player=player)
            move_play(game=game, player=player, move=0)
            return 8  # legal after 4, and after 0 too: only the version tells the positions apart

    monkeypatch.setattr(services.moves, "seat_strategy", lambda *args, **kwargs: Meanwhile())
    with pytest.raises(MoveConflict):
        computer_move(game=game)
    assert stored(game) == [0]
    assert_consistent(game)
