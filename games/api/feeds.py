"""What the bot API's streams say (issue 33): each line of newline-delimited JSON, worked out from the database.

A stream (games.api.streams) is woken by the live push whenever one of its topics changes; it then asks its feed
what to send. A feed reads the state as it stands and says what is new since it last looked, so that several
changes between two looks are never lost (a game's line carries all its moves; the account's feed compares the
challenges and games waiting now with those it announced). Opening a stream announces what is already there:
the challenges still waiting and the running games (``gameStart``), or a game's whole state (``gameFull``), so a
client that reconnects has missed nothing.

- ``EventFeed``, the account's ``GET /api/stream/event``: ``challenge``, ``challengeCanceled``,
  ``challengeDeclined``, ``gameStart``, ``gameFinish``;
- ``GameFeed``, a game's ``GET /api/bot/game/stream/{id}``: ``gameFull`` first, then ``gameState`` once per
  change (a move with both clocks, an offer, the end); the stream ends after the last one.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from .. import selectors
from ..errors import GameNotFound
from ..models import SIDES, ChallengeEnd, Game
from ..positions import fresh_position
from ..pov import clock_view
from ..services import settled

#: how far back a look for games finished since the last one reaches: a game's end is stamped a moment before its
#: transaction commits, and two servers' clocks may differ a little (ends already announced are not repeated)
FINISHED_SLACK = timedelta(seconds=30)


def player_json(player: Any) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"username": player.get_username(), "bot": bool(getattr(player, "is_bot", False))}


def seat_json(game: Game, side: str) -> dict[str, Any]:
    """A seat as the streams show it: the player (and whether a bot), or the computer, or nobody yet."""
    player = game.seat_player(side) if game.seat_player_id(side) is not None else None
    level, strategy = game.seat_computer(side)
    kind = "player" if player is not None else ("computer" if level or strategy else "open")
    return {
        "side": side, "kind": kind, "username": player.get_username() if player is not None else None,
        "bot": bool(getattr(player, "is_bot", False)), "label": game.seat_label(side),
    }


def _rated(game: Game) -> bool:
    """Whether the game counts for ratings (a game between two players that is not casual)."""
    return bool(game.pool) and game.unrated_reason != "casual"


def _settings(game: Game) -> dict[str, Any]:
    return {
        "id": game.pk, "url": f"/games/{game.pk}/", "variant": game.variant, "options": game.options or {},
        "variant_title": selectors.variant_label(game.variant), "clock": game.clock or "none", "rated": _rated(game),
    }


def challenge_json(game: Game, account: Any) -> dict[str, Any]:
    """A challenge still waiting, as ``account`` (its maker or the player it was sent to) is told of it."""
    maker_side = next((side for side in SIDES if game.seat_player_id(side) == game.created_by_id), "X")
    other = "O" if maker_side == "X" else "X"
    return {
        **_settings(game),
        "challenger": player_json(game.created_by),
        "dest": player_json(game.invitee) if game.invitee_id else None,
        "challenger_side": maker_side,
        "dest_side": other,
        "direction": "out" if game.created_by_id == account.pk else "in",
        "created": game.created.isoformat(),
    }


def game_event_json(game: Game, account: Any) -> dict[str, Any]:
    """A game of ``account``'s as its start and end are told: the settings, its side, the opponent, the result."""
    sides = game.sides_of(account)
    side = sides[0] if len(sides) == 1 else None
    opponent = seat_json(game, "O" if side == "X" else "X") if side else None
    return {
        **_settings(game),
        "side": side,
        "opponent": opponent,
        "status": game.status,
        "result": game.result or None,
        "winner": game.result if game.result in SIDES else None,
        "result_reason": game.result_reason or None,
    }


