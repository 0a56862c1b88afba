"""Playing at your own pace, for real: browser contexts of one Chromium (each its own device, with its own storage
and no WebRTC at all, so no data channel) play games to their end by nothing but the links each page shows, opened
in the other's address bar; and every hostile link is refused in one sentence.

The games go on from a record made in CPython some moves before their end (whole games by links are played in
tests/test_links.py and tests/test_link_tables.py, and whole in the browser by tests/bench/links_browser.py): the
browser shows what only it can, the sealing and opening of the links, the clicks and what each device draws.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import pyengine
from e2e.conftest import shot, wait_settled
from e2e.play import one_click
from e2e.test_remote import Device, near_the_end

CARD = re.compile(r"\b(10|[A2-9JQK])[♣♢♡♠]|\bJk\b")
"""A card's name as the tables write it."""
NO_DATA_CHANNEL = "delete window.RTCPeerConnection;"


def unconnected_device(browser: Browser, base_url: str, name: str, size: tuple[int, int] = (1366, 900)) -> Device:
    """A new device (its own browser context) with no WebRTC at all: it can play by links only."""
    device = Device(browser, base_url, name, size)
    device.context.add_init_script(NO_DATA_CHANNEL)
    return device


@pytest.fixture
def devices(browser: Browser, base_url: str) -> Iterator[Callable[..., Device]]:
    """Each call a new device (its own browser context), with no WebRTC at all; each checked for errors at the end."""
    made: list[Device] = []

    def make(name: str, size: tuple[int, int] = (1366, 900)) -> Device:
        made.append(unconnected_device(browser, base_url, name, size))
        return made[-1]

    yield make
    problems = [p for device in made for p in device.problems()]
    for device in made:
        device.context.close()
    assert not problems, "\n".join(problems)


def start_by_links(device: Device, settings: dict[str, Any]) -> Page:
    """The host's page starts a game at its own pace (as the lobby's "Play with others" does, by links)."""
    page = device.page
    page.goto("index.html")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'")
    page.evaluate("settings => window.cardTableLinks.start(settings)", settings)
    page.wait_for_selector("#links-seats li")
    return page


def fresh(page: Page, selector: str, before: str) -> str:
    """The value of the link field ``selector`` once it holds a link other than ``before``."""
    page.wait_for_function(
        "([s, b]) => { const f = document.querySelector(s); return f && f.value && f.value !== b; }",
        arg=[selector, before])
    return page.locator(selector).input_value()


def invitation(host: Page, seat: int) -> str:
    host.click(f"#links-seats li[data-seat='{seat}'] button:has-text('Invitation')")
    return fresh(host, f"#links-seats li[data-seat='{seat}'] .links-invitation", "")


def open_link(page: Page, link: str) -> None:
    """A link opened in the device's tab (its address bar: the same page, a new fragment)."""
    page.goto(link)


def guest_turn(guest: Page, link: str, rnd: random.Random, before: str) -> str:
    """The guest opens its turn link, plays its turn by clicks, and gives back its reply link."""
    open_link(guest, link)
    expect(guest.locator("#links-guest")).to_have_attribute("data-state", "decides")
    while guest.locator("#links-guest").get_attribute("data-state") == "decides":
        one_click(guest, rnd)
    return fresh(guest, ".links-reply-link", before)


def play_by_links(host: Page, guests: dict[int, Page], rnd: random.Random, links: list[str]) -> None:
    """Whoever acts plays: the host on its table, a guest by its turn link, each reply opened on the host's page;
    every link is kept in ``links``."""
    turns = {seat: "" for seat in guests}
    replies = {seat: "" for seat in guests}
    for _ in range(1_000):
        if wait_settled(host) == "over":
            return
        theirs = host.locator("#links-seats li[data-state='theirs']")
        if not theirs.count():
            one_click(host, rnd)
            continue
        seat = int(theirs.first.get_attribute("data-seat") or 0)
        turns[seat] = fresh(host, f"#links-seats li[data-seat='{seat}'] .links-turn", turns[seat])
        replies[seat] = guest_turn(guests[seat], turns[seat], rnd, replies[seat])
        links += [turns[seat], replies[seat]]
        moves = host.evaluate("document.documentElement.dataset.moves")
        open_link(host, replies[seat])
        host.wait_for_function("m => document.documentElement.dataset.moves !== m", arg=moves)
    raise AssertionError("the game did not end")


