"""Request and response shapes of the JSON API (``games.api``); they are also its OpenAPI schema.

Moves are named both ways: the engine's number (``move``) and the cell name of RULES.md (``name``: a column
letter from the left and a row number from the bottom, "b2", "h8", "e5"); a move may be sent as either.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import AfterValidator, ConfigDict, PlainValidator, StrictBool, StrictInt, WithJsonSchema

from ..engine import VARIANTS
from ..models import Opponent


def _no_nul(text: str) -> str:
    if "\x00" in text:
        raise ValueError("a NUL character (\\u0000) is not allowed here")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # JSON's "\ud800" escape alone: no character, and no database can store or look it up
        raise ValueError("a lone surrogate (\\ud800-\\udfff) is not a character") from None
    return text


def _move_value(value: Any) -> int | str:
    # a JSON integer, or a string (a cell name, read against the game's board by the endpoint); never true,
    # 4.0 or null
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _no_nul(value)
    raise ValueError("a move is a cell number (an integer) or a cell name such as 'b2'")


#: a move as a client sends it: the engine's number or the cell name (RULES.md "Cell names")
MoveValue = Annotated[
    int | str,
    PlainValidator(_move_value),
    WithJsonSchema(
        {"anyOf": [{"type": "integer"}, {"type": "string"}], "examples": [4, "b2"]}
    ),
]

#: a string without NUL characters or lone surrogates: PostgreSQL cannot store or compare a NUL, and neither
#: database driver can encode a surrogate (the web has NullCharacterMiddleware; its forms decode bytes, which
#: cannot carry one)
Text = Annotated[str, AfterValidator(_no_nul)]
#: a variant option's value: a whole number, true/false, or a word (m,n,k's ``opening``: freestyle, swap2); strict:
#: JSON's true is not the number 1, nor "5" the number 5 (the engine checks each option's type and range)
OptionValue = StrictInt | StrictBool | Annotated[str, Field(max_length=20, strict=True), AfterValidator(_no_nul)]
#: the options whose values are words (the others take numbers or true/false)
WORD_OPTIONS = frozenset(
    name for cls in VARIANTS.values() for name, (kind, *_rest) in cls.option_spec.items() if kind is str
)


def _words_only_where_taken(options: dict[str, Any]) -> dict[str, Any]:
    wrong = sorted(name for name, value in options.items() if isinstance(value, str) and name not in WORD_OPTIONS)
    if wrong:
        raise ValueError(f"option {wrong[0]!r} takes a whole number or true/false, not text")
    return options


#: a variant's options as a client sends them
Options = Annotated[dict[str, OptionValue], AfterValidator(_words_only_where_taken)]

# Built from the model's choices so the API offers exactly what the services accept.
OpponentName = Literal[tuple(Opponent.values)]  # type: ignore[valid-type]
VariantKey = Literal[tuple(VARIANTS)]  # type: ignore[valid-type]
SideName = Literal["X", "O"]
ResultFilter = Literal["won", "lost", "drawn", "unfinished", "your_turn"]
StatusName = Literal["open", "active", "finished"]


class ErrorOut(Schema):
    """Every refusal: a stable machine-readable ``code`` and a message for people."""

    code: str = Field(..., examples=["illegal_move"])
    message: str = Field(..., examples=["illegal move: cell 4 is already taken"])
    details: list[dict[str, Any]] | None = Field(
        None, description="for invalid_input: one entry per problem, with loc (where) and message"
    )
    retry_after: int | None = Field(
        None, description="for busy (429): seconds to wait before asking again (also the Retry-After header)"
    )


class PendingOut(Schema):
    """202: the server's workers are working it out (a slow computer's hint or analysis); ask again soon."""

    pending: Literal[True] = True
    message: str = Field(..., examples=["the computer is working it out; ask again in a moment"])
    retry_after: int = Field(..., description="seconds before asking again (also the Retry-After header)")


# Catalogue ----------------------------------------------------------------------------------------


class VariantOptionOut(Schema):
    name: str
    type: Literal["integer", "boolean", "string"]
    # bool before int: a JSON true stays true
    default: bool | int | str
    minimum: int | None = None
    maximum: int | None = None
    choices: list[str] | None = Field(None, description="a string option: its values (m,n,k's opening)")


class VariantOut(Schema):
    key: str
    title: str
    nested: bool = Field(..., description="nine 3 x 3 boards (ultimate, multi): moves are 9 * board + cell")
    options: list[VariantOptionOut]
    default_cells: int = Field(..., description="number of cells with the default options")
    strategies: list[str] = Field(..., description="strategies that play this variant at its default options")


class StrategyOptionOut(Schema):
    name: str
    type: str
    default: Any = None


class StrategyOut(Schema):
    name: str
    options: list[StrategyOptionOut] = Field(
        ..., description="the strategy's own options (the API plays strategies at their defaults)"
    )
    variants: list[str] = Field(..., description="variants it plays at their default options")


class RatingOut(Schema):
    rating: int
    deviation: int = Field(..., description="Glicko-2 rating deviation: how unsure the rating still is")
    provisional: bool = Field(..., description="deviation 110 or more: the site shows the rating with a '?'")
    label: str = Field(..., description="the pool in words, e.g. '7 x 7, 7 in a row · Untimed'")
    games: int
    won: int
    lost: int
    drawn: int
    history: list[int] = Field(
        ..., description="the rating before the first of your latest 50 rated games and after each, oldest first"
    )


class MeOut(Schema):
    id: int
    username: str
    bot: bool = Field(..., description="a bot account (POST /api/bot/account/upgrade; docs/bots.md)")
    ratings: dict[str, RatingOut] = Field(
        ...,
        description="by pool key (<board>:<speed>, e.g. nxn-7:untimed, classic:blitz): your Glicko-2 rating from "
        "games against other players, in the pools you have played rated games in",
    )


# Games --------------------------------------------------------------------------------------------


class BodyIn(Schema):
    """A request body: a field it does not know is refused (400), not ignored, so that a misspelt one
    ("plly") does not go unnoticed."""

    model_config = ConfigDict(extra="forbid")


class GameCreateIn(BodyIn):
    """The words of the web form (DESIGN.md): variant, its options, opponent, side, strategy."""

    variant: Text = Field(..., examples=["classic"], description="a variant key, see GET /api/variants")
    options: Options = Field(
        default_factory=dict, examples=[{}], description="the variant's options by name, e.g. {\"size\": 5}"
    )
    opponent: OpponentName = Field(  # type: ignore[valid-type]
        ..., description="easy/medium/hard (the computer), local (both seats yours), watch (computer against "
        "computer), human (another player; the game waits for them)"
    )
    side: Literal["X", "O", "random"] = Field("X", description="your side; X moves first")
    strategy: Text | None = Field(None, description="a strategy name overriding the computer's level")
    level: StrictInt | None = Field(
        None, ge=1, le=8, description="a computer opponent (or watch): a rung of the ladder, 1 (weakest) to 8, instead "
        "of the opponent's name (easy = 2, medium = 4, hard = 8)",
    )
    invite: Text | None = Field(
        None, max_length=150, description="opponent human: the username of the only player who may accept (a direct "
        "challenge); empty for an open challenge anyone may accept",
    )
    private: StrictBool | None = Field(
        None, description="only the players see the game; default: true for a direct challenge, false otherwise "
        "(anyone signed in may watch)",
    )
    clock: Text | None = Field(
        None, max_length=64, examples=["3+2"], description="opponent human: the time control, none (the default), "
        "M+S (minutes each + seconds added per move: 1+0, 3+2, 5+3, 10+5, 15+10, ...; minutes 0.25, 0.5, 0.75, 1.5 or "
        "1-180, increment 0-180) or Nd (correspondence: days per move, 1, 2, 3, 5, 7, 10 or 14). Refused (400 "
        "invalid_settings) against the computer, on one screen or watching",
    )


class MoveIn(BodyIn):
    move: MoveValue = Field(
        ..., description="the cell: its name (e.g. \"b2\", case-insensitive; RULES.md \"Cell names\") or the "
        "engine's move number (row * cols + col, or 9 * board + cell when nested)"
    )
    ply: StrictInt | None = Field(
        None, ge=0, examples=[2], description="the game's ply as you saw it (moves played so far): if another move "
        "was recorded since, 409 conflict and nothing is stored. Without it, the position as this request "
        "first reads it"
    )


class PlayOnIn(BodyIn):
    ply: StrictInt = Field(..., ge=0, examples=[3], description="play on from the position after this many moves")
    level: Literal["easy", "medium", "hard"] | Annotated[StrictInt, Field(ge=1, le=8)] = Field(
        "hard", examples=["hard", 5],
        description="the computer you play against: easy, medium or hard, or a rung of the ladder, 1 (weakest) to 8",
    )


class RecordIn(BodyIn):
    record: str = Field(
        ..., examples=['[Variant "classic"]\n[Result "1-0"]\n\n1. b2 a3 2. b1 c3 3. b3 1-0\n'],
        description="a game record (RULES.md \"Game records\"), at most 256 KB of UTF-8",
    )


class SeatOut(Schema):
    side: SideName
    kind: Literal["player", "computer", "open", "named"] = Field(
        ..., description="named: a seat of an imported game, named as its record names the player (label)"
    )
    username: str | None = None
    bot: bool = Field(False, description="the seat's player is a bot account")
    level: str | None = None
    strategy: str | None = None
    label: str


class MoveOut(Schema):
    ply: int = Field(..., description="1 for the first move")
    side: SideName
    move: int
    board: int | None = Field(None, description="nested variants: the board 0..8 (move // 9)")
    position: int = Field(..., description="the cell within its board (nested: move % 9), else the cell index")
    name: str = Field(..., examples=["b2"], description="the cell name: column from the left, row from the bottom")
    label: str = Field(..., description="the same as name (kept for older clients)")


class HintOut(Schema):
    move: int = Field(..., description="the suggested move (a cell index, as POST .../moves takes it)")
    name: str = Field(..., examples=["b2"], description="its cell name (POST .../moves takes it too)")
    label: str = Field(..., description="the same as name (kept for older clients)")
    hints: int = Field(..., description="hints asked for in this game so far")


class MoveVerdictOut(Schema):
    ply: int = Field(..., description="1 for the first move")
    side: SideName
    move: int
    name: str = Field(..., description="the move's cell name")
    label: str = Field(..., description="the same as name (kept for older clients)")
    before: Literal["win", "draw", "loss"] | None = Field(
        ..., description="the mover's outcome with best play before it; null where no search proved it"
    )
    after: Literal["win", "draw", "loss"] | None = Field(..., description="the same after it")
    mistake: bool = Field(..., description="the move was a mistake or a blunder (verdict not empty)")
    verdict: Literal["", "?", "??"] = Field(..., description="'?' a mistake, '??' a blunder (docs/features.md)")
    evaluation_before: float = Field(..., description="X's chance to win before the move, 0..1 (a draw counts 1/2)")
    evaluation: float = Field(..., description="X's chance to win after the move")
    proven_before: Literal["X", "O", "draw"] | None = Field(
        ..., description="the result with best play before the move where proven, else null"
    )
    proven: Literal["X", "O", "draw"] | None = Field(..., description="the same after the move")
    exact: bool = Field(..., description="the exact solver's verdict (small boards), not a search's estimate")
    best: list[int] = Field(
        ..., description="exact: the moves that keep the outcome the mover had; else the best move found"
    )
    best_names: list[str] = Field(..., description="the same moves by cell name")
    best_name: str | None = Field(..., description="the (first) best move's cell name")


class AnalysisOut(Schema):
    outcome: Literal["X", "O", "draw"] | None = Field(
        ..., description="the result with best play from the start, where known (solved boards); else null"
    )
    mistakes: dict[str, int] = Field(..., description="mistakes and blunders per side: {'X': n, 'O': m}")
    moves: list[MoveVerdictOut]


class PlayedOnOut(Schema):
    game: int = Field(..., description="the finished game")
    ply: int = Field(..., description="after how many of its moves; those moves begin this game's move list")


class RatingChangeOut(Schema):
    before: int
    after: int
    delta: int
    provisional: bool = Field(False, description="the rating after the game is still provisional ('?')")


class GameSummaryOut(Schema):
    id: int
    url: str
    variant: str
    variant_title: str
    options: dict[str, Any]
    opponent: str
    status: StatusName
    result: Literal["X", "O", "draw"] | None
    result_reason: str | None
    result_text: str
    ply: int
    to_move: SideName | None = Field(..., description="null once the game is finished")
    imported: bool = Field(False, description="read from a game record (POST /games/import): never rated")
    seats: list[SeatOut]
    your_sides: list[SideName]
    your_turn: bool
    created: datetime
    updated: datetime
    finished: datetime | None
    private: bool = Field(..., description="only the players (and the invitee) can see it")
    invitee: str | None = Field(..., description="a direct challenge: the only player who may accept it")
    version: int = Field(..., description="grows with every change of the game: poll and compare")
    rematch_of: int | None = Field(..., description="the game this one is the rematch of")
    rematch_offered_by: str | None = Field(..., description="a pending rematch offer: who made it")
    rematch_declined: bool = Field(
        ..., description="the opponent declined rematch_offered_by's offer: only the one who declined may offer again"
    )
    draw_offered_by: str | None = Field(..., description="a pending draw offer in a running game: who made it")
    claim_win_after: datetime | None = Field(
        ..., description="a running game between two players: from then on, the player waiting for a move may "
        "claim the win (POST .../claim-win); every change of the game moves it on"
    )
    clock: str = Field(
        ..., examples=["3+2"], description="the time control: none, M+S (real time) or Nd (correspondence)"
    )
    clock_ms: dict[SideName, int] | None = Field(
        ..., examples=[{"X": 178250, "O": 180000}], description="each side's time left in ms at the moment of the "
        "answer (the server's clock); null without a clock"
    )
    clock_running: SideName | None = Field(
        ..., description="the side whose time is running now; null before each side's first move, once the game "
        "is over, and without a clock"
    )
    takebacks: int = Field(..., description="moves taken back so far (POST .../takeback)")
    hints: int = Field(..., description="hints asked for so far (POST .../hint)")
    ratings: dict[SideName, RatingChangeOut] | None = Field(
        ...,
        description="a rated game (finished, between two players): each seat's rating in the game's pool "
        "before and after it",
    )
    pool: str | None = Field(
        None, description="a game between two players: the rating pool it counts in (<board>:<speed>)"
    )
    arena: int | None = Field(None, description="a game of an arena tournament: the arena (GET /api/arenas/{id})")
    played_on_from: PlayedOnOut | None = Field(
        ..., description="a game started by POST .../play-on: the finished game and the position it started from"
    )
    unrated_reason: Literal["pair_limit", "too_short", "casual"] | None = Field(
        ..., description="a game between two players that is not rated: pair_limit (the two had played "
        "5 rated games of the variant together in 24 hours), too_short (it ended before each player had moved), "
        "casual (asked for unrated: a casual quick pairing; set from the start)"
    )


class GameOut(GameSummaryOut):
    rows: int
    cols: int
    cells: list[SideName | None] = Field(..., description="one per cell: X, O or null")
    board_winners: list[SideName | None] | None = Field(None, description="nested variants: owner of each board")
    active_boards: list[int] | None = Field(None, description="nested variants: boards the next move may use")
    legal_moves: list[int] = Field(..., description="moves the side to move may play now (empty unless active)")
    moves: list[MoveOut]
    rematch: int | None = Field(None, description="the rematch of this game, once agreed")


class PlayOut(GameOut):
    played: list[MoveOut] = Field(..., description="the moves this request recorded: yours and the computer's reply")


class GameFilters(Schema):
    variant: VariantKey | None = Field(None, description="only this variant")  # type: ignore[valid-type]
    result: ResultFilter | None = Field(None, description="won/lost/drawn from your side, unfinished, or your_turn")  # type: ignore[valid-type]
    status: StatusName | None = Field(None, description="open, active or finished")  # type: ignore[valid-type]
    page: int = Field(1, ge=1, le=1_000_000)
    page_size: int = Field(20, ge=1, le=100)


class LeaderboardFilters(Schema):
    pool: str | None = Field(
        None, max_length=40, description="a pool key (<board>:<speed>, e.g. nxn-7:untimed); wins over variant"
    )
    variant: VariantKey = Field(  # type: ignore[valid-type]
        "classic", description="without pool: this variant's untimed pool at its default board"
    )
    bots: bool = Field(False, description="the bot accounts' list (people and bots are listed apart)")


class LeaderboardRowOut(Schema):
    rank: int
    username: str
    bot: bool
    rating: int
    deviation: int
    provisional: bool
    games: int
    won: int
    lost: int
    drawn: int


class LeaderboardOut(Schema):
    variant: str = Field(..., description="the pool's variant")
    pool: str = Field(..., description="the pool shown")
    label: str = Field(..., description="the pool in words")
    bots: bool = Field(..., description="the bot accounts' list, or the people's")
    rows: list[LeaderboardRowOut] = Field(..., description="the best-rated players, best first (at most 100)")


class GamePage(Schema):
    count: int
    page: int
    page_size: int
    pages: int
    items: list[GameSummaryOut]


class ChallengesOut(Schema):
    """The lobby: challenges you may accept, and yours still waiting."""

    open: list[GameSummaryOut] = Field(..., description="public open challenges of other players")
    for_you: list[GameSummaryOut] = Field(..., description="direct challenges sent to you")
    yours: list[GameSummaryOut] = Field(..., description="your challenges nobody has accepted yet")


# Quick pairing ------------------------------------------------------------------------------------


class SeekIn(BodyIn):
    """A seek: the game you want, in the words of ``POST /games`` (variant, options, clock) and rated or not."""

    variant: Text = Field(..., examples=["classic"], description="a variant key, see GET /api/variants")
    options: Options = Field(
        default_factory=dict, examples=[{}], description="the variant's options by name, e.g. {\"size\": 5}"
    )
    clock: Text = Field(
        "none", max_length=64, examples=["3+2"], description="the time control: none, M+S (e.g. 3+2) or Nd (e.g. 3d)"
    )
    rated: StrictBool = Field(True, description="false: a casual game, not rated; only seeks alike are paired")


class SeekOut(Schema):
    id: int
    status: Literal["waiting", "paired"]
    game: int | None = Field(..., description="paired: the new game's id (GET /api/games/{game}); else null")
    player: str = Field(..., description="the seeker's username")
    yours: bool
    variant: str
    options: dict[str, Any]
    clock: str = Field(..., examples=["3+2"])
    rated: bool
    pool: str = Field(..., examples=["classic:blitz"], description="the rating pool: board and speed")
    pool_label: str
    rating: int = Field(..., description="the seeker's rating in the pool when seeking")
    window: int | None = Field(
        ..., description="waiting: how far (±) the seeker's rating window reaches now; null once unbounded (or paired)"
    )
    created: datetime
