"""How the game pages answer: the game loaded for its viewer, the page or its ``#play`` partial, refusals.

An htmx request gets the partial it swaps (``games/game.html#play``); a plain request gets the full page or a
redirect, so that everything works without JavaScript. A refused request answers with the status of
``games.edge.http_errors`` and the message: for htmx it is retargeted into the page's ``#game-error`` element,
without htmx the whole page is shown with the message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect, push_url, reswap, retarget, trigger_client_event

from ..edge.http_errors import http_error
from ..errors import ChallengeGone, GameError, GameNotFound, InvalidMove
from ..models import Game
from ..positions import Position, fresh_position, game_position
from ..pov import game_view
from ..selectors import game_for_viewer
from ..services import settled
from ..services.bots import check_person
from .presenters.play import play_context

Action = Callable[..., Game]


def load_game(request: HttpRequest, pk: int) -> Game:
    """The game if the signed-in player may see it; 404 otherwise (no hint that it exists). A game whose clock says
    it is over (a flag fell, a first move not made in time) is ended first (``services.settled``)."""
    try:
        return settled(game_for_viewer(pk, request.user))
    except GameNotFound:
        raise Http404("No such game.") from None


def message(err: Exception) -> str:
    text = str(err)
    return text[:1].upper() + text[1:]


def parse_move(raw: str | None) -> int:
    raw = (raw or "").strip()
    # ASCII digits only (int() also reads '٣'), as the API does; the engine says when it is out of range
    if not re.fullmatch(r"-?[0-9]{1,18}", raw):
        shown = raw[:20] or "nothing"
        raise InvalidMove(f"a move must be a cell number, not {shown!r}" if raw else "no move was sent")
    return int(raw)


def parse_count(raw: str) -> int | None:
    """A whole number typed in ASCII digits (``ply``), else None: ``isdigit`` also passes '²', which int() refuses."""
    raw = raw.strip()
    return int(raw) if re.fullmatch(r"[0-9]{1,18}", raw) else None


def render_play(
    request: HttpRequest, position: Position, *, error: str = "", status: int = 200, hint: int | None = None,
    new_page: bool = False, said: str = "", hint_pending: bool = False,
) -> HttpResponse:
    """The game page, or for htmx its ``#play`` (with the players and the announcement out of band); ``new_page``:
    that #play replaces another game's (Play again), so it brings the page title too; ``said``: what the
    announcement says was done, when that was not a move; ``hint_pending``: a worker is working out the hint just
    asked for (the page says so and listens for it)."""
    view = game_view(position, request.user, hint=hint)
    context = play_context(
        request, view, error=error, said=said, oob=bool(request.htmx), new_page=new_page, hint_pending=hint_pending
    )
    template = "games/game.html#play" if request.htmx else "games/game.html"
    response = render(request, template, context, status=status)
    # The page drops a late answer older than what it already shows (a poll racing a move); versions are compared
    # within one game only (X-Game).
    response["X-Game"] = str(position.game.pk)
    response["X-Game-Version"] = str(position.game.version)
    if request.htmx and position.game.is_two_players:
        # A move, a resignation, a poll that brought the opponent's move: the badge of games waiting for this
        # player's move asks again (not for games against the computer, which it does not count).
        trigger_client_event(response, "my-turn")
    return response


def refused(request: HttpRequest, game: Game | int, err: GameError) -> HttpResponse:
    """A 4xx that the page shows: retargeted into #game-error for htmx, the full page otherwise.

    ``game`` may be the game's id (the move views lock the row themselves): it is loaded here only for the
    full page.
    """
    if isinstance(err, (ChallengeGone, GameNotFound)):
        raise Http404(message(err))
    status = http_error(err).status
    if request.htmx:
        response = render(request, "games/game.html#error", {"error": message(err)}, status=status)
        response = reswap(retarget(response, "#game-error"), "innerHTML")
    else:
        if isinstance(game, int):
            game = load_game(request, game)
        response = render_play(request, game_position(game), error=message(err), status=status)
    retry_after = getattr(err, "retry_after", None)  # Busy: when to ask again
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def after_action(request: HttpRequest, game: Game) -> HttpResponse:
    """The game as it now stands: its #play for htmx, a redirect to its page otherwise."""
    if request.htmx:
        return render_play(request, game_position(game))
    return redirect("games:detail", pk=game.pk)


def go_to(request: HttpRequest, game: Game) -> HttpResponse:
    """Open another game's page (a rematch): a client-side redirect for htmx, a 302 otherwise."""
    url = reverse("games:detail", args=[game.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def in_place(request: HttpRequest, game: Game) -> HttpResponse:
    """Open a new game of the same settings (Play again) where the finished one was: for htmx its #play, with the
    address bar moved to it (HX-Push-Url), one round trip and no page load; a 302 otherwise. The rest of the page
    (the variant's heading) is the same for the same settings."""
    if not request.htmx:
        return redirect("games:detail", pk=game.pk)
    return push_url(render_play(request, fresh_position(game), new_page=True), reverse("games:detail", args=[game.pk]))


def game_action(
    request: HttpRequest, pk: int, action: Action,
    then: Callable[[HttpRequest, Game], HttpResponse] = after_action,
) -> HttpResponse:
    """Run a service ``action(game=..., player=...)`` on this game; ``then`` answers with the game it returns (by
    default: the game as it now stands)."""
    game = load_game(request, pk)
    try:
        game = action(game=game, player=request.user)
    except GameError as err:
        return refused(request, game, err)
    return then(request, game)


def people_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page's action (a POST) that only people take: a bot account is refused with 403 ``bot_refused`` (bots play
    through the bot API, docs/bots.md); reading the pages stays open to it."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method == "POST":
            try:
                check_person(request.user, "play through the web pages")
            except GameError as err:
                if request.htmx:
                    response = render(request, "games/game.html#error", {"error": message(err)}, status=403)
                    return reswap(retarget(response, "#game-error"), "innerHTML")
                return render(request, "403.html", {"message": message(err)}, status=403)
        return view(request, *args, **kwargs)

    return wrapped
