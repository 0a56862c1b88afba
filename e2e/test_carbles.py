"""Carbles in the browser: whole games by clicking (partners, open hands, twelve computers), the 7 split, the ring.

Set ``CARDTABLE_SHOTS`` to a folder to keep screenshots of the table along the way.
"""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import resize, saved_record, shot, wait_settled
from e2e.play import click_through, near_the_end, one_click, play_move, steady_dice

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

from pyengine.words import ORDINALS  # noqa: E402
from tests.bench.rulebased import RuleBasedBot  # noqa: E402

GAME = "index.html?game=carbles&delay=0&level=easy"
PROGRESS = (
    "A out", "K out", "Jk out", "Jk partner out", "A partner out", "K partner out",
    "K m", "Q m", "10 m", "9 m", "8 m", "7 m",
)  # fmt: skip
"""Steers the random human toward progress: moving out first, then long moves."""

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 768}


def into_the_goal(action: str) -> bool:
    """A move that takes a marble into its goal (the random human always makes it, and the game ends sooner)."""
    return action.endswith(" goal")


def compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


def names_of(players: int, bots: set[int]) -> list[str]:
    """The table's names: "You" for the one human, "Computer N (easy)" for the others."""
    return ["You" if p not in bots else f"Computer {p + 1} (easy)" for p in range(players)]


def winners_shown(page: Page, names: list[str]) -> list[int]:
    """The seats the game-over dialog names as winners."""
    headline = page.locator("#game-over-text .headline").inner_text()
    match = re.fullmatch(r"(.+) wins?!", headline)
    assert match, headline
    return sorted(names.index(who) for who in match.group(1).split(" and "))


def replayed(page: Page) -> pyengine.State:
    """The game in progress, replayed in CPython from the record the page saved."""
    return pyengine.replay(saved_record(page))


def open_cards(page: Page, seat: int) -> list[str]:
    """The face-up cards shown for a seat beside the ring (open hands)."""
    cards = page.locator(f"#board .cbl-open[data-seat='{seat}'] .cbl-cards .card").all_inner_texts()
    return [compact(c) for c in cards]


def hand_cards(page: Page) -> list[str]:
    return [compact(c) for c in page.locator("#board .cbl-hand-area .hand .card").all_inner_texts()]


def click_action(page: Page, state: pyengine.State, text: str) -> None:
    """Play ``text`` the way a person does: the card, then (if needed) the marble, then the target."""
    view = state.view(state.current_player)
    move = view["moves"][text]
    board = page.locator("#board")
    if move["kind"] == "burn":
        play_move(page, board.locator(f".hand [data-action='{text}']"))
        return
    if not view["seven"]:
        # two cards of one rank (5♡ and 5♢) are the same choice: either starts the move
        board.locator(f""".hand [data-select='["pick","{move['card']}",null]']""").first.click()
        wait_settled(page)
    target = board.locator(f"[data-action='{text}']:visible")
    if not target.count():
        p, i = move["marble"]
        board.locator(f".cbl-pick[data-select$=',[{p},{i}]]']").click()
        wait_settled(page)
    play_move(page, target.first)


# ----------------------------------------------------------------------------- whole games


