"""Look-alike usernames: the Unicode TR39 confusable skeleton of a name.

Two names with the same skeleton display (nearly) the same: ``alice`` and ``аlice`` with a Cyrillic а,
``paypal`` and ``paypaI``. The skeleton is NFD, each character replaced by its prototype from Unicode's
confusables.txt, NFD again (TR39 section 4). The data comes from confusable-homoglyphs, which keeps each
source -> prototype pair in both directions: a character with a single entry maps to it, a character with
several is a prototype itself; where a pair says nothing more, both map to the smaller, which keeps the
same classes of look-alikes.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path

import confusable_homoglyphs

#: the data marks right-to-left characters with LEFT-TO-RIGHT MARKs for display: not part of them
_LRM = "\u200e"


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


def skeleton(name: str) -> str:
    """The TR39 skeleton of ``name`` (after the NFKC that Django applies to usernames)."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))
