"""Arena tournaments' pages: the lists with the form to make one, an arena's page and its live part, joining,
withdrawing, the ping that keeps a player paired (and takes them to their next game), Berserk on the game page.

The arena page's live part (``games/arena.html#arena_live``: the countdown, the player's own row and game, the
standings, the podium) asks again when the page hears ``event: arena`` by server push (``/games/live/?arena=<id>``),
when its countdown ends, and now and then while the push is down. A joined player's page pings every few seconds
(``arena_ping_view``), which keeps them paired, and moves the page to their game as soon as they are paired.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from ...edge.http_errors import http_error
from ...errors import ArenaNotFound, GameError
from ...services import arena_berserk, arena_create, arena_join, arena_ping, arena_withdraw
from ...standings import arena_by_id, arena_lists, entry_of
from ..arena_forms import ArenaForm, JoinForm
from ..presenters.arenas import arena_context, arena_lists_context
from ..responses import game_action, message, parse_count


def _arena(pk: int):
    try:
        return arena_by_id(pk)
    except ArenaNotFound:
        raise Http404("No such arena.") from None


def _page(request: HttpRequest) -> int:
    return parse_count(request.GET.get("page", "1")) or 1


def _list(request: HttpRequest, form: ArenaForm, status: int = 200) -> HttpResponse:
    now = timezone.now()
    context = {**arena_lists_context(arena_lists(now=now), now), "form": form}
    return render(request, "games/arenas.html", context, status=status)


@login_required
@require_safe
def arena_list(request: HttpRequest) -> HttpResponse:
    return _list(request, ArenaForm(auto_id="arena_%s"))


@login_required
@require_POST
def arena_create_view(request: HttpRequest) -> HttpResponse:
    form = ArenaForm(request.POST, auto_id="arena_%s")
    if form.is_valid():
        data = form.cleaned_data
        try:
            arena = arena_create(
                player=request.user, variant=data["variant"], options=data["options"], clock=data["clock"],
                minutes=data["minutes"], starts_in=data["starts_in"], rated=data["rated"], name=data["name"],
                password=data["password"], berserk=data["berserk"],
            )
        except GameError as err:
            form.add_error(None, message(err))
        else:
            return redirect("games:arena", pk=arena.pk)
    return _list(request, form, status=400)


@login_required
@require_safe
def arena_page(request: HttpRequest, pk: int) -> HttpResponse:
    arena = _arena(pk)
    mine = arena_ping(arena=arena, player=request.user)
    context = arena_context(arena, request.user, page=_page(request), mine=mine)
    return render(request, "games/arena.html", {**context, "join_form": JoinForm(auto_id="join_%s")})


@login_required
@require_safe
def arena_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The arena page's live part, as it stands now."""
    arena = _arena(pk)
    context = arena_context(arena, request.user, page=_page(request), mine=entry_of(arena, request.user))
    return render(request, "games/arena.html#arena_live", context)


@login_required
@require_safe
def arena_ping_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A joined player's page is still there: they stay paired. If they have a game of the arena other than the
    one the page shows (``?game=``), the page goes to it; 286 (htmx stops asking) once there is nothing to wait for
    (the arena over, the player withdrawn or not in it)."""
    arena = _arena(pk)
    mine = arena_ping(arena=arena, player=request.user)
    shown = parse_count(request.GET.get("game", "")) if request.GET.get("game") else None
    if mine is not None and mine.current_game_id is not None and mine.current_game_id != shown:
        return HttpResponseClientRedirect(reverse("games:detail", args=[mine.current_game_id]))
    if mine is None or mine.withdrawn or arena.status(timezone.now()) == "finished":
        return HttpResponseStopPolling()
    return HttpResponse(status=204)


def _back(request: HttpRequest, pk: int, error: str = "", status: int = 200) -> HttpResponse:
    if not error:
        return redirect("games:arena", pk=pk)
    arena = _arena(pk)
    context = arena_context(arena, request.user, mine=entry_of(arena, request.user))
    return render(request, "games/arena.html", {**context, "join_form": JoinForm(request.POST, auto_id="join_%s"),
                                                "error": error}, status=status)


@login_required
@require_POST
def arena_join_view(request: HttpRequest, pk: int) -> HttpResponse:
    _arena(pk)
    form = JoinForm(request.POST)
    password = form.cleaned_data["password"] if form.is_valid() else ""
    try:
        arena_join(arena=pk, player=request.user, password=password)
    except GameError as err:
        return _back(request, pk, message(err), http_error(err).status)
    return _back(request, pk)


@login_required
@require_POST
def arena_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    _arena(pk)
    try:
        arena_withdraw(arena=pk, player=request.user)
    except GameError as err:
        return _back(request, pk, message(err), http_error(err).status)
    return _back(request, pk)


@login_required
@require_POST
def game_berserk_view(request: HttpRequest, pk: int) -> HttpResponse:
    return game_action(request, pk, arena_berserk)
