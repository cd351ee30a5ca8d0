"""Games and their moves. State changes live in ``games.services``; this module only stores them.

A seat (X or O) is either a player (``x_player``), a computer (``x_level`` — easy/medium/hard —
or ``x_strategy`` — a strategy name from the engine registry), or open (none of them; a human
opponent has not joined yet). The position itself is never stored: it is rebuilt by the engine
from the ``Move`` rows; ``ply`` and ``move_list`` on the game are caches the services keep equal to them
(a move request reads the game row only).

Two players (issue 4): a game against ``human`` starts ``open`` with one seat taken; it is a
challenge that anyone may accept, or only ``invitee`` when it was sent to a named player.
``private`` games are seen only by their players (and the invitee); public ones by anyone signed
in. ``version`` counts every change of state (move, accept, resign, rematch offer...), so a page
can ask "anything new since version N?" with one indexed lookup. A rematch is a new game whose
``rematch_of`` is the old one; ``rematch_offered_by`` is the player who proposed it meanwhile.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from ..engine.clock import UNTIMED, Clock, TimeControl
from ..engine.swap2 import FIRST_MOVES, movers
from ..rating import PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS
from ..rating.glicko2 import is_provisional
from ..rating.pools import pool_label

SIDES = ("X", "O")


class Opponent(models.TextChoices):
    EASY = "easy", "Computer (easy)"
    MEDIUM = "medium", "Computer (medium)"
    HARD = "hard", "Computer (hard)"
    LOCAL = "local", "Two players on this screen"
    WATCH = "watch", "Computer against computer (watch)"
    HUMAN = "human", "Another player"


LEVELS = (Opponent.EASY, Opponent.MEDIUM, Opponent.HARD)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for an opponent"
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"

    class Result(models.TextChoices):
        NONE = "", "—"
        X = "X", "X wins"
        O = "O", "O wins"  # noqa: E741 - the side is called O
        DRAW = "draw", "Draw"

    class Reason(models.TextChoices):
        NONE = "", "—"
        LINE = "line", "line completed"
        BOARDS = "boards", "more boards won"
        FULL = "full", "board full"
        RESIGNED = "resigned", "resigned"
        AGREED = "agreed", "draw agreed"
        ABANDONED = "abandoned", "opponent stopped playing"
        DECIDED = "decided", "decided by the staff"
        #: a clock's flag fell: the side whose time ran out loses
        TIME = "time", "time ran out"
        #: ended without a result before each side had made a first move (by a player, or by the sweep)
        ABORTED = "aborted", "aborted"
        #: still running when its arena ended: finished as a draw and counted (games.services.arenas)
        ARENA = "arena", "the arena ended"

    variant = models.CharField(max_length=20, db_index=True)
    #: the variant's options exactly as the engine takes them (``get_variant(variant, **options)``)
    options = models.JSONField(default=dict, blank=True)
    #: multi with ``random_start``: the drawn first board, so the state can be rebuilt
    start_board = models.PositiveSmallIntegerField(null=True, blank=True)
    opponent = models.CharField(max_length=10, choices=Opponent.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games_created"
    )

    x_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="games_as_x"
    )
    x_level = models.CharField(max_length=10, blank=True)
    x_strategy = models.CharField(max_length=30, blank=True)
    o_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="games_as_o"
    )
    o_level = models.CharField(max_length=10, blank=True)
    o_strategy = models.CharField(max_length=30, blank=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    result = models.CharField(max_length=4, choices=Result.choices, blank=True, default="", db_index=True)
    result_reason = models.CharField(max_length=10, choices=Reason.choices, blank=True, default="")
    #: cache kept exact by the services: number of moves played; the side to move follows from it
    ply = models.PositiveIntegerField(default=0)
    #: cache kept exact by the services, in the same UPDATE as ``ply``: the moves in order as comma-separated
    #: cell numbers, so a move request rebuilds the position without reading the Move rows. The Move rows stay
    #: the record (replay, admin, API history); a cache whose length is not ``ply`` is ignored and they are read.
    move_list = models.TextField(blank=True, default="")
    #: a Swap2 game's side to move, kept by the services beside ``ply`` (``note_turn``): there the ply's parity does
    #: not say whose turn it is, and the queries that ask (the "your turn" badge, the games waiting for the
    #: computer) read this; empty for every other game
    turn = models.CharField(max_length=1, blank=True, default="", choices=[("X", "X"), ("O", "O")])
    #: bumped by the services on every change a page shows (moves, accept, resign, rematch offers)
    version = models.PositiveIntegerField(default=0)

    #: seen only by its players (and the invitee of a direct challenge); public games anyone signed in may watch
    private = models.BooleanField(default=False)
    #: a direct challenge: only this player may accept it
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="challenges_received"
    )
    #: the finished game this one is the rematch of (at most one rematch per game)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    #: a finished game's pending rematch offer: who made it
    rematch_offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: the opponent declined ``rematch_offered_by``'s offer: the offerer's page says so and may not ask again
    #: (the one who declined may still offer a rematch themselves)
    rematch_declined = models.BooleanField(default=False)

    # A draw offer between two players: who made the pending one, and the ply of the latest one (a
    # declined offer is not made again before the next move).
    draw_offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    draw_offer_ply = models.PositiveIntegerField(null=True, blank=True)
    #: moves taken back so far (games without another person: against the computer, or on one screen)
    takebacks = models.PositiveIntegerField(default=0)
    #: hints asked for so far (the same games: a hint is the hard level's move, shown on the board)
    hints = models.PositiveIntegerField(default=0)
    #: the latest hint: the move suggested and the ply it was for. While the game is still at that ply it is the
    #: hint (shown again on the page, given again without counting); a move or a takeback leaves it behind.
    hint_move = models.PositiveSmallIntegerField(null=True, blank=True)
    hint_ply = models.PositiveIntegerField(null=True, blank=True)
    #: the rating pool a game between two players counts in (games.rating.pools.pool_for_game: board and speed, e.g.
    #: ``nxn-7:untimed``); set when the game is created, written again when it starts and when it is rated
    pool = models.CharField(max_length=40, blank=True, default="")
    #: a game between two players (games.rating): each seat's rating in the pool before it (noted when it
    #: starts, written again from the ratings it is rated from when it ends) and after it (a rated game)
    x_rating_before = models.FloatField(null=True, blank=True)
    x_rating_after = models.FloatField(null=True, blank=True)
    o_rating_before = models.FloatField(null=True, blank=True)
    o_rating_after = models.FloatField(null=True, blank=True)
    #: each seat's Glicko-2 deviation of the rating shown: as the game started, then after it once rated (a "?"
    #: is shown beside a rating whose deviation is high: games.rating.is_provisional)
    x_deviation = models.FloatField(null=True, blank=True)
    o_deviation = models.FloatField(null=True, blank=True)
    #: "Play on from here": the finished game this one started from, and after how many of its moves (the
    #: first ``played_on_ply`` moves here are that game's: they are not taken back)
    played_on_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    played_on_ply = models.PositiveIntegerField(null=True, blank=True)
    #: why a game between two players is not rated: too short, the pair's daily limit, or casual (quick pairing's
    #: "casual": set when the game is made, and ``rate_game`` leaves such a game alone)
    unrated_reason = models.CharField(
        max_length=20, blank=True, default="",
        choices=[("pair_limit", "pair limit"), ("too_short", "ended before each player moved"), ("casual", "casual")],
    )
    #: a finished game's analysis once a worker has worked it out (games.services.assists.game_analysis): per move,
    #: the mover's outcome with best play before and after it and the moves that kept it
    analysis = models.JSONField(null=True, blank=True, editable=False)
    #: the task queue's ids (``TaskResult.id``) of the game's latest computer turn (games.services.moves) and of
    #: its latest hint or analysis (games.services.assists): the queue is asked through them whether one is
    #: still to come (games.services.queue.pending)
    computer_task = models.CharField(max_length=64, blank=True, default="", editable=False)
    assist_task = models.CharField(max_length=64, blank=True, default="", editable=False)
    #: game records (issue 23): a game read from a record (games.services.records) is ``imported``: finished, never
    #: rated, owned by the importer, its players named as the record names them (``x_name``/``o_name``, shown by
    #: ``seat_label``), the record's other tags (Date, Site, Termination...) kept in ``record_tags`` to write back
    imported = models.BooleanField(default=False)
    x_name = models.CharField(max_length=150, blank=True, default="")
    o_name = models.CharField(max_length=150, blank=True, default="")
    record_tags = models.JSONField(null=True, blank=True)
    #: a game started from a position (the analysis board): its position string (games.engine.position_string);
    #: the engine state is rebuilt from it and the moves (games.positions.initial_state). Empty: the usual start.
    start_position = models.CharField(max_length=1000, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)
    #: a game between two players: when the side to move got the move (the last move, or the start); the
    #: other player may claim the win once that is GAME_ABANDON_AFTER old (a draw offer does not reset it)
    turn_started = models.DateTimeField(null=True, blank=True)
    #: clocks (games between people; games.engine.clock): the time control as written (``3+2``, ``0.5+0``,
    #: ``3d``), "" for none. The clock itself is what ``games.engine.clock.Clock`` holds: each side's time left (ms)
    #: when the running side's time started at ``clock_since``; nothing runs before both sides' first moves, nor
    #: once the game ends.
    clock = models.CharField(max_length=16, blank=True, default="")
    clock_x_ms = models.PositiveBigIntegerField(null=True, blank=True)
    clock_o_ms = models.PositiveBigIntegerField(null=True, blank=True)
    clock_running = models.CharField(max_length=1, blank=True, default="", choices=[("X", "X"), ("O", "O")])
    clock_since = models.DateTimeField(null=True, blank=True)
    #: a running game with a clock: when the sweep must look at it (the running side's flag falls then, or,
    #: before each side's first move, the grace for that move ends and the game is aborted); else null
    clock_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: a game of an arena tournament (games.models.arena): paired by the arena, counted in its standings
    arena = models.ForeignKey("Arena", null=True, blank=True, on_delete=models.SET_NULL, related_name="games")

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["-created"], name="game_created_idx"),
            # the lobby: open challenges, newest first
            models.Index(fields=["status", "private", "-created"], name="game_lobby_idx"),
            # the lobby's games to watch: running games between two players, latest move first, read backwards
            # (ORDER BY updated DESC, id DESC) and stopping at the tenth public one; without it every running
            # game on the site was read and sorted on each lobby poll
            models.Index(fields=["status", "opponent", "updated", "id"], name="game_live_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(result="") | Q(status="finished"), name="game_result_only_when_finished"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} · {self.variant} · {self.seat_label('X')} vs {self.seat_label('O')} · {self.status}"

    # Clock ----------------------------------------------------------------------------------------------------
    @property
    def time_control(self) -> TimeControl:
        """The game's time control (``UNTIMED`` without a clock)."""
        return TimeControl.parse(self.clock) if self.clock else UNTIMED

    @property
    def game_clock(self) -> Clock | None:
        """Each side's time as stored (``games.engine.clock.Clock``), or None for a game without a clock. A
        challenge not accepted yet has its full time, nothing running."""
        if not self.clock:
            return None
        if self.clock_x_ms is None or self.clock_o_ms is None:
            return Clock.ready(self.time_control)
        running = self.clock_running or None
        since = self.clock_since if running else None
        return Clock(self.time_control, self.clock_x_ms, self.clock_o_ms, running, since)

    def set_clock(self, clock: Clock) -> list[str]:
        """Store ``clock`` on the game (not saved); returns the fields it set."""
        self.clock_x_ms, self.clock_o_ms = clock.x_ms, clock.o_ms
        self.clock_running, self.clock_since = clock.running or "", clock.since
        return ["clock_x_ms", "clock_o_ms", "clock_running", "clock_since"]

    @property
    def current_hint(self) -> int | None:
        """The move the latest hint suggested, if it was for the position the game is in now."""
        return self.hint_move if self.hint_ply is not None and self.hint_ply == self.ply else None

    # Seats ---------------------------------------------------------------------------------
    def seat_player_id(self, side: str) -> int | None:
        return self.x_player_id if side == "X" else self.o_player_id

    def seat_player(self, side: str):  # -> Player | None
        return self.x_player if side == "X" else self.o_player

    def seat_computer(self, side: str) -> tuple[str, str]:
        """(level, strategy) of the seat; both empty for a human or open seat."""
        return (self.x_level, self.x_strategy) if side == "X" else (self.o_level, self.o_strategy)

    def is_computer(self, side: str) -> bool:
        return self.seat_player_id(side) is None and any(self.seat_computer(side))

    def is_open_seat(self, side: str) -> bool:
        return self.seat_player_id(side) is None and not any(self.seat_computer(side)) and not self.imported

    def seat_label(self, side: str) -> str:
        name = self.x_name if side == "X" else self.o_name
        if name:  # an imported game: the player as the record names them
            return name
        player_id = self.seat_player_id(side)
        if player_id is not None:
            player = self.seat_player(side)
            # a bot account is "BOT name" wherever its name is shown (issue 33)
            if player is None:
                return f"player {player_id}"
            return getattr(player, "display_name", None) or player.get_username()
        level, strategy = self.seat_computer(side)
        if strategy:
            return f"Computer ({strategy})"
        if level:
            return f"Computer (level {level})" if level.isdigit() else f"Computer ({level})"
        return "unnamed" if self.imported else "open seat"

    def sides_of(self, player) -> list[str]:
        """The sides ``player`` sits on: [], ["X"], ["O"] or ["X", "O"] (two players on one screen)."""
        pid = getattr(player, "pk", None)
        if pid is None:
            return []
        return [side for side in SIDES if self.seat_player_id(side) == pid]

    @property
    def is_two_players(self) -> bool:
        """Two different people hold the seats (a rematch makes sense)."""
        return (
            self.x_player_id is not None and self.o_player_id is not None and self.x_player_id != self.o_player_id
        )

    def open_side(self) -> str | None:
        """The side waiting for an opponent in an open challenge."""
        for side in SIDES:
            if self.is_open_seat(side):
                return side
        return None

    # State cache -----------------------------------------------------------------------------
    @property
    def start_side(self) -> str:
        """Who moves first: X, or the side to move of ``start_position`` (its third field: ``x`` or ``o``)."""
        fields = self.start_position.split("_", 3)
        return "O" if len(fields) > 2 and fields[2] == "o" else "X"

    @property
    def swap2(self) -> bool:
        """Played with the Swap2 opening (games.engine.swap2): whose move it is follows the opening's choices."""
        return (self.options or {}).get("opening") == "swap2"

    def _swap2_movers(self) -> list[str]:
        """A Swap2 game's seat of each move and, last, the seat to move (from the move-list cache, else the rows)."""
        text = self.move_list
        moves = [int(m) for m in text.split(",")] if text else []
        if len(moves) != self.ply:
            moves = list(Move.objects.filter(game_id=self.pk).order_by("ply").values_list("move", flat=True))
        return movers(moves, self.options["rows"] * self.options["cols"])  # (only m,n,k boards have Swap2)

    def note_turn(self) -> list[str]:
        """A Swap2 game: ``turn`` set to the side to move now (after ``ply`` and ``move_list`` were); the fields set
        (none for another game)."""
        if not self.swap2:
            return []
        self.turn = self.to_move
        return ["turn"]

    @property
    def first_moves(self) -> int:
        """Moves until each side has made one: 2, or 4 after a Swap2 opening's three stones and first choice. Clocks
        start and aborts end there (games.services.timekeeping), and a game shorter than that is not rated."""
        return FIRST_MOVES if self.swap2 else 2

    def mover(self, ply: int) -> str:
        """Who made move number ``ply`` (1 for the first move): the side that starts, then in turn (a Swap2 game:
        as its opening says)."""
        if self.swap2 and ply <= self.ply + 1:
            return self._swap2_movers()[ply - 1]
        first = self.start_side
        return first if ply % 2 == 1 else ("O" if first == "X" else "X")

    @property
    def to_move(self) -> str:
        if self.swap2:
            return self._swap2_movers()[-1]
        first = self.start_side
        return first if self.ply % 2 == 0 else ("O" if first == "X" else "X")

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_aborted(self) -> bool:
        """Ended without a result (games.services.timekeeping.game_abort, or the sweep)."""
        return self.result_reason == self.Reason.ABORTED

    @property
    def is_rated(self) -> bool:
        """Finished and counted in both players' ratings."""
        return self.x_rating_after is not None

    def rating_change(self, side: str) -> dict[str, Any] | None:
        """``before``, ``after``, ``delta`` (whole points), ``delta_text`` ("+16", "−16"), ``provisional`` (the
        rating after it still shows a "?") and ``pool`` / ``pool_label`` for a side of a rated game, else None."""
        before, after = (
            (self.x_rating_before, self.x_rating_after) if side == "X" else (self.o_rating_before, self.o_rating_after)
        )
        if before is None or after is None:
            return None
        delta = round(after) - round(before)
        text = f"+{delta}" if delta >= 0 else f"\N{MINUS SIGN}{-delta}"
        return {
            "before": round(before),
            "after": round(after),
            "delta": delta,
            "delta_text": text,
            "provisional": is_provisional(self.seat_deviation(side)),
            "pool": self.pool,
            "pool_label": self.pool_label,
        }

    def seat_deviation(self, side: str) -> float | None:
        return self.x_deviation if side == "X" else self.o_deviation

    @property
    def pool_label(self) -> str:
        """The game's rating pool in words ("7 x 7, 7 in a row · Untimed"), or "" for a game without one."""
        try:
            return pool_label(self.pool) if self.pool else ""
        except ValueError:
            return self.pool

    def unrated_text(self) -> str:
        """Why this finished game between two players did not count for their ratings, in words ("" otherwise)."""
        if self.unrated_reason == "pair_limit":
            return (
                f"Not rated: these two players had already played {PAIR_GAMES_LIMIT} rated games of this variant "
                f"together in {PAIR_WINDOW_HOURS} hours"
            )
        if self.unrated_reason == "too_short":
            return "Not rated: it ended before each player had moved"
        return ""

    def rating_now(self, side: str) -> str | None:
        """A running game between two players: the seat's rating in the pool when the game started, as shown
        ("1500?" while provisional)."""
        if self.is_finished:
            return None
        before = self.x_rating_before if side == "X" else self.o_rating_before
        if before is None:
            return None
        return f"{round(before)}{'?' if is_provisional(self.seat_deviation(side)) else ''}"

    @property
    def termination(self) -> str:
        """An imported game's Termination tag (how it ended off the board, in the record's words), or ""."""
        return str((self.record_tags or {}).get("Termination", ""))

    def result_text(self) -> str:
        """"X wins", "O wins", "Draw" (with the reason when it is not the obvious one), or ""."""
        if self.result_reason == self.Reason.DECIDED:
            return f"{'Draw' if self.result == self.Result.DRAW else f'{self.result} wins'} (decided by the staff)"
        if self.result == self.Result.DRAW:
            if self.result_reason == self.Reason.ARENA:
                return "Draw (the arena ended)"
            return "Draw (agreed)" if self.result_reason == self.Reason.AGREED else "Draw"
        if self.result in SIDES:
            text = f"{self.result} wins"
            loser = "O" if self.result == "X" else "X"
            if self.result_reason == self.Reason.TIME:
                return f"{text} on time"
            if self.result_reason == self.Reason.RESIGNED:
                text += f" ({loser} resigned)"
            elif self.result_reason == self.Reason.ABANDONED:
                text += f" ({loser} stopped playing)"
            elif self.imported and not self.result_reason and self.termination:
                text += f" ({self.termination})"
            return text
        if self.result_reason == self.Reason.ABORTED:
            return "Game aborted"
        if self.imported and self.is_finished:  # a record whose result is "*": the game stopped unfinished
            return "Unfinished (imported)"
        return ""


class Move(models.Model):
    # No index of its own: the unique (game, ply) index starts with the game and serves every lookup by
    # game; a second index would be one more page written by every move.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    #: 1 for the first move of the game
    ply = models.PositiveIntegerField()
    move = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=1, choices=[("X", "X"), ("O", "O")])
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_game_ply"),
            models.CheckConstraint(condition=Q(ply__gte=1), name="move_ply_from_one"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} · {self.ply}. {self.side} {self.move}"
