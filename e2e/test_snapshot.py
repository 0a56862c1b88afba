"""Python from the build's memory snapshot: the first visit starts the ordinary way while the service worker caches
the snapshot; later visits (the table, the embed and the computer's worker) start from it, in the same browser or in
one closed and started again; a snapshot made from other archives is refused and Python starts the ordinary way; a
record of every game (random moves played here in CPython: Carbon City Zero's to its end, the others' first 45)
replays to the same log and board every way (from the snapshot, and started anew with the compiled modules).

One browser context with service workers allowed (the shared one blocks them), one short solo game per visit; the
returning player's test keeps a profile on disk and starts the browser twice.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserType, Page

from e2e.conftest import Watch, wait_settled
from e2e.test_offline import wait_for_worker

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import DOM_ADAPTERS, address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

EMBED = "embed.html?game=carbondale&position=figure-1"
THINKING = "index.html?game=silver-bars&players=2&seed=7&bots=1&level=normal&delay=0"

REWRITE = """async () => {
  // The cached snapshot, its bytes rewritten (by the function put in its place below)
  const build = await (await fetch("build.json", { cache: "no-cache" })).json();
  const url = new URL(build.snapshot, document.baseURI).href;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const hit = await cache.match(url);
    if (!hit) continue;
    await cache.put(url, new Response((CHANGE)(new Uint8Array(await hit.arrayBuffer()))));
    return true;
  }
  return false;
}"""
TAMPER = REWRITE.replace("CHANGE", """(bytes) => {
  // its header saying it was made from another engine wheel (same length)
  const head = new TextDecoder().decode(bytes.subarray(0, 256));
  const at = head.indexOf('"engine_wheel":"') + '"engine_wheel":"'.length;
  bytes[at] = bytes[at] === 48 ? 49 : 48;  // its first hex digit changed
  return bytes;
}""")
CUT_SHORT = REWRITE.replace("CHANGE", "(bytes) => bytes.slice(0, bytes.length >> 1)")
"""The snapshot with its header whole and its image cut short (as a disk that lost its end)."""
COMPILED_AT_START = "document.documentElement.dataset.compiledAtStart"
"""The standard library's modules the table's start compiled from their source (web/main.py), space-separated."""

IMPORTED_AT_START = "document.documentElement.dataset.importedAtStart"
"""The site's modules the table's start imported (web/main.py), space-separated."""
ADAPTERS = sorted(set(DOM_ADAPTERS) - {"cardtable_web.embed_page"})
"""The modules a table's start from the memory snapshot imports: the DOM's adapters, less the embed's."""

GAMES = {"carbondale": 2, "silver-bars": 2, "carbles": 2, "cardcassonne": 2, "carbon-city-zero": 1}
"""Every game, with the players of its record below."""
MOVES = 45
"""How many moves each record holds at most: Carbon City Zero's whole solo game (45 moves) and the others' first
45 (their whole games, 230-610 moves, would make each of the test's fourteen visits replay for seconds)."""


SNAPSHOT_CACHED = """async () => {
  // ACTION the snapshot in the service worker's cache (delete it, or add it back from the site)
  const build = await (await fetch("build.json", { cache: "no-cache" })).json();
  const url = new URL(build.snapshot, document.baseURI).href;
  const names = (await caches.keys()).filter((n) => n.startsWith("cardtable:"));
  for (const name of names) await (await caches.open(name)).ACTION(url);
  return names.length === 1;
}"""


def recorded(game: str, players: int) -> str:
    """The address of a game played with random moves (in CPython) to its end or to ``MOVES`` moves, every seat a
    human on this device."""
    rnd = random.Random(5)
    session = Session(Setup(game, players, 11, [Seat(False)] * players, {}, 0))
    for _ in range(MOVES):
        if session.state.is_terminal():
            break
        session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
    return "index.html#" + address.encode(session)


def play(page: Page, game: str) -> tuple[str, tuple[str, str]]:
    """Open the game's record; how Python started, and the log and the board it shows."""
    page.goto("about:blank")  # from the same page, the fragment alone would not load it anew
    page.goto(game)
    page.wait_for_function("document.querySelectorAll('#log li').length > 20", timeout=120_000)
    wait_settled(page)
    shown = (page.locator("#log").inner_text(), page.locator("#board").inner_html())
    return str(page.evaluate("document.documentElement.dataset.python")), shown


