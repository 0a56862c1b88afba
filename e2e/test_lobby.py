"""The lobby as a new player meets it: a card per game with a picture of its table, Play in the first screen of a
phone, one tap to a game against the computer at the last settings; names given once, shown at the table, in the
log, the results and the history, and never run as markup."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

import pyengine
from e2e.conftest import Watch, returning_visitor, shot, wait_settled
from e2e.play import click_through
from pyengine.ai import RandomBot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web.keeping import Keeper, MemoryStorage  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import read_setup  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
NAME = "<i>Ann</i> & Co"
"""A name that would be markup if it were ever put into the page as HTML."""


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[tuple[Page, Watch]]:
    context = browser.new_context(base_url=base_url, service_workers="block", **PHONE)  # type: ignore[arg-type]
    returning_visitor(context, base_url)
    page = context.new_page()
    watch = Watch(page, base_url)
    page.set_default_timeout(60_000)
    yield page, watch
    assert not watch.problems, "\n".join(watch.problems)
    context.close()


def test_on_a_phone_the_first_games_play_is_in_the_first_screen_and_one_tap_plays(phone: tuple[Page, Watch]) -> None:
    page, _ = phone
    page.goto("index.html")
    wait_settled(page)
    cards = page.locator(".game-card")
    expect(cards).to_have_count(len(pyengine.GAMES))
    first = cards.first.locator(".play")
    box = first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert box["height"] >= 44 and box["width"] >= 44, "a finger-sized Play"
    pictures = "performance.getEntriesByType('resource').filter((e) => e.name.includes('/pictures/')).length"
    page.wait_for_function(f"{pictures} > 0")  # a picture's entry is there once its page has loaded
    assert page.evaluate(pictures) < len(pyengine.GAMES), "only the pictures near the first screen are loaded"
    for card, game in zip(cards.all(), pyengine.GAMES, strict=True):  # each game shown by its own table
        assert card.get_attribute("data-game") == game
        card.scroll_into_view_if_needed()  # its picture loads as it comes on screen
        frame = card.locator(".game-picture iframe").content_frame
        expect(frame.locator("#board [data-card], #board .card").first).to_be_attached()
        expect(card.locator(".game-more button")).to_have_count(4)  # Learn to play, Play with others, Rules, Set up
    assert "Python" not in page.locator("body").inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "lobby", "phone")
    first.tap()
    wait_settled(page)
    expect(page.locator("#table")).to_be_visible()
    first_game = next(iter(pyengine.GAMES))
    assert f"game={first_game}" in page.url and "players=2" in page.url and "bots=1" in page.url
    assert "level=normal" in page.url, "the first time: two players, against the normal computer"


def test_carbon_city_zero_plays_solo_first_and_then_at_the_last_settings(page: Page) -> None:
    page.goto("index.html")
    wait_settled(page)
    card = page.locator(".game-card[data-game=carbon-city-zero]")
    expect(card.locator(".play-words")).to_have_text("Solo")
    card.locator(".play").click()
    wait_settled(page)
    assert "players=1" in page.url and "bots=" not in page.url
    page.locator("#to-lobby").click()
    # the full set-up is one tap away; what it starts becomes the card's Play
    page.locator(".game-card[data-game=silver-bars] .setup-link").click()
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("input[name=game][value=silver-bars]")).to_be_checked()
    page.get_by_label("Player 2 level").select_option("easy")
    page.locator("#pace").select_option(label="Instant")
    page.locator("#start").click()
    wait_settled(page)
    page.locator("#to-lobby").click()
    play_words = page.locator(".game-card[data-game=silver-bars] .play-words")
    expect(play_words).to_have_text("You against the computer (easy)")
    expect(page.locator("#kept-box")).to_be_visible()  # unfinished games come first, whose turn it is
    expect(page.locator("#kept li").first).to_contain_text(re.compile(r"^Your turn in 100 Silver Bars"))
    page.locator(".game-card[data-game=silver-bars] .play").click()
    wait_settled(page)
    assert "level=easy" in page.url and "delay=0" in page.url


def kept_near_the_end(game: str, players: int, names: list[str], left: int) -> dict[str, str]:
    """The browser storage of a hot-seat game between named players, kept ``left`` moves before its end. It stands
    for a game started from the lobby with no typed seed, which counts in the statistics: seed 11 keeps the test's
    deal fixed, and the setup is marked as a fresh deal rather than a chosen one."""
    setup = read_setup({"game": game, "players": players, "seed": 11, "bots": [], "delay": 0, "names": names})
    setup = dataclasses.replace(setup, chosen=False)
    session = Session(setup)
    quick = RandomBot(3)
    states = [session.state]
    while not states[-1].is_terminal():
        states.append(states[-1].apply(quick.choose(states[-1])))
    session.state = states[-1 - left]
    keeper = Keeper(MemoryStorage())
    keeper.keep(session)
    return keeper.storage.items  # type: ignore[attr-defined, no-any-return]


def test_names_reach_the_table_the_log_the_results_and_the_history_as_text(page: Page) -> None:
    page.goto("index.html")
    wait_settled(page)
    page.locator("#your-name").fill(NAME)
    page.reload()
    wait_settled(page)
    expect(page.locator("#your-name")).to_have_value(NAME)  # kept in the browser
    page.locator(".game-card[data-game=silver-bars] .play").click()
    wait_settled(page)
    expect(page.locator("#status")).to_contain_text(NAME)
    assert page.locator("#status i").count() == 0, "a name is never markup"
    page.locator("#to-lobby").click()

    stored = kept_near_the_end("silver-bars", 2, [NAME, "Ben"], 3)
    page.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", stored)
    page.reload()
    wait_settled(page)
    row = page.locator("#kept li", has_text="Ben on this device")
    expect(row).to_contain_text(NAME)
    row.get_by_role("button", name="Continue").click()
    wait_settled(page)
    expect(page.locator("#status")).to_contain_text("Ben")
    click_through(page, random.Random(5))
    expect(page.locator("#game-over")).to_be_visible()
    results = page.locator("#game-over-text").inner_text()
    assert NAME in results and "Ben" in results, results
    log = page.locator("#log").inner_text()
    assert NAME in log or "Ben" in log, log
    for where in ("#status", "#game-over-text", "#log", "#banner"):
        assert page.locator(f"{where} i").count() == 0, f"a name became markup in {where}"
    shot(page, "lobby", "named-results")
    page.locator("#over-to-lobby").click()
    expect(page.locator("#history li").first).to_contain_text(f"{NAME} and Ben on this device")
    expect(page.locator("#statistics")).to_contain_text("between people: 1 played")
    kept = json.loads(page.evaluate("localStorage.getItem('cardtable.history')"))[0]
    assert kept["names"] == [NAME, "Ben"]
    assert NAME not in page.url, "names stay out of the address"


def test_a_long_name_is_cut_and_a_seat_named_in_the_set_up_plays_under_it(page: Page) -> None:
    page.goto("index.html")
    wait_settled(page)
    page.locator("#open-setup").click()
    page.locator("input[name=game][value=carbles]").check()
    page.locator("#players").select_option("2")
    page.get_by_label("Player 2 is").select_option("human")
    page.get_by_label("Player 1's name").fill("Zed")
    page.get_by_label("Player 2's name").fill("Y" * 40)
    page.locator("#start").click()
    wait_settled(page)
    status = page.locator("#status").inner_text()
    assert "Zed" in status and "Y" * 20 in status and "Y" * 21 not in status, status
