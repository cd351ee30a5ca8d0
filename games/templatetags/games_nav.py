"""``{% nav_waiting as waiting %}``: what waits for the signed-in player (the navigation's badges): games for their
move, challenges sent to them; ``{% my_turn_poll %}``: how often an open page asks again
(``base.html#my_turn``).

A tag rather than a context processor: only the full pages' navigation asks, so an htmx answer does not pay for
it, not even for a lazy value.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from games.selectors import Waiting, count_waiting
from push.streams import position_now

register = template.Library()

MY_TURN_POLL = "10s"  # two COUNTs on indexes, and 204 while they hold; moves in one's own games ask at once


@register.simple_tag(takes_context=True)
def nav_waiting(context: dict[str, Any]) -> Waiting:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return Waiting(0, 0)
    return count_waiting(user)


@register.simple_tag
def my_turn_poll() -> str:
    return MY_TURN_POLL


@register.simple_tag
def live_retry_ms() -> int:
    """How long (ms, about) a page whose push stream was refused waits before trying again (static/js/live.js)."""
    return settings.LIVE_RETRY_MS


@register.simple_tag
def live_since() -> str:
    """Where the live log stands as the page is drawn: its stream replays what comes after (static/js/live.js)."""
    return position_now()