def test_snapshot_used_checked_and_refused(browser: Browser, base_url: str) -> None:
    context = browser.new_context(
        base_url=base_url, service_workers="allow", viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        watch = Watch(page, base_url)
        watch.expected.append("net::ERR_CACHE_MISS")  # a private window's HTTP cache: see e2e/test_offline.py
        records = {name: recorded(name, players) for name, players in GAMES.items()}
        game = records["carbon-city-zero"]
        way, ordinary = play(page, game)
        assert way == "ordinary"  # a first visit does not wait for the snapshot
        assert page.evaluate("document.documentElement.dataset.bytecode") == "3"  # common, the game's, the adapters'
        # and every module of the standard library that this start imported came compiled (build.py: write_stdlib)
        assert page.evaluate(COMPILED_AT_START) == ""
        wait_for_worker(page)

        restored = {}
        for name, record_address in records.items():
            way, restored[name] = play(page, record_address)
            assert way == "snapshot"
            assert page.evaluate("document.documentElement.dataset.bytecode") == "1"  # the adapters': the rest imported
            assert page.evaluate(IMPORTED_AT_START).split() == ADAPTERS  # all else too
        assert restored["carbon-city-zero"] == ordinary
        assert not page.evaluate("document.documentElement.dataset.snapshotRefused")

        assert page.evaluate(SNAPSHOT_CACHED.replace("ACTION", "delete"))
        for name, record_address in records.items():  # started anew, with the common, the game's, the adapters'
            way, record = play(page, record_address)
            assert way == "ordinary"
            assert page.evaluate("document.documentElement.dataset.bytecode") == "3"
            assert page.evaluate(COMPILED_AT_START) == ""
            assert record == restored[name], f"{name} replays differently from the snapshot"
        assert page.evaluate(SNAPSHOT_CACHED.replace("ACTION", "add"))

        page.goto(EMBED)
        page.wait_for_function("performance.getEntriesByName('embed-ready').length > 0", timeout=120_000)
        assert page.evaluate("document.documentElement.dataset.python") == "snapshot"
        assert page.locator("#embed").inner_text().strip()  # drawn (test_embed checks what)

        page.goto(THINKING)  # a normal computer thinks in its worker, whose Python starts from the snapshot too
        page.wait_for_function("window.cardTableThinker && window.cardTableThinker.status() === 'ready'")
        assert page.evaluate("window.cardTableThinker.python()") == "snapshot"

        assert page.evaluate(TAMPER)
        way, record = play(page, game)
        assert way == "ordinary"
        assert "engine wheel" in str(page.evaluate("document.documentElement.dataset.snapshotRefused"))
        assert record == ordinary
        # one made on another standard library (its header's stdlib hash changed) is refused too
        for action in ("delete", "add"):  # the site's own snapshot again
            assert page.evaluate(SNAPSHOT_CACHED.replace("ACTION", action))
        assert page.evaluate(TAMPER.replace("engine_wheel", "stdlib"))
        way, record = play(page, game)
        assert way == "ordinary"
        assert "standard library" in str(page.evaluate("document.documentElement.dataset.snapshotRefused"))
        assert record == ordinary
        # one whose image is cut short: Pyodide, given the image to fill as it is read, gives way to the ordinary start
        for action in ("delete", "add"):
            assert page.evaluate(SNAPSHOT_CACHED.replace("ACTION", action))
        assert page.evaluate(CUT_SHORT)
        way, record = play(page, game)
        assert way == "ordinary"
        assert "cut short" in str(page.evaluate("document.documentElement.dataset.snapshotRefused"))
        assert record == ordinary
        assert not watch.problems, "\n".join(watch.problems)
    finally:
        context.close()


PHASES = ["python-start", "python-snapshot-read", "python-wasm-compiled", "python-restored", "python-loaded"]
"""The marks web/python.js leaves on the page's timeline as Python starts (the benchmark prints them)."""


def test_a_returning_player_starts_from_the_snapshot(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], base_url: str, tmp_path: Path
) -> None:
    """A player comes back after closing the browser: the page, and then an embed, start from the snapshot the
    service worker kept on disk, and every phase of the start is marked on the page's timeline, in order (the
    snapshot and the WebAssembly are read at the same time); the table's page spends nothing on the lobby's
    pictures."""

    def launch() -> tuple[Any, Page]:
        context = browser_type.launch_persistent_context(
            tmp_path / "profile", **browser_type_launch_args, base_url=base_url, service_workers="allow"
        )
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(60_000)
        return context, page

    context, page = launch()
    try:
        page.goto(THINKING)
        wait_settled(page)
        assert page.evaluate("document.documentElement.dataset.python") == "ordinary"
        wait_for_worker(page)
        page.wait_for_function(
            SNAPSHOT_CACHED.replace("ACTION", "match").replace(
                "return names.length === 1;", "return names.length === 1 && !!(await caches.match(url));"
            )
        )
    finally:
        context.close()
    context, page = launch()
    try:
        watch = Watch(page, base_url)
        page.goto(THINKING)
        page.wait_for_function("performance.getEntriesByName('table-ready').length > 0", timeout=120_000)
        assert page.evaluate("document.documentElement.dataset.python") == "snapshot"
        marks = page.evaluate(
            "(names) => names.map((n) => performance.getEntriesByName(n)[0]?.startTime ?? -1)", [*PHASES, "table-ready"]
        )
        assert min(marks) > 0, dict(zip([*PHASES, "table-ready"], marks, strict=True))
        start, read, compiled, restored, loaded, ready = marks
        assert start < min(read, compiled) and max(read, compiled) <= restored <= loaded <= ready
        fetched = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
        assert not [name for name in fetched if "/pictures/" in name], "a table's page loads no lobby picture"
        assert page.locator("iframe").count() == 0, "nor makes a frame for one (each is a page of its own)"
        page.goto(EMBED)
        page.wait_for_function("performance.getEntriesByName('embed-ready').length > 0", timeout=120_000)
        assert page.evaluate("document.documentElement.dataset.python") == "snapshot"
        assert not watch.problems, "\n".join(watch.problems)
    finally:
        context.close()
