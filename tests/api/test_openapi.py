"""The OpenAPI document and the docs page (served offline)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db


def test_openapi_document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    for path in ("/api/variants", "/api/strategies", "/api/games", "/api/games/{game_id}",
                 "/api/games/{game_id}/moves", "/api/games/{game_id}/resign", "/api/games/{game_id}/computer-move"):
        assert path in paths
    assert "409" in paths["/api/games/{game_id}/moves"]["post"]["responses"]
    schemes = schema["components"]["securitySchemes"]
    assert {s["type"] for s in schemes.values()} >= {"http", "apiKey"}


def test_docs_page_works_offline(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    # Every script, style and link is served by the site itself: no CDN, no other host.
    # (Not a search for "cdn" in the page: the random CSRF token can spell it.)
    addresses = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert addresses and all(a.startswith("/") and not a.startswith("//") for a in addresses), addresses
    # The site's bar (templates/ninja/swagger.html): the way back, and Swagger UI's dark theme on a dark system.
    assert '<a class="api-home" id="api-home" href="/">' in html and 'href="/api/openapi.json"' in html
    assert '<script src="/static/js/api-docs.js">' in html  # its dark theme, from a static file (no inline script)
    assert 'classList.toggle("dark-mode"' in (Path(__file__).resolve().parents[2] / "static/js/api-docs.js").read_text()
