"""Every answer carries a strict Content-Security-Policy for scripts (issue 20; possible since issue 18 moved every
script into static files)."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/rules/", "/healthz", "/api/docs", "/no-such-page/"])
def test_every_answer_has_a_strict_script_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval', no other host
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_signed_in_pages_too(player_client, make_game):
    game = make_game()
    for url in (reverse("games:history"), reverse("games:detail", args=[game.pk]), reverse("games:new")):
        assert "script-src 'self'" in player_client.get(url)["Content-Security-Policy"]
