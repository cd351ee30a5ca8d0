"""Two people in two browsers (and a third watching): challenge, accept, play classic to the end, rematch
(declined, then offered again and accepted).

Every page here is only ever loaded once per game: the moves of the other player, the acceptance of the
challenge and the rematch offer arrive by the page's own polling (204 while nothing changed).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Move
from tests.browser import create_game, sign_up

pytestmark = pytest.mark.browser

# Live updates come within about a second; allow for a slow machine.
LIVE_TIMEOUT = 8_000


def watch_navigations(page: Page) -> list[str]:
    loads: list[str] = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and loads.append(frame.url))
    return loads


def count_polls(page: Page) -> dict[str, int]:
    """Poll answers seen by the page, by status code."""
    seen: dict[str, int] = {}

    def on_response(response) -> None:
        if "/poll/" in response.url:
            seen[str(response.status)] = seen.get(str(response.status), 0) + 1

    page.on("response", on_response)
    return seen


def expect_mark(page: Page, move: int, mark: str) -> None:
    expect(page.locator(f'#board [data-cell="{move}"]')).to_have_attribute("data-mark", mark, timeout=LIVE_TIMEOUT)


def test_two_players_play_classic_live_with_a_spectator_then_rematch(new_context):
    alice, bob, carol = (new_context().new_page() for _ in range(3))
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    sign_up(carol, "carol")

    # Alice makes an open challenge; her page shows the link to send and waits.
    game_id = create_game(alice, "classic", "human", side="X")
    expect(alice.locator("#status")).to_contain_text("Waiting for an opponent")
    expect(alice.locator("#share-link")).to_have_value(re.compile(rf"^http://.+/games/{game_id}/$"))
    expect(alice.locator("#cancel-challenge")).to_be_visible()
    expect(alice.locator("#accept-challenge")).to_have_count(0)
    alice_loads = watch_navigations(alice)
    alice.evaluate("window.__marker = 1")
    alice_polls = count_polls(alice)

    # Bob finds it in the lobby and accepts it.
    bob.goto("/")
    expect(bob.locator(f'#open-challenges [data-challenge="{game_id}"]')).to_contain_text("alice")
    bob.locator(f'[data-accept="{game_id}"]').click()
    bob.wait_for_url(re.compile(rf"/games/{game_id}/$"))
    expect(bob.locator("#board button[data-move]")).to_have_count(0)  # X (alice) moves first
    expect(bob.locator("#status")).to_contain_text("Waiting for alice (X)")
    bob_loads = watch_navigations(bob)
    bob.evaluate("window.__marker = 1")

    # Alice's page learns it by itself: bob's name and her playable cells appear.
    expect(alice.locator("#players")).to_contain_text("bob", timeout=LIVE_TIMEOUT)
    expect(alice.locator("#board button[data-move]")).to_have_count(9, timeout=LIVE_TIMEOUT)
    expect(alice.locator("#status")).to_have_text("Your turn (X)")

    # Carol watches: the board, no controls.
    carol.goto(f"/games/{game_id}/")
    expect(carol.locator("#spectating")).to_be_visible()
    expect(carol.locator("#board [data-cell]")).to_have_count(9)
    carol_loads = watch_navigations(carol)

    # They play to the end (X takes the top row); each move shows up on the two other pages.
    script = [(alice, bob, 0, "X"), (bob, alice, 3, "O"), (alice, bob, 1, "X"), (bob, alice, 4, "O"),
              (alice, bob, 2, "X")]
    for mover, other, move, mark in script:
        expect(mover.locator(f'#board button[data-move="{move}"]')).to_be_visible(timeout=LIVE_TIMEOUT)
        expect(other.locator("#board button[data-move]")).to_have_count(0)  # only the player to move may click
        mover.locator(f'#board button[data-move="{move}"]').click()
        expect_mark(mover, move, mark)
        expect_mark(other, move, mark)
        expect_mark(carol, move, mark)
        expect(carol.locator("#board button[data-move]")).to_have_count(0)
        expect(carol.locator("#resign")).to_have_count(0)

    for page in (alice, bob, carol):
        expect(page.locator("#status")).to_contain_text("X wins", timeout=LIVE_TIMEOUT)
        expect(page.locator("#board button[data-move]")).to_have_count(0)
    game = Game.objects.get(pk=game_id)
    assert game.result == "X" and game.ply == 5
    assert list(Move.objects.filter(game=game).values_list("move", flat=True)) == [0, 3, 1, 4, 2]
    assert alice_loads == [] and bob_loads == [] and carol_loads == [], (alice_loads, bob_loads, carol_loads)
    assert alice.evaluate("window.__marker") == 1 and bob.evaluate("window.__marker") == 1
    # Bob's moves came by pushed notices (the stream stayed open), each answered by the fragment it asked for.
    assert alice_polls.get("200", 0) >= 1, alice_polls
    assert alice.evaluate("document.documentElement.dataset.live") == "on"

    # The spectator's page stops polling once the game is over; it never offers a rematch.
    expect(carol.locator("#poll")).to_have_count(0)
    expect(carol.locator("#rematch-offer-button")).to_have_count(0)

    # Rematch: alice offers and bob declines: alice's page says so and no longer lets her ask.
    alice.locator("#rematch-offer-button").click()
    expect(alice.locator("#rematch-waiting")).to_be_visible()
    expect(bob.locator("#rematch-offer")).to_be_visible(timeout=LIVE_TIMEOUT)
    bob.locator("#rematch-decline").click()
    expect(bob.locator("#rematch-declined")).to_have_text("You declined the rematch.")
    expect(alice.locator("#rematch-declined")).to_have_text("Your opponent declined the rematch.", timeout=LIVE_TIMEOUT)
    expect(alice.locator("#rematch-offer-button")).to_have_count(0)
    expect(alice.locator("#rematch-withdraw")).to_have_count(0)
    # Bob changes his mind and offers one; alice sees it appear and accepts; sides are swapped.
    bob.locator("#rematch-offer-button").click()
    expect(bob.locator("#rematch-waiting")).to_be_visible()
    expect(alice.locator("#rematch-offer")).to_be_visible(timeout=LIVE_TIMEOUT)
    alice.locator("#rematch-accept").click()
    # (to_have_url, not wait_for_url: two answers may each lead to the new game, and one navigation aborts the other)
    expect(alice).to_have_url(re.compile(rf"/games/(?!{game_id}/)\d+/$"), timeout=LIVE_TIMEOUT)
    rematch = Game.objects.get(rematch_of_id=game_id)
    assert alice.url.endswith(f"/games/{rematch.pk}/")
    assert rematch.x_player.username == "bob" and rematch.o_player.username == "alice"
    expect(alice.locator("#board button[data-move]")).to_have_count(0)  # bob is X now

    # Bob's waiting page follows by itself to the new game.
    expect(bob).to_have_url(re.compile(rf"/games/{rematch.pk}/$"), timeout=LIVE_TIMEOUT)
    expect(bob.locator("#board button[data-move]")).to_have_count(9)
    bob.locator('#board button[data-move="4"]').click()
    expect_mark(alice, 4, "X")
    expect(alice.locator("#board button[data-move]")).to_have_count(8, timeout=LIVE_TIMEOUT)


def test_resign_shows_on_the_other_page_and_direct_challenge_link(new_context):
    alice, bob = (new_context().new_page() for _ in range(2))
    sign_up(alice, "alice")
    sign_up(bob, "bob")

    # A direct challenge to bob: private, listed for him; the link works for him.
    bob.goto("/rules/")
    expect(bob.locator("#challenge-count")).to_have_count(0)
    alice.goto("/")
    alice.locator(".challenge-form-box").evaluate("box => { box.open = true; }")
    alice.locator('#challenge-form input[name="invite"]').fill("bob")
    alice.locator("#challenge-form button[type=submit]").click()
    alice.wait_for_url(re.compile(r"/games/(\d+)/$"))
    expect(alice.locator("#players .pill-private")).to_be_visible()
    link = alice.locator("#share-link").input_value()

    # Bob, reading the rules, sees a badge appear in the navigation (its poll asks every 10 s); it leads to the lobby.
    expect(bob.locator("#challenge-count")).to_have_text(re.compile(r"^1"), timeout=15_000)
    bob.locator("#challenge-count").click()
    expect(bob).to_have_url(re.compile(r"/#lobby$"))
    expect(bob.locator("#challenges-for-me [data-challenge]")).to_have_count(1)
    bob.goto(link)
    bob.locator("#accept-challenge").click()
    expect(bob.locator("#resign")).to_be_visible()
    expect(alice.locator("#board button[data-move]")).to_have_count(9, timeout=LIVE_TIMEOUT)

    # Bob resigns while it is alice's turn; her page shows it without a reload.
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.locator("#resign").click()
    expect(bob.locator("#status")).to_contain_text("X wins (O resigned)")
    expect(alice.locator("#status")).to_contain_text("X wins (O resigned)", timeout=LIVE_TIMEOUT)
    expect(alice.locator("#board button[data-move]")).to_have_count(0)


def test_a_cancelled_challenge_leaves_nothing_to_accept(new_context, expected_http_errors):
    """Bob has alice's challenge open when she cancels it: his page says so, without its Accept button, and stops
    asking."""
    from games.services import challenge_cancel, challenge_create
    from players.models import Player

    bob = new_context().new_page()
    sign_up(bob, "bob")
    alice = Player.objects.create_user("alice", password="a-Str0ng-passphrase-42")
    game = challenge_create(player=alice, variant="classic", invitee=Player.objects.get(username="bob"))
    expected_http_errors.add((404, "GET", f"/games/{game.pk}/poll/"))
    # a stream that reconnects after the cancel (before the page has heard of it) is told the game is gone
    expected_http_errors.add((404, "GET", "/games/live/"))
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("#accept-challenge")).to_be_visible()
    polls = count_polls(bob)
    challenge_cancel(game=game, player=alice)
    expect(bob.locator("#status")).to_contain_text("no longer available", timeout=LIVE_TIMEOUT)
    expect(bob.locator("#accept-challenge")).to_have_count(0)
    expect(bob.locator("#poll")).to_have_count(0)
    bob.wait_for_timeout(2500)
    assert polls.get("404") == 1, polls  # asked once more, then stopped
    bob.get_by_role("link", name="Find another game").click()
    expect(bob).to_have_url(re.compile(r"/$"))


def test_a_draw_offer_declined_then_agreed_live(new_context):
    alice, bob = (new_context().new_page() for _ in range(2))
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    game_id = create_game(alice, "mnk", "human", side="X", rows=7, cols=7, k=5)
    bob.goto(f"/games/{game_id}/")
    bob.locator("#accept-challenge").click()
    expect(alice.locator("#draw-offer-button")).to_be_visible(timeout=LIVE_TIMEOUT)
    alice_loads, bob_loads = watch_navigations(alice), watch_navigations(bob)

    # Alice offers; bob's page shows it without a reload and he declines.
    alice.locator("#draw-offer-button").click()
    expect(alice.locator("#draw-waiting")).to_be_visible()
    expect(bob.locator("#draw-offer")).to_be_visible(timeout=LIVE_TIMEOUT)
    bob.locator("#draw-decline").click()
    expect(bob.locator("#draw")).to_contain_text("Draw declined")
    expect(alice.locator("#draw")).to_contain_text("Draw declined", timeout=LIVE_TIMEOUT)
    expect(alice.locator("#draw-offer-button")).to_have_count(0)

    # After a move, bob offers and alice agrees: both pages end the game drawn.
    alice.locator('#board button[data-move="24"]').click()
    expect(bob.locator("#draw-offer-button")).to_be_visible(timeout=LIVE_TIMEOUT)
    bob.locator("#draw-offer-button").click()
    expect(alice.locator("#draw-accept")).to_be_visible(timeout=LIVE_TIMEOUT)
    alice.locator("#draw-accept").click()
    expect(alice.locator("#status")).to_have_text("Draw (agreed)")
    expect(bob.locator("#status")).to_have_text("Draw (agreed)", timeout=LIVE_TIMEOUT)
    expect(bob.locator("#board button[data-move]")).to_have_count(0)
    assert alice_loads == [] and bob_loads == []  # every change came by htmx
    game = Game.objects.get(pk=game_id)
    assert (game.result, game.result_reason, game.ply) == ("draw", "agreed", 1)


def test_lobby_shows_challenges_as_they_come_and_go_without_a_reload(new_context, expected_http_errors):
    alice, bob = (new_context().new_page() for _ in range(2))
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    bob.goto("/")
    expect(bob.locator("#open-challenges-empty")).to_be_visible()
    bob.locator(".challenge-form-box summary").click()
    bob.locator("#challenge_invite").fill("carol")  # half-typed: the lobby's refresh must leave it alone
    bob_loads = watch_navigations(bob)

    game_id = create_game(alice, "classic", "human", side="X")
    # The lobby hears of it at once (pushed); allow for a slow machine.
    challenge = bob.locator(f'#open-challenges [data-challenge="{game_id}"]')
    expect(challenge).to_contain_text("alice", timeout=15_000)
    expect(bob.locator("#challenge_invite")).to_have_value("carol")

    # alice's own page may hear of the cancel before its answer takes her away: its last ask finds no game
    expected_http_errors.add((404, "GET", f"/games/{game_id}/poll/"))
    alice.locator("#cancel-challenge").click()
    expect(challenge).to_have_count(0, timeout=15_000)
    expect(bob.locator("#open-challenges-empty")).to_be_visible()
    assert bob_loads == []  # all of it without loading the page again


def test_the_lobby_refresh_keeps_the_keyboard_focus_on_its_button(new_context):
    """Bob is on the Accept of alice's challenge when carol's arrives and the lists are redrawn: the focus stays on
    that same challenge's button, not the first one, nor the top of the page."""
    from games.services import challenge_create
    from players.models import Player

    bob = new_context().new_page()
    sign_up(bob, "bob")
    alice, carol = (Player.objects.create_user(name, password="a-Str0ng-passphrase-42") for name in ("alice", "carol"))
    first = challenge_create(player=alice, variant="classic")
    bob.goto("/")
    bob.locator(f"#accept-{first.pk}").focus()
    second = challenge_create(player=carol, variant="four")
    expect(bob.locator(f"#accept-{second.pk}")).to_be_visible(timeout=15_000)
    bob.wait_for_function(f"() => document.activeElement && document.activeElement.id === 'accept-{first.pk}'")
    expect(bob.locator(f"#accept-{first.pk}")).to_have_attribute("aria-label", re.compile(r"^Accept alice's challenge"))


