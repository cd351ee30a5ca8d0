"""Starting games: against the computer, on one screen, watched, challenges; again; from another game's position."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from ..engine import Variant, get_strategy, get_variant, shown
from ..engine.levels import LADDER
from ..errors import (
    GameNotOver,
    InvalidGameSettings,
    InvalidInvitee,
    NotCreator,
    RematchRefused,
)
from ..live import changed
from ..models import LEVELS, SIDES, Game, Move, Opponent
from ..positions import game_moves, game_variant, state_after
from ..rating.pools import pool_for_game
from .computer import WATCH_PACE, answers_at_once, seat_strategy, slow_computer_to_move
from .moves import computer_move, schedule_computer_move
from .timekeeping import parse_clock


def check_level(level: Any, *, opponent: str, strategy: str | None) -> str:
    """A ladder level for a computer seat: 1..8 (an int or digit string) -> "1".."8"; "" when none was given.
    Only for a computer opponent (a level, or watch), and not with a named strategy."""
    if level is None or level == "":
        return ""
    text = str(level).strip() if not isinstance(level, bool) else ""
    if not (text.isascii() and text.isdigit() and int(text) in LADDER):
        raise InvalidGameSettings(f"level must be a whole number from 1 to {LADDER[-1]}, not {shown(level)}")
    if opponent not in (*LEVELS, Opponent.WATCH):
        raise InvalidGameSettings("a level is for a computer opponent (or two, watched)")
    if strategy:
        raise InvalidGameSettings("choose a level or a strategy for the computer, not both")
    return str(int(text))


def computer_level(level: Any) -> tuple[str, str]:
    """The computer of "play on" and the analysis board's Play: easy, medium or hard (the opponent's name), or a
    rung of the ladder, 1..8 (an int or digit string: a computer at that rung) -> (opponent, rung or "")."""
    if level in LEVELS:
        return str(level), ""
    try:
        rung = check_level(level, opponent=Opponent.MEDIUM, strategy=None)
        if rung:
            return Opponent.MEDIUM.value, rung
    except InvalidGameSettings:
        pass
    raise InvalidGameSettings(f"unknown level {shown(level)}: choose one of {', '.join(LEVELS)}, or 1 to {LADDER[-1]}")


def _check_settings(
    *, variant: str, options: dict[str, Any] | None, opponent: str, side: str, strategy: str | None
) -> Variant:
    try:
        variant_obj = get_variant(variant, **(options or {}))
    except (ValueError, TypeError) as err:
        raise InvalidGameSettings(str(err)) from None
    if opponent not in Opponent.values:
        raise InvalidGameSettings(f"unknown opponent {shown(opponent)}; choose one of {', '.join(Opponent.values)}")
    if side not in ("X", "O", "random"):
        raise InvalidGameSettings(f"side must be X, O or random, not {side!r}")
    if strategy:
        if opponent in (Opponent.LOCAL, Opponent.HUMAN):
            raise InvalidGameSettings("a strategy can only be chosen for a computer opponent")
        try:
            chosen = get_strategy(strategy)
        except (ValueError, TypeError) as err:
            raise InvalidGameSettings(str(err)) from None
        if not chosen.supports(variant_obj):
            raise InvalidGameSettings(f"strategy {strategy!r} does not support {variant_obj.describe()}")
    return variant_obj


def game_create(
    *,
    player,
    variant: str,
    options: dict[str, Any] | None = None,
    opponent: str,
    side: str = "X",
    strategy: str | None = None,
    seed: int | None = None,
    invitee=None,
    private: bool | None = None,
    level: int | str | None = None,
    clock: str | None = None,
) -> Game:
    """Start a game for ``player``.

    ``opponent``: easy/medium/hard (a computer at that level, or ``strategy`` if named), local
    (``player`` holds both seats), watch (computer against computer: ``strategy`` or medium on
    both seats), human (the other seat stays open; the game waits in status ``open``: a
    challenge, see ``challenge_accept``).
    ``side`` is the player's side: X, O or random.
    ``level`` (a computer opponent, or watch): a rung of the ladder, 1..8, instead of the opponent's name
    (easy, medium and hard are 2, 4 and 8).
    ``invitee`` (human only): a player or a username; only they may accept (a direct challenge).
    ``private``: only the players see the game. Default: private for a direct challenge, public
    (anyone signed in may watch) for everything else.
    ``clock`` (human only): the time control, ``none``, ``M+S`` or ``Nd`` (``services.timekeeping``); it starts when the
    challenge is accepted.
    """
    variant_obj = _check_settings(variant=variant, options=options, opponent=opponent, side=side, strategy=strategy)
    control = parse_clock(clock, opponent=opponent)
    rung = check_level(level, opponent=opponent, strategy=strategy)
    invitee = _resolve_invitee(invitee, player=player, opponent=opponent)
    if opponent == Opponent.HUMAN and invitee is None and private:
        # Nobody but its maker could see it, so nobody could accept it.
        raise InvalidInvitee(
            "a private challenge needs the name of the player who may accept it: name one, or let anyone watch"
        )
    rng = random.Random(seed)
    if side == "random":
        side = rng.choice(SIDES)
    other = "O" if side == "X" else "X"

    game = Game(
        variant=variant_obj.key, options=dict(variant_obj.options), opponent=opponent, created_by=player,
        invitee=invitee, private=(invitee is not None) if private is None else bool(private), clock=control,
    )
    seats: dict[str, dict[str, Any]] = {"X": {}, "O": {}}
    if opponent in LEVELS:
        seats[side] = {"player": player}
        seats[other] = {"strategy": strategy} if strategy else {"level": rung or opponent}
    elif opponent == Opponent.LOCAL:
        seats = {"X": {"player": player}, "O": {"player": player}}
    elif opponent == Opponent.WATCH:
        computer = {"strategy": strategy} if strategy else {"level": rung or Opponent.MEDIUM.value}
        seats = {"X": dict(computer), "O": dict(computer)}
    else:  # human: the other seat waits for someone to accept (issue 4)
        seats[side] = {"player": player}
        game.status = Game.Status.OPEN
    for seat_side, seat in seats.items():
        prefix = seat_side.lower()
        setattr(game, f"{prefix}_player", seat.get("player"))
        setattr(game, f"{prefix}_level", seat.get("level", ""))
        setattr(game, f"{prefix}_strategy", seat.get("strategy", ""))

    # Computer seats must be able to play this variant (a level always can; check it exists).
    for seat_side in SIDES:
        if game.is_computer(seat_side):
            try:
                seat_strategy(game, seat_side, variant_obj)
            except ValueError as err:
                raise InvalidGameSettings(str(err)) from None

    if variant_obj.options.get("random_start"):
        first = variant_obj.new_game(seed=rng.randrange(2**31))
        game.start_board = first.active_boards[0]

    if opponent == Opponent.HUMAN:  # its pool: the lobby shows the creator's rating there
        game.pool = pool_for_game(game)
    with transaction.atomic():
        game.save()
        if opponent == Opponent.HUMAN:  # a challenge: the lobby and the invitee's badge hear of it
            changed(game)
        if game.status == Game.Status.ACTIVE and game.is_computer("X"):
            if opponent == Opponent.WATCH:  # it plays itself from now on, at a pace people can follow
                schedule_computer_move(game, after=WATCH_PACE)
            elif slow_computer_to_move(game, variant_obj):  # a quick one plays at once (computer_opening)
                schedule_computer_move(game)
    return game


def computer_opening(*, game: Game) -> Game:
    """A new game against the computer where the computer moves first: if it answers in milliseconds, it
    plays its first move now, so the page opens with it. A slow computer, and a watched game, play from a
    worker (``game_create`` enqueued their turn). Returns the game as it then stands.
    """
    if game.opponent not in LEVELS or game.ply or not game.is_computer(game.to_move):
        return game
    variant = game_variant(game)
    if answers_at_once(seat_strategy(game, game.to_move, variant), variant):
        return computer_move(game=game).game
    return game


def game_again(*, game: Game, player) -> Game:
    """A new game with the settings of ``game`` (variant, options, opponent, the player's side, the computer,
    private or not) for the player who started it: "Play again" (a quick computer that moves first has
    moved: ``computer_opening``). Against another player a rematch is offered instead (``rematch_offer``),
    since the other player has to agree."""
    if game.created_by_id != getattr(player, "pk", None):
        raise NotCreator("only the player who started this game can start it again")
    if game.opponent == Opponent.HUMAN:
        raise RematchRefused("a game against another player starts again by a rematch, which they accept")
    sides = game.sides_of(player)
    strategy = next((name for name in (game.x_strategy, game.o_strategy) if name), None)
    level = next((rung for rung in (game.x_level, game.o_level) if rung.isdigit()), None)
    return computer_opening(game=game_create(
        player=player, variant=game.variant, options=game.options, opponent=game.opponent,
        side=sides[0] if len(sides) == 1 else "X", strategy=strategy, private=game.private, level=level,
    ))


def game_from_position(*, game: Game, ply: int | None, player, level: str | int) -> Game:
    """"Play on from here": a new game against the computer at ``level`` (easy, medium or hard, or a rung of the
    ladder, 1..8) that starts from the position after
    the first ``ply`` moves of the finished ``game`` (the caller has checked that ``player`` may see it), with
    those moves in its move list; ``player`` takes the side to move there. Only finished games: in a running
    one it would hand a player the computer's help against their opponent. ``ply`` None: not given, or not
    a whole number."""
    if not game.is_finished:
        raise GameNotOver("a game can be played on from one of its positions once it is over")
    if ply is None:
        raise InvalidGameSettings("say after which move to play on: ply must be a whole number")
    opponent, rung = computer_level(level)
    moves = game_moves(game)
    if not 0 <= ply <= len(moves):
        raise InvalidGameSettings(f"there is no position after move {ply}: this game has {len(moves)} moves")
    state = state_after(game, moves, upto=ply)
    if state.is_over:
        raise InvalidGameSettings(f"the game is over after move {ply}: there is nothing to play on")
    with transaction.atomic():
        new = game_create(
            player=player, variant=game.variant, options=game.options, opponent=opponent, level=rung,
            side=state.to_move,
        )
        new.start_board = game.start_board  # multi's random first board: the one this game had
        new.start_position = game.start_position  # a game that started from a position: the same start
        new.ply, new.move_list, new.version = ply, ",".join(map(str, moves[:ply])), 1
        if ply:  # who made each: O first in a game started from a position with O to move; a Swap2 game's opening
            Move.objects.bulk_create([Move(game=new, ply=n, move=move, side=new.mover(n))
                                      for n, move in enumerate(moves[:ply], start=1)])
        new.played_on_from, new.played_on_ply = game, ply
        new.save(update_fields=["start_board", "start_position", "ply", "move_list", "version", "played_on_from",
                                "played_on_ply", "updated", *new.note_turn()])
    return new


def _resolve_invitee(invitee, *, player, opponent: str):
    """The invited player (from a player or a username), checked; None for an open challenge."""
    if invitee is None or invitee == "":
        return None
    if opponent != Opponent.HUMAN:
        raise InvalidInvitee("only a game against another player can be sent to a named player")
    if isinstance(invitee, str):
        if len(invitee) > 150 or "\x00" in invitee:  # no username is like that (and PostgreSQL refuses NUL)
            raise InvalidInvitee("there is no player with that name")
        found = get_user_model().objects.filter(username__iexact=invitee.strip(), is_active=True).first()
        if found is None:
            raise InvalidInvitee(f"there is no player called {invitee.strip()[:40]!r}")
        invitee = found
    if not getattr(invitee, "is_active", False):
        raise InvalidInvitee("that player cannot be challenged")
    if invitee.pk == player.pk:
        raise InvalidInvitee("you cannot challenge yourself; send the link to a friend instead")
    return invitee


def challenge_create(
    *,
    player,
    variant: str,
    options: dict[str, Any] | None = None,
    side: str = "X",
    invitee=None,
    private: bool | None = None,
    seed: int | None = None,
    clock: str | None = None,
) -> Game:
    """A game against another person that waits (status ``open``) until someone accepts it.

    Open to anyone signed in, or to ``invitee`` only (a player or a username). See ``game_create``
    for ``private``, ``clock``.
    """
    return game_create(
        player=player, variant=variant, options=options, opponent=Opponent.HUMAN, side=side, seed=seed,
        invitee=invitee, private=private, clock=clock,
    )

