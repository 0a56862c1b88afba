"""Playing on separate devices, without a browser: the host's controller and each guest's controller joined by a
stand-in for the data channels, whole games played by clicks, every message a guest receives checked for hidden
cards, and every kind of hostile message refused with its reason."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from cardtable_web.controller import TableController
from cardtable_web.effects import After, Click, Decided, Effect, TableScreen, Think, ThinkTask
from cardtable_web.keeping import Keeper, MemoryStorage
from cardtable_web.misclick import MISCLICK_KEY, POLICIES, WINDOW, shows_a_card_to
from cardtable_web.remote import (
    INVITATION_SECONDS,
    MAX_MESSAGE,
    Refused,
    Wire,
    check_invitation,
    message,
)
from cardtable_web.remote_guest import GuestMode
from cardtable_web.remote_host import REMOTE_SEATS_KEY, Hosting, RemoteSession

import pyengine
from pyengine.words import say

from .test_controller import choices, held_move

BUILD = "build-1"
ROOT = Path(__file__).resolve().parents[1]
NOW = 1_000_000.0


def host_table(storage: MemoryStorage | None = None) -> Hosting:
    """A table page's table and its remote play (what the page's adapter makes)."""
    return Hosting(TableController(Keeper(storage or MemoryStorage())), BUILD)


def guest_page(seat: int, game: str) -> GuestMode:
    """A guest's page: its table in the guest's mode."""
    table = TableController(Keeper(MemoryStorage()))
    guest = GuestMode(table, BUILD, seat, game)
    table.show(guest)
    return guest


def said_log(state: pyengine.State, names: list[str], seat: int) -> list[str]:
    """The public log, each entry said for ``seat``."""
    return [say(entry.text, names, seat) for entry in state.log()]


def decide_at_random(task: ThinkTask) -> Decided:
    legal = task.state.legal_texts()
    return Decided(task, random.Random(len(task.state.history())).choice(legal), 1, 0.0, "page")


class Table:
    """A host and its guests, each guest's messages delivered at once (as an open data channel does)."""

    def __init__(
        self, game: str, players: int, seed: int = 3, bots: list[int] | None = None, position: str | None = None
    ) -> None:
        self.hosting = host_table()
        self.host = self.hosting.table
        counter = iter(range(1, 10_000))
        self.hosting.tokens = lambda: f"token-{next(counter)}"
        self.guests: dict[int, GuestMode] = {}
        self.received: dict[int, list[str]] = {}
        """Every message sent to each seat's guest."""
        self.invitations: dict[int, dict[str, Any]] = {}
        self.notes: list[str] = []
        self.host_screen: TableScreen | None = None
        settings = {
            "game": game,
            "players": players,
            "seed": seed,
            "bots": bots or [],
            "delay": 0,
            "position": position,
        }
        self.run(self.hosting.start_remote(json.dumps(settings), BUILD, NOW))

    def run(self, effects: list[Effect]) -> None:
        pending = list(effects)
        while pending:
            effect = pending.pop(0)
            if isinstance(effect, TableScreen):
                self.host_screen = effect
            elif isinstance(effect, Think):
                pending += self.host.decided(decide_at_random(effect.task))
            elif isinstance(effect, Wire):
                pending += self.wire(effect)

    def wire(self, effect: Wire) -> list[Effect]:
        data = effect.data
        if effect.command == "invite":
            self.invitations[data["seat"]] = data
        elif effect.command == "note":
            self.notes.append(data["text"])
        elif effect.command == "connect":
            seat = data["seat"]
            self.guests[seat] = guest_page(seat, self.host.session.setup.game)
            return self.hosting.joined(seat)
        elif effect.command == "send":
            self.received.setdefault(data["seat"], []).append(data["text"])
            guest = self.guests.get(data["seat"])
            if guest is not None and not guest.gone:
                self.guest_effects(data["seat"], guest.receive(data["text"]))
        elif effect.command == "close":
            self.guests[data["seat"]].closed()
        return []

    def guest_effects(self, seat: int, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Wire) and effect.command == "send-host":
                self.run(self.hosting.guest_message(seat, effect.data["text"]))

    def join(self, seat: int, now: float = NOW) -> None:
        invitation = self.invitations[seat]
        self.run(self.hosting.reply(invitation["token"], BUILD, now))

    def guest_screen(self, seat: int) -> TableScreen:
        screen = self.guests[seat].refresh()[0]
        assert isinstance(screen, TableScreen)
        return screen

    def click_guest(self, seat: int, click: Click) -> None:
        self.guest_effects(seat, self.guests[seat].click(click))

    def play_out(self, rnd: random.Random, max_clicks: int = 20_000) -> None:
        """Every human seat clicks a choice its own table offers, until the game ends."""
        for _ in range(max_clicks):
            if self.host.session.state.is_terminal():
                return
            one_click(self, rnd)
        raise AssertionError("the game did not end")


