"""Pages around the games: starting a new one, the rules, the leaderboard."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from players.forms import focus_first_error

from ...engine import VARIANTS
from ...errors import InvalidGameSettings, InvalidInvitee
from ...models import Rating
from ...rating import INITIAL_RATING, PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS, PROVISIONAL_GAMES
from ...selectors import LEADERBOARD_SIZE, leaderboard, rated_variants, variant_label
from ...services import computer_opening, game_create
from ..forms import NewGameForm
from ..presenters.ladder import ladder_heads, ladder_rows
from ..responses import message


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = game_create(
                    player=request.user,
                    variant=data["variant"],
                    options=data["options"],
                    opponent=data["opponent"],
                    side=data["side"],
                    strategy=data["strategy"] or None,
                    level=data.get("level") or None,
                    invitee=data["invite"] or None,
                    private=data["private"],
                    clock=data.get("clock") or None,
                )
            except InvalidGameSettings as err:
                form.add_error("invite" if isinstance(err, InvalidInvitee) else None, message(err))
            else:
                computer_opening(game=game)
                return redirect("games:detail", pk=game.pk)
        focus_first_error(form)  # the page opens on what to fix, in view on a phone too
        return render(request, "games/new.html", {"form": form}, status=400)
    initial = {"opponent": "human"} if request.GET.get("opponent") == "human" or request.GET.get("invite") else {}
    if request.GET.get("invite"):
        initial["invite"] = request.GET["invite"][:150]
    return render(request, "games/new.html", {"form": NewGameForm(initial=initial or None)})


@require_safe
def rules_view(request: HttpRequest) -> HttpResponse:
    """How each variant is played, in players' words (RULES.md is the precise reading); open to everyone."""
    context = {
        "variants": [(key, cls.title) for key, cls in VARIANTS.items()],
        "abandon_hours": round(settings.GAME_ABANDON_AFTER.total_seconds() / 3600),
        "initial_rating": round(INITIAL_RATING),
        "pair_games_limit": PAIR_GAMES_LIMIT,
        "pair_window_hours": PAIR_WINDOW_HOURS,
        "ladder_heads": ladder_heads(),
        "ladder": ladder_rows(),
    }
    return render(request, "rules.html", context)


@login_required
@require_safe
def leaderboard_view(request: HttpRequest) -> HttpResponse:
    """The best-rated players of one variant (``?variant=``; by default the first variant with rated games)."""
    rated = rated_variants()
    variant = request.GET.get("variant") or (rated[0] if rated else next(iter(VARIANTS)))
    context: dict[str, Any] = {"tabs": [(key, variant_label(key), key in rated) for key in VARIANTS]}
    if variant not in VARIANTS:
        context.update(variant="", error=f"There is no variant called “{variant[:40]}”: choose one above.")
        return render(request, "games/leaderboard.html", context, status=400)
    rows = leaderboard(variant, LEADERBOARD_SIZE)
    mine = Rating.objects.filter(player=request.user, variant=variant, games__gt=0).first()
    my_rank = None
    if mine is not None and not any(row.player_id == request.user.pk for row in rows):
        my_rank = Rating.objects.filter(
            variant=variant, player__is_active=True, games__gt=0, rating__gt=mine.rating
        ).count() + 1
    context.update(
        variant=variant, label=variant_label(variant), rows=rows, mine=mine, my_rank=my_rank,
        size=LEADERBOARD_SIZE, initial=round(INITIAL_RATING), provisional=PROVISIONAL_GAMES,
    )
    return render(request, "games/leaderboard.html", context)
