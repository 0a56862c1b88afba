"""Players keep their games: the address is the game, kept games, two tabs, take-backs, sharing, replay."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

import pyengine
from e2e.conftest import saved_record, wait_settled
from e2e.play import one_click, play_move
from pyengine.takeback import take_back_point
from tests.games import GAME_IDS, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

LINKS = {game: settings(game).link(game) for game in GAME_IDS}


def moves(page: Page) -> int:
    return int(page.evaluate("document.documentElement.dataset.moves || '0'"))


def clicks(page: Page, rnd: random.Random, count: int) -> None:
    """``count`` clicks of a random human, waiting for the table (and the computer) after each."""
    for _ in range(count):
        if wait_settled(page) == "over":
            return
        handover = page.locator("#board [data-ui='take-device']")
        (handover.first.click() if handover.count() else one_click(page, rnd))
    wait_settled(page)


@pytest.mark.parametrize("game", ["carbondale", "carbon-city-zero"])
def test_reload_resumes_an_address_started_game_exactly(page: Page, game: str) -> None:
    """A real reload, of a game against the computer and a solo one (every game: tests/test_controller.py)."""
    page.goto(f"index.html?game={game}&{LINKS[game]}&level=easy&delay=0")
    wait_settled(page)
    clicks(page, random.Random(game), 6)
    before, record, url = moves(page), saved_record(page), page.url
    assert before > 0 and "#game=" in url and "?game=" not in url, "the address holds the game, not the new-game link"
    page.reload()
    page.wait_for_function(f"document.documentElement.dataset.moves === '{before}'")
    wait_settled(page)
    assert saved_record(page) == record and page.url == url


def test_back_returns_to_the_lobby_and_forward_to_the_table(page: Page) -> None:
    page.goto("index.html")
    wait_settled(page)
    page.mouse.wheel(0, 400)  # the lobby scrolled down: the table still opens at its top
    page.locator("#open-setup").click()
    page.locator("input[name=game][value=carbondale]").check()
    page.get_by_label("Player 2 level").select_option("easy")  # quick replies: this test is about the address
    page.locator("#pace").select_option(label="Instant")
    page.locator("#start").click()
    wait_settled(page)
    assert page.evaluate("window.scrollY") == 0
    clicks(page, random.Random(1), 3)
    played = moves(page)
    page.go_back()
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#kept li")).to_have_count(1)
    expect(page.locator("#kept li")).to_contain_text(re.compile(r"Carbondale against Computer \(easy\), .*ago|now"))
    page.go_forward()
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_function(f"document.documentElement.dataset.moves === '{played}'")


def test_another_games_link_keeps_the_unfinished_one_and_play_again_gets_its_own_address(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0")
    wait_settled(page)
    clicks(page, random.Random(2), 3)
    played = moves(page)
    page.goto("index.html?game=carbles&players=2&seed=4&bots=1&level=easy&delay=0")
    wait_settled(page)
    clicks(page, random.Random(3), 2)
    page.locator("#to-lobby").click()
    expect(page.locator("#kept li")).to_have_count(2)
    expect(page.locator("#kept")).to_contain_text("100 Silver Bars against Computer (easy), round 1")
    page.locator("#kept li", has_text="Silver Bars").get_by_role("button", name="Continue").click()
    wait_settled(page)
    assert "game=silver-bars" in page.url and moves(page) == played > 0


def test_a_second_tab_is_told_and_loses_nothing(context: BrowserContext, page: Page) -> None:
    page.goto("index.html?game=carbondale&players=2&seed=3&bots=1&level=easy&delay=0")
    wait_settled(page)
    clicks(page, random.Random(4), 2)
    other = context.new_page()
    other.goto(page.url)
    wait_settled(other)
    clicks(other, random.Random(5), 3)
    newer = moves(other)
    expect(page.locator("#elsewhere")).to_be_visible()
    page.locator("[data-ui='load-newer']").click()
    page.wait_for_function(f"document.documentElement.dataset.moves === '{newer}'")
    assert saved_record(page) == saved_record(other)


def test_take_back_against_the_computer_and_its_refusal_after_a_draw(page: Page) -> None:
    page.goto("index.html?game=carbondale&players=2&seed=3&bots=1&level=easy&delay=0")
    rnd = random.Random(6)
    for _ in range(40):
        wait_settled(page)
        if page.locator("#undo").is_enabled():
            break
        one_click(page, rnd)
    else:
        raise AssertionError("no take-back was offered in 40 clicks of Carbondale")
    state = pyengine.replay(saved_record(page))
    point = take_back_point(state, 0, {1})
    assert point is not None
    page.locator("#undo").click()
    page.wait_for_function(f"document.documentElement.dataset.moves === '{len(point.history())}'")
    record = saved_record(page)
    assert record["actions"] == point.record()["actions"] and record["takebacks"] == 1
    # Silver Bars: every play draws a card, so it cannot be taken back
    page.goto("index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0")
    wait_settled(page)
    page.locator("#board [data-select]").first.click()
    play_move(page, page.locator("#board [data-action^='discard']").first)  # a discard draws a card
    wait_settled(page)
    expect(page.locator("#undo")).to_be_disabled()  # it looks refused (aria-disabled) and says why when tapped
    assert "card seen for the first time" in (page.locator("#undo").get_attribute("title") or "")
    page.locator("#undo").click(force=True)  # (force: a tap on a refused control, which the browser passes on)
    expect(page.locator("#message")).to_contain_text("Nothing to take back")


def test_a_shared_address_opens_the_same_game_in_a_fresh_browser(browser: Browser, page: Page, base_url: str) -> None:
    page.goto("index.html?game=cardcassonne&players=2&seed=2&bots=1&level=easy&delay=0")
    wait_settled(page)
    clicks(page, random.Random(7), 4)
    page.locator("#share").click()
    expect(page.locator("#share-note")).to_contain_text("contains the whole deal")
    shared = page.locator("#share-address").input_value()
    # the address bar names the table, never the deal; Share gives the address with the deal
    assert "seed=" not in page.url and "table=" in page.url
    assert "seed=2" in shared and "table=" not in shared and shared.split("#")[0] == page.url.split("#")[0]
    fresh = browser.new_context(base_url=base_url, service_workers="block", reduced_motion="reduce")
    try:
        there = fresh.new_page()
        there.goto(page.url)  # the sealed address alone: this browser has no deal for it
        expect(there.locator("#lobby-error")).to_contain_text(
            "kept only in the browser where it was played", timeout=120_000
        )
        there.goto(shared)
        there.wait_for_function(f"document.documentElement.dataset.moves === '{moves(page)}'", timeout=120_000)
        assert saved_record(there) == saved_record(page)
        assert "seed=" not in there.url and "table=" in there.url  # sealed there too
    finally:
        fresh.close()


def test_a_finished_game_replays_to_its_final_scores(page: Page) -> None:
    """A finished game's address opens in the replay viewer; stepping to the end shows the final scores."""
    rnd = random.Random(8)
    session = Session(Setup("carbon-city-zero", 1, 11, [Seat(False)], {}, 0))
    while not session.state.is_terminal():
        session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
    final = session.state
    page.goto("index.html#" + address.encode(session))
    page.wait_for_function("document.documentElement.dataset.replayIndex !== undefined")
    page.locator("[data-ui='replay-first']").click()
    expect(page.locator("#status")).to_contain_text("the start")
    for step in range(len(final.history())):
        page.locator("[data-ui='replay-forward']").click()
        page.wait_for_function(f"document.documentElement.dataset.replayIndex === '{step + 1}'")
    shown = page.locator("#status .score b").all_inner_texts()
    # Carbon City Zero's score, in words (a game whose carbon went up says so)
    assert shown == [f"cut {int(s)} carbon" if s >= 0 else f"added {-int(s)} carbon" for s in final.scores()]
    page.locator("#log [data-step='3']").click()
    page.wait_for_function("document.documentElement.dataset.replayIndex === '3'")
    # the position is shown with the latest turn marked, as the table marks it
    expect(page.locator("#board .last-label").first).to_have_text("your last move")
    page.locator("[data-ui='replay-first']").click()
    expect(page.locator("#board .last-label")).to_have_count(0)
    # on a phone the caption (the move and what it did) keeps to two lines of its own under the scores
    page.set_viewport_size({"width": 360, "height": 740})
    page.locator("[data-ui='replay-forward']").click()
    page.wait_for_function("document.documentElement.dataset.replayIndex === '1'")
    head = page.locator(".table-bar").bounding_box()
    caption = page.locator("#status .headline").bounding_box()
    assert head is not None and caption is not None
    assert head["height"] < 740 / 4 and caption["width"] > 300, (head, caption)


