"""``manage.py play``: the engine's terminal player, optionally recording the game on the site.

    python manage.py play                                        # asks for everything
    python manage.py play --variant classic --x human --o ring
    python manage.py play --variant nxn --option size=5 --x human --o hard --record alice
    python manage.py play --variant ultimate --x medium --o medium --record alice   # watched game

Players and moves (cell names, RULES.md) are typed as in ``python -m games.engine.cli`` (whose pieces this reuses:
``games/engine/cli.py`` for the conversation, ``games/engine/render.py`` for boards and moves).

With ``--record USERNAME`` the game goes through ``games.services`` exactly like a game on the
site and shows up in that player's history: a human seat is that player (two humans: a local
game), a computer seat is stored as a computer seat (a level, or a strategy by name) and its
moves are chosen by the services. A stored computer is a level or a plain strategy name, and a
watched game has the same computer on both seats: other set-ups are refused before anything is
stored. Junk input gets a message and a new prompt; 'quit' or end of input abandons the game
(a recorded game then stays in the history, unfinished).
"""

from __future__ import annotations

import sys
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import VARIANTS, Variant, get_strategy, get_variant, takeback_keeps
from games.engine.cli import (
    HUMAN,
    Abandon,
    Seat,
    TakeBack,
    Terminal,
    _choose_variant,
    ask_move,
    level_names,
    make_seat,
    play_game,
    player_choices,
    spoken,
    taken_back_text,
    variant_options,
)
from games.engine.core import State
from games.engine.nested import board_label
from games.engine.render import (
    move_help,
    move_table,
    render_board,
    result_text,
)
from games.errors import GameError
from games.models import Game, Opponent
from games.positions import Position, game_position
from games.services import computer_move, game_create, move_play, move_takeback


class Command(BaseCommand):
    help = (
        "Play a tic-tac-toe variant in the terminal with any mix of humans and computer players; "
        "--record USERNAME stores the game under that player, as if played on the site."
    )
    #: tests (and other callers) may hand in the input stream: call_command("play", stdin=...)
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--variant", help=f"the variant: {', '.join(VARIANTS)} (asked if missing)")
        parser.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE",
            help="a variant option, e.g. size=5, rows=15, k=5, closed_boards=true (repeatable)",
        )
        parser.add_argument("--x", metavar="PLAYER", help="who plays X: human, a level or a strategy (asked)")
        parser.add_argument("--o", metavar="PLAYER", help="who plays O (asked if missing)")
        parser.add_argument("--seed", type=int, help="seed for computer players and multi's random first board")
        parser.add_argument(
            "--record", metavar="USERNAME",
            help="store the game under this player (their history on the site); human seats are this player",
        )

    # -- entry ------------------------------------------------------------------------------------------

    def handle(self, *args: Any, **options: Any) -> None:
        stdin: IO[str] = options.get("stdin") or sys.stdin
        # The raw stream: Django's OutputWrapper would end every prompt with a newline.
        term = Terminal(stdin, getattr(self.stdout, "_out", self.stdout))
        player = self._player(options.get("record"))
        seed = options.get("seed")
        recording = player is not None
        try:
            variant = self._variant(term, options.get("variant"), options.get("option") or [])
            term.say(f"Variant: {variant.describe()}. {move_help(variant)}.")
            default_computer = "medium" if "medium" in level_names() else "random"
            seats = {
                "X": self._seat(term, "X", options.get("x"), HUMAN, variant, seed, recording),
                "O": self._seat(term, "O", options.get("o"), default_computer, variant, seed, recording),
            }
            settings = record_settings(seats) if recording else None
        except Abandon as exc:
            raise CommandError(f"Game abandoned before it started: {exc}. Nothing was stored.", returncode=1) from None
        term.say(f"X: {seats['X'].label}   O: {seats['O'].label}")

        if player is None:
            try:
                play_game(term, self._new_state(term, variant, seed), seats)
            except Abandon as exc:
                term.say()
                raise CommandError(f"Game abandoned: {exc}.", returncode=1) from None
            return

        assert settings is not None
        try:
            game = game_create(
                player=player, variant=variant.key, options=dict(variant.options), seed=seed, **settings
            )
        except GameError as exc:
            raise CommandError(f"The game cannot be recorded: {exc}. Nothing was stored.") from None
        term.say(f"Recording as game #{game.pk} for {player.get_username()}.")
        if game.start_board is not None:
            term.say(f"The first board was drawn at random: {board_label(game.start_board)}.")
        try:
            position = play_recorded(term, game, player, seats)
        except Abandon as exc:
            term.say()
            raise CommandError(
                f"Game abandoned: {exc}. Game #{game.pk} stays unfinished in {player.get_username()}'s history.",
                returncode=1,
            ) from None
        term.say(f"Recorded as game #{position.game.pk} for {player.get_username()}: /games/{position.game.pk}/")

    # -- set-up -----------------------------------------------------------------------------------------

    def _player(self, username: str | None) -> Any:
        if username is None:
            return None
        model = get_user_model()
        try:
            username.encode("utf-8")
        except UnicodeEncodeError:  # bytes the terminal's encoding could not decode: no name can hold them
            raise CommandError(
                f"--record: {username!r} is not a username (not valid UTF-8); nothing was stored."
            ) from None
        try:
            return model.objects.get(**{model.USERNAME_FIELD: username}, is_active=True)
        except model.DoesNotExist:
            raise CommandError(f"There is no active player named {username!r}; nothing was stored.") from None

    def _variant(self, term: Terminal, key: str | None, items: list[str]) -> Variant:
        if key is None:
            if items:
                raise CommandError("--option needs --variant")
            key, chosen = _choose_variant(term)
            return get_variant(key, **chosen)
        if key not in VARIANTS:
            raise CommandError(f"There is no variant {key!r}; choose one of {', '.join(VARIANTS)}.")
        try:
            return get_variant(key, **variant_options(key, items))
        except ValueError as exc:
            raise CommandError(f"Bad variant options: {exc}.") from None

    def _seat(
        self, term: Terminal, side: str, spec: str | None, default: str, variant: Variant, seed: int | None,
        recording: bool,
    ) -> Seat:
        # A recorded computer plays through the services with the strategy's defaults: no seeds, no options.
        seat_seed = None if recording else seed
        if spec is not None:
            try:
                seat = make_seat(side, spec, variant, seat_seed)
                if recording:
                    seat_record(seat)
            except ValueError as exc:
                raise CommandError(f"--{side.lower()}: {exc}") from None
            return seat
        choices = player_choices(variant)
        while True:
            text = term.ask(f"Who plays {side}? ({', '.join(choices)}) [{default}]: ") or default
            try:
                seat = make_seat(side, text, variant, seat_seed)
                if recording:
                    seat_record(seat)
            except ValueError as exc:
                term.say(str(exc))
                continue
            return seat

    def _new_state(self, term: Terminal, variant: Variant, seed: int | None) -> State:
        if variant.key == "multi" and variant.options.get("random_start"):
            state = variant.new_game(seed=seed)
            term.say(f"The first board was drawn at random: {board_label(state.active_boards[0])}.")
            return state
        return variant.new_game()


