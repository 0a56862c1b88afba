"""Live play and play by links are one game, without a browser: the host's controller and each guest's page (its own
storage) joined live by a stand-in for the data channel while it is open, and by the links their effects make when it
is not; whole games that go live, then by links, then live again to the end (and the other way round), with every
move played once, in order, by the host's engine."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from cardtable_web.controller import TableController
from cardtable_web.effects import Click, Effect, LobbyError, TableScreen, Think, Wire
from cardtable_web.html import esc
from cardtable_web.keeping import Keeper, MemoryStorage
from cardtable_web.link_door import LinkDoor
from cardtable_web.link_guest import LinkGuestMode
from cardtable_web.link_host import Pacing
from cardtable_web.link_store import LINKS_LOBBY_KEY, held_games
from cardtable_web.link_waiting import WaitingMode
from cardtable_web.links import unpack
from cardtable_web.remote_guest import GuestMode
from cardtable_web.remote_host import Hosting

import pyengine

from .test_controller import choices, decide_at_random, held_move

BUILD = "build-1"


class Guest:
    """A guest's browser: its page's controller over its own storage, live or by links."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.controller = TableController(Keeper(MemoryStorage()))
        self.door = LinkDoor(self.controller, Pacing(self.controller))
        self.screen: TableScreen | None = None
        self.replies: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.waiting = ""
        """What the guest's panel of links says last (its table by links, or waiting for a link)."""

    @property
    def live(self) -> GuestMode | None:
        mode = self.controller.mode
        return mode if isinstance(mode, GuestMode) and not mode.gone else None


