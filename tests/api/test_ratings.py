"""Ratings per pool in the JSON API: the game's pool and rating changes, /me, /leaderboard; unrated games."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.urls import reverse

from games.models import Game, Rating
from games.rating.glicko2 import Glicko
from games.rating.glicko2 import rate_game as glicko_rate_game
from games.services import (
    challenge_accept,
    challenge_create,
    game_resign,
    move_play,
)

# X completes the top row: 0, (3), 1, (4), 2
X_WINS = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (2, "X")]
CLASSIC = "classic:untimed"
WINNER, LOSER = glicko_rate_game(Glicko(), Glicko(), 1.0)  # after a first game between new players
WON, LOST = round(WINNER.rating), round(LOSER.rating)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def rating(player, pool: str = CLASSIC) -> Rating:
    return Rating.objects.get(player=player, pool=pool)


def play_out(game: Game, x, o, moves=X_WINS) -> Game:
    for move, side in moves:
        move_play(game=game, player=x if side == "X" else o, move=move)
    return fresh(game)


def new_duel(x, o, variant: str = "classic", **options) -> Game:
    return challenge_accept(game=challenge_create(player=x, variant=variant, options=options, side="X"), player=o)


def test_a_game_over_before_each_player_moved_is_not_rated(duel, player, other_player):
    move_play(game=duel, player=player, move=4)
    game = game_resign(game=duel, player=other_player)
    assert game.is_finished and not fresh(game).is_rated
    assert fresh(game).rating_change("X") is None
    assert not Rating.objects.exists()
    # and it says so, where the points would be
    assert fresh(game).unrated_reason == "too_short"
    page = Client()
    page.force_login(player)
    html = page.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert '<span class="unrated-note" id="unrated">Not rated: it ended before each player had moved.</span>' in html
    assert page.get(f"/api/games/{game.pk}").json()["unrated_reason"] == "too_short"


def test_api_ratings(duel, player, other_player, player_client):
    data = player_client.get(f"/api/games/{duel.pk}").json()
    assert data["ratings"] is None and data["pool"] == CLASSIC
    play_out(duel, player, other_player)
    data = player_client.get(f"/api/games/{duel.pk}").json()
    assert data["pool"] == CLASSIC
    assert data["ratings"] == {
        "X": {"before": 1500, "after": WON, "delta": WON - 1500, "provisional": True},
        "O": {"before": 1500, "after": LOST, "delta": LOST - 1500, "provisional": True},
    }
    for query in ({"variant": "classic"}, {"pool": CLASSIC}, {}):
        data = player_client.get("/api/leaderboard", query).json()
        assert (data["variant"], data["pool"], data["label"]) == ("classic", CLASSIC, "Classic 3 x 3 · Untimed")
        assert [
            (r["rank"], r["username"], r["rating"], r["deviation"], r["provisional"], r["won"], r["lost"])
            for r in data["rows"]
        ] == [
            (1, "alice", WON, round(WINNER.deviation), True, 1, 0),
            (2, "bob", LOST, round(LOSER.deviation), True, 0, 1),
        ]
    data = player_client.get("/api/leaderboard", {"pool": "nxn-5:untimed", "variant": "classic"}).json()
    assert (data["variant"], data["pool"], data["rows"]) == ("nxn", "nxn-5:untimed", [])
    for query in ({"variant": "nope"}, {"pool": "nxn-3:untimed"}, {"pool": "classic:warp"}, {"pool": "x" * 41}):
        response = player_client.get("/api/leaderboard", query)
        assert response.status_code == 400 and response.json()["code"] == "invalid_input", query
    assert Client().get("/api/leaderboard").status_code == 401


def test_api_me_has_my_ratings_per_pool(duel, player, other_player, player_client):
    assert player_client.get("/api/me").json()["ratings"] == {}
    play_out(duel, player, other_player)
    assert player_client.get("/api/me").json()["ratings"] == {
        CLASSIC: {
            "rating": WON,
            "deviation": round(WINNER.deviation),
            "provisional": True,
            "label": "Classic 3 x 3 · Untimed",
            "games": 1,
            "won": 1,
            "lost": 0,
            "drawn": 0,
            "history": [1500, WON],
        }
    }


def test_a_pair_counts_for_a_few_rated_games_a_day_then_plays_unrated(player, other_player, make_player, player_client):
    from games.rating import PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS

    games = []
    for i in range(PAIR_GAMES_LIMIT):  # alternate who plays X: the pair is the same either way
        x, o = (player, other_player) if i % 2 == 0 else (other_player, player)
        games.append(play_out(new_duel(x, o), x, o))
    assert all(game.is_rated for game in games)
    before = rating(player).rating, rating(other_player).rating, rating(player).games

    extra = play_out(new_duel(player, other_player), player, other_player)
    assert not extra.is_rated and extra.unrated_reason == "pair_limit"
    assert (rating(player).rating, rating(other_player).rating, rating(player).games) == before
    text = player_client.get(reverse("games:detail", args=[extra.pk])).content.decode()
    assert f"Not rated: these two players had already played {PAIR_GAMES_LIMIT} rated games" in text
    assert player_client.get(f"/api/games/{extra.pk}").json()["unrated_reason"] == "pair_limit"
    assert player_client.get(f"/api/games/{games[0].pk}").json()["unrated_reason"] is None

    # Another pool, or another opponent, is rated as usual.
    four = play_out(
        new_duel(player, other_player, "four"),
        player,
        other_player,
        [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")],
    )
    assert four.is_rated
    carol = make_player("carol")
    assert play_out(new_duel(player, carol), player, carol).is_rated

    # Once the earliest rated game is more than PAIR_WINDOW_HOURS old, the next game counts again.
    Game.objects.filter(pk=games[0].pk).update(finished=games[0].finished - timedelta(hours=PAIR_WINDOW_HOURS + 1))
    again = play_out(new_duel(player, other_player), player, other_player)
    assert again.is_rated and again.unrated_reason == ""
