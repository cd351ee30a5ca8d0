"""Game pages: new game form, playing by htmx and by plain POST, refusals, history, replay."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import get_variant
from games.models import Game, Move
from games.services import game_create, game_resign, move_play

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def new_game_data(**overrides):
    data = {"variant": "classic", "opponent": "local", "side": "X", "strategy": ""}
    data.update(overrides)
    return data


def data_moves(html: str) -> list[int]:
    return [int(m) for m in re.findall(r'data-move="(\d+)"', html)]


def vs_random(player, **kwargs):
    kwargs.setdefault("variant", "classic")
    kwargs.setdefault("options", {})
    return game_create(player=player, opponent="easy", side=kwargs.pop("side", "X"), strategy="random", **kwargs)


# Login ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,args",
    [("games:history", []), ("games:new", []), ("games:detail", [1]), ("games:replay", [1])],
)
def test_pages_redirect_to_login_with_next(client, name, args):
    url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_healthz_is_trivial(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get(reverse("healthz"))
    assert response.status_code == 200 and response.content == b"ok"
    assert "sessionid" not in response.cookies


def test_root_is_home_for_a_player_or_sends_a_visitor_to_the_front_door(client, player_client):
    response = player_client.get("/")
    assert response.status_code == 200 and 'id="pairing-tiles"' in response.content.decode()
    response = client.get("/", follow=True)  # a visitor: the login page with its welcome, no "next"
    assert response.redirect_chain == [(reverse("login"), 302)]
    assert 'id="welcome"' in response.content.decode()


# New game ---------------------------------------------------------------------------------------


# Game page --------------------------------------------------------------------------------------


def test_game_page_markup_follows_web_contract(player_client, make_game):
    game = make_game()
    response = player_client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="board"' in html and 'id="status"' in html
    assert len(re.findall(r"data-cell=", html)) == 9
    assert data_moves(html) == list(range(9))
    assert re.search(r'<button[^>]*data-move="0"', html)
    assert "X to move" in html
    assert 'aria-label="a3 (keypad 1), empty"' in html  # the cell name (RULES.md), then the keypad's number
    assert 'method="post"' in html  # works without JavaScript


def test_game_page_not_your_turn_has_no_buttons(player_client, player):
    game = vs_random(player, side="O")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert data_moves(html) == []
    assert "Computer is thinking" in html
    assert 'id="poll"' in html  # the page listens for the move (a worker's, or a quick computer's)


def test_nested_board_markup(player_client, make_game, player):
    game = make_game(variant="ultimate")
    move_play(game=game, player=player, move=9 * 4 + 2)
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert len(re.findall(r"data-cell=", html)) == 81
    assert data_moves(html) == [18 + c for c in range(9) if c != 2] or data_moves(html) == [
        m for m in range(18, 27)
    ]
    assert 'data-mark="X"' in html
    assert 'class="small-board active"' in html
    assert 'aria-label="f6 (board 5), X"' in html  # one 9 x 9 board's names; the small board as a keypad's
    assert '<td class="move-name" data-ply="1">f6</td>' in html


def test_the_next_board_is_shown_to_those_not_to_move(player_client, other_client, make_game, player):
    game = make_game(variant="ultimate", opponent="easy", strategy="random")
    move_play(game=game, player=player, move=9 * 4 + 2)  # the computer (O) must play on board 2
    html = other_client.get(reverse("games:detail", args=[game.pk])).content.decode()  # a spectator
    assert html.count('class="small-board next"') == 1 and 'class="small-board active"' not in html
    assert 'aria-label="Board 3, the next move is played here"' in html and data_moves(html) == []
    # the player, waiting for the computer, sees it the same way
    mine = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-board="2"' in mine and mine.count('class="small-board next"') == 1


def test_other_players_private_game_is_404(other_client, make_game):
    game = make_game(private=True)
    assert other_client.get(reverse("games:detail", args=[game.pk])).status_code == 404
    assert other_client.get(reverse("games:replay", args=[game.pk])).status_code == 404


# Playing ----------------------------------------------------------------------------------------


def test_htmx_move_returns_partial(player_client, make_game):
    game = make_game()
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="play"')
    assert "<html" not in html
    assert 'data-cell="4" data-mark="X"' in html
    assert 4 not in data_moves(html)
    assert "O to move" in html
    assert Move.objects.filter(game=game).count() == 1


def test_htmx_answers_bring_the_seats_in_play_and_only_the_announcement_out_of_band(player_client, player, duel):
    """The seats beside the board (names, ratings, clocks) are part of #play: every answer brings them, the viewer's
    own at the bottom; only the announcement, which stays outside #play for screen readers, comes out of band."""
    for game in (vs_random(player), duel):
        html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX).content.decode()
        assert 'id="players"' in html and html.count('class="seat-bar ') == 2
        assert re.search(r'class="seat-bar seat-x seat-bottom[^"]*" id="seat-x"', html)  # alice plays X
        assert html.count("hx-swap-oob") == 1 and '<span id="announce" hx-swap-oob="innerHTML">' in html


