"""Cards move: the table is morphed in place (elements keep their identity, so the focus stays) and what a move
changes travels from where it was to where it lands in 200-300 ms, except with ``prefers-reduced-motion: reduce``.

One page per game, each opened at a position where the move to watch is the human's to play (found by random
play in CPython). The page holds every animation a move starts (paused as it begins), so each is measured at its
start, middle and end however busy the machine is, then let go."""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import pyengine
from e2e.conftest import shot, wait_settled
from e2e.play import one_click, play_move

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.html import selecting  # noqa: E402
from cardtable_web.registry import site_game  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

pytestmark = pytest.mark.motion  # these pages move (the other browser tests ask for reduced motion)

HOLD = """
window.holdMotion = false;
window.held = [];
window.measured = [];
const animateFirst = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const animation = animateFirst.call(this, keyframes, options);
  if (window.holdMotion) {
    animation.pause();
    window.held.push(animation);
    queueMicrotask(() => measure(animation)); // once the redraw has named it, before anything can redraw again
  }
  return animation;
};
function measure(a) {
  if (a.id !== "card-move") return;
  const element = a.effect.target;
  const duration = a.effect.getTiming().duration;
  const at = (time) => {
    a.currentTime = time;
    const box = element.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  };
  const [start, middle, end] = [at(0), at(duration / 2), at(duration - 0.01)];
  const clipped = [];
  a.currentTime = 0;
  const box = element.getBoundingClientRect();
  for (let up = element.parentElement; up; up = up.parentElement) {  // at its start, inside every box that clips it
    const style = getComputedStyle(up);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const edge = up.getBoundingClientRect();
    if (box.left < edge.left - 1 || box.top < edge.top - 1 || box.right > edge.right + 1
        || box.bottom > edge.bottom + 1) clipped.push(up.className);
  }
  window.measured.push({key: element.getAttribute("data-card") || element.getAttribute("data-piece") || "",
    copy: element.classList.contains("flying"), text: element.textContent.trim(), duration, start, middle, end,
    clipped});
}
window.travels = () => window.measured;
window.letGo = () => {
  window.holdMotion = false;
  window.held.forEach((a) => a.play());
  window.held = [];
  window.measured = [];
};
"""
"""Holds every animation started while ``window.holdMotion`` is set, and measures each slide as it starts
(``travels()``): where it starts, where it is halfway, where it ends, how long it takes, what clips it."""

SLOW = 5000
"""The computer's pause (ms): nothing redraws the table while a move's slides are measured."""

Want = Callable[[pyengine.State], str | None]


def position(game: str, players: int, seed: int, want: Want, steps: int = 2000) -> tuple[Session, str]:
    """A game (seat 0 human, the others computers) played at random until the human is to move and ``want`` finds
    the move to watch; the session there and that move's text."""
    seats = [Seat(False)] + [Seat(True, "easy")] * (players - 1)
    session = Session(Setup(game, players, seed, seats, {}, SLOW))
    rnd = random.Random(seed)
    state = session.state
    for _ in range(steps):
        if state.is_terminal():
            break
        action = want(state) if state.current_player == 0 else None
        if action is not None:
            session.state = state
            return session, action
        state = state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no position with the wanted move in {game} (seed {seed})")


def kind_of(
    state: pyengine.State, kind: str, test: Callable[[dict[str, Any]], bool] = lambda facts: True
) -> str | None:
    """The first legal move of this kind (by its facts) that passes ``test``."""
    return next((text for text, facts in state.moves().items() if facts["kind"] == kind and test(facts)), None)


def open_at(page: Page, session: Session) -> None:
    page.add_init_script(HOLD)
    page.goto("index.html#" + address.encode(session))
    wait_settled(page)


