"""Draw offers between two players: the services' rules, the game page's controls and the JSON API."""

from __future__ import annotations


def test_api_draw_offer_and_accept(duel, player_client, other_client):
    response = player_client.post(f"/api/games/{duel.pk}/draw")
    assert response.status_code == 200, response.content
    assert response.json()["draw_offered_by"] == "alice"
    assert other_client.get(f"/api/games/{duel.pk}").json()["draw_offered_by"] == "alice"

    response = player_client.post(f"/api/games/{duel.pk}/draw/accept")
    assert response.status_code == 409 and response.json()["code"] == "draw_refused"

    data = other_client.post(f"/api/games/{duel.pk}/draw/accept").json()
    assert data["status"] == "finished" and data["result"] == "draw" and data["result_reason"] == "agreed"
    assert data["result_text"] == "Draw (agreed)" and data["draw_offered_by"] is None


def test_api_draw_decline(duel, player_client, other_client):
    player_client.post(f"/api/games/{duel.pk}/draw")
    data = other_client.post(f"/api/games/{duel.pk}/draw/decline").json()
    assert data["status"] == "active" and data["draw_offered_by"] is None
    response = other_client.post(f"/api/games/{duel.pk}/draw")
    assert response.status_code == 409 and response.json()["code"] == "draw_refused"
    response = other_client.get(f"/api/games/{duel.pk}/draw")
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
