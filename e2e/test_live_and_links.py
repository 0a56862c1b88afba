"""Live play and play by links are one game, for real: two browser contexts (two devices) start 100 Silver Bars
live over a WebRTC data channel; the channel closes mid-game, and the game goes on by links from the same position
(the guest's page says so, the host's page shows the guest's link, sealed with the key that came over the channel,
and the guest's tab opens it); then the host's Play live joins them live again in that same tab, and they play to
the end.

The game goes on from a record made in CPython some moves before its end, as in the other tests of playing with
others (whole games that go live, by links and live again are played in tests/test_live_and_links.py).
"""

from __future__ import annotations

import os
import random
from typing import Any

from playwright.sync_api import Page, expect

from e2e.conftest import shot
from e2e.play import one_click
from e2e.test_links import fresh, guest_turn, start_by_links
from e2e.test_links import invitation as link_invitation
from e2e.test_remote import connected, host_game, invitation, join, near_the_end, one_move, play_to_the_end
from e2e.test_remote import devices as devices  # the fixture: each device its own context, WebRTC on

CHANNELS = """(() => {
  // The data channels this page is given, so the test can close one as a network drop would.
  window.testChannels = [];
  const Made = window.RTCPeerConnection;
  if (typeof Made !== "function") return;
  window.RTCPeerConnection = class extends Made {
    constructor(...args) {
      super(...args);
      this.addEventListener("datachannel", (event) => window.testChannels.push(event.channel));
    }
  };
})();"""


def test_a_live_game_goes_on_by_links_when_the_channel_closes_then_live_again(devices: Any) -> None:
    host, guest = devices("host"), devices("guest", (390, 844))
    guest.context.add_init_script(CHANNELS)
    guest.page.close()
    guest.page = guest.open()
    record = near_the_end("silver-bars", 2, 5, 30)
    settings = {"game": "silver-bars", "players": 2, "seed": 5, "record": record, "remote": [1], "delay": 0,
                "names": ["Hal", "Bea"]}
    host_game(host.page, settings)
    join(host.page, guest.page, 1)
    page = host.page
    live_in_one_panel(page, 1)
    shot(page, "live-and-links", "host-live")
    # the data channel closes (as when the network drops): both pages hear of it, and the game goes on by links
    moves = page.evaluate("document.documentElement.dataset.moves")
    guest.page.evaluate("window.testChannels.forEach((channel) => channel.close())")
    guest.page.wait_for_function("document.getElementById('message').textContent.includes('goes on by links')")
    page.wait_for_function("document.getElementById('message').textContent.includes('goes on by links')")
    expect(page.locator("#status")).to_contain_text("Bea: plays by links")
    assert page.evaluate("document.documentElement.dataset.moves") == moves  # nothing lost on the way
    # the guest's tab is redrawn at once as its table by links: its hand, waiting for Hal's link, nothing dead
    expect(guest.page.locator("#status .headline")).to_have_text("Waiting for Hal's link")
    expect(guest.page.locator("#links-guest")).to_be_visible()
    expect(guest.page.locator("#links-guest")).to_contain_text("Hal sends you a link when it is your turn")
    for dead in ("#board [data-action]", "#board [data-select]", "#board [data-try]", "#status button"):
        expect(guest.page.locator(dead)).to_have_count(0)
    expect(guest.page.locator("#undo")).to_be_disabled()
    for setting in ("#pace-table", "#misclick-table"):  # no computer here, and no move held for a second tap
        assert guest.page.evaluate(f"getComputedStyle(document.querySelector('{setting}').closest('label')).display") \
            == "none"
    assert guest_row(guest.page) == "100 Silver Bars with Hal: waiting for Hal's link"
    live_row = page.locator("#remote-seats li[data-seat='1']")  # one seat, one state: by links, its link below
    expect(live_row).to_have_attribute("data-state", "links")
    expect(live_row).to_contain_text("playing by links for now")
    expect(live_row.locator("button", has_text="Invite again")).to_have_count(1)
    expect(page.locator("#links-seats li[data-seat='1']")).to_have_count(1)
    shot(page, "live-and-links", "host-falls-back-to-links")
    shot(guest.page, "live-and-links", "guest-falls-back-to-links")
    if os.environ.get("CARDTABLE_SHOTS"):  # the guest's table waiting for a link, on a laptop too
        guest.page.set_viewport_size({"width": 1366, "height": 768})
        shot(guest.page, "live-and-links", "guest-falls-back-to-links-wide")
        guest.page.set_viewport_size({"width": 390, "height": 844})
    # whoever acts plays: the guest's turns by its links (no invitation: its key came over the channel), until the
    # guest has played two turns by links
    rnd = random.Random(5)
    turn, reply, turns, first = "", "", 0, ""
    while turns < 2:
        row = page.locator("#links-seats li[data-seat='1']")
        if row.get_attribute("data-state") != "theirs":
            one_click(page, rnd)
            continue
        turn = fresh(page, "#links-seats li[data-seat='1'] .links-turn", turn)
        assert "&key=" not in turn
        first = first or turn
        reply = guest_turn(guest.page, turn, rnd, reply)
        before = page.evaluate("document.documentElement.dataset.moves")
        page.goto(reply)
        page.wait_for_function("m => document.documentElement.dataset.moves !== m", arg=before)
        turns += 1
    # the host's Play live: a new live invitation; the guest opens it and connects, and the game goes on live
    page.locator("#links-seats li[data-seat='1'] button", has_text="Play live").click()
    again = guest.page  # the same tab of the guest's phone: its table by links becomes its live table
    again.goto(invitation(page, 1))
    join(page, again, 1, opened=True)
    connected(page, again, 1)
    live_in_one_panel(page, 1)
    expect(again.locator("#links")).to_be_hidden()  # the guest's panel of links went with its table by links
    moves = int(page.evaluate("document.documentElement.dataset.moves"))
    assert int(again.evaluate("document.documentElement.dataset.moves")) == moves  # where the links left it
    assert guest_row(again) == "100 Silver Bars: playing live with Hal"
    # the guest's first link by links, opened again in its live tab: the game has moved on, the live table stays
    again.goto(first)
    expect(again.locator("#message")).to_contain_text(
        "This link is old: the game has moved on since. You play it live now. Here is your live table.")
    expect(again.locator("#table")).to_be_visible()
    expect(again.locator("#links")).to_be_hidden()
    expect(page.locator("#remote-seats li[data-seat='1']")).to_have_attribute("data-state", "connected")
    assert int(again.evaluate("document.documentElement.dataset.moves")) == moves
    shot(again, "live-and-links", "guest-old-link-while-live")
    play_to_the_end([page, again])
    shot(again, "live-and-links", "guest-over-live")


