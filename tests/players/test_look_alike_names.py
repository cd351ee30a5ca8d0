"""Usernames are NFKC-normalised and unique by their TR39 confusable skeleton (issue 20, item 7)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from players.confusables import skeleton

PASSWORD = "a-Str0ng-passphrase"


def signup(username: str):
    return Client().post(reverse("signup"), {"username": username, "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.parametrize(
    ("existing", "look_alike"),
    [
        ("alice", "\u0430lice"), ("paypal", "paypaI"), ("alice1", "alicel"), ("rnonty", "monty"),
        # issue 29: digits, accents and case folded as Cyrillic is
        ("bob", "b0b"), ("alice", "alic\u00e9"), ("alice", "\u00e1l\u00ecc\u00eb"), ("sam", "5am"),
        ("bob", "B0B"), ("zoe", "Zo\u00eb"), ("sam", "S\u00e0m"),
    ],
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
    make_player("bob2")
    assert signup("bob3").status_code == 302  # digits that read as no letter stay digits
    assert signup("Zo\u00e9").status_code == 302 and signup("zoe").status_code == 400  # é folds to e


@pytest.mark.parametrize(
    "name",
    ["bob\u202e", "\u202eevil", "a\u2066b", "a\u2067b", "a\u2068b", "a\u2069b", "a\u200eb", "a\u200fb",
     "a\u061cb", "a\u202ab", "a\u202bb", "a\u202cb", "a\u202db", "a\u2028b", "a\u2029b", "a\tb"],
)
def test_signup_refuses_direction_marks_and_line_separators(db, name):
    from players.models import Player

    response = signup(name)
    assert response.status_code == 400 and "Enter a valid username" in response.content.decode()
    assert not Player.objects.exists()


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
    # a clash from before the unique skeleton: its migration marked the newer name (players migration 0008)
    twin = Player.objects.create_user("\u0430lice", password=PASSWORD, skeleton_clash=True)
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
    assert player.username_skeleton == "rnonty"  # 0 folded to o (issue 29), m to rn (TR39)


def test_the_database_refuses_a_look_alike_that_skipped_the_checks(make_player):
    """Two sign-ups at the same moment both pass clean(); the unique skeleton stops the second."""
    from django.db import IntegrityError, transaction

    from players.models import Player

    make_player("alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player(username="\u0430lice").save()  # no clean(): as the second of two sign-ups at once
    assert Player.objects.filter(username_skeleton="alice").count() == 1
    Player.objects.bulk_create([Player(username="x1"), Player(username="x2")])  # no skeleton: not held to it


def test_a_sign_up_that_loses_the_race_for_a_name_is_told_so(make_player, monkeypatch):
    """The other account commits between this sign-up's checks and its insert: a 400 saying why, not a 500."""
    from players.forms import SignupForm
    from players.models import Player

    is_valid = SignupForm.is_valid
    checked: list[str] = []

    def then_the_other_signs_up(self):
        valid = is_valid(self)
        if not checked:  # right after this sign-up's checks, before its insert
            checked.append(self.data["username"])
            make_player("alice")
        return valid

    monkeypatch.setattr(SignupForm, "is_valid", then_the_other_signs_up)
    for name, words in (("\u0430lice", "too much like the existing player alice"), ("alice", "already exists")):
        Player.objects.filter(username="alice").delete()
        checked.clear()
        response = signup(name)
        assert response.status_code == 400 and words in response.content.decode(), name
        assert list(Player.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.django_db(transaction=True)
def test_the_refolding_migration_marks_the_names_that_clash_under_the_new_rule():
    from django.db import IntegrityError, connection, transaction
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("players", "0009_player_unique_skeleton")])
        executor.loader.build_graph()
        state = executor.loader.project_state([("players", "0009_player_unique_skeleton")])
        old = state.apps.get_model("players", "Player")
        for username, name_skeleton, clash in (
            ("bob", "bob", False), ("alice", "alice", False), ("b0b", "bOb", False), ("alice\u0301", "alice\u0301",
                                                                                        False),
            ("\u0430lice", "alice", True), ("Carol", "Carol", False), ("zed", "zed", False), ("x", "", False),
        ):  # as 0009 left them: the old skeletons, one old clash marked
            old.objects.create(username=username, username_skeleton=name_skeleton, skeleton_clash=clash)
        executor = MigrationExecutor(connection)
        executor.migrate([("players", "0010_refold_skeletons")])
        from players.models import Player

        rows = {name: (skel, clash) for name, skel, clash in Player.objects.values_list(
            "username", "username_skeleton", "skeleton_clash")}
        assert rows == {
            "bob": ("bob", False), "alice": ("alice", False), "b0b": ("bob", True), "alice\u0301": ("alice", True),
            "\u0430lice": ("alice", True), "Carol": ("carol", False), "zed": ("zed", False), "x": ("x", False),
        }
        # a new look-alike of bob, as Player.save() would store it: the database refuses it too (the model of the
        # migrated state: the current one may have columns this state does not)
        refolded = executor.loader.project_state([("players", "0010_refold_skeletons")]).apps.get_model(
            "players", "Player")
        with pytest.raises(IntegrityError), transaction.atomic():
            refolded.objects.create(username="B0B", username_skeleton=skeleton("B0B"))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_names_that_already_clashed():
    from django.db import IntegrityError, connection, transaction
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("players", "0007_player_sound")])
        executor.loader.build_graph()
        old = executor.loader.project_state([("players", "0007_player_sound")]).apps.get_model("players", "Player")
        for username, name_skeleton in (("alice", "alice"), ("\u0430lice", "alice"), ("bob", "bob"), ("x", "")):
            old.objects.create(username=username, username_skeleton=name_skeleton)
        executor = MigrationExecutor(connection)
        executor.migrate([("players", "0009_player_unique_skeleton")])
        from players.models import Player

        clashes = dict(Player.objects.values_list("username", "skeleton_clash"))
        assert clashes == {"alice": False, "\u0430lice": True, "bob": False, "x": False}  # the oldest keeps it
        unique = executor.loader.project_state([("players", "0009_player_unique_skeleton")]).apps.get_model(
            "players", "Player")
        with pytest.raises(IntegrityError), transaction.atomic():  # a new look-alike of bob (Cyrillic о)
            unique.objects.create(username="b\u043eb", username_skeleton="bob")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
