"""games.models: constraints, seats, labels."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Move

pytestmark = pytest.mark.django_db


def test_unique_game_ply(make_game):
    game = make_game()
    Move.objects.create(game=game, ply=1, move=4, side="X")
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=game, ply=1, move=0, side="X")
    Move.objects.create(game=make_game(), ply=1, move=0, side="X")  # same ply, another game: fine


def test_moves_by_game_have_one_index(db):
    """Each stored move writes every index of its table: the unique (game, ply) index serves lookups by game,
    so there is no second index on the game alone."""
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Move._meta.db_table)
    indexed = [c["columns"] for c in constraints.values() if c["index"] or c["unique"]]
    assert ["game_id", "ply"] in indexed
    assert not [columns for columns in indexed if columns[:1] == ["game_id"] and columns != ["game_id", "ply"]]


def test_ply_starts_at_one(make_game):
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=make_game(), ply=0, move=4, side="X")


def test_result_only_when_finished(make_game):
    game = make_game()
    game.result = "X"
    with pytest.raises(IntegrityError), transaction.atomic():
        game.save()


def test_str_and_labels(player):
    game = Game.objects.create(variant="classic", opponent="hard", created_by=player, x_player=player, o_level="hard")
    assert str(game) == f"Game {game.pk} · classic · alice vs Computer (hard) · active"
    assert game.seat_label("X") == "alice" and game.is_computer("O") and not game.is_computer("X")
    assert game.sides_of(player) == ["X"] and game.to_move == "X"
    move = Move.objects.create(game=game, ply=1, move=4, side="X")
    assert str(move) == f"Game {game.pk} · 1. X 4"
    open_game = Game.objects.create(variant="classic", opponent="human", created_by=player, o_player=player)
    assert open_game.is_open_seat("X") and open_game.seat_label("X") == "open seat"


def test_result_text(player):
    game = Game(variant="classic", opponent="local", created_by=player, status="finished")
    for result, reason, text in (
        ("X", "line", "X wins"),
        ("O", "boards", "O wins"),
        ("draw", "full", "Draw"),
        ("X", "resigned", "X wins (O resigned)"),
    ):
        game.result, game.result_reason = result, reason
        assert game.result_text() == text


def test_moves_deleted_with_game(make_game):
    game = make_game()
    Move.objects.create(game=game, ply=1, move=4, side="X")
    game.delete()
    assert Move.objects.count() == 0
