"""Accessibility: axe-core (the engine browsers' own audits use, bundled by axe-playwright-python) checks every
kind of page the site has, in light and dark colours, on a desktop and a phone screen, after the htmx swaps
that change them. Any violation (contrast, a control without a name, a duplicate id, a missing landmark...)
fails the test with axe's own report of what and where."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser import create_game, play, play_to_end, sign_up

pytestmark = pytest.mark.browser

AXE = Axe()

SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def violations(page: Page) -> list[str]:
    """axe's findings on the page as it is now, one line per rule and element."""
    found = AXE.run(page).response["violations"]
    return [
        f"{page.url}: {v['id']} ({v['impact']}): {v['help']} at {', '.join(node['target'])}: "
        f"{node.get('failureSummary', '').replace(chr(10), ' ')}"
        for v in found
        for node in v["nodes"]
    ]


def dangling_references(page: Page) -> list[str]:
    """aria-describedby, aria-labelledby, aria-controls and label for= naming an id the page does not have: axe
    lets these pass when any one of the ids exists, but a screen reader then skips the help or the error."""
    return page.evaluate(
        r"""() => {
          const found = [];
          const names = ['aria-describedby', 'aria-labelledby', 'aria-controls', 'for'];
          for (const el of document.querySelectorAll(names.map(name => `[${name}]`).join(', '))) {
            for (const name of names) {
              for (const id of (el.getAttribute(name) || '').split(/\s+/).filter(Boolean)) {
                const what = `${el.tagName.toLowerCase()}#${el.id} ${name}="${id}"`;
                if (!document.getElementById(id)) found.push(`${what}: no such id`);
              }
            }
          }
          return found;
        }"""
    )


class Audit:
    """Collects axe's findings over a walk through the site, so that one test reports every page at once."""

    def __init__(self) -> None:
        self.pages: list[str] = []
        self.problems: list[str] = []

    def __call__(self, page: Page, what: str) -> None:
        self.pages.append(what)
        self.problems += [f"[{what}] {line}" for line in violations(page)]
        self.problems += [f"[{what}] {page.url}: {line}" for line in dangling_references(page)]


@pytest.fixture
def audited(new_context) -> Callable[[str, str], BrowserContext]:
    def make(scheme: str, screen: str) -> BrowserContext:
        return new_context(color_scheme=scheme, viewport=SCREENS[screen], has_touch=screen == "phone")

    return make


def test_the_checker_finds_a_violation_when_there_is_one(page: Page):
    """The audit is not vacuous: the same call reports an unlabelled button and poor contrast."""
    page.goto("/accounts/login/")
    assert violations(page) == []
    page.evaluate(
        """() => {
          const main = document.querySelector('main');
          main.insertAdjacentHTML('beforeend',
            '<button id="nameless"></button><p id="faint" style="color:#bbb;background:#fff">faint</p>');
        }"""
    )
    found = "\n".join(violations(page))
    assert "button-name" in found and "#nameless" in found
    assert "color-contrast" in found and "#faint" in found


@pytest.mark.parametrize(("scheme", "screen"), [("light", "desktop"), ("dark", "desktop"), ("light", "phone"),
                                                ("dark", "phone")])
def test_every_page_passes_axe(audited, scheme: str, screen: str, expected_http_errors):
    audit = Audit()
    expected_http_errors.update(
        {(400, "POST", "/accounts/login/"), (400, "POST", "/games/new/"), (404, "GET", "/games/999999/"),
         # more pages opened in a row than one account may hold live streams (12): the last fall back to polling
         (429, "GET", "/games/live/")}
    )

    visitor = audited(scheme, screen).new_page()
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/rules/"):
        visitor.goto(path)
        audit(visitor, f"visitor {path}")
    visitor.goto("/accounts/login/")
    visitor.fill('input[name="username"]', "nobody")
    visitor.fill('input[name="password"]', "not-the-password")
    visitor.locator('form:has(input[name="password"]) button[type="submit"]').click()
    expect(visitor.locator(".errorlist, .form-errors, [role=alert]").first).to_be_visible()
    audit(visitor, "login refused")

    page = audited(scheme, screen).new_page()
    sign_up(page, "ada")
    # A finished classic game (the winning line or a draw shown), then its replay with the analysis.
    create_game(page, "classic", "easy")
    audit(page, "classic, first move")
    play_to_end(page, max_moves=5)
    audit(page, "classic, finished")
    page.locator("#replay-link").click()
    expect(page.locator("#replay")).to_be_visible()
    audit(page, "replay")
    page.keyboard.press("Home")
    audit(page, "replay, first step")

    # The bigger boards: 15 x 15 with coordinates, the nested boards, the hint and take back controls.
    create_game(page, "mnk", "easy", rows=15, cols=15, k=5)  # a computer that answers in the request
    play(page, 112)
    audit(page, "m,n,k 15 x 15")
    create_game(page, "ultimate", "easy")
    play(page, 40)
    audit(page, "ultimate")
    if page.locator("#hint-button").count():
        page.locator("#hint-button").click()
        expect(page.locator("#hint")).to_be_visible()
        audit(page, "ultimate with a hint")
    create_game(page, "multi", "local")
    play(page, replies=0)
    audit(page, "multi, two on one screen")

    # An open challenge, seen by its maker and, in the lobby, by another player who accepts it.
    create_game(page, "classic", "human")
    audit(page, "challenge, its maker")
    other = audited(scheme, screen).new_page()
    sign_up(other, "grace")
    other.goto("/games/lobby/")
    audit(other, "lobby")
    other.locator("button[data-accept]").first.click()
    expect(other.locator("#board")).to_be_visible()
    audit(other, "two players, after accepting")

    # A form sent back with errors: each error is tied to its field (aria-describedby, aria-invalid).
    page.goto("/games/new/")
    form = page.locator('form:has([name="variant"])')
    form.locator('[name="variant"]').select_option("nxn")
    form.locator('[name="size"]').fill("99")
    form.locator('button[type="submit"]').first.click()
    expect(page.locator("#id_size")).to_have_attribute("aria-invalid", "true")
    audit(page, "new game refused")

    for path in ("/", "/games/", "/games/new/", "/leaderboard/", "/players/ada/", "/players/grace/", "/analysis/",
                 "/accounts/password_change/", "/games/999999/"):
        page.goto(path)
        audit(page, f"player {path}")

    assert len(audit.pages) >= 20
    assert not audit.problems, f"{len(audit.problems)} accessibility problems:\n" + "\n".join(audit.problems)
