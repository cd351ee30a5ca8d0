"""Puzzles cut from the players' own games: cutting them after a game's analysis, serving them, a try's moves and
hints, and the ratings (``games.engine.puzzles`` finds and proves them).

- ``cut_puzzles`` (a task in the workers, ``cut_game_puzzles``, enqueued when a game's analysis is stored): every
  position where the side to move had a proven forced win (the analysis's ``before`` is "win") and played another
  move than the puzzle's unique winning one becomes a puzzle if ``find_puzzle`` keeps it. The player who missed it
  is kept (their "missed wins"); the public pool never shows who.
- ``puzzle_next`` serves a puzzle of a board near the player's puzzle rating there, one they were never served (the
  attempt is the mark: one per player and puzzle); ``mine`` serves their own missed wins.
- ``puzzle_move`` plays the player's move in their try: the solution's move goes on (the defence answers), any
  other ends the try, with the defence's refutation; ``puzzle_hint`` shows the move to play, and each hint lowers
  what solving is worth.
- Each finished try is a Glicko-2 game between the player's ``PuzzleRating`` on the board and the puzzle (as lichess
  rates puzzles): solved scores 1, with a hint 0.5, with two or more 0, a wrong move 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Abs
from django.utils import timezone

from ..engine import get_variant, parse_position, position_string, shown
from ..engine.analysis import MoveVerdict
from ..engine.puzzles import find_puzzle, refutation
from ..errors import InvalidGameSettings, InvalidMove, PuzzleDone, PuzzleNotFound
from ..models import Game, Puzzle, PuzzleAttempt, PuzzleRating
from ..positions import current_moves, game_variant, initial_state
from ..rating.glicko2 import Glicko
from ..rating.glicko2 import rate_game as glicko_rate_game
from ..rating.pools import board_key
from .queue import ASSIST_QUEUE, task

#: candidates looked at per game at most (each a search; nested boards' can take a second)
MAX_CANDIDATES = 12
#: a new puzzle's rating by its length (win in 1, 2, ...): a guess the tries then correct
START_RATINGS = {1: 1100.0, 2: 1400.0, 3: 1600.0, 4: 1800.0, 5: 2000.0}
START_DEVIATION = 250.0


class InvalidPuzzleBoard(InvalidGameSettings):
    """Puzzles asked for a variant or options that are no board."""


# Cutting ------------------------------------------------------------------------------------------------------


def missed_win_moves(verdicts: list[MoveVerdict]) -> list[MoveVerdict]:
    """The moves played where the mover had a proven forced win and did not keep it for sure (its outcome after the
    move is not a proven win; the puzzle then decides whether the move missed it)."""
    return [v for v in verdicts if v.before == "win" and v.after != "win"][:MAX_CANDIDATES]


def cut_puzzles(*, game_id: int) -> int:
    """The puzzles of an analysed game, stored (once per position of the game). Returns how many were new."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.analysis is None or not settings.PUZZLES:
        return 0
    verdicts = [MoveVerdict(**{**row, "best": tuple(row["best"])}) for row in game.analysis]
    moves, variant = current_moves(game), game_variant(game)
    states = [initial_state(game, variant)]
    for move in moves:
        states.append(states[-1].play(move))
    made = 0
    for verdict in missed_win_moves(verdicts):
        before = states[verdict.ply - 1]
        found = find_puzzle(before)
        if found is None or found.solution[0] == verdict.move:
            continue  # no puzzle here, or the player found the win
        rating = START_RATINGS.get(found.moves_to_win, 1500.0)
        try:
            with transaction.atomic():
                _, created = Puzzle.objects.get_or_create(game=game, ply=verdict.ply - 1, defaults={
                    "variant": game.variant, "options": dict(game.options or {}),
                    "board": board_key(game.variant, game.options or {}), "position": position_string(before),
                    "to_move": before.to_move, "solution": list(found.solution), "moves_to_win": found.moves_to_win,
                    "proof": found.proof, "player_id": game.seat_player_id(verdict.side), "rating": rating,
                    "deviation": START_DEVIATION,
                })
        except IntegrityError:  # another worker cut the same one at the same moment
            created = False
        made += created
    return made


