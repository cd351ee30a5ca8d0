"""Time controls and game clocks: pure values, no Django and no wall clock.

A ``TimeControl`` is what a game is played with, written as the form and the API write it (DESIGN.md, "Web
contract"): ``none``, ``M+S`` (minutes on the clock + seconds added after each move, e.g. ``3+2``) or ``Nd``
(correspondence: N days for each move, e.g. ``3d``). A ``Clock`` is the time each side has left in one game,
in whole milliseconds; it changes only through methods that are told the moment (``now``, a timezone-aware
datetime), so the server alone keeps time and the same inputs always give the same clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

Side = Literal["X", "O"]
SIDES: tuple[Side, Side] = ("X", "O")
Kind = Literal["none", "realtime", "correspondence"]

#: starting times that are not whole minutes, as lichess offers them (a quarter, half and three quarters of a
#: minute, and a minute and a half), in seconds, with the text they are written as
FRACTIONAL_MINUTES: dict[int, str] = {15: "0.25", 30: "0.5", 45: "0.75", 90: "1.5"}
MAX_MINUTES = 180
MAX_INCREMENT = 180
#: days per move a correspondence game may give
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 10, 14)
#: how many moves the estimated duration of a game counts the increment for (lichess's figure)
ESTIMATED_MOVES = 40
#: speeds by estimated duration in seconds, fastest first: a control whose estimate is under the bound has that
#: speed (lichess's thresholds); beyond the last bound it is classical
SPEED_BOUNDS: tuple[tuple[int, str], ...] = (
    (30, "ultraBullet"),
    (180, "bullet"),
    (480, "blitz"),
    (1500, "rapid"),
)
SPEEDS = ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence", "untimed")
# Nothing a person types as a time control is longer; longer text is refused without being echoed whole.
_MAX_TEXT = 16
_REALTIME = re.compile(r"(\d{1,3}(?:\.\d{1,2})?) *\+ *(\d{1,3})", re.ASCII)
_DAYS = re.compile(r"(\d{1,3})d", re.ASCII)
_HOW = "write none, minutes+increment seconds (e.g. 3+2) or days per move (e.g. 3d)"


class InvalidTimeControl(ValueError):
    """Text or numbers that are not a time control the site offers; the message says what is wrong."""


class ClockError(ValueError):
    """A clock asked to do what it cannot: a move out of turn, a naive datetime, an untimed clock."""


class FlagFell(ClockError):
    """The mover's time had run out before the move arrived."""

    def __init__(self, side: Side) -> None:
        super().__init__(f"{side}'s time ran out")
        self.side = side


def _shown(text: str) -> str:
    return repr(text) if len(text) <= _MAX_TEXT else repr(text[:_MAX_TEXT] + "…")


