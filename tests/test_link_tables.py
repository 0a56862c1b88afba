"""Playing at your own pace through the table page's controllers, without a browser: a host's page and each
guest's page (each its own storage), joined by nothing but the links their effects make (passed as the packed
payloads the page seals), whole games played by clicks on what each table draws, and the links that must be refused.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from cardtable_web.controller import TableController
from cardtable_web.effects import Click, Effect, LobbyError, TableScreen, Think, Wire
from cardtable_web.feed import headline
from cardtable_web.html import esc
from cardtable_web.keeping import Keeper, MemoryStorage
from cardtable_web.link_door import LinkDoor
from cardtable_web.link_guest import LinkGuestMode, open_turn
from cardtable_web.link_host import LinkSeats, Pacing
from cardtable_web.link_store import LINK_GAMES_KEY, LINK_SEATS_KEY, LINKS_LOBBY_KEY, held_games, hosted_games, key_of
from cardtable_web.links import pack, unpack

import pyengine

from .test_controller import choices, decide_at_random, held_move
from .test_links import tables_by_links


class Device:
    """One player's page: its controller over its own storage, the last screen it drew, the links it made."""

    def __init__(self, storage: MemoryStorage | None = None) -> None:
        self.storage = storage or MemoryStorage()
        self.controller = TableController(Keeper(self.storage))
        self.pacing = Pacing(self.controller)
        self.screen: TableScreen | None = None
        self.links: list[dict[str, Any]] = []
        self.errors: list[str] = []

    def run(self, effects: list[Effect]) -> None:
        pending = list(effects)
        while pending:
            effect = pending.pop(0)
            if isinstance(effect, TableScreen):
                self.screen = effect
            elif isinstance(effect, Think):
                pending += self.controller.decided(decide_at_random(effect.task))
            elif isinstance(effect, Wire) and effect.command == "link":
                self.links.append(effect.data)
            elif isinstance(effect, LobbyError):
                self.errors.append(effect.text)

    def click(self, kind: str, value: str) -> None:
        self.run(self.controller.click(Click(**{kind: value})))

    @property
    def table(self) -> TableScreen:
        assert self.screen is not None
        return self.screen


class LinkGame:
    """A host and its guests, a game at their own pace: each link the host makes goes to its seat's device (the
    first one with the seat's key, as its invitation), each reply back to the host."""

    def __init__(self, game: str, players: int, seed: int = 3, bots: list[int] | None = None,
                 record: dict[str, Any] | None = None) -> None:
        self.host = Device()
        bots = bots or []
        remote = [seat for seat in range(1, players) if seat not in bots]
        self.guests = {seat: Device() for seat in remote}
        settings = {"game": game, "players": players, "seed": seed, "bots": bots, "delay": 0, "remote": remote,
                    "names": ["Hal", "Bea", "Cy", "Di"][:players], "record": record}
        self.host.run(self.host.pacing.start(json.dumps(settings)))
        self.invited: set[int] = set()
        self.delivered = 0

    @property
    def state(self) -> pyengine.State:
        session = self.host.controller.session
        assert session is not None
        return session.state

    @property
    def table(self) -> str:
        session = self.host.controller.session
        assert session is not None
        return session.table

    def invite(self, seat: int) -> None:
        self.host.run(self.host.pacing.invite(seat))
        self.open_turn(seat, self.host.links.pop())

    def open_turn(self, seat: int, link: dict[str, Any]) -> None:
        """``seat``'s device opens a link the host made (an invitation carries the key)."""
        assert link["to"] == "guest" and link["seat"] == seat
        key = link["key"] if link["invite"] else ""
        assert link["invite"] or seat in self.invited, "a seat's first link is its invitation"
        self.invited.add(seat)
        guest = self.guests[seat]
        guest.run(open_turn(guest.controller, link["table"], seat, link["packed"], key))

    def deliver(self) -> bool:
        """The host's newest links go to their seats; whether one went."""
        sent = False
        while self.host.links:
            link = self.host.links.pop(0)
            self.open_turn(link["seat"], link)
            self.delivered += 1
            sent = True
        return sent

    def play_out(self, rnd: random.Random, max_clicks: int = 30_000) -> None:
        """Whoever decides clicks what their own table offers; links go as they are made."""
        for _ in range(max_clicks):
            self.deliver()
            if self.state.is_terminal():
                return
            seat = self.state.current_player
            device = self.guests.get(seat, self.host)  # type: ignore[arg-type]
            screen = device.table
            if device is not self.host and not isinstance(device.controller.mode, LinkGuestMode):
                raise AssertionError(f"seat {seat} has no table: {device.errors}")
            held = held_move(screen)
            kind, value = ("action", held) if held else rnd.choice(choices(screen))
            device.click(kind, value)
            if device is not self.host and device.links and device.links[-1]["to"] == "host":
                link = device.links.pop()
                assert link["key"] == self.host.pacing.key(link["table"], seat)  # sealed with the seat's own key
                self.host.run(self.host.pacing.reply(link["table"], link["seat"], link["packed"]))
        raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "players", "computers"), [table[:3] for table in tables_by_links()])
