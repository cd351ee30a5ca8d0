"""Ratings per pool on the pages: the leaderboard (one pool at a time, with a chooser), the profile (one row per
pool), the game page (the game's pool rating and change), the lobby and the history."""

from __future__ import annotations

import pytest
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
UP, DOWN = WON - 1500, 1500 - LOST


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


def test_the_leaderboard(player, other_player, make_player, player_client):
    carol, dave = make_player("carol"), make_player("dave")
    play_out(new_duel(player, other_player), player, other_player)  # alice beats bob
    play_out(new_duel(carol, player), carol, player)  # carol beats alice
    Rating.objects.create(player=dave, pool="nxn-5:untimed", variant="nxn", rating=1600, deviation=80, games=30, won=30)

    response = player_client.get(reverse("leaderboard"))  # the pool with the most rated players
    assert response.status_code == 200
    text = response.content.decode()
    assert "Leaderboard: Classic 3 x 3 · Untimed" in text
    names = [r.player.username for r in response.context["rows"]]
    assert names == ["carol", "alice", "bob"]
    assert [r.rank for r in response.context["rows"]] == [1, 2, 3]
    assert 'class="me" aria-current="true" data-player="alice"' in text  # the viewer's own row
    assert ">Rated games</span>" in text  # not every game: the profile's "Played" counts them all
    # the pool chooser: every pool with ratings, by its label
    assert (
        'href="?pool=classic%3Auntimed" data-pool="classic:untimed" aria-current="page">Classic 3 x 3 · Untimed' in text
    )
    assert 'href="?pool=nxn-5%3Auntimed" data-pool="nxn-5:untimed">5 x 5, 5 in a row · Untimed</a>' in text

    text = player_client.get(reverse("leaderboard"), {"pool": "nxn-5:untimed"}).content.decode()
    assert 'data-player="dave"' in text and "1600" in text and 'data-player="alice"' not in text
    dave_row = text.split('data-player="dave"')[1].split("</tr>")[0]
    assert 'class="provisional"' not in dave_row  # deviation 80: established
    text = player_client.get(reverse("leaderboard"), {"pool": "ultimate:blitz"}).content.decode()
    assert 'id="leaderboard-empty"' in text and "Ultimate · Blitz" in text
    # the links from before pools: a variant means its default board, untimed
    text = player_client.get(reverse("leaderboard"), {"variant": "classic"}).content.decode()
    assert 'data-player="carol"' in text

    dave.is_active = False
    dave.save()
    text = player_client.get(reverse("leaderboard"), {"pool": "nxn-5:untimed"}).content.decode()
    assert 'data-player="dave"' not in text


def test_the_leaderboard_says_where_you_are_below_it(player, other_player, make_player, monkeypatch):
    play_out(new_duel(player, other_player), player, other_player)
    monkeypatch.setattr("games.web.views.pages.LEADERBOARD_SIZE", 1)
    bob = Client()
    bob.force_login(other_player)
    text = bob.get(reverse("leaderboard")).content.decode()
    assert 'data-player="alice"' in text and 'data-player="bob"' not in text
    assert 'id="my-rank"' in text and f"#2</strong>, rated {LOST}? after 1 game" in text


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"variant": "nope"}, "There is no variant called"),
        ({"variant": "<script>x</script>"}, "no variant called"),
        ({"variant": "x" * 500}, "no variant called"),
        ({"pool": "nope"}, "is not a pool key"),
        ({"pool": "nxn-3:untimed"}, "it is classic:untimed"),
        ({"pool": "classic:warp"}, "no pool speed"),
        ({"pool": "<script>x</script>:blitz"}, "is not a board"),
    ],
)
def test_an_unknown_pool_is_a_clear_400(query, says, player, other_player, player_client):
    play_out(new_duel(player, other_player), player, other_player)
    response = player_client.get(reverse("leaderboard"), query)
    assert response.status_code == 400
    text = response.content.decode()
    assert says in text and "<script>x</script>" not in text
    assert 'href="?pool=classic%3Auntimed"' in text  # and the way out


