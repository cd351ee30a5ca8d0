"""games.services: creating games, playing and refusing moves, computer replies, resigning."""

from __future__ import annotations

import pytest

from games.errors import (
    GameFinished,
    GameNotStarted,
    InvalidGameSettings,
    InvalidMove,
    MoveConflict,
    NotComputerTurn,
    NotSeated,
    NotYourTurn,
)
from games.models import Game, Move
from games.positions import game_position
from games.services import computer_move, game_create, game_resign, move_play

pytestmark = pytest.mark.django_db


def play_all(game, player, moves):
    position = None
    for move in moves:
        position = move_play(game=game, player=player, move=move)
    return position


# Creating ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_create_against_computer_level(player, level):
    game = game_create(player=player, variant="classic", options={}, opponent=level, side="X")
    assert game.x_player == player and game.o_player is None
    assert game.o_level == level and game.is_computer("O") and not game.is_computer("X")
    assert game.status == Game.Status.ACTIVE and game.ply == 0


def test_create_with_named_strategy_and_side_o(player):
    game = game_create(player=player, variant="four", options={}, opponent="hard", side="O", strategy="random")
    assert game.o_player == player
    assert game.x_strategy == "random" and game.x_level == ""
    assert game.seat_label("X") == "Computer (random)"


def test_create_local_seats_the_player_twice(player):
    game = game_create(player=player, variant="nxn", options={"size": 6}, opponent="local", side="X")
    assert game.x_player == game.o_player == player
    assert game.options == {"size": 6}
    assert game.sides_of(player) == ["X", "O"]


def test_create_watch_has_two_computers(player):
    game = game_create(player=player, variant="ultimate", options={}, opponent="watch", side="X", strategy="random")
    assert game.x_player is None and game.o_player is None
    assert game.is_computer("X") and game.is_computer("O")
    assert game.created_by == player


def test_create_human_leaves_the_other_seat_open(player):
    game = game_create(player=player, variant="classic", options={}, opponent="human", side="O")
    assert game.o_player == player and game.is_open_seat("X")
    assert game.status == Game.Status.OPEN
    with pytest.raises(GameNotStarted):
        move_play(game=game, player=player, move=0)


def test_create_random_side_is_seeded(player):
    sides = {
        game_create(player=player, variant="classic", opponent="human", side="random", seed=s).sides_of(player)[0]
        for s in range(12)
    }
    assert sides == {"X", "O"}


def test_multi_random_start_is_stored_and_rebuilt(player):
    game = game_create(
        player=player, variant="multi", options={"random_start": True}, opponent="local", side="X", seed=3
    )
    assert game.start_board is not None and 0 <= game.start_board <= 8
    state = game_position(game).state
    assert state.active_boards == [game.start_board]
    with pytest.raises(InvalidMove):
        move_play(game=game, player=player, move=9 * ((game.start_board + 1) % 9))
    move_play(game=game, player=player, move=9 * game.start_board + 4)
    assert game_position(game).state.active_boards == [4]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "nope"},
        {"variant": "nxn", "options": {"size": 99}},
        {"variant": "mnk", "options": {"rows": 3, "cols": 3, "k": 5}},
        {"variant": "classic", "options": {"size": 4}},
        {"variant": "classic", "opponent": "grandmaster"},
        {"variant": "classic", "side": "Z"},
        {"variant": "classic", "opponent": "easy", "strategy": "no-such-strategy"},
        {"variant": "classic", "opponent": "local", "strategy": "random"},
    ],
)
def test_create_refuses_bad_settings(player, kwargs):
    settings = {"player": player, "variant": "classic", "options": {}, "opponent": "easy", "side": "X", **kwargs}
    with pytest.raises(InvalidGameSettings):
        game_create(**settings)
    assert Game.objects.count() == 0


def test_create_refuses_strategy_that_does_not_support_variant(player):
    from games.engine import STRATEGIES, get_strategy, get_variant

    ultimate = get_variant("ultimate")
    unsupported = [name for name in STRATEGIES if not get_strategy(name).supports(ultimate)]
    assert "ring" in unsupported  # ring plays classic only
    with pytest.raises(InvalidGameSettings, match="does not support"):
        game_create(player=player, variant="ultimate", options={}, opponent="easy", side="X", strategy=unsupported[0])
    assert Game.objects.count() == 0


