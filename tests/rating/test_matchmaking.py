"""Quick pairing's pure rule (games.rating.matchmaking): the rating window and whom a seeker is paired with."""

from __future__ import annotations

import math

import pytest

from games.rating.matchmaking import (
    UNBOUNDED_AFTER,
    WINDOW_GROWTH,
    WINDOW_START,
    Waiting,
    pick_opponent,
    rating_window,
    within,
)


@pytest.mark.parametrize(
    ("waited", "window"), [(0, 100), (-5, 100), (1, 110), (10, 200), (45.5, 555), (89.9, 100 + 899)]
)
def test_the_window_starts_at_100_and_widens_by_10_a_second(waited, window):
    assert rating_window(waited) == pytest.approx(window)


def test_the_window_is_unbounded_after_90_seconds():
    assert rating_window(UNBOUNDED_AFTER) == math.inf
    assert rating_window(3600) == math.inf
    assert (WINDOW_START, WINDOW_GROWTH) == (100, 10)


def test_within_uses_the_window_of_whoever_waited_longer():
    newcomer_at_1500 = (1500.0, 0.0)
    assert within(*newcomer_at_1500, Waiting(1, 1600, 0))  # 100 apart, both new: exactly at the edge
    assert not within(*newcomer_at_1500, Waiting(1, 1601, 0))
    assert within(*newcomer_at_1500, Waiting(1, 1700, 10))  # the other has waited 10 s: ±200
    assert within(1700.0, 10.0, Waiting(1, 1500, 0))  # the same pair seen from the other side
    assert within(*newcomer_at_1500, Waiting(1, 2900, 95))  # waited past 90 s: anyone


def test_pick_opponent_chooses_the_closest_rating_within_the_window():
    candidates = [Waiting(1, 1580, 0), Waiting(2, 1460, 0), Waiting(3, 1510, 0), Waiting(4, 1900, 0)]
    assert pick_opponent(1500, 0, candidates) == Waiting(3, 1510, 0)


def test_pick_opponent_breaks_ties_by_time_waited_then_id():
    assert pick_opponent(1500, 0, [Waiting(5, 1550, 1), Waiting(6, 1450, 3)]).id == 6
    assert pick_opponent(1500, 0, [Waiting(8, 1550, 1), Waiting(7, 1450, 1)]).id == 7


def test_pick_opponent_waits_when_nobody_is_within_the_window():
    far = [Waiting(1, 1800, 0), Waiting(2, 1150, 5)]
    assert pick_opponent(1500, 0, far) is None
    assert pick_opponent(1500, 0, []) is None
    # 20 seconds later the 300-point gap is inside a window of 300
    assert pick_opponent(1500, 20, far) == Waiting(1, 1800, 0)
