"""Quick pairing on the home page: seek a game, the waiting panel's ping, cancel, play someone's seek.

The panel (``games/seeks.html#quick_pairing``) swaps itself: the form's answer is the waiting panel, which asks
every couple of seconds (and at once when the page hears "me changed" by server push) until the seek is paired;
then htmx is sent to the game (HX-Redirect). Without JavaScript each answer is a redirect: to the game once
paired, else back to the home page, which shows the panel as it stands.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from players.services import remember_pairing_board

from ...edge.http_errors import http_error
from ...errors import GameError, InvalidGameSettings, NotYourSeek, SeekNotFound, SeekTaken
from ...models import Seek
from ...services import seek_accept, seek_cancel, seek_create, seek_ping
from ..forms import SeekForm
from ..presenters.home import PAIRING_BOARDS
from ..presenters.seeks import quick_pairing_context
from ..responses import message

PANEL = "games/seeks.html#quick_pairing"


def _to(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _to_game(request: HttpRequest, game_id: int) -> HttpResponse:
    return _to(request, reverse("games:detail", args=[game_id]))


def _panel(request: HttpRequest, *, status: int = 200, **context) -> HttpResponse:
    """The panel for htmx (a refusal swapped in place of it all the same). Without htmx: a refusal is the quick
    pairing page with the panel saying why (and the status); anything else goes back to My games."""
    if request.htmx:
        response = render(request, PANEL, quick_pairing_context(request.user, **context), status=status)
        return reswap(retarget(response, "#quick-pairing"), "outerHTML") if status >= 400 else response
    if status >= 400:
        return render(request, "games/seeks.html", quick_pairing_context(request.user, **context), status=status)
    if context.get("note"):
        messages.info(request, context["note"])
    return redirect("home")


@login_required
@require_safe
def seek_page(request: HttpRequest) -> HttpResponse:
    """Quick pairing on a page of its own (the lobby on My games has the same panel)."""
    return render(request, "games/seeks.html", quick_pairing_context(request.user))


@login_required
@require_POST
def seek_create_view(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST, auto_id="seek_%s")
    if form.is_valid():
        data = form.cleaned_data
        try:
            seek = seek_create(
                player=request.user,
                variant=data["variant"],
                options=data["options"],
                clock=data["clock"],
                rated=data["rated"],
            )
        except InvalidGameSettings as err:
            form.add_error(None, message(err))
        else:
            if request.POST.get("board") in PAIRING_BOARDS:  # a tile: its board comes first on the home page next time
                remember_pairing_board(player=request.user, board=request.POST["board"])
            if seek.game_id is not None:
                return _to_game(request, seek.game_id)
            return _panel(request, seek=seek)
    return _panel(request, form=form, status=400)


@login_required
@require_safe
def seek_ping_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The waiting panel's ask: still waiting (the panel again, its window wider), or off to the game."""
    try:
        seek = seek_ping(seek_id=pk, player=request.user)
    except SeekNotFound:
        return _panel(request, form=SeekForm(auto_id="seek_%s"), note="Your seek has expired or was cancelled.")
    except NotYourSeek as err:
        return HttpResponse(message(err), status=http_error(err).status, content_type="text/plain")
    if seek.game_id is not None:
        return _to_game(request, seek.game_id)
    return _panel(request, seek=seek)


@login_required
@require_POST
def seek_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        seek_cancel(seek_id=pk, player=request.user)
    except SeekTaken:  # paired meanwhile: the game is on
        game_id = Seek.objects.filter(pk=pk).values_list("game_id", flat=True).first()
        if game_id:
            return _to_game(request, game_id)
    except SeekNotFound:
        pass  # gone already: as good as cancelled
    except NotYourSeek as err:
        return HttpResponse(message(err), status=http_error(err).status, content_type="text/plain")
    return _panel(request, form=SeekForm(auto_id="seek_%s"), note="Seek cancelled.")


@login_required
@require_POST
def seek_play_view(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Play" on someone's seek in the lobby: the game at once, or back to the lobby saying why not."""
    try:
        game = seek_accept(seek_id=pk, player=request.user)
    except GameError as err:
        return _panel(request, status=http_error(err).status, note=message(err))
    return _to_game(request, game.pk)