def test_a_four_player_partner_game_to_the_end(page: Page) -> None:
    """The end of a four-player partner game, by clicking (its first moves made in CPython)."""
    steady_dice(page, 3)  # a deal whose end the random human reaches in a couple of dozen clicks (seed 7: 122)
    page.goto(near_the_end("carbles", 4, 3, [1, 2, 3], left=16, options={"partners": True}))
    wait_settled(page)
    expect(page.locator("#table-title")).to_have_text("Carbles")
    expect(page.locator("#board .cbl-who")).to_have_count(4)
    # partners sit opposite: 1 with 3, 2 with 4
    expect(page.locator("#board .cbl-who[data-seat='0'] .cbl-marks")).to_contain_text("⚭ 3")
    expect(page.locator("#board .cbl-who[data-seat='1'] .cbl-marks")).to_contain_text("⚭ 4")
    record = saved_record(page)
    assert record["game"] == "carbles" and record["options"]["partners"] is True
    started = time.perf_counter()
    clicks = click_through(page, random.Random(3), max_clicks=3000, prefer=PROGRESS, best=into_the_goal)
    print(f"\n4 players, partners: {clicks} clicks, {time.perf_counter() - started:.0f} s")
    assert clicks > 5
    expect(page.locator("#game-over")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.state") == "over"
    shot(page, "carbles", "4p-partners-over")
    winners = winners_shown(page, names_of(4, {1, 2, 3}))
    assert len(winners) == 2 and winners[1] == winners[0] + 2, f"a team wins: {winners}"
    scores = [int(s) for s in page.locator("#game-over-text .score b").all_inner_texts()]
    assert [scores[p] for p in winners] == [4, 4], "both partners have all four marbles in the goal"
    for p in winners:
        expect(page.locator(f"#board .cbl-goal.seat-{p} .cbl-marble.seat-{p}")).to_have_count(4)
        expect(page.locator(f"#board .cbl-who[data-seat='{p}'] .cbl-marks")).to_contain_text("✓ all in goal")
    seat = r"(you|Computer \d+ \(easy\))"
    assert re.search(rf"; {seat} and {seat} win$", page.locator("#log li").last.inner_text())


def test_open_hands_show_the_computers_cards_all_game(page: Page) -> None:
    """Every human turn of a game's end shows the computer's open hand as seat 0's view has it."""
    steady_dice(page, 4)  # the computer's play, and so the game's length, the same in every run
    page.goto(near_the_end("carbles", 2, 4, [1], left=40, options={"open_hands": True}))
    wait_settled(page)
    assert saved_record(page)["options"]["open_hands"] is True
    rnd = random.Random(4)
    checked = 0
    seen = -1
    for clicks in range(1500):  # noqa: B007 (read after the loop)
        if wait_settled(page) == "over":
            break
        record = saved_record(page)
        if len(record["actions"]) != seen:  # a fresh human turn: compare with the CPython view of seat 0
            seen = len(record["actions"])
            view = pyengine.replay(record).view(0)
            assert open_cards(page, 1) == view["hands"][1], f"after {seen} actions"
            assert hand_cards(page) == view["hand"]
            expect(page.locator("#board .cbl-open[data-seat='0']")).to_have_count(0)  # own hand: above
            if checked == 0:
                assert view["hands"][1], "open hands: the computer's cards are in seat 0's view"
                shot(page, "carbles", "2p-open-start")
            checked += 1
        one_click(page, rnd, PROGRESS)
    else:
        raise AssertionError("the game did not end")
    assert clicks > 5 and checked >= 4
    expect(page.locator("#game-over")).to_be_visible()
    assert winners_shown(page, names_of(2, {1})) in ([0], [1])
    scores = [int(s) for s in page.locator("#game-over-text .score b").all_inner_texts()]
    assert max(scores) == 4
    shot(page, "carbles", "2p-open-over")


def board_words(page: Page) -> str:
    """Everything #board says: its text and every attribute value, without spaces."""
    return compact(
        page.evaluate(
            """() => { const board = document.getElementById('board'); const out = [board.textContent];
                       for (const el of board.querySelectorAll('*')) for (const a of el.attributes) out.push(a.value);
                       return out.join('|'); }"""
        )
    )


def test_closed_hands_keep_the_computers_cards_hidden(page: Page) -> None:
    page.goto(f"{GAME}&players=2&seed=3&bots=1")
    for turn in range(4):
        assert wait_settled(page) == "ready"
        state = replayed(page)
        view = state.view(0)
        assert view["hands"] is None
        theirs = {str(c) for c in state.core.hands[1]}
        hidden = theirs - set(view["hand"]) - set(view["discards"])
        assert hidden or turn, "the seed should give the computer cards the human does not hold"
        words = board_words(page)
        assert not [c for c in hidden if c in words], f"the computer's cards {sorted(hidden)} show in #board"
        expect(page.locator("#board .cbl-hands")).to_have_count(0)
        expect(page.locator("#board .cbl-who[data-seat='1'] .cbl-marks")).to_contain_text(f"{len(theirs)} card")
        texts = state.legal_texts()
        outs = [t for t in texts if t.endswith(" out")]
        click_action(page, state, (outs or texts)[0])


def policy(state: pyengine.State) -> str:
    """A plain human: move out when possible, keep the 7s, else the first action offered."""
    texts = state.legal_texts()
    keep = [t for t in texts if not t.startswith("7")] or texts
    outs = [t for t in keep if t.endswith(" out")]
    return (outs or keep)[0]


def sevens_of(state: pyengine.State) -> dict[str, dict[str, Any]]:
    """The parts of a 7 the deciding seat may play now, by their facts."""
    return {t: m for t, m in state.view(state.current_player)["moves"].items() if m["card"] == "7"}


def test_the_7_is_split_by_clicking_step_by_step(page: Page) -> None:
    page.goto(f"{GAME}&players=2&seed=8&bots=1")
    for _ in range(40):  # to a turn with a 7 in hand and two marbles that can share it
        assert wait_settled(page) == "ready"
        state = replayed(page)
        sevens = sevens_of(state)
        if len({tuple(m["marble"]) for m in sevens.values()}) >= 2:
            break
        click_action(page, state, policy(state))
    else:
        raise AssertionError("no turn with a 7 to split")
    board = page.locator("#board")
    board.locator(""".hand [data-select='["pick","7",null]']""").click()
    wait_settled(page)
    expect(board.locator(".cbl-choices .hint").first).to_have_text("Playing 7")
    picks = board.locator(".cbl-choices .cbl-pick")
    assert picks.count() >= 2, "each marble that can take part of the 7 is offered"
    # the first part: a marble, then a space on the board, short of all 7 steps
    first = min((t for t, m in sevens.items() if m["steps"] < 7), key=lambda t: sevens[t]["steps"])
    p, i = sevens[first]["marble"]
    pick = board.locator(f".cbl-pick[data-select$=',[{p},{i}]]']")
    expect(pick).to_have_text(f"your {ORDINALS[i]} marble")
    pick.click()
    wait_settled(page)
    space = board.locator(f".cbl-place[data-action='{first}']")
    expect(space).to_have_count(1)
    shot(page, "carbles", "7-first-part")
    space.focus()  # a space on the ring is chosen by the keyboard as well
    page.keyboard.press("Enter")
    left = 7
    parts = [first]
    steps = first_steps = sevens[first]["steps"]
    moved = [i]
    while True:
        wait_settled(page)
        left -= steps
        state = replayed(page)
        notice = board.locator(".cbl-seven")
        if not left:
            expect(notice).to_have_count(0)
            assert state.core.seven_left == 0
            break
        assert state.current_player == 0 and state.core.seven_left == left
        expect(notice).to_contain_text(f"{left} step(s) left")
        expect(notice.locator("b")).to_have_text(str(left))
        expect(notice).to_contain_text("moved: " + ", ".join(f"your {ORDINALS[n]} marble" for n in sorted(moved)))
        assert page.locator("#log li").last.inner_text().endswith(f", with {left} of the 7 left")
        if len(parts) == 1:
            shot(page, "carbles", "7-in-progress")
        # the 7 card has left the hand; the next part is chosen from the choices, short steps first
        assert "7" not in [c[:-1] for c in hand_cards(page)] or state.view(0)["hand"].count("7") > 0
        sevens = sevens_of(state)
        assert sevens and len(sevens) == len(state.legal_texts())
        assert all(m["marble"][1] not in moved for m in sevens.values())
        part = min(sevens, key=lambda t: sevens[t]["steps"])
        click_action(page, state, part)
        parts.append(part)
        steps = sevens[part]["steps"]
        moved.append(sevens[part]["marble"][1])
    assert len(parts) >= 2
    log = page.locator("#log li").all_inner_texts()
    left_then = f"with {7 - first_steps} of the 7 left"
    assert any(line.startswith("You play a 7: your") and left_then in line for line in log)


TWELVE_AHEAD = 870
"""The twelve computers' first moves are made in CPython by the rule-based player (a few milliseconds a move,
where the easy computer takes tens), so the browser's computers play the end of the game (its last 55 of 925 moves)."""
TWELVE_DICE = 1
"""The page's randomness (:func:`e2e.play.steady_dice`): with it the twelve easy computers end the game in 136
decisions in every run (with their own secret, from 55 to 380)."""


def twelve_computers_ahead() -> str:
    """The address of a twelve-computer game after its first ``TWELVE_AHEAD`` moves."""
    session = Session(Setup("carbles", 12, 3, [Seat(True, "easy")] * 12, {}, 0))  # a deal that lasts past them
    quick = RuleBasedBot("carbles", 1)
    for _ in range(TWELVE_AHEAD):
        seat = session.state.current_player
        assert seat is not None, "the game ends later than the moves made ahead"
        session.computer_move(quick.choose(session.state))
    return address.encode(session)


def test_twelve_computers_play_to_the_end(page: Page) -> None:
    steady_dice(page, TWELVE_DICE)
    started = time.perf_counter()
    page.goto(f"index.html#{twelve_computers_ahead()}")
    page.wait_for_function("document.documentElement.dataset.state !== 'loading'", timeout=120_000)
    expect(page.locator("#board .cbl-who")).to_have_count(12)
    assert page.evaluate("document.documentElement.dataset.state") == "thinking"
    # the page answers while the computers play: the rules panel opens at once
    turns_before = page.locator("#board .cbl-info .hint").first.inner_text()
    clicked = time.perf_counter()
    page.locator("#show-rules").click()
    expect(page.locator("#rules")).to_be_visible(timeout=5_000)
    expect(page.locator("#rules-body h2").first).to_have_text("Carbles", timeout=5_000)
    answer = time.perf_counter() - clicked
    assert page.evaluate("document.documentElement.dataset.state") == "thinking"
    page.locator("#hide-rules").click()
    expect(page.locator("#rules")).to_be_hidden(timeout=5_000)
    expect(page.locator("#board .cbl-info .hint").first).not_to_have_text(turns_before)  # still playing
    page.wait_for_function("document.documentElement.dataset.state === 'over'", timeout=20 * 60_000, polling=1000)
    took = time.perf_counter() - started
    info = page.locator("#board .cbl-info .hint").first.inner_text()
    stats = page.evaluate("JSON.parse(window.cardTable.decisionStats())")
    seconds = [d["seconds"] for d in stats]
    print(
        f"\n12 computers: {took:.0f} s, {len(stats)} decisions (mean {sum(seconds) / len(seconds):.3f} s,"
        f" max {max(seconds):.3f} s), rules panel answered in {answer:.2f} s; {info}"
    )
    expect(page.locator("#game-over")).to_be_visible()
    names = names_of(12, set(range(12)))
    winners = winners_shown(page, names)
    scores = [int(s) for s in page.locator("#game-over-text .score b").all_inner_texts()]
    assert len(winners) == 1 and scores[winners[0]] == 4
    page.locator("#over-close").click()
    shot(page, "carbles", "12p-over")
    page.set_viewport_size(PHONE)
    shot(page, "carbles", "12p-over-phone")


# ----------------------------------------------------------------------------- layouts


def test_the_ring_fills_the_table_on_desktop_and_phone(page: Page) -> None:
    for players in (2, 6, 12):
        page.set_viewport_size(WIDE)
        page.goto(f"{GAME}&players={players}&seed=3&bots={','.join(str(p) for p in range(1, players))}")
        for _ in range(2):  # two turns, so marbles are out
            assert wait_settled(page) == "ready"
            state = replayed(page)
            click_action(page, state, policy(state))
        wait_settled(page)
        pickable = page.locator("#board .hand [data-select]")
        if pickable.count():  # a card picked, so its targets show (none when every card must burn)
            pickable.first.click()
            wait_settled(page)
        ring = page.locator("#board .cbl-ring")
        for name, size in (("desktop", WIDE), ("phone", PHONE)):
            resize(page, size["width"], size["height"])
            shot(page, "carbles", f"{players}p-{name}")
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{players} players on a {name}: the page scrolls sideways by {overflow}px"
            expect(page.locator("#board .cbl-who")).to_have_count(players)
            box = ring.bounding_box()
            assert box is not None
            if name == "phone":
                assert box["width"] >= 0.85 * size["width"], f"{players} players: the ring is {box['width']}px wide"
            else:  # the height left below the scores (two rows of them with twelve seats), and all of it on screen
                page.evaluate("scrollTo(0, 0)")
                box = ring.bounding_box()
                board = page.locator("#board").bounding_box()
                assert box is not None and board is not None
                left = size["height"] - board["y"]
                assert 0.85 * left <= box["height"] and box["y"] + box["height"] <= size["height"], f"{players}: {box}"
    # Fit keeps the ring within the window; + enlarges it
    page.set_viewport_size(WIDE)
    page.locator("#board [data-ui='zoom-fit']").click()
    wait_settled(page)
    fitted = ring.bounding_box()
    assert fitted is not None and fitted["height"] <= WIDE["height"]
    page.locator("#board [data-ui='zoom-in']").click()
    wait_settled(page)
    bigger = page.locator("#board .cbl-ring").bounding_box()
    assert bigger is not None and bigger["width"] > fitted["width"] * 1.1
