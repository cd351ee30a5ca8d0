"""Usernames are NFKC-normalised and unique by their TR39 confusable skeleton (issue 20, item 7)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

PASSWORD = "a-Str0ng-passphrase"


def signup(username: str):
    return Client().post(reverse("signup"), {"username": username, "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.parametrize(
    ("existing", "look_alike"),
    [("alice", "\u0430lice"), ("paypal", "paypaI"), ("alice1", "alicel"), ("rnonty", "monty")],
)
def test_signup_refuses_a_name_that_looks_like_an_existing_one(make_player, existing, look_alike):
    from players.models import Player

    make_player(existing)
    response = signup(look_alike)
    assert response.status_code == 400
    assert f"too much like the existing player {existing}" in response.content.decode()
    assert not Player.objects.filter(username=look_alike).exists()


def test_names_that_only_look_different_are_fine(make_player):
    make_player("alice")
    assert signup("alicia").status_code == 302
    assert signup("al1ce").status_code == 302  # 1 looks like l, not like i


def test_signup_normalises_with_nfkc(make_player):
    from players.models import Player

    assert signup("\ufb01sh").status_code == 302  # the "fi" ligature
    assert Player.objects.filter(username="fish").exists()
    make_player("bob")
    response = signup("\uff42\uff4f\uff42")  # fullwidth b o b
    assert response.status_code == 400
    assert Player.objects.filter(username__contains="b").count() == 1


def test_the_model_clean_refuses_look_alikes_for_the_admin(make_player):
    from players.models import Player

    make_player("alice")
    newcomer = Player(username="\u0430lice")
    with pytest.raises(ValidationError, match="too much like the existing player alice"):
        newcomer.full_clean(exclude=["password"])
    bob = make_player("bob")
    bob.username = "\u0430lice"
    with pytest.raises(ValidationError, match="too much like the existing player alice"):
        bob.full_clean(exclude=["password"])


def test_the_admin_add_form_refuses_a_look_alike(staff_client, make_player):
    make_player("alice")
    form = {"username": "\u0430lice", "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"}
    response = staff_client.post(reverse("admin:players_player_add"), form)
    assert response.status_code == 200
    assert "too much like the existing player alice" in response.content.decode()


def test_players_from_before_with_clashing_names_can_still_change_their_email(make_player):
    """Names from before the check may clash; only a new or changed name is checked."""
    from players.models import Player

    make_player("alice")
    twin = make_player("\u0430lice")
    client = Client()
    client.force_login(twin)
    response = client.post(reverse("email_change", args=[twin.username]), {"email": "twin@example.com"})
    assert response.status_code == 302
    assert Player.objects.get(pk=twin.pk).email == "twin@example.com"


def test_the_skeleton_is_stored_and_follows_a_rename(make_player):
    player = make_player("paypaI")
    assert player.username_skeleton == "paypal"
    player.username = "m0nty"
    player.save(update_fields=["username"])
    player.refresh_from_db()
    assert player.username_skeleton == "rnOnty"