def test_a_game_started_by_links_is_joined_live(devices: Any) -> None:
    """A game started at its own pace: the guest opens its invitation by links, then the host's Play live invites
    it live; the guest's tab joins, and a move goes live both ways, with no link made for the seat meanwhile."""
    host, guest = devices("host"), devices("guest", (390, 844))
    record = near_the_end("silver-bars", 2, 6, 40)
    settings = {"game": "silver-bars", "players": 2, "seed": 6, "record": record, "remote": [1], "delay": 0,
                "names": ["Hal", "Bea"]}
    page = start_by_links(host, settings)
    guest.page.goto(link_invitation(page, 1))
    guest.page.wait_for_selector("#links-guest[data-state]")
    page.locator("#links-seats li[data-seat='1'] button", has_text="Play live").click()
    guest.page.goto(invitation(page, 1))
    join(page, guest.page, 1, opened=True)
    live_in_one_panel(page, 1)
    moves = int(page.evaluate("document.documentElement.dataset.moves"))
    assert int(guest.page.evaluate("document.documentElement.dataset.moves")) == moves
    mover = guest.page if page.locator("#status .headline").inner_text().startswith("Bea") else page
    one_move(mover)
    for device in (page, guest.page):
        device.wait_for_function(f"Number(document.documentElement.dataset.moves) > {moves}")
    shot(page, "live-and-links", "links-game-joined-live")


def live_in_one_panel(host: Page, seat: int) -> None:
    """A seat connected live shows in the host's panel of players on other devices, and not in its panel of links
    (no link is made for it meanwhile)."""
    expect(host.locator(f"#remote-seats li[data-seat='{seat}']")).to_have_attribute("data-state", "connected")
    expect(host.locator(f"#links-seats li[data-seat='{seat}']")).to_have_count(0)
    expect(host.locator("#links .links-turn")).to_have_count(0)


def guest_row(guest: Page) -> str:
    """The text of the guest's browser's first row of games with others in the lobby, as kept for the lobby."""
    return str(guest.evaluate("JSON.parse(localStorage.getItem('cardtable.lobby-links') || '[]')[0]?.text || ''"))
