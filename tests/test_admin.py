"""Admin: games with their moves inline and read-only; players with search, filters and deactivation."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.errors import GameFinished, InvalidGameSettings
from games.models import Rating
from games.services import challenge_accept, challenge_create, draw_offer, game_create, game_decide, move_play
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(make_game, player):
    game = make_game()
    for move in (0, 3, 1, 4, 2):
        move_play(game=game, player=player, move=move)
    return game


def test_game_changelist_and_change_page(staff_client, finished_game):
    response = staff_client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "alice" in html and "classic" in html
    for param in ("variant=classic", "status__exact=finished", "result__exact=X"):
        assert param in html
    response = staff_client.get(reverse("admin:games_game_change", args=[finished_game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "moves-0-id" not in html or 'name="moves-0-move"' not in html  # moves are read-only
    assert "1. X a3 · 2. O a2" in html  # the moves, as a line of text, by their cell names
    # offers and the rematch link are shown, not edited: the services keep them (a hand-made one could name
    # someone outside the game, or the game itself)
    for field in ("draw_offered_by", "rematch_offered_by", "rematch_declined", "rematch_of"):
        assert f'name="{field}"' not in html and f"field-{field}" in html, field


def test_game_changelist_filters_and_search(staff_client, finished_game, make_game, other_player):
    make_game(player=other_player, variant="nxn", options={"size": 4})
    url = reverse("admin:games_game_changelist")
    assert "1 game" in staff_client.get(url, {"variant": "nxn"}).content.decode()
    assert "1 game" in staff_client.get(url, {"status__exact": "finished"}).content.decode()
    assert "1 game" in staff_client.get(url, {"result__exact": "X"}).content.decode()
    assert "1 game" in staff_client.get(url, {"result_reason__exact": "line"}).content.decode()
    assert "0 games" in staff_client.get(url, {"result_reason__exact": "agreed"}).content.decode()
    html = staff_client.get(url, {"q": "bob"}).content.decode()
    assert "1 game" in html and "bob" in html


def test_a_games_moves_are_shown_read_only_with_a_link_to_its_replay(staff_client, finished_game, player):
    url = reverse("admin:games_game_change", args=[finished_game.pk])
    html = staff_client.get(url).content.decode()
    assert 'name="moves-0-move"' not in html and 'name="moves-TOTAL_FORMS"' not in html  # no forms for moves
    assert "1. X a3 · 2. O a2 · 3. X b3 · 4. O b2 · 5. X c3" in html  # cell names, from the stored moves
    assert f'href="{reverse("games:replay", args=[finished_game.pk])}"' in html
    ultimate = game_create(player=player, variant="ultimate", options={}, opponent="local", side="X")
    move_play(game=ultimate, player=player, move=40)
    html = staff_client.get(reverse("admin:games_game_change", args=[ultimate.pk])).content.decode()
    assert "1. X e5" in html  # nested boards named as one 9 x 9 board
    empty = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    assert "No moves yet." in staff_client.get(reverse("admin:games_game_change", args=[empty.pk])).content.decode()


def test_the_moves_list_finds_a_games_moves_by_its_number(staff_client, finished_game, make_game, player):
    other = make_game()
    move_play(game=other, player=player, move=4)
    url = reverse("admin:games_move_changelist")
    html = staff_client.get(url, {"q": str(finished_game.pk)}).content.decode()
    assert "5 moves" in html
    html = staff_client.get(url, {"q": str(other.pk)}).content.decode()
    assert "1 move" in html


def test_player_changelist_search_filter_and_change(staff_client, player, other_player):
    url = reverse("admin:players_player_changelist")
    response = staff_client.get(url, {"q": "bob"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "bob" in html and ">alice<" not in html
    assert "is_active__exact=0" in staff_client.get(url).content.decode()
    response = staff_client.get(reverse("admin:players_player_change", args=[player.pk]))
    assert response.status_code == 200


def test_deactivate_action(staff_client, staff, player, other_player):
    url = reverse("admin:players_player_changelist")
    response = staff_client.post(
        url, {"action": "deactivate", "_selected_action": [player.pk, other_player.pk, staff.pk]}, follow=True
    )
    assert response.status_code == 200
    assert "Deactivated 2 player(s)." in response.content.decode()
    assert not Player.objects.get(pk=player.pk).is_active
    assert not Player.objects.get(pk=other_player.pk).is_active
    assert Player.objects.get(pk=staff.pk).is_active  # never lock yourself out


@pytest.mark.parametrize(
    "name,args",
    [("admin:games_game_changelist", []), ("admin:players_player_changelist", [])],
)
def test_non_staff_is_refused(player_client, name, args):
    response = player_client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_non_staff_cannot_open_change_pages(player_client, finished_game, player):
    for url in (
        reverse("admin:games_game_change", args=[finished_game.pk]),
        reverse("admin:players_player_change", args=[player.pk]),
    ):
        assert player_client.get(url).status_code == 302


# What a game is stays as it was made; odd input gets the admin's messages (config/admin_site.py) -----------


def test_the_rules_of_a_game_cannot_be_changed_nor_games_added(staff_client, player_client, finished_game):
    url = reverse("admin:games_game_change", args=[finished_game.pk])
    html = staff_client.get(url).content.decode()
    for name in ("variant", "options", "start_board", "opponent", "x_level", "x_strategy", "o_level", "o_strategy"):
        assert f'name="{name}"' not in html, name  # shown, not editable
    assert 'name="private"' in html
    form = {
        "variant": "bogus", "options": "[1, 2]", "start_board": "40", "o_strategy": "nope",
        "created_by": finished_game.created_by_id, "x_player": finished_game.x_player_id, "status": "finished",
        "result": "X", "result_reason": "line", "private": "on",
        "moves-TOTAL_FORMS": "5", "moves-INITIAL_FORMS": "5", "moves-MIN_NUM_FORMS": "0", "moves-MAX_NUM_FORMS": "0",
    }
    for index, move in enumerate(finished_game.moves.order_by("ply")):
        form.update({f"moves-{index}-id": move.pk, f"moves-{index}-game": finished_game.pk})
    response = staff_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    finished_game.refresh_from_db()
    assert finished_game.private  # what staff may change changed
    assert (finished_game.variant, finished_game.options, finished_game.start_board) == ("classic", {}, None)
    assert player_client.get(reverse("games:replay", args=[finished_game.pk])).status_code == 200
    assert staff_client.get(reverse("admin:games_game_add")).status_code == 403


@pytest.mark.parametrize(
    "path",
    ["/admin/games/move/?created__year=99999", "/admin/games/game/?created__year=99999",
     "/admin/axes/accesslog/?attempt_time__year=9999",
     "/admin/games/game/?finished__year=10000", "/admin/games/rating/?updated__year=99999",
     "/admin/players/player/?date_joined__year=99999", "/admin/axes/accessattempt/?attempt_time__year=99999"],
)
def test_a_year_past_9999_gets_the_admins_own_answer(staff, staff_client, finished_game, path):
    """(The game list's year 9999 drill-down, which asked for the year after it, went with its date hierarchy.)"""
    staff.is_superuser = True
    staff.save()
    response = staff_client.get(path)
    assert response.status_code == 302 and response["Location"].endswith("?e=1")  # "Database error" note, no 500
    assert staff_client.get(path.split("?")[0]).status_code == 200


@pytest.mark.parametrize("selected", ["abc", "99999999999999999999", "-1.5"])
def test_an_action_on_ids_that_are_not_ids_does_nothing(staff_client, player, selected):
    url = reverse("admin:players_player_changelist")
    response = staff_client.post(url, {"action": "deactivate", "_selected_action": [player.pk, selected]}, follow=True)
    assert response.status_code == 200
    assert "is not the id of any item here" in response.content.decode()
    assert Player.objects.get(pk=player.pk).is_active


def test_a_finished_game_needs_a_result(staff_client, player_client, make_game):
    game = make_game()
    url = reverse("admin:games_game_change", args=[game.pk])
    form = {
        "created_by": game.created_by_id, "x_player": game.x_player_id, "o_player": game.o_player_id,
        "status": "finished", "result": "", "result_reason": "",
        "moves-TOTAL_FORMS": "0", "moves-INITIAL_FORMS": "0", "moves-MIN_NUM_FORMS": "0", "moves-MAX_NUM_FORMS": "0",
    }
    response = staff_client.post(url, form)
    assert response.status_code == 200 and "A finished game needs a result" in response.content.decode()
    game.refresh_from_db()
    assert game.status == "active"
    response = staff_client.post(url, {**form, "result": "draw", "result_reason": "agreed"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.result) == ("finished", "draw")
    assert "Draw" in player_client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_a_finished_game_stays_as_it_ended(staff_client, finished_game, other_player):
    """Its state, result and players are read-only: they made the result and the ratings."""
    url = reverse("admin:games_game_change", args=[finished_game.pk])
    html = staff_client.get(url).content.decode()
    for name in ("status", "result", "result_reason", "x_player", "o_player"):
        assert f'name="{name}"' not in html
    form = {
        "created_by": finished_game.created_by_id, "x_player": other_player.pk, "o_player": other_player.pk,
        "status": "active", "result": "O", "result_reason": "resigned", "private": "on",
        "moves-TOTAL_FORMS": "0", "moves-INITIAL_FORMS": "0", "moves-MIN_NUM_FORMS": "0", "moves-MAX_NUM_FORMS": "0",
    }
    assert staff_client.post(url, form).status_code == 302
    finished_game.refresh_from_db()
    assert finished_game.private  # what staff may change changed, and nothing else
    assert (finished_game.status, finished_game.result, finished_game.result_reason) == ("finished", "X", "line")
    assert finished_game.x_player_id == finished_game.o_player_id == finished_game.created_by_id  # a local game


def test_a_running_game_with_a_result_is_refused_in_words(staff_client, make_game):
    game = make_game()
    form = {
        "created_by": game.created_by_id, "x_player": game.x_player_id, "o_player": game.o_player_id,
        "status": "active", "result": "X", "result_reason": "",
        "moves-TOTAL_FORMS": "0", "moves-INITIAL_FORMS": "0", "moves-MIN_NUM_FORMS": "0", "moves-MAX_NUM_FORMS": "0",
    }
    html = staff_client.post(reverse("admin:games_game_change", args=[game.pk]), form).content.decode()
    assert "Only a finished game has a result" in html
    game.refresh_from_db()
    assert (game.status, game.result) == ("active", "")


DECIDE_FORM = {"moves-TOTAL_FORMS": "0", "moves-INITIAL_FORMS": "0", "moves-MIN_NUM_FORMS": "0",
               "moves-MAX_NUM_FORMS": "0"}


def test_a_game_decided_by_the_staff_is_finished_and_rated(staff_client, player, other_player, other_client):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", options={}, side="X"),
                            player=other_player)
    for move, side in ((0, "X"), (3, "O"), (1, "X"), (4, "O")):
        move_play(game=game, player=player if side == "X" else other_player, move=move)
    draw_offer(game=game, player=other_player)
    game.refresh_from_db()
    version = game.version
    form = {**DECIDE_FORM, "created_by": player.pk, "x_player": player.pk, "o_player": other_player.pk,
            "draw_offered_by": other_player.pk, "status": "finished", "result": "O", "result_reason": "line"}
    assert staff_client.post(reverse("admin:games_game_change", args=[game.pk]), form).status_code == 302
    game.refresh_from_db()
    assert (game.status, game.result, game.result_reason) == ("finished", "O", "decided")
    assert game.finished is not None and game.version > version and game.draw_offered_by is None
    assert game.result_text() == "O wins (decided by the staff)"
    # Rated as if played to that end: bob won.
    assert game.x_rating_after < game.x_rating_before and game.o_rating_after > game.o_rating_before
    assert Rating.objects.get(player=other_player, variant="classic").won == 1
    assert Rating.objects.get(player=player, variant="classic").lost == 1
    page = other_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "O wins (decided by the staff)" in page
    api = other_client.get(f"/api/games/{game.pk}").json()
    assert (api["status"], api["result"], api["result_reason"]) == ("finished", "O", "decided")


def test_a_started_game_between_two_players_keeps_both_seats(staff_client, player, other_player):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", options={}, side="X"),
                            player=other_player)
    form = {**DECIDE_FORM, "created_by": player.pk, "x_player": player.pk, "o_player": "", "status": "active",
            "opponent": "human"}
    response = staff_client.post(reverse("admin:games_game_change", args=[game.pk]), form)
    assert response.status_code == 200
    assert "needs a player in each seat" in response.content.decode()
    game.refresh_from_db()
    assert game.o_player == other_player


