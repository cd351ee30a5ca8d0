"""Admin for games: their moves shown read-only; filters by variant, status and result; ratings to look up. Arenas
and puzzles: ``games.admin_contests``."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from . import admin_contests  # noqa: F401 - arenas and puzzles: registered there
from .errors import GameError
from .models import Game, Move, Opponent, Rating, Seek
from .positions import game_variant
from .services import game_decide


class GameAdminForm(forms.ModelForm):
    """The change form's checks on top of the model's (GameAdmin's fieldsets choose the fields)."""

    def clean(self) -> dict:
        data = super().clean()
        status, was = data.get("status"), self.instance.status
        # A game's state moves forward only: staff may end a game, not reopen a finished one (it would be rated
        # again when it ends again) or turn a game into a challenge (nobody could accept it).
        if status and status != was and status != Game.Status.FINISHED:
            self.add_error("status", f"A game that is {Game.Status(was).label.lower()} cannot become "
                           f"“{Game.Status(status).label.lower()}”: it can only be finished.")
        elif status == Game.Status.FINISHED and was == Game.Status.OPEN:
            self.add_error("status", "A challenge nobody has accepted has no result: delete it instead.")
            return data
        opponent = data.get("opponent", self.instance.opponent)
        if opponent == Opponent.HUMAN and (status or was) != Game.Status.OPEN:
            # a game between two people, once accepted: both seats are someone's (nobody could move for an empty one)
            for seat in ("x_player", "o_player"):
                if seat in data and data[seat] is None:
                    self.add_error(seat, "A game between two players that has started needs a player in each seat.")
        if "result" in self.errors:
            return data
        if status == Game.Status.FINISHED and not data.get("result"):
            self.add_error("result", "A finished game needs a result: X wins, O wins or a draw.")
        elif status and status != Game.Status.FINISHED and data.get("result"):
            self.add_error("result", "Only a finished game has a result: leave it empty, or finish the game.")
        return data


#: what a game is (its variant, options and computer seats): fixed when it is created
RULE_FIELDS = ("variant", "options", "start_board", "opponent", "x_level", "x_strategy", "o_level", "o_strategy")
#: what made a finished game's ratings: fixed once it is over
FINISHED_FIELDS = ("status", "result", "x_player", "o_player")
RATING_FIELDS = ("unrated_reason", "pool")
#: shown in words and whole points (the stored figures are floats: "1662.3108925690603")
SHOWN_FIELDS = ("x_rating", "o_rating", "x_deviation_points", "o_deviation_points", "x_name", "o_name", "kind", "state")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameAdminForm
    list_display = ("id", "variant", "x_seat", "o_seat", "kind", "state", "ply", "created")
    list_display_links = ("id", "variant")
    list_filter = ("variant", "status", "result", "result_reason", "opponent", "private", "created")
    search_fields = ("x_player__username", "o_player__username", "created_by__username")
    # no date_hierarchy: its links are worked out over every game (a Python function per row on SQLite, a
    # second and more at 100,000 games); the "created" filter does the same job
    show_full_result_count = False  # one COUNT over all games less on every filtered page
    list_select_related = ("x_player", "o_player", "created_by")
    # offers and the rematch link are the players' doing, kept by the services: shown, not edited (a hand-made one
    # could name someone outside the game, or the game itself)
    readonly_fields = (
        "ply", "version", "takebacks", "hints", "created", "updated", "finished", "turn_started", "draw_offer_ply",
        *RATING_FIELDS, *SHOWN_FIELDS, "played_on_from", "played_on_ply",
        "rematch_of", "rematch_offered_by", "rematch_declined", "draw_offered_by", "moves_played",
    )
    raw_id_fields = ("x_player", "o_player", "created_by", "invitee")
    fieldsets = (
        (None, {"fields": ("kind", "state", "variant", "options", "start_board", "opponent", "created_by", "private",
                           "played_on_from", "played_on_ply")}),
        ("Challenge, draw offer and rematch", {
            "fields": (
                "invitee", "draw_offered_by", "draw_offer_ply", "rematch_of", "rematch_offered_by", "rematch_declined",
            ),
        }),
        ("Seat X", {"fields": ("x_player", "x_name", "x_level", "x_strategy", "x_rating")}),
        ("Seat O", {"fields": ("o_player", "o_name", "o_level", "o_strategy", "o_rating")}),
        ("Rating", {"fields": ("pool", "unrated_reason", "x_deviation_points", "o_deviation_points")}),
        ("State", {
            "fields": (
                "status", "result", "result_reason", "ply", "takebacks", "hints", "version", "created", "updated",
                "turn_started", "finished",
            ),
        }),
        ("Moves", {"fields": ("moves_played",)}),
    )

    @admin.display(description="Moves")
    def moves_played(self, game: Game) -> str:
        """The stored moves in one line, as the site's move list names them, and the game's replay: a line of
        text rather than an inline of forms, which took most of a second for a 300-move game."""
        moves = list(game.moves.order_by("ply").values_list("move", flat=True)) if game.pk else []
        if not moves:
            return "No moves yet."
        variant = game_variant(game)
        text = " · ".join(
            f"{ply}. {game.mover(ply)} {variant.cell_name(move)}"
            for ply, move in enumerate(moves, start=1)
        )
        return format_html('{} <a href="{}">Replay it on the site</a>', text, reverse("games:replay", args=[game.pk]))

    @admin.display(description="X")
    def x_seat(self, game: Game) -> str:
        return game.seat_label("X")

    @admin.display(description="O")
    def o_seat(self, game: Game) -> str:
        return game.seat_label("O")

    @admin.display(description="kind", ordering="opponent")
    def kind(self, game: Game) -> str:
        """What the game is: read from a record, or who plays whom ("Two players on this screen" was shown for
        imported games, which are stored as games on one screen)."""
        return "Imported" if game.imported else game.get_opponent_display()

    @admin.display(description="state", ordering="status")
    def state(self, game: Game) -> str:
        """The game as it really stands: "Aborted" rather than "Finished" without a result."""
        if game.result_reason == Game.Reason.ABORTED:
            return "Aborted"
        if game.status != Game.Status.FINISHED:
            return Game.Status(game.status).label
        result = "Draw" if game.result == Game.Result.DRAW else f"{game.result} wins" if game.result else "Unfinished"
        return f"Finished: {result}"

    def _rating(self, game: Game, side: str) -> str:
        change = game.rating_change(side)
        if change:
            return f"{change['before']} → {change['after']} ({change['delta_text']})"
        return game.rating_now(side) or "—"

    @admin.display(description="rating")
    def x_rating(self, game: Game) -> str:
        return self._rating(game, "X")

    @admin.display(description="rating")
    def o_rating(self, game: Game) -> str:
        return self._rating(game, "O")

    @admin.display(description="X's deviation")
    def x_deviation_points(self, game: Game) -> str:
        return "—" if game.x_deviation is None else str(round(game.x_deviation))

    @admin.display(description="O's deviation")
    def o_deviation_points(self, game: Game) -> str:
        return "—" if game.o_deviation is None else str(round(game.o_deviation))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("x_player", "o_player", "created_by")

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple[str, ...]:
        # The rules and the computer seats made the stored moves: changing them would leave a game the engine
        # cannot rebuild. Staff may still change who sits, visibility, offers and the state of a running game;
        # a finished game's players and result made its ratings, so they stay as they are.
        fields = (*RULE_FIELDS, *super().get_readonly_fields(request, obj), "result_reason")
        # As stored: a form that failed to finish the game has already set ``obj.status`` when it is shown again.
        if obj is not None and getattr(obj, "stored_status", obj.status) == Game.Status.FINISHED:
            fields += FINISHED_FIELDS
        return fields

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Game | None:
        game = super().get_object(request, object_id, from_field)
        if game is not None:
            game.stored_status = game.status
        return game

    def save_model(self, request: HttpRequest, obj: Game, form: forms.ModelForm, change: bool) -> None:
        # Finishing a game here is a decision of the staff: it ends through the service (finished time, the draw
        # offer dropped, ratings for a game between two players), like a game that ends on the board.
        if change and "status" in form.changed_data and obj.status == Game.Status.FINISHED:
            result = obj.result
            obj.status, obj.result = form.initial["status"], ""
            super().save_model(request, obj, form, change)
            try:
                game_decide(game=obj.pk, result=result)
            except GameError as err:  # a move ended it within this request
                self.message_user(request, f"Game {obj.pk} was not decided: {err}.", messages.ERROR)
                return
            obj.refresh_from_db()  # as the service left it, for the admin's message and log
            return
        super().save_model(request, obj, form, change)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are made by playing (the new-game page, the API), which checks their rules


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "side", "move", "created")
    list_filter = ("side",)
    search_fields = ("=game__id",)  # a game's number, exactly: a LIKE over every move's game id scanned them all
    # newest first by the primary key: Move's own ordering follows Game's, which sorted every move in a join
    ordering = ("-id",)
    show_full_result_count = False
    list_select_related = ("game", "game__x_player", "game__o_player")
    raw_id_fields = ("game",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Ratings follow from the games: staff may look them up and delete one (the player starts again), not edit."""

    list_display = ("player", "pool", "rating_points", "deviation_points", "games", "won", "lost", "drawn", "updated")
    list_filter = ("variant", "pool")
    search_fields = ("player__username",)
    list_select_related = ("player",)
    ordering = ("pool", "-rating")

    @admin.display(description="rating", ordering="rating")
    def rating_points(self, rating: Rating) -> str:
        return rating.display

    @admin.display(description="deviation", ordering="deviation")
    def deviation_points(self, rating: Rating) -> int:
        return round(rating.deviation)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Rating | None = None) -> bool:
        return False


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    """Quick pairing's open seeks (games.services.seeks): staff may look and delete one (the player's page stops
    waiting), not make or edit them. A paired one is kept a few minutes with its game, then the sweep drops it."""

    list_display = ("player", "pool", "clock", "rated", "rating_points", "created", "seen", "game")
    list_filter = ("rated", "pool")
    search_fields = ("player__username",)
    list_select_related = ("player", "game")
    ordering = ("-created",)

    @admin.display(description="rating", ordering="rating")
    def rating_points(self, seek: Seek) -> int:
        return round(seek.rating)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Seek | None = None) -> bool:
        return False