def test_lobby_does_not_poll_from_a_hidden_tab(new_context):
    """With the push down (its stream refused here), the lobby polls, but only while its tab is in view."""
    page = new_context().new_page()
    page.route("**/games/live/**", lambda route: route.abort())
    sign_up(page, "erin")
    asked: list[str] = []
    page.on("request", lambda request: "/games/lobby/" in request.url and asked.append(request.url))
    page.goto("/")
    page.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    asked.clear()
    page.wait_for_timeout(6_000)  # longer than the 5 s between polls: a visible tab would have asked
    assert asked == []
    page.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false})")
    with page.expect_request(lambda request: "/games/lobby/" in request.url, timeout=15_000):
        pass


def test_a_page_refused_its_stream_polls_and_opens_it_later(new_context, settings, expected_http_errors):
    """A server holding all the streams it may answers 503: EventSource gives up, so the page asks again itself
    (after about LIVE_RETRY_MS), polling meanwhile."""
    settings.LIVE_RETRY_MS = 400
    expected_http_errors.add((503, "GET", "/games/live/"))
    page = new_context().new_page()
    refused: list[str] = []

    def once_full(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "30"}, body="Too many live pages")
        else:
            route.continue_()

    page.route("**/games/live/**", once_full)
    sign_up(page, "erin")
    expect(page.locator("html[data-live=on]")).to_have_count(1, timeout=15_000)
    assert len(refused) == 1


