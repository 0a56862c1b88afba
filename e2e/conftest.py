"""Browser tests: Debian's Chromium driven by Playwright against the built site.

The site is built once per run and served from a sub-path (``/card-table/``) on
127.0.0.1, as GitHub Pages serves a project site. Every page fails its test on a console
error, an uncaught exception, or a request outside the site's own folder.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import devserver

ROOT = Path(__file__).resolve().parents[1]
SUB_PATH = "/card-table/"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
"""A player's browser: Debian's Chromium. The benchmarks and the tests of a browser's own profile use it."""
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
TEST_CHROMIUM = os.environ.get("CHROMIUM") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else CHROMIUM)
"""The browser the tests drive: Debian's build of Chromium's headless shell where it is installed (the same
Blink and V8 without the desktop browser's windows and tabs; Playwright drives headless tests with it too), else
Chromium. Measured on the whole suite: a tenth less processor time, a new page a fifth cheaper."""
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
"""Chromium's switches, as the benchmarks run it (a player's browser)."""
TEST_FLAGS = [*FLAGS, "--process-per-site"]
"""The tests' switches: one renderer for every page of the site in a context, so that the page holding Python's
compiled WebAssembly for the whole run (``compiled_pyodide``) lends it to every page the tests open. Measured on
sets of short and of whole-game tests: a third and a quarter less processor time."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test carries the ``e2e`` marker: ``pytest -m "not e2e"`` runs only the fast tests. The
    browser tests go first: they are the long ones, and the short ones then fill the workers' last minutes
    instead of one long test running alone at the end."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)
    items.sort(key=lambda item: here not in item.path.parents)  # stable: each part keeps its order


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site: CARDTABLE_SITE if set, else ``dist/``, rebuilt only when a source is newer than it."""
    given = os.environ.get("CARDTABLE_SITE")
    if given:
        return Path(given)
    build = load_build()
    paths = build.Paths(root=ROOT, out=ROOT / "dist", cache=ROOT / ".cache" / "npm")
    lock_path = ROOT / ".cache" / "build.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as lock:  # parallel test workers build once, one at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        if build.needs_build(paths):
            subprocess.run([sys.executable, str(ROOT / "build.py")], check=True, cwd=ROOT)
    return ROOT / "dist"


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    with devserver.serving(site, SUB_PATH) as url:
        yield url


def load_build() -> Any:
    spec = importlib.util.spec_from_file_location("cardtable_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": TEST_CHROMIUM, "args": TEST_FLAGS}


@pytest.fixture(scope="session")
def shared_context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """One browser context for the run: its HTTP cache keeps Pyodide warm from test to test. Service workers are
    blocked here (one would control every later page and hide requests from ``page.route``); the offline tests
    make their own contexts. Its pages ask for reduced motion: nothing slides, so a click does not wait for the
    table to stop moving (a test marked ``motion`` gets the motion back: ``page``)."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900}, service_workers="block",
                                  reduced_motion="reduce")
    returning_visitor(context, base_url)
    context.keeper = compiled_pyodide(context, base_url)  # type: ignore[attr-defined]
    yield context
    context.close()


def compiled_pyodide(context: BrowserContext, base_url: str) -> Page:
    """A page that holds Pyodide's WebAssembly module, compiled, for the whole run. With ``--process-per-site``
    every page of the site shares one renderer, and V8 there gives a page that compiles the same module the one
    it already holds: no page compiles Python's 9.6 MB of WebAssembly again, and what V8 optimised for one page
    serves the next."""
    page = context.new_page()
    page.goto(base_url + "build.json")
    page.evaluate("""async () => {
      const build = await (await fetch("build.json")).json();
      globalThis.compiled = await WebAssembly.compileStreaming(fetch(build.runtime));
    }""")
    return page


REMEMBER_SNAPSHOT = """async () => {
  const build = await (await fetch("build.json")).json();
  await (await caches.open("returning-visitor")).add(new URL(build.snapshot, document.baseURI).href);
}"""


def returning_visitor(context: BrowserContext, base_url: str) -> None:
    """Make the shared context a returning visitor's: the build's memory snapshot in the origin's cache, where
    the service worker keeps it after a first visit, so the table and the computer's worker start from it as
    they do for a returning player. First visits (Python started the ordinary way) are the tests that make
    their own contexts (``test_snapshot``, ``test_offline``)."""
    page = context.new_page()
    page.goto(base_url + "build.json")
    page.evaluate(REMEMBER_SNAPSHOT)
    page.close()


@pytest.fixture
def context(shared_context: BrowserContext) -> Iterator[BrowserContext]:
    """The shared context with the site's storage emptied first, so every test starts as a new visitor. The page
    that holds Python's compiled module is of the site's origin: it empties the storage every page of the context
    shares (each new page has its own session storage), with no page opened for it (a fifth of a short test's
    processor time)."""
    shared_context.keeper.evaluate("localStorage.clear()")  # type: ignore[attr-defined]
    yield shared_context
    for page in shared_context.pages:
        if page is not shared_context.keeper:  # type: ignore[attr-defined]
            page.close()


class Watch:
    """What a page did wrong: console errors, uncaught exceptions, requests outside the site."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.allowed: list[str] = []
        """Other addresses a test serves on purpose (e.g. a host page on a second port), besides the site."""
        self.expected: list[str] = []
        """Words of the errors a test causes on purpose (a request it refuses, say): those are not problems."""
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._problem(f"uncaught exception: {error}"))
        page.on("request", self._request)

    def _console(self, message: Any) -> None:
        if message.type in ("error", "assert"):
            self._problem(f"console {message.type}: {message.text}")

    def _problem(self, text: str) -> None:
        if not any(words in text for words in self.expected):
            self.problems.append(text)

    def _request(self, request: Any) -> None:
        self.requests.append(request.url)


