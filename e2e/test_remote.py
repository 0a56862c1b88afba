"""Playing on separate devices, for real: two or three browser contexts of one Chromium (each its own device, with
its own storage) join through WebRTC data channels by the invitation and reply links, and play to the end.

The games go on from a record made in CPython a few moves before their end (the engine's whole games are played in
tests/test_remote.py): the browser shows what only it can, the connection, the clicks and what each device draws.
Inside a network namespace with only loopback Chromium gathers no candidate; `.ci/run` adds a veth pair for them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

import pyengine
from e2e.conftest import Watch, returning_visitor, shot
from e2e.play import HELD, play_move

TIMEOUT = 60_000
AUTOPLAY = """(seed) => {
  // Click what the table offers, as a player does: a move, or a card to choose before its target; after a move,
  // wait for the table to show it (a guest's move goes to the host and back) before the next click; a move held
  // because it shows a card gets its second tap at once, as a player gives it.
  let state = seed;
  const random = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  let waitingSince = 0;
  let movesThen = null;
  let heldTapped = false;
  const usable = (el) => el.offsetParent !== null && !el.disabled;
  window.autoplay = setInterval(() => {
    const root = document.documentElement;
    if (root.dataset.state === "over") { clearInterval(window.autoplay); return; }
    const held = document.querySelector("#board [data-action].hinted");
    const isHeld = held && usable(held) && document.querySelector("#advice").textContent.includes("HELD_WORDS");
    if (waitingSince && root.dataset.moves === movesThen && performance.now() - waitingSince < 1000) {
      if (isHeld && !heldTapped) { heldTapped = true; held.click(); }  // a move that shows a card: its second tap
      return;
    }
    waitingSince = 0; heldTapped = false;
    if (isHeld) {
      waitingSince = performance.now(); movesThen = root.dataset.moves; heldTapped = true;
      held.click();
      return;
    }
    const moves = [...document.querySelectorAll("#board [data-action]")].filter(usable);
    const choices = [...document.querySelectorAll("#board [data-select]")].filter(usable);
    const pool = moves.length && (random() < 0.85 || !choices.length) ? moves : choices;
    if (!pool.length) return;
    const chosen = pool[Math.floor(random() * pool.length)];
    if (pool === moves) { waitingSince = performance.now(); movesThen = root.dataset.moves; }
    chosen.click();
  }, 20);
}""".replace("HELD_WORDS", HELD)


READ_QR = """async (text) => {
  // The invitation's code as the page draws it, painted into an image as a camera would see it, and read back by
  // the vendored decoder (the one the page uses where the browser has no QR reader of its own).
  const encode = (await import("./vendor/qr/index.js")).default;
  const decode = (await import("./vendor/qr/decode.js")).default;
  const rows = encode(text, "raw", { ecc: "low", border: 2 });
  const scale = 4, size = rows.length * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  rows.forEach((row, y) => row.forEach((dark, x) => {
    if (!dark) return;
    for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) {
      const at = ((y * scale + dy) * size + x * scale + dx) * 4;
      data[at] = data[at + 1] = data[at + 2] = 0;
    }
  }));
  return decode({ width: size, height: size, data });
}"""


class Device:
    """One player's browser (its own context: storage, tabs) and its page, watched for errors."""

    def __init__(self, browser: Browser, base_url: str, name: str, size: tuple[int, int] = (1366, 900)) -> None:
        self.base_url = base_url
        self.name = name
        self.context: BrowserContext = browser.new_context(
            base_url=base_url,
            viewport={"width": size[0], "height": size[1]},
            service_workers="block",
            reduced_motion="reduce",  # as the shared context's pages: nothing slides
        )
        returning_visitor(self.context, base_url)
        self.watches: list[Watch] = []
        self.page = self.open()

    def open(self, address: str | None = None) -> Page:
        page = self.context.new_page()
        page.set_default_timeout(TIMEOUT)
        self.watches.append(Watch(page, self.base_url))
        page.on("dialog", lambda dialog: dialog.accept())
        if address is not None:
            page.goto(address)
        return page

    def problems(self) -> list[str]:
        found = [f"{self.name}: {p}" for w in self.watches for p in w.problems]
        outside = [u for w in self.watches for u in w.requests if not u.startswith((self.base_url, "data:", "blob:"))]
        return found + [f"{self.name}: request outside the site: {u}" for u in outside]


