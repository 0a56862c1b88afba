"""A browser that lets the site keep nothing (its data blocked in the settings, as Chromium's "Don't allow sites to
save data" does, and as blocking third-party cookies does for a frame on another site): the site still starts,
plays against the computer, and says that nothing is kept (``web/store.js``); an embed draws its
position and the example Python page installs the engine's wheel there too.

Its own Chromium, with a profile whose settings block every site's data: the setting a player would change."""

from __future__ import annotations

import json
import random
from pathlib import Path

from playwright.sync_api import Playwright, expect

from e2e.conftest import CHROMIUM, FLAGS, Watch, wait_settled
from e2e.play import one_click

AGAINST_NORMAL = "index.html?game=silver-bars&players=2&seed=7&bots=1&level=normal&delay=0"
"""The normal computer thinks in its worker, whose Python starts there too."""
BLOCKED = """() => { try { localStorage.getItem("x"); return "allowed"; } catch (error) { return error.name; } }"""


def test_a_browser_that_keeps_nothing_still_plays_and_says_so(playwright: Playwright, base_url: str,
                                                              tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    settings = {"profile": {"default_content_setting_values": {"cookies": 2}}}  # block every site's data
    (profile / "Default" / "Preferences").write_text(json.dumps(settings), encoding="utf-8")
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=FLAGS, base_url=base_url, viewport={"width": 1280, "height": 900},
        reduced_motion="reduce",
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(120_000)
        watch = Watch(page, base_url)
        page.goto(AGAINST_NORMAL)
        assert page.evaluate(BLOCKED) == "SecurityError", "the profile's setting blocks the site's storage"
        wait_settled(page)
        rnd = random.Random(3)
        for _ in range(12):  # the human's moves (a move that draws a card takes two taps) and the computer's answers
            if page.locator("#log li").count() >= 4:
                break
            one_click(page, rnd)
            wait_settled(page)
        assert page.locator("#log li").count() >= 4
        page.locator("#to-lobby").click()
        expect(page.locator("#no-storage")).to_be_visible()
        expect(page.locator("#no-storage")).to_contain_text("last only while this page is open")
        expect(page.locator("#kept li")).to_have_count(1)  # kept for as long as the page lives
        page.reload()
        wait_settled(page)
        expect(page.locator("#no-storage")).to_be_visible()
        expect(page.locator("#kept li")).to_have_count(0)
        page.goto("embed.html?game=carbondale&position=figure-1")  # as a frame on another site may be
        page.wait_for_function("performance.getEntriesByName('embed-ready').length > 0")
        expect(page.locator("#embed")).to_contain_text("Player 1")
        page.goto("python-example.html")  # a Python page: PyScript's package cache in the page's memory too
        expect(page.locator("#installed")).to_have_text("pyengine 0.1.0, installed by micropip.", timeout=120_000)
        assert not watch.problems, "\n".join(watch.problems)
    finally:
        context.close()

