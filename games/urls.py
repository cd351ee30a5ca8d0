"""URLs of the games app (namespace ``games``)."""

from __future__ import annotations

from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.history, name="history"),
    path("new/", views.game_new, name="new"),
    path("lobby/", views.lobby, name="lobby"),
    path("my-turn/", views.my_turn, name="my_turn"),
    path("<int:pk>/", views.game_detail, name="detail"),
    path("<int:pk>/move/", views.game_move, name="move"),
    path("<int:pk>/computer/", views.game_computer_move, name="computer_move"),
    path("<int:pk>/resign/", views.game_resign_view, name="resign"),
    path("<int:pk>/replay/", views.game_replay, name="replay"),
    path("<int:pk>/play-on/", views.game_play_on_view, name="play_on"),
    path("<int:pk>/poll/", views.game_poll, name="poll"),
    path("<int:pk>/accept/", views.challenge_accept_view, name="accept"),
    path("<int:pk>/cancel/", views.challenge_cancel_view, name="cancel"),
    path("<int:pk>/decline/", views.challenge_decline_view, name="decline"),
    path("<int:pk>/claim/", views.game_claim_view, name="claim"),
    path("<int:pk>/takeback/", views.game_takeback_view, name="takeback"),
    path("<int:pk>/again/", views.game_again_view, name="again"),
    path("<int:pk>/hint/", views.game_hint_view, name="hint"),
    path("<int:pk>/draw/", views.draw_offer_view, name="draw"),
    path("<int:pk>/draw/accept/", views.draw_accept_view, name="draw_accept"),
    path("<int:pk>/draw/decline/", views.draw_decline_view, name="draw_decline"),
    path("<int:pk>/rematch/", views.rematch_offer_view, name="rematch"),
    path("<int:pk>/rematch/accept/", views.rematch_accept_view, name="rematch_accept"),
    path("<int:pk>/rematch/decline/", views.rematch_decline_view, name="rematch_decline"),
]