# Playing ----------------------------------------------------------------------------------------


def test_move_is_recorded_and_cache_kept(make_game, player):
    game = make_game()
    position = move_play(game=game, player=player, move=4)
    assert position.moves == [4] and position.state.ply == 1
    game.refresh_from_db()
    assert game.ply == 1 and game.to_move == "O"
    assert list(Move.objects.filter(game=game).values_list("ply", "move", "side")) == [(1, 4, "X")]


def test_x_wins_records_result(make_game, player):
    game = make_game()
    play_all(game, player, [0, 3, 1, 4, 2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == "X" and game.result_reason == Game.Reason.LINE
    assert game.finished is not None and game.result_text() == "X wins"
    with pytest.raises(GameFinished):
        move_play(game=game, player=player, move=8)
    assert game.moves.count() == 5


def test_draw_records_result(make_game, player):
    game = make_game()
    play_all(game, player, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    game.refresh_from_db()
    assert game.result == Game.Result.DRAW and game.result_text() == "Draw"
    assert game.status == Game.Status.FINISHED


def test_multi_winner_by_boards(make_game, player):
    game = make_game(variant="multi")
    state = game_position(game).state
    moves = []
    from games.engine import get_strategy

    bot = get_strategy("random", seed=5)
    while not state.is_over:
        move = bot.choose(state)
        moves.append(move)
        state = state.play(move)
    play_all(game, player, moves)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == (state.winner or "draw")
    if state.winner:
        assert game.result_reason == Game.Reason.BOARDS


@pytest.mark.parametrize("move", [-1, 9, 100, "4", None, 4.0, True])
def test_bad_moves_are_refused(make_game, player, move):
    game = make_game()
    with pytest.raises(InvalidMove):
        move_play(game=game, player=player, move=move)
    assert game.moves.count() == 0


def test_occupied_cell_is_refused_with_engine_reason(make_game, player):
    game = make_game()
    move_play(game=game, player=player, move=4)
    with pytest.raises(InvalidMove, match="already taken"):
        move_play(game=game, player=player, move=4)
    game.refresh_from_db()
    assert game.ply == 1


def test_wrong_board_is_refused(make_game, player):
    game = make_game(variant="ultimate")
    move_play(game=game, player=player, move=9 * 4 + 2)  # sends O to board 2
    with pytest.raises(InvalidMove, match="board 2"):
        move_play(game=game, player=player, move=0)
    assert game.moves.count() == 1


def test_not_seated_is_refused(make_game, other_player):
    game = make_game()
    with pytest.raises(NotSeated):
        move_play(game=game, player=other_player, move=0)
    with pytest.raises(NotSeated):
        game_resign(game=game, player=other_player)
    assert game.moves.count() == 0


def test_not_your_turn(player):
    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="O", strategy="random")
    with pytest.raises(NotYourTurn):
        move_play(game=game, player=player, move=0)
    assert game.moves.count() == 0


def test_stale_ply_cannot_store_a_second_move(make_game, player):
    """The unique (game, ply) constraint backs up the version check."""
    from django.db import IntegrityError, transaction

    game = make_game()
    move_play(game=game, player=player, move=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=game, ply=1, move=1, side="X")
    assert issubclass(MoveConflict, ValueError)


# Computer ---------------------------------------------------------------------------------------


def test_computer_replies(player):
    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="X", strategy="random")
    with pytest.raises(NotComputerTurn):
        computer_move(game=game)
    position = move_play(game=game, player=player, move=4)
    assert position.state.to_move == "O"
    position = computer_move(game=game)
    assert len(position.moves) == 2 and position.moves[1] != 4
    game.refresh_from_db()
    assert game.ply == 2 and game.moves.get(ply=2).side == "O"


def test_move_play_with_reply(player):
    game = game_create(player=player, variant="four", options={}, opponent="hard", side="X", strategy="random")
    position = move_play(game=game, player=player, move=0, reply=True)
    assert position.state.ply == 2
    assert position.game.to_move == "X"


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_computer_level_plays_a_legal_move(player, level):
    game = game_create(player=player, variant="classic", options={}, opponent=level, side="O")
    position = computer_move(game=game)
    assert position.state.ply == 1 and position.moves[0] in range(9)


def test_watch_game_plays_to_the_end(player):
    game = game_create(player=player, variant="classic", options={}, opponent="watch", side="X", strategy="random")
    for _ in range(9):
        position = computer_move(game=game)
        if position.state.is_over:
            break
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result in ("X", "O", "draw")
    with pytest.raises(GameFinished):
        computer_move(game=game)


# Resigning --------------------------------------------------------------------------------------


def test_resign_gives_the_win_to_the_other_side(player):
    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="X", strategy="random")
    game = game_resign(game=game, player=player)
    assert game.status == Game.Status.FINISHED and game.result == "O"
    assert game.result_reason == Game.Reason.RESIGNED
    assert game.result_text() == "O wins (X resigned)"
    with pytest.raises(GameFinished):
        game_resign(game=game, player=player)


