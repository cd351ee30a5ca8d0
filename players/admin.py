"""Admin for players: Django's user admin with search, filters and (de)activate actions."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from .models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "games", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined", "last_login")
    search_fields = ("username", "email", "first_name", "last_name")
    ordering = ("username",)
    actions = ["deactivate", "activate"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).annotate(_games=Count("games_created", distinct=True))

    @admin.display(description="Games started", ordering="_games")
    def games(self, player: Player) -> int:
        return getattr(player, "_games", 0)

    @admin.action(description="Deactivate the selected players (they can no longer log in)")
    def deactivate(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        queryset = queryset.exclude(pk=request.user.pk)
        count = queryset.update(is_active=False)
        self.message_user(request, f"Deactivated {count} player(s).", messages.SUCCESS)

    @admin.action(description="Activate the selected players")
    def activate(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        count = queryset.update(is_active=True)
        self.message_user(request, f"Activated {count} player(s).", messages.SUCCESS)
