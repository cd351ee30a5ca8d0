"""Game records (RULES.md "Game records", like chess's PGN) and position strings (like chess's FEN).

A record is tag pairs, a blank line and the movetext in cell names, ending with the result::

    [Variant "mnk"]
    [Options "rows=15 cols=15 k=5"]
    [X "alice"]
    [Result "1-0"]

    1. h8 h9 2. g7 i9 3. f6 j10 4. e5 d4 5. g9 1-0

``write_record`` writes one, ``read_record`` reads one back (every move checked by the engine, the result
against the final position), ``read_records`` reads a text of several (records written one after another,
a blank line between them: ``"\\n".join(texts)``). Errors are ``RecordError`` (a ValueError) with the line
and the move where the problem is.

A position string is one position in a single URL-safe word (``position_string``, ``parse_position``);
its format is described at ``position_string`` and in docs/records.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import IllegalMove, InvalidCellName, State, Variant, shown
from .position_strings import position_string
from .variants import VARIANTS, get_variant

#: a longer text is refused before it is read (one record; read_records applies it to each of its records)
MAX_RECORD_CHARS = 1_000_000
#: the result tokens: X won, O won, a draw, not finished
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: a finished game's token by its winner (None: a draw)
RESULT_TOKENS: dict[str | None, str] = {"X": "1-0", "O": "0-1", None: "1/2-1/2"}
#: movetext lines are wrapped before this many characters
LINE_WIDTH = 80
#: tags the writer makes itself from its arguments
RESERVED_TAGS = ("Variant", "Options", "FirstBoard", "Result")
#: a longer position string is refused before it is read (19 x 19 full of single marks is about 380)

#: what a tag value may not hold (``tag_value_problem``): control characters (C0 and C1: a TAB, ESC, DEL), the
#: line and paragraph separators, and the marks that change the direction of text around them (an override
#: shows a name backwards and can turn the words after it around)
_NOT_IN_TAG_VALUE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\r\n]|\\["\\])*)"\][ \t]*(?=\r?\n|$)')
_UNESCAPE = re.compile(r"\\([\"\\])")
_MOVETEXT = re.compile(
    r"""(?P<space>\s+)
    | (?P<comment>\{[^}]*\})
    | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s{]|$))
    | (?P<number>[0-9]+\.(?:\.\.)?)
    | (?P<word>[^\s{}\[\]]+)""",
    re.VERBOSE,
)
_SKIP = re.compile(r"(?:\s+|\{[^}]*\})*")


class RecordError(ValueError):
    """A record that cannot be read (or written): the message starts with where, e.g.
    ``line 9, move 5 (X): j10 is already taken by O``.

    ``line`` is the line of the text (1 for the first; None when no line applies) and ``move_number`` the
    move's ply, counted over both sides: 1 for X's first move, 2 for O's first, 5 for X's third (None when
    the problem is not a move's). ``reason`` is the message without the place.
    """

    def __init__(
        self, reason: str, *, line: int | None = None, move_number: int | None = None, side: str | None = None
    ) -> None:
        self.reason = reason
        self.line = line
        self.move_number = move_number
        where = []
        if line is not None:
            where.append(f"line {line}")
        if move_number is not None:
            # ``side``: whose move it was, where the ply's parity does not say (a Swap2 opening)
            where.append(f"move {move_number} ({side or ('X' if move_number % 2 else 'O')})")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


@dataclass(frozen=True)
class Record:
    """One game read from a record: its variant and options, every tag as written (in order), the moves,
    the result token, multi's drawn first board (``start_board``, else None) and the final position."""

    variant: str
    options: dict[str, Any]
    tags: dict[str, str]
    moves: list[int]
    result: str
    start_board: int | None
    final: State = field(repr=False, compare=False)

    @property
    def termination(self) -> str | None:
        """The Termination tag: how a game ended that its board does not decide (resignation, time...)."""
        return self.tags.get("Termination")

    def text(self) -> str:
        """The record written again (tags in the writer's order, movetext rewrapped)."""
        return write_record(
            self.final.variant, self.moves, result=self.result, tags=self.tags, start_board=self.start_board
        )


def result_token(state: State) -> str:
    """The result token the position decides: '1-0', '0-1', '1/2-1/2', or '*' while the game goes on."""
    if not state.is_over:
        return "*"
    return RESULT_TOKENS[state.winner]


def _result_problem(state: State, result: str, termination: str | None) -> str | None:
    """Why ``result`` cannot stand for a game that ended in ``state`` (None: it can)."""
    decided = result_token(state)
    if state.is_over and result != decided:
        words = f"{state.winner} won" if state.winner else "it is a draw"
        return f"the game is over on the board ({words}: {decided}), but the result says {result}"
    if not state.is_over and result != "*" and not (termination or "").strip():
        return (
            f"the board does not decide the game ({state.to_move} to move), but the result says {result}: "
            "a Termination tag must say how it ended (resignation, time, agreement, abandonment...)"
        )
    return None


def _options_text(variant: Variant) -> str:
    """Every option as name=value (on/off as 1/0); a word option only when it is not its default (m,n,k's
    ``opening=swap2``: records of freestyle games stay as they were)."""
    spec = variant.option_spec
    return " ".join(
        f"{name}={value}" if spec[name][0] is str else f"{name}={int(value)}"
        for name, value in variant.options.items()
        if spec[name][0] is not str or value != spec[name][1]
    )


def _parse_options(key: str, text: str) -> dict[str, Any]:
    """'rows=15 cols=15 k=5' -> {'rows': 15, ...}, typed by the variant's option_spec; ValueError otherwise."""
    spec = VARIANTS[key].option_spec
    options: dict[str, Any] = {}
    for item in text.split():
        name, eq, raw = item.partition("=")
        if not eq or not name:
            raise ValueError(f"option {shown(item)} must look like name=value")
        if name in options:
            raise ValueError(f"option {shown(name)} is given twice")
        kind = spec[name][0] if name in spec else None
        if kind is bool:
            if raw.lower() not in ("0", "1", "true", "false"):
                raise ValueError(f"option {name!r} is 1 or 0, not {shown(raw)}")
            options[name] = raw.lower() in ("1", "true")
        elif kind is int:
            if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
                raise ValueError(f"option {name!r} must be a whole number, not {shown(raw)}")
            options[name] = int(raw)
        else:
            options[name] = raw  # unknown: get_variant names it with the options the variant takes
    return options


def _character(char: str) -> str:
    """A character that may not be in a tag value, in words."""
    code = f"U+{ord(char):04X}"
    if char <= "\x9f":
        tab = ", a tab" if char == "\t" else ""
        return f"a control character ({code}{tab})"
    if char in "\u2028\u2029":
        return f"a line or paragraph separator ({code})"
    return f"a mark that changes the direction of text ({code})"


def tag_value_problem(value: str) -> str | None:
    """What a tag value may hold, for the reader and the writer alike: one line of text without control
    characters (a TAB, ESC...), line or paragraph separators, or marks that change the direction of text. None
    when ``value`` may be a tag value, else the first character that may not, in words."""
    found = _NOT_IN_TAG_VALUE.search(value)
    return None if found is None else f"holds {_character(found[0])}"


def clean_tag_value(value: str) -> str:
    """``value`` made a tag value: each line break, tab or separator becomes a space and other characters a tag
    value may not hold (``tag_value_problem``) are left out. For values stored before they were checked."""
    return _NOT_IN_TAG_VALUE.sub(lambda found: " " if found[0].isspace() else "", value)


def is_tag_name(name: object) -> bool:
    """Whether ``name`` may name a tag: a letter, then letters, digits or '_'."""
    return isinstance(name, str) and _TAG_NAME.fullmatch(name) is not None


def tag_line(name: str, value: str) -> str:
    """``[name "value"]``, the value escaped; RecordError for a name or value a reader would refuse."""
    if not is_tag_name(name):
        raise RecordError(f"a tag name is a letter then letters, digits or '_', not {shown(name)}")
    if not isinstance(value, str):
        raise RecordError(f"the value of tag {name!r} must be text, not {shown(value)}")
    problem = tag_value_problem(value)
    if problem:
        raise RecordError(f"the value of tag {name!r} {problem}: {shown(value)}")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _wrap(units: Sequence[str], width: int = LINE_WIDTH) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > width:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    if line:
        lines.append(line)
    return lines


def _new_game(variant: Variant, start_board: int | None) -> State:
    if start_board is None:
        return variant.new_game()
    return variant.new_game(start_board=start_board)  # type: ignore[call-arg]  # nested variants take it


def write_record(
    variant: Variant, moves: Sequence[int], *, result: str | None = None, tags: Mapping[str, str] | None = None,
    start_board: int | None = None, start: State | None = None,
) -> str:
    """The game as a record (RULES.md "Game records"), ending with a newline.

    ``result`` is a token of RESULTS; None takes it from the final position ('*' while the game goes on).
    A result the board does not decide needs a ``Termination`` tag in ``tags``. ``tags`` are written in their
    order after Variant, Options (every option of the variant, so that the record says all) and FirstBoard
    (multi's drawn board with random_start: ``start_board``, or the board of the first move); Result comes
    before Termination or last. Tags named Variant, Options, FirstBoard or Result in ``tags`` must agree with
    what is written (so a Record's tags can be given back). RecordError (with ``move_number`` for an illegal
    move) when the game cannot be written as a readable record.

    ``start``: the position the game started from when it is not the variant's start (the analysis board's
    games): the record then carries a ``Position`` tag (its position string, where ``tags`` has one or else after
    Options) and its moves are numbered from 1 from there, ``1...`` first when O moves first.
    """
    if not isinstance(variant, Variant):
        raise RecordError(f"write_record takes a variant (get_variant(...)), not {shown(variant)}")
    if start is not None:
        return _write_from(start, moves, result=result, tags=dict(tags or {}))
    if variant.options.get("random_start"):
        if start_board is None and moves:
            start_board = moves[0] // 9 if isinstance(moves[0], int) else None
        if start_board is None:
            raise RecordError("random_start: give start_board, the board drawn for the first move")
    elif start_board is not None:
        raise RecordError("start_board belongs to multi with random_start only")
    try:
        state = _new_game(variant, start_board)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    for ply, move in enumerate(moves, 1):
        try:
            state = state.play(move)
        except IllegalMove as exc:
            raise RecordError(str(exc), move_number=ply) from None
    token = result_token(state) if result is None else result
    if token not in RESULTS:
        raise RecordError(f"a result is one of {', '.join(RESULTS)}, not {shown(token)}")
    given = dict(tags or {})
    problem = _result_problem(state, token, given.get("Termination"))
    if problem:
        raise RecordError(problem)
    header = [("Variant", variant.key)]
    if variant.option_spec:
        header.append(("Options", _options_text(variant)))
    if start_board is not None:
        header.append(("FirstBoard", str(start_board)))
    written = dict(header) | {"Result": token}
    for name, value in given.items():
        if name in RESERVED_TAGS:
            same = (
                _options_equal(variant, value) if name == "Options" else str(value).strip() == written.get(name)
            )
            if not same:
                raise RecordError(f"tag {name} {shown(value)} disagrees with the game written ({written.get(name)!r})")
            continue
        if name == "Termination":
            header.append(("Result", token))
        header.append((name, value))
    if not any(name == "Result" for name, _ in header):
        header.append(("Result", token))
    return _text(header, _units(variant, moves, o_first=False), token)


def _units(variant: Variant, moves: Sequence[int], *, o_first: bool) -> list[str]:
    """The movetext's words: each X move numbered (``1. b2``), ``1...`` before a first move of O's."""
    units = []
    for index, move in enumerate(moves):
        ply = index + o_first
        name = variant.cell_name(move)
        if ply % 2 == 0:
            units.append(f"{ply // 2 + 1}. {name}")
        else:
            units.append(f"1... {name}" if index == 0 else name)
    return units


def _text(header: Sequence[tuple[str, str]], units: list[str], token: str) -> str:
    lines = [tag_line(name, value) for name, value in header]
    return "\n".join([*lines, "", *_wrap([*units, token])]) + "\n"


def _write_from(start: State, moves: Sequence[int], *, result: str | None, tags: dict[str, str]) -> str:
    """write_record from ``start`` (see there)."""
    variant = start.variant
    state = start
    for ply, move in enumerate(moves, 1):
        try:
            state = state.play(move)
        except IllegalMove as exc:
            raise RecordError(str(exc), move_number=ply) from None
    token = result_token(state) if result is None else result
    if token not in RESULTS:
        raise RecordError(f"a result is one of {', '.join(RESULTS)}, not {shown(token)}")
    problem = _result_problem(state, token, tags.get("Termination"))
    if problem:
        raise RecordError(problem)
    position = position_string(start)
    if tags.get("Position", position) != position:
        raise RecordError(f"tag Position {shown(tags['Position'])} disagrees with the start given ({position!r})")
    header = [("Variant", variant.key)]
    if variant.option_spec:
        header.append(("Options", _options_text(variant)))
    if "Position" not in tags:
        header.append(("Position", position))
    header += [(name, value) for name, value in tags.items() if name not in RESERVED_TAGS and name != "Termination"]
    header.append(("Result", token))
    if tags.get("Termination"):
        header.append(("Termination", tags["Termination"]))
    return _text(header, _units(variant, moves, o_first=start.to_move == "O"), token)


def _options_equal(variant: Variant, text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        return get_variant(variant.key, **_parse_options(variant.key, text)).options == variant.options
    except ValueError:
        return False


# --- reading -------------------------------------------------------------------------------------------


class _Scanner:
    """Cuts a text into records: each record's tags (name, value, line) and movetext tokens (kind, text, line)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.last_line = 1  # the line of the last tag or token read: where a cut-short record ends

    def _advance(self, end: int) -> None:
        self.line += self.text.count("\n", self.pos, end)
        self.pos = end

    def skip(self) -> None:
        """Past spaces, line breaks and comments."""
        end = _SKIP.match(self.text, self.pos).end()  # type: ignore[union-attr]  # matches the empty string
        self._advance(end)

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def record(self) -> tuple[list[tuple[str, str, int]], list[tuple[str, str, int]], int]:
        """The next record (the scanner is at its first tag or move); the line where it starts."""
        text = self.text
        start, first_line = self.pos, self.line
        tags: list[tuple[str, str, int]] = []
        while not self.at_end() and text[self.pos] == "[":
            match = _TAG_LINE.match(text, self.pos)
            if match is None:
                end = text.find("\n", self.pos)
                shown_line = text[self.pos: end if end >= 0 else len(text)]
                raise RecordError(
                    f"cannot read the tag line {shown(shown_line.rstrip(), 60)}: a tag looks like [Name \"value\"]",
                    line=self.line,
                )
            value = _UNESCAPE.sub(r"\1", match[2])
            problem = tag_value_problem(value)
            if problem:
                raise RecordError(
                    f"the value of tag {match[1]} {problem}: a value is one line of text", line=self.line
                )
            tags.append((match[1], value, self.line))
            self.last_line = self.line
            self._advance(match.end())
            self.skip()
        tokens: list[tuple[str, str, int]] = []
        while True:
            if self.pos - start > MAX_RECORD_CHARS:
                raise RecordError(f"record too long: more than {MAX_RECORD_CHARS:,} characters", line=first_line)
            if self.at_end():
                raise RecordError(
                    "the record is cut short: its movetext has no result token at the end (1-0, 0-1, 1/2-1/2 or *)",
                    line=self.last_line,
                )
            match = _MOVETEXT.match(text, self.pos)
            if match is None:
                char = text[self.pos]
                if char == "{":
                    raise RecordError("this comment is never closed with '}'", line=self.line)
                if char == "[":
                    raise RecordError(
                        "a tag where moves were expected: the game before it has no result token at its end "
                        "(1-0, 0-1, 1/2-1/2 or *)",
                        line=self.line,
                    )
                raise RecordError(f"unexpected {char!r} in the movetext", line=self.line)
            kind = match.lastgroup
            assert kind is not None
            if kind not in ("space", "comment"):
                tokens.append((kind, match[0], self.line))
                self.last_line = self.line
            self._advance(match.end())
            if kind == "result":
                return tags, tokens, first_line


def _build(tags: list[tuple[str, str, int]], tokens: list[tuple[str, str, int]], first_line: int) -> Record:
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    for name, value, line in tags:
        if name in values:
            raise RecordError(f"tag {name} is given twice (first on line {lines[name]})", line=line)
        values[name] = value
        lines[name] = line
    for required in ("Variant", "Result"):
        if required not in values:
            raise RecordError(f"the {required} tag is missing (RULES.md: Variant and Result are required)",
                              line=first_line)
    key = values["Variant"].strip()
    if key not in VARIANTS:
        raise RecordError(f"unknown variant {shown(key)}; choose one of {', '.join(VARIANTS)}", line=lines["Variant"])
    try:
        options = _parse_options(key, values.get("Options", ""))
        variant = get_variant(key, **options)
    except ValueError as exc:
        raise RecordError(f"bad Options: {exc}", line=lines.get("Options", lines["Variant"])) from None
    tag_result = values["Result"].strip()
    if tag_result not in RESULTS:
        raise RecordError(
            f"the Result tag says {shown(values['Result'])}: it is one of {', '.join(RESULTS)}", line=lines["Result"]
        )
    start_board = None
    first = values.get("FirstBoard")
    if variant.options.get("random_start"):
        if first is None:
            raise RecordError("random_start=1 needs a FirstBoard tag: the board drawn (0-8)", line=lines["Options"])
        if first.strip() not in tuple("012345678"):
            raise RecordError(f"FirstBoard is a board number 0-8, not {shown(first)}", line=lines["FirstBoard"])
        start_board = int(first.strip())
    elif first is not None:
        raise RecordError("a FirstBoard tag belongs to multi with random_start=1 only", line=lines["FirstBoard"])
    state = _new_game(variant, start_board)
    moves: list[int] = []
    for kind, text, line in tokens:
        ply = state.ply + 1
        if kind == "number":
            number, expected = int(text.rstrip(".")), ply // 2 + (ply % 2)
            if number != expected:
                raise RecordError(f"move number {text} where {expected}. was expected", line=line, move_number=ply)
        elif kind == "word":
            if state.is_over:
                raise RecordError(
                    f"the game is over ({result_token(state)}), yet the movetext goes on with {shown(text)}",
                    line=line, move_number=ply,
                )
            try:
                move = variant.parse_cell(text)
                state = state.play(move)
            except (InvalidCellName, IllegalMove) as exc:
                raise RecordError(str(exc), line=line, move_number=ply, side=state.to_move) from None
            moves.append(move)
        else:  # the result token ends the movetext
            if text != tag_result:
                raise RecordError(f"the movetext ends with {text} but the Result tag says {tag_result}", line=line)
            problem = _result_problem(state, text, values.get("Termination"))
            if problem:
                raise RecordError(problem, line=line)
    return Record(key, dict(variant.options), values, moves, tag_result, start_board, state)


def _check_text(text: object) -> str:
    if isinstance(text, bytes | bytearray):
        raise RecordError("a record is text: decode the bytes first (records are UTF-8)")
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {shown(text)}")
    nul = text.find("\x00")
    if nul >= 0:
        raise RecordError("a NUL character: a record is plain text", line=text.count("\n", 0, nul) + 1)
    return text[1:] if text.startswith("\ufeff") else text


def read_record(text: str) -> Record:
    """One game from its record; RecordError (with line and move) for anything that is not a sound record."""
    text = _check_text(text)
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"record too long: {len(text):,} characters, at most {MAX_RECORD_CHARS:,}")
    scanner = _Scanner(text)
    scanner.skip()
    if scanner.at_end():
        raise RecordError("the record is empty: it needs at least the Variant and Result tags and a result token")
    record = _build(*scanner.record())
    scanner.skip()
    if not scanner.at_end():
        raise RecordError(
            "text after the game's result token: a record holds one game (read several with read_records)",
            line=scanner.line,
        )
    return record


def read_records(text: str) -> Iterator[Record]:
    """Every game of a text of records, one after another (a blank line between them is usual); stops at the
    first record in error with its RecordError (lines counted over the whole text)."""
    scanner = _Scanner(_check_text(text))
    while True:
        scanner.skip()
        if scanner.at_end():
            return
        yield _build(*scanner.record())