def hidden_from(state: pyengine.State, seat: int) -> tuple[set[str], list[str]]:
    """The cards in other seats' hands that ``seat``'s own view does not show, and the draw pile's order."""
    core = state.core
    public = [dict(entry.facts) for entry in state.log()]  # each turn's public facts (the latest turns' marks)
    shown = json.dumps([state.view(seat), public], ensure_ascii=False)
    others = {str(card) for index, hand in enumerate(core.hands) if index != seat for card in hand}
    pile = getattr(core, "draw", None) or getattr(core, "pile", None) or ()
    return {card for card in others if card not in shown}, [str(card) for card in pile]


def state_at(state: pyengine.State, moves: int | None) -> pyengine.State:
    """The state a message was written from (after ``moves`` moves: the computer may have moved on since)."""
    history = state.history()
    return state if moves is None or moves >= len(history) else history[moves][0]


def leaks(text: str, state: pyengine.State, seat: int) -> list[str]:
    """What of another seat's hidden cards (or the deck's order) a message holds. Its log must be the public log
    (the engine's public entries, which name a card once it is shown; a game may hold two cards alike), and the
    rest must show no card of another hand that the seat's own view does not show."""
    fields = json.loads(text)
    if fields.get("record") is not None:  # the record, with its seed, is sent once the game is over
        return []
    found = []
    if "log" in fields and fields["log"] != said_log(state, fields["names"], seat)[fields["log_start"] :]:
        found.append("a log that is not the public log")
    rest = json.dumps({k: v for k, v in fields.items() if k != "log"}, ensure_ascii=False)
    hidden, pile = hidden_from(state, seat)
    found += [card for card in hidden if card in rest]
    if len(pile) > 2 and json.dumps(pile, ensure_ascii=False)[1:-1] in text:
        found.append("the draw pile's order")
    return found


@pytest.mark.parametrize(
    ("game", "players", "bots", "remote_seats"),
    [
        ("silver-bars", 2, [], [1]),
        ("carbondale", 3, [2], [1]),
    ],
)
def test_whole_games_reach_every_guest_without_a_hidden_card(
    game: str, players: int, bots: list[int], remote_seats: list[int]
) -> None:
    table = Table(game, players, seed=11, bots=bots)
    for seat in remote_seats:
        table.join(seat)
    checked = 0
    original = table.wire

    def checking(effect: Wire) -> list[Effect]:
        nonlocal checked
        if effect.command == "send":
            state = state_at(table.host.session.state, json.loads(effect.data["text"]).get("moves"))
            assert leaks(effect.data["text"], state, effect.data["seat"]) == []
            checked += 1
        return original(effect)

    table.wire = checking  # type: ignore[method-assign]
    table.play_out(random.Random(5))
    assert checked > 20
    final = table.host.session.state
    for seat in remote_seats:
        guest = table.guests[seat]
        assert guest.finished is not None and guest.finished.state.record() == final.record()
        assert guest.table.keeper.history()[0]["result"]  # the result is in the guest's statistics
        last = table.guest_screen(seat)
        assert last.over and last.moves == len(final.history())


def test_the_leak_check_finds_a_hidden_card() -> None:
    """The check above can fail: another seat's view sent to a guest shows that seat's hand."""
    state = pyengine.new_game("silver-bars", 2, 4, {})
    wrong = message("table", BUILD, view=state.view(0))
    assert leaks(wrong, state, 1)
    right = message("table", BUILD, view=state.view(1))
    assert leaks(right, state, 1) == []


def test_a_guest_sees_its_own_hand_and_moves_only_on_its_turn() -> None:
    table = Table("silver-bars", 2, seed=2)
    table.join(1)
    view = table.guests[1].guest.view
    assert view["seat"] == 1 and view["hand"] == table.host.session.state.view(1)["hand"]
    assert bool(view["moves"]) == (table.host.session.state.current_player == 1)
    screen = table.guest_screen(1)
    assert "take-device" not in screen.board_html  # never a hot-seat hand-over on a guest's page
    assert "you: connected" in screen.status_html
    # each device's own seat is "You" on its table and in its scores; the other is named
    host = table.host_screen
    for shown, own, other in ((screen, "Player 2", "Player 1"), (host, "Player 1", "Player 2")):
        assert ">You<" in shown.status_html and own not in shown.status_html.split("At the table")[0]
        assert other in shown.board_html and own not in shown.board_html