def test_a_move_reaches_the_other_page_by_push_or_by_polling_when_the_push_is_down(new_context):
    """Two players; the second one's push stream is refused: their page still gets every move, by its polls."""
    from games.services import challenge_accept, challenge_create
    from players.models import Player

    alice_page, bob_page = new_context().new_page(), new_context().new_page()
    bob_page.route("**/games/live/**", lambda route: route.abort())
    sign_up(alice_page, "alice")
    sign_up(bob_page, "bob")
    alice, bob = Player.objects.get(username="alice"), Player.objects.get(username="bob")
    game = challenge_accept(game=challenge_create(player=alice, variant="classic", side="X"), player=bob)
    for page in (alice_page, bob_page):
        page.goto(f"/games/{game.pk}/")
    expect(alice_page.locator("html[data-live=on]")).to_have_count(1)  # alice's stream is open
    alice_page.locator('#board [data-move="4"]').click()
    expect(bob_page.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X", timeout=LIVE_TIMEOUT)
    # bob's move reaches alice's page by push: how long from bob's click to the mark on alice's board
    alice_page.evaluate("""() => new Promise(resolve => {
        window.__seen = null;
        new MutationObserver(() => {
            const cell = document.querySelector('#board [data-cell="0"]');
            if (cell && cell.dataset.mark === "O" && window.__seen === null) { window.__seen = Date.now(); }
        }).observe(document.body, {subtree: true, childList: true, attributes: true});
        resolve();
    })""")
    clicked = bob_page.evaluate("Date.now()")
    bob_page.locator('#board [data-move="0"]').click()
    expect(alice_page.locator('#board [data-cell="0"]')).to_have_attribute("data-mark", "O", timeout=LIVE_TIMEOUT)
    latency = alice_page.evaluate("window.__seen") - clicked
    print(f"\nlive: bob's move reached alice's page {latency} ms after his click (push)")
    assert latency < 1000  # a poll a second was the old way; the push brings it well within that
    assert bob_page.evaluate("document.documentElement.dataset.live") != "on"  # bob's came by polling


@pytest.fixture
def duel_in_browsers(new_context):
    """Alice (X, to move) and Bob, signed in in two browsers, with a game between them."""
    from games.services import challenge_accept, challenge_create
    from players.models import Player

    alice, bob = (new_context().new_page() for _ in range(2))
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    game = challenge_create(player=Player.objects.get(username="alice"), variant="classic", side="X")
    return alice, bob, challenge_accept(game=game, player=Player.objects.get(username="bob"))


def test_the_your_turn_badge_follows_moves_without_a_reload(duel_in_browsers, monkeypatch):
    """The badge's timed poll is set far away: what changes it here is the nudge in the move's own answer
    (HX-Trigger) and the tab coming back into view."""
    monkeypatch.setattr("games.templatetags.games_nav.MY_TURN_POLL", "600s")
    alice, bob, game = duel_in_browsers
    alice.goto(f"/games/{game.pk}/")
    bob.goto("/rules/")
    expect(alice.locator("#my-turn-count")).to_have_text(re.compile(r"^1"))
    expect(bob.locator("#my-turn-count")).to_have_count(0)
    loads = watch_navigations(alice)

    alice.locator('#board [data-move="4"]').click()
    expect_mark(alice, 4, "X")
    expect(alice.locator("#my-turn-count")).to_have_count(0, timeout=LIVE_TIMEOUT)

    bob.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(bob.locator("#my-turn-count")).to_have_text(re.compile(r"^1"), timeout=LIVE_TIMEOUT)
    bob.locator("#my-turn-count").click()
    bob.wait_for_url(re.compile(r"result=your_turn"))
    expect(bob.locator(f'[data-game="{game.pk}"]')).to_contain_text("Your turn")
    assert loads == []


def test_the_your_turn_badge_polls_on_any_page(duel_in_browsers, monkeypatch):
    from games.services import move_play
    from players.models import Player

    monkeypatch.setattr("games.templatetags.games_nav.MY_TURN_POLL", "1s")
    alice, bob, game = duel_in_browsers
    bob.goto("/leaderboard/")
    expect(bob.locator("#my-turn")).to_be_attached()
    expect(bob.locator("#my-turn-count")).to_have_count(0)
    move_play(game=game, player=Player.objects.get(username="alice"), move=0)  # from elsewhere (the API, say)
    expect(bob.locator("#my-turn-count")).to_have_text(re.compile(r"^1"), timeout=LIVE_TIMEOUT)


def test_a_background_tab_says_your_turn_in_its_title(duel_in_browsers, monkeypatch):
    from games.services import move_play
    from players.models import Player

    monkeypatch.setattr("games.web.presenters.play.POLL_HIDDEN", "1s")
    alice, bob, game = duel_in_browsers
    bob.goto(f"/games/{game.pk}/")
    expect(bob).to_have_title(re.compile(rf"^Game {game.pk} · "))
    bob.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    move_play(game=game, player=Player.objects.get(username="alice"), move=4)
    expect(bob).to_have_title(re.compile(rf"^Your turn · Game {game.pk} · "), timeout=LIVE_TIMEOUT)
    expect_mark(bob, 4, "X")

    bob.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false})")
    bob.locator('#board [data-move="0"]').click()
    expect_mark(bob, 0, "O")
    expect(bob).to_have_title(re.compile(rf"^Game {game.pk} · "))