class Game:
    """A host and its guests; each guest's moves go live while its channel is open, by links when it is not."""

    def __init__(self, game: str, players: int, seed: int, start: str, bots: list[int] | None = None) -> None:
        self.controller = TableController(Keeper(MemoryStorage()))
        counter = iter(range(1, 10_000))
        self.hosting = Hosting(self.controller, BUILD, lambda: f"token-{next(counter)}")
        self.pacing = Pacing(self.controller, self.hosting)
        remote = [seat for seat in range(1, players) if seat not in (bots or [])]
        self.guests = {seat: Guest(seat) for seat in remote}
        self.invitations: dict[int, str] = {}
        self.links: dict[int, dict[str, Any]] = {}
        """The newest link the host made for each seat (what the host sends them)."""
        self.received: dict[int, list[str]] = {}
        """Every message sent live to each seat."""
        self.sent: list[dict[str, Any]] = []
        """Every reply link sent to the host."""
        self.chosen: list[tuple[int, str]] = []
        """Every guest move the host's engine played: (how many moves before it, its text)."""
        self.screen: TableScreen | None = None
        self.panels: dict[str, list[dict[str, Any]]] = {}
        """The host's panels as last drawn: ``seats`` (the players on other devices) and ``link-seats`` (by links)."""
        settings = {"game": game, "players": players, "seed": seed, "bots": bots or [], "delay": 0,
                    "remote": remote, "names": ["Hal", "Bea", "Cy", "Di"][:players]}
        if start == "live":
            self.run(self.hosting.start_remote(json.dumps(settings), BUILD, 1000.0))
        else:
            self.run(self.pacing.start(json.dumps(settings)))

    @property
    def state(self) -> pyengine.State:
        session = self.controller.session
        assert session is not None
        return session.state

    def run(self, effects: list[Effect]) -> None:
        pending = list(effects)
        while pending:
            effect = pending.pop(0)
            if isinstance(effect, TableScreen):
                self.screen = effect
            elif isinstance(effect, Think):
                pending += self.controller.decided(decide_at_random(effect.task))
            elif isinstance(effect, Wire):
                pending += self.wire(effect)

    def wire(self, effect: Wire) -> list[Effect]:
        data = effect.data
        if effect.command == "invite":
            self.invitations[data["seat"]] = data["token"]
        elif effect.command == "connect":  # the guest's page answered: its data channel opens
            guest = self.guests[data["seat"]]
            mode = GuestMode(guest.controller, BUILD, data["seat"], self.state.game)
            guest.screen = guest.controller.show(mode)[0]  # type: ignore[assignment]
            return self.hosting.joined(data["seat"])
        elif effect.command == "send":
            self.received.setdefault(data["seat"], []).append(data["text"])
            live = self.guests[data["seat"]].live
            if live is not None:
                self.on_guest(self.guests[data["seat"]], live.receive(data["text"]))
        elif effect.command == "link" and data["to"] == "guest":
            self.links[data["seat"]] = data
        elif effect.command in ("seats", "link-seats"):
            self.panels[effect.command] = data["seats" if effect.command == "seats" else "rows"]
        return []

    def on_guest(self, guest: Guest, effects: list[Effect]) -> None:
        sending = []
        for effect in effects:
            if isinstance(effect, TableScreen):
                guest.screen = effect
            elif isinstance(effect, LobbyError):
                guest.errors.append(effect.text)
            elif isinstance(effect, Wire) and effect.command == "send-host":
                sending.append(effect.data["text"])  # it reaches the host after this page drew its table
            elif isinstance(effect, Wire) and effect.command == "link" and effect.data["to"] == "host":
                guest.replies.append(effect.data)
            elif isinstance(effect, Wire) and effect.command == "link-guest":
                guest.waiting = effect.data["waiting"]
        for text in sending:
            moves = self.state.played
            self.run(self.hosting.guest_message(guest.seat, text))
            if self.state.played > moves:
                self.chosen.append((moves, json.loads(text)["action"]))

    # -- the seat's device joins live, leaves, opens its links -------------------------------------------------
    def connect(self, seat: int) -> None:
        """The host invites ``seat`` live (the panel's Play live, or Invite again); its reply comes, it connects."""
        self.links.pop(seat, None)  # a link not sent yet is not needed: the seat plays live
        self.run(self.hosting.invite(seat, 2000.0))
        self.run(self.hosting.reply(self.invitations[seat], BUILD, 2000.0))
        assert self.guests[seat].live is not None

    def drop(self, seat: int) -> None:
        """``seat``'s data channel closes: both pages hear of it."""
        guest = self.guests[seat]
        assert guest.live is not None
        self.on_guest(guest, guest.live.closed())
        self.run(self.hosting.left(seat))

    def open_link(self, seat: int) -> None:
        """``seat``'s browser opens the host's newest link for it, with the key it holds (its invitation's, the
        first time in a game started by links)."""
        self.open_link_in(self.guests[seat])

    def open_link_in(self, guest: Guest) -> None:
        """A page of the seat's browser (``guest``) opens the host's newest link for the seat."""
        seat = guest.seat
        link = self.links.pop(seat)
        key = guest.door.key(link["table"], seat, "h")
        assert key in ("", link["key"])  # a key this browser holds is the seat's own
        invitation = link["key"] if link["invite"] else ""
        assert key or invitation, "a seat's first link by links is its invitation"
        self.on_guest(guest, guest.door.opened(link["table"], seat, "h", link["packed"], invitation))

    def send_reply(self, seat: int) -> None:
        """The guest's reply link goes to the host, which plays it."""
        reply = self.guests[seat].replies.pop()
        self.sent.append(reply)
        moves = self.state.played
        self.run(self.pacing.reply(reply["table"], seat, reply["packed"]))
        history = self.state.history()
        for at, action in enumerate(unpack(reply["packed"])["actions"], start=moves):
            if at >= len(history) or str(history[at][1]) != action:
                break  # the rest waits for the seat's next link (a card the guest had not really drawn)
            self.chosen.append((at, action))

    # -- play -----------------------------------------------------------------------------------------------------
    def click(self, rnd: random.Random) -> None:
        """One click by whoever decides, on their own table: the host's, a live guest's, or a guest's by links (its
        newest link opened first, its reply sent once the turn pauses)."""
        seat = self.state.current_player
        assert seat is not None
        guest = self.guests.get(seat)
        if guest is None:
            assert self.screen is not None
            kind, value = pick(self.screen, rnd)
            self.run(self.controller.click(Click(**{kind: value})))
        elif guest.live is not None:
            assert guest.screen is not None
            kind, value = pick(guest.screen, rnd)
            self.on_guest(guest, guest.live.click(Click(**{kind: value})))
        else:
            if seat in self.links:
                self.open_link(seat)
            mode = guest.controller.mode
            assert isinstance(mode, LinkGuestMode), guest.errors
            kind, value = pick(mode.screen(), rnd)
            self.on_guest(guest, mode.click(Click(**{kind: value})))
            if guest.replies:
                self.send_reply(seat)