def _minutes_text(seconds: int) -> str:
    return FRACTIONAL_MINUTES.get(seconds) or str(seconds // 60)


def _bad_minutes(minutes: float) -> InvalidTimeControl:
    allowed = ", ".join(FRACTIONAL_MINUTES.values())
    return InvalidTimeControl(
        f"the minutes on the clock must be {allowed} or a whole number from 1 to {MAX_MINUTES}, not {minutes:g}"
    )


def _check_minutes(seconds: int) -> None:
    if seconds not in FRACTIONAL_MINUTES and not (seconds % 60 == 0 and 1 <= seconds // 60 <= MAX_MINUTES):
        raise _bad_minutes(seconds / 60)


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTimeControl(f"{name} must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time a game gives: nothing (``none``), a real-time clock or days per move.

    Build one with ``parse``, ``realtime``, ``correspondence`` or ``UNTIMED``; the fields not used by the kind
    are 0.
    """

    kind: Kind = "none"
    #: real time: each side's time at the start, in seconds
    initial_seconds: int = 0
    #: real time: seconds added to the mover's clock after each move
    increment_seconds: int = 0
    #: correspondence: days each move may take
    days: int = 0

    def __post_init__(self) -> None:
        initial = _whole("the starting time", self.initial_seconds)
        increment = _whole("the increment", self.increment_seconds)
        days = _whole("the days per move", self.days)
        if self.kind == "realtime":
            _check_minutes(initial)
            if not 0 <= increment <= MAX_INCREMENT:
                raise InvalidTimeControl(
                    f"the increment must be 0 to {MAX_INCREMENT} seconds a move, not {increment}"
                )
            if days:
                raise InvalidTimeControl("a real-time control has no days per move")
        elif self.kind == "correspondence":
            if days not in CORRESPONDENCE_DAYS:
                raise InvalidTimeControl(
                    f"days per move must be {', '.join(map(str, CORRESPONDENCE_DAYS[:-1]))} or "
                    f"{CORRESPONDENCE_DAYS[-1]}, not {days}"
                )
            if initial or increment:
                raise InvalidTimeControl("a correspondence control has only days per move")
        elif self.kind == "none":
            if initial or increment or days:
                raise InvalidTimeControl("an untimed control has no times")
        else:
            raise InvalidTimeControl(f"a time control is none, realtime or correspondence, not {self.kind!r}")

    @classmethod
    def realtime(cls, minutes: float, increment: int = 0) -> TimeControl:
        """``minutes`` on each clock (0.25, 0.5, 0.75, 1.5 or whole 1..180) and ``increment`` seconds a move."""
        if isinstance(minutes, bool) or not isinstance(minutes, int | float):
            raise InvalidTimeControl(f"the minutes must be a number, not {minutes!r}")
        if not 0 < minutes <= MAX_MINUTES:  # also refuses NaN and infinities, before they reach int()
            raise _bad_minutes(minutes)
        seconds = minutes * 60
        if seconds != int(seconds):  # not whole seconds, so not among the offered times
            raise _bad_minutes(minutes)
        return cls("realtime", int(seconds), increment)

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        """``days`` for each move (1, 2, 3, 5, 7, 10 or 14)."""
        return cls("correspondence", days=days)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The control written as ``none``, ``M+S`` (``3+2``, ``0.5+0``) or ``Nd`` (``3d``); case and surrounding
        spaces do not matter. InvalidTimeControl says what is wrong with anything else."""
        if not isinstance(text, str):
            raise InvalidTimeControl(f"a time control is text, not {type(text).__name__}")
        if len(text) > 4 * _MAX_TEXT:
            raise InvalidTimeControl(f"{_shown(text)} is far too long for a time control: {_HOW}")
        cleaned = text.strip().lower()
        if not cleaned:
            raise InvalidTimeControl(f"no time control given: {_HOW}")
        if cleaned == "none":
            return UNTIMED
        if match := _REALTIME.fullmatch(cleaned):
            minutes, increment = match.groups()
            if "." in minutes:
                whole, _, fraction = minutes.partition(".")
                # Quarter minutes are exact in seconds: 0.25 -> 15 (hundredths of a minute x 60 / 100).
                hundredths = int(whole) * 100 + int(fraction.ljust(2, "0"))
                if hundredths * 60 % 100:  # not whole seconds, so not among the offered times
                    raise _bad_minutes(hundredths / 100)
                seconds = hundredths * 60 // 100
            else:
                seconds = int(minutes) * 60
            return cls("realtime", seconds, int(increment))
        if match := _DAYS.fullmatch(cleaned):
            return cls("correspondence", days=int(match.group(1)))
        raise InvalidTimeControl(f"{_shown(text)} is not a time control: {_diagnosis(cleaned)}")

    def __str__(self) -> str:
        """The canonical text: ``none``, ``3+2``, ``0.5+0``, ``3d``; ``parse(str(tc)) == tc``."""
        if self.kind == "realtime":
            return f"{_minutes_text(self.initial_seconds)}+{self.increment_seconds}"
        if self.kind == "correspondence":
            return f"{self.days}d"
        return "none"

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    @property
    def initial_ms(self) -> int:
        """Each side's time at the start (real time) or for every move (correspondence); 0 untimed."""
        if self.kind == "correspondence":
            return self.days * 86_400_000
        return self.initial_seconds * 1000

    @property
    def increment_ms(self) -> int:
        return self.increment_seconds * 1000

    @property
    def estimated_seconds(self) -> int | None:
        """lichess's estimate of a real-time game's length: starting time + 40 increments (None otherwise)."""
        if self.kind != "realtime":
            return None
        return self.initial_seconds + ESTIMATED_MOVES * self.increment_seconds

    @property
    def speed(self) -> str:
        """The speed in lichess's words and by lichess's thresholds on the estimated duration:
        ultraBullet (< 30 s), bullet (< 3 min), blitz (< 8 min), rapid (< 25 min), classical; correspondence
        for days per move and untimed for none."""
        if self.kind == "correspondence":
            return "correspondence"
        if self.kind == "none":
            return "untimed"
        estimate = self.estimated_seconds
        assert estimate is not None
        for bound, speed in SPEED_BOUNDS:
            if estimate < bound:
                return speed
        return "classical"


def _diagnosis(text: str) -> str:
    """What is wrong with text that matched no form, as precisely as cheaply possible."""
    if not text.isascii():
        return f"use the digits 0-9 only; {_HOW}"
    if text.count("+") > 1:
        return f"one '+' between minutes and increment; {_HOW}"
    if text.startswith("-") or "+-" in text:
        return "times cannot be negative"
    if text.startswith("+"):
        return "the minutes are missing before '+' (e.g. 3+2)"
    if text.endswith("+"):
        return "the increment is missing after '+' (e.g. 3+2, or 3+0 for none)"
    if "+" in text:
        return "the increment is whole seconds (e.g. 3+2), the minutes a number such as 3 or 0.5 (e.g. 0.5+0)"
    return _HOW


UNTIMED = TimeControl()
#: the controls the new-game form offers as buttons, fastest first, then correspondence
PRESETS: tuple[TimeControl, ...] = tuple(
    TimeControl.parse(text)
    for text in ("1+0", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "1d", "3d", "7d")
)


def _check_moment(now: object) -> datetime:
    if not isinstance(now, datetime):
        raise ClockError(f"a clock needs a datetime, not {type(now).__name__}")
    if now.tzinfo is None or now.utcoffset() is None:
        raise ClockError("a clock needs a timezone-aware datetime (naive times are ambiguous)")
    return now


def _check_side(side: object) -> Side:
    if side not in SIDES:
        raise ClockError(f"a side is X or O, not {side!r}")
    return side  # type: ignore[return-value]


def _other(side: Side) -> Side:
    return "O" if side == "X" else "X"


@dataclass(frozen=True, slots=True)
class Clock:
    """The time each side has left (whole ms) and whose time runs since when.

    Stored as it is: ``x_ms`` and ``o_ms`` are the times left when ``running``'s time started to run at
    ``since``; the live figure is worked out from ``now`` (``remaining``). A clock with nothing running has not
    started yet (or was stopped when the game ended).
    """

    control: TimeControl
    x_ms: int
    o_ms: int
    running: Side | None = None
    since: datetime | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.control, TimeControl) or not self.control.timed:
            raise ClockError(f"a clock needs a real-time or correspondence control, not {self.control}")
        for name in ("x_ms", "o_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ClockError(f"{name} is whole milliseconds, at least 0, not {value!r}")
        if self.running is None:
            if self.since is not None:
                raise ClockError("a clock with nothing running has no start moment")
        else:
            _check_side(self.running)
            _check_moment(self.since)

    @classmethod
    def ready(cls, control: TimeControl) -> Clock:
        """Full time on both sides, nothing running yet: the first ``after_move`` starts the other side's time."""
        if not isinstance(control, TimeControl) or not control.timed:
            raise ClockError(f"an untimed game has no clock (control {control})")
        return cls(control, control.initial_ms, control.initial_ms)

    @classmethod
    def start(cls, control: TimeControl, now: datetime, side: Side = "X") -> Clock:
        """Full time on both sides, ``side``'s (X's unless told) running from ``now``."""
        clock = cls.ready(control)
        return cls(control, clock.x_ms, clock.o_ms, _check_side(side), _check_moment(now))

    def _stored(self, side: Side) -> int:
        return self.x_ms if side == "X" else self.o_ms

    def _elapsed(self, now: datetime) -> int:
        """Whole ms since the running side's time started; a moment before that counts as none elapsed, as the
        clocks of two server processes may disagree by a little."""
        assert self.since is not None
        return max(0, (_check_moment(now) - self.since) // timedelta(milliseconds=1))

    def remaining(self, side: Side, now: datetime) -> int:
        """``side``'s time left at ``now`` in ms (never below 0)."""
        side = _check_side(side)
        _check_moment(now)
        if side != self.running:
            return self._stored(side)
        return max(0, self._stored(side) - self._elapsed(now))

    def remaining_ms(self, now: datetime) -> dict[str, int]:
        """Both sides' time left at ``now``: the game JSON's ``clock_ms`` (``{"X": ms, "O": ms}``)."""
        return {side: self.remaining(side, now) for side in SIDES}

    def flagged(self, now: datetime) -> Side | None:
        """The side whose time has run out at ``now`` (its time reached exactly 0 or less), else None."""
        if self.running is None:
            return None
        return self.running if self.remaining(self.running, now) == 0 else None

    def deadline(self) -> datetime | None:
        """When the running side's flag falls if it does not move; None while nothing runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + timedelta(milliseconds=self._stored(self.running))

    def after_move(self, side: Side, now: datetime, then: Side | None = None) -> Clock:
        """The clock once ``side`` has moved at ``now``: the time of ``then`` (by default the other side) runs from
        ``now``.

        Real time: the mover is charged the time since their clock started, then gets the increment.
        Correspondence: both sides are back to the full days per move. A clock not yet running charges nothing.
        FlagFell if the mover's time had run out by ``now`` (exactly 0 left counts as run out). ``then`` is the
        mover again where a side moves twice in a row (a Swap2 opening's stones): it is charged and its time goes
        on, without the increment (that comes once the move passes to the other side).
        """
        side = _check_side(side)
        now = _check_moment(now)
        following = _other(side) if then is None else _check_side(then)
        if self.running is None:
            return Clock(self.control, self.x_ms, self.o_ms, following, now)
        if side != self.running:
            raise ClockError(f"it is {self.running}'s time that runs, not {side}'s")
        assert self.since is not None
        left = self._stored(side) - self._elapsed(now)
        if left <= 0:
            raise FlagFell(side)
        if self.control.kind == "correspondence":
            x_ms = o_ms = self.control.initial_ms
        else:
            left += self.control.increment_ms if following != side else 0
            x_ms, o_ms = (left, self.o_ms) if side == "X" else (self.x_ms, left)
        return Clock(self.control, x_ms, o_ms, following, max(now, self.since))

    def stop(self, now: datetime) -> Clock:
        """The clock frozen at ``now`` (the game ended): the running side is charged, nothing runs any more."""
        _check_moment(now)
        if self.running is None:
            return self
        left = self.remaining(self.running, now)
        x_ms, o_ms = (left, self.o_ms) if self.running == "X" else (self.x_ms, left)
        return Clock(self.control, x_ms, o_ms)
