"""The reference bot: seed 004's "automaton with plug-in strategies", playing on a site through the bot API.

``Bot(api, make_strategy).run()`` listens to the account's event stream: it accepts each challenge sent to it that
its strategy can play (``supports``) while it has room for another game, and declines the others; for each game
that starts it opens the game's stream in a thread of its own and, whenever the game says it is its turn, asks
the strategy for a move (``choose``) on the engine's state rebuilt from the moves by cell name, and sends it. It
never polls: everything it learns comes from the two streams, which it opens again if the site ends them (they
start again with everything waiting, so nothing is lost).

A strategy is anything with ``choose(state) -> move`` (a legal move of the engine's state: a cell number, or a
choice of a Swap2 opening) and, optionally, ``supports(variant) -> bool``: one of the engine's
(``games.engine.get_strategy``) or a class of your own (docs/bots.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..engine import State, get_variant, parse_position
from .client import Api, ApiError

logger = logging.getLogger("games.bot")

#: seconds before a stream that ended or broke is opened again
RECONNECT_AFTER = 1.0


def state_of(game: dict[str, Any], moves: list[str]) -> State:
    """The engine's state after ``moves`` (cell names) from the start of ``game`` (its ``gameFull`` line)."""
    variant = get_variant(game["variant"], **game["options"])
    if game.get("start_position"):
        state = parse_position(game["start_position"])
    elif game.get("start_board") is not None:
        state = variant.new_game(start_board=game["start_board"])
    else:
        state = variant.new_game()
    for name in moves:
        state = state.play(variant.parse_cell(name))
    return state


class Bot:
    def __init__(self, api: Api, make_strategy: Callable[[], Any], *, max_games: int = 4) -> None:
        self.api = api
        self.make_strategy = make_strategy
        self.max_games = max_games
        self.username = ""
        self.games: dict[int, threading.Thread] = {}
        self.accepted: set[int] = set()  # challenges accepted whose game has not started here yet
        self.finished: set[int] = set()
        self.stopping = threading.Event()
        self._lock = threading.Lock()

    def stop(self) -> None:
        self.stopping.set()
        self.api.close()

    # The account's events ---------------------------------------------------------------------------------

    def run(self) -> None:
        """Play until ``stop()``: listen to the account's events, open again when the stream ends."""
        me = self.api.get("/api/me")
        if not me.get("bot"):
            raise SystemExit(
                f"{me['username']} is not a bot account: POST /api/bot/account/upgrade first (docs/bots.md)"
            )
        self.username = me["username"]
        logger.info("bot %s: listening for challenges", self.username)
        while not self.stopping.is_set():
            try:
                for event in self.api.stream("/api/stream/event"):
                    self.on_event(event)
            except (ApiError, OSError) as err:
                logger.warning("bot %s: the event stream broke (%s); opening it again", self.username, err)
            if not self.stopping.is_set():
                time.sleep(RECONNECT_AFTER)

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge" and event["challenge"]["direction"] == "in":
            self.answer(event["challenge"])
        elif kind == "gameStart":
            self.start(event["game"]["id"])
        elif kind == "gameFinish":
            game = event["game"]
            logger.info("game %s over: %s", game["id"], game.get("result_reason") or game.get("result"))

    def playing(self) -> int:
        """Games being played, and challenges accepted whose game has not started here yet."""
        with self._lock:
            return sum(1 for thread in self.games.values() if thread.is_alive()) + len(self.accepted)

    def can_play(self, challenge: dict[str, Any]) -> bool:
        try:
            variant = get_variant(challenge["variant"], **challenge["options"])
        except (ValueError, TypeError):
            return False
        supports = getattr(self.make_strategy(), "supports", None)
        return supports is None or bool(supports(variant))

    def answer(self, challenge: dict[str, Any]) -> None:
        game_id = challenge["id"]
        accept = self.playing() < self.max_games and self.can_play(challenge)
        if accept:
            with self._lock:
                self.accepted.add(game_id)
        try:
            self.api.post(f"/api/games/{game_id}/{'accept' if accept else 'decline'}")
            logger.info("challenge %s from %s: %s", game_id, challenge["challenger"]["username"],
                        "accepted" if accept else "declined")
        except ApiError as err:  # cancelled meanwhile, or taken
            with self._lock:
                self.accepted.discard(game_id)
            logger.info("challenge %s: %s", game_id, err)

    # Each game ---------------------------------------------------------------------------------------------

    def start(self, game_id: int) -> None:
        with self._lock:
            self.accepted.discard(game_id)
            thread = self.games.get(game_id)
            if game_id in self.finished or (thread is not None and thread.is_alive()):
                return
            thread = threading.Thread(target=self.play, args=(game_id,), name=f"game-{game_id}", daemon=True)
            self.games[game_id] = thread
        thread.start()

    def play(self, game_id: int) -> None:
        """Play game ``game_id`` to its end, by its stream."""
        strategy = self.make_strategy()
        game: dict[str, Any] = {}
        while not self.stopping.is_set():
            try:
                for line in self.api.stream(f"/api/bot/game/stream/{game_id}"):
                    if line["type"] == "gameFull":
                        game = line
                    if self.on_state(game_id, game, line, strategy):
                        with self._lock:
                            self.finished.add(game_id)
                        return
            except ApiError as err:
                if err.status in (403, 404):
                    return  # gone, or not ours
                logger.warning("game %s: %s", game_id, err)
            except OSError as err:
                logger.warning("game %s: the stream broke (%s); opening it again", game_id, err)
            time.sleep(RECONNECT_AFTER)

    def on_state(self, game_id: int, game: dict[str, Any], line: dict[str, Any], strategy: Any) -> bool:
        """React to a line of the game's stream; True once the game is over."""
        if line.get("status") in ("finished", "gone"):
            return True
        if line.get("status") != "active" or not game:
            return False
        mine = [seat["side"] for seat in game["seats"] if seat["username"] == self.username]
        if line.get("to_move") not in mine:
            return False
        state = state_of(game, line["moves"])
        if state.is_over or state.to_move not in mine:
            return False
        move = strategy.choose(state)
        name = state.variant.cell_name(move)
        try:
            self.api.post(f"/api/bot/game/{game_id}/move/{name}")
        except ApiError as err:  # the game moved on meanwhile (a resignation, a flag): its stream says so next
            logger.info("game %s: %s refused: %s", game_id, name, err)
        return False
