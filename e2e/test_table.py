"""The table around every game: rules from the lobby, the computer's pace, keys and focus, play again."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from playwright.sync_api import Page, expect

from e2e.conftest import wait_settled
from e2e.play import one_click

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402


def test_rules_open_from_the_lobby_and_escape_closes_them(page: Page) -> None:
    page.goto("index.html")
    page.get_by_role("button", name="Rules of Carbondale").click()
    expect(page.locator("#rules")).to_be_visible()
    expect(page.locator("#rules-body")).to_contain_text("Carbondale")
    wait_settled(page)
    expect(page.locator("#rules-body .live-position .card:visible").first).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#rules")).to_be_hidden()


def test_the_computers_pace_is_chosen_in_the_lobby_and_at_the_table(page: Page) -> None:
    page.goto("index.html")
    wait_settled(page)
    page.locator("#open-setup").click()
    page.locator("input[name=game][value=silver-bars]").check()
    page.locator("#pace").select_option(label="Instant")
    page.locator("#start").click()
    wait_settled(page)
    assert "delay=0" in page.url
    page.locator("#pace-table").select_option(label="Slow")
    page.wait_for_function("location.hash.includes('delay=1500')")
    # the slowest pace the address allows (10 s): a quicker one chosen while the computer waits ends the wait
    page.goto("index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=10000")
    expect(page.locator("#pace-table option:checked")).to_have_text("10000 ms")  # not a blank box
    rnd = random.Random(7)
    while True:  # the human plays until the computer is to move, and waits
        page.wait_for_function("['ready', 'thinking'].includes(document.documentElement.dataset.state)")
        if page.evaluate("document.documentElement.dataset.state") == "thinking":
            break
        one_click(page, rnd)
    moves = page.evaluate("document.documentElement.dataset.moves")
    page.locator("#pace-table").select_option(label="Instant")
    page.wait_for_function("m => document.documentElement.dataset.moves !== m", arg=moves, timeout=5_000)


def test_keys_choose_and_the_focus_stays_on_the_same_choice(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0")
    wait_settled(page)
    first = page.locator("#board [data-select]").first
    token = first.get_attribute("data-select")
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#board .selected') !== null")
    assert page.evaluate("document.activeElement.dataset.select") == token, "the focus stays after the redraw"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.select") != token
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('#board .selected') === null")


def test_play_again_after_looking_at_the_table(page: Page) -> None:
    rnd = random.Random(4)
    session = Session(Setup("carbon-city-zero", 1, 21, [Seat(False)], {}, 0))
    while True:
        later = session.state.apply(rnd.choice(session.state.legal_actions()))
        if later.is_terminal():
            break
        session.state = later
    page.goto("index.html#" + address.encode(session))
    clicks = 0
    while wait_settled(page) != "over":
        one_click(page, rnd)
        clicks += 1
        assert clicks < 60
    page.locator("#over-close").click()
    expect(page.locator("#game-over")).to_be_hidden()
    old = page.url
    page.locator("#play-again-bar").click()
    page.wait_for_function("document.documentElement.dataset.moves === '0'")
    wait_settled(page)
    assert page.url != old and "moves=" in page.url


def test_the_banner_opens_to_its_full_text_and_survives_a_reload(page: Page) -> None:
    """On a phone the banner is one line; a tap opens it to all the computer did, and a reload tells it again."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("index.html?game=carbondale&players=3&seed=5&bots=1,2&level=easy&delay=0")
    rnd = random.Random(5)
    banner = page.locator("#banner")
    while not banner.inner_text():
        wait_settled(page)
        one_click(page, rnd)
    wait_settled(page)
    said = banner.inner_text()
    assert said.startswith("Computer ")
    expect(banner).to_have_attribute("aria-expanded", "false")
    banner.click()
    expect(banner).to_have_attribute("aria-expanded", "true")
    assert banner.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), "the whole text shows once opened"
    page.reload()
    wait_settled(page)
    expect(banner).to_have_text(said)
