"""Look-alike usernames: the Unicode TR39 confusable skeleton of a name, folded further.

Two names with the same skeleton display (nearly) the same: ``alice`` and ``аlice`` with a Cyrillic а,
``paypal`` and ``paypaI``. The skeleton is NFD, each character replaced by its prototype from Unicode's
confusables.txt, NFD again (TR39 section 4). The data comes from confusable-homoglyphs, which keeps each
source -> prototype pair in both directions: a character with a single entry maps to it, a character with
several is a prototype itself; where a pair says nothing more, both map to the smaller, which keeps the
same classes of look-alikes.

TR39 keeps case and accents, and its data maps ``0`` to a capital ``O``: ``b0b``, ``B0B`` and ``alicé`` passed
beside ``bob`` and ``alice``. So TR39's skeleton is then folded (``_fold``): accents (the combining marks of
Latin, Greek and Cyrillic letters) left out, case folded, and the digits that people read as letters (``0`` o,
``1`` l, ``5`` s) read as those letters. The case is folded after TR39, not before, so that a capital I still
reads as the l it imitates (``paypaI``); ``Alice`` beside ``alice`` is refused by Django's sign-up form itself
(a name taken in any case), and the folded skeleton holds that in the database too. A change here changes
stored skeletons: a migration recomputes them and marks the names that clash under the new rule (players
migrations 0008 and 0010).
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path

import confusable_homoglyphs

#: the data marks right-to-left characters with LEFT-TO-RIGHT MARKs for display: not part of them
_LRM = "\u200e"
#: digits read as letters (after case folding: TR39 maps 0 to O and 1 to l already)
_DIGITS = str.maketrans({"0": "o", "1": "l", "5": "s"})
#: combining marks that are accents on Latin, Greek and Cyrillic letters (the Combining Diacritical Marks blocks);
#: the marks of other scripts (an Indic vowel sign) make different names and stay
_ACCENTS = (
    ("\u0300", "\u036f"), ("\u1ab0", "\u1aff"), ("\u1dc0", "\u1dff"), ("\u20d0", "\u20ff"), ("\ufe20", "\ufe2f"),
)


@cache
def _prototypes() -> dict[str, str]:
    data = json.loads((Path(confusable_homoglyphs.__file__).parent / "confusables.json").read_text("utf-8"))
    table: dict[str, str] = {}
    for key, entries in data.items():
        char = key.replace(_LRM, "")
        if len(char) != 1 or len(entries) != 1:
            continue  # a prototype (of several characters, or with several look-alikes)
        target = entries[0]["c"].replace(_LRM, "")
        if len(target) == 1 and len(data.get(entries[0]["c"], [])) == 1:
            target = min(char, target)  # a lone pair: either may be the prototype
        table[char] = target
    return table


def _tr39(text: str) -> str:
    """TR39's skeleton: NFD, each character's prototype, NFD again."""
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text)))


def _fold(text: str) -> str:
    """Accents left out, case folded, digits read as letters."""
    bare = "".join(char for char in text if not any(low <= char <= high for low, high in _ACCENTS))
    return bare.casefold().translate(_DIGITS)


def skeleton(name: str) -> str:
    """The skeleton of ``name`` (after the NFKC that Django applies to usernames): TR39's, folded, and TR39's
    again (a folded letter may have a prototype of its own: a Cyrillic capital's small letter)."""
    return _fold(_tr39(_fold(_tr39(unicodedata.normalize("NFKC", name)))))
