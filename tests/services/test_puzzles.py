"""Puzzles' services (games.services.puzzles): cut from an analysed game's missed wins in the workers, served near
the player's rating and never twice, a try's moves, hints and ratings."""

from __future__ import annotations

import pytest

from games.engine import get_variant, parse_position
from games.errors import InvalidMove, PuzzleDone, PuzzleNotFound
from games.models import Puzzle, PuzzleAttempt, PuzzleRating
from games.services import (
    cut_puzzles,
    game_analysis,
    move_play,
    puzzle_hint,
    puzzle_move,
    puzzle_next,
    puzzles_enable,
)
from games.services.puzzles import InvalidPuzzleBoard, score_of
from tests.api.helpers import run_tasks

pytestmark = pytest.mark.django_db

CLASSIC = get_variant("classic")


def missed_win_game(make_game, player):
    """A local classic game where X, after c2 b2 b1 a2, wins by c1 (O must block c3, then a1 wins) but played a3;
    X won later all the same."""
    game = make_game()
    for name in ("c2", "b2", "b1", "a2", "a3", "b3", "c1", "c3", "a1"):
        move_play(game=game, player=player, move=CLASSIC.parse_cell(name))
    return game


def test_an_analysed_games_missed_win_becomes_a_puzzle_in_the_workers(make_game, player):
    game = missed_win_game(make_game, player)
    game.refresh_from_db()
    assert game.result == "X"
    game_analysis(game)  # classic: at once, and the cutting is enqueued
    assert not Puzzle.objects.exists()
    run_tasks()
    [first] = Puzzle.objects.all()
    assert (first.game_id, first.ply, first.player_id, first.board) == (game.pk, 4, player.pk, "classic")
    assert [CLASSIC.cell_name(m) for m in first.solution] == ["c1", "c3", "a1"] and first.moves_to_win == 2
    state = parse_position(first.position)
    assert state.to_move == first.to_move
    after = state
    for move in first.solution:
        after = after.play(move)
    assert after.winner == first.to_move and len(first.solution) == 2 * first.moves_to_win - 1
    assert cut_puzzles(game_id=game.pk) == 0  # once


@pytest.fixture
def puzzle(make_game, player):
    game = missed_win_game(make_game, player)
    game.refresh_from_db()
    game_analysis(game)
    cut_puzzles(game_id=game.pk)
    return Puzzle.objects.order_by("ply").first()


def test_a_puzzle_is_served_once_near_the_rating_and_solved(puzzle, other_player):
    served = puzzle_next(player=other_player, variant="classic")
    assert served.pk in set(Puzzle.objects.values_list("pk", flat=True))
    answer = None
    for step in range(0, len(served.solution), 2):
        answer = puzzle_move(puzzle_id=served.pk, player=other_player, move=CLASSIC.cell_name(served.solution[step]))
        assert answer.correct
        assert answer.reply == (served.solution[step + 1] if step + 1 < len(served.solution) else None)
    assert answer.done and answer.rating > 1500 and answer.delta > 0
    assert PuzzleRating.objects.get(player=other_player).games == 1
    with pytest.raises(PuzzleDone):
        puzzle_move(puzzle_id=served.pk, player=other_player, move=served.solution[0])
    for _ in range(Puzzle.objects.count() - 1):
        assert puzzle_next(player=other_player, variant="classic").pk != served.pk
    with pytest.raises(PuzzleNotFound):
        puzzle_next(player=other_player, variant="classic")  # never served twice


def test_a_wrong_move_ends_the_try_with_its_refutation(puzzle, other_player):
    state = parse_position(puzzle.position)
    wrong = next(m for m in state.legal_moves() if m != puzzle.solution[0])
    answer = puzzle_move(puzzle_id=puzzle.pk, player=other_player, move=wrong)
    assert (answer.correct, answer.done, answer.reply) == (False, True, None)
    assert answer.refutation in state.play(wrong).legal_moves()
    assert answer.rating < 1500
    attempt = PuzzleAttempt.objects.get(player=other_player, puzzle=puzzle)
    assert (attempt.solved, attempt.wrong_move) == (False, wrong)
    puzzle.refresh_from_db()
    assert puzzle.plays == 1 and puzzle.solved == 0


def test_hints_cost_what_solving_is_worth(puzzle, other_player):
    attempt, move = puzzle_hint(puzzle_id=puzzle.pk, player=other_player)
    assert move == puzzle.solution[0] and attempt.hints == 1
    assert (score_of(True, 0), score_of(True, 1), score_of(True, 2), score_of(False, 0)) == (1.0, 0.5, 0.0, 0.0)


def test_bad_moves_and_boards_are_refused(puzzle, other_player):
    with pytest.raises(InvalidMove):
        puzzle_move(puzzle_id=puzzle.pk, player=other_player, move="z9")
    occupied = next(i for i, c in enumerate(parse_position(puzzle.position).cells) if c)
    with pytest.raises(InvalidMove):
        puzzle_move(puzzle_id=puzzle.pk, player=other_player, move=occupied)
    assert not PuzzleAttempt.objects.filter(solved__isnull=False).exists()  # the try goes on
    with pytest.raises(InvalidPuzzleBoard):
        puzzle_next(player=other_player, variant="nxn", options={"size": 77})
    with pytest.raises(PuzzleNotFound):
        puzzle_move(puzzle_id=987654, player=other_player, move="a1")


def test_mine_serves_the_players_own_missed_wins_and_disabled_ones_are_not_served(puzzle, player, other_player):
    assert puzzle_next(player=player, variant="classic", mine=True).player_id == player.pk
    with pytest.raises(PuzzleNotFound):
        puzzle_next(player=other_player, variant="classic", mine=True)
    assert puzzles_enable(puzzle_ids=list(Puzzle.objects.values_list("pk", flat=True)), enabled=False) >= 1
    with pytest.raises(PuzzleNotFound):
        puzzle_next(player=other_player, variant="classic")
