"""Puzzles' pages: the boards to choose from and the player's own missed wins, the next puzzle, a puzzle with the
player's try (a move, a hint), answered with the puzzle's part (``games/puzzle.html#puzzle``) for htmx."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import reswap, retarget

from ...edge.http_errors import http_error
from ...errors import GameError, PuzzleNotFound
from ...puzzles import attempt_of, boards_with_puzzles, missed_wins, puzzle_ratings
from ...services import puzzle_hint, puzzle_move, puzzle_next
from ...services.puzzles import puzzle_board, puzzle_by_id, puzzle_rating
from ..arena_forms import PuzzleBoardForm
from ..presenters.puzzles import puzzle_context
from ..responses import message, parse_move


def _puzzle(pk: int):
    try:
        return puzzle_by_id(pk)
    except PuzzleNotFound:
        raise Http404("No such puzzle.") from None


@login_required
@require_safe
def puzzles_home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/puzzles.html", {
        "boards": boards_with_puzzles(), "missed": missed_wins(request.user), "ratings": puzzle_ratings(request.user),
        "form": PuzzleBoardForm(auto_id="puzzle_%s"),
    })


@login_required
@require_safe
def puzzle_next_view(request: HttpRequest) -> HttpResponse:
    """The next puzzle of the board asked for (``?variant=`` and its options, ``mine=1``): to its page."""
    form = PuzzleBoardForm(request.GET)
    if not form.is_valid():
        messages.error(request, "Choose a board: " + "; ".join(e for errors in form.errors.values() for e in errors))
        return redirect("puzzles")
    try:
        puzzle = puzzle_next(player=request.user, variant=form.cleaned_data["variant"],
                             options=form.cleaned_data.get("options", {}), mine=request.GET.get("mine") == "1")
    except GameError as err:
        messages.info(request, message(err))
        return redirect("puzzles")
    return redirect("puzzle", pk=puzzle.pk)


def _render(request: HttpRequest, puzzle, *, status: int = 200, **context) -> HttpResponse:
    attempt = attempt_of(puzzle, request.user)
    rating = puzzle_rating(request.user, puzzle_board(puzzle.variant, puzzle.options))
    data = puzzle_context(puzzle, attempt, rating=rating, **context)
    template = "games/puzzle.html#puzzle" if request.htmx else "games/puzzle.html"
    return render(request, template, data, status=status)


@login_required
@require_safe
def puzzle_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _render(request, _puzzle(pk))


@login_required
@require_POST
def puzzle_move_view(request: HttpRequest, pk: int) -> HttpResponse:
    puzzle = _puzzle(pk)
    try:
        puzzle_move(puzzle_id=pk, player=request.user, move=parse_move(request.POST.get("move")))
    except GameError as err:
        response = _render(request, puzzle, error=message(err), status=http_error(err).status)
        return reswap(retarget(response, "#puzzle"), "outerHTML") if request.htmx else response
    if not request.htmx:
        return redirect("puzzle", pk=pk)
    return _render(request, puzzle)


@login_required
@require_POST
def puzzle_hint_view(request: HttpRequest, pk: int) -> HttpResponse:
    puzzle = _puzzle(pk)
    try:
        _attempt, move = puzzle_hint(puzzle_id=pk, player=request.user)
    except GameError as err:
        response = _render(request, puzzle, error=message(err), status=http_error(err).status)
        return reswap(retarget(response, "#puzzle"), "outerHTML") if request.htmx else response
    return _render(request, puzzle, hint=move)
