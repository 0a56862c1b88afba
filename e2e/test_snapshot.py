"""Python from the build's memory snapshot: the first visit starts the ordinary way while the service worker caches
the snapshot; later visits (the table and the embed) start from it; a snapshot made from other archives is refused
and Python starts the ordinary way; a seeded game of computers plays out to the same record every way.

One browser context with service workers allowed (the shared one blocks them), one short solo game per visit.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page

from e2e.conftest import Watch, finished_record
from e2e.test_offline import wait_for_worker

GAME = "index.html?game=carbon-city-zero&players=1&bots=0&level=easy&seed=11&delay=0"
EMBED = "embed.html?game=carbondale&position=figure-1"

TAMPER = """async () => {
  // The cached snapshot, with its header saying it was made from another engine wheel (same length).
  const build = await (await fetch("build.json", { cache: "no-cache" })).json();
  const url = new URL(build.snapshot, document.baseURI).href;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const hit = await cache.match(url);
    if (!hit) continue;
    const bytes = new Uint8Array(await hit.arrayBuffer());
    const head = new TextDecoder().decode(bytes.subarray(0, 256));
    const at = head.indexOf('"engine_wheel":"') + 16;
    bytes[at] = bytes[at] === 48 ? 49 : 48;  // its first hex digit changed
    await cache.put(url, new Response(bytes));
    return true;
  }
  return false;
}"""


def play(page: Page) -> tuple[str, dict[str, Any]]:
    """Open the solo game of computers, wait for its end; how Python started and the finished game's record."""
    page.goto(GAME)
    page.wait_for_function("document.documentElement.dataset.state === 'over'", timeout=120_000)
    return str(page.evaluate("document.documentElement.dataset.python")), finished_record(page)


def test_snapshot_used_checked_and_refused(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, service_workers="allow", viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        watch = Watch(page, base_url)
        way, ordinary = play(page)
        assert way == "ordinary"  # a first visit does not wait for the snapshot
        wait_for_worker(page)

        way, record = play(page)
        assert way == "snapshot"
        assert record == ordinary
        assert not page.evaluate("document.documentElement.dataset.snapshotRefused")

        page.goto(EMBED)
        page.wait_for_function("performance.getEntriesByName('embed-ready').length > 0", timeout=120_000)
        assert page.evaluate("document.documentElement.dataset.python") == "snapshot"
        assert page.locator("#embed").inner_text().strip()  # drawn (test_embed checks what)

        assert page.evaluate(TAMPER)
        way, record = play(page)
        assert way == "ordinary"
        assert "engine wheel" in str(page.evaluate("document.documentElement.dataset.snapshotRefused"))
        assert record == ordinary
        assert not watch.problems, "\n".join(watch.problems)
    finally:
        context.close()
