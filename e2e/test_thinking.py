"""The computer thinks in its own worker (normal and hard), so the page never waits on the search."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Page, expect

from e2e.conftest import wait_settled
from e2e.play import one_click

GAME = "index.html?game=silver-bars&players=2&seed=11&bots=1&delay=0"


def decisions(page: Page) -> list[dict[str, object]]:
    return list(json.loads(page.evaluate("window.cardTable.decisionStats()")))


def play_until(page: Page, wanted: int, where: str) -> list[dict[str, object]]:
    """Click as a person until ``wanted`` computer decisions were made ``where`` (or the game ends)."""
    rnd = random.Random(3)
    for _ in range(400):
        made = [d for d in decisions(page) if d["where"] == where]
        if len(made) >= wanted or wait_settled(page) == "over":
            return made
        one_click(page, rnd)
    raise AssertionError(f"fewer than {wanted} decisions made in the {where}")


def test_a_normal_computer_thinks_in_its_worker_and_the_headline_says_so(page: Page) -> None:
    page.goto(f"{GAME}&level=normal")
    wait_settled(page)
    page.wait_for_function("window.cardTableThinker.status() === 'ready'", timeout=60_000)
    made = play_until(page, 2, "worker")
    assert len(made) >= 2
    assert all(d["level"] == "normal" and int(d["iterations"]) > 0 for d in made)  # type: ignore[call-overload]
    # at the slow pace the computer's turn is seen, and the headline says who is thinking
    page.locator("#pace-table").select_option(label="Slow")
    rnd = random.Random(5)
    for _ in range(60):
        if page.evaluate("document.documentElement.dataset.state") == "thinking":
            break
        if wait_settled(page) == "over":
            return
        one_click(page, rnd)
    expect(page.locator("#status .headline")).to_have_text("Computer 2 (normal) is thinking…")


def test_the_page_thinks_when_the_worker_cannot_start(page: Page) -> None:
    page.route(
        "**/web/think.js",
        lambda route: route.fulfill(
            body="postMessage({type: 'failed', error: 'no worker here'});", content_type="text/javascript"
        ),
    )
    page.goto(f"{GAME}&level=normal")
    wait_settled(page)
    page.wait_for_function("window.cardTableThinker.status() === 'failed'")
    made = play_until(page, 1, "page")
    assert made and not [d for d in decisions(page) if d["where"] == "worker"]


def test_easy_thinks_in_the_page_without_starting_a_worker(page: Page) -> None:
    page.goto(f"{GAME}&level=easy")
    wait_settled(page)
    play_until(page, 1, "page")
    assert page.evaluate("window.cardTableThinker.status()") == "off"