def test_the_leaderboard_needs_a_signed_in_player(client):
    response = client.get(reverse("leaderboard"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_profile_and_game_page_show_ratings(duel, player, other_player, player_client):
    game = play_out(duel, player, other_player)
    text = player_client.get(reverse("profile", args=["bob"])).content.decode()
    row = text.split('<tr data-pool="classic:untimed" data-variant="classic">')[1].split("</tr>")[0]
    assert '<th scope="row">Classic 3 x 3 · Untimed</th>' in row
    assert f'<a href="{reverse("leaderboard")}?pool=classic%3Auntimed">{LOST}</a><abbr class="provisional"' in row
    Rating.objects.filter(player=other_player, pool=CLASSIC).update(deviation=109)
    text = player_client.get(reverse("profile", args=["bob"])).content.decode()
    assert f"{LOST}</a><abbr" not in text  # sure enough: no longer marked provisional, as on the leaderboard
    text = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'data-rating="{WON}" data-pool="classic:untimed"' in text
    assert f"{WON}? (+{UP})" in text and f"{LOST}? (\u2212{DOWN})" in text  # each still provisional
    assert 'id="pool" data-pool="classic:untimed"' in text and "Rating in Classic 3 x 3 · Untimed:" in text
    text = player_client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert f"{WON}? (+{UP})" in text
    assert 'href="/leaderboard/"' in text  # in the navigation of every page


def test_the_profile_lists_one_rating_per_pool(player, other_player, player_client):
    play_out(new_duel(player, other_player), player, other_player)
    play_out(
        new_duel(player, other_player, "nxn", size=5),
        player,
        other_player,
        [(0, "X"), (5, "O"), (1, "X"), (6, "O"), (2, "X"), (7, "O"), (3, "X"), (8, "O"), (4, "X")],
    )
    text = player_client.get(reverse("profile", args=["alice"])).content.decode()
    table = text.split('id="ratings"')[1].split("</table>")[0]
    assert table.count("<tr data-pool=") == 2
    assert "5 x 5, 5 in a row · Untimed" in table and "Classic 3 x 3 · Untimed" in table


def test_the_last_move_answer_shows_the_new_ratings(duel, player, other_player, player_client):
    play_out(duel, player, other_player, X_WINS[:-1])
    response = player_client.post(reverse("games:move", args=[duel.pk]), {"move": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert f"{WON}? (+{UP})" in response.content.decode()  # the players bar, swapped out of band


def test_admin_lists_ratings_read_only(duel, player, other_player, staff_client):
    play_out(duel, player, other_player)
    response = staff_client.get(reverse("admin:games_rating_changelist"))
    assert response.status_code == 200 and "alice" in response.content.decode()
    pk = rating(player).pk
    response = staff_client.post(reverse("admin:games_rating_change", args=[pk]), {"rating": "3000"})
    assert response.status_code == 403
    assert rating(player).rating == pytest.approx(WINNER.rating)
    assert "classic:untimed" in staff_client.get(reverse("admin:games_rating_changelist")).content.decode()


def test_the_lobby_shows_challengers_ratings(player, other_player, make_player, player_client):
    play_out(new_duel(player, other_player), player, other_player)  # bob: rated in classic
    challenge_create(player=other_player, variant="classic", side="X")
    challenge_create(player=other_player, variant="four", side="X")  # no rating there yet
    challenge_create(player=other_player, variant="nxn", options={"size": 5}, side="X")  # nor in this pool
    challenge_create(player=make_player("carol"), variant="classic", side="X")  # carol: no rated game
    text = player_client.get(reverse("home")).content.decode()
    assert text.count(f"({LOST}?)") == 1  # provisional after one game
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
    assert '<span class="rating-change"' in row and f">+{UP}</span>" in row
    row = html.split(f'data-game="{computer.pk}"')[1].split("</tr>")[0]
    assert "rating-change" not in row  # not rated
    html = other_client.get(reverse("games:history")).content.decode()
    assert f">\u2212{DOWN}</span>" in html.split(f'data-game="{duel.pk}"')[1].split("</tr>")[0]


def test_a_running_game_shows_each_players_rating_as_it_started(player, other_player, player_client):
    first = new_duel(player, other_player)
    html = player_client.get(reverse("games:detail", args=[first.pk])).content.decode()
    assert html.count('rating in Classic 3 x 3 · Untimed">1500?</span>') == 2  # nobody rated yet: 1500, unsure
    play_out(first, player, other_player)

    game = new_duel(other_player, player)  # bob is X now
    assert (game.rating_now("X"), game.rating_now("O")) == (f"{LOST}?", f"{WON}?")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f"bob's rating in Classic 3 x 3 · Untimed\">{LOST}?</span>" in html
    assert f"alice's rating in Classic 3 x 3 · Untimed\">{WON}?</span>" in html
    # every htmx answer carries the players bar (out of band): the ratings stay on the page
    move_play(game=game, player=other_player, move=4)
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, HTTP_HX_REQUEST="true")
    assert f"alice's rating in Classic 3 x 3 · Untimed\">{WON}?</span>" in html.content.decode()

    resigned = game_resign(game=game, player=player)
    assert resigned.rating_now("X") is None  # over: the change is shown instead
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'rating in Classic 3 x 3 · Untimed">' not in html and "(+" in html


def test_provisional_ratings_are_marked(player, other_player, make_player, player_client):
    Rating.objects.create(player=player, pool=CLASSIC, variant="classic", rating=1600, deviation=109.9, games=3)
    Rating.objects.create(player=other_player, pool=CLASSIC, variant="classic", rating=1550, deviation=110, games=40)
    html = player_client.get(reverse("leaderboard")).content.decode()
    alice = html.split('data-player="alice"')[1].split("</tr>")[0]
    bob = html.split('data-player="bob"')[1].split("</tr>")[0]
    assert 'class="provisional"' not in alice and "1600" in alice
    assert 'class="provisional"' in bob and "the rating is still unsure (deviation 110)" in bob


def three_rated_games(x, o) -> list[Game]:
    """alice (x) wins twice, then loses once, against bob (o); sides stay the same."""
    o_wins = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (8, "X"), (5, "O")]
    return [play_out(new_duel(x, o), x, o, moves) for moves in (X_WINS, X_WINS, o_wins)]


def test_the_profile_draws_the_rating_history(player, other_player, player_client, make_player):
    three_rated_games(player, other_player)
    text = player_client.get(reverse("profile", args=["alice"])).content.decode()
    now = round(rating(player).rating)
    assert f'aria-label="Rating over the last 3 rated games: from 1500 to {now} (lowest ' in text
    assert text.count('class="sparkline"') == 1 and "<polyline points=" in text
    make_player("carol")  # no rated game: no history
    assert 'class="sparkline"' not in player_client.get(reverse("profile", args=["carol"])).content.decode()


def test_the_rules_page_states_the_pair_limit(client):
    from games.rating import PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS

    text = client.get(reverse("rules")).content.decode()
    assert f"at most {PAIR_GAMES_LIMIT} rated games in {PAIR_WINDOW_HOURS} hours" in text