def test_a_game_against_the_computer_decided_as_a_draw(staff_client, make_game, player):
    game = make_game(opponent="easy")
    form = {**DECIDE_FORM, "created_by": player.pk, "x_player": player.pk, "status": "finished", "result": "draw"}
    assert staff_client.post(reverse("admin:games_game_change", args=[game.pk]), form).status_code == 302
    game.refresh_from_db()
    assert (game.status, game.result_text(), game.x_rating_after) == ("finished", "Draw (decided by the staff)", None)
    assert not Rating.objects.exists()


def test_a_challenge_cannot_be_decided(staff_client, player):
    game = challenge_create(player=player, variant="classic", options={}, side="X")
    form = {**DECIDE_FORM, "created_by": player.pk, "x_player": player.pk, "status": "finished", "result": "X"}
    response = staff_client.post(reverse("admin:games_game_change", args=[game.pk]), form)
    assert response.status_code == 200
    assert "A challenge nobody has accepted has no result: delete it instead." in response.content.decode()
    game.refresh_from_db()
    assert (game.status, game.result) == ("open", "")


def test_game_decide_refuses_what_cannot_be_decided(make_game):
    game = make_game()
    with pytest.raises(InvalidGameSettings, match="needs a result of X, O or draw, not 'Q'"):
        game_decide(game=game, result="Q")
    game_decide(game=game.pk, result="X")
    with pytest.raises(GameFinished, match="this game is over: X wins"):
        game_decide(game=game.pk, result="O")


