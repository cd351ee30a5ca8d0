"""Play again: a new game with a finished game's settings, for the player who started it (page and API)."""

from __future__ import annotations


def test_api_play_again(player, player_client, other_client, make_game):
    game = make_game(opponent="easy", strategy="random", side="O")
    response = player_client.post(f"/api/games/{game.pk}/again")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["id"] != game.pk and data["variant"] == "classic" and data["your_sides"] == ["O"]
    assert data["ply"] == 1 and data["your_turn"] is True  # the computer, X, has moved
    response = other_client.post(f"/api/games/{game.pk}/again")
    assert response.status_code == 403 and response.json()["code"] == "not_creator"