def pick(screen: TableScreen, rnd: random.Random) -> tuple[str, str]:
    held = held_move(screen)
    return ("action", held) if held else rnd.choice(choices(screen))


def played_until(game: Game, rnd: random.Random, moves: int) -> None:
    for _ in range(20_000):
        if game.state.is_terminal() or game.state.played >= moves:
            return
        game.click(rnd)
    raise AssertionError("the game did not go on")


def guest_moves(game: Game, seats: set[int]) -> list[tuple[int, str]]:
    """Every move of the guests' seats in the host's game: (how many moves before it, its text)."""
    return [(at, str(action)) for at, (before, action) in enumerate(game.state.history())
            if before.current_player in seats]


@pytest.mark.parametrize(("game", "players", "bots", "start"), [
    ("silver-bars", 2, [], "live"), ("silver-bars", 2, [], "links"),
    ("carbondale", 3, [2], "live"), ("carbondale", 3, [2], "links"),
])
def test_a_game_goes_live_then_by_links_then_live_to_the_end(game: str, players: int, bots: list[int],
                                                            start: str) -> None:
    """Started live (or by links), every guest plays live, falls back to links when its channel closes (its turn
    goes on from the same position), and joins live again to the end: every move of the guests is played once, in
    the order they chose them, and the game ends on every device."""
    seed = 1 if start == "links" else 0
    table = Game(game, players, seed, start, bots)
    rnd = random.Random(seed)
    remote = set(table.guests)
    if start == "links":
        while not table.chosen:  # until a guest played a turn by links
            table.click(rnd)
        for seat in remote:
            table.connect(seat)
    else:
        for seat in remote:
            table.connect(seat)
    played_until(table, rnd, 30)
    while table.state.current_player not in remote:  # the channel closes on a guest's turn, mid-game
        table.click(rnd)
    for seat in remote:
        table.drop(seat)
    mover = table.state.current_player
    assert table.links[mover]["turn"] == table.state.played  # its link goes on from the same position
    assert not table.links[mover]["invite"]  # its device holds its key: it came over the connection
    played_until(table, rnd, table.state.played + 12)
    assert not table.state.is_terminal()
    for seat in remote:
        table.connect(seat)
    played_until(table, rnd, 10_000)
    assert table.state.is_terminal() and not table.links  # every guest saw the end live
    assert sorted(table.chosen) == guest_moves(table, remote)  # each guest move played once, in order
    for seat, guest in table.guests.items():
        assert guest.screen is not None and guest.screen.over, (seat, guest.errors)


def test_old_links_after_live_play_change_nothing() -> None:
    """A guest's page whose channel closes says the game goes on by links, and its browser keeps the seat's key with
    the game; once the game went on live again, the turn link of its turn by links says the game has moved on, and
    its reply link, sent again, is refused: nothing is played twice."""
    table = Game("silver-bars", 2, 4, "live")
    rnd = random.Random(4)
    table.connect(1)
    played_until(table, rnd, 4)
    while table.state.current_player != 1:
        table.click(rnd)
    guest = table.guests[1]
    assert guest.live is not None
    table.drop(1)
    assert guest.screen is not None and "goes on by links" in guest.screen.message
    session = table.controller.session
    assert session is not None and held_games(guest.controller.keeper)[session.table]["key"]
    assert "Bea: plays by links" in (table.screen.status_html if table.screen else "")
    old_turn = dict(table.links[1])
    while table.state.current_player == 1:  # the guest's turn by links, and its reply played
        table.click(rnd)
    assert table.sent
    table.connect(1)
    played_until(table, rnd, table.state.played + 6)
    history = table.state.history()
    table.links[1] = old_turn
    table.open_link(1)
    live = guest.live
    assert live is not None and guest.controller.mode is live  # the live table stays on the guest's page
    assert not guest.errors and guest.screen is not None
    assert guest.screen.message.startswith("This link is old: the game has moved on since. You play it live")
    assert "data-action" in guest.screen.board_html or table.state.current_player != 1
    table.run(table.pacing.reply(session.table, 1, table.sent[0]["packed"]))
    assert "played already" in session.message
    assert table.state.history() == history