def test_resign_local_is_the_side_to_move(make_game, player):
    game = make_game()
    move_play(game=game, player=player, move=0)
    game = game_resign(game=game, player=player)
    assert game.result == "X"


# Selectors ------------------------------------------------------------------------------------------


def test_player_stats_per_variant(player, other_player, make_game):
    from games.selectors import computer_stats, player_stats
    from games.services import challenge_accept, challenge_create

    def finished(variant, side, result, opponent="easy", strategy="random", **kwargs):
        game = game_create(player=player, variant=variant, options=kwargs, opponent=opponent, side=side,
                           strategy=strategy)
        Game.objects.filter(pk=game.pk).update(status="finished", result=result)

    finished("classic", "X", "X")
    finished("classic", "O", "X")
    finished("classic", "X", "draw", opponent="hard", strategy=None)
    finished("classic", "O", "O", opponent="easy", strategy=None)
    finished("nxn", "O", "O", size=4)
    game_create(player=player, variant="four", options={}, opponent="easy", side="X", strategy="random")  # unfinished
    local = make_game()
    Game.objects.filter(pk=local.pk).update(status="finished", result="X")  # both seats: counts for nobody
    duel = challenge_accept(game=challenge_create(player=other_player, variant="classic", side="X"), player=player)
    Game.objects.filter(pk=duel.pk).update(status="finished", result="X")  # alice, O, lost to bob
    rows = player_stats(player)
    assert rows == [
        {"variant": "classic", "label": "Classic 3 x 3", "played": 5, "won": 2, "lost": 2, "drawn": 1,
         "players": {"played": 1, "won": 0, "lost": 1, "drawn": 0}},
        {"variant": "nxn", "label": "n x n", "played": 1, "won": 1, "lost": 0, "drawn": 0,
         "players": {"played": 0, "won": 0, "lost": 0, "drawn": 0}},
    ]
    assert [row["players"] for row in player_stats(other_player)] == [{"played": 1, "won": 1, "lost": 0, "drawn": 0}]
    # Against the computer: by variant, then level (easy to hard), then a strategy chosen by name.
    rows = computer_stats(player)
    assert [(r["variant"], r["computer"], r["played"], r["won"], r["lost"], r["drawn"]) for r in rows] == [
        ("classic", "easy", 1, 1, 0, 0),
        ("classic", "hard", 1, 0, 0, 1),
        ("classic", "random", 2, 1, 1, 0),
        ("nxn", "random", 1, 1, 0, 0),
    ]
    assert computer_stats(other_player) == []


def test_recorded_rows_read_back_as_the_orm_writes_them(player):
    """The move path's compare-and-set UPDATE and its bulk_create of the Move rows write what save() would."""
    from django.utils import timezone

    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="X", strategy="random")
    before = Game.objects.get(pk=game.pk).updated
    position = move_play(game=game, player=player, move=4, quick_reply=True)
    stored = Game.objects.get(pk=game.pk)
    assert stored.ply == 2 and stored.version == 1 and stored.updated > before
    assert stored.move_list == ",".join(map(str, position.moves))
    rows = list(Move.objects.filter(game=game).order_by("ply"))
    assert [(m.ply, m.move, m.side) for m in rows] == [(1, 4, "X"), (2, position.moves[1], "O")]
    assert all(abs((timezone.now() - m.created).total_seconds()) < 60 for m in rows)