def choose(page: Page, session: Session, action: str) -> list[dict[str, Any]]:
    """Play ``action`` by clicking what the table offers (its card, then its marble...: the renderer's own way
    there) and return the slides it started, measured."""
    renderer = site_game(session.setup.game).render_module()
    view = session.screen_view()
    selection = None
    for _ in range(4):
        target = page.locator(f"#board [data-action={json.dumps(action, ensure_ascii=False)}]:visible")
        if target.count():
            break
        selection = renderer.selection_for(view, action, selection)
        if selection is None:  # the last selection shows the move: it is being drawn
            target.first.wait_for()
            break
        page.locator(
            f"#board [data-select={json.dumps(selecting(selection), ensure_ascii=False)}]:visible"
        ).first.click()
        wait_settled(page)
    moves = page.evaluate("document.documentElement.dataset.moves")
    page.evaluate("window.holdMotion = true")
    play_move(page, target.first)
    page.wait_for_function(f"document.documentElement.dataset.moves !== {json.dumps(moves)}")
    try:  # the move is drawn; its slides are measured as they start
        page.wait_for_function("window.measured.length > 0", timeout=10_000)
    except PlaywrightTimeout:
        pass  # nothing slid: the caller says what did not travel
    session.state = session.state.apply(action)
    return list(page.evaluate("window.travels()"))


