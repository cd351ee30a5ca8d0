"""Puzzles cut from the players' games: the next one for you on a board, your moves in it, hints.

``GET /puzzles/next?variant=<key>`` (the variant's options as query parameters, ``mine=1`` for your own missed wins)
serves a puzzle near your puzzle rating on that board, never one served to you before: 404 ``not_found`` when none is
left. ``POST /puzzles/{id}/moves`` plays your move: the solution's goes on (``reply``: the defence's answer), any
other ends the try with the ``refutation``; ``done`` tells when the try is over, and then ``solution`` and your
``rating``. Each try is rated as a Glicko-2 game between you and the puzzle; a hint lowers what solving is worth.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Query, Router

from ..engine import get_variant, parse_position
from ..models import Puzzle, PuzzleAttempt
from ..puzzles import attempt_of
from ..services import puzzle_hint, puzzle_move, puzzle_next
from ..services.puzzles import puzzle_by_id
from .arena_schemas import PuzzleHintOut, PuzzleMoveIn, PuzzleMoveOut, PuzzleOut, PuzzleQuery
from .errors import ERRORS

router = Router(tags=["puzzles"])

OPTION_NAMES = ("size", "rows", "cols", "k", "closed_boards", "random_start")


def puzzle_out(puzzle: Puzzle, attempt: PuzzleAttempt | None) -> dict[str, Any]:
    variant = get_variant(puzzle.variant, **puzzle.options)
    state = parse_position(puzzle.position)
    return {
        "id": puzzle.pk, "variant": puzzle.variant, "options": puzzle.options or {}, "cells": list(state.cells),
        "rows": variant.rows, "cols": variant.cols,
        "active_boards": list(state.active_boards) if variant.nested else None,
        "to_move": puzzle.to_move, "moves_to_win": puzzle.moves_to_win, "rating": round(puzzle.rating),
        "played": [variant.cell_name(m) for m in puzzle.solution[: attempt.step]] if attempt else [],
        "done": bool(attempt and attempt.done),
    }


@router.get("/puzzles/next", response={200: PuzzleOut, **ERRORS}, summary="Your next puzzle on a board")
def next_puzzle(request: HttpRequest, query: Query[PuzzleQuery]) -> dict[str, Any]:
    """A puzzle of the board near your puzzle rating there, never served to you before (it is served now). No
    puzzle left: ``404 not_found``; a board that is none: ``400 invalid_settings``."""
    options = {name: getattr(query, name) for name in OPTION_NAMES if getattr(query, name) is not None}
    puzzle = puzzle_next(player=request.auth, variant=query.variant, options=options, mine=query.mine)
    return puzzle_out(puzzle, attempt_of(puzzle, request.auth))


@router.get("/puzzles/{int:puzzle_id}", response={200: PuzzleOut, **ERRORS}, summary="A puzzle")
def get_puzzle(request: HttpRequest, puzzle_id: int) -> dict[str, Any]:
    """A puzzle as ``next`` gives it, with your try's moves so far (``played``) and whether it is over."""
    puzzle = puzzle_by_id(puzzle_id)
    return puzzle_out(puzzle, attempt_of(puzzle, request.auth))


@router.post("/puzzles/{int:puzzle_id}/moves", response={200: PuzzleMoveOut, **ERRORS}, summary="Play your move")
def play_move(request: HttpRequest, puzzle_id: int, payload: PuzzleMoveIn) -> dict[str, Any]:
    """Your move by its cell name. Right: ``correct`` and the defence's ``reply`` (or ``done`` when it won). Wrong:
    the try is over (``done``), with the ``refutation`` and the ``solution``. A try already over: ``409
    puzzle_done``; a cell that is no legal move: ``400 illegal_move`` (the try goes on)."""
    puzzle = puzzle_by_id(puzzle_id)
    answer = puzzle_move(puzzle_id=puzzle_id, player=request.auth, move=payload.move)
    variant = get_variant(puzzle.variant, **puzzle.options)
    name = variant.cell_name
    return {
        "correct": answer.correct,
        "reply": name(answer.reply) if answer.reply is not None else None,
        "done": answer.done,
        "solution": [name(m) for m in puzzle.solution] if answer.done else None,
        "refutation": name(answer.refutation) if answer.refutation is not None else None,
        "rating": round(answer.rating) if answer.rating is not None else None,
        "rating_delta": round(answer.delta) if answer.delta is not None else None,
    }


@router.post("/puzzles/{int:puzzle_id}/hint", response={200: PuzzleHintOut, **ERRORS}, summary="A hint")
def hint(request: HttpRequest, puzzle_id: int) -> dict[str, Any]:
    """The move to play now. Each hint lowers what solving the puzzle is worth to your rating (one: half; two or
    more: as if it were not solved)."""
    puzzle = puzzle_by_id(puzzle_id)
    attempt, move = puzzle_hint(puzzle_id=puzzle_id, player=request.auth)
    return {"hint": get_variant(puzzle.variant, **puzzle.options).cell_name(move), "hints": attempt.hints}