def test_my_games_table_follows_my_games_without_a_reload(duel_in_browsers, monkeypatch):
    from games.services import move_play
    from players.models import Player

    monkeypatch.setattr("games.web.presenters.lobby.LOBBY_POLL", "1s")
    alice, bob, game = duel_in_browsers
    alice.goto("/games/")
    row = alice.locator(f'#history tr[data-game="{game.pk}"]')
    expect(row).to_contain_text("Your turn")
    loads = watch_navigations(alice)
    move_play(game=game, player=Player.objects.get(username="alice"), move=4)  # from another tab, say
    expect(row).to_contain_text("Their turn", timeout=LIVE_TIMEOUT)
    expect(row).to_contain_text("1")  # moves
    move_play(game=game, player=Player.objects.get(username="bob"), move=0)
    expect(row).to_contain_text("Your turn", timeout=LIVE_TIMEOUT)
    expect(alice.locator("#my-turn-count")).to_have_text(re.compile(r"^1"))
    assert loads == []


def test_the_default_of_who_may_watch_follows_the_named_player_as_it_is_typed(new_context):
    page = new_context().new_page()
    sign_up(page, "alice")
    page.goto("/games/new/")
    default = page.locator('#id_visibility option[value=""]')
    expect(default).to_have_text("Default: anyone")
    page.locator('input[name="opponent"][value="human"]').check()
    page.locator('input[name="invite"]').fill("bob")
    expect(default).to_have_text("Default: the two players")
    page.locator('input[name="opponent"][value="easy"]').check()  # the invitation is no longer part of the game
    expect(default).to_have_text("Default: anyone")
    page.locator('input[name="opponent"][value="human"]').check()
    expect(default).to_have_text("Default: the two players")
    page.locator('input[name="invite"]').fill("  ")
    expect(default).to_have_text("Default: anyone")
    # on one screen, and watching two computers, there is no side to choose
    side = page.get_by_role("group", name="Your side")
    expect(side).to_be_visible()
    for opponent, shown in (("local", False), ("watch", False), ("hard", True)):
        page.locator(f'input[name="opponent"][value="{opponent}"]').check()
        if shown:
            expect(side).to_be_visible()
        else:
            expect(side).to_be_hidden()
    # the lobby's challenge form too
    page.goto("/")
    page.locator(".challenge-form-box").evaluate("box => { box.open = true; }")
    default = page.locator('#challenge-form select[name="visibility"] option[value=""]')
    page.locator('#challenge-form input[name="invite"]').fill("bob")
    expect(default).to_have_text("Default: the two players")