# Moves are judged on an unlocked read and recorded by compare-and-set ---------------------------


def meddle_once(monkeypatch, change):
    """Run ``change()`` the first time a move path rebuilds the position: after it has read the game, before
    it records the move, as another request would in between."""
    import games.services.moves as moves

    real, calls = moves.state_after, []

    def state_after(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            change()
        return real(*args, **kwargs)

    monkeypatch.setattr(moves, "state_after", state_after)
    return calls


@pytest.mark.django_db(transaction=True)
def test_move_and_reply_are_judged_outside_the_transaction(monkeypatch, player):
    """Reading the game, the engine's work and the computer's choice take no lock: on SQLite the
    transaction (the database's one write lock) is only the move's two writes."""
    from django.db import connection

    import games.services.moves as moves

    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="X", strategy="random")
    seen = []
    for name in ("state_after", "seat_strategy"):
        real = getattr(moves, name)

        def spy(*args, _real=real, **kwargs):
            seen.append(connection.in_atomic_block)
            return _real(*args, **kwargs)

        monkeypatch.setattr(moves, name, spy)
    assert not connection.in_atomic_block
    position = move_play(game=game, player=player, move=4, quick_reply=True)
    assert position.state.ply == 2 and Move.objects.filter(game=game).count() == 2
    assert seen == [False, False]


def test_a_move_judged_before_the_game_ended_is_not_stored(monkeypatch, make_game, player):
    """The game is resigned between reading it and recording the move: the move is judged again and
    refused; nothing is stored."""
    game = make_game()
    calls = meddle_once(monkeypatch, lambda: game_resign(game=Game.objects.get(pk=game.pk), player=player))
    with pytest.raises(GameFinished):
        move_play(game=game.pk, player=player, move=4)
    assert len(calls) == 1  # judged once; the second read refused it before the engine ran
    stored = Game.objects.get(pk=game.pk)
    assert stored.result_reason == Game.Reason.RESIGNED and stored.ply == 0 and stored.version == 1
    assert not Move.objects.filter(game=game).exists()


def test_a_move_judged_on_an_old_version_is_judged_again(monkeypatch, player, other_player):
    """Another change (the opponent offers a draw) lands between reading and recording: the move is judged
    again on the new version and stored once, and, being the reply to the offer, declines it."""
    from games.services import challenge_accept, challenge_create, draw_offer

    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=other_player)
    move_play(game=game, player=player, move=0)
    calls = meddle_once(monkeypatch, lambda: draw_offer(game=Game.objects.get(pk=game.pk), player=player))
    position = move_play(game=game.pk, player=other_player, move=4)
    assert len(calls) == 2
    stored = Game.objects.get(pk=game.pk)
    assert stored.draw_offered_by_id is None and stored.ply == 2 and stored.version == 4
    assert position.game.version == 4
    assert [(m.ply, m.move) for m in Move.objects.filter(game=game).order_by("ply")] == [(1, 0), (2, 4)]


def test_a_slow_computer_move_on_an_old_version_is_refused(monkeypatch, player):
    """A strategy that thinks for long does not think again: if the game moved on, its move is refused."""
    import games.services.moves as moves

    game = game_create(player=player, variant="classic", options={}, opponent="watch", side="X", strategy="random")
    monkeypatch.setattr(moves, "answers_at_once", lambda strategy, variant: False)
    # another change to the game (as a takeback or a hint would make) moves its version on
    calls = meddle_once(monkeypatch, lambda: Game.objects.filter(pk=game.pk).update(version=5))
    with pytest.raises(MoveConflict, match="moved on"):
        computer_move(game=game.pk)
    assert len(calls) == 1 and not Move.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).version == 5


def test_a_quick_computer_move_on_an_old_version_thinks_again(monkeypatch, player):
    """A quick strategy chooses again on the new position: one move stored, on the current version."""
    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="O", strategy="random")
    calls = meddle_once(monkeypatch, lambda: Game.objects.filter(pk=game.pk).update(version=5))
    position = computer_move(game=game.pk)
    assert len(calls) == 2 and position.state.ply == 1
    assert Game.objects.get(pk=game.pk).version == 6 and Move.objects.filter(game=game).count() == 1
