"""Home for a signed-in player (``/``): quick pairing's tiles and the lobby; a visitor is sent to the front door."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from ..presenters.home import PAIRING_BOARDS
from ..presenters.lobby import lobby_context
from ..presenters.seeks import quick_pairing_context

PANEL = "games/seeks.html#quick_pairing"


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The tiles of the board asked for (``?board=``, the picker: for htmx only the panel), the lobby under them. A
    visitor goes to the login page, whose welcome says what the site is."""
    if not request.user.is_authenticated:
        return redirect("login")
    board = request.GET.get("board")
    note, status = "", 200
    if board is not None and board not in PAIRING_BOARDS:  # an old or hand-typed link: named, and the default shown
        note, status, board = f"There is no board called “{board[:40]}” to pair on: choose one above.", 400, None
    if request.htmx:
        return render(request, PANEL, quick_pairing_context(request.user, board=board, note=note), status=status)
    return render(request, "games/home.html", lobby_context(request, board=board, note=note), status=status)
