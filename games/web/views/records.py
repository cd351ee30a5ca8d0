"""Game records (RULES.md "Game records"): one game's record, all of a player's games as one file (My games'
filters applied, streamed), and importing a record as a game."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from ...edge.http_errors import http_error
from ...errors import GameError, InvalidRecord
from ...records import game_record, records_stream
from ...selectors import game_history
from ...services import game_import
from ...services.records import MAX_IMPORT_BYTES, check_size
from ..forms import HistoryFilterForm
from ..responses import load_game, message

TEXT = "text/plain; charset=utf-8"


def _attachment(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_safe
def game_record_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's record as a text file (404 for a game the viewer may not see)."""
    game = load_game(request, pk)
    return _attachment(HttpResponse(game_record(game, site=request.get_host()), content_type=TEXT), f"game-{pk}.txt")


@login_required
@require_safe
def records_download(request: HttpRequest) -> HttpResponse:
    """Every game of My games with its filters (``variant``, ``result``) as one file, streamed a chunk at a time;
    a filter that is not one of the choices is left out, as the list does."""
    form = HistoryFilterForm(request.GET or None)
    variant = result = None
    if form.is_bound:
        form.is_valid()
        variant = form.cleaned_data.get("variant") or None
        result = form.cleaned_data.get("result") or None
    games = game_history(request.user, variant=variant, result=result)
    response = StreamingHttpResponse(records_stream(games, site=request.get_host()), content_type=TEXT)
    name = "-".join(part for part in ("games", variant, result) if part)
    return _attachment(response, f"{name}.txt")


def _typed_record(request: HttpRequest) -> str:
    """The text area's record (field ``record``). A browser also sends the form's file input, empty, under the
    same name, which Django lists as a second, empty ``record`` value after the typed one: the first with text
    counts."""
    return next((text for text in request.POST.getlist("record") if text.strip()), "")


def _posted_record(request: HttpRequest) -> str | bytes:
    """The record sent as a file (field ``record``: its bytes, which the import decodes once it has counted the
    try) or typed into the text area (field ``record``)."""
    upload = request.FILES.get("record")
    if upload is not None and upload.size:
        check_size(upload.size)  # refused before it is read
        return upload.read()
    return _typed_record(request)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def record_import(request: HttpRequest) -> HttpResponse:
    """Paste or upload a record: a good one opens as an imported game in the replay; a bad one is shown again
    with the line, the move and what was wrong (400), too many imports in an hour are 429 with Retry-After."""
    context = {"max_kb": MAX_IMPORT_BYTES // 1024, "record": "", "error": ""}
    if request.method != "POST":
        return render(request, "games/import.html", context)
    try:
        text = _posted_record(request)
        if not text.strip():
            raise InvalidRecord("paste a record or choose a file: nothing was sent")
        game = game_import(player=request.user, text=text)
    except GameError as err:
        typed = _typed_record(request)
        context.update(error=message(err), record=typed if len(typed) <= MAX_IMPORT_BYTES else "")
        response = render(request, "games/import.html", context, status=http_error(err).status)
        if getattr(err, "retry_after", None):
            response["Retry-After"] = str(err.retry_after)
        return response
    return redirect("games:replay", pk=game.pk)
