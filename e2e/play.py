"""Playing a game in the page the way a person does: by clicking what the table offers."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, Page

import pyengine
from e2e.conftest import wait_settled
from pyengine.ai import RandomBot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

from tests.bench.rulebased import CHOOSERS, RuleBasedBot  # noqa: E402
from tests.games import settings  # noqa: E402

STEADY_DICE = """(seed) => {
  // The page's own randomness from a seeded generator: the computer seats' secret (and so their play) is the
  // same in every run, and a whole game in the browser lasts as long each time.
  const mask = 0xffffffffffffffffn;  // a 64-bit xorshift
  let state = BigInt(seed) || 1n;
  crypto.getRandomValues = (array) => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state ^= (state << 13n) & mask; state ^= state >> 7n; state ^= (state << 17n) & mask;
      bytes[i] = Number(state & 0xffn);
    }
    return array;
  };
}"""


def steady_dice(page: Page, seed: int) -> None:
    """Give the page (before it opens) randomness from ``seed``: the computers' secret draws, hence their moves and
    the game's length, are the same in every run, so a whole game by clicking takes as long each time."""
    page.add_init_script(f"({STEADY_DICE})({seed})")


CLICKABLE = "#board [data-action]:visible, #board [data-select]:visible, #board [data-ui='take-device']:visible"


def click_through(page: Page, rnd: random.Random, max_clicks: int = 5000, prefer: tuple[str, ...] = (),
                  best: Callable[[str], bool] | None = None) -> int:
    """Click random offered elements until the game is over; return the number of clicks.

    Actions are preferred over selections; ``prefer`` lists action-text prefixes to pick first
    when offered (to steer a random human towards finishing), and an action ``best`` holds is taken at once.
    """
    clicks = 0
    while clicks < max_clicks:
        if wait_settled(page) == "over":
            return clicks
        handover = page.locator("#board [data-ui='take-device']")
        if handover.count():
            handover.first.click()
            clicks += 1
            continue
        one_click(page, rnd, prefer, best)
        clicks += 1
    raise AssertionError(f"the game did not end within {max_clicks} clicks")


def one_click(page: Page, rnd: random.Random, prefer: tuple[str, ...] = (),
              best: Callable[[str], bool] | None = None) -> None:
    """One click of a random human (a human is to move): mostly an action, sometimes a selection.

    ``prefer`` lists action-text prefixes picked first when offered; an offered action ``best`` holds is taken.
    """
    if tap_held(page):  # a move that shows a card waits for its second tap
        return
    actions = page.locator("#board [data-action]:visible")
    texts = actions.evaluate_all("els => els.map(e => e.dataset.action)")
    selects = page.locator("#board [data-select]:visible")
    taken = [t for t in texts if best and best(t)]
    if taken:
        play_move(page, actions.nth(texts.index(taken[0])))
    elif texts and (not selects.count() or rnd.random() < 0.7):
        preferred = [t for t in texts if t.startswith(prefer)] if prefer else []
        play_move(page, actions.nth(texts.index(rnd.choice(preferred or texts))))
    elif selects.count():
        selects.nth(rnd.randrange(selects.count())).click()
    else:
        raise AssertionError("a human is to move but the table offers nothing to click")


HELD = "It shows a card"
"""What the table says of a move it holds for a second tap (:mod:`cardtable_web.misclick`)."""

PLAYED_OR_HELD = f"""(m) => document.documentElement.dataset.moves !== m
  || document.querySelector('#message').textContent
  || document.querySelector('#advice').textContent.includes('{HELD}')"""
"""A script function of the moves before a tap: true once the tap played a move, was refused or is held."""


def tap_held(page: Page) -> bool:
    """Tap the move the table holds, if it holds one (it would show a card, so it waits for its second tap)."""
    held = page.locator("#board [data-action].hinted:visible")
    if held.count() and HELD in page.locator("#advice").inner_text():
        held.first.click()
        return True
    return False


def play_move(page: Page, target: Locator) -> None:
    """Play the move ``target`` offers as a player does: tap it, and tap it again if the table holds it (a move
    that would draw or reveal a card waits for a second tap)."""
    moves = page.evaluate("document.documentElement.dataset.moves")
    target.click()
    page.wait_for_function(PLAYED_OR_HELD, arg=moves)
    tap_held(page)


def near_the_end(game: str, players: int, seed: int, bots: list[int], left: int, level: str = "easy",
                 options: dict[str, object] | None = None, delay: int = 0) -> str:
    """The address (``index.html#...``) of a game with these settings, played in CPython by quick players (the
    rule-based player where the game has a quick one, else random moves) to ``left`` moves before its end: a browser
    test clicks the end of a whole game without spending minutes on its middle. (A game opened from such an
    address does not count in the statistics.)"""
    seats = [Seat(i in bots, level) for i in range(players)]
    session = Session(Setup(game, players, seed, seats, dict(options or {}), delay))
    quick = RuleBasedBot(game, seed) if game in CHOOSERS and settings(game).quick_start else RandomBot(seed)
    state = session.state
    while not state.is_terminal():
        state = state.apply(quick.choose(state))
    record = state.record()
    session.state = pyengine.replay({**record, "actions": record["actions"][:-left]})
    return "index.html#" + address.encode(session)
