"""URL map of the site: accounts, players, games, admin, the API and a health check."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from config.views import healthz
from games.api import api
from players import views as player_views

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", player_views.signup, name="signup"),
    path("accounts/profile/", player_views.my_profile, name="my_profile"),
    # Before Django's own auth URLs: a logout link typed or bookmarked asks to confirm instead of a blank 405.
    path("accounts/logout/", player_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("players/", include("players.urls")),
    path("games/", include("games.urls")),
    path("api/", api.urls),
    path("", RedirectView.as_view(pattern_name="games:history", permanent=False), name="home"),
]

handler404 = "config.views.page_not_found"
handler403 = "config.views.permission_denied"
