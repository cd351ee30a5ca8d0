"""A game step by step, with the analysis of a finished game; and Play on: a new game from one of its positions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import replace_url

from ...edge.http_errors import http_error
from ...engine import position_string
from ...errors import AnalysisUnavailable, GameError
from ...models import Game
from ...positions import Position, game_moves, state_after
from ...pov import GameView, game_view
from ...puzzles import puzzles_of_game
from ...services import game_analysis, game_from_position
from ..forms import COMPUTER_LEVEL_CHOICES
from ..presenters.board import board_context
from ..presenters.graph import evaluation_graph
from ..presenters.moves import analysis_words, move_pairs, move_rows, replay_announcement
from ..presenters.play import game_urls, seats
from ..responses import go_to, load_game, message, parse_count


@login_required
@require_safe
def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    return _replay_page(request, load_game(request, pk), request.GET.get("ply"))


@login_required
@require_POST
def game_play_on_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A new game against the computer from a position of this finished game (``ply``, ``level``)."""
    game = load_game(request, pk)
    ply_text = request.POST.get("ply", "")
    try:
        new = game_from_position(game=game, ply=parse_count(ply_text), player=request.user,
                                 level=request.POST.get("level", ""))
    except GameError as err:
        return _replay_page(request, game, ply_text or None, error=message(err), status=http_error(err).status)
    return go_to(request, new)


def _step(total: int, ply_text: str | None) -> tuple[int, str]:
    """The step to show for ``ply_text`` and what was wrong with it ("" when nothing): one that is not a number of
    moves of this game shows the nearest position (the end for what is not a number), saying so."""
    if ply_text is None:
        return total, ""
    ply = parse_count(ply_text)
    if ply is None:
        return total, f"“{ply_text[:20]}” is not a number of moves, so the game's end is shown."
    if ply > total:
        return total, f"This game has {total} moves: there is no position after move {ply}, so its end is shown."
    return ply, ""


def _replay_page(
    request: HttpRequest, game: Game, ply_text: str | None, *, error: str = "", status: int = 200
) -> HttpResponse:
    """The replay at the position after ``ply_text`` moves (the last one when missing); a step that is not one of
    this game is refused (400) with the page at the nearest position."""
    moves = game_moves(game)
    total = len(moves)
    ply, problem = _step(total, ply_text)
    if problem and not error:  # (Play on's refusal says what was wrong with its own ply)
        error, status = problem, 400
    shown = state_after(game, moves, upto=ply)
    end = shown
    for move in moves[ply:]:
        end = end.play(move)
    view = game_view(Position(game=game, state=end, moves=moves), request.user)
    pending = False
    try:
        verdicts = game_analysis(game)
        pending = verdicts is None  # a worker works it out: the page asks again every 2 s (analysis_pending)
    except AnalysisUnavailable:
        verdicts = None  # a running game, or one started from a position: the replay shows the moves only
    context = _replay_context(view, shown, ply, verdicts, error)
    context["analysis_pending"] = pending
    if request.htmx:
        polled = request.GET.get("poll") == "1"
        # asked again while the analysis is worked out: say nothing until it is there, then that it is
        announce = "" if polled and pending else replay_announcement(
            view, ply, context["analysis"], context["status_text"]
        )
        if polled and not pending:
            announce = f"The analysis is ready. {announce}"
        context.update(oob=bool(announce), announce=announce)
        response = render(request, "games/replay.html#replay", context, status=status)
        # the address follows the step in place: Back leaves the replay, however many steps were taken
        return replace_url(response, f"{reverse('games:replay', args=[game.pk])}?ply={ply}")
    return render(request, "games/replay.html", context, status=status)


def _replay_context(view: GameView, shown, ply: int, verdicts, error: str) -> dict[str, Any]:
    game, moves = view.game, view.position.moves
    total = len(moves)
    at_end = game.is_finished and ply == total
    position = position_string(shown)
    return {
        # the position shown, as a string (docs/records.md) and on the analysis board
        "position": position,
        "analysis_url": f"{reverse('analysis')}?variant={position.split('_', 1)[0]}&position={position}",
        "view": view,
        "game": game,
        "urls": game_urls(game.pk),
        "ply": ply,
        "total": total,
        "first": 0,
        "back": max(0, ply - 1),
        "forward": min(total, ply + 1),
        "last": total,
        "board": board_context(shown, last=moves[ply - 1] if ply else -1),
        "moves": move_pairs(move_rows(view, verdicts)),
        "graph": evaluation_graph(verdicts, ply, reverse("games:replay", args=[game.pk]), view.name)
        if verdicts else None,
        "replay": True,
        "analysis": analysis_words(view, verdicts, ply) if verdicts is not None else None,
        # "Play on from here": a finished game, at a position where the game was not over yet
        "play_on_label": f"Play on from here as {shown.to_move}, against the computer:"
        if game.is_finished and not shown.is_over else "",
        # the move shown was a mistake: play on from before it, as the side that made it
        "try_better_label": f"Try the better move as {verdicts[ply - 1].side}, from before move {ply}:"
        if game.is_finished and ply and verdicts and verdicts[ply - 1].mistake else "",
        # the move shown missed a proven win that was cut into a puzzle (games.services.puzzles): solve it there
        "puzzle_url": _puzzle_url(game, ply) if game.is_finished and ply and verdicts and verdicts[ply - 1].mistake
        else "",
        "levels": COMPUTER_LEVEL_CHOICES,
        "error": error,
        "nested": view.variant.nested,
        "variant_label": view.variant.describe(),
        # the end as the game page words and colours it ("X wins — you won", in green)
        "status_text": view.status_text if at_end else (
            f"After move {ply} of {total}" if ply else f"Start position ({total} moves in all)"
        ),
        "status_tone": view.status_tone if at_end else "",
        **seats(game),
    }


def _puzzle_url(game: Game, ply: int) -> str:
    found = puzzles_of_game(game).get(ply)
    return reverse("puzzle", args=[found]) if found else ""
