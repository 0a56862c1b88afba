"""Offline after one visit: the service worker caches the whole site, Chromium finds it installable, the site plays
with the network cut, and a new build replaces the cache once the page's "Reload" is pressed.

These tests make their own browser contexts with service workers allowed (the shared one blocks them) and serve
the site themselves, so a second build can take the first one's place at the same address.
"""

from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page, expect

import devserver
from e2e.conftest import ROOT, SUB_PATH, Watch, wait_settled
from e2e.play import one_click

GAME = "index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_context(browser: Browser, base_url: str) -> BrowserContext:
    return browser.new_context(
        base_url=base_url, service_workers="allow", viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
    )


def open_page(context: BrowserContext, base_url: str) -> tuple[Page, Watch]:
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page, Watch(page, base_url)


def wait_for_worker(page: Page) -> str:
    """Wait until the site's service worker is active (its precache complete); return its cache's name."""
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active")
    names: list[str] = page.evaluate("async () => (await caches.keys()).filter((n) => n.startsWith('cardtable:'))")
    assert len(names) == 1, names
    return names[0]


RUNTIME_DELIVERIES = """async () => {
  const build = await (await fetch("build.json")).json();
  return performance.getEntriesByName(new URL(build.runtime, document.baseURI).href).map((e) => e.deliveryType);
}"""
"""How the page's requests for Python's WebAssembly were answered ("cache": the browser's HTTP cache)."""


def key_in_page(page: Page) -> str:
    return str(page.evaluate("async () => (await (await fetch('build.json')).json()).cache_key"))


def test_installable_and_plays_offline(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], site: Path, tmp_path: Path
) -> None:
    """A persistent (not incognito) profile: Chromium refuses to install from an incognito window."""
    with devserver.serving(site, SUB_PATH, port=free_port()) as base_url:
        context = browser_type.launch_persistent_context(
            tmp_path / "profile",
            **browser_type_launch_args,
            base_url=base_url,
            service_workers="allow",
            viewport={"width": 1280, "height": 900},
        )
        try:
            page, watch = open_page(context, base_url)
            page.goto("index.html")
            key = json.loads((site / "build.json").read_text("utf-8"))["cache_key"]
            assert wait_for_worker(page) == f"cardtable:{SUB_PATH}:{key}"
            page.reload()  # now the worker controls the page
            assert page.evaluate("!!navigator.serviceWorker.controller")
            # Python's WebAssembly from the HTTP cache (whose compiled copy the browser keeps), in one request
            wait_settled(page)
            assert page.evaluate(RUNTIME_DELIVERIES) == ["cache"]
            # and the computer's worker takes the same copy (another would make the browser drop the compiled code)
            page.goto(GAME.replace("level=easy", "level=normal"))
            page.wait_for_function("window.cardTableThinker.status() === 'ready'")
            taken = "[document.documentElement.dataset.runtime, window.cardTableThinker.runtime()]"
            assert page.evaluate(taken) == ["http-cache", "http-cache"]
            session = context.new_cdp_session(page)
            errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
            assert errors == [], errors
            manifest = session.send("Page.getAppManifest")
            assert not manifest.get("errors"), manifest["errors"]
            wait_settled(page)
            context.set_offline(True)
            page.goto(GAME)
            wait_settled(page)
            expect(page.locator("#table-title")).to_have_text("100 Silver Bars")
            assert page.evaluate(RUNTIME_DELIVERIES) == ["cache"]  # offline too
            rnd = random.Random(3)
            for _ in range(4):
                assert wait_settled(page) == "ready"
                one_click(page, rnd)
            wait_settled(page)
            expect(page.locator("#log li")).not_to_have_count(0)
            assert key_in_page(page) == key
            outside = [url for url in watch.requests if not url.startswith((base_url, "data:", "blob:"))]
            assert not outside, outside[:5]
            assert not watch.problems, "\n".join(watch.problems)
        finally:
            context.close()


