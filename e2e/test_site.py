"""The site as a whole: the lobby before Python, starting games, hot-seat privacy, bad addresses."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect

import pyengine
from e2e.conftest import KEPT_RECORD, saved_record, wait_settled
from e2e.play import play_move


def test_lobby_appears_before_python_is_ready(page: Page) -> None:
    """Hold back the Python runtime: the lobby is usable while the page is still loading."""
    held: list[Route] = []
    released: list[bool] = []

    def hold(route: Route) -> None:
        """Python's WebAssembly, answered once the lobby was used (the page may ask twice: its HTTP cache, then
        the file)."""
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/pyodide.asm.wasm*", hold)
    page.goto("index.html", wait_until="domcontentloaded")
    expect(page.locator("#lobby")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    titles = page.locator(".game-card .title").all_inner_texts()
    assert titles == [info.title for info in pyengine.GAMES.values()]
    expect(page.locator("#runtime-progress")).to_be_visible()
    # the lobby already works: press a game's Play before Python is there
    page.locator(".game-card[data-game=silver-bars] .play").click()
    expect(page.locator("#start-note")).to_contain_text("as soon as the games are ready")
    for _ in range(300):  # the request may come a little later on a busy machine
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page did not ask for the Python runtime"
    released.append(True)
    for route in held:
        route.continue_()
    wait_settled(page)
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#table-title")).to_have_text("100 Silver Bars")


def test_unknown_game_in_the_address_gives_a_message(page: Page) -> None:
    page.goto("index.html?game=chess")
    wait_settled(page)  # Python reads the address
    expect(page.locator("#lobby-error")).to_contain_text("no game called 'chess'")
    expect(page.locator("#lobby")).to_be_visible()
    # the shared browser is a returning visitor's (see conftest): Python started from the build's snapshot
    assert page.evaluate("document.documentElement.dataset.python") == "snapshot"


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
        play_move(page, (discard if discard.count() else page.locator("#board [data-action]")).first)
        assert pyengine.replay(saved_record(page)).history()[-1][1] in [state.parse_action(t) for t in legal]


# -- nothing breaks the page -------------------------------------------------------------------------------------------


def test_a_new_game_starts_after_leaving_while_the_computer_waits(page: Page) -> None:
    """Leaving during a computer's pause must not leave the next game thinking forever."""
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto("index.html?game=silver-bars&players=2&seed=5&bots=0,1&level=easy&delay=4000")
    page.wait_for_function("document.documentElement.dataset.state === 'thinking'")
    page.locator("#to-lobby").click()
    expect(page.locator("#lobby")).to_be_visible()
    page.locator("#open-setup").click()  # the sheet offers Play's settings, not the address's: a computer opens
    page.get_by_label("Player 1 is").select_option("computer")
    page.get_by_label("Player 1 level").select_option("easy")
    page.locator("#start").click()
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_function(f"{KEPT_RECORD}?.actions.length > 0", timeout=30_000)


def test_bad_address_values_give_one_message_and_the_lobby_still_starts_games(page: Page) -> None:
    """Two of the bad addresses (tests/test_setup.py reads every kind in CPython): the lobby shows the message,
    draws no absurd number of seats, and still starts a game."""
    for address, words in [
        ("index.html?game=silver-bars&seed=5&bots=1&level=bogus", "level"),
        ("index.html?game=carbles&players=100000", "takes 1 to 12 players"),
    ]:
        page.goto(address)
        wait_settled(page)  # Python reads the address
        expect(page.locator("#lobby-error")).to_contain_text(words)
        expect(page.locator("#setup")).to_be_visible()  # the set-up shows what the address gave
        assert page.locator("#seats li").count() <= 12
        expect(page.locator("#table")).to_be_hidden()
        page.locator("#start").click()
        wait_settled(page)
        expect(page.locator("#table")).to_be_visible()
        page.evaluate("localStorage.clear()")


