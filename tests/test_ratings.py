"""Ratings: the Elo arithmetic, the services that keep them as games between two players end, the
leaderboard, the profile, the game page and the JSON API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Rating
from games.rating import (
    INITIAL_RATING,
    K_ESTABLISHED,
    K_PROVISIONAL,
    PROVISIONAL_GAMES,
    expected_score,
    new_rating,
)
from games.services import (
    challenge_accept,
    challenge_create,
    draw_accept,
    draw_offer,
    game_claim_win,
    game_resign,
    move_play,
)

# X completes the top row: 0, (3), 1, (4), 2
X_WINS = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (2, "X")]


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def rating(player, variant: str = "classic") -> Rating:
    return Rating.objects.get(player=player, variant=variant)


def play_out(game: Game, x, o, moves=X_WINS) -> Game:
    for move, side in moves:
        move_play(game=game, player=x if side == "X" else o, move=move)
    return fresh(game)


def new_duel(x, o, variant: str = "classic", **options) -> Game:
    return challenge_accept(game=challenge_create(player=x, variant=variant, options=options, side="X"), player=o)


# Arithmetic ------------------------------------------------------------------------------------------


def test_expected_scores_add_up_to_one():
    assert expected_score(1500, 1500) == pytest.approx(0.5)
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)  # 400 points: ten to one
    for a, b in ((1500, 1700), (1234, 987), (2000, 1000)):
        assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)


def test_new_rating():
    assert new_rating(1500, 1500, 1.0, 0) == pytest.approx(1500 + K_PROVISIONAL / 2)
    assert new_rating(1500, 1500, 0.0, PROVISIONAL_GAMES) == pytest.approx(1500 - K_ESTABLISHED / 2)
    assert new_rating(1500, 1500, 0.5, 3) == pytest.approx(1500)
    assert new_rating(1500, 1900, 0.5, 3) > 1500  # a draw against a stronger player gains
    assert new_rating(1900, 1500, 1.0, 30) - 1900 < new_rating(1500, 1900, 1.0, 30) - 1500  # an upset gains more
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        new_rating(1500, 1500, 2, 0)


# Services --------------------------------------------------------------------------------------------


def test_a_win_moves_both_ratings(duel, player, other_player):
    game = play_out(duel, player, other_player)
    assert game.result == "X" and game.is_rated
    half = K_PROVISIONAL / 2
    assert (game.x_rating_before, game.x_rating_after) == (INITIAL_RATING, pytest.approx(INITIAL_RATING + half))
    assert (game.o_rating_before, game.o_rating_after) == (INITIAL_RATING, pytest.approx(INITIAL_RATING - half))
    alice, bob = rating(player), rating(other_player)
    assert (alice.games, alice.won, alice.lost, alice.drawn) == (1, 1, 0, 0)
    assert (bob.games, bob.won, bob.lost, bob.drawn) == (1, 0, 1, 0)
    assert alice.rating == pytest.approx(1520) and bob.rating == pytest.approx(1480)
    assert game.rating_change("X") == {"before": 1500, "after": 1520, "delta": 20, "delta_text": "+20"}
    assert game.rating_change("O") == {"before": 1500, "after": 1480, "delta": -20, "delta_text": "\u221220"}

    # The next game starts from there: bob, rated lower, gains more by winning than alice lost before.
    rematch = new_duel(other_player, player)
    rematch = play_out(rematch, other_player, player)
    assert rematch.x_rating_before == pytest.approx(1480) and rematch.o_rating_before == pytest.approx(1520)
    assert rating(other_player).rating - 1480 > 20
    assert rating(player).games == 2 and rating(other_player).won == 1


def test_the_k_factor_drops_after_the_provisional_games(duel, player, other_player):
    Rating.objects.create(player=player, variant="classic", rating=1500, games=PROVISIONAL_GAMES)
    game = play_out(duel, player, other_player)
    assert game.x_rating_after == pytest.approx(1500 + K_ESTABLISHED / 2)
    assert game.o_rating_after == pytest.approx(1500 - K_PROVISIONAL / 2)


def test_ratings_are_per_variant(player, other_player):
    game = play_out(new_duel(player, other_player, "nxn", size=4), player, other_player,
                    [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")])
    assert game.result == "X" and rating(player, "nxn").rating == pytest.approx(1520)
    assert not Rating.objects.filter(variant="classic").exists()


@pytest.mark.parametrize("ending", ["agreed draw", "resigned", "abandoned"])
def test_every_way_a_game_ends_is_rated(ending, duel, player, other_player):
    move_play(game=duel, player=player, move=4)
    move_play(game=duel, player=other_player, move=0)
    if ending == "agreed draw":
        draw_offer(game=duel, player=player)
        game = draw_accept(game=duel, player=other_player)
        expected = (1500, 1500)
    elif ending == "resigned":
        game = game_resign(game=duel, player=other_player)
        expected = (1520, 1480)
    else:
        move_play(game=duel, player=player, move=8)  # bob to move, and he stops playing
        Game.objects.filter(pk=duel.pk).update(turn_started=fresh(duel).turn_started - timedelta(days=4))
        game = game_claim_win(game=duel, player=player)
        expected = (1520, 1480)
    assert fresh(game).is_rated
    assert (round(rating(player).rating), round(rating(other_player).rating)) == expected
    assert rating(player).games == rating(other_player).games == 1


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


@pytest.mark.parametrize("opponent", ["easy", "local"])
def test_games_without_another_player_are_not_rated(opponent, make_game, player):
    game = make_game(opponent=opponent, strategy="random" if opponent == "easy" else None)
    move_play(game=game, player=player, move=4, quick_reply=True)
    if opponent == "local":
        move_play(game=game, player=player, move=0)
    game_resign(game=game, player=player)
    assert not fresh(game).is_rated and not Rating.objects.exists()


# Pages -----------------------------------------------------------------------------------------------


def test_the_leaderboard(player, other_player, make_player, player_client):
    carol, dave = make_player("carol"), make_player("dave")
    play_out(new_duel(player, other_player), player, other_player)  # alice 1520, bob 1480
    play_out(new_duel(carol, player), carol, player)  # carol beats alice
    Rating.objects.create(player=dave, variant="four", rating=1600, games=1, won=1)

    response = player_client.get(reverse("leaderboard"))  # the first variant with ratings
    assert response.status_code == 200
    text = response.content.decode()
    assert "Leaderboard: Classic 3 x 3" in text
    names = [r.player.username for r in response.context["rows"]]
    assert names == ["carol", "alice", "bob"]
    assert [r.rank for r in response.context["rows"]] == [1, 2, 3]
    assert 'class="me" aria-current="true" data-player="alice"' in text  # the viewer's own row
    assert ">Rated games</span>" in text  # not every game: the profile's "Played" counts them all
    assert 'href="?variant=four"' in text and 'href="?variant=ultimate" class="tab-empty"' in text

    text = player_client.get(reverse("leaderboard"), {"variant": "four"}).content.decode()
    assert 'data-player="dave"' in text and "1600" in text and 'data-player="alice"' not in text
    text = player_client.get(reverse("leaderboard"), {"variant": "ultimate"}).content.decode()
    assert 'id="leaderboard-empty"' in text

    dave.is_active = False
    dave.save()
    text = player_client.get(reverse("leaderboard"), {"variant": "four"}).content.decode()
    assert 'data-player="dave"' not in text


def test_the_leaderboard_says_where_you_are_below_it(player, other_player, make_player, monkeypatch):
    play_out(new_duel(player, other_player), player, other_player)
    monkeypatch.setattr("games.views.LEADERBOARD_SIZE", 1)
    bob = Client()
    bob.force_login(other_player)
    text = bob.get(reverse("leaderboard")).content.decode()
    assert 'data-player="alice"' in text and 'data-player="bob"' not in text
    assert 'id="my-rank"' in text and "#2</strong>, rated 1480 after 1 game" in text


@pytest.mark.parametrize("variant", ["nope", "<script>x</script>", "x" * 500])
def test_an_unknown_variant_is_a_clear_400(variant, player_client):
    response = player_client.get(reverse("leaderboard"), {"variant": variant})
    assert response.status_code == 400
    text = response.content.decode()
    assert "There is no variant called" in text and "<script>x</script>" not in text
    assert 'href="?variant=classic"' in text  # and the way out


def test_the_leaderboard_needs_a_signed_in_player(client):
    response = client.get(reverse("leaderboard"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_profile_and_game_page_show_ratings(duel, player, other_player, player_client):
    game = play_out(duel, player, other_player)
    text = player_client.get(reverse("profile", args=["bob"])).content.decode()
    assert f'<a href="{reverse("leaderboard")}?variant=classic">1480</a><abbr class="provisional"' in text
    Rating.objects.filter(player=other_player, variant="classic").update(games=PROVISIONAL_GAMES)
    text = player_client.get(reverse("profile", args=["bob"])).content.decode()
    assert "1480</a><abbr" not in text  # enough games: no longer marked provisional, as on the leaderboard
    text = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-rating="1520"' in text and "1520 (+20)" in text and "1480 (\u221220)" in text
    text = player_client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "1520 (+20)" in text
    assert 'href="/leaderboard/"' in text  # in the navigation of every page


def test_the_last_move_answer_shows_the_new_ratings(duel, player, other_player, player_client):
    play_out(duel, player, other_player, X_WINS[:-1])
    response = player_client.post(reverse("games:move", args=[duel.pk]), {"move": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "1520 (+20)" in response.content.decode()  # the players bar, swapped out of band


def test_admin_lists_ratings_read_only(duel, player, other_player, staff_client):
    play_out(duel, player, other_player)
    response = staff_client.get(reverse("admin:games_rating_changelist"))
    assert response.status_code == 200 and "alice" in response.content.decode()
    pk = rating(player).pk
    response = staff_client.post(reverse("admin:games_rating_change", args=[pk]), {"rating": "3000"})
    assert response.status_code == 403
    assert rating(player).rating == pytest.approx(1520)


# API -------------------------------------------------------------------------------------------------


def test_api_ratings(duel, player, other_player, player_client):
    assert player_client.get(f"/api/games/{duel.pk}").json()["ratings"] is None
    play_out(duel, player, other_player)
    data = player_client.get(f"/api/games/{duel.pk}").json()
    assert data["ratings"] == {
        "X": {"before": 1500, "after": 1520, "delta": 20}, "O": {"before": 1500, "after": 1480, "delta": -20}
    }
    data = player_client.get("/api/leaderboard", {"variant": "classic"}).json()
    assert data["variant"] == "classic"
    assert [(r["rank"], r["username"], r["rating"], r["won"], r["lost"]) for r in data["rows"]] == [
        (1, "alice", 1520, 1, 0), (2, "bob", 1480, 0, 1)
    ]
    response = player_client.get("/api/leaderboard", {"variant": "nope"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_input"
    assert Client().get("/api/leaderboard").status_code == 401


def test_the_lobby_shows_challengers_ratings(player, other_player, make_player, player_client):
    play_out(new_duel(player, other_player), player, other_player)  # bob: 1480 in classic
    challenge_create(player=other_player, variant="classic", side="X")
    challenge_create(player=other_player, variant="four", side="X")  # no rating there yet
    challenge_create(player=make_player("carol"), variant="classic", side="X")  # carol: no rated game
    text = player_client.get(reverse("games:history")).content.decode()
    assert text.count("(1480)") == 1
    assert "carol</strong> · " in text


def test_a_profile_offers_to_challenge_its_player(player, other_player, player_client):
    text = player_client.get(reverse("profile", args=["bob"])).content.decode()
    assert f'href="{reverse("games:new")}?invite=bob"' in text and "Challenge bob" in text
    assert 'id="challenge-player"' not in player_client.get(reverse("profile", args=["alice"])).content.decode()
    response = player_client.get(reverse("games:new"), {"invite": "bob"})
    assert 'value="bob"' in response.content.decode()  # the form arrives filled in


def test_history_rows_show_the_rating_change(duel, player, other_player, player_client, other_client, make_game):
    play_out(duel, player, other_player)
    computer = make_game(opponent="easy", strategy="random")
    game_resign(game=computer, player=player)
    html = player_client.get(reverse("games:history")).content.decode()
    row = html.split(f'data-game="{duel.pk}"')[1].split("</tr>")[0]
    assert '<span class="rating-change"' in row and ">+20</span>" in row
    row = html.split(f'data-game="{computer.pk}"')[1].split("</tr>")[0]
    assert "rating-change" not in row  # not rated
    html = other_client.get(reverse("games:history")).content.decode()
    assert ">\u221220</span>" in html.split(f'data-game="{duel.pk}"')[1].split("</tr>")[0]


def test_api_me_has_my_ratings(duel, player, other_player, player_client):
    assert player_client.get("/api/me").json()["ratings"] == {}
    play_out(duel, player, other_player)
    assert player_client.get("/api/me").json()["ratings"] == {
        "classic": {"rating": 1520, "games": 1, "won": 1, "lost": 0, "drawn": 0, "history": [1500, 1520]}
    }


def test_a_running_game_shows_each_players_rating_as_it_started(player, other_player, player_client):
    first = new_duel(player, other_player)
    html = player_client.get(reverse("games:detail", args=[first.pk])).content.decode()
    assert html.count("rating in this variant\">1500</span>") == 2  # nobody rated yet: the starting rating
    play_out(first, player, other_player)  # alice 1520, bob 1480

    game = new_duel(other_player, player)  # bob is X now
    assert (game.rating_now("X"), game.rating_now("O")) == (1480, 1520)
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "bob's rating in this variant\">1480</span>" in html
    assert "alice's rating in this variant\">1520</span>" in html
    # every htmx answer carries the players bar (out of band): the ratings stay on the page
    move_play(game=game, player=other_player, move=4)
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, HTTP_HX_REQUEST="true")
    assert "alice's rating in this variant\">1520</span>" in html.content.decode()

    resigned = game_resign(game=game, player=player)
    assert resigned.rating_now("X") is None  # over: the change is shown instead
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "rating in this variant\">" not in html and "(+" in html


def test_a_rematch_notes_the_ratings_too(player, other_player):
    from games.services import rematch_accept, rematch_offer

    first = play_out(new_duel(player, other_player), player, other_player)
    rematch_offer(game=first, player=player)
    rematch = rematch_accept(game=first, player=other_player)
    assert (rematch.rating_now("X"), rematch.rating_now("O")) == (1480, 1520)  # sides swapped


def test_provisional_ratings_are_marked(player, other_player, make_player, player_client):
    from games.rating import PROVISIONAL_GAMES

    Rating.objects.create(player=player, variant="classic", rating=1600, games=PROVISIONAL_GAMES)
    Rating.objects.create(player=other_player, variant="classic", rating=1550, games=PROVISIONAL_GAMES - 1)
    html = player_client.get(reverse("leaderboard")).content.decode()
    alice = html.split('data-player="alice"')[1].split("</tr>")[0]
    bob = html.split('data-player="bob"')[1].split("</tr>")[0]
    assert 'class="provisional"' not in alice and "1600" in alice
    assert 'class="provisional"' in bob and f"fewer than {PROVISIONAL_GAMES} rated games" in bob


# Rating history (the profile's sparkline) ------------------------------------------------------------


def three_rated_games(x, o) -> list[Game]:
    """alice (x) wins twice, then loses once, against bob (o); sides stay the same."""
    o_wins = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (8, "X"), (5, "O")]
    return [play_out(new_duel(x, o), x, o, moves) for moves in (X_WINS, X_WINS, o_wins)]


def test_rating_history_follows_the_games_oldest_first(player, other_player, django_assert_num_queries):
    from games.selectors import rating_history

    games = three_rated_games(player, other_player)
    with django_assert_num_queries(1):
        history = rating_history(player)
    assert history == {"classic": [1500] + [round(game.x_rating_after) for game in games]}
    assert history["classic"][1] == 1520 and history["classic"][2] > 1520 > history["classic"][3]
    assert rating_history(other_player)["classic"] == [1500] + [round(game.o_rating_after) for game in games]
    assert rating_history(other_player)["classic"][-1] == round(rating(other_player).rating)


def test_rating_history_keeps_the_latest_games_of_each_variant(player, other_player, monkeypatch):
    from games import selectors

    games = three_rated_games(player, other_player)
    four = play_out(new_duel(player, other_player, "four"), player, other_player,
                    [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")])
    monkeypatch.setattr(selectors, "HISTORY_GAMES", 2)
    history = selectors.rating_history(player)
    # The last two classic games, from the rating before the first of them; the 4 x 4 game on its own.
    assert history["classic"] == [round(games[1].x_rating_before), round(games[1].x_rating_after),
                                  round(games[2].x_rating_after)]
    assert history["four"] == [1500, round(four.x_rating_after)]


def test_sparkline_draws_higher_ratings_higher_up():
    from players.views import SPARK_HEIGHT, SPARK_WIDTH, sparkline

    assert sparkline([]) is None and sparkline([1500]) is None
    drawn = sparkline([1500, 1520, 1510])
    points = [tuple(map(float, p.split(","))) for p in drawn["points"].split()]
    assert [x for x, _ in points] == [0, SPARK_WIDTH / 2, SPARK_WIDTH]
    assert points[1][1] < points[2][1] < points[0][1]  # SVG's y grows downwards
    assert all(0 <= y <= SPARK_HEIGHT for _, y in points)
    assert (drawn["first"], drawn["now"], drawn["low"], drawn["high"], drawn["games"]) == (1500, 1510, 1500, 1520, 2)
    flat = sparkline([1500, 1500])
    assert {y for _, y in (tuple(map(float, p.split(","))) for p in flat["points"].split())} == {SPARK_HEIGHT / 2}


def test_the_profile_draws_the_rating_history(player, other_player, player_client, make_player):
    three_rated_games(player, other_player)
    text = player_client.get(reverse("profile", args=["alice"])).content.decode()
    now = round(rating(player).rating)
    assert f'aria-label="Rating over the last 3 rated games: from 1500 to {now} (lowest 1500, highest ' in text
    assert text.count('class="sparkline"') == 1 and "<polyline points=" in text
    make_player("carol")  # no rated game: no history
    assert 'class="sparkline"' not in player_client.get(reverse("profile", args=["carol"])).content.decode()


# The same two players: at most PAIR_GAMES_LIMIT rated games of a variant in PAIR_WINDOW_HOURS ----------


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

    # Another variant, or another opponent, is rated as usual.
    four = play_out(new_duel(player, other_player, "four"), player, other_player,
                    [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")])
    assert four.is_rated
    carol = make_player("carol")
    assert play_out(new_duel(player, carol), player, carol).is_rated

    # Once the earliest rated game is more than PAIR_WINDOW_HOURS old, the next game counts again.
    Game.objects.filter(pk=games[0].pk).update(finished=games[0].finished - timedelta(hours=PAIR_WINDOW_HOURS + 1))
    again = play_out(new_duel(player, other_player), player, other_player)
    assert again.is_rated and again.unrated_reason == ""


def test_the_rules_page_states_the_pair_limit(client):
    from games.rating import PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS

    text = client.get(reverse("rules")).content.decode()
    assert f"at most {PAIR_GAMES_LIMIT} rated games in {PAIR_WINDOW_HOURS} hours" in text


def test_rated_variants_reads_one_row_per_variant(make_player):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.selectors import rated_variants

    for n, rating in enumerate((1500, 1510, 1520, 1530)):
        Rating.objects.create(player=make_player(f"r{n}"), variant="four" if n % 2 else "classic", rating=rating,
                              games=1)
    with CaptureQueriesContext(connection) as queries:
        assert rated_variants() == ["classic", "four"]
    # DISTINCT over the variant alone: Rating's ordering (by rating) would make it one row per rating
    (query,) = queries.captured_queries
    select = query["sql"].split(" FROM ")[0]
    assert "rating" not in select.replace("games_rating", ""), query["sql"]
