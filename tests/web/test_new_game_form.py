"""The new-game form: its fields, what it creates, and what it refuses or ignores."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game
from tests.web.test_views import new_game_data

pytestmark = pytest.mark.django_db


def test_new_game_form_has_contract_fields(player_client):
    response = player_client.get(reverse("games:new"))
    assert response.status_code == 200
    html = response.content.decode()
    fields = ("variant", "size", "rows", "cols", "k", "closed_boards", "random_start", "opponent", "strategy", "side")
    for name in fields:
        assert f'name="{name}"' in html
    assert "htmx" in html and "X-CSRFToken" in html


@pytest.mark.parametrize(
    "data",
    [
        new_game_data(),
        new_game_data(variant="nxn", size="6"),
        new_game_data(variant="mnk", rows="15", cols="15", k="5", opponent="easy", strategy="random"),
        new_game_data(variant="ultimate", closed_boards="on", opponent="watch", strategy="random"),
        new_game_data(variant="multi", random_start="on", side="random"),
        new_game_data(opponent="human", side="O"),
    ],
)
def test_new_game_creates_and_redirects(player_client, player, data):
    response = player_client.post(reverse("games:new"), data)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", args=[game.pk])
    assert game.variant == data["variant"] and game.created_by == player
    if data["variant"] == "nxn":
        assert game.options == {"size": 6}
    if data["variant"] == "ultimate":
        assert game.options == {"closed_boards": True}
    if data["variant"] == "multi":
        assert game.start_board is not None


@pytest.mark.parametrize(
    "data",
    [
        new_game_data(variant="nope"),
        new_game_data(variant="nxn", size="99"),
        new_game_data(variant="nxn", size="abc"),
        new_game_data(variant="mnk", rows="3", cols="3", k="5"),
        new_game_data(variant="mnk", rows="40", cols="15", k="5"),
        new_game_data(opponent="god"),
        new_game_data(opponent="easy", side="Z"),  # (on one screen there is no side to choose)
        new_game_data(opponent="easy", strategy="nonsense"),
        new_game_data(variant="nxn", size="5.0"),  # Django's IntegerField reads it; the API does not, nor do we
        new_game_data(variant="nxn", size="٥"),
    ],
)
def test_new_game_refuses_forged_settings(player_client, data):
    response = player_client.post(reverse("games:new"), data)
    assert response.status_code == 400
    assert Game.objects.count() == 0
    assert b"form-errors" in response.content or b"field-errors" in response.content


@pytest.mark.parametrize(
    ("data", "options"),
    [
        # typed for n x n, then the variant switched back to classic: the size field is hidden, not sent away
        (new_game_data(variant="classic", size="12"), {}),
        (new_game_data(variant="ultimate", size="abc", rows="2", k="99", random_start="on"), {"closed_boards": False}),
        (new_game_data(variant="nxn", size="4", rows="99"), {"size": 4}),
        # a name typed for another player, then a computer chosen; a strategy picked, then two on one screen
        (new_game_data(opponent="easy", invite="bob", side="X"), {}),
        (new_game_data(opponent="local", strategy="random"), {}),
        (new_game_data(opponent="local", strategy="nonsense"), {}),
    ],
)
def test_new_game_ignores_the_fields_the_page_hides(player_client, data, options):
    """The form shows the fields of the chosen variant and opponent only, and keeps what was typed in the others
    (switching back finds it): those are left out, or their errors would send back a page showing none."""
    response = player_client.post(reverse("games:new"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert game.options == options and game.invitee is None
    if data["opponent"] == "local":
        assert not game.x_strategy and not game.o_strategy


def test_an_impossible_option_is_shown_on_its_field(player_client):
    response = player_client.post(reverse("games:new"), new_game_data(variant="mnk", rows="7", cols="5", k="9"))
    html = response.content.decode()
    assert response.status_code == 400 and Game.objects.count() == 0
    field = html.split('name="k"')[0].rsplit("<input", 1)[1] + html.split('name="k"')[1].split(">")[0]
    assert 'aria-invalid="true"' in field  # the k field is marked, its message tied to it
    assert "k=9 cannot be larger than the board (7 x 5): k must be at most 7" in html


def test_new_game_refuses_strategy_not_supporting_variant(player_client):
    from games.engine import STRATEGIES, get_strategy, get_variant

    ultimate = get_variant("ultimate")
    unsupported = [name for name in STRATEGIES if not get_strategy(name).supports(ultimate)]
    assert "ring" in unsupported  # ring plays classic only
    response = player_client.post(
        reverse("games:new"), new_game_data(variant="ultimate", opponent="hard", strategy=unsupported[0])
    )
    assert response.status_code == 400 and Game.objects.count() == 0
    assert b"does not support" in response.content


def _default_visibility(html: str) -> str:
    return re.search(r'<select name="visibility"[^>]*>\s*<option value=""[^>]*>([^<]*)</option>', html).group(1)


def test_the_default_of_who_may_watch_says_what_it_comes_to(player_client, other_player):
    new = reverse("games:new")
    assert _default_visibility(player_client.get(new).content.decode()) == "Default: anyone"
    # "Challenge bob" from bob's profile: a named challenge, private by default
    page = player_client.get(new, {"invite": other_player.username}).content.decode()
    assert _default_visibility(page) == "Default: the two players"
    # a form sent back with an error says it for what was chosen
    refused = player_client.post(new, new_game_data(opponent="human", invite=other_player.username, side="Z"))
    assert refused.status_code == 400
    assert _default_visibility(refused.content.decode()) == "Default: the two players"
    refused = player_client.post(new, new_game_data(opponent="human", invite=" ", side="Z"))
    assert _default_visibility(refused.content.decode()) == "Default: anyone"
    lobby = player_client.get(reverse("home")).content.decode()
    assert _default_visibility(lobby) == "Default: anyone"


def test_a_refused_new_game_opens_on_the_field_to_fix(player_client):
    response = player_client.post(reverse("games:new"), new_game_data(opponent="human", invite="nobody-here"))
    assert response.status_code == 400
    html = response.content.decode()
    assert "There is no player called" in html
    assert re.search(r'<input type="text" name="invite"[^>]* autofocus', html), html
    assert len(re.findall(r"<(?:input|select)[^>]* autofocus", html)) == 1
    response = player_client.post(reverse("games:new"), new_game_data(variant="nxn", size="12"))
    assert re.search(r'<input[^>]* name="size"[^>]* autofocus', response.content.decode())


@pytest.mark.parametrize("opponent", ["local", "watch"])
def test_a_game_without_a_side_to_choose_ignores_the_side(player_client, player, opponent):
    """On one screen the player takes both sides and watches both computers: the page hides the side, and the
    server ignores whatever it holds."""
    page = player_client.get(reverse("games:new")).content.decode()
    assert '<fieldset data-for-opponent="easy medium hard human">\n      <legend>Your side</legend>' in page
    response = player_client.post(reverse("games:new"), new_game_data(opponent=opponent, side="nonsense"))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.opponent == opponent
    response = player_client.post(reverse("games:new"), new_game_data(opponent="easy", side="nonsense"))
    assert response.status_code == 400 and Game.objects.count() == 1  # where it is shown, it counts
