"""The analysis board: any position, set up by a position string or by playing moves on it, stepped back and
forth; the computer's best move and evaluation; a game against the computer from there.

No server state: the page's address holds it all, ``/analysis/?position=<start>&moves=e5,d6&at=1`` (the start
as a position string, docs/records.md; the line played on it by cell names; the step shown, by default the
last). ``variant`` may name the variant instead of a start (its empty board), or beside one (it must agree).
A move on the board is an htmx request answering with the ``#analysis`` partial and the new address.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import push_url

from ...edge.http_errors import http_error
from ...engine import VARIANTS, PositionError, State, get_variant, parse_position, position_string
from ...engine.analysis import outcome_words
from ...errors import GameError
from ...services import game_from_position_string
from ...services.assists import evaluation_result, position_evaluation
from ..forms import COMPUTER_LEVEL_CHOICES
from ..presenters.board import board_context
from ..responses import go_to, message, parse_count

#: moves kept in a line (a 19 x 19 board has 361 cells)
MAX_LINE = 400

#: the board picker's empty boards: the variant word of a position string (``?variant=``) and its name
BOARDS = (
    ("classic", "Classic 3 x 3"), ("four", "4 x 4"), ("nxn-5", "5 x 5"), ("nxn-7", "7 x 7"),
    ("mnk-15-15-5", "Gomoku 15 x 15"), ("ultimate-0", "Ultimate"), ("multi-0", "Multi"),
)


def _variant_start(word: str) -> State:
    """The empty board of a variant named as in a position string (``classic``, ``nxn-5``, ``mnk-15-15-5``)."""
    key, *values = word.split("-")
    if key not in VARIANTS:
        raise PositionError(f"there is no variant called “{key[:20]}”: choose one of {', '.join(VARIANTS)}")
    spec = VARIANTS[key].option_spec
    if len(values) > len(spec) or not all(value.isdigit() and len(value) <= 4 for value in values):
        raise PositionError(f"“{word[:40]}” is not a variant with its options (e.g. nxn-5, mnk-15-15-5)")
    options = {  # on/off options are 1 and 0, as in a position string
        name: (value == "1" if spec[name][0] is bool and value in ("0", "1") else int(value))
        for name, value in zip(spec, values, strict=False)
    }
    try:
        return get_variant(key, **options).new_game()
    except (TypeError, ValueError) as err:
        raise PositionError(str(err)) from None


def _start(variant: str, position: str) -> State:
    if not position:
        return _variant_start(variant or "classic")
    state = parse_position(position)
    word = position.split("_", 1)[0]
    if variant and variant not in (word, word.split("-", 1)[0]):
        raise PositionError(f"the position is a {word} position, not {variant[:40]}")
    return state


def _line(start: State, names: str) -> tuple[list[State], list[str], str]:
    """The states along the line ``names`` (comma-separated cell names) from ``start``, the moves' names, and
    what was wrong with the first move that could not be played ("" when none; the line stops before it)."""
    states, played = [start], []
    for number, name in enumerate([n for n in names.split(",") if n.strip()][:MAX_LINE], start=1):
        state = states[-1]
        try:
            move = state.variant.parse_cell(name)
            states.append(state.play(move))
        except ValueError as err:
            return states, played, f"Move {number} of the line ({name.strip()[:10]}): {message(err)}"
        played.append(state.variant.cell_name(move))
    return states, played, ""


def board_url(start: str, moves: list[str], at: int | None = None) -> str:
    params: dict[str, Any] = {"variant": start.split("_", 1)[0], "position": start}
    if moves:
        params["moves"] = ",".join(moves)
    if at is not None and at != len(moves):
        params["at"] = at
    return f"{reverse('analysis')}?{urlencode(params)}"


def _board_context(start_state: State, names: str, at_text: str | None, move_text: str | None) -> dict[str, Any]:
    states, played, error = _line(start_state, names)
    start = position_string(start_state)
    at = len(played) if at_text is None else parse_count(at_text)
    if at is None or at > len(played):
        error = error or f"There is no step {at_text[:10]!r} in this line, so its end is shown."
        at = len(played)
    if move_text is not None:  # a move played on the board at step ``at``
        state = states[at]
        move = parse_count(move_text)
        if move is None or move not in state.legal_moves():
            error = "That move cannot be played here."
        elif at < len(played) and played[at] == state.variant.cell_name(move):
            at += 1  # the line's own next move: the rest of the line stays
        else:
            played, states = played[:at] + [state.variant.cell_name(move)], states[: at + 1] + [state.play(move)]
            at += 1
    shown = states[at]
    position = position_string(shown)
    steps = [
        {"ply": n, "side": states[n - 1].to_move, "name": name, "url": board_url(start, played, n)}
        for n, name in enumerate(played, start=1)
    ]
    return {
        "start": start, "line": ",".join(played), "at": at, "total": len(played), "steps": steps,
        "error": error, "position": position, "shown": shown,
        "board": board_context(shown, playable=set(shown.legal_moves()), last=None),
        "nested": shown.variant.nested, "variant_label": shown.variant.describe(),
        "status_text": _status(shown),
        "first_url": board_url(start, played, 0), "back_url": board_url(start, played, max(0, at - 1)),
        "forward_url": board_url(start, played, min(len(played), at + 1)), "last_url": board_url(start, played),
        "url": board_url(start, played, at), "here_url": board_url(position, []),
        "levels": COMPUTER_LEVEL_CHOICES,
        "boards": BOARDS, "board_word": start.split("_", 1)[0],
    }


def _status(state: State) -> str:
    if state.is_over:
        return f"{state.winner} wins" if state.winner else "Draw"
    return f"{state.to_move} to move"


@login_required
@require_safe
def analysis_board(request: HttpRequest) -> HttpResponse:
    """The board at a step of a line: the full page, or for htmx its ``#analysis`` with the address moved on."""
    get = request.GET
    position = get.get("position", "").strip()
    try:
        start = _start(get.get("variant", "").strip(), position)
    except PositionError as err:
        context = _board_context(_variant_start("classic"), "", None, None)
        context.update(error=f"Not a position this board can show: {message(err)}", pasted=position[:1000])
        return render(request, "games/analysis.html", context, status=400)
    context = _board_context(start, get.get("moves", ""), get.get("at"), get.get("move"))
    status = 400 if context["error"] else 200
    if request.htmx:
        response = render(request, "games/analysis.html#analysis", context, status=status)
        return push_url(response, context["url"]) if status == 200 else response
    return render(request, "games/analysis.html", context, status=status)


