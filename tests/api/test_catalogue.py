"""The catalogue: variants and strategies, public."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_variants_are_public_with_options_limits_and_strategies(client):
    response = client.get("/api/variants")
    assert response.status_code == 200
    variants = {v["key"]: v for v in response.json()}
    assert list(variants) == ["classic", "four", "nxn", "mnk", "ultimate", "multi"]
    size = variants["nxn"]["options"][0]
    assert size == {"name": "size", "type": "integer", "default": 5, "minimum": 3, "maximum": 10, "choices": None}
    assert {o["name"] for o in variants["mnk"]["options"]} == {"rows", "cols", "k", "opening"}
    opening = variants["mnk"]["options"][3]
    assert opening == {"name": "opening", "type": "string", "default": "freestyle", "choices": ["freestyle", "swap2"],
                       "minimum": None, "maximum": None}
    assert variants["ultimate"]["options"][0]["type"] == "boolean" and variants["ultimate"]["nested"]
    assert variants["ultimate"]["default_cells"] == 81
    assert "ring" in variants["classic"]["strategies"] and "ring" not in variants["four"]["strategies"]
    assert all("random" in v["strategies"] for v in variants.values())


def test_strategies_are_public_with_the_variants_they_play(client):
    response = client.get("/api/strategies")
    assert response.status_code == 200
    strategies = {s["name"]: s for s in response.json()}
    assert strategies["ring"]["variants"] == ["classic"]
    assert len(strategies["random"]["variants"]) == 6
    assert "threats" in strategies and "ultimate" not in strategies["threats"]["variants"]
    depth = next(o for o in strategies["alphabeta"]["options"] if o["name"] == "depth")
    assert depth == {"name": "depth", "type": "integer", "default": 3}