def test_staff_see_a_failed_task_in_the_admin(staff_client, player):
    """A task lost with its worker (or failing) shows in the admin's list of task results, with its traceback."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from games.management.commands.worker import mark_lost_tasks
    from games.services import game_create, move_play
    from games.services.queue import LOST_AFTER

    game = game_create(player=player, variant="ultimate", opponent="hard")
    move_play(game=game, player=player, move=40)
    DBTaskResult.objects.update(status="RUNNING", started_at=timezone.now() - LOST_AFTER * 2)
    mark_lost_tasks()
    failed = DBTaskResult.objects.get(status="FAILED")
    listing = staff_client.get(reverse("admin:django_tasks_database_dbtaskresult_changelist"), {"status": "FAILED"})
    assert listing.status_code == 200 and str(failed.pk) in listing.content.decode()
    page = staff_client.get(reverse("admin:django_tasks_database_dbtaskresult_change", args=[failed.pk]))
    assert page.status_code == 200 and "stopped before it finished" in page.content.decode()


def test_open_seeks_are_listed_read_only_and_can_be_removed(staff_client, player):
    from games.models import Seek
    from games.services.seeks import seek_create

    seek_create(player=player, variant="classic", clock="3+2", rated=True)
    seek = Seek.objects.get(player=player)
    page = staff_client.get(reverse("admin:games_seek_changelist")).content.decode()
    assert player.username in page and "classic:blitz" in page and "3+2" in page
    assert staff_client.get(reverse("admin:games_seek_add")).status_code == 403
    change = staff_client.get(reverse("admin:games_seek_change", args=[seek.pk]))
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()  # to read, not to edit
    staff_client.post(reverse("admin:games_seek_delete", args=[seek.pk]), {"post": "yes"})
    assert not Seek.objects.filter(pk=seek.pk).exists()


@pytest.mark.parametrize("method", ["put", "patch", "delete", "options"])
@pytest.mark.parametrize(
    "path", ["/admin/", "/admin/login/", "/admin/logout/", "/admin/games/game/", "/admin/players/player/add/",
             "/admin/password_change/", "/admin/jsi18n/", "/admin/no-such-page/"],
)
def test_other_methods_than_get_head_and_post_are_405_on_every_admin_page(staff_client, client, method, path):
    """Issue 29: PUT /admin/ answered 200, Django's admin views taking any method for a GET."""
    for who in (staff_client, client):
        response = getattr(who, method)(path)
        assert response.status_code == 405, (path, response.status_code)
        assert response["Allow"] == "GET, HEAD, POST"
    assert staff_client.get("/admin/").status_code == 200 and staff_client.head("/admin/").status_code == 200