def _best_words(state: State, found: dict[str, Any]) -> dict[str, str]:
    move, outcome = found.get("move"), found.get("outcome")
    if move is None:
        return {"text": "The game is over in this position."}
    words = f"Best move for {state.to_move}: {state.variant.cell_name(move)}."
    if outcome:
        words += f" With best play from both sides: {outcome_words(outcome, state.to_move)}."
    elif found.get("x_chance") is not None:  # a search's estimate (the same code as a game's analysis)
        words += f" X's chance to win: {round(100 * float(found['x_chance']))}%."
    return {"text": words, "name": state.variant.cell_name(move), "move": move}


def _best(request: HttpRequest, position: str, found: dict[str, Any] | None, task: str | None) -> HttpResponse:
    context = {"position": position, "task": task or "", "pending": found is None}
    if found is not None:
        context.update(_best_words(parse_position(position), found))
    return render(request, "games/analysis.html#best", context)


def _refused(request: HttpRequest, err: GameError) -> HttpResponse:
    response = render(request, "games/analysis.html#best", {"error": message(err)}, status=http_error(err).status)
    if getattr(err, "retry_after", None):
        response["Retry-After"] = str(err.retry_after)
    return response


@login_required
@require_POST
def analysis_best(request: HttpRequest) -> HttpResponse:
    """The computer's best move and evaluation of ``position``: at once where it is quick, else a worker works it
    out and the answer asks again (``analysis_best_result``) until it is there."""
    position = request.POST.get("position", "").strip()
    try:
        found, task = position_evaluation(position=position, player=request.user)
    except GameError as err:
        return _refused(request, err)
    return _best(request, position, found, task)


@login_required
@require_safe
def analysis_best_result(request: HttpRequest) -> HttpResponse:
    """A worker's answer for ``position`` (task ``task``): the words, or the same "working on it" again."""
    position, task = request.GET.get("position", "").strip(), request.GET.get("task", "")
    try:
        found = evaluation_result(task_id=task, position=position)
    except GameError as err:
        return _refused(request, err)
    return _best(request, position, found, task)


@login_required
@require_POST
def analysis_play(request: HttpRequest) -> HttpResponse:
    """A new game against the computer (``level``) from ``position``, the player on ``side`` (default: to move)."""
    position = request.POST.get("position", "").strip()
    try:
        game = game_from_position_string(
            player=request.user, position=position, level=request.POST.get("level", ""),
            side=request.POST.get("side") or None,
        )
    except GameError as err:
        try:
            context = _board_context(parse_position(position), "", None, None)
        except PositionError:
            context = _board_context(_variant_start("classic"), "", None, None)
        context["error"] = message(err)
        return render(request, "games/analysis.html", context, status=http_error(err).status)
    return go_to(request, game)
