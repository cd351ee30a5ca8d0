"""Swap2, the opening rule of gomoku tournaments (issue 33): option ``opening`` of m,n,k boards with k = 5 and both
sides at least 15 (``get_variant("mnk", opening="swap2")``). The rules as the engine plays them (RULES.md, Swap2):

1. X, the first player (the *opener*), places three stones: an X stone, an O stone, an X stone, in that order.
2. O, the second player, chooses (a move of the game): ``stay`` (O keeps the O stones and places the next one),
   ``swap`` (O takes the X stones: the sides exchange their stones, and the opener, now holding the O stones,
   places the next one) or ``more``: O places two more stones, an O stone then an X stone, and hands the choice
   back.
3. After ``more``, X chooses: ``stay`` (X keeps the X stones; the O stones' owner places the sixth) or ``swap``.
4. Then the game goes on as freestyle gomoku: the stones alternate, the side holding the O stones moves next.

The sides are the seats: X is whoever began (the opener), O the other, whatever stones they end up with. A state's
``cells``, ``to_move`` and ``winner`` speak of seats (after a swap, the stones the opener placed as "X" show as
O's: they are O's now); ``board`` is the stones' own position as freestyle gomoku (its X = the stones placed first),
which the computer players, the analysis and the position strings read. A choice is a move numbered after the
cells (``cell_count + STAY``, ``+ SWAP``, ``+ MORE``), named ``stay``, ``swap`` and ``more``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .core import IllegalMove, InvalidCellName, State, shown

#: the values of the ``opening`` option
OPENINGS = ("freestyle", "swap2")
#: the choices, as offsets after the board's cells, and their names (the move's name everywhere)
STAY, SWAP, MORE = 0, 1, 2
CHOICES = ("stay", "swap", "more")
#: the phases of the opening
PLACE3, CHOOSE, PLACE2, CHOOSE2, PLAY = "place3", "choose", "place2", "choose2", "play"
#: plies until each side has made a move (X's three stones, then O's choice): clocks and aborts count from it
FIRST_MOVES = 4


def swap2_allowed(rows: int, cols: int, k: int) -> bool:
    """Swap2 is for gomoku boards: five in a row on a board of at least 15 x 15."""
    return k == 5 and rows >= 15 and cols >= 15


def choice_move(cell_count: int, name: object) -> int | None:
    """The move a choice's name names (``stay``, ``swap``, ``more``: any case, spaces around), else None."""
    if not isinstance(name, str) or not name.isascii():
        return None
    text = name.strip(" \t\r\n\f\v").lower()
    return cell_count + CHOICES.index(text) if text in CHOICES else None


def choice_name(cell_count: int, move: int) -> str:
    """The name of a choice's move; InvalidCellName for a number that is no choice."""
    index = move - cell_count if isinstance(move, int) and not isinstance(move, bool) else -1
    if not 0 <= index < len(CHOICES):
        raise InvalidCellName(f"{shown(move)} is neither a cell nor a choice of the Swap2 opening")
    return CHOICES[index]


def movers(moves: Sequence[int], cell_count: int) -> list[str]:
    """Who makes each move of a Swap2 game: the seat of move 1, 2, ... and last the seat to move after ``moves``
    (numbers as the engine plays them). Only the choices matter: a game's seat to move without the board."""
    seats: list[str] = []
    black: str | None = None  # the seat holding the X stones, once chosen
    stones = 0
    more = False
    for ply in range(len(moves) + 1):
        if black is not None:
            seats.append(black if stones % 2 == 0 else ("O" if black == "X" else "X"))
        elif stones < 3:
            seats.append("X")
        elif stones == 3 and not more:
            seats.append("O")  # the first choice
        elif stones < 5:
            seats.append("O")  # the two more stones
        else:
            seats.append("X")  # the second choice
        if ply == len(moves):
            break
        move = moves[ply]
        if move >= cell_count:
            if move == cell_count + MORE:
                more = True
            else:  # the chooser keeps (stay) or exchanges (swap) the stones it held so far
                chooser = seats[-1]
                held = "O" if chooser == "O" else "X"  # before any swap, O held the O stones and X the X stones
                kept = held if move == cell_count + STAY else ("X" if held == "O" else "O")
                black = chooser if kept == "X" else ("O" if chooser == "X" else "X")
        else:
            stones += 1
    return seats


