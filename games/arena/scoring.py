"""What an arena game is worth to one of its players (lichess's arena scoring).

A win is 2 points, a draw 1, a loss 0. After two wins in a row a player is *on fire*: each further win counts
double (4) until a game that is not a win (a draw or a loss puts the fire out and counts as usual). Berserk (the
player halved their own clock before their first move) adds 1 to a win of at least ``BERSERK_MIN_MOVES`` of their
own moves, so that a quick flag or resignation does not pay for it. A game that ended without a result (aborted)
is worth nothing and changes no streak.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["win", "draw", "loss", "none"]

WIN, DRAW, LOSS = 2, 1, 0
#: wins in a row after which wins count double
ON_FIRE_AFTER = 2
#: a berserk win counts its extra point only with at least this many of the winner's own moves
BERSERK_MIN_MOVES = 3


@dataclass(frozen=True, slots=True)
class Scored:
    """A game's points for one player, and their streak of wins after it."""

    points: int
    streak: int

    @property
    def on_fire(self) -> bool:
        return on_fire(self.streak)


def on_fire(streak: int) -> bool:
    """Whether a player with ``streak`` wins in a row has their next win counted double."""
    return streak >= ON_FIRE_AFTER


def score(outcome: Outcome, *, streak: int, berserk: bool = False, own_moves: int = 0) -> Scored:
    """The points of a game ending in ``outcome`` for a player who came to it with ``streak`` wins in a row,
    ``berserk`` or not, having made ``own_moves`` moves in it; and their streak after it."""
    if outcome == "none":
        return Scored(0, streak)
    if outcome == "win":
        points = WIN * (2 if on_fire(streak) else 1)
        if berserk and own_moves >= BERSERK_MIN_MOVES:
            points += 1
        return Scored(points, streak + 1)
    return Scored(DRAW if outcome == "draw" else LOSS, 0)


@dataclass(frozen=True, slots=True)
class Played:
    """One finished arena game of a player, as the totals are replayed from: in the order the games ended."""

    outcome: Outcome
    berserk: bool = False
    own_moves: int = 0


def total(games: Iterable[Played]) -> tuple[int, int]:
    """(score, streak) after ``games`` in order: what a player's standings row must say."""
    points = streak = 0
    for game in games:
        scored = score(game.outcome, streak=streak, berserk=game.berserk, own_moves=game.own_moves)
        points += scored.points
        streak = scored.streak
    return points, streak
