"""Terminal player: ``python -m games.engine.cli``.

    python -m games.engine.cli                                   # asks for everything
    python -m games.engine.cli --variant classic --x human --o ring
    python -m games.engine.cli --variant nxn --option size=5 --x human --o hard
    python -m games.engine.cli --variant ultimate --x mcts:seconds=0.5 --o random --seed 7

A player is ``human``, a difficulty level (easy, medium, hard, when the engine has levels) or any
registered strategy, optionally with options: ``name:option=value,option=value``. People type moves
as cell names (RULES.md "Cell names": ``b2``, ``h8``, ``e5``; classic also 1-9), see ``render.py``.
``undo`` takes the person's latest move back, with the computer's answer to it. Bad input never ends the
game; end of input (Ctrl-D), Ctrl-C or ``quit`` abandon it cleanly. Exit status: 0 game finished, 1 abandoned,
2 bad command line.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from dataclasses import dataclass
from typing import IO, Any

from . import VARIANTS, get_strategy, get_variant, takeback_keeps
from .analysis import analyse, can_analyse, outcome_words
from .core import State, Variant
from .nested import BOARD_NAMES, board_label
from .render import (
    legal_moves_text,
    move_help,
    move_label,
    move_table,
    read_move,
    render_board,
    result_text,
)
from .strategies import STRATEGIES, Strategy

HUMAN = "human"
QUIT_WORDS = {"quit", "exit", "q"}
HELP_WORDS = {"help", "?", "h"}
UNDO_WORDS = {"undo", "takeback", "take back"}
TRUE_WORDS = {"true", "yes", "on", "y"}
FALSE_WORDS = {"false", "no", "off", "n"}


class Abandon(Exception):
    """The person ended the game (EOF, Ctrl-C or 'quit'); the message says how."""


class TakeBack(Exception):
    """The person typed 'undo': their latest move (and the computer's answer to it) is to be taken back."""


class UsageError(Exception):
    """A bad command line; the message says what is wrong."""


@dataclass
class Seat:
    side: str
    label: str  # "human", "hard", "mcts", ...
    strategy: Strategy | None  # None: a person types the moves

    @property
    def human(self) -> bool:
        return self.strategy is None


# --- levels (games/engine/levels.py may or may not exist yet) ---------------------------------------


def _levels() -> Any | None:
    try:
        return importlib.import_module(f"{__package__}.levels")
    except ImportError:
        return None


def level_names() -> list[str]:
    """Difficulty levels offered, in order; [] when the engine has no levels module."""
    levels = _levels()
    if levels is None or not hasattr(levels, "difficulty"):
        return []
    names = getattr(levels, "LEVELS", None) or ("easy", "medium", "hard")
    return list(names)


# --- parsing players and options ---------------------------------------------------------------------


def _value(text: str) -> Any:
    """'3' -> 3, '0.5' -> 0.5, 'true' -> True, anything else stays a string."""
    low = text.strip().lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    # ASCII numbers only: int() and float() also read other scripts' digits ('٥'), which the site refuses
    if re.fullmatch(r"[+-]?[0-9]+", low):
        return int(low)
    if re.fullmatch(r"[+-]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(e[+-]?[0-9]+)?|inf|infinity|nan)", low):
        return float(low)
    return text.strip()


def _pairs(items: list[str], what: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"{what} {item!r} must look like name=value")
        name, _, raw = item.partition("=")
        if not name.strip():
            raise ValueError(f"{what} {item!r} has no name before '='")
        if name.strip() in result:
            raise ValueError(f"{what} {name.strip()!r} is given twice")
        result[name.strip()] = _value(raw)
    return result


def variant_options(key: str, items: list[str]) -> dict[str, Any]:
    """``['size=5']`` -> ``{'size': 5}``, reading 1/0 as true/false for the variant's on/off options."""
    options = _pairs(items, "option")
    spec = VARIANTS[key].option_spec if key in VARIANTS else {}
    for name, value in options.items():
        if name in spec and spec[name][0] is bool and value in (0, 1) and not isinstance(value, bool):
            options[name] = bool(value)
    return options


def make_seat(side: str, spec: str, variant: Variant, seed: int | None = None) -> Seat:
    """``'human'``, a level or ``'strategy[:name=value,...]'`` -> a Seat; ValueError says what is wrong."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError("no player given")
    options = _pairs([p for p in rest.split(",") if p.strip()], "strategy option") if rest else {}
    if name == HUMAN:
        if options:
            raise ValueError("a human player takes no options")
        return Seat(side, HUMAN, None)
    if name in level_names():
        if options:
            raise ValueError(f"a difficulty level takes no options; name a strategy to set options ({name!r})")
        strategy = _levels().difficulty(variant, name)  # type: ignore[union-attr]
        return Seat(side, f"{name}: {strategy.name}", strategy)
    if name not in STRATEGIES:
        raise ValueError(f"unknown player {name!r}; choose {', '.join(player_choices(variant))}")
    cls = STRATEGIES[name]
    if seed is not None and "seed" in cls.option_spec and "seed" not in options:
        # Different seeds for the two sides, so two seeded random players do not mirror each other.
        options["seed"] = seed if side == "X" else seed + 1
    strategy = get_strategy(name, **options)
    if not strategy.supports(variant):
        usable = [n for n in sorted(STRATEGIES) if _supports(n, variant)]
        raise ValueError(
            f"strategy {name!r} does not play {variant.describe()}; for this variant choose "
            f"{', '.join([HUMAN, *level_names(), *usable])}"
        )
    return Seat(side, name, strategy)


def _supports(name: str, variant: Variant) -> bool:
    try:
        return get_strategy(name).supports(variant)
    except Exception:  # a strategy that cannot even be built is simply not offered
        return False


def player_choices(variant: Variant | None = None) -> list[str]:
    names = sorted(STRATEGIES) if variant is None else [n for n in sorted(STRATEGIES) if _supports(n, variant)]
    return [HUMAN, *level_names(), *names]


# --- the conversation --------------------------------------------------------------------------------


class Terminal:
    """Line input/output on two streams; raises Abandon on end of input, Ctrl-C or 'quit'."""

    def __init__(self, stdin: IO[str], stdout: IO[str]) -> None:
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            raise Abandon("interrupted (Ctrl-C)") from None
        except UnicodeDecodeError:
            return "\ufffd"  # undecodable bytes: treated as junk by the caller
        if line == "":
            raise Abandon("end of input (Ctrl-D)")
        if not getattr(self.stdin, "isatty", lambda: False)():
            self.stdout.write("\n")  # scripted input is not echoed: keep the transcript readable
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise Abandon("you typed quit")
        return text


def _choose_variant(term: Terminal) -> tuple[str, dict[str, Any]]:
    keys = list(VARIANTS)
    while True:
        text = term.ask(f"Variant ({', '.join(keys)}) [classic]: ").lower() or "classic"
        if text.isdigit() and 1 <= int(text) <= len(keys):
            text = keys[int(text) - 1]
        if text in VARIANTS:
            break
        term.say(f"There is no variant {text!r}; type one of: {', '.join(keys)}.")
    options: dict[str, Any] = {}
    for name, (kind, default, low, high) in VARIANTS[text].option_spec.items():
        while True:
            hint = "yes/no" if kind is bool else "/".join(low) if kind is str else f"{low}-{high}"
            shown = ("yes" if default else "no") if kind is bool else default
            raw = term.ask(f"  {name} ({hint}) [{shown}]: ")
            if not raw:
                options[name] = default
                break
            value = variant_options(text, [f"{name}={raw}"])[name]
            try:
                VARIANTS[text].check_options({**options, name: value})
            except ValueError as exc:
                term.say(f"  {exc}")
                continue
            options[name] = value
            break
    return text, options


def _choose_seat(term: Terminal, side: str, variant: Variant, default: str, seed: int | None) -> Seat:
    choices = player_choices(variant)
    while True:
        text = term.ask(f"Who plays {side}? ({', '.join(choices)}) [{default}]: ") or default
        try:
            return make_seat(side, text, variant, seed)
        except ValueError as exc:
            term.say(str(exc))


def _build_parser(stdout: IO[str]) -> argparse.ArgumentParser:
    class Parser(argparse.ArgumentParser):
        # help and usage go to the player's terminal (``stdout``), whatever file argparse would pick
        def print_help(self, file: IO[str] | None = None) -> None:
            super().print_help(stdout)

        def print_usage(self, file: IO[str] | None = None) -> None:
            super().print_usage(stdout)

        def error(self, message: str) -> None:  # type: ignore[override]
            raise UsageError(message)

    parser = Parser(
        prog="python -m games.engine.cli",
        description="Play tic-tac-toe variants in the terminal. Missing choices are asked for.",
        epilog=(
            "Players: human, a level (" + (", ".join(level_names()) or "none yet") + ") or a strategy ("
            + ", ".join(sorted(STRATEGIES)) + "), optionally with options as name:option=value,option=value. "
            "Moves are cell names like a chess board's: column letter from the left, row number from the bottom, "
            "e.g. b2 (classic's centre; classic also takes 1-9), h8 (15 x 15's centre), e5 (ultimate's centre)."
        ),
    )
    parser.add_argument("--variant", choices=list(VARIANTS), help="the variant (asked if missing)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a variant option, e.g. size=5, rows=15, k=5, closed_boards=true (repeatable)",
    )
    parser.add_argument("--x", metavar="PLAYER", help="who plays X (asked if missing)")
    parser.add_argument("--o", metavar="PLAYER", help="who plays O (asked if missing)")
    parser.add_argument("--seed", type=int, help="seed for seedable computer players and multi's random first board")
    return parser


def ask_move(term: Terminal, state: State, *, can_take_back: bool = False) -> int:
    """Prompt until the person types a legal move (junk gets a message and a new prompt).

    'undo' raises TakeBack when ``can_take_back``; otherwise it says there is nothing to take back.
    """
    variant = state.variant
    term.say(f"{state.to_move} to move. {legal_moves_text(state)}")
    while True:
        text = term.ask(f"{state.to_move}> ")
        if text.lower() in UNDO_WORDS:
            if can_take_back:
                raise TakeBack
            term.say("There is no move of yours to take back yet.")
            continue
        if text.lower() in HELP_WORDS:
            term.say(move_help(variant) + "; 'undo' takes your last move back; 'quit' ends the game.")
            if variant.nested:
                term.say("The small boards: " + " / ".join(" ".join(BOARD_NAMES[3 * r: 3 * r + 3]) for r in range(3)))
            term.say(legal_moves_text(state))
            continue
        if not text:
            term.say(f"Please type a move: {move_help(variant)}.")
            continue
        try:
            return read_move(state, text)
        except ValueError as exc:
            term.say(f"Sorry, {exc}. Try again ('help' for help).")


def play_game(term: Terminal, state: State, seats: dict[str, Seat]) -> State:
    """Play ``state`` to the end; returns the final state. Raises Abandon if the person stops."""
    variant = state.variant
    moves: list[int] = []
    states = [state]  # states[n]: the position after n moves, for 'undo'
    humans = [side for side, seat in seats.items() if seat.human]
    while not state.is_over:
        seat = seats[state.to_move]
        term.say()
        term.say(render_board(state))
        if seat.human:
            keep = takeback_keeps(moves, humans)
            try:
                move = ask_move(term, state, can_take_back=keep is not None)
            except TakeBack:
                assert keep is not None
                del moves[keep:], states[keep + 1:]
                state = states[-1]
                term.say(f"Taken back: {taken_back_text(keep)}.")
                continue
        else:
            assert seat.strategy is not None
            move = seat.strategy.choose(state)
            term.say(f"{state.to_move} ({seat.label}) plays {spoken(variant, move)}")
        state = state.play(move)
        moves.append(move)
        states.append(state)
    term.say()
    term.say(render_board(state))
    term.say()
    term.say(move_table(variant, moves))
    term.say(f"Result: {result_text(state)}")
    for line in analysis_lines(variant, moves):
        term.say(line)
    return state


def analysis_lines(variant: Variant, moves: list[int]) -> list[str]:
    """After the game, on boards small enough to solve exactly: each mistake and the moves that were better."""
    if not can_analyse(variant):
        return []
    mistakes = [v for v in analyse(variant, moves) if v.mistake]
    if not mistakes:
        return ["Analysis: no mistakes; both sides kept the best outcome they had."]
    count = f"{len(mistakes)} mistake{'' if len(mistakes) == 1 else 's'}"
    lines = [f"Analysis, with best play from both sides: {count}."]
    for v in mistakes:
        better = ", ".join(move_label(variant, m) for m in v.best)
        lines.append(
            f"  Move {v.ply}, {v.side} {move_label(variant, v.move)}: {outcome_words(v.before, v.side)} became "
            f"{outcome_words(v.after, v.side)}. Better: {better}."
        )
    return lines


def taken_back_text(keep: int) -> str:
    return "back to the start" if keep == 0 else f"back to the position after move {keep}"


def spoken(variant: Variant, move: int) -> str:
    """A move as a sentence fragment: its cell name, with the small board on nested variants ('d6 on board 4
    (d4-f6)') and the keypad number on classic ('b2 (5)')."""
    if variant.nested:
        return f"{move_label(variant, move)} on {board_label(move // 9)}"
    if variant.key == "classic":
        return f"{move_label(variant, move)} ({move + 1})"
    return move_label(variant, move)


def main(argv: list[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run one game; the streams default to the process's own. Returns the exit status."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    term = Terminal(stdin, stdout)
    parser = _build_parser(stdout)
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        parser.print_usage()
        term.say(f"error: {exc}")
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)

    try:
        if args.variant:
            key = args.variant
            try:
                variant = get_variant(key, **variant_options(key, args.option))
            except ValueError as exc:
                term.say(f"error: {exc}")
                return 2
        else:
            if args.option:
                term.say("error: --option needs --variant")
                return 2
            key, options = _choose_variant(term)
            variant = get_variant(key, **options)
        term.say(f"Variant: {variant.describe()}. {move_help(variant)}.")
        seats: dict[str, Seat] = {}
        default_computer = "medium" if "medium" in level_names() else "random"
        for side, flag, default in (("X", args.x, HUMAN), ("O", args.o, default_computer)):
            if flag:
                try:
                    seats[side] = make_seat(side, flag, variant, args.seed)
                except ValueError as exc:
                    term.say(f"error: --{side.lower()}: {exc}")
                    return 2
            else:
                seats[side] = _choose_seat(term, side, variant, default, args.seed)
        term.say(f"X: {seats['X'].label}   O: {seats['O'].label}")
        if key == "multi" and variant.options.get("random_start"):
            state = variant.new_game(seed=args.seed)
            term.say(f"The first board was drawn at random: {board_label(state.active_boards[0])}.")
        else:
            state = variant.new_game()
        play_game(term, state, seats)
        return 0
    except Abandon as exc:
        term.say()
        term.say(f"Game abandoned: {exc}. Bye.")
        return 1
    except KeyboardInterrupt:  # Ctrl-C while a computer thinks or the screen is drawn
        term.say()
        term.say("Game abandoned: interrupted (Ctrl-C). Bye.")
        return 1


if __name__ == "__main__":  # pragma: no cover
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly, without a traceback at exit
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
