"""Reads of puzzles: a player's own missed wins, their tries, the boards that have puzzles, and which moves of a game
were cut into one (the replay links its mistakes to them). Writes are ``games.services.puzzles``."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.db.models import Count

from .models import Game, Puzzle, PuzzleAttempt, PuzzleRating
from .rating.pools import board_label

#: missed wins listed at most
MISSED_WINS_SIZE = 50


def missed_wins(player: Any) -> list[Puzzle]:
    """The puzzles cut from ``player``'s own games, where they missed the win (newest first)."""
    return list(Puzzle.objects.filter(player=player, enabled=True).select_related("game")[:MISSED_WINS_SIZE])


def attempt_of(puzzle: Puzzle, player: Any) -> PuzzleAttempt | None:
    if getattr(player, "pk", None) is None:
        return None
    return PuzzleAttempt.objects.filter(puzzle=puzzle, player=player).first()


def boards_with_puzzles() -> list[dict[str, Any]]:
    """The boards that have puzzles in the pool: key, words, how many, and the query that asks for the next one."""
    rows = Puzzle.objects.filter(enabled=True).values("board", "variant", "options").annotate(count=Count("id"))
    boards: dict[str, dict[str, Any]] = {}
    for row in rows.order_by("board"):
        options = row["options"] or {}
        query = urlencode({"variant": row["variant"], **{key: int(value) for key, value in options.items()}})
        entry = boards.setdefault(row["board"], {"board": row["board"], "label": _label(row["board"]), "count": 0,
                                                 "query": query})
        entry["count"] += row["count"]
    return list(boards.values())


def _label(board: str) -> str:
    try:
        return board_label(board)
    except ValueError:
        return board


def puzzle_ratings(player: Any) -> list[PuzzleRating]:
    return list(PuzzleRating.objects.filter(player=player).order_by("board"))


def puzzles_of_game(game: Game) -> dict[int, int]:
    """The game's puzzles by the ply of the move that missed the win (the replay links them): {ply: puzzle id}."""
    return {ply + 1: pk for ply, pk in Puzzle.objects.filter(game=game, enabled=True).values_list("ply", "pk")}
