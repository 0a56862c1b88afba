"""Nothing on the table is drawn over anything else: in every game, on a small phone (360x740) and on a desktop
(1366x900), mid-game with a card chosen (one page for both sizes: the same table resized; the game's end is looked
at where ``e2e/test_keyboard.py`` plays it out), no two texts overlap, no text covers a card or a
control it is no part of, no text is cut off, and the page does not scroll sideways (``e2e/overlaps.js`` says
what counts). Each table is saved as a screenshot in $CARDTABLE_SHOTS when set, to be looked at after a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from e2e.conftest import shot, wait_settled
from e2e.keys import mid_game
from tests.games import GAME_IDS, settings

OVERLAPS = "(" + (Path(__file__).parent / "overlaps.js").read_text() + ")()"
SIZES = {"phone": (360, 740), "desktop": (1366, 900)}
GAMES = {game: (*settings(game).overlap, settings(game).choose_first) for game in GAME_IDS}
"""Each game: (players, moves played before the table is looked at, a card of the hand to choose first)."""


SETTLED = """async () => {
  const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
  const ended = Promise.all(finite.map((a) => a.finished.catch(() => null)));
  await Promise.race([ended, new Promise((done) => setTimeout(done, 1500))]);
  scrollTo(0, 0);
}"""
"""The slides and pops over (at most 1.5 s), the page at its top."""


def defects(page: Page, width: int, height: int) -> list[str]:
    """The layout's defects at this size, once the slides and pops are over."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLED)
    return [f"at {width}x{height}: {defect}" for defect in page.evaluate(OVERLAPS)]


def defects_at_both_sizes(page: Page, game: str, moment: str) -> list[str]:
    """The table's defects on the phone, then the same table on the desktop; a screenshot of each."""
    found = []
    for size, (width, height) in SIZES.items():
        found += defects(page, width, height)
        shot(page, game, f"{moment}-{size}")
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_nothing_overlaps_mid_game(page: Page, game: str) -> None:
    """Mid-game with a card chosen: opened on the phone, then the same table on the desktop."""
    players, moves, choose = GAMES[game]
    page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    page.goto("index.html#" + mid_game(game, players, 3, moves))
    wait_settled(page)
    if choose and page.locator(choose).count():
        page.locator(choose).first.click()
        wait_settled(page)
    found = defects_at_both_sizes(page, game, "mid-game")
    assert not found, f"{game} mid-game:\n" + "\n".join(found)
