"""Accessibility: axe-core (a pinned test tool, never shipped) on the lobby, the rules drawer, every game's
table mid-game and every game inside an embed (a frame on a host page); the table's regions and its one live region
for moves.

The site's Content-Security-Policy forbids inline scripts, so axe is injected into pages of a context that
bypasses the policy (``bypass_csp``): only this module's pages, never the ones that test the policy itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Frame, Page

from e2e.conftest import ROOT, Watch, load_build, wait_settled
from e2e.keys import mid_game
from e2e.play import play_move
from tests.games import GAME_IDS, settings

GAMES = {game: settings(game).link_players(game) for game in GAME_IDS}
"""Each game with its number of players (seat 0 human, the others computers)."""
SERIOUS = ("serious", "critical")
AXE_RUN = "async () => (await axe.run(document)).violations"


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script, from the build's verified npm cache (``python3 build.py`` fetched it)."""
    return load_build().axe_script(ROOT / ".cache" / "npm").decode("utf-8")


@pytest.fixture
def axe_page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=base_url, viewport={"width": 1366, "height": 768},
                                  service_workers="block", bypass_csp=True)
    page = context.new_page()
    watch = Watch(page, base_url)
    page.set_default_timeout(60_000)
    yield page
    context.close()
    assert not watch.problems, "\n".join(watch.problems)


def violations(page: Page | Frame, axe_source: str, where: str) -> list[str]:
    """The serious and critical violations axe finds on the page now, one readable line per element."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source)
    found: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    lines = []
    for rule in found:
        if rule["impact"] in SERIOUS:
            for node in rule["nodes"][:6]:
                summary = " ".join(node.get("failureSummary", "").split())[:220]
                lines.append(f"{where}: {rule['impact']} {rule['id']} ({rule['help']}) at {node['target']}: {summary}")
    return lines


def test_axe_finds_nothing_serious(axe_page: Page, axe_source: str) -> None:
    page = axe_page
    page.goto("index.html")
    wait_settled(page)
    problems = violations(page, axe_source, "lobby")
    page.get_by_role("button", name="Rules of Carbondale").click()
    page.wait_for_selector("#rules-body .live-position .card", state="attached")
    problems += violations(page, axe_source, "rules drawer")
    page.keyboard.press("Escape")
    for game, players in GAMES.items():
        page.goto("index.html#" + mid_game(game, players, 5, 12))
        wait_settled(page)
        if page.locator("#board [data-select]").count():  # a chosen card shows its targets too
            page.locator("#board [data-select]").first.click()
            wait_settled(page)
        problems += violations(page, axe_source, game)
        if game == "carbondale":
            page.locator("#show-rules").click()
            page.wait_for_selector("#rules-body h2")
            problems += violations(page, axe_source, f"{game} rules")
            page.keyboard.press("Escape")
    assert not problems, "axe found serious or critical violations:\n" + "\n".join(problems)


SETTLED = "['ready', 'over'].includes(document.documentElement.dataset.state)"


def test_axe_finds_nothing_serious_inside_embeds(axe_page: Page, axe_source: str, base_url: str) -> None:
    """Each game played in an embed, in a frame of a host page, with a card chosen: axe runs inside the frame."""
    page = axe_page
    problems = []
    for game, players in GAMES.items():
        src = f"{base_url}embed.html?game={game}&players={players}&seed=5&interactive=1&delay=0&level=easy"
        page.set_content(f'<iframe title="{game}" src="{src}" width="800" height="700"></iframe>')
        frame = page.locator("iframe").element_handle().content_frame()
        assert frame is not None
        frame.wait_for_function(SETTLED, timeout=120_000)
        if frame.locator("[data-select]:visible").count():
            frame.locator("[data-select]:visible").first.click()
            frame.wait_for_function(SETTLED)
        problems += violations(frame, axe_source, f"{game} in an embed")
    assert not problems, "axe found serious or critical violations:\n" + "\n".join(problems)


POLITE = """(els) => els.filter((e) => !e.closest('[hidden]') &&
  (e.getAttribute('aria-live') || ({log: 'polite', status: 'polite'})[e.getAttribute('role')]) === 'polite')
  .map((e) => e.id || e.className)"""
"""The polite live regions of the page a player has (the panel of a game on other devices, hidden in any other
game, speaks only in one)."""


def test_regions_names_and_one_live_region(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&bots=1&seed=7&level=easy&delay=0")
    wait_settled(page)
    for name in ("Pick a game", "Table", "Turn and scores", "Game log"):
        assert page.get_by_role("region", name=name).count() + page.get_by_role(
            "complementary", name=name).count() == (0 if name == "Pick a game" else 1), name
    assert page.get_by_role("list", name="Scores").count() == 1
    assert page.get_by_role("group", name="Your hand").count() == 1
    live = page.locator("#table [aria-live], #table [role=log], #table [role=status], #table [role=alert]")
    polite = live.evaluate_all(POLITE)
    # the log tells each move; #advice only answers the player (a suggested move, why a click was refused)
    assert sorted(polite) == ["advice", "log"], polite
    before = page.locator("#log li").count()
    page.locator("#board [data-select]").first.click()
    play_move(page, page.locator("#board [data-action]").first)
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
    wait_settled(page)
    lines = page.locator("#log li").all_inner_texts()
    new = lines[before:]
    assert new and all(lines.count(line) == 1 or "draws" in line for line in new), new
