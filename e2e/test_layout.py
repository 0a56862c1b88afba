"""Phone first: at 390x844 and at 1366x768 a whole turn is on the first screen of every game (the hand, at least
one place a card can go, and the end-turn control where the game has one), with no sideways scrolling."""

from __future__ import annotations

from playwright.sync_api import Page

from e2e.conftest import shot, wait_settled
from e2e.keys import mid_game

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
GAMES = {
    # game: (players, the hand, what to choose first to show where it can go, the end-turn control)
    "carbondale": (2, ".cb-hand", ".cb-hand [data-select]", ".cb-buttons [data-action]"),
    "silver-bars": (2, ".sb-hand", ".sb-hand [data-select]", None),
    "carbles": (2, ".cbl-hand-area", ".cbl-hand-area [data-select]", None),
    "cardcassonne": (2, ".cc-hand", ".cc-hand [data-select]", None),
    "carbon-city-zero": (1, ".ccz-in-play", None, ".ccz-end"),
}
IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].some((e) => {
  const b = e.getBoundingClientRect();
  return b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
})"""


def test_a_whole_turn_on_the_first_screen(page: Page) -> None:
    problems = []
    for game, (players, hand, choose, end) in GAMES.items():
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto("index.html#" + mid_game(game, players, 3, 0))
        wait_settled(page)
        if choose and page.locator(choose).count():
            page.locator(choose).first.click()
            wait_settled(page)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("scrollTo(0, 0)")
            shot(page, game, f"layout-{size}")
            wanted = {"hand": hand, "a place to play": "#board [data-action]", "end turn": end}
            for what, selector in wanted.items():
                if selector and not page.evaluate(IN_VIEW, selector):
                    problems.append(f"{game} at {width}x{height}: {what} ({selector}) is not on the first screen")
            if page.evaluate("document.documentElement.scrollWidth") > width:
                problems.append(f"{game} at {width}x{height}: the page scrolls sideways")
    assert not problems, "\n".join(problems)
