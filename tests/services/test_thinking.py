"""The computer thinks on the person's time in the task worker that played its move, and its next move starts from
that tree (issue 34: games.services.thinking)."""

from __future__ import annotations

import pytest

from games.engine import pondering
from games.models import Game
from games.positions import Position, current_moves, state_after
from games.services import game_create, game_resign, move_play, thinking
from games.services.moves import play_computer_turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def trees(monkeypatch):
    """This process's kept trees, empty, and what each ``take`` handed over (None: nothing kept for that key)."""
    pondering.TREES.clear()
    taken: list[tuple[object, object]] = []
    take = pondering.TREES.take

    def recording_take(key):
        entry = take(key)
        taken.append((key, entry))
        return entry

    monkeypatch.setattr(pondering.TREES, "take", recording_take)
    yield taken
    pondering.TREES.clear()


def ultimate_against_computer(player) -> Game:
    # the computer (level hard: mcts, the tree kept by default on ultimate) opens as X, in a worker
    return game_create(player=player, variant="ultimate", opponent="hard", side="O")


def position_of(game_id: int) -> Position:
    game = Game.objects.get(pk=game_id)
    moves = current_moves(game)
    return Position(game=game, state=state_after(game, moves), moves=moves)


def test_the_worker_thinks_on_the_persons_time_and_its_next_move_goes_on_from_that_tree(
    player, settings, monkeypatch, trees
):
    settings.COMPUTER_PONDER_SECONDS = 0.3
    pondered: list[int] = []
    ponder = thinking.ponder
    monkeypatch.setattr(thinking, "ponder", lambda *args, **kwargs: pondered.append(ponder(*args, **kwargs)) or 0)
    game = ultimate_against_computer(player)
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    key = (game.pk, "X")
    assert pondered and pondered[0] > 0  # it searched the position the person faces
    assert key in pondering.TREES
    reply = position_of(game.pk).state.legal_moves()[0]
    move_play(game=game.pk, player=player, move=reply)
    trees.clear()
    assert play_computer_turn(game_id=game.pk, version=2) == "played"
    assert [k for k, entry in trees if entry is not None] == [key]  # the move's search adopted the pondered tree
    assert Game.objects.get(pk=game.pk).ply == 3


def test_nothing_is_pondered_when_it_is_turned_off(player, settings, trees):
    settings.COMPUTER_PONDER_SECONDS = 0
    game = ultimate_against_computer(player)
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    assert thinking.ponder_after_move(position_of(game.pk)) == 0
    assert (game.pk, "X") not in pondering.TREES  # (the opening move came from the book: no search, no tree)


def test_pondering_stops_once_the_person_moves(player, monkeypatch):
    monkeypatch.setattr(thinking, "CHECK_EVERY", 0)
    game = ultimate_against_computer(player)
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    stop = thinking.stop_when_needed(Game.objects.get(pk=game.pk))
    assert stop() is False
    reply = position_of(game.pk).state.legal_moves()[0]
    move_play(game=game.pk, player=player, move=reply)
    assert stop() is True


def test_pondering_stops_once_another_game_waits_for_its_computer(player, other_player, monkeypatch):
    monkeypatch.setattr(thinking, "CHECK_EVERY", 0)
    game = ultimate_against_computer(player)
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    stop = thinking.stop_when_needed(Game.objects.get(pk=game.pk))
    assert stop() is False
    ultimate_against_computer(other_player)  # its computer is to move: a task is coming for the workers
    assert stop() is True


def test_a_finished_game_forgets_its_trees(player, settings, trees):
    settings.COMPUTER_PONDER_SECONDS = 0.2
    game = ultimate_against_computer(player)
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    assert (game.pk, "X") in pondering.TREES
    game_resign(game=game.pk, player=player)
    assert thinking.ponder_after_move(position_of(game.pk), seconds=1.0) == 0
    assert (game.pk, "X") not in pondering.TREES


def test_a_computer_that_keeps_no_tree_does_not_ponder(player, trees):
    game = game_create(player=player, variant="multi", opponent="hard", side="O")
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    assert thinking.ponder_after_move(position_of(game.pk), seconds=1.0) == 0
    assert len(pondering.TREES) == 0