def test_finished_games_are_listed_with_statistics(page: Page) -> None:
    """A game dealt from a fresh secret seed counts in the statistics (one whose seed was chosen, typed or in a
    link, would not)."""
    page.goto("index.html?game=carbon-city-zero&players=1&delay=0")
    wait_settled(page)
    rnd2 = random.Random(10)
    while wait_settled(page) != "over":
        one_click(page, rnd2)
    page.locator("#over-to-lobby").click()
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#history li")).not_to_contain_text("not counted")
    expect(page.locator("#statistics")).to_contain_text("Carbon City Zero")
    expect(page.locator("#kept li")).to_have_count(0)
    page.locator("#history li").get_by_role("button", name="Replay").click()
    page.wait_for_function("document.documentElement.dataset.replayIndex !== undefined")
    assert json.loads(page.evaluate("localStorage.getItem('cardtable.history')"))[0]["game"] == "carbon-city-zero"


def test_no_seed_is_shown_and_a_typed_one_is_a_chosen_deal(page: Page) -> None:
    """The lobby never shows the seed of the game in play or of the one Start will deal: its Seed box stays empty,
    the game is dealt from 128 secret bits (kept as text, so no script's numbers change it) with the keyed deal, and
    the page deals what the engine deals. A typed seed is a chosen deal, kept as not counted."""
    page.goto("index.html")
    expect(page.locator("#seed")).to_have_value("")
    page.goto("index.html?game=silver-bars&players=2&bots=1&level=easy&delay=0")
    wait_settled(page)
    clicks(page, random.Random(3), 4)
    record = saved_record(page)
    assert isinstance(record["seed"], str) and int(record["seed"]).bit_length() > 100, record["seed"]
    assert record["rules_version"] == pyengine.GAMES["silver-bars"].rules_version
    replayed = pyengine.replay(record)  # the page's deal is CPython's: every move the page allowed replays
    assert replayed.played == len(record["actions"]) > 0
    page.locator("#to-lobby").click()
    expect(page.locator("#seed")).to_have_value("")
    assert record["seed"] not in page.locator("#lobby").inner_text()
    page.goto("index.html?game=silver-bars&players=2&bots=1&level=easy&delay=0")  # Python restored anew
    wait_settled(page)
    assert page.evaluate("document.documentElement.dataset.python") == "snapshot"
    again = saved_record(page)
    assert again["seed"] != record["seed"], "a snapshot's fixed entropy must not fix the seeds"
    page.locator("#to-lobby").click()
    page.locator("#open-setup").click()  # the seed box lives in the set-up sheet
    page.locator("#seed").fill("12345678901234567890123456789012345678")
    page.locator("#start").click()
    wait_settled(page)
    chosen = json.loads(page.evaluate(f"localStorage.getItem('cardtable.kept.' + {json.dumps(_newest_key(page))})"))
    assert chosen["record"]["seed"] == "12345678901234567890123456789012345678" and chosen["counted"] is False


def _newest_key(page: Page) -> str:
    saves = json.loads(page.evaluate("localStorage.getItem('cardtable.saves')"))
    return max(saves, key=lambda key: saves[key]["updated"])
