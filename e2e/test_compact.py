"""Compact card faces on a phone (390x844, touch): a card shows what a glance needs, and a long-press shows the whole
card in a dialog without playing it (``web/details.js``); a tap still plays. One page per game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from e2e.conftest import Watch, returning_visitor, shot, wait_settled
from e2e.keys import mid_game
from e2e.play import PLAYED_OR_HELD, tap_held
from e2e.test_carbon_city_zero import names_over_their_cards

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
FIRST_IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].findIndex((e) => {
  const b = e.getBoundingClientRect();
  return b.width > 0 && b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth;
})"""
MOVES = "document.documentElement.dataset.moves"
DETAILS_OPEN = "!!document.getElementById('card-details')?.open"


@pytest.fixture(scope="module")
def phone(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    context = browser.new_context(base_url=base_url, service_workers="block", **PHONE)  # type: ignore[arg-type]
    returning_visitor(context, base_url)
    yield context
    context.close()


def open_game(phone: BrowserContext, base_url: str, game: str, players: int, moves: int) -> tuple[Page, Watch]:
    page = phone.new_page()
    watch = Watch(page, base_url)
    page.set_default_timeout(60_000)
    page.goto("index.html#" + mid_game(game, players, 3, moves))
    wait_settled(page)
    return page, watch


def hold(page: Page, selector: str, ms: int) -> str:
    """Hold a finger on the first card of ``selector`` wholly on screen for ``ms``; return what it offered."""
    index = page.evaluate(FIRST_IN_VIEW, selector)
    assert index >= 0, f"no {selector} on the first screen"
    card = page.locator(selector).nth(index)
    offered = str(card.get_attribute("data-action") or card.get_attribute("data-card"))
    box = card.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(ms)
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()
    return offered


def test_carbon_city_zero_cards_are_compact_and_open_whole(phone: BrowserContext, base_url: str) -> None:
    page, watch = open_game(phone, base_url, "carbon-city-zero", 2, 6)
    market = "#board .ccz-market [data-card]"
    sizes = page.eval_on_selector_all(market, "cards => cards.map((c) => c.getBoundingClientRect().height)")
    assert sizes and max(sizes) < 120, f"the marketplace's cards are not compact: heights {sizes}"
    assert names_over_their_cards(page) == [], "a card's name passes its edge on a phone (\"Communication\")"
    rule = page.locator(f"{market} .ccz-rule").first
    assert rule.bounding_box() is not None and rule.bounding_box()["width"] <= 1, "a card's rule is drawn in full"
    assert rule.text_content(), "a card's rule is no longer in the page for screen readers"
    bought = page.locator("#board .ccz-market [data-action]")
    assert bought.count(), "nothing to buy in this position"
    before = page.evaluate(MOVES)
    name = hold(page, "#board .ccz-market [data-action]:has(.ccz-rule)", 700)  # a card with words to show whole
    page.wait_for_function(DETAILS_OPEN)
    shot(page, "carbon-city-zero", "compact-details")
    details = page.locator("#card-details")
    assert name.removeprefix("buy ") in (details.text_content() or ""), "the dialog does not show the held card"
    full = page.locator("#card-details .ccz-rule").first
    assert full.bounding_box() is not None and full.bounding_box()["width"] > 50, "the dialog's card is not whole"
    assert page.evaluate("document.activeElement.id") == "card-details-close", "the dialog does not take the focus"
    page.wait_for_timeout(300)
    assert page.evaluate(MOVES) == before, "a long-press played the card"
    page.keyboard.press("Escape")
    page.wait_for_function(f"!({DETAILS_OPEN})")
    # the keyboard's way in: Shift+F10 on a focused card
    page.locator("#board .ccz-market [data-action]").first.focus()
    page.keyboard.press("Shift+F10")
    page.wait_for_function(DETAILS_OPEN)
    page.keyboard.press("Escape")
    page.wait_for_function(f"!({DETAILS_OPEN})")
    assert page.evaluate("!!document.activeElement.closest('#board .ccz-market [data-action]')"), (
        "the focus did not go back to the card"
    )
    # a tap still buys
    hold(page, "#board .ccz-market [data-action]", 50)
    page.wait_for_function(PLAYED_OR_HELD, arg=before)
    tap_held(page)  # a purchase shows the marketplace's next card: it waits for its second tap
    page.wait_for_function(f"document.documentElement.dataset.moves !== {before!r}")
    assert not page.evaluate(DETAILS_OPEN), "a tap opened the card's details"
    assert not watch.problems, "\n".join(watch.problems)


def test_a_long_press_on_a_playing_card_shows_it_and_plays_nothing(phone: BrowserContext, base_url: str) -> None:
    page, watch = open_game(phone, base_url, "carbles", 2, 4)
    hand = "#board .cbl-hand-area [data-card]"
    sizes = page.eval_on_selector_all(hand, "cards => cards.map((c) => c.getBoundingClientRect().width)")
    assert sizes and max(sizes) < 60, f"the hand's cards are not compact: widths {sizes}"
    before = page.evaluate(MOVES)
    selected = page.evaluate("document.querySelectorAll('#board .selected').length")
    card = hold(page, hand, 700)
    page.wait_for_function(DETAILS_OPEN)
    assert " of " in (page.locator("#card-details-title").text_content() or ""), "the card is not named in words"
    page.wait_for_timeout(300)
    assert page.evaluate(MOVES) == before, f"a long-press on {card} played it"
    assert page.evaluate("document.querySelectorAll('#board .selected').length") == selected, "it chose the card"
    page.locator("#card-details-close").click()
    page.wait_for_function(f"!({DETAILS_OPEN})")
    assert not watch.problems, "\n".join(watch.problems)