def test_whole_games_by_links_through_the_pages(game: str, players: int, computers: set[int]) -> None:
    """A whole game at each table through the host's and the guests' controllers (``tests/test_links.py`` plays
    more of them by the links alone): each guest's table is drawn from its turn link alone, the host's engine
    plays every reply, the computer seats play on the host's page, and at the end each guest's last link shows the
    result."""
    seed = players
    table = LinkGame(game, players, seed=seed, bots=sorted(computers))
    table.play_out(random.Random(seed))
    assert table.state.is_terminal() and table.delivered > 0
    table.deliver()
    session = table.host.controller.session
    assert session is not None
    for seat, guest in table.guests.items():
        assert guest.table.over, (seat, guest.errors)
        result = headline(table.state, session.names, session.computers, seat)
        assert f'<p class="headline">{esc(result)}</p>' in guest.table.status_html
        held = held_games(guest.controller.keeper)[table.table]
        assert held["over"] and held["waiting"] == ""


def test_the_guests_table_is_its_own_view_and_its_log_the_public_log() -> None:
    table = LinkGame("carbondale", 3, seed=4, bots=[2])
    rnd = random.Random(4)
    for _ in range(200):
        table.deliver()
        seat = table.state.current_player
        if seat == 1:
            break
        table.host.click(*rnd.choice(choices(table.host.table)))
    guest = table.guests[1]
    mode = guest.controller.mode
    assert isinstance(mode, LinkGuestMode)
    view = mode.board_view()
    truth = table.state.view(1)
    assert {k: v for k, v in view.items() if k not in ("names", "you", "recent")} == truth
    session = table.host.controller.session
    assert session is not None
    said = [pyengine.words.say(e.text, session.names, 1) for e in table.state.log()]
    assert list(guest.table.log_lines) == said[-len(guest.table.log_lines):]


def host_to_guest(table: LinkGame, rnd: random.Random) -> None:
    """Play the host's moves until a guest is to act (its link delivered)."""
    while table.state.current_player == 0:
        table.host.click(*rnd.choice(choices(table.host.table)))
    table.deliver()


def guest_plays(table: LinkGame, seat: int, rnd: random.Random) -> dict[str, Any]:
    """The guest plays its turn until the reply link appears; the reply."""
    guest = table.guests[seat]
    while not guest.links or guest.links[-1]["to"] != "host":
        held = held_move(guest.table)
        kind, value = ("action", held) if held else rnd.choice(choices(guest.table))
        guest.click(kind, value)
    return guest.links.pop()


def test_an_old_reply_is_not_played_twice_and_says_so() -> None:
    table = LinkGame("silver-bars", 2, seed=5)
    table.invite(1)
    rnd = random.Random(5)
    host_to_guest(table, rnd)
    reply = guest_plays(table, 1, rnd)
    table.host.run(table.host.pacing.reply(table.table, 1, reply["packed"]))
    played = table.state.played
    table.host.run(table.host.pacing.reply(table.table, 1, reply["packed"]))
    assert table.state.played == played
    assert table.host.table.message == "This link of Bea's was played already, or the game moved on since: " \
        "nothing was played again."


def test_an_old_turn_link_shows_the_latest_turn_this_device_holds() -> None:
    table = LinkGame("silver-bars", 2, seed=5)
    table.invite(1)
    old = table.guests[1].controller.keeper.read(LINK_SEATS_KEY, dict, {})[table.table]["packed"]
    rnd = random.Random(5)
    host_to_guest(table, rnd)
    newest = table.state.played
    guest = table.guests[1]
    guest.run(open_turn(guest.controller, table.table, 1, old))
    assert guest.table.message.startswith("This link is old: the game has moved on since.")
    assert guest.table.moves == newest


def test_a_played_turn_opened_again_shows_its_reply_again() -> None:
    table = LinkGame("silver-bars", 2, seed=6)
    table.invite(1)
    rnd = random.Random(6)
    host_to_guest(table, rnd)
    reply = guest_plays(table, 1, rnd)
    guest = table.guests[1]
    held = held_games(guest.controller.keeper)[table.table]
    guest.run(open_turn(guest.controller, table.table, 1, held["packed"]))
    again = guest.links.pop()
    assert unpack(again["packed"]) == unpack(reply["packed"])
    assert again["words"] == reply["words"] and again["words"].startswith(("Your turn is done", "Your move: "))


