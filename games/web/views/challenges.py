"""Challenges between players: accepting one (then to its page), cancelling one's own, declining one sent by name."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from ...errors import GameError
from ...services import challenge_accept, challenge_cancel, challenge_decline
from ..responses import game_action, go_to, load_game, refused


@login_required
@require_POST
def challenge_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, challenge_accept, then=go_to)


@login_required
@require_POST
def challenge_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _challenge_gone(request, pk, challenge_cancel, "cancelled")


@login_required
@require_POST
def challenge_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _challenge_gone(request, pk, challenge_decline, "declined")


def _challenge_gone(request: HttpRequest, pk: int, action: Callable[..., None], done: str) -> HttpResponse:
    """Cancel or decline a challenge (``action``), then back to the lobby (the home page), saying so."""
    game = load_game(request, pk)
    try:
        action(game=game, player=request.user)
    except GameError as err:
        return refused(request, game, err)
    messages.success(request, f"Challenge #{pk} {done}.")
    url = reverse("home")
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
