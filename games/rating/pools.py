"""Rating pools, keyed as lichess keys them: one rating per game (variant and board) and per speed.

A pool key is ``<board>:<speed>``, e.g. ``mnk-15x15k5:blitz``, ``nxn-7:untimed``, ``classic:bullet``.

The board part names the game actually played, so that one rating measures one skill:

- ``classic``, ``four``, ``nxn-<n>``, ``mnk-<rows>x<cols>k<k>``, ``ultimate``, ``ultimate-closed``, ``multi``.
- Each n x n and each m,n,k size is its own pool: 4 x 4, k = 3 and 19 x 19, k = 5 are different games.
- One game has one key however it was asked for: n x n with n = 3 is classic and n = 4 is four; m,n,k with
  rows = cols = k is that n x n game; and an m,n,k board turned on its side (rows and cols swapped) is the same
  game, written smaller side first (``mnk-10x15k5`` for 15 x 10 as well).
- Ultimate with ``closed_boards`` is its own pool: closing won boards changes where a move may be sent, the
  whole game tree and its strategy (RULES.md counts it separately).
- Gomoku with the Swap2 opening (m,n,k's ``opening=swap2``) is its own pool, ``mnk-15x15k5-swap2``: freestyle
  rewards whoever moves first, Swap2 does not, so the two ratings measure different things.
- Multi with ``random_start`` shares Multi's pool: the drawn first board only fixes where the first move goes
  on an empty position, which changes nothing of the skill being measured.

Speeds are ``TimeControl.speed`` values, with ultraBullet counted as bullet: a separate quarter-minute pool
would stay almost empty on a site this size and ratings in it would never settle.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import VARIANTS
from games.engine.clock import TimeControl
from games.engine.swap2 import swap2_allowed

#: the speeds that have a pool, in the order a profile lists them
POOL_SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence", "untimed")
#: ``TimeControl.speed`` values rated in another speed's pool
MERGED_SPEEDS = {"ultraBullet": "bullet"}
SPEED_LABELS = {
    "bullet": "Bullet",
    "blitz": "Blitz",
    "rapid": "Rapid",
    "classical": "Classical",
    "correspondence": "Correspondence",
    "untimed": "Untimed",
}
#: the speed of every rating kept before pools: those games had no clock
LEGACY_SPEED = "untimed"

_NXN = re.compile(r"nxn-(\d{1,2})", re.ASCII)
_MNK = re.compile(r"mnk-(\d{1,2})x(\d{1,2})k(\d{1,2})(-swap2)?", re.ASCII)
_FIXED_BOARDS = {
    "classic": "Classic 3 x 3",
    "four": "4 x 4, 4 in a row",
    "ultimate": "Ultimate",
    "ultimate-closed": "Ultimate, won boards closed",
    "multi": "Multi",
}
_MAX_KEY = 40


class InvalidPool(ValueError):
    """A variant, options, speed or pool key that names no rating pool; the message says why."""


def _full_options(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The variant's options with defaults filled in, checked as the engine checks them.

    The engine's own checks (``check_options``) without building the variant: building a 19 x 19 board's line
    tables costs milliseconds, too much for a key looked up on every rated game and every lobby seek. The two
    rules ``get_variant`` adds for m,n,k (k's default, k at most the longer side) are repeated here, and Swap2's
    board (``swap2_allowed``); a test holds them to the engine's.
    """
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise InvalidPool(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if not isinstance(options, Mapping):
        raise InvalidPool(f"a variant's options are a mapping of names to values, not {type(options).__name__}")
    given = dict(options)
    if not all(isinstance(name, str) for name in given):
        raise InvalidPool(f"option names are text, not {sorted(map(repr, given))[:5]}")
    if variant == "mnk" and "k" not in given:
        rows, cols = given.get("rows", 15), given.get("cols", 15)
        if isinstance(rows, int) and isinstance(cols, int):
            given["k"] = max(3, min(5, max(rows, cols)))
    try:
        full = VARIANTS[variant].check_options(given)
    except ValueError as err:
        raise InvalidPool(str(err)) from None
    if variant == "mnk" and full["k"] > max(full["rows"], full["cols"]):
        raise InvalidPool(
            f"k={full['k']} cannot be larger than the board ({full['rows']} x {full['cols']}): "
            f"k must be at most {max(full['rows'], full['cols'])}"
        )
    if variant == "mnk" and full["opening"] == "swap2" and not swap2_allowed(full["rows"], full["cols"], full["k"]):
        raise InvalidPool("the swap2 opening is for gomoku boards: five in a row on at least 15 x 15")
    return full


def _grid_board(rows: int, cols: int, k: int) -> str:
    if rows == cols == k:
        return {3: "classic", 4: "four"}.get(k) or (f"nxn-{k}" if k <= 10 else f"mnk-{k}x{k}k{k}")
    small, large = sorted((rows, cols))
    return f"mnk-{small}x{large}k{k}"


def board_key(variant: str, options: Mapping[str, Any]) -> str:
    """The board part of a pool key: the game ``variant`` with ``options`` really is (see the module's notes)."""
    full = _full_options(variant, options)
    if variant == "classic":
        return "classic"
    if variant == "four":
        return "four"
    if variant == "nxn":
        n = full["size"]
        return _grid_board(n, n, n)
    if variant == "mnk":
        board = _grid_board(full["rows"], full["cols"], full["k"])
        return f"{board}-swap2" if full.get("opening") == "swap2" else board
    if variant == "ultimate":
        return "ultimate-closed" if full["closed_boards"] else "ultimate"
    return "multi"  # random_start does not change the game's skill: same pool


def pool_speed(speed: str) -> str:
    """The pool speed a ``TimeControl.speed`` is rated in (ultraBullet counts as bullet)."""
    speed = MERGED_SPEEDS.get(speed, speed) if isinstance(speed, str) else speed
    if speed not in POOL_SPEEDS:
        raise InvalidPool(f"unknown speed {speed!r}; choose one of {', '.join(POOL_SPEEDS)} (or ultraBullet)")
    return speed


def pool_key(variant: str, options: Mapping[str, Any], speed: str) -> str:
    """The pool a game of ``variant`` with ``options`` at ``speed`` is rated in, e.g. ``mnk-15x15k5:blitz``."""
    return f"{board_key(variant, options)}:{pool_speed(speed)}"


def pool_of_legacy(variant: str, options: Mapping[str, Any]) -> str:
    """For migrating a game rated before pools: its board's ``untimed`` pool (no game had a clock then).

    Old ratings were one per variant; each old game belongs to the pool of its own board, so one variant's
    rating may split into several pools (every n x n size its own).
    """
    return pool_key(variant, options, LEGACY_SPEED)


@dataclass(frozen=True, slots=True)
class Pool:
    """A rating pool: the board (a ``board_key``) and the speed (one of ``POOL_SPEEDS``)."""

    board: str
    speed: str

    @classmethod
    def parse(cls, key: str) -> Pool:
        """The pool of a key as ``pool_key`` writes it; InvalidPool for anything else, non-canonical spellings
        included (``nxn-3`` is written ``classic``), so that one pool never has two keys."""
        if not isinstance(key, str) or len(key) > _MAX_KEY or key.count(":") != 1:
            shown = repr(key[:_MAX_KEY]) if isinstance(key, str) else type(key).__name__
            raise InvalidPool(f"{shown} is not a pool key (written <board>:<speed>, e.g. mnk-15x15k5:blitz)")
        board, _, speed = key.partition(":")
        return cls(board, speed)

    def __post_init__(self) -> None:
        if self.speed not in POOL_SPEEDS:
            raise InvalidPool(f"{self.speed!r} is no pool speed; the speeds are {', '.join(POOL_SPEEDS)}")
        _check_board(self.board, self.speed)

    @property
    def key(self) -> str:
        return f"{self.board}:{self.speed}"

    @property
    def game(self) -> tuple[str, dict[str, Any]]:
        """A variant and options that are played in this pool (to start a game from a pool, e.g. when pairing)."""
        return _board_game(self.board)

    @property
    def label(self) -> str:
        return f"{board_label(self.board)} · {SPEED_LABELS[self.speed]}"


def _board_game(board: str) -> tuple[str, dict[str, Any]]:
    """The variant and options a board part stands for (not yet checked to be canonical)."""
    if not isinstance(board, str):
        raise InvalidPool(f"a pool's board is text such as nxn-7, not {type(board).__name__}")
    if board in ("classic", "four", "multi"):
        return board, {}
    if board in ("ultimate", "ultimate-closed"):
        return "ultimate", {"closed_boards": board == "ultimate-closed"}
    if match := _NXN.fullmatch(board):
        return "nxn", {"size": int(match.group(1))}
    if match := _MNK.fullmatch(board):
        rows, cols, k = map(int, match.groups()[:3])
        return "mnk", {"rows": rows, "cols": cols, "k": k, **({"opening": "swap2"} if match.group(4) else {})}
    raise InvalidPool(f"{board!r} is not a board of any pool (e.g. classic, nxn-7, mnk-15x15k5, ultimate)")


def _check_board(board: str, speed: str | None = None) -> tuple[str, dict[str, Any]]:
    """The variant and options of ``board`` if it is written as ``board_key`` writes it (one key per pool)."""
    variant, options = _board_game(board)
    canonical = board_key(variant, options)
    if canonical != board:
        end = f":{speed}" if speed else ""
        raise InvalidPool(f"{board}{end} is not how the pool is written: it is {canonical}{end}")
    return variant, options


def board_label(board: str) -> str:
    """A board part in words: ``"15 x 15, 5 in a row"``, ``"7 x 7, 7 in a row"``, ``"Ultimate"``."""
    variant, options = _check_board(board)
    if board in _FIXED_BOARDS:
        return _FIXED_BOARDS[board]
    if variant == "nxn":
        n = options["size"]
        return f"{n} x {n}, {n} in a row"
    swap2 = ", Swap2" if options.get("opening") == "swap2" else ""
    return f"{options['rows']} x {options['cols']}, {options['k']} in a row{swap2}"


def pool_label(key: str) -> str:
    """A pool key in words: ``"15 x 15, 5 in a row · Blitz"``. InvalidPool for what is not a pool key."""
    return Pool.parse(key).label


def pool_for_game(game: Any) -> str:
    """The pool a game (a ``games.models.Game``, or anything with ``variant``, ``options`` and maybe ``clock``) is
    rated in. The one place that decides a game's speed: every rating read and write goes through it.

    The control is read however it is given: a ``TimeControl`` (anything with ``speed``), its text as ``Game.clock``
    stores it (``none``, ``3+2``, ``3d``, or "" for none) or nothing (untimed).
    """
    control = getattr(game, "clock", None)  # (what has no clock at all, e.g. a bare variant and options: untimed)
    if control is None or control == "":
        speed = LEGACY_SPEED
    elif isinstance(control, str):
        speed = TimeControl.parse(control).speed
    else:
        speed = control.speed
    return pool_key(game.variant, game.options or {}, speed)
