"""Permissions-Policy on every answer (issue 20, item 8); no Content-Security-Policy yet (inline scripts remain)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("get", "/accounts/login/", 200), ("get", "/healthz", 200), ("get", "/no/such/page/", 404),
     ("get", "/api/variants", 200), ("post", "/accounts/login/", 400)],
)
def test_every_answer_carries_a_permissions_policy(db, method, path, status):
    response = getattr(Client(), method)(path)
    assert response.status_code == status
    policy = response["Permissions-Policy"]
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy
    assert "clipboard-write" not in policy  # the profile's "Copy" button for a new token


def test_early_answers_carry_it_too(db):
    bad_body = Client().generic(
        "POST", "/accounts/login/", b"a=1", content_type="application/x-www-form-urlencoded; charset=latin-1"
    )
    trace = Client().generic("TRACE", "/")
    for response in (bad_body, trace):
        assert response.status_code in (400, 405)
        assert "camera=()" in response["Permissions-Policy"]
