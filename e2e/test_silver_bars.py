"""100 Silver Bars in the browser: a whole match against the computer, by clicking."""

from __future__ import annotations

import random

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import finished_record, saved_record, wait_settled
from e2e.play import click_through, near_the_end, steady_dice


def test_a_whole_match_against_the_computer(page: Page) -> None:
    """The end of a match by clicking (its first rounds played in CPython), then Play again."""
    steady_dice(page, 7)
    page.goto(near_the_end("silver-bars", 2, 7, [1], left=60))
    wait_settled(page)
    expect(page.locator("#table-title")).to_have_text("100 Silver Bars")
    expect(page.locator("#board")).to_contain_text("Vault 5")
    record_seen = saved_record(page)
    assert record_seen["game"] == "silver-bars" and record_seen["seed"] == 7
    clicks = click_through(page, random.Random(7), max_clicks=6000, prefer=("lock", "play", "miner", "clear"))
    assert clicks > 10
    expect(page.locator("#game-over")).to_be_visible()
    text = page.locator("#game-over-text").inner_text()
    assert "win" in text
    scores = [int(s) for s in page.locator("#game-over-text .score b").all_inner_texts()]
    assert max(scores) >= 100, "a match is played to 100"
    assert page.evaluate("document.documentElement.dataset.state") == "over"
    # the log speaks to the person at the screen: "You deal", "your vault", never "You deals" or "You's"
    log = page.locator("#log").inner_text()
    assert "You " in log and "Computer 2 (easy) " in log
    for wrong in ("You deals", "You puts", "You discards", "You locks", "You scores", "You wins", "You's", "Player 1"):
        assert wrong not in log, wrong
    # the finished game's record is kept, and replays to the scores shown
    finished = pyengine.replay(finished_record(page))
    assert finished.is_terminal() and finished.scores() == scores
    # play again: a fresh game with the same seats and a new seed
    page.locator("#play-again").click()
    wait_settled(page)
    expect(page.locator("#game-over")).to_be_hidden()
    fresh = saved_record(page)
    assert fresh["seed"] != 7 and fresh["options"] == record_seen["options"]
    assert not pyengine.replay(fresh).is_terminal()


def test_a_bad_click_gets_a_clear_message(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0")
    wait_settled(page)
    # forge a click on an action that is not legal: the page answers in words, no stack trace
    page.evaluate(
        """() => { const b = document.createElement('button'); b.dataset.action = 'lock v9'; b.id = 'forged';
                   document.getElementById('board').append(b); }"""
    )
    page.locator("#forged").click()
    message = page.locator("#message").inner_text()
    assert message and "Traceback" not in message
    assert "no such vault" in message
    state = pyengine.replay(saved_record(page))
    assert not state.is_terminal()