def guest_to_move(table: Table) -> int:
    """Play the host's moves until the guest (seat 1) decides."""
    rnd = random.Random(1)
    while table.host.session.state.current_player != 1:
        kind, value = rnd.choice(choices(table.host_screen))
        table.run(table.host.click(Click(**{kind: value})))
    return len(table.host.session.state.history())


def refusal(table: Table, seat: int, text: str) -> str:
    """Send a raw message on ``seat``'s connection; the reason the host sends back."""
    before = len(table.received.get(seat, []))
    moves = len(table.host.session.state.history())
    table.run(table.hosting.guest_message(seat, text))
    assert len(table.host.session.state.history()) == moves  # nothing changed
    answers = [json.loads(t) for t in table.received[seat][before:]]
    return next(a["reason"] for a in answers if a["kind"] == "refused")


def test_a_hostile_guest_is_refused_with_a_reason() -> None:
    table = Table("silver-bars", 2, seed=2)
    table.join(1)
    state = table.host.session.state
    if state.current_player == 1:
        table.run(table.hosting.guest_message(1, message("act", BUILD, action=state.legal_texts()[0], moves=0)))
    host_move = len(table.host.session.state.history())
    assert table.host.session.state.current_player == 0
    legal = table.host.session.state.legal_texts()[0]
    assert "not your turn" in refusal(table, 1, message("act", BUILD, action=legal, moves=host_move))
    moves = guest_to_move(table)
    legal = table.host.session.state.legal_texts()[0]
    assert "another seat" in refusal(table, 1, message("act", BUILD, action=legal, moves=moves, seat=0))
    assert "no such vault" in refusal(table, 1, message("act", BUILD, action="lock v9", moves=moves))
    assert "not an action of this game" in refusal(
        table, 1, message("act", BUILD, action="fly to the moon", moves=moves)
    )
    assert "too long" in refusal(table, 1, message("act", BUILD, action="x" * MAX_MESSAGE, moves=moves))
    assert "different build" in refusal(table, 1, message("act", "build-0", action=legal, moves=moves))
    assert "not one this site writes" in refusal(table, 1, "{not json")
    assert "no message of the kind" in refusal(table, 1, message("deal", BUILD))
    assert "moved on" in refusal(table, 1, message("act", BUILD, action=legal, moves=moves - 1))
    assert "names no action" in refusal(table, 1, message("act", BUILD, action=["lock"], moves=moves))
    table.run(table.hosting.guest_message(1, message("act", BUILD, action=legal, moves=moves)))
    assert len(table.host.session.state.history()) > moves  # the same move, well written, is played


def test_a_message_after_the_end_is_refused() -> None:
    table = Table("carbondale", 2, position="lesson-win")
    table.join(1)
    table.play_out(random.Random(2))
    moves = len(table.host.session.state.history())
    assert "game is over" in refusal(table, 1, message("act", BUILD, action="discard 1", moves=moves))


def test_a_message_on_a_connection_that_is_not_open_is_ignored() -> None:
    table = Table("silver-bars", 2, seed=2)
    assert table.hosting.guest_message(1, message("act", BUILD, action="x", moves=0)) == []


def test_invitations_are_used_once_and_expire() -> None:
    table = Table("carbondale", 3, seed=2)
    first = table.invitations[1]
    assert first["expires"] == NOW + INVITATION_SECONDS * 1000
    table.run(table.hosting.reply(table.invitations[2]["token"], BUILD, NOW + INVITATION_SECONDS * 1000 + 1))
    assert "expired invitation" in table.notes[-1]
    table.run(table.hosting.reply(first["token"], "build-0", NOW))
    assert "different build" in table.notes[-1]
    table.join(1)
    assert 1 in table.guests
    table.run(table.hosting.reply(first["token"], BUILD, NOW))
    assert "already used" in table.notes[-1]
    table.run(table.hosting.reply("forged", BUILD, NOW))
    assert "no invitation of this table" in table.notes[-1]
    table.run(table.hosting.invite(1, NOW))
    assert "is connected" in table.notes[-1]  # the table is full for that seat


