"""Swap2 games on the site (issue 33): every branch of the opening through the API, whose turn and clock it is,
the rated pool, records, and the computer playing it from the workers."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.selectors import games_to_move
from games.services import challenge_accept, challenge_create
from players.models import ApiToken

from .helpers import assert_error, post, run_tasks

SWAP2 = {"rows": 15, "cols": 15, "k": 5, "opening": "swap2"}


def client_of(player) -> Client:
    _token, raw = ApiToken.issue(player=player, name="test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


@pytest.fixture
def duel(player, other_player):
    """alice (X, the opener) against bob (O), Swap2 on 15 x 15, a 3+2 clock; and each one's API client."""
    game = challenge_create(player=player, variant="mnk", options=SWAP2, side="X", clock="3+2")
    game = challenge_accept(game=game, player=other_player)
    return game, client_of(player), client_of(other_player)


def moves(client: Client, game: Game, *names: str) -> dict:
    answer = {}
    for name in names:
        response = post(client, f"/api/games/{game.pk}/moves", {"move": name})
        assert response.status_code == 200, response.content
        answer = response.json()
    return answer


@pytest.mark.parametrize(
    ("choices", "chooser", "then"),
    [
        (["stay"], "O", "O"),
        (["swap"], "O", "X"),
        (["more", "g7", "f8", "stay"], "X", "O"),
        (["more", "g7", "f8", "swap"], "X", "X"),
    ],
)
def test_every_branch_of_the_opening_through_the_api(duel, choices, chooser, then):
    game, alice, bob = duel
    moves(alice, game, "h8", "h9")
    assert [g.pk for g in games_to_move(game.x_player)] == [game.pk]  # X places its three stones in a row
    state = moves(alice, game, "j7")
    assert state["to_move"] == "O" and state["your_turn"] is False and state["pool"] == "mnk-15x15k5-swap2:blitz"
    seen = bob.get(f"/api/games/{game.pk}").json()
    assert seen["your_turn"] is True and seen["legal_moves"] == [225, 226, 227]
    assert seen["clock_running"] is None  # the clocks start once each side has moved
    client = bob
    for name in choices:
        if name == "stay" and chooser == "X" or name == "swap" and chooser == "X":
            client = alice
        state = moves(client, game, name)
    assert state["to_move"] == then and state["clock_running"] == then
    listed = [(m["ply"], m["side"], m["name"]) for m in state["moves"]]
    assert listed[:4] == [(1, "X", "h8"), (2, "X", "h9"), (3, "X", "j7"), (4, "O", choices[0])]
    x_stone = state["cells"][7 * 15 + 7]  # h8, the opener's first stone: X's stones' holder
    assert x_stone == ("O" if choices[-1] == "swap" else "X")
    player = alice if then == "X" else bob
    # the "your turn" badge and list follow the opening's choices, not the ply's parity
    assert [g.pk for g in games_to_move(game.seat_player(then))] == [game.pk]
    assert not games_to_move(game.seat_player("O" if then == "X" else "X")).exists()
    moves(player, game, "i9")
    record = player.get(f"/api/games/{game.pk}/record").content.decode()
    assert "opening=swap2" in record and f" {choices[0]} " in record


def test_choices_out_of_turn_or_out_of_place_are_refused(duel):
    game, alice, bob = duel
    assert_error(post(alice, f"/api/games/{game.pk}/moves", {"move": "swap"}), 400, "illegal_move")
    moves(alice, game, "h8", "h9", "j7")
    assert_error(post(alice, f"/api/games/{game.pk}/moves", {"move": "stay"}), 409, "not_your_turn")
    assert_error(post(bob, f"/api/games/{game.pk}/moves", {"move": "i9"}), 400, "illegal_move")
    assert_error(post(bob, f"/api/games/{game.pk}/moves", {"move": "stays"}), 400, "illegal_move")
    # until each side has moved, either may abort
    assert bob.get(f"/api/games/{game.pk}").json()["status"] == "active"
    assert post(alice, f"/api/games/{game.pk}/abort").json()["result_reason"] == "aborted"


def test_an_opening_option_is_a_word_of_the_engine(token_client):
    made = post(token_client, "/api/games", {"variant": "mnk", "options": {"opening": "swap2"}, "opponent": "local"})
    assert made.status_code == 201 and made.json()["options"] == SWAP2
    refused = (
        ({"opening": "renju"}, "invalid_settings"), ({"opening": "swap2", "rows": 14}, "invalid_settings"),
        ({"rows": "swap2"}, "invalid_input"), ({"opening": 2}, "invalid_settings"),
    )
    for options, code in refused:
        assert_error(post(token_client, "/api/games", {"variant": "mnk", "options": options, "opponent": "local"}),
                     400, code)


def test_the_computer_plays_its_opening_from_the_workers(token_client):
    made = post(token_client, "/api/games", {"variant": "mnk", "options": {"opening": "swap2"}, "opponent": "easy",
                                             "side": "O"})
    game = made.json()
    assert game["moves"] == [] and game["to_move"] == "X"  # the computer thinks in a worker, even at easy
    for _ in range(3):
        run_tasks()
    state = token_client.get(f"/api/games/{game['id']}").json()
    assert len(state["moves"]) == 3 and state["your_turn"] and state["legal_moves"] == [225, 226, 227]
    state = moves(token_client, Game.objects.get(pk=game["id"]), "more", "a1", "o15")
    run_tasks()
    state = token_client.get(f"/api/games/{game['id']}").json()
    choice = state["moves"][6]  # X's choice (then, after a swap, its stone: the O stones' next)
    assert choice["name"] in ("stay", "swap") and choice["side"] == "X"


def test_a_swap2_record_imports_back(token_client, duel):
    game, alice, bob = duel
    moves(alice, game, "h8", "h9", "j7")
    moves(bob, game, "swap")
    record = alice.get(f"/api/games/{game.pk}/record").content.decode()
    imported = post(token_client, "/api/games/import", {"record": record})
    assert imported.status_code == 201, imported.content
    body = imported.json()
    assert body["options"] == SWAP2 and [m["name"] for m in body["moves"]] == ["h8", "h9", "j7", "swap"]
    assert [m["side"] for m in body["moves"]] == ["X", "X", "X", "O"]


def test_a_bot_makes_its_choice_by_name(player, make_player):
    from games.services import bot_upgrade

    bot = bot_upgrade(player=make_player("deepttt"))
    game = challenge_accept(game=challenge_create(player=player, variant="mnk", options=SWAP2, invitee=bot),
                            player=bot)
    moves(client_of(player), game, "h8", "h9", "j7")
    answer = post(client_of(bot), f"/api/bot/game/{game.pk}/move/STAY")
    assert answer.status_code == 200 and answer.json()["moves"][-1]["name"] == "stay"
    assert answer.json()["your_turn"] is True  # the O stones' holder places the next one


def test_a_takeback_against_the_computer_goes_back_to_the_players_own_move(token_client):
    made = post(token_client, "/api/games", {"variant": "mnk", "options": {"opening": "swap2"}, "opponent": "easy"})
    game = Game.objects.get(pk=made.json()["id"])
    moves(token_client, game, "h8", "h9", "j7")  # the player (X) places three stones in a row
    run_tasks()  # the computer (O) chooses, and places its stone if it kept the O stones
    state = token_client.get(f"/api/games/{game.pk}").json()
    assert state["moves"][3]["side"] == "O" and state["your_turn"]
    back = post(token_client, f"/api/games/{game.pk}/takeback").json()
    assert [m["name"] for m in back["moves"]] == ["h8", "h9"] and back["to_move"] == "X" and back["your_turn"]
