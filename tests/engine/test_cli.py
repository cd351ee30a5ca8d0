"""The terminal player and its text helpers, driven with scripted input."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import STRATEGIES, get_strategy, get_variant
from games.engine.cli import level_names, main, variant_options
from games.engine.nested import BOARD_NAMES
from games.engine.render import (
    legal_moves_text,
    move_label,
    move_table,
    parse_move,
    read_move,
    render_board,
    result_text,
)

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], lines: list[str] | str = "") -> tuple[int, str]:
    text = lines if isinstance(lines, str) else "".join(line + "\n" for line in lines)
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out)
    output = out.getvalue()
    assert "Traceback" not in output
    return code, output


def random_game(variant_key: str, seed: int, **options: Any) -> list[int]:
    rng = random.Random(seed)
    state = get_variant(variant_key, **options).new_game()
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return moves


# --- render: drawing ---------------------------------------------------------------------------------


def test_classic_drawn_as_seed_000_with_cell_names_around() -> None:
    state = get_variant("classic").new_game()
    assert render_board(state) == (
        "3  1 | 2 | 3\n  ---+---+---\n2  4 | 5 | 6\n  ---+---+---\n1  7 | 8 | 9\n   a   b   c"
    )
    state = state.play(4).play(0)
    assert render_board(state).splitlines()[0] == "3  O | 2 | 3"
    assert render_board(state).splitlines()[2] == "2  4 | X | 6"


def test_grid_drawn_like_a_chess_board() -> None:
    state = get_variant("nxn", size=5).new_game().play(7)  # c4: second row from the top, third column
    lines = render_board(state).splitlines()
    assert lines[0].split() == lines[-1].split() == ["a", "b", "c", "d", "e"]
    assert lines[1].split() == ["5", ".", ".", ".", ".", ".", "5"]  # the top row is 5
    assert lines[2].split() == ["4", ".", ".", "X", ".", ".", "4"]
    assert lines[5].split()[0] == "1"
    big = render_board(get_variant("mnk", rows=12, cols=15, k=5).new_game().play(14)).splitlines()
    assert big[0].split()[-3:] == ["m", "n", "o"]
    assert big[1].split() == ["12", *["."] * 14, "X", "12"]  # o12: top-right
    assert big[-2].split()[0] == "1" and big[-2].startswith(" 1 ")  # row numbers line up


def test_nested_drawn_as_one_nine_by_nine_board() -> None:
    state = get_variant("ultimate").new_game()
    for m in (9, 1, 11, 19, 10):  # X takes board 1 (d7-f9) with its top row, O is sent there
        state = state.play(m)
    text = render_board(state)
    lines = text.splitlines()
    assert lines[0] == lines[14] == "    a b c   d e f   g h i"
    assert lines[1] == lines[5] == lines[9] == lines[13] == "  +-------+-------+-------+"
    assert lines[2] == "9 | - O - | X X X | - O - | 9"
    assert lines[12] == "1 | - - - | - - - | - - - | 1"
    assert "won/full boards: d7-f9: X" in text and "next move on board 1 (d7-f9)" in text
    assert legal_moves_text(state) == "available on board 1 (d7-f9): d8 e8 f8 d7 e7 f7"
    first = legal_moves_text(get_variant("multi").new_game())
    assert first.splitlines()[0] == "available:" and "  board 8 (g1-i3): all" in first


def test_move_labels_are_cell_names() -> None:
    assert move_label(get_variant("classic"), 0) == "a3"
    assert move_label(get_variant("classic"), 8) == "c1"
    assert move_label(get_variant("nxn", size=5), 7) == "c4"
    assert move_label(get_variant("ultimate"), 36) == "d6"
    assert move_label(get_variant("ultimate"), 40) == "e5"


def test_move_table_as_seed_004_in_cell_names() -> None:
    table = move_table(get_variant("ultimate"), [36, 2, 26, 74, 20, 23])
    lines = table.splitlines()
    assert [c.strip() for c in lines[1].strip("|").split("|")] == ["Play No.", "Player", "Cell", "Board"]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[3:-1]]
    # seed 004's example game, row for row
    assert rows == [["1", "X", "d6", "4"], ["2", "O", "c9", "0"], ["3", "X", "i7", "2"],
                    ["4", "O", "i3", "8"], ["5", "X", "i9", "2"], ["6", "O", "i8", "2"]]
    assert lines[0] == lines[-1] and set(lines[0]) == {"|", "-"}
    grid = move_table(get_variant("classic"), [4, 0]).splitlines()
    assert [c.strip() for c in grid[1].strip("|").split("|")] == ["Play No.", "Player", "Cell"]
    assert [c.strip() for c in grid[3].strip("|").split("|")] == ["1", "X", "b2"]
    assert [c.strip() for c in grid[4].strip("|").split("|")] == ["2", "O", "a3"]


def test_legal_moves_text_in_cell_names() -> None:
    assert legal_moves_text(get_variant("classic").new_game().play(4)) == "available: a3 b3 c3 a2 c2 a1 b1 c1"
    assert legal_moves_text(get_variant("four").new_game()).startswith("available: a4 b4 c4 d4 a3")
    big = legal_moves_text(get_variant("mnk").new_game())
    assert "225 empty cells" in big and "columns a-o, rows 1-15" in big


def test_result_text() -> None:
    state = get_variant("classic").new_game()
    for m in (0, 3, 1, 4, 2):
        state = state.play(m)
    assert result_text(state) == "X wins"
    assert result_text(get_variant("classic").new_game()) == "X to move"


# --- render: parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key,options,text,move",
    [
        ("classic", {}, "a3", 0), ("classic", {}, " C1 ", 8), ("classic", {}, "B2", 4),
        ("classic", {}, "1", 0), ("classic", {}, " 9 ", 8),  # the keypad numbers stay as help
        ("four", {}, "c3", 6), ("four", {}, "d1", 15),
        ("mnk", {"rows": 15, "cols": 15, "k": 5}, "o1", 224), ("mnk", {"rows": 15, "cols": 15, "k": 5}, "h8", 112),
        ("mnk", {"rows": 3, "cols": 7, "k": 3}, "g1", 20),
        ("ultimate", {}, "d6", 36), ("ultimate", {}, "E5", 40), ("ultimate", {}, "\ti1 ", 80),
        ("multi", {}, "a9", 0),
    ],
)
def test_parse_good(key: str, options: dict[str, Any], text: str, move: int) -> None:
    assert parse_move(get_variant(key, **options), text) == move


@pytest.mark.parametrize(
    "key,text,words",
    [
        ("classic", "", "no move"), ("classic", "   ", "no move"),
        ("classic", "abc", "'abc' is not a cell of this 3 x 3 board: columns a-c, rows 1-3 (or a number 1-9"),
        ("classic", "0", "no cell 0"), ("classic", "10", "no cell 10"), ("classic", "-1", "'-1' is not a cell"),
        ("classic", "2 2", "not a cell"), ("classic", "5.0", "not a cell"), ("classic", "٣", "not a cell"),
        ("classic", "b 2", "'b 2' is not a cell"), ("classic", "b02", "not a cell"), ("classic", "d1", "not a cell"),
        ("four", "e1", "'e1' is not a cell of this 4 x 4 board: columns a-d, rows 1-4"),
        ("four", "a5", "not a cell"), ("four", "a0", "not a cell"), ("four", "16", "not a cell"),
        ("four", "1 2", "not a cell"),  # the old 'row col' form is gone
        ("ultimate", "j1", "'j1' is not a cell of this 9 x 9 board: columns a-i, rows 1-9"),
        ("ultimate", "a10", "not a cell"), ("ultimate", "4 0", "not a cell"), ("ultimate", "40", "not a cell"),
    ],
)
def test_parse_bad(key: str, text: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        parse_move(get_variant(key), text)


def test_read_move_checks_the_position() -> None:
    classic = get_variant("classic").new_game().play(4)
    with pytest.raises(ValueError, match="b2 is already taken by X"):
        read_move(classic, "5")
    with pytest.raises(ValueError, match="b2 is already taken by X"):
        read_move(classic, "B2")
    nested = get_variant("ultimate").new_game().play(36)  # d6 (board 4's top-left): O is sent to board 0
    with pytest.raises(ValueError, match=re.escape("you must play on board 0 (a7-c9), where you were sent; e5")):
        read_move(nested, "e5")
    with pytest.raises(ValueError, match="a9 is already taken by X"):
        read_move(get_variant("ultimate").new_game().play(0), "a9")  # sent to board 0, its a9 is X's
    assert read_move(nested, "b8") == 4
    over = classic
    for m in (0, 1, 8, 7):  # X takes the middle column
        over = over.play(m)
    assert over.is_over
    with pytest.raises(ValueError, match="over"):
        read_move(over, "c3")


def test_read_move_on_a_closed_board_names_the_open_ones() -> None:
    state = get_variant("ultimate", closed_boards=True).new_game()
    for m in (25, 63, 7, 69, 55, 9, 8, 72, 6, 58, 36):  # X wins board 0 (a7 b7 c7), then sends O there
        state = state.play(m)
    assert state.board_winners[0] == "X" and 0 not in state.active_boards
    with pytest.raises(ValueError, match=re.escape("b8 is on board 0 (a7-c9), which is closed; play on")):
        read_move(state, "b8")


# --- the CLI -----------------------------------------------------------------------------------------


def test_classic_against_ring_with_junk() -> None:
    junk = ["hello", "", "0", "10", "b2", "2 2", "-3", "B2", "5"]
    # b2 first; then junk incl. the taken centre (by name and by number); ring answers a corner
    rest = ["a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1"]
    code, out = run(["--variant", "classic", "--x", "human", "--o", "ring"], junk + rest)
    assert code == 0
    assert "'hello' is not a cell of this 3 x 3 board: columns a-c, rows 1-3 (or a number 1-9 as drawn)" in out
    assert "Please type a move" in out
    assert "no cell 0" in out and "no cell 10" in out
    assert out.count("b2 is already taken by X") == 2
    assert "'-3' is not a cell" in out and "'2 2' is not a cell" in out
    assert "O (ring) plays a3 (1)" in out  # the cell name, with the keypad number as help
    assert "Result: " in out and "| Play No. | Player | Cell |" in out
    assert re.search(r"\|\s+1\s+\|\s+X\s+\|\s+b2\s+\|", out)


@pytest.mark.parametrize(
    "key,options", [("classic", []), ("four", []), ("nxn", ["size=3"]), ("mnk", ["rows=3", "cols=4", "k=3"]),
                    ("ultimate", []), ("ultimate", ["closed_boards=true"]), ("multi", [])],
)
def test_human_against_human_full_game_with_junk(key: str, options: list[str]) -> None:
    opts = dict(o.split("=") for o in options)
    typed_opts = {k: (v == "true") if v in ("true", "false") else int(v) for k, v in opts.items()}
    variant = get_variant(key, **typed_opts)
    moves = random_game(key, 4, **typed_opts)
    state = variant.new_game()
    lines: list[str] = []
    saw_wrong_board = False
    for i, move in enumerate(moves):
        if i % 3 == 1:
            lines += ["zz", "", "99 99 99", "a0", "t1"]
            lines.append(move_label(variant, moves[i - 1]))  # taken
        if variant.nested and len(state.active_boards) == 1:
            other = next(m for m in range(81) if m // 9 != state.active_boards[0] and state.cells[m] is None)
            lines.append(move_label(variant, other))  # wrong board
            saw_wrong_board = True
        lines.append(move_label(variant, move))
        state = state.play(move)
    opt_args = [a for o in options for a in ("--option", o)]
    code, out = run(["--variant", key, *opt_args, "--x", "human", "--o", "human"], lines)
    assert code == 0, out[-2000:]
    assert out.count("is not a cell of this") >= 4 * (len(moves) // 3)
    assert "already taken" in out
    if saw_wrong_board:
        assert "you must play on board" in out
    assert f"Result: {result_text(state)}" in out
    rows = [line for line in out.splitlines() if line.startswith("|") and line[1:].split("|")[0].strip().isdigit()]
    assert [row.split("|")[3].strip() for row in rows] == [move_label(variant, m) for m in moves]


def test_the_game_ends_with_its_mistakes_and_the_better_moves() -> None:
    # X centre, O edge (the mistake), X forks and wins: classic's cells typed by name and by number.
    code, out = run(["--variant", "classic", "--x", "human", "--o", "human"], ["b2", "b3", "1", "c1", "a1", "4", "3"])
    assert code == 0
    result, analysis, mistake = out.splitlines()[-3:]
    assert result == "Result: X wins"
    assert analysis == "Analysis, with best play from both sides: 1 mistake."
    assert mistake == "  Move 2, O b3: a draw became a win for X. Better: a3, c3, a1, c1."


def test_perfect_play_ends_with_no_mistakes_and_big_boards_with_no_analysis() -> None:
    code, out = run(["--variant", "four", "--x", "perfect", "--o", "perfect"])
    assert code == 0 and out.splitlines()[-1] == "Analysis: no mistakes; both sides kept the best outcome they had."
    code, out = run(["--variant", "ultimate", "--x", "random", "--o", "random", "--seed", "3"])
    assert code == 0 and "Analysis" not in out and out.splitlines()[-1].startswith("Result: ")


def test_end_of_input_abandons_cleanly() -> None:
    code, out = run(["--variant", "ultimate", "--x", "human", "--o", "random", "--seed", "1"], ["e5"])
    assert code == 1
    assert "Game abandoned: end of input" in out
    code, out = run([], "")  # EOF at the very first question
    assert code == 1 and "abandoned" in out


def test_quit_abandons_cleanly() -> None:
    code, out = run(["--variant", "classic", "--x", "human", "--o", "human"], ["5", "quit"])
    assert code == 1 and "you typed quit" in out


class _CtrlC(io.StringIO):
    def readline(self, *args: Any) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_abandons_cleanly() -> None:
    out = io.StringIO()
    code = main(["--variant", "classic", "--x", "human", "--o", "ring"], stdin=_CtrlC(), stdout=out)
    assert code == 1
    assert "interrupted (Ctrl-C)" in out.getvalue() and "Traceback" not in out.getvalue()


def test_ctrl_c_while_the_computer_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = STRATEGIES["random"]

    def boom(self: Any, state: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cls, "_choose", boom)
    code, out = run(["--variant", "classic", "--x", "random", "--o", "random"])
    assert code == 1 and "interrupted (Ctrl-C)" in out


def test_prompts_when_flags_are_missing() -> None:
    lines = ["chess", "nxn", "eleven", "11", "4", "robot", "", "random:seed=5"]
    # X is human on 4 x 4 (size 4); type every cell in order: the ones the computer took are refused politely
    rng_moves = [f"{col}{row}" for row in range(1, 5) for col in "abcd"]
    code, out = run([], lines + rng_moves)
    assert code == 0, out[-1500:]
    assert "There is no variant 'chess'" in out
    assert "must be a whole number" in out and "between 3 and 10" in out
    assert "unknown player 'robot'" in out
    assert "Variant: 4 x 4, 4 in a row" in out
    assert "X: human   O: random" in out
    assert "Result: " in out


def test_multi_random_start_is_shown() -> None:
    code, out = run(["--variant", "multi", "--option", "random_start=1", "--x", "random", "--o", "random",
                     "--seed", "3"])
    first = get_variant("multi", random_start=True).new_game(seed=3).active_boards[0]
    assert code == 0 and f"drawn at random: board {first}" in out
    assert f"drawn at random: board {first} ({BOARD_NAMES[first]})" in out
    assert re.search(rf"X \(random\) plays [a-i][1-9] on board {first} \(", out)


@pytest.mark.parametrize(
    "argv,words",
    [
        (["--variant", "chess"], "invalid choice"),
        (["--variant", "nxn", "--option", "size=2"], "between 3 and 10"),
        (["--variant", "nxn", "--option", "colour=red"], "unknown option 'colour'"),
        (["--variant", "nxn", "--option", "size"], "name=value"),
        (["--variant", "classic", "--x", "wizard"], "unknown player 'wizard'"),
        # the players this variant can have: not pairing, which only plays 4 x 4 and larger
        (["--variant", "classic", "--x", "wizard"], "choose human, easy, medium, hard, alphabeta, mcts, perfect,"),
        (["--variant", "nxn", "--option", "size=٥"], "must be a whole number, not '٥'"),  # int() reads it
        (["--variant", "nxn", "--option", "size=5", "--option", "size=6"], "option 'size' is given twice"),
        (["--variant", "classic", "--x", "random:depth=3"], "unknown option 'depth'"),
        (["--variant", "classic", "--x", "human:fast=1"], "takes no options"),
        (["--option", "size=5"], "needs --variant"),
        (["--seed", "abc"], "invalid int"),
        # a budget that never runs out would never return; nan compares false with every bound
        (["--variant", "classic", "--x", "mcts:seconds=inf"], "at most 3600"),
        (["--variant", "classic", "--x", "mcts:seconds=1e308"], "at most 3600"),
        (["--variant", "classic", "--x", "mcts:seconds=nan"], "at most 3600"),
        (["--variant", "classic", "--x", "mcts:c=nan"], "finite number"),
        (["--variant", "classic", "--x", "mcts:c=inf"], "finite number"),
    ],
)
def test_bad_command_lines(argv: list[str], words: str) -> None:
    code, out = run(argv)
    assert code == 2
    assert words in out


def test_unsupported_strategy_is_refused() -> None:
    unsupported = [(name, key) for name in sorted(STRATEGIES) for key in ("classic", "four", "ultimate")
                   if not get_strategy(name).supports(get_variant(key))]
    assert unsupported, "ring plays classic only, so something must be refused"
    name, key = unsupported[0]
    code, out = run(["--variant", key, "--x", name, "--o", "random"])
    assert code == 2 and "does not play" in out


def test_help() -> None:
    code, out = run(["--help"])
    assert code == 0 and "--variant" in out and "cell names" in out and "e5" in out


# --- computer against computer -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "key,options",
    [("classic", []), ("four", []), ("nxn", ["size=6"]), ("mnk", ["rows=15", "cols=15", "k=5"]),
     ("ultimate", []), ("ultimate", ["closed_boards=yes"]), ("multi", []), ("multi", ["random_start=on"])],
)
def test_seeded_random_players_repeat(key: str, options: list[str]) -> None:
    argv = ["--variant", key, *[a for o in options for a in ("--option", o)], "--x", "random", "--o", "random",
            "--seed", "9"]
    code, out = run(argv)
    assert code == 0 and "Result: " in out
    assert run(argv) == (code, out)


def _quick_options(name: str) -> str:
    """Options that keep any strategy fast enough for a test, picked by what it accepts."""
    spec = STRATEGIES[name].option_spec
    quick = {"iterations": 30, "seconds": 0.02, "depth": 2, "seed": 1}
    chosen = [f"{k}={v}" for k, v in quick.items() if k in spec]
    return name + (":" + ",".join(chosen) if chosen else "")


#: small boards first: the first one a strategy supports is where it plays its test game
CANDIDATES = [
    ("classic", []), ("ultimate", []), ("four", []), ("nxn", ["size=5"]), ("mnk", ["rows=7", "cols=7", "k=4"]),
    ("multi", []), ("nxn", ["size=9"]), ("mnk", ["rows=15", "cols=15", "k=5"]),
]


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_registered_strategy_plays_through_the_cli(name: str) -> None:
    strategy = get_strategy(name)
    found = [(k, o) for k, o in CANDIDATES if strategy.supports(get_variant(k, **variant_options(k, o)))]
    assert found, f"{name} plays none of {CANDIDATES}"
    key, options = found[0]
    opt_args = [a for o in options for a in ("--option", o)]
    code, out = run(["--variant", key, *opt_args, "--x", _quick_options(name), "--o", "random", "--seed", "2"])
    assert code == 0 and "Result: " in out
    assert f"X ({name}) plays" in out


def test_levels_play_through_the_cli() -> None:
    names = level_names()
    assert names == ["easy", "medium", "hard"]
    code, out = run(["--variant", "classic", "--x", names[0], "--o", names[-1]])
    assert code == 0 and "Result: " in out


def test_module_runs_as_a_program() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine.cli", "--variant", "classic", "--x", "human", "--o", "ring"],
        input="abc\n5\n", cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1  # input ended mid-game
    assert "is not a cell" in proc.stdout and "Game abandoned: end of input" in proc.stdout
    assert proc.stderr == ""


def test_undo_takes_my_move_and_the_computers_answer_back() -> None:
    # ring answers the centre with a corner; 'undo' goes back to the empty board, then the game goes on.
    script = ["undo", "5", "undo", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    code, out = run(["--variant", "classic", "--x", "human", "--o", "ring"], script)
    assert code == 0
    assert "There is no move of yours to take back yet." in out  # before the first move
    assert "Taken back: back to the start." in out
    after = out.split("Taken back: back to the start.")[1]
    assert after.strip("\n").startswith("3  1 | 2 | 3")  # the empty board is drawn again
    assert "Result: " in out
    assert re.search(r"\|\s+1\s+\|\s+X\s+\|\s+a3\s+\|", out)  # the first move is now a3 (typed 1), not b2


def test_undo_on_one_screen_takes_one_move_back() -> None:
    code, out = run(["--variant", "classic", "--x", "human", "--o", "human"], ["5", "1", "undo", "undo", "undo"])
    assert code == 1  # then the input ends: abandoned
    assert "Taken back: back to the position after move 1." in out
    assert "Taken back: back to the start." in out
    assert out.count("There is no move of yours to take back yet.") == 1
