"""The analysis of a finished game: on the replay page (each step's verdict, mistakes marked in the move list)
and in the API; never for a game still being played, and not on boards too big to solve exactly."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.errors import AnalysisUnavailable
from games.models import Game
from games.services import game_analysis, game_resign, move_play

pytestmark = pytest.mark.django_db

#: X in the centre, O on an edge (the mistake: X now wins by force), X forks and wins on the diagonal
WON_BY_X = [4, 1, 0, 8, 6, 3, 2]


def played(game: Game, player, moves: list[int]) -> Game:
    for move in moves:
        move_play(game=game, player=player, move=move)
    return Game.objects.get(pk=game.pk)


def replay(client: Client, game: Game, ply: int) -> str:
    response = client.get(reverse("games:replay", args=[game.pk]), {"ply": ply})
    assert response.status_code == 200
    return response.content.decode()


def test_the_replay_names_the_mistake_and_the_moves_that_held(make_game, player, player_client):
    game = played(make_game(), player, WON_BY_X)
    assert game.is_finished and game.result == "X"

    page = replay(player_client, game, 2)
    assert 'id="analysis" class="analysis analysis-mistake"' in page  # read out at each step
    assert "Move 2, O on b3: a mistake. With best play this was a draw; now it is a win for X." in page
    assert "Better: a3, c3, a1 or c1." in page  # the corners, named as the move list names cells
    assert "Mistakes: X 0, O 1." in page
    # In the move list only row 2 carries the mark.
    assert page.count('class="verdict-mistake"') == 1
    row2 = re.search(r'<td class="move-name[^"]*" data-ply="2"[^>]*>(.*?)</td>', page).group(1)
    assert "verdict-mistake" in row2

    page = replay(player_client, game, 5)
    assert "Move 5, X on a1: a good move. With best play this is a win for X." in page and "analysis-good" in page
    page = replay(player_client, game, 6)
    assert "Move 6, O on a2: X wins whatever O plays." in page
    page = replay(player_client, game, 0)
    assert "With best play from both sides, this game is a draw." in page


def test_the_finished_game_page_offers_the_analysis(make_game, player, player_client):
    game = played(make_game(), player, [4, 1])
    link = 'id="replay-link"'
    assert link not in player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    game = played(game, player, WON_BY_X[2:])
    page = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert re.search(r'id="replay-link" href="[^"]+">Replay and analysis</a>', page)
    big = game_resign(game=make_game(variant="ultimate"), player=player)
    page = player_client.get(reverse("games:detail", args=[big.pk])).content.decode()
    assert re.search(r'id="replay-link" href="[^"]+">Replay and analysis</a>', page)  # every board now


def test_the_htmx_step_carries_the_verdict_too(make_game, player, player_client):
    game = played(make_game(), player, WON_BY_X)
    response = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 2}, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text
    assert "a mistake" in text and "verdict-mistake" in text


def test_no_analysis_while_the_game_is_played(make_game, player, player_client):
    game = played(make_game(), player, [4, 1])  # O's mistake is on the board, the game goes on
    page = replay(player_client, game, 2)
    assert 'id="analysis"' not in page and "verdict-mistake" not in page and "Mistakes:" not in page
    with pytest.raises(AnalysisUnavailable, match="when the game is over"):
        game_analysis(game)


def _ultimate_moves(count: int) -> list[int]:
    from games.engine import get_variant

    state, moves = get_variant("ultimate").new_game(), []
    for _ in range(count):
        moves.append(state.legal_moves()[-1])
        state = state.play(moves[-1])
    return moves


def test_a_big_board_shows_the_analysis_in_progress_then_the_analysis(make_game, player, player_client):
    from django_tasks_db.models import DBTaskResult

    from games.services.assists import work_out_analysis

    moves = _ultimate_moves(6)
    game = game_resign(game=played(make_game(variant="ultimate"), player, moves), player=player)
    page = replay(player_client, game, 3)
    # pending: the words, and a small element that asks for the replay again every 2 s (no script of its own)
    assert "Analysis in progress" in page and 'hx-trigger="every 2s"' in page
    assert f'hx-get="/games/{game.pk}/replay/?ply=3&amp;poll=1"' in page
    assert 'id="analysis"' not in page and 'id="eval-graph"' not in page
    assert DBTaskResult.objects.filter(task_path="games.services.assists.analyse_game").count() == 1  # asked once
    polled = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 3, "poll": 1}, HTTP_HX_REQUEST="true")
    text = polled.content.decode()
    assert "Analysis in progress" in text and "hx-swap-oob" not in text  # nothing said while it waits
    assert DBTaskResult.objects.filter(task_path="games.services.assists.analyse_game").count() == 1

    assert work_out_analysis(game_id=game.pk) == "analysed"  # what the worker's task does
    polled = player_client.get(reverse("games:replay", args=[game.pk]), {"ply": 3, "poll": 1}, HTTP_HX_REQUEST="true")
    text = polled.content.decode()
    assert "Analysis in progress" not in text and 'id="analysis"' in text
    assert "The analysis is ready. Move 3 of 6" in text  # the announcement, out of band
    assert "X&#x27;s chance to win" in text and ("Best move found" in text or "the best move found" in text)
    # the graph: a point per position (the start and after each move), each a link to its step, step 3 marked
    assert text.count('class="eval-point') == 7
    assert text.count('<circle ') == 7 and 'eval-point-current" data-ply="3"' in text
    assert "<title id=\"eval-graph-title\">Evaluation over the game</title>" in text
    assert 'id="eval-graph-summary"' in text and "X&#x27;s chance to win, after each of the 6 moves" in text
    assert f'href="/games/{game.pk}/replay/?ply=5"' in text


def test_a_finished_game_without_moves(make_game, player, player_client):
    game = game_resign(game=make_game(), player=player)
    page = replay(player_client, game, 0)
    assert "Mistakes:" not in page and "No mistakes" not in page


def test_the_graph_is_clickable_across_its_whole_width():
    """Each step of the graph is a link over a band of the plot's full height, the bands side by side from the
    left edge to the right: a click anywhere on the graph goes to the nearest move."""
    from games.engine.analysis import MoveVerdict
    from games.web.presenters import graph

    verdicts = [MoveVerdict(ply=n, side="XO"[(n - 1) % 2], move=n, before=None, after=None, best=(n,), x_before=0.5,
                            x_after=0.5) for n in range(1, 12)]
    drawn = graph.evaluation_graph(verdicts, 4, "/games/1/replay/", str)
    bands = [(p["band_x"], p["band_x"] + p["band_width"]) for p in drawn["points"]]
    assert len(bands) == 12 and bands[0][0] == graph.LEFT and abs(bands[-1][1] - (graph.WIDTH - graph.RIGHT)) < 0.2
    assert all(abs(right - left) < 0.2 for (_, right), (left, _) in zip(bands, bands[1:], strict=False))
    assert drawn["width"] >= 600 and drawn["plot_height"] >= 140  # bigger than the old 320 x 120
