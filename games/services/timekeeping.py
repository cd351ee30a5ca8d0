"""Clocks and aborts: the server's time for games between people (``games.engine.clock`` is the arithmetic).

The server is the only clock. A game between people may have a time control (``Game.clock``): real time
(``M+S``: minutes each, seconds added after each move) or correspondence (``Nd``: days for each move). As on
lichess, nothing runs before each side has made a first move; instead each first move has a grace period
(``ABORT_GRACE`` in real time, the days per move in correspondence), after which the game is aborted. From the
second side's first move on, each move charges the mover the server time since their clock started (then the
increment is added; correspondence gives the full days again), and the other side's time runs.

When the running side's time is out, the game ends: the other side wins on time. That is seen on every read and
action of the game (``settle``: the pages, the polls, the API, a move arriving late), and by the workers' sweep
(``sweep_clocks``) for a game nobody looks at; each ending goes through ``endings.end_game`` (result, ratings,
pages told). ``Game.clock_deadline`` is when the sweep must look (indexed): the flag's fall, or the end of a
first move's grace.

Aborting (``game_abort``): either player of a game between people may abort it while a side has not yet made a
first move; it ends without a result and without a rating change. Games against the computer left without a move
for ``IDLE_COMPUTER_GAME`` are aborted by the sweep too (``sweep_idle_games``), and aborted games are left out of
My games (``selectors.game_history``).
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from typing import Literal

from django.db import transaction
from django.utils import timezone

from ..engine import shown
from ..engine.clock import Clock, InvalidTimeControl, TimeControl
from ..errors import AbortRefused, GameFinished, InvalidGameSettings, NotSeated
from ..live import changed
from ..models import LEVELS, Game, Opponent
from ..selectors import game_for_viewer
from .arena_scores import arena_game_over
from .common import check_playable
from .endings import end_game, stop_clock

#: a real-time game whose side to move has not made a first move within this is aborted (lichess's figure)
ABORT_GRACE = timedelta(seconds=float(os.environ.get("CLOCK_ABORT_GRACE_SECONDS", "30")))
#: a game against the computer with no move for this long is aborted by the sweep (it leaves My games)
IDLE_COMPUTER_GAME = timedelta(hours=24)
#: games each sweep settles at most, oldest deadline first
SWEEP_BATCH = 200

Due = Literal["flag", "abort"]


def parse_clock(text: str | None, *, opponent: str) -> str:
    """The time control asked for a new game, as stored (``3+2``, ``3d``; "" for none). Only games against
    another person have a clock: InvalidGameSettings for anything else, and for text that is no control."""
    if text is None:
        return ""
    try:
        control = TimeControl.parse(text)
    except InvalidTimeControl as err:
        raise InvalidGameSettings(f"clock: {err}") from None
    if not control.timed:
        return ""
    if opponent != Opponent.HUMAN:
        raise InvalidGameSettings(
            f"a clock ({shown(str(control))}) is only for a game against another player: against the computer, on "
            "one screen or watching, there is none (use clock none)"
        )
    return str(control)


def grace(control: TimeControl) -> timedelta:
    """How long a side has for its first move before the game is aborted."""
    if control.kind == "correspondence":
        return timedelta(milliseconds=control.initial_ms)
    return ABORT_GRACE


def start_clock(game: Game, now: datetime) -> list[str]:
    """A game with a clock starts (a challenge accepted, a rematch): full time on both sides, nothing running
    until each side has made a first move; the first move's grace starts now. Returns the fields set."""
    if not game.clock:
        return []
    control = game.time_control
    fields = game.set_clock(Clock.ready(control))
    game.clock_deadline = now + grace(control)
    return [*fields, "clock_deadline"]


def clock_after_move(game: Game, plies: int, now: datetime, *, over: bool) -> list[str]:
    """``game`` (as read before the move, which was at ply ``plies - 1``) has just had move number ``plies``,
    at ``now``: its clock as it stands after it. The first move leaves the clocks still (the second side's first
    move has its grace); the second starts the first side's time; later ones charge the mover (FlagFell when the
    time was out). A move that ends the game stops the clock. Returns the fields set (none without a clock)."""
    clock = game.game_clock
    if clock is None:
        return []
    mover = game.mover(plies)
    first_moves = game.first_moves  # 2; 4 in a Swap2 game (X's three stones, then O's choice)
    if plies >= first_moves:
        # from a clock not running yet: charges nothing; the next mover's time runs (in a Swap2 opening that may be
        # the mover again: the mover's own time goes on)
        clock = clock.after_move(mover, now, then=game.to_move)
    if over:
        clock = clock.stop(now)
        game.clock_deadline = None
    elif plies < first_moves:
        game.clock_deadline = now + grace(clock.control)
    else:
        game.clock_deadline = clock.deadline()
    return [*game.set_clock(clock), "clock_deadline"]