def test_the_board_sends_the_position_it_shows(player_client, player):
    game = vs_random(player)
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4", "ply": "0"}, **HTMX).content.decode()
    form = html.split('class="board-form"')[1].split("</form>")[0]
    assert '<input type="hidden" name="ply" value="2">' in form  # after alice's move and the computer's reply


def test_plain_post_move_redirects_and_computer_replies(player_client, player):
    game = vs_random(player)
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"})
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[game.pk])
    game.refresh_from_db()
    assert game.ply == 2


def test_htmx_move_with_a_fast_computer_gets_the_reply_in_the_same_answer(player_client, player):
    """random (like easy, medium, and perfect on classic) answers in milliseconds: one round trip, both moves."""
    game = vs_random(player)
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, **HTMX).content.decode()
    assert "Computer is thinking" not in html and "Your turn (X)" in html
    assert 'data-cell="0" data-mark="X"' in html and html.count('data-mark="O"') == 1
    assert len(data_moves(html)) == 7
    game.refresh_from_db()
    assert game.ply == 2 and list(game.moves.values_list("ply", "side")) == [(1, "X"), (2, "O")]


def test_htmx_move_leaves_a_slow_computer_reply_to_a_worker(player_client, player):
    # mcts thinks for up to a second: the page shows the move at once, a worker replies, and the page (listening:
    # push first, its poll as the fallback) shows the reply when it is stored.
    from django_tasks_db.models import DBTaskResult

    from tests.services.test_tasks import run_tasks

    game = game_create(player=player, variant="classic", options={}, opponent="easy", side="X", strategy="mcts")
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, **HTMX).content.decode()
    assert "Computer is thinking" in html and 'id="poll"' in html and 'hx-trigger="load' not in html
    game.refresh_from_db()
    assert game.ply == 1 and DBTaskResult.objects.filter(status="READY").count() == 1
    # asking the computer from the page (an old tab, no JavaScript) queues nothing more and thinks nothing here
    response = player_client.post(reverse("games:computer_move", args=[game.pk]), **HTMX)
    assert response.status_code == 200 and DBTaskResult.objects.count() == 1
    game.refresh_from_db()
    assert game.ply == 1
    assert run_tasks() == ["played"]
    poll = player_client.get(reverse("games:poll", args=[game.pk]), {"v": 1}, **HTMX)
    assert poll.status_code == 200 and "Your turn (X)" in poll.content.decode()


def test_finishing_shows_result_words(player_client, make_game, player):
    game = make_game()
    for move in (0, 3, 1, 4):
        move_play(game=game, player=player, move=move)
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "2"}, **HTMX).content.decode()
    assert re.search(r'id="status"[^>]*>X wins<', html)
    assert data_moves(html) == []
    assert reverse("games:replay", args=[game.pk]) in html


def test_draw_shows_draw(player_client, make_game, player):
    game = make_game()
    for move in (0, 1, 2, 4, 3, 5, 7, 6):
        move_play(game=game, player=player, move=move)
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "8"}, **HTMX).content.decode()
    assert re.search(r'id="status"[^>]*>Draw<', html)


