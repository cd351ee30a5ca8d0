"""Calling the API in tests: a JSON POST, and the shape of every refusal."""

from __future__ import annotations

import json

from django.test import Client


def post(client: Client, url: str, data: object = None, **extra) -> object:
    body = "" if data is None else json.dumps(data)
    return client.post(url, body, content_type="application/json", **extra)


def assert_error(response, status: int, code: str) -> dict:
    """``response`` is the JSON refusal ``{"code": code, "message": ...}`` with ``status``; its body."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return body