def test_a_link_of_another_seat_or_game_or_a_changed_one_is_refused_in_one_sentence() -> None:
    table = LinkGame("carbondale", 3, seed=2)
    table.invite(1)
    table.invite(2)
    bea, cy = table.guests[1], table.guests[2]
    cys_link = held_games(cy.controller.keeper)[table.table]["packed"]
    bea.run(open_turn(bea.controller, table.table, 2, cys_link))
    assert bea.errors[-1] == "This device plays another seat of this game: this link is for another player."
    bea.run(open_turn(bea.controller, "f00f00f00f", 2, cys_link))  # a header that does not match its payload
    assert bea.errors[-1] == "This link is damaged or was changed: ask for it again, whole."
    bea.run(open_turn(bea.controller, table.table, 1, cys_link[:-10]))
    assert bea.errors[-1] == "This link is damaged or was changed: ask for it again, whole."
    other = LinkGame("silver-bars", 2, seed=1)
    other.invite(1)
    reply = {"v": 1, "kind": "reply", "table": other.table, "seat": 1, "turn": 0, "actions": ["discard 7"],
             "seen": []}
    table.host.run(table.host.pacing.reply(other.table, 1, pack(reply)))
    assert table.host.table.message == "" and table.host.errors[-1] == (
        "This link belongs to a game this device does not host (or no longer keeps).")
    for line in bea.errors + table.host.errors:
        assert line.count(".") == 1 and line.endswith(".")


def test_a_reply_after_the_end_is_refused() -> None:
    state = pyengine.new_game("silver-bars", 2, 8)
    rnd = random.Random(8)
    while not state.is_terminal():
        state = state.apply(rnd.choice(state.legal_texts()))
    table = LinkGame("silver-bars", 2, seed=8, record=state.record())
    reply = {"v": 1, "kind": "reply", "table": table.table, "seat": 1, "turn": state.played, "actions": ["x"],
             "seen": []}
    table.host.run(table.host.pacing.reply(table.table, 1, pack(reply)))
    assert table.host.table.message == "This game is over: this link came after its end, and nothing was played."


def test_a_reply_opened_in_the_lobby_puts_its_game_on_the_table_and_plays_it() -> None:
    storage = MemoryStorage()
    table = LinkGame("silver-bars", 2, seed=7)
    table.host = Device(storage)  # the host's page again, over the same storage
    table.host.run(table.host.pacing.start(json.dumps({
        "game": "silver-bars", "players": 2, "seed": 7, "delay": 0, "remote": [1], "names": ["Hal", "Bea"]})))
    table.invite(1)
    rnd = random.Random(7)
    host_to_guest(table, rnd)
    reply = guest_plays(table, 1, rnd)
    played = table.state.played
    reloaded = Device(storage)  # a new tab of the host's browser, in the lobby
    reloaded.run(reloaded.pacing.reply(table.table, 1, reply["packed"]))
    session = reloaded.controller.session
    assert session is not None and session.state.played > played
    assert isinstance(reloaded.controller.mode.others.links, LinkSeats)  # type: ignore[union-attr]
    assert table.table in hosted_games(reloaded.controller.keeper)
    assert json.loads(storage.items[LINK_GAMES_KEY])[table.table]["seats"] == [1]


def test_take_back_is_not_offered_in_a_game_by_links() -> None:
    table = LinkGame("silver-bars", 2, seed=3)
    rnd = random.Random(3)
    table.invite(1)
    host_to_guest(table, rnd)
    guest_plays(table, 1, rnd)
    table.host.click("ui", "undo")
    assert not table.host.table.undo_enabled
    assert table.host.table.message.startswith("Take back is not offered")


def test_a_guest_plays_its_turn_again_before_sending_it() -> None:
    table = LinkGame("carbondale", 2, seed=3)
    table.invite(1)
    rnd = random.Random(3)
    host_to_guest(table, rnd)
    guest = table.guests[1]
    start = guest.table.moves
    guest_plays(table, 1, rnd)
    assert guest.table.undo_enabled
    guest.click("ui", "undo")
    assert guest.table.moves == start and not guest.table.undo_enabled


def test_each_device_keeps_its_key_and_no_other() -> None:
    table = LinkGame("carbondale", 3, seed=2)
    table.invite(1)
    keys = hosted_games(table.host.controller.keeper)[table.table]["keys"]
    assert key_of(table.guests[1].controller.keeper, table.table, 1) == keys["1"]
    assert key_of(table.guests[1].controller.keeper, table.table, 2) == ""
    assert keys["1"] != keys["2"] and len(keys["1"]) == 22


