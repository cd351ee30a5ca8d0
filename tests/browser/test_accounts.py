"""Accounts in a real browser: sign up through the form and land signed in; log out and back in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.services import challenge_accept, challenge_create
from players.models import Player
from tests.browser import PASSWORD, log_in, sign_up

pytestmark = pytest.mark.browser


def test_sign_up_through_the_form_lands_signed_in(page: Page):
    sign_up(page, "alice")

    expect(page).to_have_url(re.compile(r"/games/new/$"))
    expect(page.locator("body")).to_contain_text("alice")
    assert Player.objects.get(username="alice").check_password(PASSWORD)
    # Signed in: a login-required page opens instead of sending us to the login form.
    page.goto("/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/players/alice/$"))


def test_pages_are_styled_by_our_own_stylesheet(page: Page):
    page.goto("/accounts/login/")
    hrefs = page.locator('link[rel="stylesheet"]').evaluate_all("links => links.map(link => link.href)")
    own = [href for href in hrefs if "/static/" in href]
    assert own, f"no stylesheet of our own under /static/ in {hrefs}"
    for href in own:
        response = page.request.get(href)
        assert response.ok, f"{href}: HTTP {response.status}"
        assert "text/css" in response.headers["content-type"]
    # The browser really applied it: the stylesheet parsed into rules.
    rules = page.evaluate(
        """() => [...document.styleSheets]
            .filter(sheet => sheet.href && sheet.href.includes('/static/'))
            .reduce((total, sheet) => total + sheet.cssRules.length, 0)"""
    )
    assert rules > 0


def test_log_out_and_log_back_in_to_the_page_asked_for(page: Page):
    sign_up(page, "bob")
    page.locator('form[action$="/accounts/logout/"] button, form[action$="/accounts/logout/"] [type="submit"]').click()
    # the logout's own answer and the page's pushed "signed out" both lead to the login form: let both land
    page.wait_for_url(re.compile(r"/accounts/login/"))
    page.wait_for_load_state("networkidle")
    page.goto("/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))

    page.fill('input[name="username"]', "bob")
    page.fill('input[name="password"]', PASSWORD)
    page.locator('form:has(input[name="password"]) button[type="submit"]').click()
    expect(page).to_have_url(re.compile(r"/players/bob/$"))


def test_wrong_password_stays_on_the_login_form(page: Page, expected_http_errors):
    expected_http_errors.add((400, "POST", "/accounts/login/"))  # the form again, with its error
    Player.objects.create_user("carol", password=PASSWORD)
    page.goto("/accounts/login/")
    page.fill('input[name="username"]', "carol")
    page.fill('input[name="password"]', "not-the-password")
    page.locator('form:has(input[name="password"]) button[type="submit"]').click()
    expect(page.locator('[role="alert"]')).to_be_visible()
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    log_in(page, "carol")
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


NO_PUSH = "delete window.EventSource;"  # as on a browser or a network that keeps no stream open: the timed polls work


def test_a_session_ended_the_open_lobby_goes_to_the_login_page_and_back(page: Page):
    page.context.add_init_script(NO_PUSH)
    sign_up(page, "dave")
    page.goto("/")
    expect(page.locator("#lobby-live")).to_be_visible()
    page.context.clear_cookies()  # as if the session ended

    # The lobby's next poll (every 5 s) finds no session: the whole page goes to the login form,
    # rather than the login form being swapped into the lobby.
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=%2F$"), timeout=15_000)
    expect(page.locator("#lobby-live")).to_have_count(0)
    page.fill('input[name="username"]', "dave")
    page.fill('input[name="password"]', PASSWORD)
    page.locator('form:has(input[name="password"]) button[type="submit"]').click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("#lobby-live")).to_be_visible()


def test_logging_out_in_another_tab_sends_the_open_lobby_to_the_login_page_at_once(page: Page):
    sign_up(page, "dora")
    page.goto("/")
    expect(page.locator("#lobby-live")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-live", "on")  # the push is open: timed polls stand down

    other = page.context.new_page()
    other.goto("/leaderboard/")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_url(lambda url: "/leaderboard/" not in url)

    # The logout is pushed to the player's other pages, which ask, find no session and go to the login form
    # (without the push they would wait for their safety-net poll, tens of seconds away).
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=%2F$"), timeout=5_000)


def test_forgotten_password_reset_by_email_link(page: Page):
    from django.core import mail

    Player.objects.create_user("dora", password=PASSWORD, email="dora@example.com")
    page.goto("/accounts/login/")
    page.click("#forgot-password")
    page.fill('input[name="email"]', "dora@example.com")
    page.locator('form:has(input[name="email"]) button[type="submit"]').click()
    expect(page.locator("#reset-sent")).to_contain_text("Check your email")

    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/reset/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    new_password = "A-brand-new-passphrase-7"
    page.fill('input[name="new_password1"]', new_password)
    page.fill('input[name="new_password2"]', new_password)
    page.locator('form:has(input[name="new_password2"]) button[type="submit"]').click()
    expect(page.locator("#reset-complete")).to_be_visible()

    page.click("#reset-complete a")
    page.fill('input[name="username"]', "dora")
    page.fill('input[name="password"]', new_password)
    page.locator('form:has(input[name="password"]) button[type="submit"]').click()
    page.wait_for_url(lambda url: "/login/" not in url)
    expect(page.locator("body")).to_contain_text("dora")


def _luminance(page: Page, selector: str) -> float:
    """Relative luminance (0 black .. 1 white) of an element's computed background colour."""
    return page.locator(selector).first.evaluate(
        """element => {
          const [r, g, b] = getComputedStyle(element).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number);
          const lin = c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
        }"""
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_follow_the_systems_light_or_dark_setting(new_context, scheme):
    page = new_context(color_scheme=scheme).new_page()
    sign_up(page, f"{scheme}-player")
    page.goto("/games/new/")
    page.locator('input[name="opponent"][value="local"]').check()
    page.locator('form:has([name="variant"]) button[type="submit"]').click()
    expect(page.locator("#board")).to_be_visible()
    page_bg, card_bg, cell_bg = (_luminance(page, s) for s in ("html", ".seat-bar", "#board .cell"))
    text = page.locator("#status").evaluate("e => getComputedStyle(e).color")
    if scheme == "dark":
        assert page_bg < 0.05 and card_bg < 0.05 and cell_bg < 0.05, (page_bg, card_bg, cell_bg)
        assert text != "rgb(29, 35, 48)"  # not the light theme's ink on a dark page
    else:
        assert page_bg > 0.8 and card_bg > 0.8 and cell_bg > 0.8, (page_bg, card_bg, cell_bg)

    # The API's docs (django-ninja's Swagger UI, with the site's bar) follow the same setting, and lead back.
    page.goto("/api/docs")
    expect(page.locator(".opblock").first).to_be_visible()
    expect(page.locator("html")).to_have_class(re.compile(r"\bdark-mode\b") if scheme == "dark" else "")
    docs_bg = _luminance(page, "body")
    assert docs_bg < 0.05 if scheme == "dark" else docs_bg > 0.8, docs_bg
    page.locator("#api-home").click()
    expect(page).to_have_url(re.compile(r"/$"))


LONG_NAME = "maximilian.von.der.grossen-schachbrett"  # 38 characters; usernames may have 150


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_a_long_username_keeps_the_navigation_on_one_line(new_context, width):
    """With the your-turn badge too: a phone shows the player's initial, a computer the name cut short; the
    link keeps the whole name for screen readers and as its tooltip."""
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    sign_up(page, LONG_NAME)
    rival = Player.objects.create_user("bo", password=PASSWORD)
    challenge_accept(game=challenge_create(player=rival, variant="classic", options={}, side="O"),
                     player=Player.objects.get(username=LONG_NAME))
    challenge_create(player=rival, variant="four", invitee=LONG_NAME)  # the challenges' badge as well
    page.goto("/games/")
    expect(page.locator("#my-turn-count")).to_have_text(re.compile(r"^1"))
    expect(page.locator("#challenge-count")).to_have_text(re.compile(r"^1"))
    # the leaderboard's link: "Ranks" on a phone, its whole name for screen readers everywhere
    expect(page.get_by_role("link", name="Leaderboard", exact=True)).to_have_attribute("href", "/leaderboard/")
    expect(page.locator("#nav-leaderboard .nav-short" if width < 480 else "#nav-leaderboard .nav-long")).to_be_visible()
    # and "Games" for "My games" on a phone, "Study" for the analysis board
    expect(page.get_by_role("link", name="My games", exact=True)).to_have_attribute("href", "/games/")
    expect(page.locator("#nav-history .nav-tiny" if width < 480 else "#nav-history .nav-tiny-long")).to_be_visible()
    expect(page.get_by_role("link", name="Analysis", exact=True)).to_have_attribute("href", "/analysis/")
    expect(page.locator("#nav-analysis .nav-short" if width < 480 else "#nav-analysis .nav-long")).to_be_visible()

    link = page.get_by_role("link", name=LONG_NAME, exact=True)
    expect(link).to_have_attribute("href", f"/players/{LONG_NAME}/")
    expect(link).to_have_attribute("title", f"{LONG_NAME}: your profile")
    middles = page.locator(".nav-links:not(.nav-account) > li").evaluate_all(
        "items => items.map(item => { const box = item.getBoundingClientRect(); return box.top + box.height / 2; })"
    )
    assert len(middles) == 4 and max(middles) - min(middles) < 4, middles  # one row
    account = page.locator(".nav-account > li").evaluate_all(
        "items => items.map(item => { const box = item.getBoundingClientRect(); return box.top + box.height / 2; })"
    )
    brand = page.locator(".brand").evaluate("e => e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2")
    assert len(account) == 2 and max(account) - min(account) < 4, account  # the profile and Log out, side by side
    if width < 480:  # beside the brand, above the links
        assert abs(account[0] - brand) < 8 and account[0] < min(middles), (account, brand, middles)
    else:  # all on one line
        assert abs(account[0] - middles[0]) < 4, (account, middles)
    if width < 480:
        expect(page.locator("#nav-user .nav-initial")).to_have_text("M")
        expect(page.locator("#nav-user .nav-initial")).to_be_visible()
    else:
        expect(page.locator("#nav-user .nav-initial")).to_be_hidden()
        name = page.locator("#nav-user .nav-username")
        assert name.evaluate("e => e.scrollWidth > e.clientWidth")  # cut short, with an ellipsis
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
