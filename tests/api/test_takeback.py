"""Taking a move back in a game without another person: the services' rules, the game page and the JSON API."""

from __future__ import annotations


def test_api_takeback(make_game, player, player_client, duel):
    game = make_game(opponent="easy", strategy="random")
    data = player_client.post(f"/api/games/{game.pk}/moves", {"move": 4}, content_type="application/json").json()
    assert data["ply"] == 2 and data["takebacks"] == 0

    response = player_client.post(f"/api/games/{game.pk}/takeback")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["ply"] == 0 and data["takebacks"] == 1 and data["your_turn"] is True and 4 in data["legal_moves"]

    response = player_client.post(f"/api/games/{game.pk}/takeback")
    assert response.status_code == 409 and response.json()["code"] == "takeback_refused"
    response = player_client.post(f"/api/games/{duel.pk}/takeback")
    assert response.status_code == 409 and response.json()["code"] == "takeback_refused"
    assert player_client.get(f"/api/games/{game.pk}/takeback").status_code == 405