# What a game is and how it stands, in words and whole points (issue 30) -------------------------------------------


def test_the_admin_shows_each_games_real_state_kind_names_and_whole_ratings(staff_client, player, other_player):
    from games.services import challenge_accept, challenge_create, game_abort, game_import, game_resign, move_play

    aborted = game_abort(game=challenge_accept(game=challenge_create(player=player, variant="classic"),
                                               player=other_player), player=player)
    rated = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=other_player)
    move_play(game=rated, player=player, move=4)
    move_play(game=rated, player=other_player, move=0)
    rated = game_resign(game=rated, player=other_player)
    imported = game_import(player=player, text='[Variant "classic"]\n[X "ann"]\n[O "bea"]\n[Result "1-0"]\n\n'
                                                 "1. b2 a3 2. b1 c3 3. b3 1-0\n")
    listing = staff_client.get("/admin/games/game/").content.decode()
    rows = re.findall(r"<tr>.*?</tr>", listing, re.S)
    row = {pk: next(r for r in rows if f"/admin/games/game/{pk}/change/" in r)
           for pk in (aborted.pk, rated.pk, imported.pk)}
    assert "Aborted" in row[aborted.pk] and "Another player" in row[aborted.pk]
    assert "Finished: X wins" in row[rated.pk]
    assert "Imported" in row[imported.pk] and "ann" in row[imported.pk] and "bea" in row[imported.pk]
    assert "Two players on this screen" not in row[imported.pk] and "unnamed" not in row[imported.pk]
    page = staff_client.get(f"/admin/games/game/{rated.pk}/change/").content.decode()
    assert "1500 → " in page and re.search(r"1500 → 1\d{3} \(\+\d+\)", page)
    assert not re.search(r"\d{4}\.\d{3,}", page)  # no raw float anywhere
    page = staff_client.get(f"/admin/games/game/{imported.pk}/change/").content.decode()
    assert "ann" in page and "bea" in page and "Imported" in page
    assert 'rel="icon"' in page and "favicon.svg" in page
