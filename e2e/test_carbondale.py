"""Carbondale in the browser: whole games by clicking, claims (against the computer and hot-seat), the rules panel.

Set ``CARDTABLE_SHOTS`` to a folder to keep screenshots of the table along the way.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import saved_record, shot, wait_settled
from e2e.keys import mid_game
from e2e.play import click_through, near_the_end, one_click, play_move, steady_dice
from e2e.test_overlap import defects_at_both_sizes

GAME = "index.html?game=carbondale&delay=0"
FINISH = ("build", "claim", "contribute")
CLAIMABLE = """#board [data-select^='["claim",']"""
"""A rival's vulnerable card: its selection is ``("claim", owner, x, y)``."""
"""Steers the random human toward building and claiming (the computer's builds end the game soon enough)."""


def progress(hearts: int, diamonds: int) -> int:
    """Rule 27: progress toward 7 + 3."""
    return max(min(hearts, 7) + min(diamonds, 3), min(diamonds, 7) + min(hearts, 3))


def check_final_table(page: Page, players: int) -> None:
    """The game-over dialog's scores are the progress of the networks left on the table."""
    expect(page.locator("#game-over")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.state") == "over"
    scores = [int(s) for s in page.locator("#game-over-text .score b").all_inner_texts()]
    assert len(scores) == players
    for seat in range(players):
        cards = page.locator(f"#board .cb-seat.seat-{seat} .cb-grid .card").all_inner_texts()
        cards = [re.sub(r"\s+", "", c) for c in cards]
        hearts = sum(c.endswith("♡") for c in cards)
        diamonds = sum(c.endswith("♢") for c in cards)
        assert scores[seat] == progress(hearts, diamonds), f"seat {seat}: {cards} against score {scores[seat]}"
        shown = page.locator(f"#board .cb-seat.seat-{seat} .cb-progress").inner_text()
        assert f"{scores[seat]}/10" in shown
    headline = page.locator("#game-over-text .headline").inner_text()
    assert "win" in headline
    if max(scores) == 10:  # a goal win: the winner alone reached 7 + 3
        assert scores.count(10) == 1
    log = page.locator("#log").inner_text()
    assert "with 7 of one red suit and 3 of the other" in log or "best progress" in log
    assert "You wins" not in log and "You's" not in log


def play_until(
    page: Page, rnd: random.Random, done: Callable[[], bool], prefer: tuple[str, ...] = (), max_clicks: int = 300
) -> int:
    """Click like :func:`e2e.play.click_through` until ``done()`` holds when a human is to move."""
    for clicks in range(max_clicks):
        assert wait_settled(page) == "ready", "the game ended first"
        if done():
            return clicks
        handover = page.locator("#board [data-ui='take-device']")
        if handover.count():
            handover.first.click()
            continue
        one_click(page, rnd, prefer)
    raise AssertionError(f"not reached within {max_clicks} clicks")


def claim_offered(page: Page) -> Callable[[], bool]:
    return lambda: page.locator(CLAIMABLE + ":visible").count() > 0


def log_lines(page: Page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def test_the_first_turns_against_the_computer(page: Page) -> None:
    """A new game from its link: the first turns by clicking (the end of a game: the three-player test)."""
    page.goto(f"{GAME}&players=2&seed=3&bots=1&level=easy")
    wait_settled(page)
    expect(page.locator("#table-title")).to_have_text("Carbondale")
    record = saved_record(page)
    assert record["game"] == "carbondale" and record["seed"] == 3
    # the starting pair is on the table, marked
    expect(page.locator("#board .cb-seat.seat-0 .cb-penny")).to_have_count(2)
    shot(page, "carbondale", "2p-start")
    rnd = random.Random(3)
    for _ in range(6):
        wait_settled(page)
        one_click(page, rnd, FINISH)
    wait_settled(page)
    played = pyengine.replay(saved_record(page))
    assert played.played > 6 and not played.is_terminal()
    assert page.evaluate("document.documentElement.dataset.moves") == str(played.played)
    shot(page, "carbondale", "2p-first-turns")


def test_a_whole_three_player_game_with_two_computers(page: Page) -> None:
    """The end of a three-player game by clicking (its first moves made in CPython)."""
    steady_dice(page, 3)
    page.goto(near_the_end("carbondale", 3, 3, [1, 2], left=60))
    wait_settled(page)
    expect(page.locator("#board .cb-seat")).to_have_count(3)
    clicks = click_through(page, random.Random(3), max_clicks=800, prefer=FINISH)
    assert clicks >= 3  # the computers, with their own secret randomness, may end the game sooner or later
    shot(page, "carbondale", "3p-over")
    check_final_table(page, 3)


def test_claiming_a_card_from_the_computer(page: Page) -> None:
    page.goto(f"{GAME}&players=2&seed=3&bots=1&level=easy")
    play_until(page, random.Random(3), claim_offered(page), prefer=("take", "draw", "end"))
    target = page.locator(CLAIMABLE + ":visible").first
    target_name = re.sub(r"\s+", "", target.inner_text())
    assert "cb-vuln" in str(target.locator("xpath=..").get_attribute("class")), "only vulnerable cards are claimed"
    target.click()
    wait_settled(page)
    expect(page.locator(CLAIMABLE + ".selected")).to_have_count(1)
    challenge = page.locator("#board .cb-hand [data-action^='claim ']")
    assert challenge.count() >= 1
    shot(page, "carbondale", "claim-target")
    action = str(challenge.first.get_attribute("data-action"))
    assert action.startswith(f"claim {target_name} at ")
    play_move(page, challenge.first)
    wait_settled(page)
    # the computer answers at once, and the claimer's turn goes on
    lines = log_lines(page)[-2:]
    assert lines[0].startswith(f"You challenge for the {target_name}"), lines[0]  # the one human is "you"
    assert "Computer 2 (easy) defends with" in lines[1] or "Computer 2 (easy) does not defend" in lines[1]
    assert "your network" not in lines[0] and "Computer 2 (easy)'s network" in lines[0]
    history = pyengine.replay(saved_record(page)).history()
    assert str(history[-2][1]) == action
    assert str(history[-1][1]).startswith(("defend with", "decline"))
    expect(page.locator("#board .cb-status")).to_contain_text("You may")
    shot(page, "carbondale", "claim-answered")


def test_a_hot_seat_claim_hands_the_device_to_the_defender(page: Page) -> None:
    page.goto(f"{GAME}&players=2&seed=2")
    play_until(page, random.Random(2), claim_offered(page), prefer=("build", "contribute"))
    state = pyengine.replay(saved_record(page))
    challenger = state.current_player
    assert challenger is not None
    defender = 1 - challenger
    page.locator(CLAIMABLE + ":visible").first.click()
    wait_settled(page)
    play_move(page, page.locator("#board .cb-hand [data-action^='claim ']").first)
    wait_settled(page)
    # the defender decides privately: first the hand-over screen, no hand on show
    expect(page.locator("#board [data-ui='take-device']")).to_be_visible()
    expect(page.locator("#board .handover")).to_contain_text(f"Pass the device to Player {defender + 1}")
    expect(page.locator("#board .cb-hand")).to_have_count(0)
    assert "challenges for" in log_lines(page)[-1]
    shot(page, "carbondale", "hotseat-handover")
    page.locator("#board [data-ui='take-device']").click()
    wait_settled(page)
    expect(page.locator("#board .cb-status")).to_contain_text("Defend with a card")
    expect(page.locator(f"#board .cb-seat.cb-turn.seat-{defender}")).to_have_count(1)
    hand = [re.sub(r"\s+", "", c) for c in page.locator("#board .cb-hand .card").all_inner_texts()]
    assert hand == pyengine.replay(saved_record(page)).view(defender)["hand"], "the defender sees their own hand"
    shot(page, "carbondale", "hotseat-defender")
    defences = page.locator("#board .cb-hand [data-action^='defend with']")
    play_move(page, defences.first if defences.count() else page.locator("#board [data-action='decline']"))
    wait_settled(page)
    last = log_lines(page)[-1]
    assert f"Player {defender + 1} defends with" in last or f"Player {defender + 1} does not defend" in last
    # and the device goes back to the challenger, whose turn goes on
    expect(page.locator("#board .handover")).to_contain_text(f"Pass the device to Player {challenger + 1}")


def test_the_rules_panel_draws_figure_1(page: Page) -> None:
    page.goto(f"{GAME}&players=2&seed=1&bots=1&level=easy")
    wait_settled(page)
    page.locator("#show-rules").click()
    figure = page.locator("#rules .live-position")
    expect(figure.locator(".cb-grid").first).to_be_visible()
    figure.scroll_into_view_if_needed()
    cards = [re.sub(r"\s+", "", c) for c in figure.locator(".cb-seat.seat-0 .cb-grid .card").all_inner_texts()]
    for card in ("3♢", "4♡", "6♢", "5♠"):
        assert card in cards
    assert len(cards) == 16
    vulnerable = figure.locator(".cb-vuln .card")
    expect(vulnerable).to_have_count(4)
    assert sorted(re.sub(r"\s+", "", c) for c in vulnerable.all_inner_texts()) == sorted(["3♢", "4♡", "6♢", "5♠"])
    expect(figure.locator(".cb-seat.seat-0 .cb-penny")).to_have_count(2)
    shot(page, "carbondale", "figure-1", figure)


RED_PAIRS = [(66, 634), (133, 691), (38, 350), (3, 214), (5, 164), (124, 181)]
"""Tables (seed, random moves) whose networks hold two red cards in one cell, built from every pair of the four
directions among them (sixteen ways: found by a search over random games)."""


def test_two_red_cards_in_one_cell_show_both_indices(page: Page) -> None:
    """Rule 8: a cell may hold two red cards. Whichever ways they were built, neither covers the other's rank or
    suit, on a small phone or a desktop."""
    found = []
    for seed, moves in RED_PAIRS:
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto("index.html#" + mid_game("carbondale", 2, seed, moves))
        wait_settled(page)
        assert page.locator("#board .cb-cell:has(.cb-pair)").count() > 0
        found += [f"seed {seed}: {defect}" for defect in defects_at_both_sizes(page, "carbondale", f"pairs-{seed}")]
    assert not found, "\n".join(found)
