from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("<str:username>/", views.profile, name="profile"),
    path("<str:username>/email/", views.email_change, name="email_change"),
    path("<str:username>/sound/", views.sound_set, name="sound_set"),
    path("<str:username>/preferences/", views.preferences_set, name="preferences_set"),
    path("<str:username>/tokens/", views.token_create, name="token_create"),
    path("<str:username>/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("<str:username>/sessions/end-others/", views.sessions_end_others, name="sessions_end_others"),
]
