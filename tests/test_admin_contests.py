"""Staff's arenas and puzzles in the admin (games.admin_contests): an arena made through the service, puzzles listed,
taken out of the pools, put back, deleted."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engine import get_variant
from games.models import Arena, Puzzle
from games.services import cut_puzzles, game_analysis, move_play

pytestmark = pytest.mark.django_db


def test_staff_make_an_arena_in_the_admin(staff_client, staff):
    page = staff_client.get(reverse("admin:games_arena_add"))
    assert page.status_code == 200
    response = staff_client.post(reverse("admin:games_arena_add"), {
        "name": "Staff cup", "variant": "classic", "options": "{}", "clock": "3+2", "minutes": "30",
        "starts_at_0": timezone.now().strftime("%Y-%m-%d"), "starts_at_1": "23:59:00", "rated": "on",
        "berserk": "on", "new_password": "sesame",
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    arena = Arena.objects.get()
    assert (arena.name, arena.clock, arena.pool, arena.created_by_id) == ("Staff cup", "3+2", "classic:blitz", staff.pk)
    assert arena.protected and arena.password != "sesame"
    listing = staff_client.get(reverse("admin:games_arena_changelist")).content.decode()
    assert "Staff cup" in listing


def test_bad_arena_terms_are_refused_in_the_admin(staff_client):
    for clock, minutes in (("none", "30"), ("3+2", "500")):
        response = staff_client.post(reverse("admin:games_arena_add"), {
            "name": "Bad", "variant": "classic", "options": "{}", "clock": clock, "minutes": minutes,
            "starts_at_0": timezone.now().strftime("%Y-%m-%d"), "starts_at_1": "23:59:00",
        })
        assert response.status_code == 200 and "errornote" in response.content.decode()
    assert not Arena.objects.exists()


def test_staff_list_disable_enable_and_delete_puzzles(staff_client, make_game, player):
    classic = get_variant("classic")
    game = make_game()
    for name in ("c2", "b2", "b1", "a2", "a3", "b3", "c1", "c3", "a1"):
        move_play(game=game, player=player, move=classic.parse_cell(name))
    game.refresh_from_db()
    game_analysis(game)
    cut_puzzles(game_id=game.pk)
    puzzle = Puzzle.objects.get()
    url = reverse("admin:games_puzzle_changelist")
    assert "classic" in staff_client.get(url).content.decode()
    staff_client.post(url, {"action": "disable", "_selected_action": [puzzle.pk]})
    assert Puzzle.objects.get().enabled is False
    staff_client.post(url, {"action": "enable", "_selected_action": [puzzle.pk]})
    assert Puzzle.objects.get().enabled is True
    staff_client.post(reverse("admin:games_puzzle_delete", args=[puzzle.pk]), {"post": "yes"})
    assert not Puzzle.objects.exists()