def test_watch_game_advances_move_by_move(player_client, player):
    game = game_create(player=player, variant="classic", options={}, opponent="watch", side="X", strategy="random")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Computer is thinking" in html and data_moves(html) == []
    for expected in (1, 2, 3):  # a quick computer asked from the page plays at once
        response = player_client.post(reverse("games:computer_move", args=[game.pk]), **HTMX)
        assert response.status_code == 200
        game.refresh_from_db()
        assert game.ply == expected


def test_resign(player_client, player):
    game = vs_random(player)
    response = player_client.post(reverse("games:resign", args=[game.pk]), **HTMX)
    assert response.status_code == 200
    assert "O wins" in response.content.decode()
    game.refresh_from_db()
    assert game.result == "O" and game.result_reason == "resigned"


# Refusals: 4xx, a message, nothing changed ---------------------------------------------------------------


# Query count ------------------------------------------------------------------------------------------


def test_move_costs_the_same_few_queries_on_move_1_and_move_60(player_client, make_game, player,
                                                                django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = make_game(variant="mnk", options={"rows": 15, "cols": 15, "k": 5})
    url = reverse("games:move", args=[game.pk])

    # A sequence of 60 moves with no five in a row: fill rows 0-3 in blocks of alternating pairs.
    safe = [r * 15 + c for r in range(0, 15, 2) for c in range(15)]
    xs = [m for i, m in enumerate(safe) if (i // 2) % 2 == 0]
    os_ = [m for i, m in enumerate(safe) if (i // 2) % 2 == 1]
    sequence = [m for pair in zip(xs, os_, strict=False) for m in pair]

    counts = []
    with CaptureQueriesContext(connection) as first:
        assert player_client.post(url, {"move": str(sequence[0])}, **HTMX).status_code == 200
    counts.append(len(first))
    for move in sequence[1:59]:
        move_play(game=game, player=player, move=move)
    # (8 on SQLite: the push's notice is written in the move's own transaction there; elsewhere after the commit)
    with django_assert_max_num_queries(8), CaptureQueriesContext(connection) as sixtieth:
        response = player_client.post(url, {"move": str(sequence[59])}, **HTMX)
        assert response.status_code == 200, response.content
    counts.append(len(sixtieth))
    game.refresh_from_db()
    assert game.ply == 60 and game.status == Game.Status.ACTIVE
    assert counts[0] == counts[1], counts
    print("queries per move request:", counts)


def test_move_with_a_quick_computer_reply_costs_the_same_few_queries(player_client, player,
                                                                     django_assert_max_num_queries):
    # The session and the user, then in one transaction: the game row (which carries the move list), insert both
    # moves, update the game, and (on SQLite) the live notice for open pages. (In tests the transaction shows as a
    # savepoint pair.)
    game = vs_random(player, variant="mnk", options={"rows": 15, "cols": 15, "k": 5})
    url = reverse("games:move", args=[game.pk])
    move = 112
    for _ in range(2):
        with django_assert_max_num_queries(8):
            html = player_client.post(url, {"move": str(move)}, **HTMX).content.decode()
        move = data_moves(html)[0]
    game.refresh_from_db()
    assert game.ply == 4 and game.move_list.count(",") == 3


def test_game_ids_out_of_the_databases_range_are_404(player_client):
    for url in ("/games/99999999999999999999/", "/games/0/"):
        assert player_client.get(url).status_code == 404
    for url in ("/games/99999999999999999999/move/", "/games/99999999999999999999/computer/"):
        assert player_client.post(url, {"move": "1"}, **HTMX).status_code == 404


def test_template_comments_close_on_their_line():
    """Django's {# #} comment is one line only: one spread over two lines is printed on the page."""
    import re
    from pathlib import Path

    from django.conf import settings

    unclosed = []
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\{#(?!.*#\})", line):
                unclosed.append(f"{path.relative_to(settings.BASE_DIR)}:{number}")
    assert unclosed == []


def test_htmx_answers_announce_the_latest_move_for_screen_readers(player_client, player, make_game):
    game = vs_random(player)
    page = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert '<p id="announce" class="visually-hidden" aria-live="polite"></p>' in page  # stays while #play swaps
    html = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX).content.decode()
    reply = int(Game.objects.get(pk=game.pk).move_list.split(",")[1])
    name = get_variant("classic").cell_name(reply)
    assert f'<span id="announce" hx-swap-oob="innerHTML">O played {name}. Your turn (X)</span>' in html

    nested = make_game(variant="ultimate")
    html = player_client.post(reverse("games:move", args=[nested.pk]), {"move": "40"}, **HTMX).content.decode()
    assert 'hx-swap-oob="innerHTML">X played e5. ' in html

    # What was done when it was not a move: a take back, a resignation.
    html = player_client.post(reverse("games:takeback", args=[game.pk]), **HTMX).content.decode()
    assert '<span id="announce" hx-swap-oob="innerHTML">Your last move was taken back. Your turn (X)</span>' in html
    html = player_client.post(reverse("games:resign", args=[game.pk]), **HTMX).content.decode()
    assert '<span id="announce" hx-swap-oob="innerHTML">O wins (X resigned) — you lost</span>' in html


def test_draw_and_rematch_offers_are_announced_to_both_players(duel, player, other_player, player_client,
                                                                 other_client):
    from games.services import draw_offer, rematch_offer

    move_play(game=duel, player=player, move=4)
    draw_offer(game=duel, player=other_player)
    mine = player_client.get(reverse("games:poll", args=[duel.pk]), **HTMX).content.decode()
    theirs = other_client.get(reverse("games:poll", args=[duel.pk]), **HTMX).content.decode()
    assert 'hx-swap-oob="innerHTML">X played b2. Waiting for bob (O). Your opponent offers a draw.</span>' in mine
    assert 'hx-swap-oob="innerHTML">X played b2. Your turn (O). You offered a draw.</span>' in theirs
    game_resign(game=duel, player=other_player)
    rematch_offer(game=duel, player=other_player)
    mine = player_client.get(reverse("games:poll", args=[duel.pk]), **HTMX).content.decode()
    assert 'hx-swap-oob="innerHTML">X wins (O resigned) — you won. Your opponent offers a rematch.</span>' in mine


# HEAD, as monitors and link checkers send it ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["games:history", "games:new", "leaderboard", "rules"])
def test_pages_answer_head_like_get(player_client, name):
    get, head = player_client.get(reverse(name)), player_client.head(reverse(name))
    assert head.status_code == get.status_code == 200
    assert head.content == b""


# What won the game ---------------------------------------------------------------------------------------


def finish(game, player, moves=(0, 3, 1, 4, 2)):
    for move in moves:
        move_play(game=game, player=player, move=move)


def win_cells(html: str) -> list[int]:
    return [int(cell) for cell in re.findall(r'class="cell mark-\w(?: last)? win" data-cell="(\d+)"', html)]


def test_the_winning_line_is_marked_on_the_page_and_the_replay(player_client, make_game, player):
    game = make_game()
    finish(game, player, (0, 3, 1, 4))
    assert win_cells(player_client.get(reverse("games:detail", args=[game.pk])).content.decode()) == []
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "2"}, **HTMX)
    html = response.content.decode()
    assert win_cells(html) == [0, 1, 2] and "in the winning line" in html
    replay = reverse("games:replay", args=[game.pk])
    assert win_cells(player_client.get(replay).content.decode()) == [0, 1, 2]
    assert win_cells(player_client.get(replay, {"ply": 4}).content.decode()) == []


@pytest.mark.parametrize("variant", ["ultimate", "multi"])
def test_nested_boards_show_the_score_and_the_boards_that_won(player_client, make_game, player, variant):
    import random

    from games.engine import get_variant

    # random games until one has a winner (a drawn one starts again)
    rng, state, moves = random.Random(5), get_variant(variant).new_game(), []
    while not (state.is_over and state.winner):
        if state.is_over:
            state, moves = get_variant(variant).new_game(), []
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    game = make_game(variant=variant)
    for move in moves[:-1]:
        move_play(game=game, player=player, move=move)
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "small-board" in html and " winning" not in html
    owners = state.board_winners
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": str(moves[-1])}, **HTMX)
    html = response.content.decode()
    score = f'X</span> {owners.count("X")} · <span class="mark-o">O</span> {owners.count("O")}'
    assert 'id="board-score"' in html and score in html
    shown = [int(b) for b in re.findall(r'class="small-board[^"]* winning"\s+data-board="(\d)"', html)]
    assert shown == list(state.winning_boards) and shown


def test_grid_boards_name_their_rows_and_columns_as_the_move_list_does(player_client, make_game, player):
    game = make_game(variant="mnk", options={"rows": 6, "cols": 9, "k": 4})
    move_play(game=game, player=player, move=9 * 4 + 6)  # the fifth row from the top, the seventh column: g2
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    columns = re.search(r'class="coords coords-cols"[^>]*>(.*?)</div>', html).group(1)
    rows = re.search(r'class="coords coords-rows"[^>]*>(.*?)</div>', html).group(1)
    assert re.findall(r"<span>(\w+)</span>", columns) == list("abcdefghi")  # every letter, i included
    assert re.findall(r"<span>(\w+)</span>", rows) == [str(n) for n in range(6, 0, -1)]  # row 1 at the bottom
    assert re.search(r"<td[^>]*>g2</td>", html), "the move list names the same cell"
    # and so do the cells' names, for a screen reader that hears "X played g2"
    assert 'aria-label="g2, X"' in html and 'aria-label="i1, empty"' in html
    classic = player_client.get(reverse("games:detail", args=[make_game().pk])).content.decode()
    columns = re.search(r'class="coords coords-cols"[^>]*>(.*?)</div>', classic).group(1)
    assert re.findall(r"<span>(\w+)</span>", columns) == list("abc")  # classic too: a3 is its top-left


def test_headings_come_in_order_and_name_only_the_page(player_client, make_game, other_player):
    """For screen readers' heading lists: one h1 per page, first, with no link inside it."""
    from games.services import challenge_create

    game = make_game()
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert re.search(r"<h1>Classic 3 x 3</h1>\s*<a class=\"rules-link\"", html)
    challenge_create(player=other_player, variant="classic")
    html = player_client.get(reverse("home")).content.decode()
    headings = re.findall(r"<h([1-6])\b", html)
    assert headings[0] == "1" and headings.count("1") == 1, headings
    assert "Accept bob's challenge: Classic 3 x 3, you play O" in html  # which challenge each button takes


def test_a_game_on_one_screen_says_so_beside_its_players(player_client, player, other_client):
    local = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    computer = game_create(player=player, variant="classic", options={}, opponent="easy", side="X")
    page = player_client.get(reverse("games:detail", args=[local.pk])).content.decode()
    assert 'id="one-screen"' in page and "Two players, one screen" in page
    # a spectator reads it too
    assert 'id="one-screen"' in other_client.get(reverse("games:detail", args=[local.pk])).content.decode()
    assert 'id="one-screen"' not in player_client.get(reverse("games:detail", args=[computer.pk])).content.decode()
    history = player_client.get(reverse("games:history")).content.decode()
    assert re.search(rf'data-game="{local.pk}" data-side="X and O"', history)
    assert re.search(rf'data-game="{computer.pk}" data-side="X"', history)


def test_my_games_says_drawn_for_every_kind_of_game(player_client, player):
    from games.services import game_decide

    local = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    computer = game_create(player=player, variant="classic", options={}, opponent="easy", side="X")
    for game in (local, computer):
        game_decide(game=game.pk, result=Game.Result.DRAW)
    html = player_client.get(reverse("games:history")).content.decode()
    assert html.count('<span class="pill pill-drawn">Drawn</span>') == 2, html


def test_only_the_board_a_move_is_sent_to_is_marked(player_client, make_game, player):
    """At the start (or sent to a full board) any board may be played: none is marked, which would only ring all
    nine; once a move sends play to one board, that board alone is."""
    game = make_game(variant="ultimate")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert len(data_moves(html)) == 81 and "small-board active" not in html and "small-board next" not in html
    assert 'aria-label="Nine boards: play on any board"' in html
    move_play(game=game, player=player, move=9 * 4 + 2)  # the computer (random) answers, and sends X somewhere
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert html.count("small-board active") == 1
