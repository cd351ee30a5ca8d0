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
from ...rating import PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS
from ...rating.glicko2 import INITIAL_RATING, PROVISIONAL_DEVIATION
from ...rating.pools import LEGACY_SPEED, InvalidPool, Pool, pool_key
from ...selectors import LEADERBOARD_SIZE, leaderboard, rated_pools
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


def chosen_pool(pool: str | None, variant: str | None, rated: list[str]) -> Pool:
    """The pool a leaderboard shows: ``pool`` (a key), else ``variant``'s untimed pool at its default board (the
    links from before pools), else the pool with the most rated players. InvalidPool says what is wrong."""
    if pool:
        return Pool.parse(pool)
    if variant:
        if variant not in VARIANTS:
            raise InvalidPool(f"There is no variant called “{variant[:40]}”: choose a pool above.")
        return Pool.parse(pool_key(variant, {}, LEGACY_SPEED))
    return Pool.parse(rated[0] if rated else pool_key("classic", {}, LEGACY_SPEED))


@login_required
@require_safe
def leaderboard_view(request: HttpRequest) -> HttpResponse:
    """The best-rated players of one pool (``?pool=`` a pool key such as ``nxn-5:untimed``; ``?variant=`` for a
    variant's default board, untimed; by default the pool with the most rated players); ``?bots=1``: its bots."""
    rated = rated_pools()
    context: dict[str, Any] = {"tabs": [(key, Pool.parse(key).label) for key in rated]}
    try:
        pool = chosen_pool(request.GET.get("pool"), request.GET.get("variant"), rated)
    except InvalidPool as err:
        context.update(pool="", error=str(err))
        return render(request, "games/leaderboard.html", context, status=400)
    bots = request.GET.get("bots") == "1"  # people and bots are listed apart (issue 33)
    rows = leaderboard(pool.key, LEADERBOARD_SIZE, bots=bots)
    mine = Rating.objects.filter(player=request.user, pool=pool.key, games__gt=0).first()
    my_rank = None
    if mine is not None and request.user.is_bot == bots and not any(row.player_id == request.user.pk for row in rows):
        my_rank = (
            Rating.objects.filter(
                pool=pool.key, player__is_active=True, player__is_bot=bots, games__gt=0, rating__gt=mine.rating
            ).count()
            + 1
        )
    if pool.key not in rated:
        context["tabs"].append((pool.key, pool.label))
    context.update(
        pool=pool.key,
        label=pool.label,
        bots=bots,
        rows=rows,
        mine=mine,
        my_rank=my_rank,
        size=LEADERBOARD_SIZE,
        initial=round(INITIAL_RATING),
        provisional_deviation=round(PROVISIONAL_DEVIATION),
    )
    return render(request, "games/leaderboard.html", context)
