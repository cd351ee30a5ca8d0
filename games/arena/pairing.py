"""Whom a free arena player plays next, and on which side (lichess's arena pairing, simplified).

Free players (joined, not withdrawn, seen lately, not in a game of the arena) are ranked as in the standings:
score, then rating (at the start everyone has 0 points, so the first round pairs neighbours by rating), then who
joined first. Going down that ranking, each player still unpaired is paired with the nearest one below who was not
their last opponent; a pair of last opponents is made again only when they are the only two players free, so that
two players never meet twice in a row while someone else is there to play. The side: whoever has played X more
often in the arena (X games minus O games) takes O; an even balance gives X to the one ranked higher when they
have played an even number of games, else to the other, so that no one always gets the same side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entrant:
    """A free player as pairing sees them."""

    id: int
    score: int
    rating: float
    #: the player they last played in this arena (None before their first game)
    last_opponent: int | None = None
    #: order of joining (earlier first), the last tie-break
    joined: int = 0
    #: games played as X and as O in this arena
    xs: int = 0
    os: int = 0


def ranked(free: Sequence[Entrant]) -> list[Entrant]:
    return sorted(free, key=lambda e: (-e.score, -e.rating, e.joined, e.id))


def _rematch(a: Entrant, b: Entrant) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def pair(free: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]]:
    """Pairs of ``free`` players (each at most once), each pair (X, O). Someone may be left waiting: an odd one
    out, or a player whose only possible opponent is the one they just played."""
    order = ranked(free)
    if len(order) == 2 and _rematch(*order):
        return [sides(order[0], order[1])]  # nobody else is free: they play again rather than wait
    taken: set[int] = set()
    pairs = []
    for i, first in enumerate(order):
        if first.id in taken:
            continue
        for second in order[i + 1:]:
            if second.id not in taken and not _rematch(first, second):
                taken.update((first.id, second.id))
                pairs.append(sides(first, second))
                break
    return pairs


def sides(higher: Entrant, lower: Entrant) -> tuple[Entrant, Entrant]:
    """(X, O) of a pair, ``higher`` ranked above ``lower`` (see the module's words)."""
    balance_high, balance_low = higher.xs - higher.os, lower.xs - lower.os
    if balance_high != balance_low:
        return (lower, higher) if balance_high > balance_low else (higher, lower)
    return (higher, lower) if (higher.xs + higher.os) % 2 == 0 else (lower, higher)