@pytest.fixture
def page(context: BrowserContext, base_url: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    page = context.new_page()
    if request.node.get_closest_marker("motion"):
        page.emulate_media(reduced_motion="no-preference")
    watch = Watch(page, base_url)
    page.watch = watch  # type: ignore[attr-defined]
    page.set_default_timeout(60_000)
    yield page
    outside = [url for url in watch.requests if not url.startswith((base_url, "data:", "blob:", *watch.allowed))]
    assert not outside, f"requests outside the site's folder: {outside[:5]}"
    assert not watch.problems, "\n".join(watch.problems)


def wait_settled(page: Page, timeout: float = 120_000) -> str:
    """Wait until the page waits for a human (``ready``) or the game is over; return the state. Looked at every
    50 ms, not on every animation frame: a frame asked for while the computer thinks costs the page and the
    browser a redraw."""
    page.wait_for_function("['ready', 'over'].includes(document.documentElement.dataset.state)", timeout=timeout,
                           polling=50)
    return str(page.evaluate("document.documentElement.dataset.state"))


def resize(page: Page, width: int, height: int) -> None:
    """The window resized, and two frames waited: the page's media queries and size observers (the folded menu,
    the board's top) have answered before anything is measured, however busy the machine."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


KEPT_RECORD = """(() => {
  const saves = JSON.parse(localStorage.getItem('cardtable.saves') || '{}');
  const newest = Object.entries(saves).sort(([, a], [, b]) => b.updated - a.updated)[0];
  const kept = newest && JSON.parse(localStorage.getItem('cardtable.kept.' + newest[0]) || 'null');
  return kept ? kept.record : null;
})()"""
"""A script expression: the record of the game kept last (the game in progress), or null."""


def saved_record(page: Page) -> dict[str, Any]:
    """The record of the game in progress, as the page kept it (the unfinished game kept last)."""
    record = page.evaluate(KEPT_RECORD)
    assert record, "the page kept no game"
    return dict(record)


def finished_record(page: Page) -> dict[str, Any]:
    """The record of the last finished game, which the page keeps in its history after the game is over."""
    history = json.loads(page.evaluate("localStorage.getItem('cardtable.history')") or "[]")
    assert history, "the page kept no finished game"
    return dict(history[0]["record"])


def shot(page: Page, game: str, name: str, element: Any = None) -> None:
    """A screenshot of the page (or of one element) into $CARDTABLE_SHOTS, when set."""
    folder = os.environ.get("CARDTABLE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        path = str(Path(folder) / f"{game}-{name}.png")
        if element is not None:
            element.screenshot(path=path)
        else:
            page.screenshot(path=path, full_page=True)
