"""The shapes of the arena tournaments' and the puzzles' endpoints (``games.api.arenas``, ``games.api.puzzles``);
the games' own are in ``schemas``."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Field, Schema
from pydantic import StrictBool, StrictInt

from .schemas import BodyIn, SideName, Text

ArenaStatus = Literal["upcoming", "running", "finished"]


class ArenaIn(BodyIn):
    """A new arena: the board in the words of ``POST /games``, a real-time clock, its length and start."""

    variant: Text = Field(..., examples=["classic"], description="a variant key, see GET /api/variants")
    options: dict[str, StrictInt | StrictBool] = Field(
        default_factory=dict, examples=[{}], description="the variant's options by name, e.g. {\"size\": 5}"
    )
    clock: Text = Field(..., max_length=64, examples=["3+2"], description="real time, M+S (e.g. 1+0, 3+2, 5+3)")
    minutes: StrictInt = Field(..., examples=[30], description="how long it runs: 10 to 120 minutes")
    starts_in: StrictInt = Field(
        0, examples=[300], description="seconds from now to its start (0: at once; a week at most)"
    )
    rated: StrictBool = Field(True, description="false: its games are casual, not rated")
    name: Text = Field("", max_length=100, description="its name (default: the board and the clock)")
    password: Text = Field("", max_length=100, description="players must give it to join (empty: anyone may)")
    berserk: StrictBool = Field(True, description="whether players may go berserk (halve their own clock)")


class ArenaJoinIn(BodyIn):
    password: Text | None = Field(None, max_length=100, description="a protected arena's password")


class StandingOut(Schema):
    rank: int = Field(..., description="1 for the first")
    username: str
    score: int
    games: int = Field(..., description="games counted (finished with a result)")
    wins: int
    on_fire: bool = Field(..., description="two wins in a row or more: the next win counts double")
    rating: int = Field(..., description="the player's rating in the arena's pool when they joined")
    withdrawn: bool
    playing: bool = Field(..., description="in a game of the arena now")


class ArenaSummaryOut(Schema):
    id: int
    url: str
    name: str
    status: ArenaStatus
    starts_at: datetime
    ends_at: datetime
    minutes: int
    variant: str
    options: dict[str, int | bool]
    clock: str = Field(..., examples=["3+2"])
    pool: str = Field(..., examples=["classic:blitz"], description="the rating pool its games count in")
    rated: bool
    berserk: bool
    protected: bool = Field(..., description="joining asks for a password")
    scheduled: bool = Field(..., description="one of the site's own, scheduled each hour")
    created_by: str | None = Field(..., description="who made it (null: the site)")
    players: int = Field(..., description="players who joined")


class ArenaListOut(Schema):
    upcoming: list[ArenaSummaryOut] = Field(..., description="soonest first")
    running: list[ArenaSummaryOut] = Field(..., description="ending soonest first")
    finished: list[ArenaSummaryOut] = Field(..., description="latest first")


class ArenaOut(ArenaSummaryOut):
    standings: list[StandingOut] = Field(..., description="one page of the standings, 20 rows (?page=)")
    page: int
    pages: int
    podium: list[StandingOut] = Field(..., description="a finished arena's first three (who played a game)")
    joined: bool = Field(..., description="you joined it (and did not withdraw)")
    withdrawn: bool = Field(..., description="you joined it, then withdrew (your score is kept)")
    your_game: int | None = Field(..., description="your game of this arena now, if you are playing one")


class StandingsQuery(Schema):
    page: int = Field(1, ge=1, le=1_000_000, description="the standings' page (20 rows each)")


# Puzzles ----------------------------------------------------------------------------------------------------


class PuzzleQuery(Schema):
    variant: Text = Field(..., max_length=20, examples=["classic"], description="a variant key")
    size: int | None = Field(None, description="nxn: the size")
    rows: int | None = Field(None, description="mnk: rows")
    cols: int | None = Field(None, description="mnk: columns")
    k: int | None = Field(None, description="mnk: how many in a row")
    closed_boards: bool | None = Field(None, description="ultimate: won boards closed")
    random_start: bool | None = Field(None, description="multi: the first board at random")
    mine: bool = Field(False, description="only your own missed wins (puzzles from your games)")


class PuzzleOut(Schema):
    id: int
    variant: str
    options: dict[str, int | bool]
    cells: list[SideName | None] = Field(..., description="one per cell: X, O or null, as in a game's JSON")
    rows: int
    cols: int
    active_boards: list[int] | None = Field(None, description="nested variants: boards the next move may use")
    to_move: SideName
    moves_to_win: int = Field(..., description="the solving side's moves to the win, this one included")
    rating: int = Field(..., description="the puzzle's own rating")
    played: list[str] = Field(..., description="the solution's moves played so far in your try (cell names)")
    done: bool = Field(..., description="your try is over")


class PuzzleMoveIn(BodyIn):
    move: Text = Field(..., max_length=10, examples=["b2"], description="the cell name of your move")


class PuzzleMoveOut(Schema):
    correct: bool
    reply: str | None = Field(..., description="the defence's answer when the puzzle goes on, else null")
    done: bool
    solution: list[str] | None = Field(..., description="the whole winning line by cell name, once done")
    refutation: str | None = Field(None, description="after a wrong move: the answer that refutes it")
    rating: int | None = Field(..., description="your puzzle rating on this board, once done")
    rating_delta: int | None = Field(None, description="its change, once done")


class PuzzleHintOut(Schema):
    hint: str = Field(..., description="the cell of the solving move to play now")
    hints: int = Field(..., description="hints taken in this try: each lowers what solving it is worth")
