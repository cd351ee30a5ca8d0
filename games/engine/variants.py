"""The variants by key (RULES.md), and ``get_variant`` to build one with its options."""

from __future__ import annotations

from typing import Any

from .core import Variant, shown
from .grid import MNK, Classic, Four, NxN
from .nested import Multi, Ultimate

VARIANTS: dict[str, type[Variant]] = {cls.key: cls for cls in (Classic, Four, NxN, MNK, Ultimate, Multi)}


def get_variant(key: str, **options: Any) -> Variant:
    """The variant ``key`` with ``options`` (see RULES.md); ValueError names what is wrong."""
    try:
        cls = VARIANTS[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {shown(key)}; choose one of {', '.join(VARIANTS)}") from None
    return cls(**options)
