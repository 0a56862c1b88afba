"""Cards move: the table is morphed in place (elements keep their identity, so the focus stays) and what a move
changes slides from where it was to where it lands, except with ``prefers-reduced-motion: reduce``."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from e2e.conftest import shot, wait_settled
from e2e.keys import mid_game
from e2e.play import one_click

pytestmark = pytest.mark.motion  # these pages move (the other browser tests ask for reduced motion)

GAME = "index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0"
COUNT_SLIDES = """
window.slides = 0;
const animate = Element.prototype.animate;
window.slideMs = 0;
Element.prototype.animate = function (keyframes, options) {
  if (Array.isArray(keyframes) && keyframes[0] && "translate" in keyframes[0]) {
    window.slides += 1;
    window.slideMs = Math.max(window.slideMs, (options && options.duration) || 0);
  }
  return animate.call(this, keyframes, options);
};
"""
"""Counts the slides the page starts (a slide animates ``translate``), however short they are."""
MOVING = "document.getAnimations().filter(a => a.id === 'card-move' || a.id === 'card-appear').length"


def play_until_a_card_moves(page: Page, clicks: int = 12) -> int:
    """Click what the table offers until a card slides; the number of animations running just after that click."""
    rnd = random.Random(5)
    for _ in range(clicks):
        before = page.evaluate("window.slides")
        one_click(page, rnd)
        running = int(page.evaluate(MOVING))
        if page.evaluate("window.slides") > before:
            return running
        wait_settled(page)
    return -1


def test_the_focus_survives_a_redraw_and_a_played_card_slides(page: Page) -> None:
    page.add_init_script(COUNT_SLIDES)
    page.goto(GAME)
    wait_settled(page)
    card = page.locator("#board button.card[data-select]").first
    card.focus()
    page.evaluate("window.focusedCard = document.activeElement")
    page.keyboard.press("Enter")  # selects the card: the table is drawn again, the card raised in place
    page.wait_for_function("document.querySelector('#board .selected') !== null")
    assert page.evaluate("document.activeElement === window.focusedCard && window.focusedCard.isConnected"), (
        "the very element that had the focus is still in the page and still focused"
    )
    running = play_until_a_card_moves(page)
    # a slide started; on a busy machine it may be over before the test looks, so its length is checked too
    assert running > 0 or 250 <= page.evaluate("window.slideMs") <= 400, "a card moved and slid for about 300 ms"
    assert page.evaluate("document.documentElement.dataset.moves") != "0", "the state is there at once"
    shot(page, "motion", "mid-slide")


def test_nothing_slides_with_reduced_motion(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(COUNT_SLIDES)
    page.goto(GAME)
    wait_settled(page)
    rnd = random.Random(5)
    for _ in range(4):
        one_click(page, rnd)
        assert page.evaluate(MOVING) == 0
        wait_settled(page)
    assert page.evaluate("window.slides") == 0, "no slide was started"
    assert int(page.evaluate("document.documentElement.dataset.moves")) > 0


WATCH_CLIPS = """
window.slidesSeen = 0;
window.clipped = [];
const animateFirst = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const animation = animateFirst.call(this, keyframes, options);
  if (Array.isArray(keyframes) && keyframes[0] && "translate" in keyframes[0]) {
    window.slidesSeen += 1;
    const element = this;
    requestAnimationFrame(() => {  // on its way: wholly inside every box that clips it
      const card = element.getBoundingClientRect();
      for (let box = element.parentElement; box; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const edge = box.getBoundingClientRect();
        if (card.left < edge.left - 1 || card.top < edge.top - 1 || card.right > edge.right + 1
            || card.bottom > edge.bottom + 1) window.clipped.push(box.className);
      }
    });
  }
  return animation;
};
"""
"""Counts the slides and notes every box that cut a sliding card off on its first frame."""


def test_a_card_played_into_the_grid_is_not_cut_off_on_its_way(page: Page) -> None:
    """Card-cassonne's grid scrolls inside its own box: a card played from the hand above it flies over the page
    (a copy, the card itself unseen until it lands) instead of sliding inside the grid's box, which would cut it off."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.add_init_script(WATCH_CLIPS)
    page.goto("index.html#" + mid_game("cardcassonne", 2, 3, 30))
    wait_settled(page)
    page.locator(".cc-hand [data-select]").first.click()
    wait_settled(page)
    page.locator("#board .zoomable [data-action]").first.click()
    page.wait_for_function("window.slidesSeen > 0")
    page.wait_for_timeout(100)
    assert page.evaluate("window.clipped") == [], "a sliding card was cut off by a box on its way"
    wait_settled(page)
    page.wait_for_function("!document.querySelector('.flying')")
