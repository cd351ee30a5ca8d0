"""The home page's quick pairing (``games/seeks.html#quick_pairing``): one-click tiles per clock on one board, as
lichess's home page has them, and the board picker above them.

A tile is the quick-pairing form filled in: the board's variant and options, the clock, rated. Clicking it seeks
that game (``games.services.seek_create``), which pairs the player at once with someone waiting on the same tile.
"""

from __future__ import annotations

from typing import Any

from ...models import Seek

#: the boards the picker offers: key -> (label, variant, options)
PAIRING_BOARDS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "classic": ("Classic 3 x 3", "classic", {}),
    "four": ("4 x 4", "four", {}),
    "nxn-5": ("5 x 5", "nxn", {"size": 5}),
    "gomoku": ("Gomoku 15 x 15", "mnk", {"rows": 15, "cols": 15, "k": 5}),
    "ultimate": ("Ultimate", "ultimate", {}),
    "multi": ("Multi", "multi", {}),
}
DEFAULT_BOARD = "classic"

#: the tiles of each board: the clock (as the seek form says it) and its speed in words
TILES = (
    ("1+0", "Bullet"), ("3+2", "Blitz"), ("5+3", "Blitz"), ("10+5", "Rapid"), ("15+10", "Rapid"),
    ("1d", "Correspondence"), ("3d", "Correspondence"), ("none", "No clock"),
)


def pairing_board(asked: str | None, remembered: str = "") -> str:
    """The board whose tiles to show: the one asked for (``?board=``), else the one last sought on, else classic."""
    for key in (asked, remembered):
        if key in PAIRING_BOARDS:
            return key
    return DEFAULT_BOARD


def _same_game(seek: Seek, variant: str, options: dict[str, Any], clock: str) -> bool:
    wanted = {name: value for name, value in options.items() if value}
    given = {name: value for name, value in (seek.options or {}).items() if value}
    return seek.variant == variant and seek.clock == clock and seek.rated and given == wanted


def pairing_tiles(board: str, seeks: list[Seek], viewer: Any) -> dict[str, Any]:
    """The picker's boards and the chosen board's tiles, each with how many others wait on it right now."""
    label, variant, options = PAIRING_BOARDS[board]
    others = [seek for seek in seeks if seek.player_id != getattr(viewer, "pk", None)]
    tiles = [
        {
            "clock": clock, "speed": speed, "label": "No clock" if clock == "none" else clock,
            "id": f"tile-{clock.replace('+', '-')}",
            "waiting": sum(_same_game(seek, variant, options, clock) for seek in others),
        }
        for clock, speed in TILES
    ]
    return {
        "board": board,
        "board_label": label,
        "variant": variant,
        "options": sorted(options.items()),
        "boards": [(key, name) for key, (name, _variant, _options) in PAIRING_BOARDS.items()],
        "tiles": tiles,
    }
