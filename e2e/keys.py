"""Playing by the keyboard alone: Tab into the table, the arrows to the wanted choice, Enter to choose it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from playwright.sync_api import Page

from e2e.conftest import wait_settled

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

CHOICES = "#board [data-action], #board [data-select], #board [data-ui]"
"""What the arrows move between (as ``web/boot.js`` does)."""

DESCRIBE = """(selector) => [...document.querySelectorAll(selector)].map((e) => ({
  action: e.dataset.action || null, select: e.dataset.select || null, ui: e.dataset.ui || null,
  name: e.getAttribute('aria-label') || e.textContent.trim(), focused: e === document.activeElement}))"""

HELD = """document.querySelector('#advice').textContent.includes('It shows a card')
  && document.querySelector('#board [data-action].hinted')?.dataset.action || null"""
"""The move the table holds for its second choice (it would show a card), or null."""

FOCUS_KEPT = """(s) => document.activeElement?.dataset.select === s
  || !document.querySelector(`[data-select='${s}']`)"""
"""After a redraw the chosen card has the focus again (unless the card is no longer there)."""


def near_the_end(game: str, seed: int, human_decisions_left: int) -> str:
    """The address of a game (seat 0 human, seat 1 the computer at easy, instant pace) a few of the human's
    decisions before a random playout's end: the keyboard test plays it out from there."""
    session = Session(Setup(game, 2, seed, [Seat(False), Seat(True, "easy")], {}, 0))
    rnd = random.Random(seed)
    states = [session.state]
    while not states[-1].is_terminal():
        states.append(states[-1].apply(rnd.choice(states[-1].legal_actions())))
    left = 0
    for state in reversed(states[:-1]):
        if state.current_player == 0:
            left += 1
            if left == human_decisions_left:
                session.state = state
                break
    return address.encode(session)


def mid_game(game: str, players: int, seed: int, moves: int) -> str:
    """The address of a game (seat 0 human, the others computers at easy, instant pace) after about ``moves``
    random moves, at the human's turn: a table mid-game without waiting for the computer in the page."""
    seats = [Seat(False)] + [Seat(True, "easy")] * (players - 1)
    session = Session(Setup(game, players, seed, seats, {}, 0))
    rnd = random.Random(seed)
    state = session.state
    for done in range(10 * moves):
        if done >= moves and state.current_player == 0:
            break
        later = state.apply(rnd.choice(state.legal_actions()))
        if later.is_terminal():
            break
        state = later
    session.state = state
    return address.encode(session)


def choose_by_keys(page: Page, want: dict[str, str | None]) -> None:
    """Move the focus to the choice ``want`` (as described by ``DESCRIBE``) with Tab and the arrows; press Enter."""
    for _ in range(80):  # Tab until the focus is among the table's choices
        if page.evaluate(f"!!document.activeElement?.matches('{CHOICES}')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the table's choices")
    choices = page.evaluate(DESCRIBE, CHOICES)
    keys = [(c["action"], c["select"], c["ui"]) for c in choices]
    here = next(i for i, c in enumerate(choices) if c["focused"])
    there = keys.index((want["action"], want["select"], want["ui"]))
    steps = (there - here) % len(keys)
    key = "ArrowRight" if steps <= len(keys) // 2 else "ArrowLeft"
    for _ in range(steps if key == "ArrowRight" else len(keys) - steps):
        page.keyboard.press(key)
    focused = page.evaluate(DESCRIBE, ":focus")
    assert focused and (focused[0]["action"], focused[0]["select"], focused[0]["ui"]) == keys[there], focused
    page.keyboard.press("Enter")


def play_by_keys(page: Page, rnd: random.Random, max_choices: int = 400) -> int:
    """Play the human's seat to the end of the game by the keyboard alone; return the number of choices made.

    Every choice has an accessible name; a chosen card keeps the focus after the table is redrawn, and after a
    move the focus is on the board's next choice."""
    made = 0
    while wait_settled(page) != "over":
        assert made < max_choices, "the game did not end"
        if made:  # after a move (and the computer's reply) the focus is on the board's next choice, not the top
            assert page.evaluate("!!document.activeElement?.closest('#board')"), page.evaluate(
                "document.activeElement?.outerHTML.slice(0, 120)")
        choices = page.evaluate(DESCRIBE, CHOICES)
        assert all(c["name"] for c in choices), [c for c in choices if not c["name"]]
        handover = [c for c in choices if c["ui"] == "take-device"]
        actions = [c for c in choices if c["action"]]
        selects = [c for c in choices if c["select"]]
        held = page.evaluate(HELD)
        if handover:
            want = handover[0]
        elif held:  # a move that shows a card waits for its second choice
            want = next(c for c in actions if c["action"] == held)
        elif actions and (not selects or rnd.random() < 0.85):
            want = rnd.choice(actions)
        elif selects:
            want = rnd.choice(selects)
        else:
            raise AssertionError(f"nothing to choose: {choices}")
        moves = page.evaluate("document.documentElement.dataset.moves")
        choose_by_keys(page, want)
        made += 1
        if want["select"]:  # a selection redraws the table: the focus stays on the chosen card
            page.wait_for_function(FOCUS_KEPT, arg=want["select"])
        else:
            page.wait_for_function(
                "(m) => document.documentElement.dataset.moves !== m || document.querySelector('#message').textContent"
                " || document.querySelector('#board [data-action].hinted')", arg=moves)
    return made
