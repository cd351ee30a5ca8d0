"""Time controls and clocks (games.engine.clock): parsing, speeds, charging, flags, correspondence; no wall clock."""

from __future__ import annotations

import ast
import inspect
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games.engine.clock as clocks_module
from games.engine.clock import (
    PRESETS,
    SPEEDS,
    UNTIMED,
    Clock,
    ClockError,
    FlagFell,
    InvalidTimeControl,
    TimeControl,
)

T0 = datetime(2026, 11, 27, 12, 0, 0, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


# Parsing


@pytest.mark.parametrize(
    "text, canonical, kind, initial_s, increment_s, days",
    [
        ("none", "none", "none", 0, 0, 0),
        ("NONE", "none", "none", 0, 0, 0),
        ("  none ", "none", "none", 0, 0, 0),
        ("3+2", "3+2", "realtime", 180, 2, 0),
        ("1+0", "1+0", "realtime", 60, 0, 0),
        ("0.25+0", "0.25+0", "realtime", 15, 0, 0),
        ("0.5+0", "0.5+0", "realtime", 30, 0, 0),
        ("0.50+1", "0.5+1", "realtime", 30, 1, 0),
        ("0.75+0", "0.75+0", "realtime", 45, 0, 0),
        ("1.5+2", "1.5+2", "realtime", 90, 2, 0),
        ("1.0+0", "1+0", "realtime", 60, 0, 0),
        ("03+02", "3+2", "realtime", 180, 2, 0),
        (" 3 + 2 ", "3+2", "realtime", 180, 2, 0),
        ("180+180", "180+180", "realtime", 10800, 180, 0),
        ("15+10", "15+10", "realtime", 900, 10, 0),
        ("1d", "1d", "correspondence", 0, 0, 1),
        ("3d", "3d", "correspondence", 0, 0, 3),
        ("7D", "7d", "correspondence", 0, 0, 7),
        ("14d", "14d", "correspondence", 0, 0, 14),
    ],
)
def test_parse_table(text, canonical, kind, initial_s, increment_s, days):
    tc = TimeControl.parse(text)
    assert (tc.kind, tc.initial_seconds, tc.increment_seconds, tc.days) == (kind, initial_s, increment_s, days)
    assert str(tc) == canonical
    assert TimeControl.parse(str(tc)) == tc


@pytest.mark.parametrize(
    "text, words",
    [
        ("3+", "increment is missing"),
        ("+2", "minutes are missing"),
        ("-1+0", "cannot be negative"),
        ("3+-1", "cannot be negative"),
        ("3+2+1", "one '\\+'"),
        ("999+0", "whole number from 1 to 180, not 999"),
        ("181+0", "not 181"),
        ("0+0", "not 0$"),
        ("0+5", "not 0$"),
        ("0.1+0", "not 0.1"),
        ("0.33+0", "not 0.33"),
        ("1.25+0", "not 1.25"),
        ("3+181", "increment must be 0 to 180 seconds"),
        ("1+0.5", "increment is whole seconds"),
        ("2x", "is not a time control: write none"),
        ("4d", "days per move must be 1, 2, 3, 5, 7, 10 or 14, not 4"),
        ("0d", "not 0"),
        ("d", "not a time control"),
        ("3 d", "not a time control"),
        ("３+２", "digits 0-9 only"),  # fullwidth digits
        ("٣+٢", "digits 0-9 only"),  # Arabic-Indic digits
        ("", "no time control given"),
        ("   ", "no time control given"),
        ("unlimited", "not a time control"),
        ("1" * 10_000 + "+0", "far too long"),
        ("3+2" + " " * 100, "far too long"),
    ],
)
def test_parse_refusals(text, words):
    with pytest.raises(InvalidTimeControl, match=words) as caught:
        TimeControl.parse(text)
    assert len(str(caught.value)) < 200  # a huge input is not echoed whole


@pytest.mark.parametrize("value", [None, 3, b"3+2", ["3+2"]])
def test_parse_refuses_what_is_not_text(value):
    with pytest.raises(InvalidTimeControl, match="is text"):
        TimeControl.parse(value)


def test_constructors_check_like_parse():
    assert TimeControl.realtime(3, 2) == TimeControl.parse("3+2")
    assert TimeControl.realtime(0.5) == TimeControl.parse("0.5+0")
    assert TimeControl.correspondence(3) == TimeControl.parse("3d")
    assert UNTIMED == TimeControl.parse("none") == TimeControl()
    for bad in (0, 0.1, 999, float("nan"), float("inf"), True, "3"):
        with pytest.raises(InvalidTimeControl):
            TimeControl.realtime(bad)
    with pytest.raises(InvalidTimeControl, match="increment"):
        TimeControl.realtime(3, -1)
    with pytest.raises(InvalidTimeControl, match="days per move"):
        TimeControl.correspondence(4)
    with pytest.raises(InvalidTimeControl):
        TimeControl("blitz", 180, 2)
    with pytest.raises(InvalidTimeControl):
        TimeControl("realtime", 180, 2, days=3)
    assert issubclass(InvalidTimeControl, ValueError)


@given(st.text(max_size=30))
def test_any_text_parses_or_is_refused_clearly(text):
    try:
        tc = TimeControl.parse(text)
    except InvalidTimeControl as err:
        assert str(err)
    else:
        assert TimeControl.parse(str(tc)) == tc


# Speeds: lichess's thresholds on minutes * 60 + 40 * increment


@pytest.mark.parametrize(
    "text, speed",
    [
        ("0.25+0", "ultraBullet"),  # 15 s
        ("0.5+0", "bullet"),  # 30 s: the boundary belongs to the slower speed
        ("1+0", "bullet"),  # 60
        ("2+1", "bullet"),  # 160
        ("3+0", "blitz"),  # 180
        ("3+2", "blitz"),  # 260
        ("5+3", "blitz"),  # 420
        ("8+0", "rapid"),  # 480
        ("10+5", "rapid"),  # 800
        ("15+10", "rapid"),  # 1300
        ("25+0", "classical"),  # 1500
        ("30+0", "classical"),
        ("1d", "correspondence"),
        ("none", "untimed"),
    ],
)
def test_speeds(text, speed):
    assert TimeControl.parse(text).speed == speed
    assert speed in SPEEDS


def test_estimated_duration():
    assert TimeControl.parse("3+2").estimated_seconds == 260
    assert TimeControl.parse("0.75+0").estimated_seconds == 45
    assert TimeControl.parse("3d").estimated_seconds is None
    assert UNTIMED.estimated_seconds is None


def test_presets():
    assert [str(tc) for tc in PRESETS] == [
        "1+0", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "1d", "3d", "7d",
    ]
    assert {tc.speed for tc in PRESETS} == {"bullet", "blitz", "rapid", "classical", "correspondence"}


def test_milliseconds():
    assert TimeControl.parse("3+2").initial_ms == 180_000
    assert TimeControl.parse("3+2").increment_ms == 2_000
    assert TimeControl.parse("3d").initial_ms == 3 * 24 * 3600 * 1000
    assert not UNTIMED.timed and TimeControl.parse("1d").timed


# Clocks

BLITZ = TimeControl.parse("3+2")


def test_start():
    clock = Clock.start(BLITZ, T0)
    assert (clock.x_ms, clock.o_ms, clock.running, clock.since) == (180_000, 180_000, "X", T0)
    assert clock.remaining_ms(at(1500)) == {"X": 178_500, "O": 180_000}
    assert clock.deadline() == at(180_000)
    assert Clock.start(BLITZ, T0, side="O").running == "O"


def test_charging_with_increments():
    clock = Clock.start(BLITZ, T0)
    clock = clock.after_move("X", at(10_000))  # X used 10 s, gets 2 back
    assert (clock.x_ms, clock.o_ms, clock.running, clock.since) == (172_000, 180_000, "O", at(10_000))
    clock = clock.after_move("O", at(15_500))  # O used 5.5 s
    assert (clock.x_ms, clock.o_ms, clock.running) == (172_000, 176_500, "X")
    assert clock.remaining("X", at(16_000)) == 171_500
    assert clock.remaining("O", at(99_000)) == 176_500  # O's time does not run on X's turn
    assert clock.deadline() == at(15_500 + 172_000)


def test_without_increment():
    clock = Clock.start(TimeControl.parse("1+0"), T0).after_move("X", at(59_999))
    assert clock.x_ms == 1


def test_sub_millisecond_time_is_not_charged():
    clock = Clock.start(BLITZ, T0).after_move("X", T0 + timedelta(microseconds=999))
    assert clock.x_ms == 180_000 + 2_000


def test_flag_exactly_at_zero():
    clock = Clock.start(TimeControl.parse("1+0"), T0)
    assert clock.flagged(at(59_999)) is None
    assert clock.remaining("X", at(59_999)) == 1
    assert clock.flagged(at(60_000)) == "X"
    assert clock.remaining("X", at(60_000)) == 0
    assert clock.remaining("X", at(10**9)) == 0
    assert clock.flagged(at(10**9)) == "X"
    assert clock.deadline() == at(60_000)


def test_a_move_after_the_flag_fell_is_refused():
    clock = Clock.start(TimeControl.parse("1+0"), T0)
    with pytest.raises(FlagFell, match="^X's time ran out$") as caught:
        clock.after_move("X", at(60_000))
    assert caught.value.side == "X"
    with pytest.raises(FlagFell, match="O's time ran out"):
        clock.after_move("X", at(1_000)).after_move("O", at(61_000))
    assert issubclass(FlagFell, ClockError) and issubclass(ClockError, ValueError)


def test_increment_after_the_last_millisecond():
    clock = Clock.start(BLITZ, T0).after_move("X", at(179_999))
    assert clock.x_ms == 1 + 2_000


def test_out_of_turn_is_refused():
    clock = Clock.start(BLITZ, T0)
    with pytest.raises(ClockError, match="it is X's time that runs, not O's"):
        clock.after_move("O", at(1_000))


def test_correspondence_resets_each_move():
    three_days = 3 * 86_400_000
    clock = Clock.start(TimeControl.parse("3d"), T0)
    clock = clock.after_move("X", at(two_days := 2 * 86_400_000))
    assert (clock.x_ms, clock.o_ms, clock.running) == (three_days, three_days, "O")
    assert clock.deadline() == at(two_days + three_days)
    assert clock.remaining("O", at(two_days + 1000)) == three_days - 1000
    clock = clock.after_move("O", at(two_days + 5000))
    assert (clock.x_ms, clock.o_ms, clock.running) == (three_days, three_days, "X")
    assert clock.flagged(at(two_days + 5000 + three_days)) == "X"
    with pytest.raises(FlagFell, match="X's time ran out"):
        clock.after_move("X", at(two_days + 5000 + three_days))


def test_a_clock_not_running_yet_starts_with_the_first_move():
    clock = Clock.ready(BLITZ)
    assert clock.running is None and clock.deadline() is None and clock.flagged(at(10**9)) is None
    assert clock.remaining_ms(at(10**9)) == {"X": 180_000, "O": 180_000}
    clock = clock.after_move("X", at(5_000))  # nothing charged, no increment: O's time runs from now
    assert (clock.x_ms, clock.o_ms, clock.running, clock.since) == (180_000, 180_000, "O", at(5_000))


def test_stop_freezes_the_times():
    clock = Clock.start(BLITZ, T0).after_move("X", at(1_000)).stop(at(4_000))
    assert (clock.x_ms, clock.o_ms, clock.running, clock.since) == (181_000, 177_000, None, None)
    assert clock.remaining_ms(at(10**9)) == {"X": 181_000, "O": 177_000}
    flagged = Clock.start(TimeControl.parse("1+0"), T0).stop(at(99_000))
    assert flagged.x_ms == 0
    assert flagged.stop(at(100_000)) == flagged


def test_a_moment_before_the_start_counts_as_none_elapsed():
    clock = Clock.start(BLITZ, at(1_000))
    assert clock.remaining("X", T0) == 180_000
    later = clock.after_move("X", T0)
    assert later.x_ms == 182_000 and later.since == at(1_000)  # time never runs backwards


def test_timezones_compare_as_instants():
    clock = Clock.start(BLITZ, T0)
    elsewhere = (T0 + timedelta(seconds=3)).astimezone(timezone(timedelta(hours=5)))
    assert clock.remaining("X", elsewhere) == 177_000
    assert clock.deadline() == T0 + timedelta(minutes=3)


def test_naive_datetimes_and_bad_values_are_refused():
    naive = datetime(2026, 11, 27, 12)
    with pytest.raises(ClockError, match="timezone-aware"):
        Clock.start(BLITZ, naive)
    clock = Clock.start(BLITZ, T0)
    with pytest.raises(ClockError, match="timezone-aware"):
        clock.remaining("X", naive)
    with pytest.raises(ClockError, match="timezone-aware"):
        clock.after_move("X", naive)
    with pytest.raises(ClockError, match="needs a datetime"):
        clock.flagged(12345)
    with pytest.raises(ClockError, match="a side is X or O"):
        clock.after_move("Z", at(1))
    with pytest.raises(ClockError, match="untimed game has no clock"):
        Clock.start(UNTIMED, T0)
    with pytest.raises(ClockError, match="whole milliseconds"):
        Clock(BLITZ, -1, 0)
    with pytest.raises(ClockError, match="whole milliseconds"):
        Clock(BLITZ, 1.5, 0)
    with pytest.raises(ClockError, match="no start moment"):
        Clock(BLITZ, 1, 1, None, T0)


@given(st.lists(st.integers(0, 30_000), max_size=40))
def test_deterministic_and_consistent(gaps):
    """The same moves at the same moments give the same clock; time is conserved (left = given - used)."""

    def play(gaps: list[int]) -> tuple[Clock, int, bool]:
        clock, now, moves = Clock.start(BLITZ, T0), T0, 0
        for gap in gaps:
            now += timedelta(milliseconds=gap)
            side = clock.running
            if clock.flagged(now):
                with pytest.raises(FlagFell):
                    clock.after_move(side, now)
                return clock.stop(now), moves, True
            clock, moves = clock.after_move(side, now), moves + 1
        return clock.stop(now), moves, False

    first, moves, fell = play(gaps)
    assert play(gaps)[0] == first
    given_ms = 2 * 180_000 + 2_000 * moves
    if fell:  # the flagged side is at 0, not below
        assert 0 in (first.x_ms, first.o_ms)
        assert first.x_ms + first.o_ms >= given_ms - sum(gaps)
    else:
        assert first.x_ms + first.o_ms == given_ms - sum(gaps)


def test_no_wall_clock_reads():
    tree = ast.parse(inspect.getsource(clocks_module))
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not names & {"now", "utcnow", "today", "time", "monotonic", "perf_counter"}
