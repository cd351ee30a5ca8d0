"""My games: the player's own games with their filters; the live parts' polls (the table, the home page's lobby,
the navigation's badges)."""

from __future__ import annotations

import hashlib

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django_htmx.http import trigger_client_event

from ...pov import game_row
from ...selectors import RESULT_FILTERS, count_waiting, game_history, my_games_mark
from ..forms import HistoryFilterForm
from ..presenters.lobby import lobby_live_context
from ..responses import parse_count

HISTORY_PAGE_SIZE = 20

#: what a filter that is not one of the choices is called, and what is shown instead
FILTER_WORDS = {"variant": ("variant", "every variant is shown"), "result": ("result filter", "any result is shown")}


@login_required
@require_safe
def history(request: HttpRequest) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    variant = result = None
    problems = []
    if form.is_bound:
        form.is_valid()
        # a filter that is not one of the choices (an old or hand-typed link) is named and left out; the others hold
        variant = form.cleaned_data.get("variant") or None
        result = form.cleaned_data.get("result") or None
        problems = [
            f"There is no {FILTER_WORDS[name][0]} called “{form.data.get(name, '')[:40]}”, so {FILTER_WORDS[name][1]}."
            for name in form.errors
        ]
    paginator = Paginator(game_history(request.user, variant=variant, result=result), HISTORY_PAGE_SIZE)
    page_text = request.GET.get("page")
    asked = 1 if page_text is None else parse_count(page_text)
    page = paginator.get_page(1 if asked is None else asked)  # the nearest page to what was asked
    # A typed or old link is told; the list refreshing itself (htmx) after games went away just shows the nearest.
    if asked != page.number and not request.htmx:
        problems.append(
            f"There is no page {asked} (pages 1 to {paginator.num_pages}), so page {page.number} is shown."
            if asked is not None else f"“{page_text[:20]}” is not a page number, so page {page.number} is shown."
        )
    version = hashlib.sha256(repr(my_games_mark(request.user)).encode()).hexdigest()[:16]
    if request.htmx and request.GET.get("v") == version and not problems:
        return HttpResponse(status=204)  # the table's own poll: none of the player's running games changed
    rows = [game_row(game, request.user) for game in page.object_list]
    query = "&".join(f"{k}={v}" for k, v in (("variant", variant), ("result", result)) if v)
    context = {"form": form, "page": page, "rows": rows, "query": query, "result_filters": RESULT_FILTERS,
               "filter_error": " ".join(problems), "history_version": version}
    status = 400 if problems else 200
    if request.htmx:
        return render(request, "games/history.html#history", context, status=status)
    return render(request, "games/history.html", context, status=status)


@login_required
@require_safe
def my_turn(request: HttpRequest) -> HttpResponse:
    """The navigation's badges for their poll: 204 while ``n`` is still the number of games waiting for this
    player's move and ``c`` the number of challenges sent to them, else the badges. Opened as a page: the history's
    "Your turn" list."""
    if not request.htmx:
        return redirect(f"{reverse('games:history')}?result=your_turn")
    waiting = count_waiting(request.user)
    if request.GET.get("n") == str(waiting.moves) and request.GET.get("c") == str(waiting.challenges):
        return HttpResponse(status=204)
    return render(request, "base.html#my_turn", {"waiting": waiting})


@login_required
@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """The home page's lobby lists for its poll: 204 while ``v`` is still their version, else the lists."""
    if not request.htmx:
        return redirect("home")
    context = lobby_live_context(request)
    if request.GET.get("v") == context["lobby_version"]:
        return HttpResponse(status=204)
    # A challenge accepted, a game moved on: the badge of games waiting for this player asks again.
    return trigger_client_event(render(request, "games/home.html#lobby_live", context), "my-turn")
