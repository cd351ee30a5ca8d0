"""A player is a user of the site; a player may hold personal API tokens for other clients."""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import AbstractUser
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models
from django.db.models import Q
from django.utils import timezone
from ninja.errors import HttpError

from .confusables import skeleton

#: room for a 150-character username's skeleton (a few characters' prototypes are longer than one character)
SKELETON_MAX = 600


class Player(AbstractUser):
    """The site's user model, custom from the first migration so it can grow."""

    #: when the last password-reset email went out: at most one per PASSWORD_RESET_INTERVAL
    password_reset_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: the username's confusable skeleton (players.confusables): no two players' names may look the same.
    #: Checked by clean() (sign-up, the admin: a message naming the other player) and held by a unique constraint
    #: (two sign-ups at the same moment cannot both pass), except for the names that already clashed when the
    #: constraint came (``skeleton_clash``: all but the oldest of each look-alike group keep their names).
    username_skeleton = models.CharField(max_length=SKELETON_MAX, db_index=True, editable=False, default="")
    skeleton_clash = models.BooleanField(default=False, editable=False)
    #: the game sounds (a move, a game's end, a challenge: static/js/attention.js); kept here, not in the browser,
    #: so that muting follows the player to every browser they sign in from
    sound = models.BooleanField(default=True)
    #: the task queue's id of the player's latest slow request (a hint, an analysis, the analysis board's best
    #: move): a player has one waiting at a time (games.services.assists.check_fair_use)
    assist_task = models.CharField(max_length=64, blank=True, default="", editable=False)
    #: a BOT account (issue 33): a program that plays through the bot API (games.api.bots), never through the pages;
    #: shown as "BOT name" wherever its name is shown, listed apart on the leaderboard. Irreversible: set only by
    #: games.services.bots.bot_upgrade, refused once the account has played a rated game against a person.
    is_bot = models.BooleanField(default=False, editable=False)

    # Preferences, kept on the player so that they follow them to every browser (the profile's Preferences form)
    class BoardTheme(models.TextChoices):
        """The boards' colours (static/css/site.css, body[data-board-theme]), each in light and dark."""

        STANDARD = "standard", "Standard"
        WOOD = "wood", "Wood"
        SEA = "sea", "Sea"
        CONTRAST = "contrast", "High contrast"

    class ConfirmMoves(models.TextChoices):
        """When a move takes two clicks (the first marks the cell, the second plays it: static/js/board.js)."""

        TOUCH = "touch", "Small cells on a touch screen"
        ALWAYS = "always", "Always"
        NEVER = "never", "Never"

    board_theme = models.CharField(max_length=16, choices=BoardTheme.choices, default=BoardTheme.STANDARD)
    confirm_moves = models.CharField(max_length=8, choices=ConfirmMoves.choices, default=ConfirmMoves.TOUCH)
    #: in games with a clock, a cell clicked while the opponent thinks is played as soon as it is this player's turn
    premove = models.BooleanField(default=False)
    #: the board whose pairing tiles the home page shows first: the last one this player sought a game on
    pairing_board = models.CharField(max_length=24, blank=True, default="")

    class Meta:
        verbose_name = "player"
        verbose_name_plural = "players"
        constraints = [
            models.UniqueConstraint(
                fields=["username_skeleton"], condition=Q(skeleton_clash=False) & ~Q(username_skeleton=""),
                name="player_unique_skeleton",
            )
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def display_name(self) -> str:
        """The name as every page shows it: "BOT name" for a bot account, else the username."""
        return f"BOT {self.username}" if self.is_bot else self.username

    def clean(self) -> None:
        super().clean()  # NFKC-normalises the username
        if not self.username:
            return  # refused already (empty, or the form's own checks)
        if self._state.adding or Player.objects.filter(pk=self.pk).exclude(username=self.username).exists():
            look_alike = self.look_alike()
            if look_alike is not None:
                raise ValidationError(
                    {"username": f"This name is too much like the existing player {look_alike.username}: "
                     "choose a name that looks different."}
                )

    def look_alike(self) -> Player | None:
        """Another player whose name looks the same as this one's (an exact match is the unique check's)."""
        others = Player.objects.filter(username_skeleton=skeleton(self.username)[:SKELETON_MAX])
        return others.exclude(pk=self.pk).exclude(username=self.username).order_by("pk").first()

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_skeleton = skeleton(self.username)[:SKELETON_MAX]
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_skeleton"}
        # set_password() was called (a change, a reset, the admin): not a hasher's upgrade, which clears it first
        new_password = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if new_password:
            # Whoever knew the old password may have made a token with it: tokens end with it, as sessions do.
            self.api_tokens.all().delete()


class PlayerSession(AbstractBaseSession):
    """A session stored in the database (players.sessions), with the player signed in to it, if any: logging
    out deletes it wherever its cookie was copied, and a player can end all their other sessions."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="sessions"
    )

    class Meta(AbstractBaseSession.Meta):
        db_table = "players_session"

    @classmethod
    def get_session_store_class(cls) -> type:
        return SessionStore


logger = logging.getLogger(__name__)


class SessionStore(CachedDBStore):
    """Django's cached_db store whose cache may fail (Redis restarting, an unwritable cache folder): a session is then
    read from and written to the database alone, and the site goes on. A database error still raises."""

    cache_key_prefix = "players.sessions"

    def load(self) -> dict[str, Any]:
        try:
            return super().load()
        except DatabaseError:
            raise
        except Exception:
            logger.warning("the sessions' cache failed: the session is read from the database", exc_info=True)
            return DBStore.load(self)

    def exists(self, session_key: str) -> bool:
        try:
            return super().exists(session_key)
        except DatabaseError:
            raise
        except Exception:
            logger.warning("the sessions' cache failed: the session is looked up in the database", exc_info=True)
            return DBStore.exists(self, session_key)

    def delete(self, session_key: str | None = None) -> None:
        try:
            super().delete(session_key)  # the row first, then its cached copy
        except DatabaseError:
            raise
        except Exception:  # the row is gone; a cached copy left behind goes with the cache (or its expiry)
            logger.warning("the sessions' cache failed: a deleted session's cached copy may remain", exc_info=True)

    @classmethod
    def get_model_class(cls) -> type:
        return PlayerSession

    def create_model_instance(self, data: dict[str, Any]) -> Any:
        session = super().create_model_instance(data)
        try:
            session.player_id = int(data.get(SESSION_KEY))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            session.player_id = None
        return session


#: every token starts with this, so a leaked one is easy to recognise (and to scan for)
TOKEN_PREFIX = "ttt_"
#: characters of the token (after TOKEN_PREFIX) kept in clear for display: "ttt_Ab3dE6gH…"
DISPLAY_CHARS = 8


def hash_token(raw: str) -> str:
    """The stored form of a token: hex sha256. Tokens are 256-bit random, so no salt or slow hash is needed."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def for_raw(self, raw: str) -> ApiTokenQuerySet:
        return self.filter(token_hash=hash_token(raw))


class ApiToken(models.Model):
    """A personal token for the JSON API (``Authorization: Bearer <token>``).

    Only a sha256 of the token is stored, with its first characters for people to tell tokens
    apart; the token itself is shown once, when it is created (``ApiToken.issue``). Revoking a
    token deletes it.
    """

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=len(TOKEN_PREFIX) + DISPLAY_CHARS)
    token_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    #: after this the token is refused (401, saying so); None: until revoked or the password changes
    expires = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "API token"
        verbose_name_plural = "API tokens"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.player}"

    @classmethod
    def issue(cls, *, player: Player, name: str, expires: datetime | None = None) -> tuple[ApiToken, str]:
        """Create a token for ``player``; returns it with the raw token, which is not stored anywhere."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            player=player, name=name.strip()[:100] or "token", prefix=raw[: len(TOKEN_PREFIX) + DISPLAY_CHARS],
            token_hash=hash_token(raw), expires=expires,
        )
        return token, raw

    @classmethod
    def authenticate(cls, raw: str | None) -> Player | None:
        """The active player owning the token ``raw`` (marking the token used), or None; TokenExpired (the API's
        401 with its message) for a token past its expiry."""
        if not raw or not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
            return None
        token = cls.objects.for_raw(raw).select_related("player").first()
        if token is None or not token.player.is_active:
            return None
        now = timezone.now()
        if token.expires is not None and token.expires <= now:
            raise TokenExpired(token)
        # At most one write a minute per token: a busy client does not turn every read into a write.
        if token.last_used is None or (now - token.last_used).total_seconds() > 60:
            cls.objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return token.player


class TokenExpired(HttpError):
    """A token past its expiry. Raised from ApiToken.authenticate, which the API's TokenAuth calls: ninja hands it
    to the API's HttpError handler, a 401 with this message (rather than "send a valid token")."""

    def __init__(self, token: ApiToken) -> None:
        when = token.expires.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if token.expires else ""
        super().__init__(401, f"this token ({token.prefix}…) expired on {when}; make a new one on your profile page")
