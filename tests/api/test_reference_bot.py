"""The reference bot (``python -m games.bot``) against the site's live server (issue 33, "Done when"): it accepts a
person's challenges, plays two games at once to their end by the event and game streams alone (its requests show
no poll), and declines what it has no room for."""

from __future__ import annotations

import random
import threading
import time

import pytest

from games.bot.__main__ import parse_options, strategy_factory
from games.bot.client import Api
from games.bot.runner import Bot
from games.engine import get_strategy
from games.models import Game, Move
from games.positions import fresh_position
from games.selectors import game_for_viewer
from games.services import bot_upgrade, challenge_create, move_play
from players.models import ApiToken
from push.hub import hub

#: a bound on waiting for the site (not a measure of speed: the test fails only if something never happens)
PATIENCE = 60.0


def wait_for(what, message: str):
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"never happened: {message}")


@pytest.fixture(autouse=True)
def _quick_keepalive(settings):
    """Keep-alive lines every fifth of a second: a stopped bot's streams notice it at once (they end at a line),
    and the test leaves no stream open behind it."""
    settings.BOT_STREAM_KEEPALIVE = 0.2
    yield
    wait_for(lambda: hub.listeners == 0, "every stream closed")


def start_bot(live_server, player, make_strategy, **kwargs) -> Bot:
    _token, raw = ApiToken.issue(player=player, name="engine")
    bot = Bot(Api(live_server.url, raw), make_strategy, **kwargs)
    threading.Thread(target=bot.run, daemon=True, name=f"bot-{player.username}").start()
    return bot


def person_moves(games: list[Game], person, rng: random.Random) -> None:
    """The person's side of each game: a random legal move whenever it is their turn, until every game ends."""
    def step() -> bool:
        for game in games:
            game = game_for_viewer(game.pk, person)
            if game.status == Game.Status.ACTIVE and game.to_move in game.sides_of(person):
                move_play(game=game, player=person, move=rng.choice(fresh_position(game).state.legal_moves()))
        return all(Game.objects.get(pk=game.pk).status == Game.Status.FINISHED for game in games)

    wait_for(step, "every game ended")


@pytest.mark.django_db(transaction=True)
def test_the_reference_bot_plays_two_games_at_once_by_its_streams(live_server, make_player):
    robot, person = bot_upgrade(player=make_player("robot")), make_player("carol")
    bot = start_bot(live_server, robot, lambda: get_strategy("random", seed=7), max_games=2)
    wait_for(lambda: ("GET", "/api/stream/event") in bot.api.requests, "the bot listened")
    games = [
        challenge_create(player=person, variant="four", invitee=robot, side="X"),
        challenge_create(player=person, variant="classic", invitee=robot, side="O"),
    ]
    wait_for(lambda: Game.objects.filter(pk__in=[g.pk for g in games], status="active").count() == 2,
             "the bot accepted both challenges")
    third = challenge_create(player=person, variant="classic", invitee=robot)  # no room for a third game
    wait_for(lambda: not Game.objects.filter(pk=third.pk).exists(), "the bot declined the third")
    person_moves(games, person, random.Random(3))
    bot.stop()

    finished = [Game.objects.get(pk=game.pk) for game in games]
    assert all(game.result_reason in ("line", "full") for game in finished)
    # both were being played at once: each had a move of the bot's before the other ended
    robot_moves = Move.objects.filter(game__in=finished, side__in=["X", "O"]).exclude(
        game__x_player=person, side="X").exclude(game__o_player=person, side="O")
    first_robot_move = {g.pk: robot_moves.filter(game=g).order_by("ply").first().created for g in finished}
    assert max(first_robot_move.values()) < min(game.finished for game in finished)
    # by the streams alone: one event stream, one stream per game, never a game read
    asked = bot.api.requests
    assert ("GET", "/api/me") in asked and ("GET", "/api/stream/event") in asked
    assert {path for method, path in asked if method == "GET"} <= {
        "/api/me", "/api/stream/event", *(f"/api/bot/game/stream/{g.pk}" for g in games)
    }
    assert {path for method, path in asked if method == "POST" and path.endswith(("/accept", "/decline"))} == {
        *(f"/api/games/{g.pk}/accept" for g in games), f"/api/games/{third.pk}/decline"
    }
    moves_sent = [path for method, path in asked if method == "POST" and "/move/" in path]
    assert len(moves_sent) == sum(1 for _ in robot_moves)


@pytest.mark.django_db(transaction=True)
def test_two_reference_bots_play_each_other(live_server, make_player):
    """Bots may challenge each other: one challenges through the API, the other accepts, both play it out."""
    first, second = bot_upgrade(player=make_player("ada")), bot_upgrade(player=make_player("bea"))
    bots = [start_bot(live_server, player, strategy_factory("random", parse_options(["seed=1"])))
            for player in (first, second)]
    wait_for(lambda: all(("GET", "/api/stream/event") in bot.api.requests for bot in bots), "the bots listened")
    made = bots[0].api.post("/api/games", {"variant": "nxn", "options": {"size": 3}, "opponent": "human",
                                           "invite": "bea"})
    game = wait_for(lambda: Game.objects.filter(pk=made["id"], status="finished").first(), "the game ended")
    for bot in bots:
        bot.stop()
    assert game.result_reason in ("line", "full") and game.x_player.is_bot and game.o_player.is_bot


def test_a_strategy_is_an_engine_strategy_or_a_class_by_dotted_path():
    assert strategy_factory("alphabeta", parse_options(["depth=2"]))().options["depth"] == 2
    made = strategy_factory("games.engine.strategies.random_player:RandomStrategy", {"seed": 3})()
    assert type(made).__name__ == "RandomStrategy" and made is not strategy_factory("random", {})()
    assert parse_options(["seconds=0.5", "solver=true", "heuristic=weighted"]) == {
        "seconds": 0.5, "solver": True, "heuristic": "weighted"
    }
    for bad in ("nonsense", "games.engine.nothing.Here", "mcts-x"):
        with pytest.raises(ValueError):
            strategy_factory(bad, {})
    with pytest.raises(ValueError):
        strategy_factory("mcts", {"depth": 3})
    with pytest.raises(ValueError):
        parse_options(["seconds"])