def test_an_unreadable_save_is_put_aside_and_can_be_exported_and_cleared(page: Page) -> None:
    """An earlier version's save nested 100,000 deep (json.loads on it would crash Python in the page)."""
    page.goto("index.html")
    wait_settled(page)
    page.evaluate("localStorage.setItem('cardtable.current-game', '['.repeat(100000))")
    page.reload()
    wait_settled(page)
    expect(page.locator("#aside-box")).to_contain_text("could not be read and was put aside")
    aside = json.loads(page.evaluate("localStorage.getItem('cardtable.put-aside')"))
    assert [entry["text"] for entry in aside] == ["[" * 100000]
    assert page.evaluate("localStorage.getItem('cardtable.current-game')") is None
    page.locator("#aside-export").click()
    expect(page.locator("#copy-report")).to_be_visible()
    assert "[[[" in page.locator("#bug-report").input_value()
    page.reload()
    wait_settled(page)
    expect(page.locator("#lobby-error")).to_be_hidden()
    expect(page.locator("#aside-box")).to_be_visible()
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#aside-clear").click()
    expect(page.locator("#aside-box")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('cardtable.put-aside')") is None
    page.locator("#open-setup").click()
    page.locator("#start").click()
    wait_settled(page)
    expect(page.locator("#table")).to_be_visible()


HOSTILE = {
    "cardtable.saves": [
        '{"x": {"updated": "yesterday", "title": "T", "against": "a", "progress": "p", "line": "1", "moves": 1}}',
        "[" * 100_000, "{" * 5000, '{"a": 1}', '"text"', "null", "1e999", '{"k": {"address": 7}}', "x" * 300_000,
        '{"k": {"updated": 1, "title": "<img src=x onerror=alert(1)>", "against": "", "progress": "", "line": "zz"}}',
    ],
    "cardtable.history": [
        '[{"address": "x", "title": "T", "levels": {"length": 1}}]', '[1, 2, "x", null, []]', "[" * 100_000,
        '[{"date": "now", "title": 5, "result": [], "levels": ["godlike"], "address": "game=chess"}]', '{"a": 1}',
        '[{"date": 1, "title": "T", "against": "a", "result": "r", "levels": [], "won": "yes", "record": {}}]',
    ],
    "cardtable.kept.x": ['{"record": {"game": "chess"}}', "[" * 100_000],
    "cardtable.lobby": [
        '{"kept": [{"key": 1, "text": {"x": 1}, "updated": "now"}], "finished": "all", "statistics": [[1, 2]]}',
        "[" * 100_000, '{"kept": [{"key": "k", "text": "<b>bold</b>", "updated": 1e300}], "aside": 5}', "nul",
    ],
    "cardtable.put-aside": ["[" * 100_000, '{"a": 1}', '[1, "x"]'],
    "cardtable.current-game": ['{"record": {"game": "silver-bars"}, "seats": "all"}', "{" * 70, "[]"],
    "cardtable.unreadable-save": ["x" * 1000],
    "cardtable.name": ["<img src=x onerror=alert(1)>" + "x" * 50, "\u202e\u0000" * 100],
    "cardtable.last-settings": [
        '{"carbondale": {"players": 99, "bots": "all"}, "silver-bars": {"players": 2, "bots": [5, "x"], '
        '"levels": {"1": "godlike"}, "options": 7, "names": [{"a": 1}, "<b>x</b>"], "delay": -4}}',
        "[" * 100_000, "null",
    ],
}


@pytest.mark.parametrize("refused", ["**/*.whl", "**/pyodide.asm.wasm*"])
def test_python_that_cannot_start_is_said_and_not_waited_for(page: Page, refused: str) -> None:
    """The engine's wheel or Python's WebAssembly not fetched (a first visit that lost the network): the lobby says
    Python could not start, and Start says to reload rather than waiting for ever."""
    page.watch.expected += ["Failed to fetch", "net::ERR_FAILED"]  # type: ignore[attr-defined]  # the refused file
    page.route(refused, lambda route: route.abort())
    page.goto("index.html")
    page.wait_for_function("document.documentElement.dataset.state === 'failed'")
    expect(page.locator("#runtime-status")).to_have_text("The games could not start.")
    page.locator(".game-card .play").first.click()
    expect(page.locator("#start-note")).to_contain_text("Reload the page to try again")


@pytest.mark.parametrize("round_", range(2))
def test_hostile_storage_never_stops_the_site(page: Page, round_: int) -> None:
    """Hostile entries in every stored key: the lobby and a game still work, and nothing stored runs as markup.
    (tests/test_storage.py reads every one of them, and more, in CPython.)"""
    page.goto("index.html")
    wait_settled(page)
    entries = {key: values[round_ % len(values)] for key, values in HOSTILE.items()}
    page.evaluate("entries => { for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v); }", entries)
    page.reload()
    wait_settled(page)
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#no-storage")).to_be_hidden()  # hostile entries, but a browser that keeps them
    expect(page.locator("#aside-box")).to_contain_text("put aside")
    page.locator("#open-setup").click()
    page.locator("#start").click()
    wait_settled(page)
    expect(page.locator("#table")).to_be_visible()
    assert page.evaluate(KEPT_RECORD), "the new game is kept"
    page.locator("#to-lobby").click()
    expect(page.locator("#kept li")).to_have_count(1)
    show = "text => { localStorage.setItem('cardtable.lobby', text); window.cardTable.refreshKept(); }"
    for text in HOSTILE["cardtable.lobby"]:  # the lobby's own summary, as the script shows it before Python is ready
        page.evaluate(show, text)
        expect(page.locator("#lobby")).to_be_visible()
    lobby = {"kept": [{"key": "k", "updated": 1, "text": "<img src=x onerror=alert(1)>"}], "finished": [],
             "statistics": [], "aside": ""}
    page.evaluate(show, json.dumps(lobby))
    expect(page.locator("#kept li")).to_contain_text("<img src=x")
    assert page.locator("#kept img").count() == 0, "stored text is never markup"


def test_an_unexpected_error_shows_a_bug_report_and_a_usable_lobby(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&seed=3&bots=1&level=easy&delay=0")
    wait_settled(page)
    page.evaluate("() => { history.replaceState = () => { throw new Error('the browser broke'); }; }")  # fails next
    page.locator("#board [data-select]").first.click()  # a redraw keeps the address: it fails
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#lobby-error")).to_contain_text("Something went wrong")
    report = json.loads(page.locator("#bug-report").input_value())
    assert report["record"]["game"] == "silver-bars" and "the browser broke" in report["error"]
    assert page.locator(".py-error").count() == 0, "PyScript's traceback box is not the sign of trouble"
    expect(page.locator("#kept li")).to_have_count(1)
    assert page.evaluate("document.documentElement.dataset.state") == "ready"
