"""``{% my_turn_count as waiting %}``: how many games wait for the signed-in player's move (the navigation's badge);
``{% my_turn_poll %}``: how often an open page asks again (``games/partials/_my_turn.html``).

A tag rather than a context processor: only the full pages' navigation asks, so an htmx answer does not pay for
it, not even for a lazy value.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.selectors import count_games_to_move

register = template.Library()

MY_TURN_POLL = "10s"  # a COUNT on an index, and 204 while it holds; moves in one's own games ask at once


@register.simple_tag(takes_context=True)
def my_turn_count(context: dict[str, Any]) -> int:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return count_games_to_move(user)


@register.simple_tag
def my_turn_poll() -> str:
    return MY_TURN_POLL
