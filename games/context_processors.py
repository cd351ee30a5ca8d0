"""Template context for every page: how many games wait for the signed-in player's move (the navigation's badge)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .selectors import games_to_move


def my_turn(request: HttpRequest) -> dict[str, Any]:
    """``my_turn_count``: counted (one query) only when a template shows it, i.e. on full pages, not partials."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"my_turn_count": SimpleLazyObject(lambda: games_to_move(user).count())}
