"""A game's position, rebuilt from its moves: the engine's state, never trusted from outside.

The Move rows are the record; the game row's ``move_list`` is a cache the services keep equal to them
(a move request reads the game row only).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine import State, Variant, get_variant, parse_position, takeback_keeps
from .engine.swap2 import movers
from .models import Game, Move


@dataclass
class Position:
    """A game with its engine state and the moves that led to it (ints, in order)."""

    game: Game
    state: State
    moves: list[int] = field(default_factory=list)


def game_variant(game: Game) -> Variant:
    return get_variant(game.variant, **(game.options or {}))


def initial_state(game: Game, variant: Variant | None = None) -> State:
    """The game's first position: the variant's start, multi's drawn first board, or a stored position string
    (a game started from the analysis board; the string carries the variant, checked when it was stored)."""
    if game.start_position:
        return parse_position(game.start_position)
    variant = variant or game_variant(game)
    if game.start_board is not None:
        return variant.new_game(start_board=game.start_board)
    return variant.new_game()


def state_after(game: Game, moves: list[int], upto: int | None = None) -> State:
    """The position after the first ``upto`` of ``moves`` (all of them by default)."""
    state = initial_state(game)
    for move in moves if upto is None else moves[:upto]:
        state = state.play(move)
    return state


def game_moves(game: Game) -> list[int]:
    """The moves of ``game`` in order from the Move rows (the record): one query."""
    return list(Move.objects.filter(game_id=game.pk).order_by("ply").values_list("move", flat=True))


def current_moves(game: Game) -> list[int]:
    """The moves of ``game`` in order: from the row's ``move_list`` cache, else (no query) from the Move rows."""
    text = game.move_list
    try:
        moves = [int(m) for m in text.split(",")] if text else []
    except ValueError:
        moves = None
    if moves is not None and len(moves) == game.ply:
        return moves
    return game_moves(game)


def game_position(game: Game) -> Position:
    """The position from the Move rows: exact even for a ``game`` object read before later moves."""
    moves = game_moves(game)
    return Position(game=game, state=state_after(game, moves), moves=moves)


def fresh_position(game: Game) -> Position:
    """The position of a ``game`` row just read from the database: from its move-list cache (no query)."""
    moves = current_moves(game)
    return Position(game=game, state=state_after(game, moves), moves=moves)


def takeback_keep(game: Game, moves: list[int], sides) -> int | None:
    """How many of ``moves`` stay when ``sides`` take a move back (the engine's ``takeback_keeps``), or None:
    nothing to take back. A game played on from another starts with that game's moves, which stay."""
    if game.swap2:  # whose each move was follows the opening's choices (games.engine.swap2.movers)
        seats = movers(moves, game.options["rows"] * game.options["cols"])
        ply = len(moves)
        while ply and seats[ply - 1] not in sides:
            ply -= 1
        keep = ply - 1 if ply else None
        return None if keep is None or keep < (game.played_on_ply or 0) else keep
    if game.start_side == "O":  # the engine counts X's moves as the odd ones: here O made them
        sides = ["O" if side == "X" else "X" for side in sides]
    keep = takeback_keeps(moves, sides)
    if keep is None or keep < (game.played_on_ply or 0):
        return None
    return keep

