"""Hints: the hard level's move, shown on the board, in games without another person (services, page, API)."""

from __future__ import annotations


def test_api_hint(make_game, player, player_client, duel):
    game = make_game(variant="classic", opponent="easy", strategy="random")  # worked out in the request
    response = player_client.post(f"/api/games/{game.pk}/hint")
    assert response.status_code == 200, response.content
    data = response.json()
    assert 0 <= data["move"] < 9 and data["hints"] == 1 and data["label"]
    assert player_client.get(f"/api/games/{game.pk}").json()["hints"] == 1
    response = player_client.post(f"/api/games/{duel.pk}/hint")
    assert response.status_code == 409 and response.json()["code"] == "hint_refused"