def due(game: Game, now: datetime) -> Due | None:
    """What the clock has to do to a running ``game`` at ``now``: "flag" (the running side's time is out),
    "abort" (a first move's grace is over), or None. No query."""
    if game.status != Game.Status.ACTIVE or not game.clock or game.clock_deadline is None:
        return None
    if game.clock_running:
        clock = game.game_clock
        return "flag" if clock is not None and clock.flagged(now) else None
    if game.ply < game.first_moves and now >= game.clock_deadline:
        return "abort"
    return None


def settle(game: Game, now: datetime | None = None) -> Game | None:
    """End ``game`` if its clock says so at ``now``: on time (the side whose time ran out loses) or aborted (a
    first move not made in time). Under the row lock, checked again there. Returns the game as ended (locked,
    with its players), or None when nothing was due. Call it outside the transaction of a refused action, so
    that the ending is stored whatever happens next."""
    now = now or timezone.now()
    if due(game, now) is None:
        return None
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        what = due(locked, now)
        if what == "flag":
            loser = locked.clock_running
            end_game(locked, "O" if loser == "X" else "X", Game.Reason.TIME, now=now)
        elif what == "abort":
            abort(locked, now)
        else:
            return None
    return locked


def settled(game: Game) -> Game:
    """``game`` as it stands once its clock has been seen to (the edges' loaders): the ended game if a flag fell
    or a first move's grace ran out, else ``game`` itself."""
    return settle(game) or game


def check_flag(game: Game, now: datetime) -> None:
    """Before a move is judged: if the game's clock says it is over (a flag fell, or a first move came too late),
    it is ended now, and the move refused (GameFinished, with the result)."""
    if due(game, now) is None:
        return
    ended = settle(game, now)
    if ended is not None:
        raise GameFinished(f"this game is over: {ended.result_text()}")


# Aborting ---------------------------------------------------------------------------------------------------


def abort(locked: Game, now: datetime | None = None) -> Game:
    """End the locked, running ``locked`` without a result (no rating, no analysis); its pages are told."""
    now = now or timezone.now()
    locked.status = Game.Status.FINISHED
    locked.result, locked.result_reason = Game.Result.NONE, Game.Reason.ABORTED
    locked.finished = now
    locked.draw_offered_by = None
    locked.version += 1
    fields = stop_clock(locked, now)
    locked.save(
        update_fields=[
            "status",
            "result",
            "result_reason",
            "finished",
            "draw_offered_by",
            "version",
            "updated",
            *fields,
        ]
    )
    arena_game_over(locked, now=now)  # an arena game aborted: worth nothing, its players free again
    changed(locked)
    return locked


def can_abort(game: Game) -> bool:
    """A running game between two people in which a side has not made its first move yet."""
    return game.status == Game.Status.ACTIVE and game.is_two_players and game.ply < game.first_moves


def game_abort(*, game: Game | int, player) -> Game:
    """Either player aborts a game between people while a side has not yet made its first move: it ends
    without a result and rates nobody. NotSeated, GameFinished, AbortRefused (the first moves are made)."""
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
        if not locked.sides_of(player):
            raise NotSeated("you are not playing in this game, so you cannot abort it")
        check_playable(locked)
        if not locked.is_two_players:
            raise AbortRefused("only a game against another player can be aborted; resign instead")
        if not can_abort(locked):
            raise AbortRefused("both players have made their first move: the game can no longer be aborted")
        return abort(locked)


# The sweep --------------------------------------------------------------------------------------------------


def sweep_clocks(*, now: datetime | None = None) -> int:
    """End the games whose clock says so (flags fallen, first moves not made in time), even when nobody looks
    at them; every worker's sweep thread calls it. Returns the games ended."""
    now = now or timezone.now()
    ended = 0
    waiting = Game.objects.filter(status=Game.Status.ACTIVE, clock_deadline__lte=now).order_by("clock_deadline")
    for game in waiting[:SWEEP_BATCH]:
        if settle(game, now) is not None:
            ended += 1
    return ended


def sweep_idle_games(*, now: datetime | None = None) -> int:
    """Abort the games against the computer nobody has moved in for ``IDLE_COMPUTER_GAME``: they stop waiting in
    My games. Returns the games aborted."""
    now = now or timezone.now()
    idle = Game.objects.filter(
        status=Game.Status.ACTIVE, opponent__in=LEVELS, updated__lt=now - IDLE_COMPUTER_GAME
    ).order_by("updated")
    aborted = 0
    for game in idle[:SWEEP_BATCH]:
        with transaction.atomic():
            locked = game_for_viewer(game, None, visible_only=False, for_update=True)
            if locked.status == Game.Status.ACTIVE and locked.updated < now - IDLE_COMPUTER_GAME:
                abort(locked, now)
                aborted += 1
    return aborted