def lobby_rows(device: Device) -> list[dict[str, Any]]:
    return json.loads(device.storage.items.get(LINKS_LOBBY_KEY, "[]"))  # type: ignore[no-any-return]


def test_the_lobby_lists_the_games_waiting_for_me_and_for_others() -> None:
    table = LinkGame("silver-bars", 2, seed=5)
    table.invite(1)
    rnd = random.Random(5)
    bea = table.guests[1]
    [hosts] = lobby_rows(table.host)
    assert hosts["text"].endswith("waiting for you (you host it)") and hosts["waiting"] == "you"
    [beas] = lobby_rows(bea)
    assert beas == {**beas, "text": "100 Silver Bars with Hal: waiting for Hal's link", "waiting": "others",
                    "open": "held", "key": table.table}
    host_to_guest(table, rnd)
    assert lobby_rows(table.host)[0]["text"] == (
        "100 Silver Bars with Bea, round 1: waiting for Bea's link (you host it)")
    assert lobby_rows(bea)[0]["text"] == "100 Silver Bars with Hal: your turn"
    reply = guest_plays(table, 1, rnd)
    assert lobby_rows(bea)[0]["text"] == "100 Silver Bars with Hal: your link for Hal is ready to send"
    bea.run(bea.controller.leave())
    bea.run(LinkDoor(bea.controller, bea.pacing).open_held(table.table))  # the lobby's Open
    assert unpack(bea.links[-1]["packed"]) == unpack(reply["packed"])


def test_a_hosted_game_moves_to_another_device_by_its_file() -> None:
    table = LinkGame("silver-bars", 2, seed=9)
    table.invite(1)
    rnd = random.Random(9)
    host_to_guest(table, rnd)
    effects = table.host.pacing.export()
    [file] = [effect.data for effect in effects if isinstance(effect, Wire)]
    assert file["name"] == f"card-table-silver-bars-{table.table}.json"
    laptop = Device()
    laptop.run(laptop.pacing.bring(file["text"]))
    session = laptop.controller.session
    assert session is not None and session.state.record() == table.state.record()
    assert isinstance(laptop.controller.mode.others.links, LinkSeats)  # type: ignore[union-attr]
    assert laptop.pacing.key(table.table, 1) == table.host.pacing.key(table.table, 1)
    played = session.state.played
    reply = guest_plays(table, 1, rnd)
    laptop.run(laptop.pacing.reply(table.table, 1, reply["packed"]))
    assert laptop.controller.session is not None and laptop.controller.session.state.played > played
    laptop.run(laptop.pacing.bring('{"kind": "something else"}'))
    assert laptop.errors[-1] == "This file cannot be opened: it is not a game exported from Card Table."


def test_each_link_of_a_seat_is_its_invitation_until_its_reply_comes() -> None:
    """Whichever link the host sends first lets its player in (it carries the seat's key); once the seat's reply
    came, its device holds the key, and the links carry it no more (even after the host's page reloads)."""
    storage = MemoryStorage()
    table = LinkGame("silver-bars", 2, seed=4)
    table.host = Device(storage)
    table.host.run(table.host.pacing.start(json.dumps({
        "game": "silver-bars", "players": 2, "seed": 4, "delay": 0, "remote": [1], "names": ["Hal", "Bea"]})))
    rnd = random.Random(4)
    while table.state.current_player == 0:
        table.host.click(*rnd.choice(choices(table.host.table)))
    first = table.host.links[-1]
    assert first["invite"] and first["row"] == "turn"
    table.deliver()
    reply = guest_plays(table, 1, rnd)
    table.host.run(table.host.pacing.reply(table.table, 1, reply["packed"]))
    while table.state.current_player == 0:
        table.host.click(*rnd.choice(choices(table.host.table)))
    assert not table.host.links[-1]["invite"]
    reloaded = Device(storage)
    reloaded.run(reloaded.pacing.reply(table.table, 1, reply["packed"]))  # refused (old), but hosted again
    assert not reloaded.links[-1]["invite"]


def test_the_hosts_own_links_do_not_open_on_its_device() -> None:
    """A link the host made for a seat, even one that carries the seat's key, shows nothing on the host's device."""
    table = LinkGame("silver-bars", 2, seed=2)
    table.host.run(table.host.pacing.invite(1))
    invitation = table.host.links.pop()
    door = LinkDoor(table.host.controller, table.host.pacing)
    table.host.run(door.opened(table.table, 1, "h", invitation["packed"], invitation["key"]))
    assert table.host.errors[-1] == (
        "This link is for another player's device: it shows nothing here, so send it to them.")
    assert not held_games(table.host.controller.keeper)
