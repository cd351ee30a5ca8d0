"""Hints: the hard level's move, shown on the board, in games without another person (services, page, API)."""

from __future__ import annotations

import pytest

from games import positions, services
from games.engine import difficulty, get_variant
from games.errors import GameFinished, HintRefused, MoveConflict, NotSeated, NotYourTurn
from games.models import Game
from games.services import game_resign, move_hint, move_play


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_a_hint_is_the_hard_levels_move_and_is_counted(make_game, player):
    game = make_game(opponent="easy", strategy="random")
    move_play(game=game, player=player, move=0, quick_reply=True)
    before = fresh(game)
    hinted, move = move_hint(game=game, player=player)
    state = positions.fresh_position(fresh(game)).state
    assert move in state.legal_moves()
    assert move == difficulty(get_variant("classic"), "hard").choose(state)  # perfect play on classic
    assert hinted.hints == 1 and hinted.version == before.version + 1
    assert (hinted.ply, hinted.move_list) == (before.ply, before.move_list)  # nothing is played


def test_a_hint_finds_the_winning_move(make_game, player):
    game = make_game(opponent="local")
    for cell in (0, 3, 1, 4):  # X to move with 0 and 1 taken: 2 wins at once
        move_play(game=game, player=player, move=cell)
    assert move_hint(game=game, player=player)[1] == 2


@pytest.mark.parametrize("case", ["two players", "stranger", "not my turn", "finished"])
def test_refused(case, make_game, make_player, duel, player, other_player, monkeypatch):
    game, by = make_game(opponent="hard", strategy="mcts"), player
    if case == "two players":
        game, error, words = duel, HintRefused, "not against another player"
    elif case == "stranger":
        by, error, words = make_player("carol"), NotSeated, "not playing"
    elif case == "not my turn":
        move_play(game=game, player=player, move=4)  # mcts is slow: its move is still to come
        error, words = NotYourTurn, "not your turn"
    else:
        game_resign(game=game, player=player)
        error, words = GameFinished, "over"
    before = fresh(game)
    with pytest.raises(error, match=words):
        move_hint(game=game, player=by)
    after = fresh(game)
    assert (after.hints, after.version) == (before.hints, before.version)


def test_a_game_that_moved_on_meanwhile_gets_no_stale_hint(make_game, player, monkeypatch):
    game = make_game(opponent="local")

    class Meanwhile:
        def choose(self, state):
            move_play(game=game, player=player, move=4)  # the other hand on the same screen was quicker
            return 0

    monkeypatch.setattr(services.assists, "difficulty", lambda *args, **kwargs: Meanwhile())
    monkeypatch.setattr(services.assists, "answers_at_once", lambda *args: True)  # worked out in the request
    with pytest.raises(MoveConflict, match="ask again"):
        move_hint(game=game, player=player)
    assert fresh(game).hints == 0


def test_the_same_position_gets_the_same_hint_once_counted(make_game, player, monkeypatch):
    game = make_game(opponent="local", variant="nxn", options={"size": 5})
    answers = iter([7, 11, 13, 17])

    class Fickle:  # a slow strategy need not agree with itself
        def choose(self, state):
            return next(answers)

    monkeypatch.setattr(services.assists, "difficulty", lambda *args, **kwargs: Fickle())
    monkeypatch.setattr(services.assists, "answers_at_once", lambda *args: True)  # worked out in the request
    assert move_hint(game=game, player=player)[1] == 7
    assert move_hint(game=game, player=player)[1] == 7
    assert fresh(game).hints == 1
    move_play(game=game, player=player, move=0)  # a move: the old hint is left behind
    assert fresh(game).current_hint is None
    assert move_hint(game=game, player=player)[1] == 11
    services.move_takeback(game=game, player=player)  # back to the first position: no hint kept
    assert fresh(game).current_hint is None
    assert move_hint(game=game, player=player)[1] == 13
    assert fresh(game).hints == 3


def test_two_requests_for_one_hint_get_the_same_move(make_game, player, monkeypatch):
    game = make_game(opponent="local", variant="nxn", options={"size": 5})
    calls = []

    class Slow:  # while the first request thinks, a second one (a double click) asks and answers first
        def choose(self, state):
            calls.append(state.ply)
            if len(calls) == 1:
                assert move_hint(game=game, player=player)[1] == 7
                return 9
            return 7

    monkeypatch.setattr(services.assists, "difficulty", lambda *args, **kwargs: Slow())
    monkeypatch.setattr(services.assists, "answers_at_once", lambda *args: True)  # worked out in the request
    assert move_hint(game=game, player=player)[1] == 7  # the hint already given, not "ask again"
    assert fresh(game).hints == 1 and fresh(game).current_hint == 7
