"""Cell names (RULES.md "Cell names"): variant.cell_name(move) and variant.parse_cell(text), every shape."""

from __future__ import annotations

import re

import pytest

from games.engine import InvalidCellName, cell_names, get_variant

#: every shape a variant can have: classic, four, nxn 3..10, mnk squares to 19 x 19, rectangles, nested
SHAPES = (
    [("classic", {}), ("four", {}), ("ultimate", {}), ("ultimate", {"closed_boards": True}), ("multi", {})]
    + [("nxn", {"size": n}) for n in range(3, 11)]
    + [("mnk", {"rows": r, "cols": c, "k": 3}) for r in range(3, 20) for c in range(3, 20)]
)


@pytest.mark.parametrize(("key", "options"), SHAPES, ids=[f"{k}-{'-'.join(map(str, o.values()))}" for k, o in SHAPES])
def test_every_cell_round_trips(key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    names = [variant.cell_name(m) for m in range(variant.cell_count)]
    assert len(set(names)) == variant.cell_count  # one name per cell
    assert list(cell_names(variant)) == names
    for move, name in enumerate(names):
        assert re.fullmatch(r"[a-s][1-9][0-9]?", name)
        assert variant.parse_cell(name) == move
        assert variant.parse_cell(f"  {name.upper()}\t") == move
    # the corners, like a chess board: a1 bottom-left, the last letter with the top row top-right
    rows, cols, last = variant.rows, variant.cols, "abcdefghijklmnopqrs"[variant.cols - 1]
    corners = (0, 20, 60, 80) if variant.nested else (0, cols - 1, (rows - 1) * cols, rows * cols - 1)
    assert [names[m] for m in corners] == [f"a{rows}", f"{last}{rows}", "a1", f"{last}1"]


@pytest.mark.parametrize(
    ("key", "options", "move", "name"),
    [
        ("classic", {}, 0, "a3"), ("classic", {}, 4, "b2"), ("classic", {}, 8, "c1"), ("classic", {}, 2, "c3"),
        ("classic", {}, 6, "a1"),
        ("four", {}, 0, "a4"), ("four", {}, 15, "d1"),
        ("mnk", {"rows": 15, "cols": 15}, 112, "h8"),  # the centre of freestyle gomoku
        ("mnk", {"rows": 19, "cols": 19}, 18, "s19"), ("mnk", {"rows": 19, "cols": 19}, 342, "a1"),
        ("mnk", {"rows": 3, "cols": 19, "k": 3}, 18, "s3"), ("mnk", {"rows": 3, "cols": 19, "k": 3}, 38, "a1"),
        ("mnk", {"rows": 19, "cols": 3, "k": 3}, 2, "c19"), ("mnk", {"rows": 19, "cols": 3, "k": 3}, 56, "c1"),
        ("nxn", {"size": 10}, 9, "j10"),
        ("ultimate", {}, 40, "e5"), ("ultimate", {}, 0, "a9"), ("ultimate", {}, 80, "i1"),
        ("ultimate", {}, 8, "c7"), ("ultimate", {}, 9, "d9"), ("ultimate", {}, 36, "d6"), ("multi", {}, 72, "g3"),
    ],
)
def test_the_rules_examples(key: str, options: dict, move: int, name: str) -> None:
    variant = get_variant(key, **options)
    assert variant.cell_name(move) == name
    assert variant.parse_cell(name) == move


@pytest.mark.parametrize("text", ["B2", "b2", " b2", "b2 ", "\tB2\n", "  b2  "])
def test_case_and_surrounding_spaces_do_not_matter(text: str) -> None:
    assert get_variant("classic").parse_cell(text) == 4


CLASSIC_RANGE = "this 3 x 3 board: columns a-c, rows 1-3"


@pytest.mark.parametrize(
    "text",
    [
        "z1", "d1", "b 2", "b02", "a0", "a4", "b-1", "b+2", "2b", "bb", "b", "2", "", "   ", "b2b", "b2.", "b²",
        "b٢",  # an Arabic-Indic two: not an ASCII digit
        "b\u00a02", "\u3000b2",  # exotic spaces are not the spaces people type
        "\u212a1",  # the Kelvin sign lower-cases to 'k'
        "b\x002",
    ],
)
def test_refusals_name_the_range(text: str) -> None:
    with pytest.raises(InvalidCellName, match=re.escape(f"{text!r} is not a cell of {CLASSIC_RANGE}")):
        get_variant("classic").parse_cell(text)


@pytest.mark.parametrize("value", [None, 4, 4.0, b"b2", ["b2"]])
def test_refusals_of_what_is_not_text(value: object) -> None:
    with pytest.raises(InvalidCellName, match=re.escape(f"a cell name is text such as 'b2', not {value!r}")) as info:
        get_variant("classic").parse_cell(value)  # type: ignore[arg-type]
    assert CLASSIC_RANGE in str(info.value)


@pytest.mark.parametrize(
    ("key", "options", "text", "board"),
    [
        ("four", {}, "e1", "this 4 x 4 board: columns a-d, rows 1-4"),
        ("four", {}, "a5", "this 4 x 4 board: columns a-d, rows 1-4"),
        ("mnk", {}, "p1", "this 15 x 15 board: columns a-o, rows 1-15"),
        ("mnk", {}, "a16", "this 15 x 15 board: columns a-o, rows 1-15"),
        ("mnk", {"rows": 19, "cols": 19}, "t19", "this 19 x 19 board: columns a-s, rows 1-19"),
        ("mnk", {"rows": 19, "cols": 19}, "s20", "this 19 x 19 board: columns a-s, rows 1-19"),
        ("mnk", {"rows": 3, "cols": 19, "k": 3}, "a4", "this 3 x 19 board: columns a-s, rows 1-3"),
        ("mnk", {"rows": 19, "cols": 3, "k": 3}, "d1", "this 19 x 3 board: columns a-c, rows 1-19"),
        ("ultimate", {}, "j1", "this 9 x 9 board: columns a-i, rows 1-9"),
        ("multi", {}, "a10", "this 9 x 9 board: columns a-i, rows 1-9"),
        ("ultimate", {}, "e05", "this 9 x 9 board: columns a-i, rows 1-9"),
    ],
)
def test_out_of_range_names_on_other_boards(key: str, options: dict, text: str, board: str) -> None:
    with pytest.raises(InvalidCellName, match=re.escape(f"{text!r} is not a cell of {board}")):
        get_variant(key, **options).parse_cell(text)


def test_a_huge_text_is_cut_in_the_message() -> None:
    with pytest.raises(InvalidCellName) as info:
        get_variant("classic").parse_cell("x" * 100_000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("move", [-1, 9, 81, True, None, "4", 4.0])
def test_cell_name_refuses_what_is_no_cell(move: object) -> None:
    with pytest.raises(InvalidCellName, match=re.escape(f"{move!r} is not a cell of {CLASSIC_RANGE}")):
        get_variant("classic").cell_name(move)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidCellName, ValueError)


def test_names_are_built_once_per_shape() -> None:
    a, b = get_variant("mnk", rows=15, cols=15), get_variant("mnk", rows=15, cols=15, k=4)
    assert cell_names(a) is cell_names(b)  # same shape, same table
    assert cell_names(get_variant("ultimate")) is cell_names(get_variant("multi"))
    assert isinstance(cell_names(a), tuple)


def test_engine_messages_use_cell_names() -> None:
    with pytest.raises(ValueError, match="^b2 is already taken by X$"):
        get_variant("classic").new_game().play(4).play(4)
    state = get_variant("ultimate").new_game().play(40)  # e5: O is sent to board 4 (d4-f6)
    with pytest.raises(ValueError, match="^e5 is already taken by X$"):
        state.play(40)
    wrong_board = "a9 is on board 0 (a7-c9), but this move must be on board 4 (d4-f6)"
    with pytest.raises(ValueError, match=re.escape(wrong_board)):
        state.play(0)