def test_a_name_nobody_has_is_shown_in_view_on_a_phone(new_context, expected_http_errors):
    expected_http_errors.add((400, "POST", "/games/new/"))  # the form sent back with its error
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_up(page, "dana")
    page.goto("/games/new/")
    page.locator('input[name="opponent"][value="human"]').check()
    page.locator('input[name="invite"]').fill("elii")
    page.locator("#new-game-form button[type=submit]").click()
    invite = page.locator('input[name="invite"]')
    expect(invite).to_be_focused()
    expect(invite).to_be_in_viewport()
    expect(page.get_by_text("There is no player called")).to_be_in_viewport()


def test_a_poll_crossing_a_move_leaves_no_htmx_error(duel_in_browsers):
    """A live poll asked just before a move, answered after the move's answer has replaced #play: the late answer
    is dropped, not swapped into the detached part (htmx:oobErrorNoTarget for #players and #announce)."""
    alice, _bob, game = duel_in_browsers
    errors: list[str] = []
    alice.on("console", lambda message: message.type == "error" and errors.append(message.text))
    alice.goto(f"/games/{game.pk}/")
    held = []
    alice.route("**/poll/**", lambda route: held.append(route))
    alice.evaluate("""() => {
      window.__pollDone = false;
      document.getElementById('poll').addEventListener('htmx:afterOnLoad', () => { window.__pollDone = true; });
      document.body.dispatchEvent(new CustomEvent('live-game'));
    }""")
    alice.wait_for_function("() => document.querySelector('#poll.htmx-request') !== null")
    alice.locator('#board button[data-move="4"]').click()
    expect_mark(alice, 4, "X")
    assert held  # the poll asked before the move (a timed poll may have joined it on a slow machine)
    for route in held:
        route.continue_()
    alice.wait_for_function("() => window.__pollDone")
    alice.unroute("**/poll/**")
    assert not [text for text in errors if text.startswith("htmx:")], errors
    expect(alice.locator("#status")).to_contain_text("Waiting for bob")
