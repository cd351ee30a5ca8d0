"""The game page and playing on it: the page, a move, the computer's move, the live poll, resigning."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from ...errors import GameError, GameNotFound, InvalidMove, MoveConflict, NotComputerTurn
from ...positions import fresh_position, game_position
from ...selectors import game_for_viewer, rematch_id
from ...services import ask_computer, game_abort, game_resign, move_play
from ...services.timekeeping import due
from ..responses import game_action, load_game, message, parse_count, parse_move, refused, render_play


@login_required
@require_safe
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return render_play(request, fresh_position(load_game(request, pk)))


@login_required
@require_POST
def game_move(request: HttpRequest, pk: int) -> HttpResponse:
    """One move. The service locks the game row once and checks that this player may see it there.

    A computer that answers in milliseconds replies in this same request (one round trip); a slow one (mcts, deep
    alphabeta) is asked for by the page in a second htmx request, so the player's own move shows at once. Without
    htmx every computer answers here, before the redirect.
    """
    try:
        move = parse_move(request.POST.get("move"))
        # the position the page showed (the board's form sends it): a move from a page left behind is refused
        ply = parse_count(request.POST["ply"]) if "ply" in request.POST else None
        if ply is None and "ply" in request.POST:
            raise InvalidMove(f"the ply (moves played so far) must be a whole number, not {request.POST['ply'][:20]!r}")
    except GameError as err:
        return refused(request, load_game(request, pk), err)  # 404 first for a game not to be seen
    try:
        position = move_play(
            game=pk, player=request.user, move=move, reply=not request.htmx, quick_reply=True, missing_if_hidden=True,
            ply=ply,
        )
    except MoveConflict as err:
        # The page showed an older position (another tab, a double submit): it gets the game as it stands now.
        response = render_play(request, game_position(load_game(request, pk)), error=message(err), status=409)
        return reswap(retarget(response, "#play"), "outerHTML") if request.htmx else response
    except GameError as err:
        return refused(request, pk, err)
    if request.htmx:
        return render_play(request, position)
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_computer_move(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        position = ask_computer(game=pk, player=request.user, missing_if_hidden=True)
    except (NotComputerTurn, MoveConflict):
        # A second trigger for a move already made: show the game as it stands.
        if request.htmx:
            return render_play(request, game_position(load_game(request, pk)))
        return redirect("games:detail", pk=pk)
    except GameError as err:
        return refused(request, pk, err)
    if request.htmx:
        return render_play(request, position)
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_resign_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, game_resign)


@login_required
@require_POST
def game_abort_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, game_abort)


#: what the poll reads: who may see the game, its version, and whether a clock has run out
#: (games.services.timekeeping.due)
POLL_FIELDS = (
    "version", "private", "x_player_id", "o_player_id", "created_by_id", "invitee_id", "status", "ply",
    "clock", "clock_x_ms", "clock_o_ms", "clock_running", "clock_since", "clock_deadline",
)


@login_required
@require_safe
def game_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """The cheap live check: 204 No Content while the game's ``version`` is still ``v``, else ``#play``.

    One indexed query on the game row (after the session and user lookups every signed-in page makes), with only
    the columns that say who may see it; htmx swaps nothing on 204, so a page can ask every second at almost no
    cost. Anything else loads the game through the one loader.
    """
    try:
        row = game_for_viewer(pk, request.user, fields=POLL_FIELDS)
    except GameNotFound:
        # A cancelled challenge, or a game this player may not see: the same answer (no hint). It replaces #play,
        # so that no Accept button is left to press and the page stops asking.
        return reswap(retarget(render(request, "games/game.html#gone", status=404), "#play"), "outerHTML")
    clock_due = due(row, timezone.now()) is not None  # a flag fell (or a first move's grace ran out): it ends now
    if str(row.version) == request.GET.get("v") and not _claim_now_due(request.GET.get("c")) and not clock_due:
        return HttpResponse(status=204)
    if row.is_finished and row.sides_of(request.user) and (rematch := rematch_id(row)) is not None:
        # The opponent accepted this player's rematch offer while the page waited: both go to the new game, as the
        # one who accepted did. (A page opened after the rematch started has its version: no redirect.)
        return HttpResponseClientRedirect(reverse("games:detail", args=[rematch]))
    return render_play(request, fresh_position(load_game(request, pk)))


def _claim_now_due(moment: str | None) -> bool:
    """The page said when its player may claim the win (``c``, epoch seconds): has that time come?"""
    try:
        return moment is not None and float(moment) <= timezone.now().timestamp()
    except ValueError:
        return False  # not a time: as if the page had not asked
