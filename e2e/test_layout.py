"""Phone first: at 390x844, at 360x740 (a small phone) and at 1366x768 a whole turn is on the first screen of every
game (the hand, at least one place a card can go, and the end-turn control where the game has one), with no sideways
scrolling and no card of the hand (in Carbon City Zero, the cards in play) past the screen's sides."""

from __future__ import annotations

from playwright.sync_api import Page

from e2e.conftest import resize, shot, wait_settled
from e2e.keys import mid_game
from tests.games import GAME_IDS, settings

SIZES = {"phone": (390, 844), "small": (360, 740), "desktop": (1366, 768)}
"""The long measurement, decision by decision over played games, is ``tests/bench/fit.py``."""
GAMES = {
    game: (settings(game).link_players(game), settings(game).hand, settings(game).choose_first,
           settings(game).end_turn)
    for game in GAME_IDS
}
"""Each game: (players, the hand, what to choose first to show where it can go, the end-turn control)."""
CARDS = {game: settings(game).hand_cards for game in GAME_IDS if settings(game).hand_cards}
"""A game's cards in hand where they are not its cards to choose first (``GAMES``): every one lies between the
screen's sides (none hides in a row scrolled sideways)."""
CUT_AT_THE_SIDES = """(selector) => [...document.querySelectorAll(selector)].filter((e) => {
  const b = e.getBoundingClientRect();
  return b.width > 0 && (b.left < 0 || b.right > innerWidth);
}).length"""
IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].some((e) => {
  const b = e.getBoundingClientRect();
  return b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
})"""


# with more players the scores and the others' places take more room: these must still fit
MORE_PLAYERS = [(game, more) for game in GAME_IDS if (more := settings(game).crowded_players(game))]


def test_a_whole_turn_on_the_first_screen(page: Page) -> None:
    problems = []
    cases = [(game, spec[0]) for game, spec in GAMES.items()] + MORE_PLAYERS
    for game, players in cases:
        _, hand, choose, end = GAMES[game]
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto("index.html#" + mid_game(game, players, 3, 0))
        wait_settled(page)
        if choose and page.locator(choose).count():
            page.locator(choose).first.click()
            wait_settled(page)
        for size, (width, height) in SIZES.items():
            resize(page, width, height)
            page.evaluate("scrollTo(0, 0)")
            shot(page, game, f"layout-{players}-{size}")
            wanted = {"hand": hand, "a place to play": "#board [data-action]", "end turn": end}
            for what, selector in wanted.items():
                if selector and not page.evaluate(IN_VIEW, selector):
                    problems.append(f"{game} at {width}x{height}: {what} ({selector}) is not on the first screen")
            cut = page.evaluate(CUT_AT_THE_SIDES, CARDS.get(game, choose))
            if cut:
                problems.append(f"{game} at {width}x{height}: {cut} card(s) of the hand past the screen's sides")
            if page.evaluate("document.documentElement.scrollWidth") > width:
                problems.append(f"{game} at {width}x{height}: the page scrolls sideways")
    assert not problems, "\n".join(problems)


def test_twelve_carbles_players_fit_the_first_screen(page: Page) -> None:
    """Twelve seats take two rows of scores: the ring shrinks to the height left, so all of it (your home at its
    foot included) and the places a chosen card can go are on the first screen at 1366x768."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto("index.html#" + mid_game("carbles", 12, 4, 30))
    wait_settled(page)
    page.locator(".cbl-hand-area [data-select]").first.click()
    wait_settled(page)
    page.evaluate("scrollTo(0, 0)")
    shot(page, "carbles", "layout-twelve-desktop")
    ring = page.locator("#board .cbl-ring").bounding_box()
    assert ring is not None and ring["y"] + ring["height"] <= 768, f"the ring ends below the window: {ring}"
    assert page.evaluate(IN_VIEW, "#board [data-action]"), "no place to play on the first screen"
