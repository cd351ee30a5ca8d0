"""The puzzles' pages: the boards and missed wins, the next puzzle, a try by htmx (right, wrong, a hint), the replay's
link from a mistake to its puzzle."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import get_variant
from games.models import Puzzle
from games.services import cut_puzzles, game_analysis, move_play
from tests.web.test_no_inline_script import assert_no_inline_script

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
CLASSIC = get_variant("classic")


@pytest.fixture
def puzzle(make_game, player):
    game = make_game()
    for name in ("c2", "b2", "b1", "a2", "a3", "b3", "c1", "c3", "a1"):
        move_play(game=game, player=player, move=CLASSIC.parse_cell(name))
    game.refresh_from_db()
    game_analysis(game)
    cut_puzzles(game_id=game.pk)
    return Puzzle.objects.get()


def test_the_puzzles_page_lists_boards_and_missed_wins(player_client, puzzle):
    html = player_client.get(reverse("puzzles")).content.decode()
    assert_no_inline_script(html, "puzzles")
    assert 'data-board="classic"' in html and f'data-puzzle="{puzzle.pk}"' in html and "win in 2" in html
    response = player_client.get(reverse("puzzle_next") + "?variant=classic")
    assert response.status_code == 302 and response["Location"] == reverse("puzzle", args=[puzzle.pk])
    again = player_client.get(reverse("puzzle_next") + "?variant=classic")
    assert again["Location"] == reverse("puzzles")  # none left: back, saying so


def test_solving_by_htmx(other_client, puzzle):
    page = other_client.get(reverse("puzzle", args=[puzzle.pk])).content.decode()
    assert_no_inline_script(page, "puzzle")
    assert "X to play and win in 2 moves" in page and 'data-move="8"' in page
    assert 'id="puzzle-game"' not in page  # another's game: not named
    first = other_client.post(reverse("puzzle_move", args=[puzzle.pk]), {"move": "8"}, **HTMX).content.decode()
    assert "win in 1 move" in first and 'data-cell="2" data-mark="O"' in first  # the defence's block shown
    last = other_client.post(reverse("puzzle_move", args=[puzzle.pk]), {"move": "6"}, **HTMX).content.decode()
    assert "Solved!" in last and 'id="solution"' in last and 'id="puzzle-next"' in last and "(+" in last


def test_a_wrong_move_and_a_hint(other_client, client, player, puzzle):
    hinted = other_client.post(reverse("puzzle_hint", args=[puzzle.pk]), **HTMX).content.decode()
    assert "data-hint" in hinted
    wrong = other_client.post(reverse("puzzle_move", args=[puzzle.pk]), {"move": "0"}, **HTMX)
    html = wrong.content.decode()
    assert wrong.status_code == 200 and "Not the winning move." in html and 'id="refutation"' in html
    assert " ".join(f'<span class="move-name">{name}</span>' for name in ("c1", "c3", "a1")) in html
    refused = other_client.post(reverse("puzzle_move", args=[puzzle.pk]), {"move": "1"}, **HTMX)
    assert refused.status_code == 409 and refused["HX-Retarget"] == "#puzzle"


def test_bad_input_is_a_clear_4xx(other_client, puzzle):
    bad = other_client.post(reverse("puzzle_move", args=[puzzle.pk]), {"move": "x"}, **HTMX)
    assert bad.status_code == 400 and "a move must be a cell number" in bad.content.decode().lower()
    assert other_client.get(reverse("puzzle", args=[987654])).status_code == 404
    assert other_client.get(reverse("puzzle_next") + "?variant=chess").status_code == 302


def test_the_replay_links_a_missed_win_to_its_puzzle(player_client, puzzle):
    html = player_client.get(reverse("games:replay", args=[puzzle.game_id]) + "?ply=5").content.decode()
    assert f'href="{reverse("puzzle", args=[puzzle.pk])}"' in html and 'id="puzzle-link"' in html
