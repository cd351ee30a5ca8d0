"""``manage.py play``: scripted terminal games, junk input, and games recorded through the services."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from games.engine import get_variant
from games.models import Game, Move
from games.selectors import game_history

pytestmark = pytest.mark.django_db


def play(script: str, **options) -> str:
    out = io.StringIO()
    call_command("play", stdin=io.StringIO(script), stdout=out, **options)
    return out.getvalue()


def stored_moves(game: Game) -> list[tuple[int, str, int]]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "side", "move"))


def test_unrecorded_game_with_junk_input_stores_nothing():
    # X: junk, out of range, a word, then a3; after ring's reply more junk and the rest, by cell name.
    script = "abc\n10\nhelp\n\na3\n-3\n1 2\n" + "\n".join(["b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]) + "\n"
    out = play(script, variant="classic", x="human", o="ring")
    assert "Sorry, 'abc' is not a cell of this 3 x 3 board: columns a-c, rows 1-3" in out
    assert "there is no cell 10" in out
    assert "'-3' is not a cell" in out and "'1 2' is not a cell" in out  # the old 'row col' form is gone
    assert "Please type a move" in out and "'quit' ends the game" in out
    assert "type a cell name such as 'b2'" in out
    assert "already taken" in out  # the script tries cells ring has taken
    assert "Result: " in out and "| Play No. |" in out
    assert not Game.objects.exists()


def test_recorded_game_against_a_strategy(player):
    script = "junk\n0\n" + "\n".join("123456789") + "\n"
    out = play(script, variant="classic", x="human", o="ring", record="alice")
    game = Game.objects.get()
    assert game.created_by == player and game.x_player == player and game.o_player is None
    assert game.o_strategy == "ring" and game.opponent == "medium" and game.status == "finished"
    assert f"Recorded as game #{game.pk} for alice" in out
    assert "'junk' is not a cell" in out and "there is no cell 0" in out
    assert re.search(r"O \(ring\) plays [a-c][1-3] \([1-9]\)", out)  # the name, the keypad number as help
    assert re.search(r"\|\s+1\s+\|\s+X\s+\|\s+a3\s+\|", out)  # the move table in cell names
    moves = stored_moves(game)
    assert moves[0] == (1, "X", 0) and [side for _, side, _ in moves] == ["X", "O"] * (len(moves) // 2) + (
        ["X"] if len(moves) % 2 else []
    )
    # The stored moves replay to the stored result, and the game is in alice's history.
    state = get_variant("classic").new_game()
    for _, _, move in moves:
        state = state.play(move)
    assert state.is_over and (state.winner or "draw") == game.result and game.ply == len(moves)
    assert list(game_history(player)) == [game]


def test_recorded_local_game_two_humans(player):
    out = play("a3\na2\nfoo bar\nB3\n 5 \nc3\n", variant="classic", x="human", o="human", record="alice")
    game = Game.objects.get()
    assert game.opponent == "local" and game.x_player == player and game.o_player == player
    assert stored_moves(game) == [(1, "X", 0), (2, "O", 3), (3, "X", 1), (4, "O", 4), (5, "X", 2)]
    assert game.result == "X" and game.result_reason == "line"
    assert "Result: X wins" in out and "'foo bar' is not a cell" in out


def test_recorded_against_a_level_with_o_for_the_person(player):
    out = play("\n".join("123456789") + "\n", variant="classic", x="easy", o="human", record="alice")
    game = Game.objects.get()
    assert game.x_level == "easy" and game.o_player == player and game.opponent == "easy"
    assert stored_moves(game)[0][1] == "X" and game.is_finished
    assert "X (easy" in out


def test_recorded_watch_game_computer_against_computer(player):
    out = play("", variant="four", x="random", o="random", record="alice")
    game = Game.objects.get()
    assert game.opponent == "watch" and game.x_strategy == game.o_strategy == "random"
    assert game.x_player is None and game.o_player is None and game.created_by == player
    assert game.is_finished and game.ply == len(stored_moves(game)) >= 7
    assert list(game_history(player)) == [game]
    assert "Result:" in out


def test_recorded_nested_game_abandoned_stays_unfinished(player):
    # ultimate, both seats alice: X d6 (board 4, cell 0; the old "40" is refused), O on the wrong board then
    # c9 on board 0, X junk, then quit.
    out = io.StringIO()
    with pytest.raises(CommandError, match="stays unfinished") as info:
        call_command(
            "play", stdin=io.StringIO("40\nd6\n9 9\ne5\nc9\nnope\nquit\n"), stdout=out,
            variant="ultimate", x="human", o="human", record="alice",
        )
    assert info.value.returncode == 1
    text = out.getvalue()
    assert "'40' is not a cell of this 9 x 9 board: columns a-i, rows 1-9" in text
    assert "you must play on board 0 (a7-c9), where you were sent; e5 is not on it" in text
    assert "available on board 0 (a7-c9): a9 b9 c9 a8 b8 c8 a7 b7 c7" in text
    game = Game.objects.get()
    assert stored_moves(game) == [(1, "X", 36), (2, "O", 2)] and game.status == "active"


def test_interactive_set_up_with_junk_answers(player):
    script = "hexagon\nnxn\n99\n3\nrobot\nhuman\nring\nhuman\n" + "a3\na2\nb3\nb2\nc3\n"
    out = play(script, record="alice")
    assert "There is no variant 'hexagon'" in out
    assert "between 3 and 10" in out
    assert "unknown player 'robot'" in out
    assert "does not play" in out  # ring on nxn: asked again
    game = Game.objects.get()
    assert game.variant == "nxn" and game.options == {"size": 3} and game.opponent == "local"
    assert game.result == "X" and [m for _, _, m in stored_moves(game)] == [0, 3, 1, 4, 2]


def test_abandoned_before_the_start_stores_nothing(player):
    with pytest.raises(CommandError, match="Nothing was stored") as info:
        play("classic\n", record="alice")  # end of input while asking who plays X
    assert info.value.returncode == 1
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "classic", "x": "human", "o": "ring", "record": "nobody"}, "no active player named 'nobody'"),
        # bytes the terminal could not decode (Python keeps them as lone surrogates): no database can look them up
        ({"variant": "classic", "x": "human", "o": "ring", "record": "\udcff"}, "not a username"),
        ({"variant": "hexagon", "x": "human", "o": "ring", "record": "alice"}, "no variant 'hexagon'"),
        ({"variant": "nxn", "option": ["size=44"], "x": "human", "o": "random", "record": "alice"}, "between 3 and 10"),
        ({"variant": "classic", "option": ["size=4"], "record": "alice"}, "unknown option"),
        ({"variant": "classic", "option": ["size"], "record": "alice"}, "name=value"),
        ({"option": ["size=4"], "record": "alice"}, "--option needs --variant"),
        ({"variant": "four", "x": "human", "o": "ring", "record": "alice"}, "--o: strategy 'ring' does not play"),
        ({"variant": "classic", "x": "wizard", "o": "ring", "record": "alice"}, "--x: unknown player 'wizard'"),
        ({"variant": "classic", "x": "human", "o": "alphabeta:depth=5", "record": "alice"}, "default settings"),
        ({"variant": "classic", "x": "random", "o": "ring", "record": "alice"}, "same computer on both seats"),
        ({"variant": "classic", "x": "hard", "o": "hard", "record": "alice"}, "same computer on both seats"),
    ],
)
def test_bad_command_lines_are_clear_errors_and_store_nothing(player, options, message):
    with pytest.raises(CommandError, match=message):
        play("1\n2\n3\n", **options)
    assert not Game.objects.exists()


def test_inactive_player_cannot_record(player):
    player.is_active = False
    player.save()
    with pytest.raises(CommandError, match="no active player"):
        play("", variant="classic", x="random", o="random", record="alice")
    assert not Game.objects.exists()


def test_recorded_undo_takes_back_through_the_services(player):
    script = "undo\n5\nundo\n" + "\n".join("123456789") + "\n"
    out = play(script, variant="classic", x="human", o="ring", record="alice")
    game = Game.objects.get()
    assert "There is no move of yours to take back yet." in out and "Taken back: back to the start." in out
    assert game.takebacks == 1 and game.status == "finished"
    moves = stored_moves(game)
    assert moves[0] == (1, "X", 0)  # the 5 was taken back; the game started again with 1
    assert game.ply == len(moves) and game.move_list == ",".join(str(move) for _, _, move in moves)