def travelled(slides: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The slide that ``test`` picks, checked: it went some way, in 200-300 ms."""
    found = [slide for slide in slides if test(slide)]
    assert found, f"{what} did not travel (slides: {[(s['key'], s['text'][:20]) for s in slides]})"
    slide = found[0]
    assert math.dist(slide["start"], slide["end"]) > 40, f"{what} hardly moved: {slide}"
    assert 200 <= slide["duration"] <= 300, f"{what} took {slide['duration']} ms"
    return slide


def let_go(page: Page, settle: bool = True) -> None:
    """The held slides play on; with ``settle``, until the table waits for a human again (after the computer's
    long pause, when the move ended the turn), else only until every copy has landed."""
    page.evaluate("window.letGo()")
    if settle:
        wait_settled(page)
    else:
        page.wait_for_function("!document.querySelector('.flying')")


def test_silver_bars_focus_stays_and_stolen_silver_travels(page: Page) -> None:
    def thief(state: pyengine.State) -> str | None:
        for text in ("lo-thief", "hi-thief"):
            if text in state.legal_texts() and kind_of(state.apply(text), "steal"):
                return text
        return None

    session, action = position("silver-bars", 2, 1, thief)
    open_at(page, session)
    card = page.locator("#board button.card[data-select]").first
    card.focus()
    page.evaluate("window.focusedCard = document.activeElement")
    page.keyboard.press("Enter")  # selects the card: the table is drawn again, the card raised in place
    page.wait_for_function("document.querySelector('#board .selected') !== null")
    assert page.evaluate("document.activeElement === window.focusedCard && window.focusedCard.isConnected"), (
        "the very element that had the focus is still in the page and still focused"
    )
    page.keyboard.press("Escape")
    wait_settled(page)
    # a jack or joker, keyed by its card
    travelled(choose(page, session, action), lambda s: s["key"].startswith("J"), "the thief")
    let_go(page)
    steal = kind_of(session.state, "steal")
    assert steal
    slides = choose(page, session, steal)
    carried = session.state.view(0)["pending"]["carry"]  # the stolen card, in the thief's hands
    travelled(slides, lambda s: s["key"] == carried, "the stolen silver")
    shot(page, "motion", "silver-bars-stolen")
    let_go(page)
    place = kind_of(session.state, "place")
    assert place
    travelled(choose(page, session, place), lambda s: s["key"] == carried, "the stolen silver, into a vault")
    let_go(page, settle=False)  # the turn is over: the computer's long pause is not waited for


def near_track(page: Page, point: list[float]) -> float:
    """How far ``point`` is from the track's circle, in spaces (a space's width)."""
    return float(
        page.evaluate(
            """([x, y]) => {
          const ring = document.querySelector(".cbl-ring").getBoundingClientRect();
          const [cx, cy] = [ring.left + ring.width / 2, ring.top + ring.height / 2];
          const space = document.querySelector('[data-place="t0"] .cbl-spot').getBoundingClientRect();
          const radius = Math.hypot(space.left + space.width / 2 - cx, space.top + space.height / 2 - cy);
          return Math.abs(Math.hypot(x - cx, y - cy) - radius) / space.width;
        }""",
            point,
        )
    )


def test_a_marble_travels_along_the_track_and_nothing_slides_with_reduced_motion(page: Page) -> None:
    def long_move(state: pyengine.State) -> str | None:
        return kind_of(state, "move", lambda f: "track" in f["from"] and "track" in f["to"] and f["steps"] >= 8)

    session, action = position("carbles", 2, 3, long_move)
    open_at(page, session)
    facts = session.state.moves()[action]
    marble = "marble {}.{}".format(*facts["marble"])
    slide = travelled(choose(page, session, action), lambda s: s["key"] == marble, "the marble")
    assert near_track(page, slide["middle"]) < 0.6, f"halfway, the marble is off the track: {slide}"
    chord = [(a + b) / 2 for a, b in zip(slide["start"], slide["end"], strict=True)]
    assert near_track(page, chord) > 1.2, "the test's move is long enough that its straight line leaves the track"
    shot(page, "motion", "carbles-marble")
    let_go(page, settle=False)  # the computer then waits its long pause: the pace below ends it
    mover = page.locator(".cbl-mover[data-seat='0']")
    assert mover.get_attribute("aria-label") == "your last move", "whose move it was is said, not only coloured"
    assert mover.locator("text").text_content() == "1", "the mover's number beside where the marble landed"

    page.emulate_media(reduced_motion="reduce")  # the same page: motion.js asks at every redraw
    page.select_option("#pace-table", "0")
    page.evaluate("window.holdMotion = true")
    rnd = random.Random(5)
    for _ in range(4):
        wait_settled(page)
        one_click(page, rnd)
    wait_settled(page)
    assert page.evaluate("window.held.length") == 0, "nothing slides with reduced motion"
    assert page.evaluate("document.querySelectorAll('.flying').length") == 0


def test_a_card_and_a_token_travel_into_card_cassonnes_grid_on_a_phone(page: Page) -> None:
    """The grid scrolls inside its own box: a card played from the hand above it flies over the page (a copy, the
    card itself unseen until it lands) instead of sliding inside the grid's box, which would cut it off; the token
    comes from its player's supply."""

    def with_token(state: pyengine.State) -> str | None:
        plays = [text for text, facts in state.moves().items() if facts["kind"] == "play"]
        return next((text for text in plays if "token" in state.apply(text).legal_texts()), None)

    page.set_viewport_size({"width": 360, "height": 740})
    session, action = position("cardcassonne", 2, 3, with_token)
    open_at(page, session)
    card = session.state.moves()[action]["card"]
    slides = choose(page, session, action)
    travelled(slides, lambda s: s["copy"] and s["text"] == card, "the card played")
    assert all(not s["clipped"] for s in slides), f"a sliding card was cut off by a box on its way: {slides}"
    shot(page, "motion", "cardcassonne-card")
    let_go(page)
    slides = choose(page, session, "token")
    travelled(slides, lambda s: s["copy"] and s["text"] == "1", "the token, from its player's supply")
    let_go(page, settle=False)  # the turn is over: the computer's long pause is not waited for


def test_a_card_travels_from_the_hand_to_carbondales_network(page: Page) -> None:
    session, action = position("carbondale", 2, 3, lambda state: kind_of(state, "build"))
    open_at(page, session)
    card = session.state.moves()[action]["card"]
    travelled(choose(page, session, action), lambda s: s["key"] == card or s["copy"] and s["text"] == card, card)
    let_go(page)


def test_a_bought_card_travels_from_the_marketplace(page: Page) -> None:
    session, action = position("carbon-city-zero", 1, 3, lambda state: kind_of(state, "buy"))
    open_at(page, session)
    name = session.state.moves()[action]["name"]
    slide = travelled(choose(page, session, action), lambda s: s["copy"] and name in s["text"], name)
    assert slide["end"][1] > slide["start"][1], "it went down to its deck's pile, below the marketplace"
    let_go(page)