@task(queue_name=ASSIST_QUEUE)
def cut_game_puzzles(game_id: int) -> str:
    """A game's analysis was just stored: its missed wins become puzzles. How many, in words."""
    return f"{cut_puzzles(game_id=game_id)} puzzle(s)"


def puzzles_when_analysed(game_id: int) -> None:
    """In the transaction that stores a game's analysis: the workers cut its puzzles next (if puzzles are on)."""
    if settings.PUZZLES:
        cut_game_puzzles.enqueue(game_id=game_id)


# Serving ------------------------------------------------------------------------------------------------------


def puzzle_board(variant: Any, options: Any) -> str:
    """The board key of ``variant`` with ``options`` (puzzle ratings are per board); InvalidPuzzleBoard."""
    if not isinstance(variant, str) or not isinstance(options, dict):
        raise InvalidPuzzleBoard(f"variant must be a variant's key, not {shown(variant)}")
    try:
        variant_obj = get_variant(variant, **options)
    except (ValueError, TypeError) as err:
        raise InvalidPuzzleBoard(str(err)) from None
    return board_key(variant_obj.key, variant_obj.options)


def puzzle_rating(player: Any, board: str) -> PuzzleRating:
    """The player's puzzle rating on ``board`` (a fresh one, not stored, before their first try there)."""
    found = PuzzleRating.objects.filter(player=player, board=board).first()
    return found or PuzzleRating(player=player, board=board)


def puzzle_next(*, player: Any, variant: Any, options: Any = None, mine: bool = False) -> Puzzle:
    """A puzzle of the board for ``player``, near their puzzle rating there, never served to them before (served now:
    its attempt is made). ``mine``: only puzzles from their own games. PuzzleNotFound when none is left."""
    board = puzzle_board(variant, options or {})
    rating = puzzle_rating(player, board).rating
    pool = Puzzle.objects.filter(board=board, enabled=True).exclude(attempts__player=player)
    if mine:
        pool = pool.filter(player=player)
    for _ in range(3):  # two requests of one player at once: the second takes the next puzzle
        puzzle = pool.annotate(distance=Abs(F("rating") - rating)).order_by("distance", "id").first()
        if puzzle is None:
            break
        try:
            with transaction.atomic():
                PuzzleAttempt.objects.create(player=player, puzzle=puzzle)
            return puzzle
        except IntegrityError:
            continue
    where = "from your own games " if mine else ""
    raise PuzzleNotFound(f"no puzzle {where}is left for you on this board; try another one")


def puzzle_by_id(puzzle_id: Any) -> Puzzle:
    if isinstance(puzzle_id, bool) or not isinstance(puzzle_id, int) or not 1 <= puzzle_id <= 2**63 - 1:
        raise PuzzleNotFound("there is no such puzzle")
    puzzle = Puzzle.objects.filter(pk=puzzle_id, enabled=True).first()
    if puzzle is None:
        raise PuzzleNotFound(f"there is no puzzle {puzzle_id}")
    return puzzle


# A try -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What a move in a try did: ``correct``; the defence's ``reply`` when the puzzle goes on; ``done``; after a
    wrong move its ``refutation``; once done the player's ``rating`` and its change (``delta``)."""

    attempt: PuzzleAttempt
    correct: bool
    reply: int | None
    done: bool
    refutation: int | None = None
    rating: float | None = None
    delta: float | None = None


def _attempt(puzzle: Puzzle, player: Any) -> PuzzleAttempt:
    """The player's try at ``puzzle``, locked (made now if it was not served yet: opened by its address)."""
    PuzzleAttempt.objects.get_or_create(player=player, puzzle=puzzle)
    return PuzzleAttempt.objects.select_for_update().get(player=player, puzzle=puzzle)


def _parse(puzzle: Puzzle, move: Any) -> int:
    variant = get_variant(puzzle.variant, **puzzle.options)
    if isinstance(move, int) and not isinstance(move, bool):
        return move
    try:
        return variant.parse_cell(move)
    except (ValueError, TypeError) as err:
        raise InvalidMove(str(err)) from None