def last_links(host: Page, guests: dict[int, Page], links: list[str]) -> None:
    """Once over, each guest opens its last link and sees how the game ended."""
    for seat, guest in guests.items():
        link = fresh(host, f"#links-seats li[data-seat='{seat}'][data-state='over'] .links-turn", "")
        links.append(link)
        open_link(guest, link)
        guest.wait_for_function("document.documentElement.dataset.state === 'over'")
        expect(guest.locator("#links-guest-text")).to_have_text("This game is over.")


def refused(page: Page, words: str) -> None:
    expect(page.locator("#lobby-error")).to_have_text(words)


def test_two_devices_play_silver_bars_to_the_end_by_links_alone(devices: Any) -> None:
    """100 Silver Bars between two devices with no data channel: the invitation, every turn and every reply a link
    under 2,000 characters; the guest's table shows its own hand; the end reaches both; then an old link says the
    game moved on, a changed byte is refused, and every link opened with a wrong key shows no card."""
    host_device, guest_device = devices("host"), devices("guest", (390, 844))
    record = near_the_end("silver-bars", 2, 5, 24)
    host = start_by_links(host_device, {"game": "silver-bars", "players": 2, "seed": 5, "delay": 0, "remote": [1],
                                        "names": ["Hal", "Bea"], "record": record})
    guest = guest_device.page
    links = [invitation(host, 1)]
    open_link(guest, links[0])
    expect(guest.locator("#links-guest-text")).to_contain_text("Hal invites you to play 100 Silver Bars")
    assert "&key=" not in guest.url, "the seat's key leaves the address bar once opened"
    state = pyengine.replay(record)
    hand = state.view(1)["hand"]
    shown = guest.locator(".sb-hand").inner_text()
    assert all(card[:-1] in shown for card in hand)
    shot(host, "links", "host-panel")
    play_by_links(host, {1: guest}, random.Random(3), links)
    shot(guest, "links", "guest-turn")
    last_links(host, {1: guest}, links)
    assert max(map(len, links)) < 2_000, max(map(len, links))
    # an old link: the game has moved on, and the latest turn this device holds is shown
    open_link(guest, links[1])
    expect(guest.locator("#message")).to_have_text("This link is old: the game is over. Here is how it ended.")
    # a changed byte, or a link cut short: refused
    changed = links[-1][:-5] + ("A" if links[-1][-5] != "A" else "B") + links[-1][-4:]
    open_link(guest, changed)
    refused(guest, "This link is damaged or was changed: ask for it again, whole.")
    open_link(guest, links[-1][: len(links[-1]) // 2])
    refused(guest, "This link is damaged or was changed: ask for it again, whole.")
    # a reply opened on the host's device after the end: nothing is played
    open_link(host, links[-2])
    expect(host.locator("#message")).to_have_text(
        "This game is over: this link came after its end, and nothing was played.")
    # every link with a wrong key: nothing of a card shows on the page
    outsider = devices("outsider").page
    outsider.goto("index.html")
    outsider.wait_for_function("document.documentElement.dataset.state === 'ready'")
    wrong = "A" * 22
    for link in links:
        assert not CARD.search(link)
        open_link(outsider, link.split("&key=")[0] + f"&key={wrong}")
        refused(outsider, "This link is damaged or was changed: ask for it again, whole.")
        assert not CARD.search(outsider.locator("body").inner_text())


def test_three_player_carbondale_with_a_computer_seat_by_links(devices: Any) -> None:
    """Carbondale for three: the host, a guest by links and a computer seat, which plays on the host's page
    between the human turns; the host's own turn link for the guest opened on the host's device is refused."""
    host_device, guest_device = devices("host"), devices("guest")
    record = near_the_end("carbondale", 3, 8, 20)  # its last round, which ends the game (rule 26: a hundred rounds)
    host = start_by_links(host_device, {"game": "carbondale", "players": 3, "seed": 8, "bots": [2], "delay": 0,
                                        "remote": [1], "names": ["Hal", "Bea", ""], "record": record})
    guest = guest_device.page
    links = [invitation(host, 1)]
    open_link(guest, links[0])
    expect(guest.locator("#board [data-card]").first).to_be_visible()
    play_by_links(host, {1: guest}, random.Random(4), links)
    last_links(host, {1: guest}, links)
    assert max(map(len, links)) < 2_000
    open_link(host, links[-1])
    refused(host, "This link is for another player's device: it shows nothing here, so send it to them.")


def test_a_link_for_another_seat_is_refused(devices: Any) -> None:
    """Three devices in one game: a guest opening the link or the invitation of another seat is refused, and so is
    a link of another game it has not joined."""
    host_device, bea_device = devices("host"), devices("Bea")
    host = start_by_links(host_device, {"game": "carbondale", "players": 3, "seed": 2, "delay": 0,
                                        "remote": [1, 2], "names": ["Hal", "Bea", "Cy"]})
    bea = bea_device.page
    open_link(bea, invitation(host, 1))
    expect(bea.locator("#links-guest-text")).to_contain_text("Hal invites you to play Carbondale")
    cys = invitation(host, 2)
    open_link(bea, cys)
    refused(bea, "This device plays another seat of this game: this link is for another player.")
    open_link(bea, cys.split("&key=")[0])
    refused(bea, "This device plays another seat of this game: this link is for another player.")
    # the host starts another game; its link for Bea's seat, without the invitation's key, shows her nothing
    host.evaluate("settings => window.cardTableLinks.start(settings)",
                  {"game": "silver-bars", "players": 2, "seed": 4, "delay": 0, "remote": [1], "names": ["Hal", "Bea"]})
    other = invitation(host, 1)
    assert other.split("#turn=")[1].split(".")[0] != cys.split("#turn=")[1].split(".")[0], "another game's table"
    open_link(bea, other.split("&key=")[0])
    refused(bea, "This link is for a game this device has not joined: open the invitation you were sent first.")


def test_the_lobby_lists_the_games_at_your_own_pace_and_opens_them_again(devices: Any) -> None:
    """Back in the lobby, each device lists its games by links, whom each waits for and since when, and opens
    them again; the host's game is listed there, not among the other unfinished games."""
    host_device, guest_device = devices("host"), devices("guest", (390, 844))
    host = start_by_links(host_device, {"game": "silver-bars", "players": 2, "seed": 3, "delay": 0, "remote": [1],
                                        "names": ["Hal", "Bea"]})
    guest = guest_device.page
    open_link(guest, invitation(host, 1))
    expect(guest.locator("#links-guest")).to_have_attribute("data-state", "waiting")
    guest.click("#table-menu")  # a phone's table folds its buttons behind Menu
    guest.click("#to-lobby")
    row = guest.locator("#links-list li")
    expect(row).to_have_text(re.compile(r"^100 Silver Bars with Hal: waiting for Hal's link, just now Open$"))
    host.click("#to-lobby")
    expect(host.locator("#links-list li")).to_contain_text("waiting for you (you host it), just now")
    expect(host.locator("#kept-box")).to_be_hidden()
    shot(host, "links", "lobby")
    host.click("#links-list li button:has-text('Play')")
    expect(host.locator("#links-seats li[data-seat='1']")).to_be_visible()
    guest.click("#links-list li button:has-text('Open')")
    expect(guest.locator("#links-guest")).to_have_attribute("data-state", "waiting")
    # the host moves the game to another device of theirs, by its file
    with host.expect_download() as download:
        host.click("#links-export")
    expect(host.locator("#links-note")).to_contain_text("it holds the whole game, its deal too")
    laptop = devices("the host's laptop").page
    laptop.goto("index.html")
    laptop.wait_for_function("document.documentElement.dataset.state === 'ready'")
    laptop.set_input_files("#links-bring", download.value.path())
    expect(laptop.locator("#links-seats li[data-seat='1']")).to_contain_text("Bea")
    expect(laptop.locator("#status .headline")).to_have_text(host.locator("#status .headline").inner_text())
