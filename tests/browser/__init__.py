"""Real-browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

This module holds the helpers the tests share (fixtures live in conftest.py). They go through the real
forms and the web contract of DESIGN.md: sign up, log in, start a game, click cells, wait for the board.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

PASSWORD = "a-Str0ng-passphrase-42"
FINAL_RESULTS = ("X wins", "O wins", "Draw")
FINAL_RESULT_RE = re.compile("X wins|O wins|Draw")
GAME_URL_RE = re.compile(r"/games/(\d+)/$")

# Milliseconds: the longest wait is a computer reply ("hard" on classic), far below this.
SETTLE_TIMEOUT = 20_000


# --- accounts -------------------------------------------------------------------------------------


def _submit(page: Page, form_selector: str) -> None:
    page.locator(form_selector).locator('button[type="submit"], input[type="submit"]').first.click()


def sign_up(page: Page, username: str, password: str = PASSWORD) -> None:
    """Create an account through the sign-up form; the browser ends up signed in on the next page."""
    page.goto("/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', password)
    page.fill('input[name="password2"]', password)
    _submit(page, 'form:has(input[name="password2"])')
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)


def log_in(page: Page, username: str, password: str = PASSWORD, *, path: str = "/accounts/login/") -> None:
    """Log in through a login form (the site's, or the admin's with ``path="/admin/login/"``)."""
    page.goto(path)
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', password)
    _submit(page, 'form:has(input[name="password"])')
    page.wait_for_url(lambda url: "/login/" not in url)


# --- games ----------------------------------------------------------------------------------------


def _set_field(form, name: str, value: object) -> None:
    field = form.locator(f'[name="{name}"]')
    first = field.first
    kind = first.evaluate("e => e.tagName.toLowerCase() === 'input' ? (e.type || 'text') : e.tagName.toLowerCase()")
    if kind == "select":
        first.select_option(str(value))
    elif kind == "radio":
        form.locator(f'[name="{name}"][value="{value}"]').check()
    elif kind == "checkbox":
        first.set_checked(bool(value))
    else:
        first.fill(str(value))


def create_game(page: Page, variant: str, opponent: str, side: str = "X", **options: object) -> int:
    """Start a game through the /games/new/ form; returns its id, with the browser on the game page."""
    page.goto("/games/new/")
    form = page.locator('form:has([name="variant"])')
    _set_field(form, "variant", variant)
    for name, value in options.items():
        _set_field(form, name, value)
    _set_field(form, "opponent", opponent)
    _set_field(form, "side", side)
    _submit(page, 'form:has([name="variant"])')
    page.wait_for_url(GAME_URL_RE)
    expect(page.locator("#board")).to_be_visible()
    match = GAME_URL_RE.search(page.url)
    assert match, page.url
    return int(match.group(1))


def mark_count(page: Page) -> int:
    return page.locator('#board [data-cell][data-mark="X"], #board [data-cell][data-mark="O"]').count()


def status_text(page: Page) -> str:
    return page.locator("#status").inner_text().strip()


def is_finished(page: Page) -> bool:
    return any(result in status_text(page) for result in FINAL_RESULTS)


# True once the board holds at least `target` marks and it is the player's turn again (a playable
# cell is there), or the game is over. The computer's reply may arrive in a second htmx request, so
# "my own mark is shown" is not yet "settled".
_SETTLED_JS = """([target, finals]) => {
  const status = document.getElementById('status');
  if (status && finals.some(result => status.textContent.includes(result))) return true;
  const board = document.getElementById('board');
  if (!board) return false;
  const marks = board.querySelectorAll('[data-cell][data-mark="X"], [data-cell][data-mark="O"]').length;
  // ...and htmx has processed the new board: a click before that would submit the plain way.
  return marks >= target && board.querySelector('button[data-move]:not([disabled])') !== null &&
    !document.querySelector('.htmx-swapping, .htmx-settling');
}"""


def wait_settled(page: Page, target_marks: int, timeout: float = SETTLE_TIMEOUT) -> None:
    page.wait_for_function(_SETTLED_JS, arg=[target_marks, list(FINAL_RESULTS)], timeout=timeout)


def play(page: Page, move: int | None = None, *, replies: int = 1) -> int:
    """Click a playable cell (the first one unless `move` is given) and wait until the board settles:
    the player's mark and `replies` answering marks are shown and a cell is playable again, or the
    game is over. Returns the move clicked."""
    before = mark_count(page)
    button = page.locator("#board button[data-move]:not([disabled])")
    button = button.first if move is None else page.locator(f'#board button[data-move="{move}"]')
    clicked = int(button.get_attribute("data-move"))
    button.click()
    wait_settled(page, before + 1 + replies)
    return clicked


def play_to_end(page: Page, max_moves: int = 81) -> str:
    """Click the first playable cell until the game is over; returns the final status text."""
    for _ in range(max_moves):
        if is_finished(page):
            break
        play(page)
    expect(page.locator("#status")).to_contain_text(FINAL_RESULT_RE)
    expect(page.locator("#board button[data-move]")).to_have_count(0)
    return status_text(page)
