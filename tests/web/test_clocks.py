"""Clocks and aborts on the pages: the new-game form's ``clock``, each seat's clock drawn with the data that
static/js/clock.js counts down from, the poll that ends a game on time, the Abort button."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.services import challenge_accept, challenge_create, move_play

HTMX = {"HTTP_HX_REQUEST": "true"}


def accepted(player, other_player, clock: str) -> Game:
    return challenge_accept(game=challenge_create(player=player, variant="classic", clock=clock), player=other_player)


def clock_attrs(html: str, side: str) -> dict[str, str]:
    tag = re.search(rf'<span class="clock[^"]*" id="clock-{side.lower()}"[^>]*>', html, re.S)
    assert tag, f"no clock for {side}"
    attrs = dict(re.findall(r'(data-[\w-]+|role|aria-live|class)(?:="([^"]*)")?', tag.group(0)))
    return attrs


def test_the_form_offers_clocks_for_a_game_against_another_player(player_client):
    html = player_client.get(reverse("games:new")).content.decode()
    row = html[html.index('id="clock-row"') - 80 : html.index('id="clock-row"') + 3000]
    assert 'data-for-opponent="human"' in row  # shown for that opponent only
    for value in ("none", "1+0", "3+2", "5+3", "10+5", "15+10", "custom", "1d", "3d", "7d"):
        assert f'<option value="{value}"' in row
    assert 'name="clock_custom"' in row


@pytest.mark.parametrize(
    ("clock", "custom", "stored"),
    [("3+2", "", "3+2"), ("custom", " 4+2", "4+2"), ("7d", "", "7d"), ("none", "", ""), ("0.5+0", "", "0.5+0")],
)
def test_a_challenge_made_with_a_clock(player_client, clock, custom, stored):
    response = player_client.post(
        reverse("games:new"),
        {
            "variant": "classic",
            "opponent": "human",
            "side": "X",
            "clock": clock,
            "clock_custom": custom,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get().clock == stored


@pytest.mark.parametrize(
    ("clock", "custom", "says"),
    [
        ("custom", "", "Write the custom clock"),
        ("custom", "4+", "increment is missing"),
        ("9+999", "", "increment must be 0 to 180"),
    ],
)
def test_a_bad_clock_is_shown_on_its_field_and_nothing_made(player_client, clock, custom, says):
    response = player_client.post(
        reverse("games:new"),
        {
            "variant": "classic",
            "opponent": "human",
            "side": "X",
            "clock": clock,
            "clock_custom": custom,
        },
    )
    assert response.status_code == 400 and says in response.content.decode()
    assert not Game.objects.exists()


def test_a_clock_sent_for_the_computer_is_ignored_as_the_form_hides_it(player_client):
    response = player_client.post(
        reverse("games:new"),
        {
            "variant": "classic",
            "opponent": "easy",
            "side": "X",
            "clock": "3+2",
        },
    )
    assert response.status_code == 302 and Game.objects.get().clock == ""


def test_the_page_draws_both_clocks_with_what_the_script_counts_from(player, other_player, player_client):
    game = accepted(player, other_player, "3+2")
    page = reverse("games:detail", args=[game.pk])
    html = player_client.get(page).content.decode()
    x, o = clock_attrs(html, "X"), clock_attrs(html, "O")
    assert x["data-ms"] == o["data-ms"] == "180000" and "data-running" not in x and "data-running" not in o
    assert x["role"] == "timer" and x["aria-live"] == "off" and x["data-low-ms"] == "18000"
    assert ">3:00</span>" in html and 'id="clock-control"' in html and "js/clock.js" in html
    deadline = Game.objects.get(pk=game.pk).clock_deadline
    assert f"(until {deadline:%H:%M:%S} UTC) to make one, or the game is aborted" in html
    # the time left for the first move, counted down by static/js/clock.js as the clocks are
    note = re.search(r'<span class="first-move-left" id="first-move-left"([^>]*)>([^<]*)</span>', html)
    assert note and "data-countdown" in note.group(1) and "data-running" in note.group(1)
    left = int(re.search(r'data-ms="(\d+)"', note.group(1)).group(1))
    assert 0 < left <= (deadline - timezone.now()).total_seconds() * 1000 + 1000
    assert re.fullmatch(r"\d+:\d\d|0:0\d\.\d|\d+d \d+h", note.group(2))
    move_play(game=game, player=player, move=0)
    move_play(game=game, player=other_player, move=4)
    html = player_client.get(reverse("games:poll", args=[game.pk]), {"v": "0"}, **HTMX).content.decode()
    assert 'id="first-move-note"' not in html  # the clocks run now
    x = clock_attrs(html, "X")  # the seats and their clocks come with every answer
    assert "data-running" in x and "clock-running" in x["class"] and 175_000 < int(x["data-ms"]) <= 180_000
    # low on time: the warning style from the server already
    Game.objects.filter(pk=game.pk).update(clock_x_ms=9_000)
    html = player_client.get(page).content.decode()
    assert "clock-low" in clock_attrs(html, "X")["class"] and "clock-low" not in clock_attrs(html, "O")["class"]


def test_no_clock_drawn_without_one(duel, player_client):
    html = player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert "data-clock" not in html and 'id="clock-control"' not in html


def test_the_poll_ends_a_game_whose_flag_fell_without_waiting_for_a_change(player, other_player, other_client):
    game = accepted(player, other_player, "0.25+0")
    move_play(game=game, player=player, move=0)
    move_play(game=game, player=other_player, move=4)
    version = Game.objects.get(pk=game.pk).version
    poll = reverse("games:poll", args=[game.pk])
    assert other_client.get(poll, {"v": version}, **HTMX).status_code == 204  # X still has time
    Game.objects.filter(pk=game.pk).update(clock_since=timezone.now() - timedelta(seconds=16))
    response = other_client.get(poll, {"v": version}, **HTMX)  # the page's clock reached zero: it asks
    html = response.content.decode()
    assert response.status_code == 200 and "O wins on time — you won" in html
    assert Game.objects.get(pk=game.pk).result_reason == "time"
    assert "data-running" not in html and clock_attrs(html, "X")["data-ms"] == "0"


def test_abort_button_and_view(player, other_player, player_client, other_client):
    game = accepted(player, other_player, "none")
    page = reverse("games:detail", args=[game.pk])
    assert 'id="abort"' in player_client.get(page).content.decode()
    assert 'id="abort"' in other_client.get(page).content.decode()
    response = other_client.post(reverse("games:abort", args=[game.pk]), **HTMX)
    assert response.status_code == 200 and "Game aborted" in response.content.decode()
    assert Game.objects.get(pk=game.pk).is_aborted
    assert "Game aborted" in player_client.get(page).content.decode()

    started = accepted(player, other_player, "none")
    move_play(game=started, player=player, move=0)
    move_play(game=started, player=other_player, move=4)
    assert 'id="abort"' not in player_client.get(reverse("games:detail", args=[started.pk])).content.decode()
    response = player_client.post(reverse("games:abort", args=[started.pk]), **HTMX)
    assert response.status_code == 409 and "can no longer be aborted" in response.content.decode()
    # My games: the aborted one is not there
    history = player_client.get(reverse("games:history")).content.decode()
    assert f'data-game="{started.pk}"' in history and f'data-game="{game.pk}"' not in history


def test_the_lobby_offers_a_clock_and_shows_each_challenges(player, other_player, other_client, player_client):
    assert 'id="challenge_clock"' in player_client.get(reverse("home")).content.decode()
    data = {"variant": "classic", "opponent": "human", "side": "X", "clock": "5+3"}
    response = player_client.post(reverse("games:new"), data)
    assert response.status_code == 302
    game = Game.objects.get()
    lobby = other_client.get(reverse("home")).content.decode()
    row = lobby[lobby.index(f'data-challenge="{game.pk}"') :]
    assert '<span class="pill pill-clock"' in row[: row.index("</li>")] and ">5+3</span>" in row[: row.index("</li>")]


def test_my_games_and_the_profile_show_each_games_clock(player, other_player, player_client, make_game):
    from games.services import game_resign

    timed = game_resign(game=accepted(player, other_player, "3+2"), player=player)
    untimed = game_resign(game=make_game(), player=player)  # against the computer: no clock
    for url in (reverse("games:history"), reverse("profile", args=[player.username])):  # the profile: finished games
        page = player_client.get(url).content.decode()
        rows = {int(pk): row for pk, row in re.findall(r'<tr[^>]* data-game="(\d+)"(.*?)</tr>', page, re.S)}
        assert '<span class="pill pill-clock"' in rows[timed.pk] and ">3+2</span>" in rows[timed.pk]
        assert "pill-clock" not in rows[untimed.pk]


def test_under_ten_seconds_a_clock_reads_minutes_seconds_and_tenths(player, other_player, player_client):
    """DESIGN.md "Clocks on the page": `2:55`, and `0:09.4` under ten seconds."""
    game = accepted(player, other_player, "3+2")
    move_play(game=game, player=player, move=0)
    move_play(game=game, player=other_player, move=4)
    Game.objects.filter(pk=game.pk).update(clock_o_ms=9_400, clock_x_ms=175_000)
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert re.search(r'id="clock-o"[^>]*>0:09\.4</span>', html) and re.search(r'id="clock-x"[^>]*>2:5\d</span>', html)
