"""Help in a game without another person: taking the latest move back, and a hint (a suggested move)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ...errors import GameError
from ...models import Game
from ...positions import fresh_position, game_position
from ...services import move_hint, move_takeback
from ..responses import game_action, load_game, refused, render_play


@login_required
@require_POST
def game_hint_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The game with a suggested move highlighted (the hard level's choice); the page, not a redirect."""
    game = load_game(request, pk)
    try:
        game, move = move_hint(game=game, player=request.user)
    except GameError as err:
        return refused(request, game, err)
    # a slow hint is worked out by a worker: the page says so, and shows it when it is stored
    return render_play(request, fresh_position(game), hint=move, hint_pending=move is None)


def _taken_back(request: HttpRequest, game: Game) -> HttpResponse:
    if request.htmx:
        return render_play(request, game_position(game), said="Your last move was taken back.")
    return redirect("games:detail", pk=game.pk)


@login_required
@require_POST
def game_takeback_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, move_takeback, then=_taken_back)
