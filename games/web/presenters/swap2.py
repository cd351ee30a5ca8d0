"""A Swap2 game's opening on the game page (games.engine.swap2): what is being done, in words, and the choices as
buttons of the board's form (each a move: ``data-move``, sent like a cell)."""

from __future__ import annotations

from typing import Any

from ...engine.swap2 import CHOOSE, CHOOSE2, MORE, PLACE2, PLACE3, STAY, SWAP
from ...pov import GameView

#: the buttons' words by phase and choice
CHOICE_WORDS = {
    CHOOSE: {STAY: "Stay O: keep the O stones and play on", SWAP: "Swap: take the X stones",
             MORE: "More: place two more stones, then X chooses"},
    CHOOSE2: {STAY: "Stay X: keep the X stones", SWAP: "Swap: take the O stones"},
}


def opening_context(view: GameView) -> dict[str, Any]:
    """``swap2_note`` (the opening's step in words, "" outside a Swap2 game) and ``swap2_choices`` (move, name,
    words) for the viewer who chooses now."""
    state = view.position.state
    phase = getattr(state, "phase", None)
    if phase is None:
        return {"swap2_note": "", "swap2_choices": []}
    x, o = view.seat_label("X"), view.seat_label("O")
    if phase == PLACE3:
        note = f"Swap2 opening: X ({x}) places three stones, an X, an O, then an X."
    elif phase == CHOOSE:
        note = f"Swap2 opening: O ({o}) chooses: stay O, swap (take the X stones), or place two more stones."
    elif phase == PLACE2:
        note = f"Swap2 opening: O ({o}) places two more stones, an O then an X; then X chooses."
    elif phase == CHOOSE2:
        note = f"Swap2 opening: X ({x}) chooses: stay X, or swap (take the O stones)."
    else:
        holder = x if state.black == "X" else o
        note = f"Swap2: {state.black} ({holder}) holds the stones placed first." if state.black != "X" else ""
    choices = []
    if view.can_move and phase in CHOICE_WORDS:
        n = state.variant.cell_count
        choices = [(move, view.name(move), CHOICE_WORDS[phase][move - n]) for move in state.legal_moves()]
    return {"swap2_note": note, "swap2_choices": choices}