# -- recording -----------------------------------------------------------------------------------------


def seat_record(seat: Seat) -> tuple[str, str]:
    """How a seat is stored: ("human", ""), ("level", name) or ("strategy", name); ValueError if it cannot be."""
    if seat.human:
        return "human", ""
    if ":" in seat.label:  # make_seat labels a level "<level>: <strategy>"
        return "level", seat.label.split(":", 1)[0].strip()
    assert seat.strategy is not None
    if seat.strategy.options != get_strategy(seat.label).options:
        raise ValueError(
            f"a recorded computer plays with its default settings; give {seat.label!r} without options"
        )
    return "strategy", seat.label


def record_settings(seats: dict[str, Seat]) -> dict[str, Any]:
    """The ``game_create`` words (opponent, side, strategy) for these seats; CommandError if not storable."""
    kinds = {side: seat_record(seat) for side, seat in seats.items()}
    humans = [side for side, (kind, _) in kinds.items() if kind == "human"]
    if len(humans) == 2:
        return {"opponent": Opponent.LOCAL, "side": "X", "strategy": None}
    if len(humans) == 1:
        side = humans[0]
        kind, name = kinds["O" if side == "X" else "X"]
        if kind == "level":
            return {"opponent": name, "side": side, "strategy": None}
        # A named strategy overrides the level, as on the site's form.
        return {"opponent": Opponent.MEDIUM, "side": side, "strategy": name}
    if kinds["X"] == kinds["O"]:
        kind, name = kinds["X"]
        if kind == "strategy":
            return {"opponent": Opponent.WATCH, "side": "X", "strategy": name}
        if name == Opponent.MEDIUM:
            return {"opponent": Opponent.WATCH, "side": "X", "strategy": None}
    raise CommandError(
        "A recorded computer-against-computer game is a watched game with the same computer on both seats: "
        "a strategy name, or the medium level (e.g. --x random --o random). Nothing was stored."
    )


def play_recorded(term: Terminal, game: Game, player: Any, seats: dict[str, Seat]) -> Position:
    """Play ``game`` to the end through the services; every move is stored as it is played."""
    position = game_position(game)
    while not position.game.is_finished:
        state = position.state
        side = state.to_move
        term.say()
        term.say(render_board(state))
        if seats[side].human:
            humans = [s for s, seat in seats.items() if seat.human]
            try:
                move = ask_move(term, state, can_take_back=takeback_keeps(position.moves, humans) is not None)
            except TakeBack:
                try:
                    taken = move_takeback(game=position.game, player=player)
                except GameError as exc:
                    term.say(f"Refused: {exc}")
                else:
                    term.say(f"Taken back: {taken_back_text(taken.ply)}.")
                position = game_position(Game.objects.get(pk=game.pk))
                continue
            try:
                position = move_play(game=position.game, player=player, move=move)
            except GameError as exc:  # the services have the last word; say why and ask again
                term.say(f"Refused: {exc}")
                position = game_position(Game.objects.get(pk=game.pk))
                continue
        else:
            position = computer_move(game=position.game)
            term.say(f"{side} ({seats[side].label}) plays {spoken(state.variant, position.moves[-1])}")
    term.say()
    term.say(render_board(position.state))
    term.say()
    term.say(move_table(position.state.variant, position.moves))
    words = result_text(position.state) if position.state.is_over else position.game.result_text()
    term.say(f"Result: {words}")
    return position
