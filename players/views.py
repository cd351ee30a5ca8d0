"""Sign-up and profile pages; log in/out and password change are Django's own views."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from .forms import SignupForm
from .models import Player


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("games:history")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            player = form.save()
            login(request, player, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {player.username}! Start a game below.")
            if next_url and url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
                return redirect(next_url)
            return redirect("games:new")
    else:
        form = SignupForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return redirect("profile", username=request.user.get_username())


@login_required
def profile(request: HttpRequest, username: str) -> HttpResponse:
    from games.selectors import player_stats  # the games app builds on players, not the reverse

    player = get_object_or_404(Player, username=username, is_active=True)
    rows = player_stats(player)
    totals = {key: sum(row[key] for row in rows) for key in ("played", "won", "lost", "drawn")}
    return render(
        request,
        "players/profile.html",
        {"player": player, "rows": rows, "totals": totals, "is_me": player == request.user},
    )
