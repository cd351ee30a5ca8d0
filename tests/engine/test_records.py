"""Game records and position strings (RULES.md "Game records"; docs/records.md)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engine import (
    PositionError,
    Record,
    RecordError,
    clean_tag_value,
    get_variant,
    parse_position,
    position_string,
    read_record,
    read_records,
    result_token,
    tag_value_problem,
    write_record,
)
from games.engine.records import MAX_RECORD_CHARS

#: X wins classic with the middle column (b1 b2 b3) on its fifth move
WON = "b2 a3 b1 c3 b3"
GOMOKU = """\
[Variant "mnk"]
[Options "rows=15 cols=15 k=5"]
[X "alice"]
[O "Computer (hard)"]
[Date "2026.11.26"]
[Clock "3+2"]
[Result "1-0"]
[Termination "five in a row"]

1. h8 h9 2. g7 i9 3. f6 j10 4. e5 k11 5. d4 1-0
"""


def moves_of(key: str, names: str, **options: object) -> list[int]:
    variant = get_variant(key, **options)
    return [variant.parse_cell(name) for name in names.split()]


def record(movetext: str, *tags: str, result: str = "*") -> str:
    """A record with the given tag lines (Variant classic unless given) and Result, and this movetext."""
    lines = list(tags) or ['[Variant "classic"]']
    return "\n".join([*lines, f'[Result "{result}"]', "", movetext]) + "\n"


def refused(text: str, words: str, line: int | None, move_number: int | None = None) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_record(text)
    error = info.value
    assert words in str(error), str(error)
    assert (error.line, error.move_number) == (line, move_number), str(error)
    assert isinstance(error, ValueError)
    return error


# --- reading and writing ----------------------------------------------------------------------------------


def test_the_rules_example_reads() -> None:
    game = read_record(GOMOKU)
    assert (game.variant, game.options, game.result) == ("mnk", {"rows": 15, "cols": 15, "k": 5}, "1-0")
    assert game.moves == moves_of("mnk", "h8 h9 g7 i9 f6 j10 e5 k11 d4")
    assert game.final.is_over and game.final.winner == "X"
    assert list(game.tags) == ["Variant", "Options", "X", "O", "Date", "Clock", "Result", "Termination"]
    assert game.tags["O"] == "Computer (hard)" and game.termination == "five in a row"
    assert game.start_board is None


def test_writing_gives_the_rules_format() -> None:
    variant = get_variant("mnk", rows=15, cols=15, k=5)
    tags = {"X": "alice", "O": "Computer (hard)", "Date": "2026.11.26", "Clock": "3+2", "Termination": "five in a row"}
    text = write_record(variant, moves_of("mnk", "h8 h9 g7 i9 f6 j10 e5 k11 d4"), tags=tags)
    assert text == GOMOKU
    assert read_record(text).text() == text


def test_every_option_is_written_and_the_result_comes_from_the_board() -> None:
    text = write_record(get_variant("ultimate"), [40, 36])
    assert text == '[Variant "ultimate"]\n[Options "closed_boards=0"]\n[Result "*"]\n\n1. e5 d6 *\n'
    text = write_record(get_variant("classic"), moves_of("classic", WON))
    assert '[Result "1-0"]' in text and text.endswith("\n\n1. b2 a3 2. b1 c3 3. b3 1-0\n")
    assert "Options" not in text  # classic has no options
    draw = moves_of("classic", "b2 a3 c3 a1 a2 c2 b3 b1 c1")
    assert write_record(get_variant("classic"), draw).endswith("5. c1 1/2-1/2\n")
    assert write_record(get_variant("classic"), []).endswith('[Result "*"]\n\n*\n')


def test_multi_random_start_writes_its_first_board() -> None:
    variant = get_variant("multi", random_start=True)
    text = write_record(variant, [27, 4])  # the board of the first move: 3
    assert '[Options "random_start=1"]\n[FirstBoard "3"]' in text
    game = read_record(text)
    assert game.start_board == 3 and game.final.active_boards == [4] and game.moves == [27, 4]
    assert read_record(write_record(variant, [], start_board=5)).final.active_boards == [5]
    with pytest.raises(RecordError, match="give start_board"):
        write_record(variant, [])
    with pytest.raises(RecordError, match="start_board must be a board number 0..8, not 9"):
        write_record(variant, [], start_board=9)
    with pytest.raises(RecordError, match="start_board belongs to multi with random_start only"):
        write_record(get_variant("multi"), [], start_board=2)


def test_long_games_wrap_before_80_characters() -> None:
    variant = get_variant("mnk", rows=19, cols=19, k=5)
    rng = random.Random(1)
    state, moves = variant.new_game(), []
    while not state.is_over:
        moves.append(rng.choice(state.legal_moves()))
        state = state.play(moves[-1])
    text = write_record(variant, moves)
    movetext = text.split("\n\n", 1)[1].splitlines()
    assert len(movetext) > 3 and all(len(line) <= 80 for line in movetext)
    assert not any(re.search(r"\d+\.$", line) for line in movetext)  # a move number stays with its move
    assert read_record(text).moves == moves


def test_tag_values_are_escaped_and_unknown_tags_kept_in_order() -> None:
    tags = {"Zeta": 'say "hi" \\ bye', "Alpha": "", "Site": "here"}
    game = read_record(write_record(get_variant("classic"), [4], tags=tags))
    assert list(game.tags) == ["Variant", "Zeta", "Alpha", "Site", "Result"]
    assert game.tags["Zeta"] == 'say "hi" \\ bye' and game.tags["Alpha"] == ""


@pytest.mark.parametrize(
    ("char", "words"),
    [
        ("\t", "a control character (U+0009, a tab)"),
        ("\x1b", "a control character (U+001B)"),
        ("\x7f", "a control character (U+007F)"),
        ("\x85", "a control character (U+0085)"),
        ("\u2028", "a line or paragraph separator (U+2028)"),
        ("\u2029", "a line or paragraph separator (U+2029)"),
        ("\u202e", "a mark that changes the direction of text (U+202E)"),
        ("\u2066", "a mark that changes the direction of text (U+2066)"),
        ("\u200f", "a mark that changes the direction of text (U+200F)"),
    ],
    ids=["tab", "esc", "del", "nel", "line-separator", "paragraph-separator", "rlo", "lri", "rlm"],
)
def test_a_tag_value_holds_no_control_separator_or_direction_mark(char: str, words: str) -> None:
    """The reader took a TAB or ESC in a tag value that the writer then refused: a game imported, never exported."""
    text = record("*", '[Variant "classic"]', f'[X "ann{char}"]', '[Site "here"]')
    refused(text, f"the value of tag X holds {words}", 2)
    with pytest.raises(RecordError, match=re.escape(words)):
        write_record(get_variant("classic"), [], tags={"X": f"ann{char}"})
    assert tag_value_problem(f"ann{char}") == f"holds {words}"
    cleaned = clean_tag_value(f"a{char}b")
    assert cleaned == ("a b" if char.isspace() else "ab") and tag_value_problem(cleaned) is None


def test_ordinary_text_of_every_script_is_a_tag_value() -> None:
    for value in ("Zoë", "Алиса", "ליאור", "علي", "李小龍", "👩\u200d💻", "a\u00a0b", ""):
        assert tag_value_problem(value) is None
        assert read_record(write_record(get_variant("classic"), [], tags={"X": value})).tags["X"] == value


def test_comments_and_loose_move_numbers() -> None:
    text = record(
        "{a comment, even 1-0 or [Tag \"x\"]} 1. b2 {X takes\nthe centre} 1... a3 2.b1 c3\n3. b3 1-0 {after the game}",
        result="1-0",
    )
    game = read_record(text)
    assert game.moves == moves_of("classic", WON) and game.final.winner == "X"
    assert read_record(record("B2 A3 a1 *")).moves == [4, 0, 6]  # no numbers at all, names in capitals


def test_writing_refuses_what_cannot_be_read_back() -> None:
    classic = get_variant("classic")
    with pytest.raises(RecordError, match="Termination tag must say"):
        write_record(classic, [4], result="1-0")
    assert write_record(classic, [4], result="0-1", tags={"Termination": "X resigned"}).endswith("1. b2 0-1\n")
    with pytest.raises(RecordError, match=re.escape("the game is over on the board (X won: 1-0), but the result")):
        write_record(classic, moves_of("classic", WON), result="1/2-1/2")
    with pytest.raises(RecordError, match="not 'X wins'"):
        write_record(classic, [], result="X wins")
    with pytest.raises(RecordError, match=re.escape("move 2 (O): b2 is already taken by X")):
        write_record(classic, [4, 4])
    with pytest.raises(RecordError, match="control character"):
        write_record(classic, [], tags={"X": "two\nlines"})
    with pytest.raises(RecordError, match="tag name"):
        write_record(classic, [], tags={"two words": "x"})
    with pytest.raises(RecordError, match="disagrees"):
        write_record(classic, [], tags={"Variant": "four"})
    with pytest.raises(RecordError, match="disagrees"):
        write_record(get_variant("nxn", size=5), [], tags={"Options": "size=6"})
    # a Record's own tags may be given back
    game = read_record(GOMOKU)
    assert write_record(game.final.variant, game.moves, result=game.result, tags=game.tags) == GOMOKU


def test_several_records_in_one_text() -> None:
    texts = [GOMOKU, write_record(get_variant("ultimate"), [40, 36]), write_record(get_variant("classic"), [])]
    games = list(read_records("\n".join(texts)))
    assert [g.variant for g in games] == ["mnk", "ultimate", "classic"]
    assert [g.moves for g in games][1:] == [[40, 36], []]
    assert list(read_records("")) == [] and list(read_records("\n  {nothing}\n")) == []
    # an error in the third record names the line in the whole text
    bad = "\n".join([*texts[:2], record("1. b2 b2 *")])
    games_iter = read_records(bad)
    assert next(games_iter).variant == "mnk" and next(games_iter).variant == "ultimate"
    with pytest.raises(RecordError) as info:
        next(games_iter)
    assert info.value.line == bad.splitlines().index("1. b2 b2 *") + 1 and info.value.move_number == 2
    with pytest.raises(RecordError, match="several with read_records"):
        read_record("\n".join(texts[:2]))


def test_result_token() -> None:
    state = get_variant("classic").new_game()
    assert result_token(state) == "*"
    for move in moves_of("classic", "b2 a3 c3 a1 a2 c2 b3 b1"):
        state = state.play(move)
    assert result_token(state.play(8)) == "1/2-1/2"


# --- every refusal: the line and the move ---------------------------------------------------------------

_BIG = '[Variant "mnk"]\n[Options "rows=15 cols=15 k=5"]\n[X "a"]\n[O "b"]\n[Date "2026.11.26"]\n[Result "*"]\n'


def test_illegal_move_names_the_line_and_the_move() -> None:
    text = _BIG + "[Site \"x\"]\n\n1. h8 h9 2. g7 j10 3. j10 *\n"
    error = refused(text, "line 9, move 5 (X): j10 is already taken by O", 9, 5)
    assert error.reason == "j10 is already taken by O"


def test_bad_cell_name() -> None:
    refused(record("1. b2 a3\n2. z9 *"), "line 5, move 3 (X): 'z9' is not a cell of this 3 x 3 board", 5, 3)
    refused(record("1. b2 resigns *"), "'resigns' is not a cell", 4, 2)


def test_wrong_board_in_ultimate() -> None:
    text = record("1. e5 a9 *", '[Variant "ultimate"]')
    refused(text, "move 2 (O): a9 is on board 0 (a7-c9), but this move must be on board 4 (d4-f6)", 4, 2)


def test_moves_after_the_end() -> None:
    refused(record("1. b2 a3 2. b1 c3 3. b3 a2 1-0", result="1-0"), "the game is over (1-0)", 4, 6)


@pytest.mark.parametrize(
    ("text", "words", "line"),
    [
        ('[Result "*"]\n\n*\n', "the Variant tag is missing", 1),
        ('\n\n[Variant "classic"]\n\n*\n', "the Result tag is missing", 3),
        ('[Variant "chess"]\n[Result "*"]\n\n*\n', "unknown variant 'chess'; choose one of classic", 1),
        ('[Variant "classic"]\n[Result "X wins"]\n\n*\n', "the Result tag says 'X wins'", 2),
        ('[Variant "classic"]\n[Variant "four"]\n[Result "*"]\n\n*\n', "tag Variant is given twice (first on", 2),
        ('[Variant "classic"]\n[Result *]\n\n*\n', "cannot read the tag line '[Result *]'", 2),
        ('[Variant "classic"]\n[Result "*"] junk\n\n*\n', "cannot read the tag line", 2),
        ('[Variant "classic"]\n[Result "*"\n\n*\n', "cannot read the tag line", 2),
        ('[Variant "classic"]\n[X "a\\nb"]\n[Result "*"]\n\n*\n', "cannot read the tag line", 2),
        ('[Variant "classic"]\n[Result "*"]\n\n1. b2\n\n', "cut short: its movetext has no result token", 4),
        ('[Variant "classic"]\n[Result "*"]\n', "cut short", 2),
        ('[Variant "classic"]\n[Result "*"]\n\n1. b2 {unclosed *\n', "comment is never closed", 4),
        ('[Variant "classic"]\n[Result "*"]\n\n1. b2 } *\n', "unexpected '}'", 4),
        ('[Variant "classic"]\n[Result "*"]\n\n1. b2 *\n1. b2', "text after the game's result token", 5),
        ('[Variant "classic"]\n[Result "*"]\n\n1. b2\n[Variant "classic"]\n[Result "*"]\n\n*\n', "a tag where", 5),
        ('[Variant "classic"]\n[Result "1-0"]\n\n1. b2 *\n', "the movetext ends with * but the Result tag says 1-0", 4),
    ],
)
def test_refusals_of_the_format(text: str, words: str, line: int) -> None:
    refused(text, words, line)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ("rows=2 cols=15 k=5", "bad Options: option 'rows' of 'mnk' must be between 3 and 19, not 2"),
        ("rows=x", "option 'rows' must be a whole number, not 'x'"),
        ("rows=15 rows=16", "option 'rows' is given twice"),
        ("rows", "option 'rows' must look like name=value"),
        ("colour=red", "unknown option 'colour' for variant 'mnk'"),
        ("rows=3 cols=3 k=5", "k=5 cannot be larger than the board"),
        ("rows=٣", "must be a whole number"),
    ],
)
def test_bad_options(options: str, words: str) -> None:
    refused(record("*", '[Variant "mnk"]', f'[Options "{options}"]'), words, 2)


def test_bad_flags_and_first_boards() -> None:
    refused(record("*", '[Variant "ultimate"]', '[Options "closed_boards=2"]'), "is 1 or 0, not '2'", 2)
    refused(record("*", '[Variant "multi"]', '[Options "random_start=1"]'), "needs a FirstBoard tag", 2)
    refused(record("*", '[Variant "multi"]', '[Options "random_start=1"]', '[FirstBoard "9"]'), "0-8, not '9'", 3)
    refused(record("*", '[Variant "multi"]', '[FirstBoard "4"]'), "FirstBoard tag belongs to multi with", 2)
    # with a FirstBoard the first move must be on it
    text = record("1. e5 *", '[Variant "multi"]', '[Options "random_start=1"]', '[FirstBoard "0"]')
    refused(text, "e5 is on board 4 (d4-f6), but this move must be on board 0 (a7-c9)", 6, 1)


def test_move_numbers_are_checked() -> None:
    refused(record("1. b2 a3 3. a1 *"), "move number 3. where 2. was expected", 4, 3)
    refused(record("2. b2 *"), "move number 2. where 1. was expected", 4, 1)


def test_result_against_the_board() -> None:
    won = "1. b2 a3 2. b1 c3 3. b3"
    # the board decides: the result must say the same, Termination or not
    words = "the game is over on the board (X won: 1-0), but the result says 0-1"
    refused(record(f"{won} 0-1", result="0-1"), words, 4)
    refused(record(f"{won} *"), "the game is over on the board (X won: 1-0)", 4)
    refused(record(f"{won} 1/2-1/2", '[Variant "classic"]', '[Termination "agreement"]', result="1/2-1/2"),
            "but the result says 1/2-1/2", 5)
    # the board does not decide: only a Termination explains a result
    refused(record("1. b2 1-0", result="1-0"), "the board does not decide the game (O to move)", 4)
    refused(record("1. b2 1-0", '[Variant "classic"]', '[Termination " "]', result="1-0"), "Termination tag", 5)
    game = read_record(record("1. b2 1-0", '[Variant "classic"]', '[Termination "O resigned"]', result="1-0"))
    assert game.result == "1-0" and not game.final.is_over and game.termination == "O resigned"
    assert read_record(record(f"{won} 1-0", result="1-0")).final.winner == "X"


def test_size_nul_and_types() -> None:
    long = record("{" + "x" * MAX_RECORD_CHARS + "} *")
    with pytest.raises(RecordError, match="record too long") as info:
        read_record(long)
    assert info.value.line is None
    several = "\n".join([GOMOKU, long])
    games = read_records(several)
    assert next(games).variant == "mnk"
    with pytest.raises(RecordError, match="record too long") as info:
        next(games)
    assert info.value.line == GOMOKU.count("\n") + 2
    refused(record("1. b2\x00 *"), "a NUL character", 4)
    with pytest.raises(RecordError, match="decode the bytes"):
        read_record(GOMOKU.encode())  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="a record is text, not None"):
        read_record(None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="the record is empty"):
        read_record("  \n{just a comment}\n")
    assert read_record("\ufeff" + GOMOKU).variant == "mnk"  # a byte-order mark is no error
    assert read_record(GOMOKU.replace("\n", "\r\n")).moves == read_record(GOMOKU).moves


def test_the_record_is_a_frozen_value() -> None:
    game = read_record(GOMOKU)
    assert isinstance(game, Record)
    with pytest.raises(AttributeError):
        game.result = "0-1"  # type: ignore[misc]
    assert game == read_record(GOMOKU)


# --- position strings ------------------------------------------------------------------------------------


def play(key: str, names: str, **options: object):  # noqa: ANN201 - a State of either kind
    variant = get_variant(key, **options)
    state = variant.new_game()
    for name in names.split():
        state = state.play(variant.parse_cell(name))
    return state


@pytest.mark.parametrize(
    ("state_args", "text"),
    [
        (("classic", ""), "classic_3.3.3_x"),
        (("classic", "b2 a3"), "classic_o2.1x1.3_x"),
        (("classic", WON), "classic_oxo.1x1.1x1_o"),
        (("four", "a1"), "four_4.4.4.x3_o"),
        (("nxn", "e5", {"size": 5}), "nxn-5_4x.5.5.5.5_o"),
        (("mnk", "h8", {}), "mnk-15-15-5_15.15.15.15.15.15.15.7x7.15.15.15.15.15.15.15_o"),
        (("mnk", "a1 s1", {"rows": 3, "cols": 19, "k": 3}), "mnk-3-19-3_19.19.x17o_x"),
        (("ultimate", "e5"), "ultimate-0_9.9.9.9.4x4.9.9.9.9_o_4_---------"),
        (("ultimate", "e5", {"closed_boards": True}), "ultimate-1_9.9.9.9.4x4.9.9.9.9_o_4_---------"),
        (("multi", ""), "multi-0_9.9.9.9.9.9.9.9.9_x_-_---------"),
    ],
)
def test_position_strings(state_args: tuple, text: str) -> None:
    state = play(state_args[0], state_args[1], **(state_args[2] if len(state_args) > 2 else {}))
    assert position_string(state) == text
    again = parse_position(text)
    assert position_string(again) == text and again == state
    assert again.legal_moves() == state.legal_moves() and again.to_move == state.to_move
    assert re.fullmatch(r"[a-z0-9._-]+", text)


def test_position_strings_of_nested_games_keep_owners_and_target() -> None:
    state = get_variant("multi", random_start=True).new_game(start_board=3)
    assert position_string(state) == "multi-1_9.9.9.9.9.9.9.9.9_x_3_---------"
    assert parse_position(position_string(state)).legal_moves() == list(range(27, 36))
    # X wins board 0 (a7 b7 c7) in ultimate with closed boards, then O is free to choose
    state = get_variant("ultimate", closed_boards=True).new_game()
    for move in (25, 63, 7, 69, 55, 9, 8, 72, 6, 58, 36):
        state = state.play(move)
    text = position_string(state)
    assert text.endswith("_o_-_x--------")
    again = parse_position(text)
    assert again.board_winners == state.board_winners and again.legal_moves() == state.legal_moves()


def test_board_owner_kept_when_both_sides_have_a_line() -> None:
    # ultimate (won boards stay open): find a game where a board gets lines of both sides
    variant = get_variant("ultimate")
    for seed in range(200):
        rng, state = random.Random(seed), variant.new_game()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            both = [b for b in range(9) if all(
                any(all(state.cells[9 * b + c] == side for c in line) for line in LINES) for side in "XO")]
            if both:
                break
        if both:
            break
    else:  # pragma: no cover
        pytest.fail("no board with lines of both sides in 200 random games")
    text = position_string(state)
    again = parse_position(text)
    assert again.board_winners == state.board_winners and position_string(again) == text
    assert again.legal_moves() == state.legal_moves() and again.winner == state.winner
    with pytest.raises(PositionError, match="say which side completed one first"):
        variant.from_position(state.cells)


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("classic_3.3.3", "3 fields joined by '_' (variant_rows_side), not 2"),
        ("classic_3.3.3_x_", "not 4"),
        ("chess_3.3.3_x", "unknown variant 'chess'"),
        ("nxn_3.3.3_x", "nxn takes 1 option value(s)"),
        ("nxn-11_3.3.3_x", "between 3 and 10"),
        ("nxn-05_5.5.5.5.5_x", "whole number, not '05'"),
        ("ultimate-2_9.9.9.9.9.9.9.9.9_x_-_---------", "1 or 0, not '2'"),
        ("classic_3.3_x", "2 rows joined by '.'; this board has 3"),
        ("classic_3.3.4_x", "row 1 '4' has 4 cells; this board has 3"),
        ("classic_3.3.2_x", "row 1 '2' has 2 cells"),
        ("classic_3.3.03_x", "no zero"),
        ("classic_3.3.0xxx_x", "no zero"),
        ("classic_3..3_x", "row 2 ''"),
        ("classic_3.3.3_z", "the side to move is x or o, not 'z'"),
        ("classic_3.3.3_X", "'X' cannot be in a position string"),
        ("classic_3.3.3_x ", "' ' cannot be in a position string"),
        ("classic_3.3.3/x", "'/' cannot be in a position string"),
        ("classic_3.3.3_o", "'O' cannot be the side to move: with 0 X and 0 O on the board it is X's turn"),
        ("classic_xx1.3.3_o", "X has 2 marks and O 0"),
        ("classic_oo1.x2.3_x", "X has 1 marks and O 2"),
        ("classic_xxx.oo1.o2_x", "X has a line but it is X's turn"),
        ("classic_xxx.ooo.x2_o", "both X and O have a line"),
        ("four_xxxx.oooo.xxxx.ooo1_o", "both X and O have a line"),
        ("mnk-3-5-3_xxxoo.oo1o1.2xxx_o", "X's lines do not share a cell"),
        ("ultimate-0_9.9.9.9.4x4.9.9.9.9_o_9_---------", "the target board is 0-8 or '-'"),
        ("ultimate-0_9.9.9.9.4x4.9.9.9.9_o_4_--------", "9 of x, o and -"),
        ("ultimate-0_9.9.9.9.4x4.9.9.9.9_o_4_-----x---", "board 5 (g4-i6) is given to X, who has no line on it"),
        ("ultimate-0_9.9.9.9.4x4.9.9.9.9_o_-_---------", "a free choice of board comes only first"),
        ("ultimate-0_9.9.9.9.9.9.9.9.9_x_4_---------", "no target board before it"),
        ("ultimate-0_9.9.9.9.4x4.9.9.9.9_o_4", "5 fields"),
        ("multi-0_9.9.9.9.4x4.9.9.9.9_o_-_---------", "multi always sends the next one to an open board"),
        ("multi-1_9.9.9.9.9.9.9.9.9_x_-_---------", "with random_start the first move goes on the board drawn"),
        ("multi-0_9.9.9.9.9.9.9.9.9_x_3_---------", "no target board before it"),
        ("ultimate-0_xxx6.o8.o8.9.9.9.9.9.9_o_0_---------", "board 0 (a7-c9) has a line of X but is given to nobody"),
        ("ultimate-1_xxx6.o8.o8.9.9.9.9.9.9_o_0_x--------", "the rules never send a move to board 0 (a7-c9)"),
        ("multi-0_xxx6.ooo6.9.9.9.9.9.9.9_x_1_x--------", "lines of both X and O, but it closed"),
        ("classic_" + "1" * 1000, "too long"),
    ],
)
def test_position_refusals(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=re.escape(words)):
        parse_position(text)


def test_position_refusals_of_what_is_not_text() -> None:
    with pytest.raises(PositionError, match="a position string is text, not None"):
        parse_position(None)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="9 cells, not 8"):
        get_variant("classic").from_position([None] * 8)
    with pytest.raises(PositionError, match="cell 3 of the position holds 'x'"):
        get_variant("classic").from_position([None, None, None, "x", None, None, None, None, None])
    with pytest.raises(PositionError, match="one board"):
        get_variant("classic").from_position([None] * 9, target=3)
    assert issubclass(PositionError, ValueError)


def test_an_ultimate_game_decided_before_its_last_move_is_refused() -> None:
    # X owns boards 0, 1, 2 (a line of boards) and O still moved: the game ended at X's line
    cells = [None] * 81
    for b in (0, 1, 2):
        for c in (0, 1, 2):
            cells[9 * b + c] = "X"
    for m in (36, 37, 38, 45, 46, 54, 55, 63, 64):  # O: board 4 (its top row) and six more marks
        cells[m] = "O"
    with pytest.raises(PositionError, match="X has three boards in a row, yet O moved after that"):
        get_variant("ultimate").from_position(cells, board_winners=["X", "X", "X", None, "O", None, None, None, None])


def test_the_examples_of_docs_records_md_hold() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text()
    records = re.findall(r"```\n(\[Variant.*?)```", doc, re.S)
    words = re.findall(r"`((?:classic|four|nxn|mnk|ultimate|multi)[a-z0-9-]*_[a-z0-9._-]+)`", doc)
    assert len(records) >= 4 and len(words) >= 8
    finals = {position_string(read_record(text).final) for text in records}
    assert {read_record(text).variant for text in records} == {"classic", "mnk", "ultimate", "multi"}
    for word in words:
        assert position_string(parse_position(word)) == word
    assert len(finals & set(words)) == 3  # the ends of the classic, ultimate and multi examples are shown


def test_a_game_from_a_position_is_written_from_there_with_its_position_tag() -> None:
    from games.engine import position_string

    start = get_variant("classic").new_game().play(4)  # X took b2: O to move
    text = write_record(start.variant, [0, 8], tags={"X": "alice"}, start=start)
    assert f'[Position "{position_string(start)}"]' in text
    names = [start.variant.cell_name(move) for move in (0, 8)]
    assert text.rstrip().endswith(f"1... {names[0]} 2. {names[1]} *")  # numbered from 1 there, O first
    with pytest.raises(RecordError, match="Position"):
        write_record(start.variant, [0], tags={"Position": position_string(start.variant.new_game())}, start=start)
    with pytest.raises(RecordError, match="move 1"):
        write_record(start.variant, [4], start=start)  # b2 is taken there
