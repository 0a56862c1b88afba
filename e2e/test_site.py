"""The site as a whole: the lobby before Python, starting games, hot-seat privacy, bad addresses."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, Route, expect

import pyengine
from e2e.conftest import saved_record, wait_settled


def test_lobby_appears_before_python_is_ready(page: Page) -> None:
    """Hold back the Python runtime: the lobby is usable while the page is still loading."""
    held: list[Route] = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # answered once the lobby was used
    page.goto("index.html", wait_until="domcontentloaded")
    expect(page.locator("#lobby")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    titles = page.locator(".game-choice .title").all_inner_texts()
    assert titles == [info.title for info in pyengine.GAMES.values()]
    expect(page.locator("#runtime-progress")).to_be_visible()
    # the lobby already works: pick a game, change players, press Start before Python is there
    page.locator("input[name=game][value=silver-bars]").check()
    page.locator("#start").click()
    expect(page.locator("#start-note")).to_contain_text("as soon as Python is ready")
    assert held, "the page did not ask for the Python runtime"
    for route in held:
        route.continue_()
    wait_settled(page)
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#table-title")).to_have_text("100 Silver Bars")


def test_unknown_game_in_the_address_gives_a_message(page: Page) -> None:
    page.goto("index.html?game=chess")
    expect(page.locator("#lobby-error")).to_contain_text('no game called "chess"')
    wait_settled(page)
    expect(page.locator("#lobby")).to_be_visible()


def test_bad_player_count_in_the_address_gives_a_message(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=5&seed=1")
    wait_settled(page)
    expect(page.locator("#lobby-error")).to_contain_text("takes 2 to 2 players")
    expect(page.locator("#lobby")).to_be_visible()


CARD = re.compile(r"(?:10|[2-9AJQK])[♣♢♡♠]")


def cards_on_screen(page: Page) -> set[str]:
    """Every card named anywhere in the table (board, status, log), text and attributes included."""
    html = page.evaluate("['board', 'status', 'log'].map(id => document.getElementById(id).outerHTML).join('')")
    return set(CARD.findall(html))


def test_hotseat_hides_each_hand_from_the_other(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&seed=11&delay=0")
    for _turn in range(6):
        wait_settled(page)
        # the hand-over screen: nobody's cards on screen
        expect(page.locator("#board [data-ui='take-device']")).to_be_visible()
        state = pyengine.replay(saved_record(page))
        seat = state.current_player
        assert seat is not None
        public = json.dumps(state.view(None), ensure_ascii=False)
        assert all(card in public for card in cards_on_screen(page)), "a private card shows behind the hand-over screen"
        page.locator("#board [data-ui='take-device']").click()
        wait_settled(page)
        mine = json.dumps(state.view(seat), ensure_ascii=False)
        shown = cards_on_screen(page)
        assert all(card in mine for card in shown), "a card outside this player's view is on screen"
        hand = state.view(seat)["hand"]
        assert hand, "the player sees their own hand"
        other = state.view(1 - seat)["hand"]
        assert not {c for c in other if c not in mine} & shown
        # play something: a discard is legal unless a strike must be cleared
        legal = state.legal_texts()
        if page.locator("#board [data-select]").count():
            page.locator("#board [data-select]").first.click()
        discard = page.locator("#board [data-action^='discard']")
        (discard if discard.count() else page.locator("#board [data-action]")).first.click()
        assert pyengine.replay(saved_record(page)).history()[-1][1] in [state.parse_action(t) for t in legal]