def test_a_newer_invitation_replaces_the_older_one() -> None:
    table = Table("silver-bars", 2, seed=2)
    old = table.invitations[1]["token"]
    table.run(table.hosting.invite(1, NOW))
    assert table.invitations[1]["token"] != old
    table.run(table.hosting.reply(old, BUILD, NOW))
    assert "no invitation of this table" in table.notes[-1]


def test_a_guest_checks_its_invitation() -> None:
    good = {"v": 1, "build": BUILD, "expires": NOW + 1, "game": "silver-bars", "seat": 1}
    assert check_invitation(good, BUILD, NOW) is None
    assert "different build" in str(check_invitation(good, "build-2", NOW))
    assert "expired" in str(check_invitation(good, BUILD, NOW + 2))
    assert "not an invitation" in str(check_invitation({"v": 9}, BUILD, NOW))
    assert "no game" in str(check_invitation(good | {"game": "chess"}, BUILD, NOW))


def test_a_dropped_guest_rejoins_with_a_new_invitation() -> None:
    table = Table("silver-bars", 2, seed=2)
    table.join(1)
    moves = guest_to_move(table)
    table.run(table.hosting.left(1))
    assert "left the table" in table.host_screen.message
    assert "Player 2: plays by links" in table.host_screen.status_html
    table.run(table.hosting.invite(1, NOW + 10))
    table.join(1, NOW + 20)  # a new guest page (the old one reloaded)
    assert table.guests[1].guest.view["moves"]  # it plays on where the game was
    assert len(table.guests[1].guest.log) == moves
    rnd = random.Random(3)
    for _ in range(5):  # a selection first, then its move
        one_click(table, rnd)
    assert len(table.host.session.state.history()) > moves


def test_a_reloaded_host_hosts_its_game_again_with_new_invitations() -> None:
    """The host's page reloads (its address read again in a new page): the kept game is hosted again, where it was,
    and each remote seat gets a new invitation; once the game is over it is no longer remembered."""
    table = Table("silver-bars", 2, seed=2)
    table.join(1)
    guest_to_move(table)
    storage = table.host.keeper.storage
    again = host_table(storage)
    effects = again.table.address_changed("#" + table.host.address)
    session = again.table.session
    assert isinstance(session, RemoteSession) and session.remote == (1,) and session.host_seat == 0
    assert session.state.history() == table.host.session.state.history()
    invited = [e.data for e in effects if isinstance(e, Wire) and e.command == "invite"]
    assert [(i["seat"], i["build"]) for i in invited] == [(1, BUILD)]
    plain = host_table().table  # a game this browser did not host stays a plain game
    plain.start(json.dumps({"game": "silver-bars", "players": 2, "seed": 4, "bots": [1], "delay": 0}))
    assert not isinstance(plain.session, RemoteSession)
    table.play_out(random.Random(2))
    assert json.loads(storage.getItem(REMOTE_SEATS_KEY)) == {}


def test_the_host_gives_a_dropped_seat_to_the_computer() -> None:
    table = Table("carbondale", 2, position="lesson-win")
    table.join(1)
    guest = table.guests[1]
    table.run(table.hosting.give_to_computer(1))
    assert guest.gone and "computer" in guest.guest.message
    assert table.host.session.setup.seats[1].computer
    table.play_out(random.Random(4))  # the host alone plays against the computer now
    assert table.host.session.state.is_terminal()


def test_a_take_back_needs_the_others_agreement() -> None:
    table = Table("carbondale", 2, seed=2)
    table.join(1)
    rnd = random.Random(7)
    while not table.guest_screen(1).undo_enabled:  # play on until the guest may take back
        one_click(table, rnd)
    moves = len(table.host.session.state.history())
    table.click_guest(1, Click(ui="undo"))
    assert len(table.host.session.state.history()) == moves  # nothing yet: the host must agree
    assert 'data-ui="remote-agree"' in table.host_screen.status_html
    assert "Waiting for the others" in table.guest_screen(1).status_html
    table.run(table.host.click(Click(ui="remote-refuse")))
    assert "did not agree" in table.guest_screen(1).message
    assert len(table.host.session.state.history()) == moves
    table.click_guest(1, Click(ui="undo"))
    table.run(table.host.click(Click(ui="remote-agree")))
    assert len(table.host.session.state.history()) < moves
    assert table.host.session.state.current_player == 1


def one_click(table: Table, rnd: random.Random) -> None:
    """One click by whoever decides, on a choice their own table offers."""
    seat = table.host.session.state.current_player
    screen = table.guest_screen(seat) if seat in table.guests else table.host_screen
    assert screen is not None
    kind, value = ("action", held_move(screen)) if held_move(screen) else rnd.choice(choices(screen))
    if seat in table.guests:
        table.click_guest(seat, Click(**{kind: value}))
    else:
        table.run(table.host.click(Click(**{kind: value})))


