"""Quick pairing on the pages: the lobby's panel and list, seeking (htmx and plain), the waiting panel's ping,
going to the game once paired, cancelling, playing someone's seek, and clear 400s."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Seek
from games.services import seek_create

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def seek_form(**fields):
    return {"variant": "classic", "clock": "none", "rated": "rated", **fields}


def test_the_lobby_has_the_quick_pairing_panel(player_client):
    page = player_client.get("/").content.decode()
    assert 'id="quick-pairing"' in page and 'id="seek-form"' in page and "Find an opponent" in page
    for preset in ("1+0", "3+2", "5+3", "10+5", "15+10", "3d", "none"):
        assert f'value="{preset}"' in page
    assert 'id="seek-list-empty"' in page


def test_seeking_shows_the_waiting_panel_that_pings(player_client, player):
    response = player_client.post("/games/seek/new/", seek_form(variant="nxn", size="5", clock="3+2"), **HX)
    assert response.status_code == 200
    body = response.content.decode()
    seek = Seek.objects.get(player=player)
    assert seek.pool == "nxn-5:blitz" and seek.clock == "3+2" and seek.rated
    assert "Looking for an opponent…" in body
    assert re.search(r"\(rating window ±10\d\)", body)  # ±100 at first, 10 more a second (the answer's moment)
    assert f'hx-get="/games/seek/{seek.pk}/"' in body and "every 2s" in body and "live-me from:body" in body
    assert 'id="seek-cancel"' in body
    # the page opened again shows it waiting, and the ping keeps it so
    assert "Looking for an opponent…" in player_client.get("/").content.decode()
    assert "Looking for an opponent…" in player_client.get(f"/games/seek/{seek.pk}/", **HX).content.decode()


def test_the_ping_goes_to_the_game_once_paired(player_client, other_client, player, other_player):
    player_client.post("/games/seek/new/", seek_form(rated="casual"), **HX)
    response = other_client.post("/games/seek/new/", seek_form(rated="casual"), **HX)
    game = Game.objects.get()
    assert response.status_code == 200 and response["HX-Redirect"] == f"/games/{game.pk}/"
    assert game.unrated_reason == "casual"
    ping = player_client.get(f"/games/seek/{Seek.objects.get(player=player).pk}/", **HX)
    assert ping["HX-Redirect"] == f"/games/{game.pk}/"


def test_without_htmx_seeking_redirects(player_client, other_client):
    assert player_client.post("/games/seek/new/", seek_form()).url == "/"
    response = other_client.post("/games/seek/new/", seek_form())
    assert response.status_code == 302 and response.url == f"/games/{Game.objects.get().pk}/"


@pytest.mark.parametrize(
    "fields",
    [
        {"variant": "chess"},
        {"variant": "nxn", "size": "42"},
        {"variant": "mnk", "rows": "5", "cols": "5", "k": "9"},
        {"clock": "2+1"},  # not one of the panel's presets
        {"clock": "3+"},
        {"rated": "maybe"},
    ],
)
def test_bad_seeks_are_a_clear_400_and_nothing_is_stored(player_client, fields):
    response = player_client.post("/games/seek/new/", seek_form(**fields), **HX)
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#quick-pairing"
    assert 'id="seek-errors"' in response.content.decode()
    plain = player_client.post("/games/seek/new/", seek_form(**fields))
    assert plain.status_code == 400 and 'id="seek-errors"' in plain.content.decode()
    assert not Seek.objects.exists()


def test_cancel_shows_the_form_again(player_client, player):
    player_client.post("/games/seek/new/", seek_form(), **HX)
    seek = Seek.objects.get()
    response = player_client.post(f"/games/seek/{seek.pk}/cancel/", **HX)
    assert response.status_code == 200 and 'id="seek-form"' in response.content.decode()
    assert "Seek cancelled." in response.content.decode()
    assert not Seek.objects.exists()
    gone = player_client.get(f"/games/seek/{seek.pk}/", **HX).content.decode()
    assert "Your seek has expired or was cancelled." in gone and 'id="seek-form"' in gone


def test_someone_elses_seek_is_not_yours(player_client, other_player):
    seek = seek_create(player=other_player, variant="classic")
    assert player_client.get(f"/games/seek/{seek.pk}/", **HX).status_code == 403
    assert player_client.post(f"/games/seek/{seek.pk}/cancel/", **HX).status_code == 403
    assert Seek.objects.filter(pk=seek.pk).exists()


def test_the_lobby_lists_others_seeks_with_play(player_client, other_client, player, other_player):
    theirs = seek_create(player=other_player, variant="ultimate", clock="10+5", rated=False)
    page = player_client.get("/").content.decode()
    assert f'data-seek="{theirs.pk}"' in page and "bob" in page and "10+5" in page and "Casual" in page
    assert f'id="seek-play-{theirs.pk}"' in page
    own = other_client.get("/").content.decode()
    assert "your seek" in own and f'id="seek-play-{theirs.pk}"' not in own
    response = player_client.post(f"/games/seek/{theirs.pk}/play/")
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert {game.x_player_id, game.o_player_id} == {player.pk, other_player.pk} and game.clock == "10+5"
    # too late for anyone else; one's own: refused with the reason
    again = player_client.post(f"/games/seek/{theirs.pk}/play/")
    assert again.status_code == 409 and "someone else was first" in again.content.decode().lower()


def test_playing_your_own_seek_is_refused(player_client, player):
    seek = seek_create(player=player, variant="classic")
    response = player_client.post(f"/games/seek/{seek.pk}/play/")
    assert response.status_code == 400 and "your own seek" in response.content.decode()


def test_the_lobby_poll_changes_when_a_seek_comes_and_goes(player_client, other_player):
    first = player_client.get("/games/lobby/", **HX)
    version = first.content.decode().split('data-version="')[1].split('"')[0]
    assert player_client.get(f"/games/lobby/?v={version}", **HX).status_code == 204
    seek = seek_create(player=other_player, variant="classic")
    changed = player_client.get(f"/games/lobby/?v={version}", **HX)
    assert changed.status_code == 200 and f'data-seek="{seek.pk}"' in changed.content.decode()


def test_quick_pairing_has_a_page_of_its_own(player_client, client):
    page = player_client.get("/games/seek/").content.decode()
    assert "<h1" in page and 'id="seek-form"' in page
    assert client.get("/games/seek/").status_code == 302  # signed out: to the login page


def test_a_casual_game_says_casual_and_no_lone_full_stop(player_client, other_client):
    player_client.post("/games/seek/new/", seek_form(rated="casual"), **HX)
    other_client.post("/games/seek/new/", seek_form(rated="casual"), **HX)
    page = player_client.get(f"/games/{Game.objects.get().pk}/").content.decode()
    assert 'id="casual"' in page and ">Casual<" in page
    assert 'id="unrated"' not in page and not re.search(r">\s*\.\s*<", page)


# Home: one-click tiles per clock, the board picker, and "?" for provisional ratings -------------------------------


def tile(board: str = "classic", clock: str = "3+2", **options) -> dict[str, str]:
    """A tile's form as the home page draws it: the board's variant and options, the clock, rated."""
    variants = {"classic": "classic", "ultimate": "ultimate", "gomoku": "mnk"}
    return {"variant": variants[board], "clock": clock, "rated": "rated", "board": board, **options}


def test_home_offers_a_tile_per_clock_on_the_chosen_board(player_client):
    page = player_client.get("/").content.decode()
    tiles = page.split('id="pairing-tiles"')[1].split("</ul>")[0]
    for clock in ("1+0", "3+2", "5+3", "10+5", "15+10", "1d", "3d", "none"):
        assert f'data-tile="{clock}"' in tiles
    assert tiles.count('name="variant" value="classic"') == 8 and 'aria-current="page">Classic 3 x 3<' in page
    gomoku = player_client.get("/", {"board": "gomoku"}, **HX).content.decode()  # the picker: the panel alone
    assert gomoku.lstrip().startswith('<div id="quick-pairing"')
    tiles = gomoku.split('id="pairing-tiles"')[1].split("</ul>")[0]
    assert tiles.count('name="variant" value="mnk"') == 8 and tiles.count('name="k" value="5"') == 8


def test_two_clicks_on_the_same_tile_pair_two_players(player_client, other_client, player, other_player):
    first = player_client.post("/games/seek/new/", tile("ultimate", "5+3"), **HX)
    assert "Looking for an opponent…" in first.content.decode()
    second = other_client.post("/games/seek/new/", tile("ultimate", "5+3"), **HX)
    game = Game.objects.get()
    assert second["HX-Redirect"] == f"/games/{game.pk}/"
    assert (game.variant, game.clock, game.unrated_reason) == ("ultimate", "5+3", "")
    assert {game.x_player_id, game.o_player_id} == {player.pk, other_player.pk}
    # the board sought on comes first on the home page next time
    player.refresh_from_db()
    assert player.pairing_board == "ultimate"
    assert 'aria-current="page">Ultimate<' in player_client.get("/").content.decode()


def test_a_tile_shows_how_many_wait_on_it(player_client, other_player):
    seek_create(player=other_player, variant="classic", clock="5+3")
    tiles = player_client.get("/").content.decode().split('id="pairing-tiles"')[1].split("</ul>")[0]
    five = tiles.split('data-tile="5+3"')[1].split("</button>")[0]
    assert "1 waiting" in five and "waiting" not in tiles.split('data-tile="3+2"')[1].split("</button>")[0]


def test_the_seek_list_shows_a_provisional_rating_with_a_question_mark(player_client, other_player):
    seek_create(player=other_player, variant="classic", clock="5+3")  # no rated game yet: 1500, provisional
    listed = player_client.get("/").content.decode().split('id="seek-list"')[1].split("</ul>")[0]
    assert "(1500?)" in listed


def test_a_board_the_picker_does_not_have_is_named_with_a_400(player_client):
    response = player_client.get("/", {"board": "chess"})
    page = response.content.decode()
    assert response.status_code == 400 and "There is no board called “chess”" in page
    assert 'aria-current="page">Classic 3 x 3<' in page  # the default shown
    assert player_client.get("/", {"board": "chess"}, **HX).status_code == 400
