"""Fixtures of the real-browser tests (the helpers are in tests/browser/__init__.py).

One Chromium (Debian's, /usr/bin/chromium) per test session, a fresh context and page per test, pointed
at pytest-django's ``live_server`` (which serves static files through staticfiles' handler).

Every page opened through these fixtures is watched: an uncaught JavaScript error or an HTTP error
response (4xx/5xx; the site declares its icon, so not even /favicon.ico) fails the test at teardown, so a
broken htmx swap or a missing stylesheet cannot pass unnoticed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

# Playwright's sync API runs an asyncio event loop in the test's own thread (its calls are greenlet
# switches into that loop). Django sees a running loop in the thread and refuses every ORM call made
# there (SynchronousOnlyOperation): the tests' own setup (creating a staff user, reading games back)
# and pytest-django's database flush after each test. Nothing here is really asynchronous: the test
# code never runs concurrently with a coroutine in that thread, so the check is a false alarm and
# this switch is Django's documented way to turn it off. It is read on every call, and the browser
# stays up for the rest of the session, so it is set for the whole run, not just these tests.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",  # the tests run as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # The machine has no network: without these Chromium's own background connections are refused
    # and it keeps retrying them.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: htmx's console errors of an answer that could not be put in place
HTMX_SWAP_ERRORS = ("htmx:oobErrorNoTarget", "htmx:targetError", "htmx:swapError", "htmx:onLoadError")

# Milliseconds, for clicks, page loads and expect(): a local server answers in well under a second.
ACTION_TIMEOUT = 10_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this directory is a browser test, whether or not its module says so."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install it with `make chromium` (apt-get install chromium)", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def task_worker(transactional_db) -> Iterator[subprocess.Popen[str]]:
    """A real task worker (``manage.py worker``, another process) on the test database, for one test: the
    computer's slow moves, hints and watched games are played by it, as on the site. Stopped before the test's
    database is emptied (it depends on ``transactional_db``, so it ends first): on PostgreSQL its queries would
    otherwise deadlock with the TRUNCATE."""
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        url = f"sqlite:///{db['NAME']}"
    else:
        url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DATABASE_URL=url, DJANGO_DEBUG="1", TASK_SWEEP_GRACE="2", DJANGO_ARENA_SCHEDULE="0",
               DJANGO_COMPUTER_PONDER_SECONDS="0")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--nice", "0", "--interval", "0.05", "--sweep-every", "1"],
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        text=True,
    )
    yield worker
    worker.kill()  # nothing to finish cleanly: the test is over, and its database is emptied next
    worker.wait(10)


@pytest.fixture
def expected_http_errors() -> set[tuple[int, str, str]]:
    """(status, method, path) answers a test expects, e.g. (400, "POST", "/accounts/login/") for a wrong
    password: every other answer of 400 or more fails the test."""
    return set()


@pytest.fixture
def new_context(
    browser: Browser, live_server, transactional_db, expected_http_errors, task_worker
) -> Iterator[Callable[..., BrowserContext]]:
    """A factory of browser contexts (separate cookie jars) on the live server, all closed and checked
    at teardown. Keyword arguments go to ``Browser.new_context`` (e.g. ``java_script_enabled=False``)."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def watch_console(page: Page, message) -> None:
        # the Content-Security-Policy refuses inline scripts, handlers and eval: any refusal is a broken page
        if message.type == "error" and "Content Security Policy" in message.text:
            problems.append(f"CSP violation on {page.url}: {message.text}")
        # htmx's own errors of a swap gone wrong (an answer's part with no place on the page)
        if message.type == "error" and message.text.startswith(HTMX_SWAP_ERRORS):
            problems.append(f"htmx error on {page.url}: {message.text}")

    def watch_page(page: Page) -> None:
        page.on("pageerror", lambda error: problems.append(f"JavaScript error on {page.url}: {error}"))
        page.on("console", lambda message: watch_console(page, message))

    def watch_response(response) -> None:
        expected = (response.status, response.request.method, urlsplit(response.url).path) in expected_http_errors
        if response.status >= 400 and not expected:
            problems.append(f"HTTP {response.status} {response.request.method} {response.url}")

    def make(**kwargs) -> BrowserContext:
        context = browser.new_context(base_url=live_server.url, **kwargs)
        context.set_default_timeout(ACTION_TIMEOUT)
        context.on("page", watch_page)
        context.on("response", watch_response)
        contexts.append(context)
        return context

    expect.set_options(timeout=ACTION_TIMEOUT)
    yield make
    for context in contexts:
        context.close()
    assert not problems, "the browser saw errors:\n" + "\n".join(problems)


@pytest.fixture
def context(new_context) -> BrowserContext:
    return new_context()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
