"""Staff's view of arenas and puzzles (imported by ``games.admin``): make an arena through the same service as the
players, list and delete arenas; list puzzles, take them out of the pools (or back), delete them."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from .arena import MAX_MINUTES, MAX_PASSWORD, MIN_MINUTES
from .errors import GameError
from .models import Arena, Puzzle
from .services import arena_create, puzzles_enable
from .services.arenas import check_terms


class ArenaAdminForm(forms.ModelForm):
    """A new arena's terms, checked by the service that makes it (``arena_create``); the password is typed here and
    stored hashed."""

    new_password = forms.CharField(required=False, max_length=MAX_PASSWORD, label="Password",
                                   help_text="Optional: players must give it to join")

    class Meta:
        model = Arena
        fields = ("name", "variant", "options", "clock", "minutes", "starts_at", "rated", "berserk")
        help_texts = {"clock": "real time, M+S (e.g. 3+2)", "minutes": f"{MIN_MINUTES} to {MAX_MINUTES}",
                      "options": 'the variant\'s options, e.g. {"rows": 15, "cols": 15, "k": 5}'}

    def clean(self) -> dict:
        data = super().clean()
        if self.instance.pk is None and not self.errors:
            try:  # the service's own checks, shown on the form rather than after it
                check_terms(variant=data.get("variant"), options=data.get("options") or {}, clock=data.get("clock"))
            except GameError as err:
                raise forms.ValidationError(str(err)) from None
            if not MIN_MINUTES <= (data.get("minutes") or 0) <= MAX_MINUTES:
                self.add_error("minutes", f"An arena lasts {MIN_MINUTES} to {MAX_MINUTES} minutes.")
        return data


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    form = ArenaAdminForm
    list_display = ("id", "name", "pool", "clock", "minutes", "starts_at", "ends_at", "rated", "scheduled", "closed")
    list_filter = ("scheduled", "rated", "variant")
    search_fields = ("name",)
    ordering = ("-starts_at",)

    def get_readonly_fields(self, request: HttpRequest, obj: Arena | None = None) -> tuple[str, ...]:
        # an arena's rules are fixed once it is made: its games were paired under them
        if obj is not None:
            return ("variant", "options", "clock", "minutes", "starts_at", "rated", "berserk", "pool", "ends_at",
                    "created_by", "scheduled", "closed")
        return ()

    def get_form(self, request: HttpRequest, obj: Arena | None = None, change: bool = False, **kwargs):  # noqa: ANN201
        if obj is not None:
            kwargs["fields"] = ("name",)
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Arena, form: forms.ModelForm, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        data = form.cleaned_data
        starts_in = max(0, int((data["starts_at"] - timezone.now()).total_seconds()))
        try:
            made = arena_create(
                player=request.user, variant=data["variant"], options=data.get("options") or {}, clock=data["clock"],
                minutes=data["minutes"], starts_in=starts_in, rated=data["rated"], name=data["name"],
                password=data.get("new_password") or "", berserk=data["berserk"],
            )
        except GameError as err:
            self.message_user(request, f"The arena was not made: {err}.", messages.ERROR)
            return
        obj.pk = made.pk
        obj.refresh_from_db()


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    """Puzzles cut from games: staff list them, take them out of the pools (disable), put them back, delete them."""

    list_display = ("id", "board", "to_move", "moves_to_win", "proof", "rating_points", "plays", "solved", "enabled",
                    "game", "created")
    list_filter = ("enabled", "board", "proof", "moves_to_win")
    search_fields = ("=id", "=game__id")
    list_select_related = ("game",)
    ordering = ("-id",)
    actions = ("disable", "enable")
    raw_id_fields = ("game", "player")

    @admin.display(description="rating", ordering="rating")
    def rating_points(self, puzzle: Puzzle) -> int:
        return round(puzzle.rating)

    @admin.action(description="Take the selected puzzles out of the pools")
    def disable(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        changed = puzzles_enable(puzzle_ids=list(queryset.values_list("pk", flat=True)), enabled=False)
        self.message_user(request, f"{changed} puzzle(s) taken out of the pools.")

    @admin.action(description="Put the selected puzzles back in the pools")
    def enable(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        changed = puzzles_enable(puzzle_ids=list(queryset.values_list("pk", flat=True)), enabled=True)
        self.message_user(request, f"{changed} puzzle(s) put back in the pools.")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # puzzles are cut from games, proven by the engine

    def has_change_permission(self, request: HttpRequest, obj: Puzzle | None = None) -> bool:
        return False  # a puzzle's line is proven: staff disable or delete, they do not edit