@pytest.fixture
def devices(browser: Browser, base_url: str) -> Iterator[list[Device]]:
    made: list[Device] = []

    def make(name: str, size: tuple[int, int] = (1366, 900)) -> Device:
        made.append(Device(browser, base_url, name, size))
        return made[-1]

    yield make  # type: ignore[misc]
    problems = [p for device in made for p in device.problems()]
    for device in made:
        device.context.close()
    assert not problems, "\n".join(problems)


def host_game(host: Page, settings: dict[str, Any]) -> None:
    """The host's page starts a game with remote seats (as the lobby's "Play with others" does)."""
    host.goto("index.html")
    host.wait_for_function("document.documentElement.dataset.state === 'ready'")
    host.evaluate("settings => window.cardTableRemote.start(settings)", settings)
    host.wait_for_selector("#remote-seats li")


def invitation(host: Page, seat: int) -> str:
    field = host.locator(f"#remote-seats li[data-seat='{seat}'] .remote-invitation")
    field.wait_for()
    return field.input_value()


HOST = "<i>Hal</i>"
"""The host's name in the lobby's remote game: markup, were it ever put into a page as HTML."""


def join(host: Page, guest: Page, seat: int, opened: bool = False) -> None:
    """The guest opens its seat's invitation (unless ``opened`` already), and the host takes its reply (pasted)."""
    if not opened:
        guest.goto(invitation(host, seat))
    reply = guest.locator(".remote-reply-link")
    reply.wait_for()
    host.fill("#remote-paste", reply.input_value())
    host.click("#remote-paste-take")
    connected(host, guest, seat)


def connected(host: Page, guest: Page, seat: int) -> None:
    host.wait_for_selector(f"#remote-seats li[data-seat='{seat}'][data-state='connected']")
    guest.wait_for_selector("#board [data-card]")
    guest.wait_for_function("document.getElementById('status').textContent.includes('you: connected')")


def near_the_end(game: str, players: int, seed: int, before_end: int) -> dict[str, Any]:
    """The record of a random game of ``game`` stopped ``before_end`` moves before its end."""
    states = [pyengine.new_game(game, players, seed, {})]
    rnd = random.Random(seed)
    while not states[-1].is_terminal():
        states.append(states[-1].apply(rnd.choice(states[-1].legal_texts())))
    return states[max(0, len(states) - 1 - before_end)].record()


def play_to_the_end(pages: list[Page]) -> None:
    for number, page in enumerate(pages):
        page.evaluate(AUTOPLAY, 7 + number)
    for page in pages:
        page.wait_for_function("document.documentElement.dataset.state === 'over'", timeout=120_000)


def send_raw(guest: Page, fields: dict[str, Any], pad: int = 0) -> None:
    """A hostile guest: a message of its own making, sent on its open data channel."""
    guest.evaluate(
        """async ([fields, pad]) => {
          const build = (await (await fetch('build.json')).json()).cache_key;
          const text = JSON.stringify({ v: 1, build, ...fields, pad: 'x'.repeat(pad) });
          window.cardTableRemote.run(JSON.stringify({ command: 'send-host', text }));
        }""",
        [fields, pad],
    )


def one_move(page: Page) -> None:
    """Play one move by clicking: a move the table offers, or a card and then where it goes."""
    if not page.locator("#board [data-action]").count():
        page.locator("#board [data-select]").first.click()
    play_move(page, page.locator("#board [data-action]").first)


def refused(guest: Page, words: str) -> None:
    guest.wait_for_function("words => document.getElementById('message').textContent.includes(words)", arg=words)


