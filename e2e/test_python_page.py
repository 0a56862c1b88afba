"""The engines in Python pages: micropip from the site, and the example page (``python-example.html``) that installs the
engine wheel with it, plays moves and draws them with the site's renderer. Everything comes from the site: the
``page`` fixture fails a test on any request outside the site's folder and on any console error."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

READY = "document.documentElement.dataset.state === 'ready'"
HAND = '[aria-label="Your hand"] [data-card]'


def hand(page: Page, section: str) -> list[str]:
    return [str(card) for card in page.locator(f"#{section} {HAND}").evaluate_all("cs => cs.map(c => c.dataset.card)")]


def test_the_example_page_installs_the_wheel_with_micropip_and_draws_the_moves(page: Page, site: Path) -> None:
    build = json.loads((site / "build.json").read_text("utf-8"))
    page.goto("python-example.html")
    page.wait_for_function(READY, timeout=180_000)
    expect(page.locator("#installed")).to_have_text("pyengine 0.1.0, installed by micropip.")
    expect(page.locator("#moves li")).to_have_text(
        ["You build 2♣ south of your 2♠", "You contribute 3♢ to the communal stock", "You draw from the pile"]
    )
    assert hand(page, "before") == ["2♣", "3♢", "5♡", "6♡"]
    assert hand(page, "after") == ["A♡", "5♡", "6♡"]
    expect(page.locator("#after .scores .score")).to_have_count(2)
    expect(page.locator("#source")).to_contain_text("named_position(GAME, POSITION)")
    fetched = [url.split("/card-table/", 1)[1] for url in page.watch.requests]  # type: ignore[attr-defined]
    assert "vendor/pyodide/micropip-0.11.1-py3-none-any.whl" in fetched
    assert build["engine_wheel"] in fetched and build["web_zip"] in fetched
    # a second visit: PyScript installs from the lock file micropip wrote the first time, without micropip
    page.reload()
    page.wait_for_function(READY, timeout=180_000)
    assert hand(page, "after") == ["A♡", "5♡", "6♡"]


INSTALL_FROM_THE_SITE = """async (wheel) => {
  const { loadPyodide } = await import("./vendor/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", document.baseURI).href });
  await pyodide.loadPackage("micropip");
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(new URL(wheel, document.baseURI).href);
  return pyodide.runPython(`
import json
from importlib.metadata import version

import micropip
from pyengine import new_game

state = new_game("silver-bars", 2, seed=5)
while not state.is_terminal():
    state = state.apply(state.legal_texts()[0])
json.dumps({"micropip": micropip.__version__, "pyengine": version("pyengine"),
            "over": state.is_terminal(), "moves": len(state.record()["actions"])})
`);
}"""


def test_micropip_loads_from_the_site_and_installs_the_wheel_at_its_lasting_address(page: Page) -> None:
    """What a page on another site does (``docs/python-pages.md``): Pyodide's ``loadPackage("micropip")`` takes the
    site's micropip (the lock file holds its hash), and micropip installs the wheel from ``wheels/<wheel>``."""
    page.goto("build.json")
    result = json.loads(page.evaluate(INSTALL_FROM_THE_SITE, "wheels/pyengine-0.1.0-py3-none-any.whl"))
    assert result["micropip"] == "0.11.1" and result["pyengine"] == "0.1.0"
    assert result["over"] and result["moves"] > 10
