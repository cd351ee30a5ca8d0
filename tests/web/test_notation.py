"""One notation (RULES.md "Cell names"): the game page, its move list, its announcements, the replay and the JSON API
name every move of a game the same way, on every variant (issue 18: the page said "G5" or "board 4, cell 0" where
the API said "5 7")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import get_variant
from games.services import game_create, move_play

HTMX = {"HTTP_HX_REQUEST": "true"}

#: a variant, its options and a few legal moves in order (nested: each sends the next to a board with room)
GAMES = [
    ("classic", {}, [4, 0, 8, 2]),
    ("four", {}, [5, 15, 0, 10]),
    ("nxn", {"size": 7}, [24, 6, 42, 0]),
    ("mnk", {"rows": 15, "cols": 15, "k": 5}, [112, 0, 224, 14]),
    ("mnk", {"rows": 6, "cols": 9, "k": 4}, [42, 8, 45]),
    ("ultimate", {}, [40, 36, 0, 4]),
    ("multi", {}, [40, 36, 0]),
]


def move_list(html: str) -> list[tuple[int, str]]:
    """The page's move list: (ply, name) per move (the list pairs them: "1. b2 a1")."""
    cells = re.findall(r'<td class="move-name[^"]*" data-ply="(\d+)"[^>]*>(?:<a [^>]*>)?(\w+)', html)
    return [(int(ply), name) for ply, name in cells]


@pytest.mark.parametrize(("variant", "options", "moves"), GAMES)
def test_the_page_and_the_api_name_every_move_alike(variant, options, moves, player, player_client):
    game = game_create(player=player, variant=variant, options=options, opponent="local", side="X")
    for move in moves[:-1]:
        move_play(game=game, player=player, move=move)
    names = [get_variant(variant, **options).cell_name(move) for move in moves]
    assert all(re.fullmatch(r"[a-z]\d{1,2}", name) for name in names)
    # the last move through the page, as a player makes it: the announcement names it too
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": str(moves[-1])}, **HTMX).content.decode()
    side = "X" if len(moves) % 2 else "O"
    assert f'<span id="announce" hx-swap-oob="innerHTML">{side} played {names[-1]}.' in html
    expected = list(enumerate(names, start=1))
    assert move_list(html) == expected
    page = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert move_list(page) == expected
    api = player_client.get(f"/api/games/{game.pk}").json()["moves"]
    assert [(m["ply"], m["name"]) for m in api] == expected
    assert [m["move"] for m in api] == moves
    # the replay's move list and its links ("Move 2, O on a3")
    replay = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 1}).content.decode()
    assert move_list(replay) == expected
    links = re.findall(r'aria-label="Move (\d+), ([XO]) on (\w+)"', replay)
    assert [(int(ply), name) for ply, _, name in links] == expected


@pytest.mark.parametrize(("variant", "options"), [(v, o) for v, o, _ in GAMES])
def test_the_board_names_its_cells_as_the_move_list_does(variant, options, player, player_client):
    """Every playable cell says its name (data-name, read out by board.js on a phone); a grid board's edges carry
    the letters from the left and the numbers from the bottom that make the names."""
    rules = get_variant(variant, **options)
    game = game_create(player=player, variant=variant, options=options, opponent="local", side="X")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    named = {int(move): name for move, name in re.findall(r'data-move="(\d+)"(?: data-hint)? data-name="(\w+)"', html)}
    assert named and named == {move: rules.cell_name(move) for move in named}
    columns = re.search(r'class="coords coords-cols"[^>]*>(.*?)</div>\n', html).group(1)
    rows = re.search(r'class="coords coords-rows"[^>]*>(.*?)</div>\n', html).group(1)
    letters = re.findall(r"<span>(\w+)</span>", columns)
    numbers = re.findall(r"<span>(\w+)</span>", rows)
    if rules.nested:  # one 9 x 9 board's names, along the edges too
        assert named[0] == "a9" and named[40] == "e5" and named[80] == "i1"
        assert letters == list("abcdefghi") and numbers == [str(r) for r in range(9, 0, -1)]
        return
    assert letters == [chr(ord("a") + c) for c in range(rules.cols)]
    assert numbers == [str(r) for r in range(rules.rows, 0, -1)]  # row 1 at the bottom
    # the top-left cell is the first letter and the top number; the bottom-right the last letter and 1
    assert named[0] == f"a{rules.rows}" and named[rules.cell_count - 1] == f"{letters[-1]}1"