class EventFeed:
    """The account's events: what is new since the last ``lines()`` (the first call: everything waiting now)."""

    #: the account's events never end (the stream does, after push.streams.MAX_AGE)
    over = False

    def __init__(self, account: Any) -> None:
        self.account = account
        self.challenges: dict[int, dict[str, Any]] = {}  # announced and still waiting, by id
        self.games: dict[int, dict[str, Any]] = {}  # announced and still running, by id
        self.finished: set[int] = set()  # whose end was announced
        self.looked: datetime | None = None

    def due(self) -> bool:
        return False  # nothing happens to an account without a notice

    def lines(self) -> list[dict[str, Any]]:
        account, now = self.account, timezone.now()
        waiting = {game.pk: game for game in selectors.pending_challenges(account)}
        running = {game.pk: game for game in selectors.running_games(account)}
        ended = (
            {game.pk: game for game in selectors.games_finished_since(account, self.looked - FINISHED_SLACK)}
            if self.looked is not None else {}
        )
        self.looked = now
        out: list[dict[str, Any]] = []
        gone = [pk for pk in self.challenges if pk not in waiting]
        reasons = selectors.challenge_ends(gone) if gone else {}
        for pk in gone:
            data = self.challenges.pop(pk)
            if pk in running or pk in ended:
                continue  # it became a game: its start is said below
            reason = reasons.get(pk, ChallengeEnd.Reason.CANCELED)
            kind = "challengeCanceled" if reason == ChallengeEnd.Reason.CANCELED else "challengeDeclined"
            out.append({"type": kind, "challenge": {**data, "reason": reason}})
        for pk, game in waiting.items():
            if pk not in self.challenges:
                self.challenges[pk] = challenge_json(game, account)
                out.append({"type": "challenge", "challenge": self.challenges[pk]})
        for pk, game in running.items():
            if pk not in self.games:
                self.games[pk] = game_event_json(game, account)
                out.append({"type": "gameStart", "game": self.games[pk]})
        for pk, game in ended.items():
            if pk in self.finished:
                continue
            if pk not in self.games:  # started and ended between two looks: both are said
                out.append({"type": "gameStart", "game": game_event_json(game, account)})
            self.games.pop(pk, None)
            self.finished.add(pk)
            out.append({"type": "gameFinish", "game": game_event_json(game, account)})
        return out


def game_state_json(game: Game) -> dict[str, Any]:
    """A game's ``gameState`` line: every move by cell name, both clocks, whose turn, the status and any offer."""
    position = fresh_position(game)
    variant = position.state.variant
    clock = clock_view(game, timezone.now())
    finished = game.is_finished
    offered = next(
        (game.seat_player(side).get_username() for side in SIDES
         if game.draw_offered_by_id is not None and game.seat_player_id(side) == game.draw_offered_by_id), None
    )
    return {
        "type": "gameState",
        "moves": [variant.cell_name(move) for move in position.moves],
        "clock_ms": dict(clock.ms) if clock else None,
        "clock_running": clock.running if clock else None,
        "to_move": None if finished else position.state.to_move,
        "status": game.status,
        "result": game.result or None,
        "winner": game.result if game.result in SIDES else None,
        "result_reason": game.result_reason or None,
        "draw_offered_by": offered,
        "version": game.version,
    }


class GameFeed:
    """One game's lines for ``viewer``: ``gameFull``, then a ``gameState`` whenever its version moves on."""

    def __init__(self, game_id: int, viewer: Any) -> None:
        self.game_id = game_id
        self.viewer = viewer
        self.version: int | None = None
        self.deadline: datetime | None = None
        self.over = False  # the last line has been given: the stream ends

    def _load(self) -> Game:
        # a read settles the clock first (a flag fallen ends the game now), as every read of a game does
        game = settled(selectors.game_for_viewer(self.game_id, self.viewer))
        self.version, self.deadline = game.version, game.clock_deadline
        self.over = game.is_finished
        return game

    def full(self) -> dict[str, Any]:
        """The first line; GameNotFound for a game the viewer may not see."""
        game = self._load()
        state = game_state_json(game)
        return {
            "type": "gameFull", **_settings(game), "seats": [seat_json(game, side) for side in SIDES],
            # where the moves start from: multi's drawn first board, or a position string (games.engine)
            "start_board": game.start_board, "start_position": game.start_position or None,
            "created": game.created.isoformat(), **{k: v for k, v in state.items() if k != "type"},
            "state": state,
        }

    def due(self) -> bool:
        """Whether the clock may have ended the game by now with nobody moving (worth a look without a notice)."""
        return self.deadline is not None and timezone.now() >= self.deadline

    def lines(self) -> list[dict[str, Any]]:
        """What changed since the last look: a ``gameState``, or nothing. A game gone (a challenge cancelled or
        declined) ends the stream."""
        seen = self.version
        try:
            game = self._load()
        except GameNotFound:  # the challenge was cancelled or declined
            self.over = True
            return [{"type": "gameState", "status": "gone", "moves": [], "version": seen}]
        if game.version == seen:
            return []
        return [game_state_json(game)]
