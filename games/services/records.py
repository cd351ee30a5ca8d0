"""Game records (issue 23): a record read into an imported game, and a new game from a position string.

A record is read by the engine (``read_record``: every move checked, the result against the final position
unless a Termination tag explains it); a good one becomes a finished, unrated, private game owned by the
importer, its players named as the record names them. Exporting is a read: ``games.records``.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ..engine import PositionError, RecordError, parse_position, position_string, read_record, shown
from ..errors import Busy, InvalidGameSettings, InvalidRecord
from ..models import Game, ImportAttempt, Move, Opponent
from .assists import analyse_when_over
from .computer import slow_computer_to_move
from .create import computer_level, computer_opening, game_create
from .moves import schedule_computer_move

#: the largest record accepted for import, in bytes of UTF-8 (a 19 x 19 game full to the last cell is ~2 KB)
MAX_IMPORT_BYTES = 256 * 1024
#: imports per player per window
IMPORTS_PER_WINDOW = 30
IMPORT_WINDOW = timedelta(hours=1)

#: the result tokens as the game row stores them ("*": finished with no result, an unfinished import)
RESULTS = {"1-0": Game.Result.X, "0-1": Game.Result.O, "1/2-1/2": Game.Result.DRAW, "*": Game.Result.NONE}

#: words of a Termination tag that name one of the site's own endings
_TERMINATIONS = (
    ("resign", Game.Reason.RESIGNED),
    ("agree", Game.Reason.AGREED),
    ("abandon", Game.Reason.ABANDONED),
    ("stopped playing", Game.Reason.ABANDONED),
    ("staff", Game.Reason.DECIDED),
    ("on time", Game.Reason.TIME),
    ("time forfeit", Game.Reason.TIME),
)


def decode_record(data: bytes) -> str:
    """The text of an uploaded record: UTF-8 (a byte-order mark allowed), no more than ``MAX_IMPORT_BYTES``."""
    check_size(len(data))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InvalidRecord(
            f"the record is not UTF-8 text (byte {err.start + 1} cannot be read): save it as UTF-8 and try again"
        ) from None


def check_size(size: int) -> None:
    """InvalidRecord for a record of more than ``MAX_IMPORT_BYTES`` bytes."""
    if size > MAX_IMPORT_BYTES:
        raise InvalidRecord(f"the record is too large: {size:,} bytes, at most {MAX_IMPORT_BYTES // 1024} KB")


def claim_import(player) -> None:
    """Count one import try of ``player`` (good or bad: a bad record costs as much to read as a good one): at
    most ``IMPORTS_PER_WINDOW`` in the last ``IMPORT_WINDOW``, else ``Busy`` (429, with Retry-After) and the try
    is not counted. The try is stored (and committed) before it is counted, so two at once can both be refused
    but never both pass the limit; the tries counted live in the database, so every web process agrees."""
    now = timezone.now()
    since = now - IMPORT_WINDOW
    with transaction.atomic():
        ImportAttempt.objects.filter(player=player, at__lt=since).delete()  # the player's expired tries
        attempt = ImportAttempt.objects.create(player=player, at=now)
    recent = ImportAttempt.objects.filter(player=player, at__gte=since).exclude(pk=attempt.pk)
    count = recent.count()
    if count >= IMPORTS_PER_WINDOW:
        attempt.delete()  # a refused try costs nothing: it does not push the player's wait further
        oldest = recent.order_by("at").values_list("at", flat=True).first() or now
        wait = max(1, int((oldest + IMPORT_WINDOW - now).total_seconds()) + 1)
        raise Busy(
            f"you have tried {count} imports in the last hour, the most allowed; try again in {wait // 60 + 1} "
            "minutes",
            retry_after=wait,
        )


def names_a_position(text: str) -> bool:
    """Whether a line of ``text`` starts (after spaces) with a Position tag: one pass over the text, each line
    looked at once (a regular expression anchored at every line start and skipping spaces read a run of blank
    lines again from each of them: quadratic)."""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("[Position") and stripped[9:10] in (" ", "\t"):
            return True
    return False


def _reason(record, result: str) -> str:
    """The stored reason of an imported game's end: the board's, or the Termination tag's when it names one of
    the site's endings (any other words stay in the record's tags and the result text shows them)."""
    final = record.final
    if final.is_over:
        if final.winner is None:
            return Game.Reason.FULL
        return Game.Reason.BOARDS if record.variant == "multi" else Game.Reason.LINE
    if result == Game.Result.NONE:
        return Game.Reason.NONE
    words = (record.termination or "").lower()
    found = next((reason for word, reason in _TERMINATIONS if word in words), Game.Reason.NONE)
    if found == Game.Reason.AGREED and result != Game.Result.DRAW:
        return Game.Reason.NONE
    return found


def game_import(*, player, text: str | bytes) -> Game:
    """A game read from the record ``text`` (or an uploaded file's bytes: UTF-8), stored for ``player`` (its
    owner: private, finished, never rated, shown with the record's player names). InvalidRecord with the line and
    move number for a record that is not sound; Busy for a try past the player's hourly limit (every try counts,
    good or bad: ``claim_import``)."""
    if not isinstance(text, str | bytes):
        raise InvalidRecord("a record is text")
    claim_import(player)
    if isinstance(text, bytes):
        text = decode_record(text)
    check_size(len(text.encode("utf-8", "surrogatepass")))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:  # a lone surrogate (JSON's "\ud800"): no character of any text
        raise InvalidRecord(f"character {err.start + 1} of the record is not a character of any text") from None
    if names_a_position(text):
        raise InvalidRecord(
            "a record that starts from a position (a Position tag) cannot be imported: open the position on the "
            "analysis board instead"
        )
    try:
        record = read_record(text)
    except RecordError as err:
        raise InvalidRecord(str(err), line=err.line, move_number=err.move_number) from None
    result = RESULTS[record.result]
    variant = record.final.variant

    def name(side: str) -> str:
        return " ".join(record.tags.get(side, "").split())[:150]

    now = timezone.now()
    game = Game(
        variant=variant.key, options=dict(variant.options), start_board=record.start_board,
        opponent=Opponent.LOCAL, created_by=player, private=True, imported=True,
        x_name=name("X"), o_name=name("O"), record_tags=dict(record.tags),
        status=Game.Status.FINISHED, result=result, result_reason=_reason(record, result),
        ply=len(record.moves), move_list=",".join(map(str, record.moves)), version=1, finished=now,
    )
    with transaction.atomic():
        game.save()
        if record.moves:
            Move.objects.bulk_create([
                Move(game=game, ply=ply, move=move, side=game.mover(ply))  # (a Swap2 game: by its opening)
                for ply, move in enumerate(record.moves, start=1)
            ])
        analyse_when_over(game)  # a 4 x 4 game's analysis is a worker's: ready when its replay opens
    return game


def game_from_position_string(*, player, position: str, level: str | int, side: str | None = None) -> Game:
    """A new game of ``player`` against the computer at ``level`` that starts from ``position`` (a position
    string: it names the variant); ``player`` plays ``side`` (X or O; by default the side to move there). The
    string is stored on the game (``start_position``): its state is rebuilt from it and the moves played after.
    A computer to move first plays at once if it is quick, from a worker otherwise."""
    try:
        state = parse_position((position or "").strip())
    except PositionError as err:
        raise InvalidGameSettings(f"not a position this site can set up: {err}") from None
    if state.is_over:
        raise InvalidGameSettings("the game is already over in this position: there is nothing to play")
    opponent, rung = computer_level(level)
    side = side or state.to_move
    if side not in ("X", "O"):
        raise InvalidGameSettings(f"side must be X or O, not {shown(side)}")
    with transaction.atomic():
        game = game_create(
            player=player, variant=state.variant.key, options=dict(state.variant.options), opponent=opponent,
            level=rung, side=side,
        )
        # the start is the position: multi's drawn board is in it; a computer turn game_create may have
        # enqueued (for the standard start) is left behind by the new version
        game.start_position, game.start_board, game.version = position_string(state), None, game.version + 1
        game.save(update_fields=["start_position", "start_board", "version", "updated"])
        if slow_computer_to_move(game):
            schedule_computer_move(game)
    return computer_opening(game=game)