class Swap2State(State):
    """A position of a Swap2 game: the stones (``board``, freestyle gomoku), who holds the X stones and the phase."""

    __slots__ = ("variant", "board", "black", "phase", "ply")
    #: the opening rule's name (games.engine.strategies.base.OPENING_PLAYERS: who plays its own moves)
    opening = "swap2"

    def __init__(self, variant: Any, board: Any, black: str = "X", phase: str = PLACE3, ply: int = 0) -> None:
        self.variant = variant
        self.board = board  # a GridState of the freestyle board: X = the stones placed first
        self.black = black  # the seat holding the X stones (X's until a swap)
        self.phase = phase
        self.ply = ply  # moves so far, choices included

    # The position, by seat --------------------------------------------------------------------------------
    @property
    def opening_done(self) -> bool:
        return self.phase == PLAY

    def seat(self, stone: str | None) -> str | None:
        """The seat holding the stones of ``stone`` ("X", "O" on the board), or None."""
        if stone is None:
            return None
        return self.black if stone == "X" else ("O" if self.black == "X" else "X")

    @property
    def is_over(self) -> bool:  # type: ignore[override]
        return self.board.is_over

    @property
    def winner(self) -> str | None:  # type: ignore[override]
        return self.seat(self.board.winner)

    @property
    def last_move(self) -> int | None:
        return self.board.last_move

    @property
    def to_move(self) -> str:
        if self.phase in (PLACE3, CHOOSE2):
            return "X"
        if self.phase in (CHOOSE, PLACE2):
            return "O"
        return self.seat(self.board.to_move)  # type: ignore[return-value]

    @property
    def cells(self) -> tuple[str | None, ...]:
        if self.black == "X":
            return self.board.cells
        return tuple(self.seat(stone) for stone in self.board.cells)

    @property
    def winning_cells(self) -> tuple[int, ...]:
        return self.board.winning_cells

    def choices(self) -> list[int]:
        """The choices open now (moves numbered after the cells); [] while stones are placed."""
        n = self.variant.cell_count
        if self.phase == CHOOSE and not self.is_over:
            return [n + STAY, n + SWAP, n + MORE]
        if self.phase == CHOOSE2 and not self.is_over:
            return [n + STAY, n + SWAP]
        return []

    def legal_moves(self) -> list[int]:
        if self.is_over:
            return []
        if self.phase in (CHOOSE, CHOOSE2):
            return self.choices()
        return self.board.legal_moves()

    def play(self, move: int) -> Swap2State:
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMove(f"a move must be a whole number (a cell index or a choice), not {move!r}")
        if self.is_over:
            raise IllegalMove(f"the game is over; no move may be played (tried {move})")
        n = self.variant.cell_count
        if self.phase in (CHOOSE, CHOOSE2):
            if move not in self.choices():
                what = "stay, swap or more" if self.phase == CHOOSE else "stay or swap"
                said = (
                    self.variant.cell_name(move) if 0 <= move < n + len(CHOICES)
                    else shown(move)
                )
                raise IllegalMove(f"{self.to_move} chooses now ({what}) in the Swap2 opening, not {said}")
            return self._choose(move - n)
        if move >= n:
            name = choice_name(n, move) if move < n + len(CHOICES) else None
            if name is None:
                raise IllegalMove(f"move {move} is out of range: cells are numbered 0..{n - 1}")
            raise IllegalMove(f"there is no choice to make now ({name}): {self.to_move} places a stone")
        board = self.board.play(move)
        stones = board.ply
        phase = self.phase
        if phase == PLACE3 and stones == 3:
            phase = CHOOSE
        elif phase == PLACE2 and stones == 5:
            phase = CHOOSE2
        return Swap2State(self.variant, board, self.black, phase, self.ply + 1)

    def _choose(self, choice: int) -> Swap2State:
        if choice == MORE:
            return Swap2State(self.variant, self.board, self.black, PLACE2, self.ply + 1)
        chooser = self.to_move
        held = chooser  # until now each seat held the stones of its own name
        kept = held if choice == STAY else ("O" if held == "X" else "X")
        black = chooser if kept == "X" else ("O" if chooser == "X" else "X")
        return Swap2State(self.variant, self.board, black, PLAY, self.ply + 1)

    def key(self) -> tuple[Any, ...]:
        return self.board.x, self.board.o, self.black, self.phase

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swap2State) and (self.variant, self.key()) == (other.variant, other.key())

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<Swap2State {self.phase} ply={self.ply} X stones held by {self.black} board={self.board!r}>"