def test_a_refused_guest_move_is_said_on_the_guest_page() -> None:
    table = Table("silver-bars", 2, seed=2)
    table.join(1)
    guest_to_move(table)
    assert table.guests[1].refresh()  # drawn
    table.run(table.hosting.guest_message(1, message("act", BUILD, action="nonsense", moves=-1)))
    assert "moved on" in table.guest_screen(1).message


def test_a_game_begun_elsewhere_goes_on_with_its_guests() -> None:
    state = pyengine.new_game("silver-bars", 2, 9, {})
    state = state.apply(state.legal_texts()[0])
    host = host_table()
    settings = {"game": "silver-bars", "players": 2, "seed": 9, "record": state.record()}
    host.start_remote(json.dumps(settings), BUILD, NOW)
    assert host.table.session is not None and host.table.session.state.record() == state.record()
    wrong = {**settings, "seed": 8}
    assert "another game" in host.start_remote(json.dumps(wrong), BUILD, NOW)[0].text  # type: ignore[attr-defined]


def test_the_remote_seats_must_leave_one_for_the_host() -> None:
    host = host_table()
    settings = {"game": "silver-bars", "players": 2, "seed": 1, "remote": [0, 1]}
    effects = host.start_remote(json.dumps(settings), BUILD, NOW)
    assert "cannot be played on another device" in effects[0].text  # type: ignore[attr-defined]
    assert Refused("x").args == ("x",)


def test_the_build_ships_only_the_qr_encoder_and_decoder() -> None:
    """The vendored QR package: its encoder and its decoder, which imports nothing but the encoder."""
    spec = importlib.util.spec_from_file_location("cardtable_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    build = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(build)
    package = {"index.js": b"export default 1;", "decode.js": b'import { t } from "./index.js";', "dom.js": b""}
    assert set(build.qr_files(package)) == {"index.js", "decode.js"}
    with pytest.raises(build.BuildError, match="does not ship"):
        build.qr_files({**package, "decode.js": b'import { c } from "./dom.js";'})


@pytest.mark.parametrize("policy", POLICIES)
def test_a_guests_move_that_shows_a_card_is_held_on_its_page(policy: str) -> None:
    """A guest's misclick is undone before it shows a card, as the host's is: the host holds a guest's move that
    would draw or reveal one, the guest's page says so, and only its second tap (or its time up) plays it; any other
    tap drops it."""
    table = Table("silver-bars", 2, seed=2)
    table.join(1)
    guest = table.guests[1]
    guest.table.keeper.write(MISCLICK_KEY, policy)
    moves = guest_to_move(table)
    state = table.host.session.state
    play = next(t for t in state.legal_texts() if shows_a_card_to(state, t, range(2)))
    table.click_guest(1, Click(action=play))
    screen = table.guest_screen(1)
    assert len(table.host.session.state.history()) == moves, "nothing is played on the first tap"
    assert held_move(screen) == play and screen.undo_enabled and screen.held
    table.click_guest(1, Click(ui="undo"))  # Take back while held: the move is dropped, the guest chooses again
    assert held_move(table.guest_screen(1)) is None
    assert len(table.host.session.state.history()) == moves
    effects = table.guests[1].click(Click(action=play))
    table.guest_effects(1, effects)
    timers = [e for e in table.guests[1].refresh() + effects if isinstance(e, After)]
    assert timers == [], "the host's answer sets the timer, not the tap"
    if policy == WINDOW:
        assert len(table.host.session.state.history()) == moves
        guest_page_effects = guest.receive(table.received[1][-1])  # the host's "held" again: its timer
        (timer,) = [e for e in guest_page_effects if isinstance(e, After)]
        table.guest_effects(1, guest.tick(timer.tick))
    else:
        table.click_guest(1, Click(action=play))
    assert len(table.host.session.state.history()) == moves + 1
    assert held_move(table.guest_screen(1)) is None


def test_a_guests_move_that_shows_nothing_is_played_at_once() -> None:
    table = Table("carbondale", 2, seed=2)
    table.join(1)
    moves = guest_to_move(table)
    state = table.host.session.state
    quiet = [t for t in state.legal_texts() if not shows_a_card_to(state, t, range(2))]
    assert quiet, "a build shows no card"
    table.click_guest(1, Click(action=quiet[0]))
    assert len(table.host.session.state.history()) == moves + 1
