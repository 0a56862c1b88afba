"""Playing a game in the page the way a person does: by clicking what the table offers."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from e2e.conftest import wait_settled

CLICKABLE = "#board [data-action]:visible, #board [data-select]:visible, #board [data-ui='take-device']:visible"


def click_through(page: Page, rnd: random.Random, max_clicks: int = 5000, prefer: tuple[str, ...] = ()) -> int:
    """Click random offered elements until the game is over; return the number of clicks.

    Actions are preferred over selections; ``prefer`` lists action-text prefixes to pick first
    when offered (to steer a random human towards finishing).
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
        one_click(page, rnd, prefer)
        clicks += 1
    raise AssertionError(f"the game did not end within {max_clicks} clicks")


def one_click(page: Page, rnd: random.Random, prefer: tuple[str, ...] = ()) -> None:
    """One click of a random human (a human is to move): mostly an action, sometimes a selection.

    ``prefer`` lists action-text prefixes picked first when offered.
    """
    actions = page.locator("#board [data-action]:visible")
    texts = actions.evaluate_all("els => els.map(e => e.dataset.action)")
    selects = page.locator("#board [data-select]:visible")
    if texts and (not selects.count() or rnd.random() < 0.7):
        preferred = [t for t in texts if t.startswith(prefer)] if prefer else []
        actions.nth(texts.index(rnd.choice(preferred or texts))).click()
    elif selects.count():
        selects.nth(rnd.randrange(selects.count())).click()
    else:
        raise AssertionError("a human is to move but the table offers nothing to click")
