"""URL map of the site: accounts, players, games, admin, the API and a health check."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.api import api
from config.views import healthz, readyz
from games.web.responses import people_only
from games.web.views import analysis as game_analysis
from games.web.views import home as game_home
from games.web.views import pages as game_pages
from games.web.views import puzzles as game_puzzles
from players import views as player_views

urlpatterns = [
    path("games/", include("games.web.urls")),  # first: its moves and polls are most of the requests
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", player_views.signup, name="signup"),
    path("accounts/profile/", player_views.my_profile, name="my_profile"),
    # Before Django's own auth URLs: a logout link typed or bookmarked asks to confirm instead of a blank 405.
    path("accounts/logout/", player_views.LogoutView.as_view(), name="logout"),
    # Before Django's own auth URLs too: the same views, answering 400 when a form comes back with errors.
    path("accounts/login/", player_views.LoginView.as_view(), name="login"),
    path("accounts/password_change/", player_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_reset/", player_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        player_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(
            extra_context={"interval_minutes": int(settings.PASSWORD_RESET_INTERVAL.total_seconds() // 60)}
        ),
        name="password_reset_done",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("leaderboard/", game_pages.leaderboard_view, name="leaderboard"),
    path("rules/", game_pages.rules_view, name="rules"),
    path("analysis/", game_analysis.analysis_board, name="analysis"),
    path("analysis/best/", game_analysis.analysis_best, name="analysis_best"),
    path("analysis/best/result/", game_analysis.analysis_best_result, name="analysis_best_result"),
    path("analysis/play/", people_only(game_analysis.analysis_play), name="analysis_play"),  # bots: the API
    path("puzzles/", game_puzzles.puzzles_home, name="puzzles"),
    path("puzzles/next/", game_puzzles.puzzle_next_view, name="puzzle_next"),
    path("puzzles/<int:pk>/", game_puzzles.puzzle_page, name="puzzle"),
    path("puzzles/<int:pk>/move/", game_puzzles.puzzle_move_view, name="puzzle_move"),
    path("puzzles/<int:pk>/hint/", game_puzzles.puzzle_hint_view, name="puzzle_hint"),
    path("players/", include("players.urls")),
    path("api/", api.urls),
    path("", game_home.home, name="home"),
]

handler400 = "config.views.bad_request"
handler404 = "config.views.page_not_found"
handler403 = "config.views.permission_denied"
handler500 = "config.views.server_error"