def test_each_seat_is_sent_its_own_key_only_over_its_own_connection() -> None:
    """The key of a seat travels over that seat's connection only (never in the other seats' messages), and its
    links are sealed with it after the connection closes."""
    table = Game("carbondale", 3, 2, "live")
    for seat in table.guests:
        table.connect(seat)
    played_until(table, random.Random(2), 12)
    session = table.controller.session
    assert session is not None
    keys = {seat: json.loads(texts[0])["links"]["key"] for seat, texts in table.received.items()}
    assert sorted(keys) == [1, 2] and keys[1] != keys[2]
    for seat, texts in table.received.items():
        other = keys[3 - seat]
        assert all(other not in text for text in texts)
        assert all(json.loads(text).get("links", {}).get("key") in (None, keys[seat]) for text in texts)
    for seat in table.guests:
        table.drop(seat)
    while table.state.current_player not in table.guests:
        table.click(random.Random(3))
    seat = table.state.current_player
    assert table.links[seat]["key"] == keys[seat] and not table.links[seat]["invite"]


def live_until_the_guests_turn(seed: int) -> tuple[Game, random.Random]:
    """A live game of 100 Silver Bars, Hal hosting and Bea connected, played on until it is Bea's turn."""
    table = Game("silver-bars", 2, seed, "live")
    rnd = random.Random(seed)
    table.connect(1)
    played_until(table, rnd, 6)
    while table.state.current_player != 1:
        table.click(rnd)
    return table, rnd


def test_a_guest_whose_connection_closes_is_shown_its_table_by_links_at_once() -> None:
    """The connection closes on the guest's turn: its page is redrawn at once as its table by links, from what the
    host last sent it (its own hand, the log), waiting for the host's link, with nothing on it that plays or takes
    back; the host's link for that position then opens there as the seat's turn."""
    table, _ = live_until_the_guests_turn(7)
    guest = table.guests[1]
    table.drop(1)
    mode = guest.controller.mode
    assert isinstance(mode, WaitingMode)
    screen = guest.screen
    assert screen is not None and screen.message == "The connection to the host closed: the game goes on by links."
    assert esc("Waiting for Hal's link") in screen.status_html
    for card in table.state.view(1)["hand"]:  # its own hand, as it was
        assert esc(card) in screen.board_html
    for dead in ("data-action", "data-select", "data-try"):
        assert dead not in screen.board_html
    assert not screen.undo_enabled and not screen.suggest_shown and screen.moves == table.state.played
    assert screen.log_lines and "Hal sends you a link when it is your turn" in guest.waiting
    assert mode.click(Click(action=next(iter(table.state.legal_actions())).__str__())) == []
    assert lobby_rows(guest)[0]["text"] == "100 Silver Bars with Hal: waiting for Hal's link"
    lobby = TableController(Keeper(guest.controller.keeper.storage))  # the lobby's Open, in another tab
    session = table.controller.session
    assert session is not None
    [again] = LinkDoor(lobby, Pacing(lobby)).open_held(session.table)[-2:-1]
    assert isinstance(lobby.mode, WaitingMode) and isinstance(again, TableScreen)
    assert again.board_html == screen.board_html and again.message == ""
    table.open_link(1)  # the host's link for the position it left
    turn = guest.controller.mode
    assert isinstance(turn, LinkGuestMode) and turn.guest.decides and not guest.errors