def puzzle_move(*, puzzle_id: Any, player: Any, move: Any) -> Answer:
    """``player`` plays ``move`` (a cell name or number) in their try at the puzzle. PuzzleDone once the try is over;
    InvalidMove for a move the position does not allow (the try goes on)."""
    puzzle = puzzle_by_id(puzzle_id)
    cell = _parse(puzzle, move)
    with transaction.atomic():
        attempt = _attempt(puzzle, player)
        if attempt.done:
            raise PuzzleDone("this puzzle is over for you: ask for the next one")
        state = parse_position(puzzle.position)
        for played in puzzle.solution[: attempt.step]:
            state = state.play(played)
        try:
            after = state.play(cell)
        except ValueError as err:
            raise InvalidMove(f"illegal move: {err}") from None
        expected = puzzle.solution[attempt.step]
        if cell != expected:
            attempt.wrong_move = cell
            rating, delta = _finish(attempt, puzzle, solved=False)
            return Answer(attempt, False, None, True, refutation(after), rating, delta)
        attempt.step += 1
        if attempt.step == len(puzzle.solution):
            rating, delta = _finish(attempt, puzzle, solved=True)
            return Answer(attempt, True, None, True, rating=rating, delta=delta)
        reply = puzzle.solution[attempt.step]
        attempt.step += 1
        attempt.save(update_fields=["step"])
        return Answer(attempt, True, reply, False)


def puzzle_hint(*, puzzle_id: Any, player: Any) -> tuple[PuzzleAttempt, int]:
    """The move to play now in the player's try (counted: a hint lowers what solving is worth). PuzzleDone."""
    puzzle = puzzle_by_id(puzzle_id)
    with transaction.atomic():
        attempt = _attempt(puzzle, player)
        if attempt.done:
            raise PuzzleDone("this puzzle is over for you: ask for the next one")
        attempt.hints += 1
        attempt.save(update_fields=["hints"])
    return attempt, puzzle.solution[attempt.step]


def score_of(solved: bool, hints: int) -> float:
    """A try's score against the puzzle: solved 1, with one hint 0.5, with more 0; not solved 0."""
    if not solved:
        return 0.0
    return 1.0 if hints == 0 else 0.5 if hints == 1 else 0.0


def _finish(attempt: PuzzleAttempt, puzzle: Puzzle, *, solved: bool) -> tuple[float, float]:
    """End the locked ``attempt`` and rate it: the player's rating on the board and the puzzle's move (both rows
    locked, the player's first). Returns the player's rating after it and its change."""
    PuzzleRating.objects.get_or_create(player_id=attempt.player_id, board=puzzle.board)
    mine = PuzzleRating.objects.select_for_update().get(player_id=attempt.player_id, board=puzzle.board)
    locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
    before = mine.rating
    new_mine, new_puzzle = glicko_rate_game(
        Glicko(mine.rating, mine.deviation, mine.volatility),
        Glicko(locked.rating, locked.deviation, locked.volatility),
        score_of(solved, attempt.hints),
    )
    mine.rating, mine.deviation, mine.volatility = new_mine.rating, new_mine.deviation, new_mine.volatility
    mine.games += 1
    mine.save(update_fields=["rating", "deviation", "volatility", "games", "updated"])
    Puzzle.objects.filter(pk=locked.pk).update(
        rating=new_puzzle.rating, deviation=new_puzzle.deviation, volatility=new_puzzle.volatility,
        plays=F("plays") + 1, solved=F("solved") + int(solved),
    )
    attempt.solved = solved
    attempt.finished = timezone.now()
    attempt.rating_before, attempt.rating_after = before, mine.rating
    attempt.save(update_fields=["solved", "wrong_move", "step", "finished", "rating_before", "rating_after"])
    return mine.rating, mine.rating - before


# Staff --------------------------------------------------------------------------------------------------------


def puzzles_enable(*, puzzle_ids: list[int], enabled: bool) -> int:
    """Staff put puzzles back in the pools or take them out (the admin's actions). Returns how many changed."""
    return Puzzle.objects.filter(pk__in=puzzle_ids).exclude(enabled=enabled).update(enabled=enabled)