def test_the_lobby_invites_a_guest_who_sees_only_their_own_hand_then_drops_and_rejoins(devices: Any) -> None:
    """One game from the lobby: the invitation and its code, the guest's own hand, a move each way; the guest
    leaves and takes its seat again by a reply opened in the host's browser; then the computer takes the seat."""
    host, guest = devices("host"), devices("guest", (360, 740))
    page = host.page
    page.goto("index.html")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'")
    page.fill("#your-name", HOST)
    page.locator("#open-setup").click()
    page.locator("label:has(input[value='silver-bars'])").first.click()
    page.fill("#seed", "12")
    page.click("#play-others")
    link = invitation(page, 1)
    assert len(link) < 1200, "the invitation must fit a QR code that a phone reads"
    # a browser with no WebRTC plays with others at their own pace only (by links), and says why; an invitation
    # opened there says so
    old = devices("a browser with no WebRTC")
    old.context.add_init_script("delete window.RTCPeerConnection;")
    old.page.goto("index.html")
    old.page.wait_for_function("document.documentElement.dataset.state === 'ready'")
    old.page.locator("#open-setup").click()
    expect(old.page.locator("#no-connection")).to_be_visible()
    expect(old.page.locator("#remote-way")).to_have_value("links")
    expect(old.page.locator("#remote-way option[value=live]")).to_be_disabled()
    expect(page.locator("#remote-way option[value=live]")).to_be_enabled()  # the host's browser (with WebRTC)
    old.page.goto(link)
    expect(old.page.locator("#remote-guest-step")).to_contain_text("cannot connect to other devices")
    expect(page.locator("#remote-seats li[data-seat='1'] .remote-qr svg")).to_have_count(1)  # drawn once qr loads
    assert page.evaluate(READ_QR, link) == link  # the camera's decoder reads the code the page draws
    shot(page, "remote", "host-invites")
    guest.page.goto(link)  # before it joins, the guest's page names the game and who invites
    expect(guest.page).to_have_title(f"100 Silver Bars with {HOST} · Card Table")
    expect(guest.page.locator("#remote-title")).to_have_text(f"{HOST} invites you to play 100 Silver Bars")
    assert guest.page.locator("#remote i").count() == 0, "the host's name is never markup"
    join(page, guest.page, 1, opened=True)
    expect(guest.page.locator("#status")).to_contain_text(HOST)  # the host's name reached the guest's table
    state = pyengine.new_game("silver-bars", 2, 12, {})
    hand = state.view(1)["hand"]
    shown = guest.page.locator("#board .sb-hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert sorted(shown) == sorted(hand)  # the guest's own hand, and no other
    host_hand = page.locator("#board .sb-hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert sorted(host_hand) == sorted(state.view(0)["hand"])
    assert guest.page.locator("[data-ui='take-device']").count() == 0  # never a hot-seat hand-over
    assert "you: hosting" in page.locator("#status").inner_text()
    assert page.evaluate("document.documentElement.dataset.state") == "ready"
    shot(guest.page, "remote", "guest-table")
    moves = int(page.evaluate("document.documentElement.dataset.moves"))
    mover = guest.page if state.current_player == 1 else page
    one_move(mover)
    for device in (page, guest.page):
        device.wait_for_function(f"Number(document.documentElement.dataset.moves) > {moves}")
    # the guest drops: the host is told, invites again, and the reply comes through a tab of the host's browser
    guest.page.close()
    page.wait_for_selector("#remote-seats li[data-seat='1'][data-state='links']")  # it plays on by links meanwhile
    assert "left the table" in page.locator("#message").inner_text()
    page.locator("#remote-seats li[data-seat='1'] button", has_text="Invite again").click()
    again = guest.open(invitation(page, 1))
    reply = again.locator(".remote-reply-link")
    reply.wait_for()
    handing = host.open(reply.input_value())  # the reply link, opened in the host's browser
    handing.wait_for_function("document.documentElement.dataset.state === 'handed'")
    connected(page, again, 1)
    moves = int(page.evaluate("document.documentElement.dataset.moves"))
    assert int(again.evaluate("document.documentElement.dataset.moves")) == moves  # the game went on where it was
    # the invitation already used is refused when its reply comes again
    page.fill("#remote-paste", reply.input_value())
    page.click("#remote-paste-take")
    page.wait_for_function("document.getElementById('remote-note').textContent.includes('already used')")
    # a guest who opens that used invitation again is never answered: after a while its page says what to do
    late = guest.context.new_page()
    late.clock.install()
    late.goto(link)
    late.locator(".remote-reply-link").wait_for()
    late.clock.fast_forward("02:05")
    late.wait_for_function("document.getElementById('remote-note').textContent.includes('already used')")
    assert "ask for a new invitation" in late.locator("#remote-note").inner_text()
    late.close()
    # the host gives the seat to the computer: the guest is told, and the computer plays on
    page.locator("#remote-seats li[data-seat='1'] button", has_text="computer").click()
    again.wait_for_function("document.getElementById('message').textContent.includes('gave your seat')")
    page.wait_for_selector("#remote-seats li[data-seat='1'][data-state='computer']")


def test_two_devices_play_100_silver_bars_to_the_end_and_a_hostile_guest_is_refused(devices: Any) -> None:
    host, guest = devices("host"), devices("guest", (360, 740))
    record = near_the_end("silver-bars", 2, 5, 24)  # the guest to move, and a lock of its fifth vault is legal
    settings = {"game": "silver-bars", "players": 2, "seed": 5, "record": record, "remote": [1], "delay": 0}
    host_game(host.page, settings)
    join(host.page, guest.page, 1)
    moves = int(host.page.evaluate("document.documentElement.dataset.moves"))
    # a take-back needs the other player's agreement: the guest locks (it shows nobody anything new), asks, the
    # host agrees, and the lock is undone on both devices
    guest.page.click("#board [data-action='lock v5']")
    for device in (host.page, guest.page):
        device.wait_for_function(f"Number(document.documentElement.dataset.moves) === {moves + 1}")
    guest.page.click("#table-menu")  # the guest is on a phone: the table's buttons fold behind Menu
    guest.page.locator("#undo[aria-disabled='false']").click()
    host.page.locator("#status [data-ui='remote-agree']").click()
    for device in (host.page, guest.page):
        device.wait_for_function(f"Number(document.documentElement.dataset.moves) === {moves}")
    assert guest.page.locator("#board [data-action='lock v5']").count() == 1  # the guest decides again
    # the host's page reloads: the guest is told, the host hosts the game again with a new invitation, and the
    # guest takes its seat where the game was
    host.page.reload()
    guest.page.wait_for_function("document.getElementById('message').textContent.includes('connection to the host')")
    guest.page.goto(invitation(host.page, 1))  # the new invitation, opened in the same tab of the guest's phone
    join(host.page, guest.page, 1, opened=True)
    assert int(guest.page.evaluate("document.documentElement.dataset.moves")) == moves
    send_raw(guest.page, {"kind": "act", "action": "lock v1", "moves": moves, "seat": 0})
    refused(guest.page, "cannot speak for another seat")
    send_raw(guest.page, {"kind": "act", "action": "steal the vault", "moves": moves})
    refused(guest.page, "not an action of this game")  # an illegal action: the engine's reason
    send_raw(guest.page, {"kind": "act", "action": "x", "moves": moves}, pad=5_000)
    refused(guest.page, "too long")
    send_raw(guest.page, {"kind": "deal", "moves": moves})
    refused(guest.page, "no message of the kind")
    assert int(host.page.evaluate("document.documentElement.dataset.moves")) == moves  # nothing changed
    # a move that would show a card (every play but a lock draws one) waits on the guest's page for a second tap
    drawing = "#board [data-action]:not([data-action^='lock'])"
    if not guest.page.locator(drawing).count():
        guest.page.locator("#board [data-select]").first.click()
    guest.page.locator(drawing).first.click()
    guest.page.wait_for_function(f"document.querySelector('#advice').textContent.includes('{HELD}')")
    assert int(host.page.evaluate("document.documentElement.dataset.moves")) == moves
    shot(guest.page, "remote", "guest-holds-a-move")
    guest.page.locator("#board [data-action].hinted").click()
    for device in (host.page, guest.page):
        device.wait_for_function(f"Number(document.documentElement.dataset.moves) === {moves + 1}")
    play_to_the_end([host.page, guest.page])
    final = host.page.locator("#status .headline").inner_text()
    assert "win" in final.lower() or "nobody" in final.lower()
    assert guest.page.locator("#status .headline").inner_text()
    send_raw(guest.page, {"kind": "act", "action": "lock v1", "moves": 0})
    refused(guest.page, "The game is over")
    # the result, the replay and the statistics on the guest's device too
    history = json.loads(guest.page.evaluate("localStorage.getItem('cardtable.history')") or "[]")
    assert history and history[0]["record"]["actions"][: len(record["actions"])] == record["actions"]
    guest.page.locator("#game-over [data-ui='replay']").click()
    guest.page.wait_for_function("document.documentElement.dataset.replayIndex !== undefined")


def test_three_devices_and_the_computer_play_carbondale_to_the_end(devices: Any) -> None:
    host, first, second = devices("host"), devices("guest 1", (360, 740)), devices("guest 2")
    record = near_the_end("carbondale", 4, 9, 20)  # the last round, which every seat plays: the game ends by
    # rule 26 (a hundred rounds), so random clicks end it in about twenty moves
    settings = {
        "game": "carbondale",
        "players": 4,
        "seed": 9,
        "record": record,
        "remote": [1, 2],
        "bots": [3],
        "level": "easy",
        "delay": 0,
    }
    host_game(host.page, settings)
    first.page.goto(invitation(host.page, 1))  # both guests' pages start at once
    second.page.goto(invitation(host.page, 2))
    join(host.page, first.page, 1, opened=True)
    join(host.page, second.page, 2, opened=True)
    assert "Computer 4" in second.page.locator("#status").inner_text()
    play_to_the_end([host.page, first.page, second.page])
    for page in (host.page, first.page, second.page):
        assert page.locator("#status .headline").inner_text()
    shot(first.page, "remote", "guest-over")
