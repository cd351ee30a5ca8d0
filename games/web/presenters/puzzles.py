"""A puzzle as its page shows it (``templates/games/puzzle.html``): the board after the try's moves, what to do in
words, and once the try is over the solution, the refutation of a wrong move and the rating's change."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from ...engine import get_variant, parse_position
from ...engine.puzzles import refutation
from ...models import Puzzle, PuzzleAttempt, PuzzleRating
from .board import board_context


def _moves(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def _delta(attempt: PuzzleAttempt | None) -> str:
    if attempt is None or attempt.rating_before is None or attempt.rating_after is None:
        return ""
    change = round(attempt.rating_after) - round(attempt.rating_before)
    return f"+{change}" if change >= 0 else f"\N{MINUS SIGN}{-change}"


def puzzle_context(
    puzzle: Puzzle, attempt: PuzzleAttempt | None, *, rating: PuzzleRating | None = None, hint: int | None = None,
    error: str = "",
) -> dict[str, Any]:
    variant = get_variant(puzzle.variant, **puzzle.options)
    name = variant.cell_name
    state = parse_position(puzzle.position)
    step = attempt.step if attempt else 0
    for move in puzzle.solution[:step]:
        state = state.play(move)
    done = bool(attempt and attempt.done)
    wrong = attempt.wrong_move if attempt and attempt.solved is False else None
    last = puzzle.solution[step - 1] if step else None
    answer = None
    if wrong is not None:  # the wrong move, and the defence's answer that refutes it
        state = state.play(wrong)
        answer = refutation(state)
        if answer is not None:
            state = state.play(answer)
        last = answer if answer is not None else wrong
    side = puzzle.to_move
    left = puzzle.moves_to_win - step // 2
    if not done:
        words = f"{side} to play and win in {_moves(left)}" if step == 0 else f"{side} to play: win in {_moves(left)}"
        tone = "info"
    elif attempt and attempt.solved:
        words, tone = "Solved! " + (f"{side} wins." if not attempt.hints else f"{side} wins (with a hint)."), "won"
    else:
        words, tone = "Not the winning move.", "lost"
    playable = set(state.legal_moves()) if not done else set()
    return {
        "puzzle": puzzle,
        "attempt": attempt,
        "done": done,
        "status_text": words,
        "status_tone": tone,
        "error": error,
        "board": board_context(state, playable=playable, last=last, hint=hint),
        "nested": variant.nested,
        "variant_label": variant.describe(),
        "solution": [name(m) for m in puzzle.solution] if done else [],
        "wrong_name": name(wrong) if wrong is not None else "",
        "refutation_name": name(answer) if answer is not None else "",
        "rating": round(rating.rating) if rating is not None and rating.games else None,
        "delta": _delta(attempt) if done else "",
        "urls": {
            "move": reverse("puzzle_move", args=[puzzle.pk]), "hint": reverse("puzzle_hint", args=[puzzle.pk]),
            "next": f"{reverse('puzzle_next')}?variant={puzzle.variant}"
            + "".join(f"&{key}={int(value)}" for key, value in (puzzle.options or {}).items()),
        },
    }
