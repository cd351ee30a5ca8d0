"""Quick pairing's rule (lobby seeks): whom a waiting seeker may be paired with. Pure values, no Django.

A seek waits in one pool (``games.rating.pools``: board and speed), for one time control, rated or casual. Two seeks of
the same pool, control and rated flag are *compatible*; of those, a seeker is paired with the one closest in
rating **within a window that widens with the time waited**, as lichess's pools do:

- ``±WINDOW_START`` (100) points at first,
- ``+WINDOW_GROWTH`` (10) points for every second waited,
- no bound at all once a seeker has waited ``UNBOUNDED_AFTER`` (90) seconds: anyone compatible will do.

Two seekers may play when their difference is within the window of the one who has waited longer (so a newcomer
is paired at once with someone who has waited long enough to accept them). Of several, the closest in rating
wins; equal differences go to the one who has waited longest. A seek whose page stopped asking for
``SEEK_TTL`` seconds is dropped (the seeker left).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

WINDOW_START = 100.0
WINDOW_GROWTH = 10.0
UNBOUNDED_AFTER = 90.0
#: a seek not asked about (pinged) for this many seconds is dropped
SEEK_TTL = 30.0


def rating_window(waited: float) -> float:
    """How far (in rating points, either way) a seeker who has waited ``waited`` seconds accepts an opponent:
    100 at first, 10 more each second, ``math.inf`` from 90 seconds on. A negative wait counts as none."""
    waited = max(0.0, float(waited))
    if waited >= UNBOUNDED_AFTER:
        return math.inf
    return WINDOW_START + WINDOW_GROWTH * waited


@dataclass(frozen=True, slots=True)
class Waiting:
    """A compatible seek as the rule sees it: its id, its seeker's rating and how long it has waited (s)."""

    id: int
    rating: float
    waited: float


def within(rating: float, waited: float, other: Waiting) -> bool:
    """Whether a seeker rated ``rating`` who has waited ``waited`` seconds may play ``other``: the difference is
    within the window of whichever of the two has waited longer."""
    return abs(rating - other.rating) <= rating_window(max(waited, other.waited))


def pick_opponent(rating: float, waited: float, candidates: Iterable[Waiting]) -> Waiting | None:
    """Of ``candidates`` (compatible seeks of other players), the one to pair with: within the window, closest in
    rating, then the longest waiting, then the oldest id; None when nobody is within the window yet."""
    fitting = [other for other in candidates if within(rating, waited, other)]
    if not fitting:
        return None
    return min(fitting, key=lambda other: (abs(rating - other.rating), -other.waited, other.id))