@pytest.fixture(scope="module")
def second_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second build of a copy of the repository with one stylesheet changed: a new cache key."""
    base = tmp_path_factory.mktemp("second-build")
    root = base / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
    for name in ("pyengine", "web"):
        shutil.copytree(ROOT / name, root / name, ignore=ignore)
    for name in (
        "pyproject.toml",
        "README.md",
        "index.html",
        "embed.html",
        "sw.js",
        "manifest.webmanifest",
        "snapshot.mjs",
        "python-example.html",
        "docs/python-pages.md",  # the example page; the wheel's readme
    ):
        if (ROOT / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, root / name)
    with (root / "web" / "table.css").open("a", encoding="utf-8") as css:
        css.write("\n/* the second build */\n")
    out = base / "dist"
    cache = ROOT / ".cache" / "npm"
    command = [sys.executable, str(ROOT / "build.py"), "--root", str(root), "--out", str(out), "--cache", str(cache)]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    return out


NEW_WORKER = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update();
  return Boolean(registration.installing || registration.waiting);
}"""
"""Asks the browser to look for a new build's worker, as it does on a visit; true when it found one."""

WAITING = "async () => Boolean((await navigator.serviceWorker.getRegistration()).waiting)"


def test_a_new_build_replaces_the_cache_after_reload(
    browser: Browser, site: Path, second_site: Path, tmp_path: Path
) -> None:
    """The same build served again (its files copied: new times, same bytes) is no new version; a changed one is,
    and its notice waits while a game with another device is on (simulated here by the guest's mark on the page),
    then its Reload brings the new build."""
    first = json.loads((site / "build.json").read_text("utf-8"))["cache_key"]
    second = json.loads((second_site / "build.json").read_text("utf-8"))["cache_key"]
    assert first != second
    port = free_port()
    with devserver.serving(site, SUB_PATH, port=port) as base_url:
        context = new_context(browser, base_url)
        page, watch = open_page(context, base_url)
        # A private window's HTTP cache, kept in memory, does not keep Python's WebAssembly: the page's request for
        # that copy fails (the browser logs it), and the page takes the service worker's.
        watch.expected.append("net::ERR_CACHE_MISS")
        page.goto("index.html")
        wait_for_worker(page)
        wait_settled(page)
    try:
        same = tmp_path / "same-site"
        shutil.copytree(site, same)
        with devserver.serving(same, SUB_PATH, port=port):
            page.goto("index.html")
            wait_settled(page)
            assert not page.evaluate(NEW_WORKER)
            expect(page.locator("#update-note")).to_have_count(0)
        with devserver.serving(second_site, SUB_PATH, port=port) as served_url:
            assert served_url == base_url
            page.goto("index.html")  # still the first build, from the cache; the browser finds the new worker
            wait_settled(page)
            page.evaluate("document.documentElement.classList.add('remote-guest')")  # a game with another device
            assert key_in_page(page) == first
            page.wait_for_function(WAITING, timeout=60_000)
            notice = page.locator("#update-note")
            expect(page.get_by_role("button", name="Reload")).to_have_count(0)
            page.evaluate("document.documentElement.dataset.state = 'over'")  # its end
            expect(notice).to_contain_text("A new version is ready", timeout=60_000)
            page.evaluate("window.oldPage = true")  # gone once the page has reloaded
            page.locator("#update-reload").click()
            page.wait_for_function("!window.oldPage && document.documentElement.dataset.state !== 'loading'")
            page.wait_for_function(
                "async (key) => (await (await fetch('build.json')).json()).cache_key === key", arg=second
            )
            wait_settled(page)
            expect(page.locator("#update-note")).to_have_count(0)
            names = page.evaluate("async () => (await caches.keys()).filter((n) => n.startsWith('cardtable:'))")
            assert names == [f"cardtable:{SUB_PATH}:{second}"]
            assert "the second build" in page.evaluate("async () => (await fetch('web/table.css')).text()")
            assert not watch.problems, "\n".join(watch.problems)
    finally:
        context.close()
