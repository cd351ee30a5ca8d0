"""Sign-up and profile pages, API tokens; log in/out, password change and reset are Django's own views,
answering 400 (not Django's 200) when a form comes back with errors, like every other form on the site."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.pov import game_row
from games.rating.glicko2 import PROVISIONAL_DEVIATION
from games.selectors import computer_stats, player_ratings, player_stats, rating_history, recent_games

from .forms import EmailForm, LoginForm, PreferencesForm, SignupForm, ThrottledPasswordResetForm, focus_first_error
from .models import ApiToken, Player
from .services import end_other_sessions

#: tokens one player may hold at once
MAX_TOKENS = 20
#: what a new token's "Expires" choice may say: days, or "" for never
TOKEN_LIFETIMES = {"": None, "30": 30, "90": 90, "365": 365}


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST":
        form, player = SignupForm(request.POST), None
        if form.is_valid():
            form, player = _sign_up(form)
        if player is not None:
            login(request, player, backend="config.auth.PlayerBackend")
            messages.success(request, f"Welcome, {player.username}! Start a game below.")
            if next_url and url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
                return redirect(next_url)
            return redirect("games:new")
        focus_first_error(form)
        return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=400)
    return render(request, "registration/signup.html", {"form": SignupForm(), "next": next_url})


def _sign_up(form: SignupForm) -> tuple[SignupForm, Player | None]:
    """The new account; or None, and the form with its errors, when another sign-up took the name (or one that
    looks the same) between the form's checks and the insert: the database refused it, and the checks, run
    again, say why."""
    try:
        with transaction.atomic():
            return form, form.save()
    except IntegrityError:
        again = SignupForm(form.data)
        if again.is_valid():  # the other account is gone again, or the clash is one the checks do not see
            again.add_error("username", "Another player has just taken this name: choose another.")
        return again, None


class RefusedFormIs400:
    """A form sent back with its errors answers 400: the request changed nothing (Django's auth views say 200)."""

    def form_invalid(self, form: Any) -> HttpResponse:
        focus_first_error(form)
        response = super().form_invalid(form)  # type: ignore[misc]
        response.status_code = 400
        return response


class LoginView(RefusedFormIs400, auth_views.LoginView):
    authentication_form = LoginForm


class PasswordChangeView(RefusedFormIs400, auth_views.PasswordChangeView):
    pass


class PasswordResetView(RefusedFormIs400, auth_views.PasswordResetView):
    form_class = ThrottledPasswordResetForm


class PasswordResetConfirmView(RefusedFormIs400, auth_views.PasswordResetConfirmView):
    """Also 400 for a link that does not work (forged, used or expired): the page says so in words."""

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().dispatch(*args, **kwargs)
        if not self.validlink and response.status_code == 200:
            response.status_code = 400
        return response


class LogoutView(auth_views.LogoutView):
    """Django's logout (POST); a GET, from a typed or bookmarked address, asks to confirm with a button."""

    http_method_names = ["get", "head", "post", "options"]

    def get(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect("login")
        return render(request, "registration/logout_confirm.html")


@login_required
@require_safe
def my_profile(request: HttpRequest) -> HttpResponse:
    return redirect("profile", username=request.user.get_username())


#: the rating history's sparkline: its box in SVG units (the page shows it at this size in pixels)
SPARK_WIDTH, SPARK_HEIGHT, SPARK_PAD = 96, 24, 3


def sparkline(series: list[int]) -> dict[str, Any] | None:
    """An SVG polyline of ``series`` (ratings, oldest first) in a SPARK_WIDTH x SPARK_HEIGHT box, higher up
    for higher ratings, with the figures its label reads out; None under two points."""
    if len(series) < 2:
        return None
    low, high = min(series), max(series)
    step = SPARK_WIDTH / (len(series) - 1)
    inner = SPARK_HEIGHT - 2 * SPARK_PAD

    def y(value: int) -> float:
        return round(SPARK_PAD + inner * (high - value) / (high - low), 1) if high > low else SPARK_HEIGHT / 2

    points = [(round(i * step, 1), y(value)) for i, value in enumerate(series)]
    return {
        "points": " ".join(f"{px},{py}" for px, py in points),
        "end": points[-1],
        "games": len(series) - 1,
        "first": series[0],
        "now": series[-1],
        "low": low,
        "high": high,
    }


def _profile_page(
    request: HttpRequest,
    player: Player,
    *,
    new_token: str = "",
    token_error: str = "",
    email_form: EmailForm | None = None,
    preferences_form: PreferencesForm | None = None,
    status: int = 200,
) -> HttpResponse:
    counts = ("played", "won", "lost", "drawn")
    # Games against other players (rated) and against the computer (with takebacks and hints) apart.
    rows = [row for row in player_stats(player) if row["players"]["played"]]
    ratings = player_ratings(player)  # one per pool played in (board and speed)
    history = rating_history(player) if ratings else {}
    for rating in ratings:
        rating.spark = sparkline(history.get(rating.pool, []))
    computer_rows = computer_stats(player)
    is_me = player == request.user
    context = {
        "player": player,
        "rows": rows,
        "ratings": ratings,
        "totals": {key: sum(row["players"][key] for row in rows) for key in counts},
        "computer_rows": computer_rows,
        "computer_totals": {key: sum(row[key] for row in computer_rows) for key in counts},
        "is_me": is_me,
        # API tokens are the owner's business only; nobody else sees even their names.
        "tokens": list(player.api_tokens.all()) if is_me else [],
        "new_token": new_token,
        "token_error": token_error,
        "max_tokens": MAX_TOKENS,
        "token_lifetimes": [days for days in TOKEN_LIFETIMES if days],
        "spark_box": {"width": SPARK_WIDTH, "height": SPARK_HEIGHT},
        "provisional_deviation": round(PROVISIONAL_DEVIATION),  # a rating this unsure is marked "?"
        "recent": [game_row(game, player) for game in recent_games(player, viewer=request.user)],
        "email_form": (email_form or EmailForm(instance=player)) if is_me else None,
        "preferences_form": (preferences_form or PreferencesForm(instance=player)) if is_me else None,
        "themes": Player.BoardTheme.choices,
    }
    response = render(request, "players/profile.html", context, status=status)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token is shown once: keep it out of caches
    return response


def _active_player(username: str) -> Player:
    try:
        return Player.objects.get(username=username, is_active=True)
    except Player.DoesNotExist:
        raise Http404(f"There is no player called “{username}”.") from None


@login_required
@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    return _profile_page(request, _active_player(username))


def _own_profile(request: HttpRequest, username: str) -> Player:
    """The profile's player, who must be the signed-in player (403 otherwise)."""
    player = _active_player(username)
    if player.pk != request.user.pk:
        raise PermissionDenied("Only the owner of a profile can change it.")
    return player


@login_required
@require_POST
def token_create(request: HttpRequest, username: str) -> HttpResponse:
    """Create an API token; the answer is the profile page showing the token once (no redirect)."""
    player = _own_profile(request, username)
    name = (request.POST.get("name") or "").strip()
    error = ""
    if not name:
        error = "Give the token a name, e.g. the program that will use it."
    elif len(name) > 100:
        error = "A token name can be at most 100 characters long."
    elif request.POST.get("expires_in", "") not in TOKEN_LIFETIMES:
        error = "Choose when the token expires from the list."
    elif player.api_tokens.count() >= MAX_TOKENS:
        error = f"You already have {MAX_TOKENS} tokens; revoke one you no longer use first."
    if error:
        return _profile_page(request, player, token_error=error, status=400)
    days = TOKEN_LIFETIMES[request.POST.get("expires_in", "")]
    expires = timezone.now() + timedelta(days=days) if days else None
    _token, raw = ApiToken.issue(player=player, name=name, expires=expires)
    return _profile_page(request, player, new_token=raw)


@login_required
@require_POST
def token_revoke(request: HttpRequest, username: str, token_id: int) -> HttpResponse:
    player = _own_profile(request, username)
    token = player.api_tokens.filter(pk=token_id).first()
    if token is None:
        raise Http404("No such API token: it may have been revoked already.")
    token.delete()
    messages.success(request, f"Token “{token.name}” ({token.prefix}…) was revoked; it no longer works.")
    return redirect("profile", username=player.get_username())


@login_required
@require_POST
def sessions_end_others(request: HttpRequest, username: str) -> HttpResponse:
    """Log out every other browser or device signed in as this player; this one stays signed in."""
    player = _own_profile(request, username)
    ended = end_other_sessions(player=player, keep=request.session.session_key)
    if ended:
        messages.success(request, f"Logged out {ended} other session{'s' if ended != 1 else ''}.")
    else:
        messages.info(request, "You were not signed in anywhere else.")
    return redirect("profile", username=player.get_username())


@login_required
@require_POST
def email_change(request: HttpRequest, username: str) -> HttpResponse:
    """Set, change or (empty) remove the address that password-reset links go to."""
    player = _own_profile(request, username)
    form = EmailForm(request.POST, instance=player)
    if not form.is_valid():
        player.refresh_from_db(fields=["email"])  # the page shows the stored address, not the rejected one
        return _profile_page(request, player, email_form=form, status=400)
    form.save()
    if player.email:
        messages.success(request, f"Password-reset links will go to {player.email}.")
    else:
        messages.success(request, "Your email address was removed: a forgotten password cannot be reset by email now.")
    return redirect("profile", username=player.get_username())


@login_required
@require_POST
def sound_set(request: HttpRequest, username: str) -> HttpResponse:
    """Turn the game sounds on (``sound=on``) or off (``sound=off``) for this player, in every browser. A script's
    request (``X-Requested-With`` or htmx) gets 204; a plain form goes back to ``next`` (this site's) or the
    profile."""
    player = _own_profile(request, username)
    value = request.POST.get("sound", "")
    if value not in ("on", "off"):
        return HttpResponse("sound must be on or off", status=400, content_type="text/plain; charset=utf-8")
    player.sound = value == "on"
    player.save(update_fields=["sound"])
    if request.headers.get("HX-Request") or request.headers.get("X-Requested-With"):
        return HttpResponse(status=204)
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    if back and safe:
        return redirect(back)
    return redirect("profile", username=player.get_username())


@login_required
@require_POST
def preferences_set(request: HttpRequest, username: str) -> HttpResponse:
    """Save the player's preferences (board colours, move confirmation, premoves); a choice that is not one of the
    form's is sent back with its error (400)."""
    player = _own_profile(request, username)
    form = PreferencesForm(request.POST, instance=player)
    if not form.is_valid():
        player.refresh_from_db()  # the page shows the stored preferences beside the refused form
        return _profile_page(request, player, preferences_form=form, status=400)
    form.save()
    messages.success(request, "Your preferences are saved: they apply in every browser you use.")
    return redirect(f"{reverse('profile', args=[player.get_username()])}#preferences")