def test_a_link_of_an_earlier_position_says_the_game_moved_on_and_shows_the_latest() -> None:
    """A turn link made while the guest played by links, opened once the game went on live: in the tab that plays
    live, the live table stays and says the link is old; in another tab of that browser, it says the game is played
    live in the other tab; once the connection closed again, it shows the latest position this browser holds, waiting
    for the host's link (with no turn on it to play, so no reply to make)."""
    table, rnd = live_until_the_guests_turn(8)
    guest = table.guests[1]
    table.drop(1)
    old_turn = dict(table.links[1])
    table.connect(1)
    played_until(table, rnd, table.state.played + 4)
    table.links[1] = old_turn
    table.open_link(1)
    assert guest.live is not None and guest.controller.mode is guest.live and not guest.errors
    assert guest.screen is not None and guest.screen.message.startswith("This link is old: the game has moved on")
    other_tab = Guest(1)  # the same browser: the same storage
    other_tab.controller = TableController(Keeper(guest.controller.keeper.storage))
    other_tab.door = LinkDoor(other_tab.controller, Pacing(other_tab.controller))
    table.links[1] = old_turn
    table.open_link_in(other_tab)
    assert other_tab.errors[-1] == ("This link is old: the game has moved on since. You play this game live in "
                                    "another tab of this browser: go on there.")
    while table.state.current_player == 1:
        table.click(rnd)
    table.drop(1)
    table.links[1] = old_turn
    table.open_link(1)
    mode = guest.controller.mode
    assert isinstance(mode, WaitingMode) and guest.screen is not None
    assert guest.screen.message == ("This link is old: the game has moved on since. Here is the latest position this "
                                    "device holds.")
    assert guest.screen.moves == table.state.played and "data-action" not in guest.screen.board_html


def test_the_lobby_and_the_panels_say_what_is_true_now() -> None:
    """While the guest plays live, the lobby's rows say the game is played live (on the host and on the guest), and
    the guest's seat shows in the host's panel of players on other devices only; once the connection closes, the
    rows say whose link the game waits for, and the seat is back in the panel of links (its live row saying so).
    A page that leaves the table (its connections close with it) leaves no row saying the game is played live."""
    table, rnd = live_until_the_guests_turn(9)
    guest = table.guests[1]
    table.run(table.controller.refresh())
    assert lobby_rows(guest)[0]["text"] == "100 Silver Bars: playing live with Hal"
    assert lobby_rows_of(table)[0]["text"].endswith(": playing live with Bea (you host it)")
    assert [row["state"] for row in table.panels["seats"] if row["seat"] == 1] == ["connected"]
    assert [row for row in table.panels["link-seats"] if row["seat"] == 1] == []
    table.drop(1)
    assert lobby_rows(guest)[0]["text"] == "100 Silver Bars with Hal: waiting for Hal's link"
    assert lobby_rows_of(table)[0]["text"].endswith(": waiting for Bea's link (you host it)")
    assert [row["state"] for row in table.panels["link-seats"] if row["seat"] == 1] == ["theirs"]
    assert [row["state"] for row in table.panels["seats"] if row["seat"] == 1] == ["links"]  # not "not connected"
    table.connect(1)
    played_until(table, rnd, table.state.played + 2)
    assert lobby_rows(guest)[0]["text"] == "100 Silver Bars: playing live with Hal"
    live = guest.live
    assert live is not None
    live.left()  # the guest's page leaves the table (or closes): its connection closes with it
    table.hosting.page_left()  # so does the host's, and every connection of it
    assert lobby_rows(guest)[0]["text"] == "100 Silver Bars with Hal: waiting for Hal's link"
    assert "playing live" not in lobby_rows_of(table)[0]["text"]


def lobby_rows(guest: Guest) -> list[dict[str, Any]]:
    return json.loads(guest.controller.keeper.storage.getItem(LINKS_LOBBY_KEY) or "[]")  # type: ignore[no-any-return]


def lobby_rows_of(table: Game) -> list[dict[str, Any]]:
    return json.loads(table.controller.keeper.storage.getItem(LINKS_LOBBY_KEY) or "[]")  # type: ignore[no-any-return]
