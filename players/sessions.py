"""The session engine (SESSION_ENGINE = "players.sessions"): Django's cached_db sessions in PlayerSession rows.

In the database so that logging out deletes the session for every copy of its cookie (signed-cookie sessions
cannot: a copy stayed valid for two weeks), and with the signed-in player's id beside it so that a player can
end their other sessions. Read through the SESSION_CACHE_ALIAS cache (Redis, shared by every server, when
REDIS_URL is set; else a dummy cache: the database alone answers); a session's writes and its deletion go to both.
"""

from __future__ import annotations

# The store lives beside its model (players.models), each naming the other; SESSION_ENGINE names this module.
from .models import SessionStore

__all__ = ["SessionStore"]
