"""The table at a glance, in four games: the computer's last move marked, a refused click answered with the
engine's reason, and "Suggest a move" highlighting a legal move that plays when clicked.

One page load for the four games (the next game opens through its address, without reloading Python)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import saved_record, shot, wait_settled
from e2e.play import play_move
from tests.games import GAME_IDS, settings

GAMES = {game: (pyengine.GAMES[game].title, settings(game).glance_seed) for game in GAME_IDS
         if settings(game).glance_seed is not None}
"""Each game whose computer's last move is outlined: its title and a deal where the computer (seat 0, easy) moves
before the human (seat 1)."""


def open_game(page: Page, game: str, first: bool) -> None:
    title, seed = GAMES[game]
    if first:
        page.goto(f"index.html?game={game}&players=2&seed={seed}&bots=0&level=easy&delay=0")
    else:
        version = pyengine.GAMES[game].rules_version
        page.evaluate(f"location.hash = 'game={game}&v={version}&players=2&seats=ce.h&seed={seed}&delay=0&moves='")
    expect(page.locator("#table-title")).to_have_text(title, timeout=60_000)
    assert wait_settled(page) == "ready"


def refused_click(page: Page) -> None:
    """Click something that plays nothing (after choosing a card, if need be): the reason is said, nothing moves."""
    before = len(saved_record(page)["actions"])
    tried = page.locator("#board [data-try]")
    selections = page.locator("#board [data-select]")
    for index in range(min(6, selections.count())):
        if tried.count():
            break
        selections.nth(index).click()
    assert tried.count() > 0, "nothing on the table to try"
    tried.first.click()
    advice = page.locator("#advice")
    expect(advice).not_to_be_empty()
    assert "Traceback" not in advice.inner_text()
    assert len(saved_record(page)["actions"]) == before
    page.keyboard.press("Escape")


def read_the_legend(page: Page) -> None:
    """The table's key opens from its always visible summary (touch screens show no tooltips) and stays open
    across a redraw."""
    page.locator("#legend details.legend summary").click()
    rows = page.locator("#legend .legend-list .legend-row")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 4
    page.keyboard.press("Escape")  # a redraw (it drops any selection)
    wait_settled(page)
    expect(rows.first).to_be_visible()
    page.locator("#legend details.legend summary").click()


def play_the_suggestion(page: Page, game: str) -> None:
    """Ask for a suggestion, check that it is a legal move (or the selection leading to one), and play it."""
    before = len(saved_record(page)["actions"])
    legal = pyengine.replay(saved_record(page)).legal_texts()
    page.locator("#suggest").click()
    expect(page.locator("#advice")).to_contain_text("Suggested move", timeout=20_000)
    hinted = page.locator("#board .hinted")
    expect(hinted).to_have_count(1)
    shot(page, game, "glance-hint")
    for _ in range(3):  # a card, then (in Carbles) a marble, before the move itself
        if hinted.get_attribute("data-select") is None:
            break
        hinted.click()
        expect(hinted).to_have_count(1)
    action = hinted.get_attribute("data-action")
    assert action in legal, f"the suggestion {action!r} is not a legal move"
    play_move(page, hinted)
    wait_settled(page)
    after = saved_record(page)["actions"]
    assert len(after) > before and after[before] == action
    expect(page.locator("#board .hinted")).to_have_count(0)


def marked_or_said(page: Page) -> bool:
    """The latest turn is outlined on the table (True), or, when it only ended the turn (a Carbondale turn that
    built, discarded and drew nothing: the computer's secret randomness may choose it), there is nothing to outline
    and the banner says it (False)."""
    if page.locator("#board .last-move").count():
        expect(page.locator("#board .last-move").first).to_be_visible()
        return True
    expect(page.locator("#banner")).to_contain_text("ends the turn")
    return False


def test_marks_refusals_and_suggestions(page: Page) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    for number, game in enumerate(GAMES):
        open_game(page, game, first=number == 0)
        # the computer's last move: outlined, and named in words (a label on it, or the legend of a dense grid)
        if marked_or_said(page):
            expect(page.locator("#board")).to_contain_text(re.compile(r"[Ll]ast move(:| of) Computer 1"))
        read_the_legend(page)
        refused_click(page)
        shot(page, game, "glance-refused")
        play_the_suggestion(page, game)
        shot(page, game, "glance-wide")
        page.set_viewport_size({"width": 390, "height": 844})
        marked_or_said(page)
        shot(page, game, "glance-phone")
        page.set_viewport_size({"width": 1366, "height": 768})


def test_carbles_marks_the_last_turn_explains_refusals_and_suggests(page: Page) -> None:
    """Carbles draws on a ring: the computer's last turn is its marble's path, named in words; a card or marble
    that cannot move says why; the suggestion leads card, marble, space to a legal move."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto("index.html?game=carbles&players=2&seed=5&bots=1&level=easy&delay=0")  # the computer opens
    expect(page.locator("#table-title")).to_have_text("Carbles", timeout=60_000)
    assert wait_settled(page) == "ready"
    expect(page.locator("#board .cbl-recent").first).to_be_attached()
    said = page.locator("#board .cbl-recent title").first.text_content() or ""
    assert said.startswith("Computer 2 (easy)'s last turn: Computer 2 (easy)'s first marble from the lot"), said
    read_the_legend(page)
    refused_click(page)
    shot(page, "carbles", "glance-refused")
    play_the_suggestion(page, "carbles")
    shot(page, "carbles", "glance-wide")
