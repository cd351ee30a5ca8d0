"""The session engine (SESSION_ENGINE = "players.sessions"): Django's cached_db sessions in PlayerSession rows.

In the database so that logging out deletes the session for every copy of its cookie (signed-cookie sessions
cannot: a copy stayed valid for two weeks), and with the signed-in player's id beside it so that a player can
end their other sessions. Read through the SESSION_CACHE_ALIAS cache (files shared by the workers of one
machine), so that a request costs no query for its session; a session's writes and its deletion go to both.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore


class SessionStore(CachedDBStore):
    cache_key_prefix = "players.sessions"

    @classmethod
    def get_model_class(cls) -> type:
        from .models import PlayerSession  # the models import this module's class lazily too

        return PlayerSession

    def create_model_instance(self, data: dict[str, Any]) -> Any:
        session = super().create_model_instance(data)
        try:
            session.player_id = int(data.get(SESSION_KEY))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            session.player_id = None
        return session
