"""A game as one viewer sees it (lichess's "point of view"): their sides, what they may do now, the words to show.

``game_view`` is built once per answer and feeds both edges: the game page and its partials (``games.web``)
and the JSON API (``games.api``), so that the two cannot disagree on whose turn it is, which buttons a player
has, or how a move is named. ``game_row`` is the lighter value for lists (My games, a profile's recent games),
which do not rebuild positions.

Everything here is a read: it never writes, and it asks the database at most for the rematch of a finished
game between two players (one indexed lookup).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from .engine import Variant
from .models import SIDES, Game, Opponent
from .positions import Position, game_variant, takeback_keep
from .selectors import claim_win_after, is_involved, rematch_id, variant_label

#: what the announcement adds for an offer waiting for an answer (GameView's offer flags)
OFFER_WORDS = {
    "draw_offered_to_you": "Your opponent offers a draw.",
    "draw_offered_by_you": "You offered a draw.",
    "rematch_offered_to_you": "Your opponent offers a rematch.",
    "rematch_offered_by_you": "You offered a rematch.",
    "rematch_declined_by_them": "Your opponent declined the rematch.",
    "rematch_declined_by_you": "You declined the rematch.",
}

#: endings the result's own words explain ("X wins (O resigned)"): the last move is not news then
NOT_ON_THE_BOARD = (
    Game.Reason.RESIGNED, Game.Reason.AGREED, Game.Reason.ABANDONED, Game.Reason.DECIDED, Game.Reason.TIME,
    Game.Reason.ABORTED,
)


def other_side(side: str) -> str:
    return "O" if side == "X" else "X"


@dataclass(frozen=True)
class MoveName:
    """One move of a game as every screen and answer names it."""

    ply: int
    side: str
    move: int
    name: str  # RULES.md "Cell names": "b2", "h8", "e5"


def clock_text(ms: int) -> str:
    """A clock's time as the page shows it (static/js/clock.js writes the same): "1:05:00", "2:59", "0:09.4"
    (tenths) under ten seconds, "2d 3h" from a day on."""
    if ms >= 86_400_000:
        days, rest = divmod(ms, 86_400_000)
        return f"{days}d {rest // 3_600_000}h"
    if ms < 10_000:
        return f"0:0{ms // 1000}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@dataclass(frozen=True)
class ClockView:
    """A game's clock at one moment (``at``): the control, each side's time left, whose time runs."""

    control: str
    kind: str
    ms: dict[str, int]
    running: str | None
    #: under this much time left a side's clock is shown as low (10 s, or a tenth of the starting time if more)
    low_ms: int

    def text(self, side: str) -> str:
        return clock_text(self.ms[side])

    @property
    def x_text(self) -> str:
        return self.text("X")

    @property
    def o_text(self) -> str:
        return self.text("O")


def clock_view(game: Game, now: datetime) -> ClockView | None:
    """``game``'s clock as it stands at ``now`` (None without a clock)."""
    clock = game.game_clock
    if clock is None:
        return None
    control = clock.control
    return ClockView(
        control=str(control), kind=control.kind, ms=clock.remaining_ms(now), running=clock.running,
        low_ms=max(10_000, control.initial_ms // 10),
    )


@dataclass(frozen=True)
class GameView:
    """A game and its position as ``viewer`` sees it. Built by ``game_view``; read by the pages and the API."""

    game: Game
    position: Position
    viewer_id: int | None
    #: the seats the viewer holds: (), ("X",), ("O",) or ("X", "O") (two people on one screen)
    sides: tuple[str, ...]
    status_text: str
    #: won / lost / over (finished), waiting (a challenge), turn (running)
    status_tone: str
    computer_to_move: bool
    rematch_id: int | None
    flags: dict[str, bool] = field(default_factory=dict)
    claim_after: datetime | None = None
    #: a move suggested to the viewer in this position (shown on the board), or None
    hint: int | None = None
    #: the game's clock at the moment the view was built, None without one
    clock: ClockView | None = None

    # The game --------------------------------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return self.position.state.variant

    @property
    def running(self) -> bool:
        return self.game.status == Game.Status.ACTIVE

    @property
    def to_move(self) -> str | None:
        """The side to move in a running or open game; None once it is over."""
        return None if self.game.is_finished else self.position.state.to_move

    @property
    def your_turn(self) -> bool:
        return self.running and self.position.state.to_move in self.sides

    @property
    def watch(self) -> bool:
        """Computer against computer."""
        return self.game.is_computer("X") and self.game.is_computer("O")

    def seat_label(self, side: str) -> str:
        return self.game.seat_label(side)

    # Names --------------------------------------------------------------------------------------------------
    def name(self, move: int) -> str:
        """The cell name of ``move`` (RULES.md): the one notation of the page, the move list and the API."""
        return self.variant.cell_name(move)

    @property
    def moves(self) -> list[MoveName]:
        variant = self.variant
        return [
            MoveName(ply=ply, side=self.game.mover(ply), move=move, name=variant.cell_name(move))
            for ply, move in enumerate(self.position.moves, start=1)
        ]

    def __getattr__(self, name: str) -> Any:
        # the capability flags (can_resign, draw_offered_to_you, ...) read as attributes
        flags = self.__dict__.get("flags")
        if flags is not None and name in flags:
            return flags[name]
        raise AttributeError(name)

    def announcement(self, *, said: str = "") -> str:
        """"O played b2. Your turn (X)." — the latest move in cell names (or ``said``: what was just done instead,
        e.g. a take back), then the status line, then an offer waiting for an answer: what a screen reader says
        after an answer."""
        game, moves = self.game, self.position.moves
        if said:
            head = said
        elif not moves or (game.is_finished and game.result_reason in NOT_ON_THE_BOARD):
            head = ""
        else:
            head = f"{game.mover(len(moves))} played {self.name(moves[-1])}."
        offers = next((words for flag, words in OFFER_WORDS.items() if self.flags.get(flag)), "")
        status = f"{self.status_text.rstrip('.')}." if offers else self.status_text
        return " ".join(part for part in (head, status, offers) if part)


def status_words(game: Game, to_move: str, sides: tuple[str, ...] | list[str], viewer: Any) -> tuple[str, str, bool]:
    """The status line for ``viewer``: (text, tone, whether a computer is to move)."""
    if game.is_finished:
        text = game.result_text()
        mine = game.result in sides and len(sides) == 1
        lost = len(sides) == 1 and game.result in SIDES and not mine
        tone = "won" if mine else "lost" if lost else "over"
        # in the player's own words too, not only the colour
        text += " — you won" if mine else " — you lost" if lost else ""
        return text, tone, False
    if game.status == Game.Status.OPEN:
        return challenge_words(game, viewer), "waiting", False
    if game.is_computer(to_move):
        return f"{to_move} to move: {game.seat_label(to_move)}", "turn", True
    if to_move in sides and len(sides) == 1:
        text = f"Your turn ({to_move})"
    elif to_move in sides:
        text = f"{to_move} to move"
    elif sides:  # the other player's turn
        text = f"Waiting for {game.seat_label(to_move)} ({to_move})"
    else:
        text = f"{to_move} to move: {game.seat_label(to_move)}"  # as a computer seat says it
    return text, "turn", False


def challenge_words(game: Game, viewer: Any) -> str:
    """An open challenge in the words of whoever looks at it: its maker, its invitee, or anyone else."""
    creator_side = other_side(game.open_side() or "X")
    pid = getattr(viewer, "pk", None)
    if pid == game.created_by_id and game.invitee_id:
        return f"Waiting for {game.invitee.display_name} to accept"
    if pid == game.created_by_id:
        return "Waiting for an opponent to join"
    if pid == game.invitee_id:
        return f"{game.seat_label(creator_side)} challenges you"
    if game.invitee_id is None:
        return f"Open challenge from {game.seat_label(creator_side)}"
    return "Waiting for the invited player to accept"


def game_view(position: Position, viewer: Any, *, hint: int | None = None) -> GameView:
    """``position``'s game as ``viewer`` sees it. ``hint``: a hint just given (else the game's current one is
    kept on the player's turn, so that a reload does not lose it)."""
    game, state = position.game, position.state
    now = timezone.now()
    pid = getattr(viewer, "pk", None)
    sides = tuple(game.sides_of(viewer))
    text, tone, computer_to_move = status_words(game, state.to_move, sides, viewer)
    is_open = game.status == Game.Status.OPEN
    active = game.status == Game.Status.ACTIVE
    mine = pid is not None and game.created_by_id == pid
    rematch = rematch_id(game)
    two_players = game.is_two_players and bool(sides)
    offered_by, draw_by, declined = game.rematch_offered_by_id, game.draw_offered_by_id, game.rematch_declined
    running = two_players and active
    can_accept = is_open and not mine and not sides and game.invitee_id in (None, pid) and pid is not None
    alone = bool(sides) and active and not game.is_two_players
    on_my_own = alone and not computer_to_move
    thinks_for_me = alone and computer_to_move
    has_takeback = alone and takeback_keep(game, position.moves, sides) is not None
    my_turn_alone = on_my_own and game.to_move in sides
    rematch_open = two_players and rematch is None
    if hint is None and my_turn_alone:
        hint = game.current_hint
    flags = {
        "draw_offered_by_you": running and draw_by == pid,
        "draw_offered_to_you": running and draw_by not in (None, pid),
        "rematch_offered_by_you": rematch_open and offered_by == pid and not declined,
        "rematch_offered_to_you": rematch_open and offered_by not in (None, pid) and not declined,
        "rematch_declined_by_them": rematch_open and offered_by == pid and declined,
        "rematch_declined_by_you": rematch_open and offered_by not in (None, pid) and declined,
    }
    claim_after = claim_win_after(game) if sides and game.to_move not in sides else None
    flags.update(
        is_player=bool(sides),
        two_players=two_players,
        can_move=active and state.to_move in sides and not state.is_over,
        can_resign=bool(sides) and active,
        # a finished game without another player: its creator may start one more with the same settings
        can_play_again=game.is_finished and mine and game.opponent != Opponent.HUMAN and not game.imported,
        analysable=game.is_finished,
        # a game without another person: the player may take their latest move back (not while the computer
        # thinks), and ask for a hint on their turn
        can_take_back=on_my_own and has_takeback,
        can_hint=my_turn_alone and hint is None,
        # while the computer answers (or a hint is shown), the same buttons stay in place, disabled
        computer_thinks_for_you=thinks_for_me,
        has_takeback=thinks_for_me and has_takeback,
        # neither a player nor someone who may take the open seat
        spectator=not is_involved(game, viewer) and not can_accept,
        can_accept=can_accept,
        can_cancel=is_open and mine,
        can_decline=is_open and pid is not None and game.invitee_id == pid,
        # after a declined offer, only the player who declined it may offer one
        can_offer_rematch=two_players and game.is_finished and rematch is None and game.arena_id is None
        and (offered_by is None or flags["rematch_declined_by_you"]),
        can_offer_draw=running and draw_by is None and game.draw_offer_ply != game.ply,
        draw_declined=running and draw_by is None and game.draw_offer_ply == game.ply,
        can_claim_win=claim_after is not None and now >= claim_after,
        # a game between people in which a side has not made a first move yet: either player may abort it
        can_abort=running and game.ply < game.first_moves,
    )
    return GameView(
        game=game, position=position, viewer_id=pid, sides=sides, status_text=text, status_tone=tone,
        computer_to_move=computer_to_move, rematch_id=rematch, flags=flags, claim_after=claim_after, hint=hint,
        clock=clock_view(game, now),
    )


# Lists ----------------------------------------------------------------------------------------------------


def variant_detail(game: Game) -> str:
    """A game's board beyond its variant's name: "7 x 7", "15 x 15, 5 in a row", "won boards closed"."""
    variant = game_variant(game)
    if variant.key in ("nxn", "mnk"):
        return variant.describe() if variant.key == "mnk" else f"{variant.rows} x {variant.cols}"
    if not variant.nested:
        return ""
    described = variant.describe()  # the game page's heading: "Ultimate, won boards closed"
    return described.split(", ", 1)[1] if ", " in described else ""


@dataclass(frozen=True)
class GameRow:
    """A game in a list (My games, a profile), from one player's side."""

    game: Game
    label: str
    detail: str
    #: the time control ("3+2", "3d"), "" for none
    clock: str
    side: str
    opponent: str
    outcome: str
    tone: str
    rating_change: dict[str, Any] | None


def game_row(game: Game, player: Any) -> GameRow:
    """``game`` from ``player``'s side, for a list: their side, the opponent, the outcome in their words."""
    sides = game.sides_of(player)
    if len(sides) == 1:
        me = sides[0]
        other = other_side(me)
        opponent = game.seat_label(other)
        if game.status == Game.Status.OPEN and game.invitee_id:
            opponent = f"{game.invitee.display_name} (invited)"
        if game.is_aborted:
            outcome = "Aborted"
        elif game.result == me:
            outcome = "Won"
        elif game.result == other:
            outcome = "Lost"
        elif game.result == Game.Result.DRAW:
            outcome = "Drawn"
        elif game.status == Game.Status.ACTIVE and game.is_two_players:
            outcome = "Your turn" if game.to_move == me else "Their turn"
        else:
            outcome = "In progress" if game.status == Game.Status.ACTIVE else "Waiting"
    else:
        me = "X and O" if sides else "imported" if game.imported else "watching"
        opponent = "two players, one screen" if sides else f"{game.seat_label('X')} vs {game.seat_label('O')}"
        # "Drawn", as in the player's own games; "X wins" says who did
        outcome = "Drawn" if game.result == Game.Result.DRAW else "Aborted" if game.is_aborted else (
            game.result_text() or ("In progress" if game.status == Game.Status.ACTIVE else "Waiting")
        )
    return GameRow(
        game=game,
        label=variant_label(game.variant),
        detail=variant_detail(game),
        clock=game.clock,
        side=me,
        opponent=opponent,
        outcome=outcome,
        tone=outcome.split()[0].lower(),
        # a rated game: what it did to this player's rating ("+20", "−20")
        rating_change=game.rating_change(sides[0]) if len(sides) == 1 else None,
    )


# Seats, for lists -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatsView:
    """Whose game it is and whose turn, as ``viewer`` sees it, without rebuilding the position: the part of
    ``GameView`` a list needs (the API's game summaries). Same attribute names as GameView's."""

    sides: tuple[str, ...]
    to_move: str | None
    your_turn: bool
    clock: ClockView | None = None


def seats_view(game: Game, viewer: Any) -> SeatsView:
    sides = tuple(game.sides_of(viewer))
    return SeatsView(
        sides=sides,
        to_move=None if game.is_finished else game.to_move,
        your_turn=game.status == Game.Status.ACTIVE and game.to_move in sides,
        clock=clock_view(game, timezone.now()),
    )
