"""Between two players: draw offers, rematch offers, claiming the win from an opponent who stopped playing; and
Play again (one more game with the same settings) for a game without another player."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from ...errors import GameError
from ...services import (
    draw_accept,
    draw_decline,
    draw_offer,
    game_again,
    game_claim_win,
    rematch_accept,
    rematch_decline,
    rematch_offer,
)
from ..responses import after_action, game_action, go_to, in_place, load_game, refused


@login_required
@require_POST
def draw_offer_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, draw_offer)


@login_required
@require_POST
def draw_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, draw_accept)


@login_required
@require_POST
def draw_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, draw_decline)


@login_required
@require_POST
def rematch_offer_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Offer a rematch; when the other player had offered one too, it starts and both go to it."""
    game = load_game(request, pk)
    try:
        new = rematch_offer(game=game, player=request.user)
    except GameError as err:
        return refused(request, game, err)
    return go_to(request, new) if new is not None else after_action(request, load_game(request, pk))


@login_required
@require_POST
def rematch_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, rematch_accept, then=go_to)


@login_required
@require_POST
def rematch_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, rematch_decline)


@login_required
@require_POST
def game_claim_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, game_claim_win)


@login_required
@require_POST
def game_again_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, game_again, then=in_place)
