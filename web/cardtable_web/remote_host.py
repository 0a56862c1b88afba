"""The host's table of a game played on separate devices: the engine runs here, guests play their seats remotely.

:class:`RemoteSession` is a :class:`~cardtable_web.session.Session` seen from the host's seat only (no hot-seat
hand-over); :class:`HostTable` is the table controller that also feeds each connected guest its seat's view,
checks every guest message (:mod:`cardtable_web.remote`) and asks everyone's agreement for a take-back. The page's
connection code (``web/remote.js``) runs the :class:`~cardtable_web.remote.Wire` effects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pyengine
from pyengine.ai import DEFAULT_LEVEL, make_bot
from pyengine.core import named_position, read_json, replay
from pyengine.takeback import take_back, take_back_point
from pyengine.words import say

from . import drawing
from .controller import Effects, TableController
from .effects import LobbyError, TableScreen
from .html import esc
from .keeping import Keeper
from .remote import (
    GUEST_KINDS,
    Guests,
    Refused,
    Wire,
    check_act,
    connected_words,
    message,
    read_message,
    said_log,
    table_message,
)
from .session import Session
from .setup import Seat, Setup, clean_name, read_setup


@dataclass
class TakeBackAsk:
    """A take-back waiting for the other players' agreement."""

    seat: int
    moves: int
    """How many moves the game had when it was asked (any move since withdraws it)."""
    agreed: set[int] = field(default_factory=set)


REMOTE_SEATS_KEY = "cardtable.remote-seats"
"""``{table name: [seats played on other devices]}`` of the unfinished games this browser hosts: a host's page that
reloads (or opens the game again from the lobby) hosts it again, with new invitations for those seats."""
REMEMBERED_TABLES = 20


class RemoteSession(Session):
    """A game whose other human seats play on other devices: the host's screen shows the host's seat only."""

    def __init__(self, setup: Setup, remote: tuple[int, ...], state: pyengine.State | None = None) -> None:
        super().__init__(setup, state)
        self.remote = remote
        self.host_seat = next(i for i in self.humans if i not in remote)
        self.viewer = self.host_seat

    @property
    def you(self) -> int | None:
        return self.host_seat

    def shown_names(self) -> list[str]:
        """The host's own seat is "You" on the host's table (each device has one player at its screen)."""
        return [("You" if seat == self.host_seat else name) for seat, name in enumerate(self.names)]

    def needs_handover(self) -> bool:
        return False

    def act(self, text: str) -> None:
        """The host plays its own seat (``IllegalAction`` when it is not the host's turn)."""
        if self.state.current_player != self.host_seat:
            raise pyengine.IllegalAction("the game is over" if self.state.is_terminal() else "it is not your turn")
        self.played(self.state.apply(text))

    def guest_act(self, text: str) -> None:
        """A guest's move, already checked by :func:`cardtable_web.remote.check_act`."""
        self.played(self.state.apply(text))

    def computer_move(self, action: Any) -> None:
        self.played(self.state.apply(action))

    def played(self, state: pyengine.State) -> None:
        self.state = state
        self.selection = None
        self.message = ""
        self.clear_advice()

    def take_back_seat(self) -> int | None:
        return self.host_seat

    def can_take_back_for(self, seat: int) -> bool:
        return take_back_point(self.state, seat, self.computers) is not None

    def take_back_for(self, seat: int) -> None:
        """Take back ``seat``'s last decision (``ValueError`` saying why not), by the host's one policy."""
        point = take_back(self.state, seat, self.computers)
        self.played(point.with_takebacks(self.state.takebacks + 1))

    def give_to_computer(self, seat: int, level: str = DEFAULT_LEVEL) -> None:
        """A remote seat is played by the computer from now on."""
        self.setup.seats[seat] = Seat(True, level)
        self.bots[seat] = make_bot(level, self.bot_seed(seat))
        self.humans = [i for i in self.humans if i != seat]
        self.names[seat] = self.setup.seats[seat].name(seat, len(self.humans))


def remote_setup(settings_json: str) -> tuple[Setup, tuple[int, ...], pyengine.State | None]:
    """The lobby's settings with ``remote`` (the seats played on other devices) and optionally ``position``, one
    of the game's named positions to start from, or ``record``, a game to go on with; ``ValueError`` in words."""
    fields = read_json(settings_json, "game settings")
    setup = read_setup(fields)
    state = None
    if isinstance(fields, dict) and fields.get("record") is not None:  # a game begun elsewhere goes on here
        state = replay(fields["record"])
        if (state.game, state.players, state.seed) != (setup.game, setup.players, setup.seed):
            raise ValueError("the record is of another game, seed or number of players")
    elif isinstance(fields, dict) and fields.get("position") is not None:
        state = named_position(setup.game, fields["position"])
        if state.players != setup.players:
            raise ValueError(f"that position is for {state.players} players")
    remote = fields.get("remote") if isinstance(fields, dict) else None
    humans = [i for i, s in enumerate(setup.seats) if not s.computer]
    if not isinstance(remote, list) or not remote:
        remote = humans[1:]
    if not remote or not all(isinstance(s, int) and s in humans for s in remote):
        raise ValueError("choose at least one seat played on another device (and leave one for you)")
    if len(set(remote)) == len(humans):
        raise ValueError("one seat must be yours: it cannot be played on another device")
    if len(humans) - len(set(remote)) != 1:
        raise ValueError("every human seat but yours must be played on another device")
    return setup, tuple(sorted(set(remote))), state


class HostTable(TableController):
    """The table controller, which also hosts remote seats when the game on the table has them."""

    def __init__(self, keeper: Keeper, build: str = "", **kwargs: Any) -> None:
        super().__init__(keeper, **kwargs)
        self.build = build
        self.guests: Guests | None = None
        self.sent: dict[int, str] = {}
        """The last table message sent to each seat (nothing is sent twice)."""
        self.logs: dict[int, list[str]] = {}
        """The log each guest holds, as sent (a table message carries only the lines it lacks)."""
        self.said: dict[int, dict[str, str]] = {}
        """Each seat's log entries said once (an entry's text to its words for that seat)."""
        self.asking: TakeBackAsk | None = None
        self.notes: dict[int, str] = {}
        """A sentence for a guest's next table message (a take-back refused, the seat given back)."""
        self.tokens: Callable[[], str] = lambda: ""
        """Draws an invitation's token (the page gives the browser's random generator)."""

    # -- starting --------------------------------------------------------------------------------------------
    def start_remote(self, settings_json: str, build: str, now: float) -> Effects:
        """The lobby's "Play with others": the game starts at once and each remote seat is invited."""
        try:
            setup, remote, state = remote_setup(settings_json)
        except ValueError as exc:
            return [LobbyError(str(exc))]
        self.build = build
        return self.host(RemoteSession(setup, remote, state), now, "push")

    def host(self, session: RemoteSession, now: float, history: str) -> Effects:
        """Put a game with remote seats on the table and invite each of them."""
        self.guests = None
        effects = super().begin(session, history)
        self.guests = Guests(self.build, session.remote)
        self.sent, self.asking, self.notes = {}, None, {}
        effects.append(Wire("host", {"names": session.names, "remote": list(session.remote)}))
        for seat in session.remote:
            effects += self.invite(seat, now)
        return effects + self.refresh()

    def begin(self, session: Session, history: str = "push") -> Effects:
        remote = self.remembered(session)
        if remote:
            return self.host_again(session, remote, history)
        if not isinstance(session, RemoteSession) and self.guests is not None:
            self.guests = None
            return [Wire("close-all"), *super().begin(session, history)]
        return super().begin(session, history)

    def keep(self, session: Session) -> Effects:
        """As the table keeps any game; a hosted game's remote seats are remembered by its table's name."""
        effects = super().keep(session)
        if isinstance(session, RemoteSession) and session.table:
            tables = self.keeper.read(REMOTE_SEATS_KEY, dict, {})
            seats = None if session.state.is_terminal() else list(session.remote)
            if tables.get(session.table) != seats:
                tables.pop(session.table, None)
                if seats:
                    tables[session.table] = seats
                self.keeper.write(REMOTE_SEATS_KEY, dict(list(tables.items())[-REMEMBERED_TABLES:]))
        return effects

    def remembered(self, session: Session) -> tuple[int, ...]:
        """The remote seats of a kept game this browser hosted (none for any other game)."""
        if isinstance(session, RemoteSession) or not session.table or session.state.is_terminal():
            return ()
        seats = self.keeper.read(REMOTE_SEATS_KEY, dict, {}).get(session.table)
        humans = set(session.humans)
        if not isinstance(seats, list) or not all(isinstance(s, int) and s in humans for s in seats):
            return ()
        return tuple(seats) if 0 < len(seats) < len(humans) else ()

    def host_again(self, kept: Session, remote: tuple[int, ...], history: str) -> Effects:
        """A hosted game opened again (the host's page reloaded): hosted as before, each remote seat invited anew."""
        session = RemoteSession(kept.setup, remote, kept.state)
        session.table, session.counted = kept.table, kept.counted
        return self.host(session, self.keeper.clock() * 1000, history)

    def leave(self) -> Effects:
        closing = [Wire("close-all")] if self.guests is not None else []
        self.guests = None
        return closing + super().leave()

    @property
    def remote(self) -> RemoteSession | None:
        session = self.session
        return session if isinstance(session, RemoteSession) and self.guests is not None else None

    # -- invitations and connections -------------------------------------------------------------------------
    def invite(self, seat: int, now: float) -> Effects:
        """A new invitation for a remote seat; the page makes its offer, link and code."""
        session, guests = self.remote, self.guests
        if session is None or guests is None:
            return []
        try:
            invitation = guests.invite(int(seat), self.tokens(), now)
        except Refused as exc:
            return [Wire("note", {"text": str(exc)})]
        return [
            Wire(
                "invite",
                {
                    "seat": invitation.seat,
                    "token": invitation.token,
                    "expires": invitation.expires,
                    "build": self.build,
                    "game": session.setup.game,
                    "players": session.setup.players,
                    "name": session.names[invitation.seat],
                    "host": session.names[session.host_seat],  # the guest's page names who invites
                },
            ),
            self.seats_wire(),
        ]

    def reply(self, token: str, build: str, now: float, name: str = "") -> Effects:
        """A guest's reply arrived (pasted, scanned, or handed over by another tab): connect its seat, or say why
        not. The reply's ``name`` (the guest's own, if given) names the seat unless the host named it."""
        guests = self.guests
        if guests is None or self.remote is None:
            return [Wire("note", {"text": "No game on this table is waiting for a reply."})]
        try:
            seat = guests.accept(token, build, now)
        except Refused as exc:
            return [Wire("note", {"text": str(exc) + "."})]
        self.name_guest(seat, name)
        return [
            Wire("connect", {"seat": seat, "token": token}),
            Wire("note", {"text": f"Connecting Player {seat + 1}…"}),
        ]

    def name_guest(self, seat: int, name: str) -> None:
        """A guest's own name for its seat, when the host gave the seat none (cleaned like every name)."""
        session, name = self.session, clean_name(name)
        if not name or not isinstance(session, RemoteSession):
            return
        names = [*session.setup.names, *[""] * session.setup.players][: session.setup.players]
        if not names[seat]:
            names[seat] = name
            session.setup.names = names
            session.names[seat] = name

    def joined(self, seat: int) -> Effects:
        """A guest's connection is open: it gets its seat's table at once."""
        guests = self.guests
        if guests is None:
            return []
        guests.connected.add(int(seat))
        self.sent.pop(int(seat), None)
        self.logs.pop(int(seat), None)
        return self.refresh()

    def left(self, seat: int) -> Effects:
        """A guest's connection closed: the seat waits for a new invitation (or the computer)."""
        guests = self.guests
        if guests is None or int(seat) not in guests.connected:
            return []
        guests.connected.discard(int(seat))
        session = self.remote
        if session is not None:
            session.message = (
                f"{session.names[int(seat)]} left the table: make a new invitation for them, or "
                "let the computer play their seat."
            )
        return self.refresh()

    def give_to_computer(self, seat: int) -> Effects:
        """The host lets the computer play a remote seat (its guest, if any, is told and let go)."""
        session, guests = self.remote, self.guests
        if session is None or guests is None or int(seat) not in guests.remote or int(seat) in guests.given:
            return []
        seat = int(seat)
        effects: Effects = []
        if seat in guests.connected:
            effects.append(Wire("send", {"seat": seat, "text": message("seat-given", self.build)}))
            effects.append(Wire("close", {"seat": seat}))
            guests.connected.discard(seat)
        guests.given.add(seat)
        for token in [t for t, i in guests.invitations.items() if i.seat == seat]:
            del guests.invitations[token]
        session.give_to_computer(seat)
        if self.asking is not None:
            self.asking.agreed.add(seat)
        return effects + self.refresh()

    def seats_wire(self) -> Wire:
        """Each seat's state for the host's panel of invitations."""
        session, guests = self.remote, self.guests
        if session is None or guests is None:
            return Wire("seats", {"seats": []})
        rows = [{"seat": s, "name": session.names[s], "state": guests.seat_state(s)} for s in guests.remote]
        return Wire("seats", {"seats": rows})

    # -- after every change ----------------------------------------------------------------------------------
    def refresh(self) -> Effects:
        """The guests' tables first (so they are sent before this page redraws its own), then this table."""
        session = self.remote
        if session is None:
            return super().refresh()
        if self.asking is not None and self.asking.moves != session.state.played:
            self.asking = None
        return self.feed(session) + super().refresh() + [self.seats_wire()]

    def seat_states(self, session: RemoteSession) -> list[str]:
        guests = self.guests
        assert guests is not None
        return [
            "host" if i == session.host_seat else guests.seat_state(i) if i in guests.remote else "computer"
            for i in range(session.setup.players)
        ]

    def feed(self, session: RemoteSession) -> Effects:
        """A table message to each connected guest whose table changed."""
        guests = self.guests
        assert guests is not None
        effects: Effects = []
        for seat in sorted(guests.connected):
            log = said_log(session.state, session.names, seat, self.said.setdefault(seat, {}))
            held = self.logs.get(seat, [])
            start = len(held) if log[: len(held)] == held else 0
            text = table_message(
                session.state, seat, session.names, self.build, log, start, **self.shared(session, seat)
            )
            if self.sent.get(seat) != text or start < len(log):
                self.sent[seat], self.logs[seat] = text, log
                effects.append(Wire("send", {"seat": seat, "text": text}))
        self.notes.clear()
        return effects

    def shared(self, session: RemoteSession, seat: int) -> dict[str, Any]:
        """The public facts of the table for the guest at ``seat``."""
        state = session.state
        over = state.is_terminal()
        ask = self.asking
        return {
            "seats": self.seat_states(session),
            "headline": headline_for(session, seat),
            "ask": None if ask is None else {"seat": ask.seat, "agreed": sorted(ask.agreed)},
            "can_take_back": not over and ask is None and session.can_take_back_for(seat),
            "note": self.notes.get(seat, ""),
            "record": session.record() if over else None,
        }

    def screen(self, session: Session) -> TableScreen:
        screen = super().screen(session)
        if not isinstance(session, RemoteSession) or self.guests is None:
            return screen
        words = connected_words(session.names, self.seat_states(session), session.host_seat)
        extra = f'<p class="remote-seats" data-remote-seats>{esc(words)}</p>' + self.ask_html(session)
        can_undo = screen.undo_enabled and self.asking is None
        return dataclasses.replace(
            screen,
            status_html=screen.status_html + extra,
            undo_enabled=can_undo,
            undo_reason="Ask the others to agree to take back your last move" if can_undo else screen.undo_reason,
        )

    def ask_html(self, session: RemoteSession) -> str:
        """A take-back waiting: the host agrees or refuses (or waits for the others)."""
        ask = self.asking
        if ask is None:
            return ""
        if ask.seat == session.host_seat:
            return '<p class="remote-ask" role="status">Waiting for the others to agree to your take-back…</p>'
        name = esc(session.names[ask.seat])
        if session.host_seat in ask.agreed:
            return f'<p class="remote-ask" role="status">You agreed to {name}\'s take-back.</p>'
        return (
            f'<p class="remote-ask" role="status">{name} asks to take back their last move. '
            '<button type="button" class="btn" data-ui="remote-agree">Agree</button> '
            '<button type="button" class="btn" data-ui="remote-refuse">Refuse</button></p>'
        )

    # -- the host's own controls -------------------------------------------------------------------------------
    def control(self, name: str) -> Effects:
        session = self.remote
        if session is None:
            return super().control(name)
        if name == "undo":
            session.clear_advice()
            return self.ask_take_back(session, session.host_seat)
        if name in ("remote-agree", "remote-refuse"):
            return self.answer(session, session.host_seat, name == "remote-agree")
        return super().control(name)

    # -- take-backs by agreement ---------------------------------------------------------------------------------
    def ask_take_back(self, session: RemoteSession, seat: int) -> Effects:
        """``seat`` asks to take back its last decision: the others must agree (computers always do)."""
        if self.busy or self.asking is not None or not session.can_take_back_for(seat):
            reason = (
                "A take-back is already waiting"
                if self.asking is not None
                else ("Nothing to take back: never past another player's decision or a card seen for the first time")
            )
            return self.tell(session, seat, reason + ".")
        self.asking = TakeBackAsk(seat, session.state.played, {seat})
        return self.settle(session)

    def answer(self, session: RemoteSession, seat: int, agree: bool) -> Effects:
        ask = self.asking
        if ask is None or seat == ask.seat:
            return self.tell(session, seat, "No take-back is waiting for your answer.")
        if not agree:
            self.asking = None
            self.notes[ask.seat] = f"{session.names[seat]} did not agree to take back."
            if ask.seat == session.host_seat:
                session.message = self.notes.pop(ask.seat)
            return self.refresh()
        ask.agreed.add(seat)
        return self.settle(session)

    def settle(self, session: RemoteSession) -> Effects:
        """Take back once every player at the table (connected and human) agreed."""
        ask, guests = self.asking, self.guests
        assert ask is not None and guests is not None
        voters = {session.host_seat} | guests.connected
        if voters <= ask.agreed:
            self.asking = None
            try:
                session.take_back_for(ask.seat)
            except ValueError as exc:
                return self.tell(session, ask.seat, drawing.sentence(str(exc)))
        return self.refresh()

    def tell(self, session: RemoteSession, seat: int, text: str) -> Effects:
        """A sentence for one player: the host's message, or a guest's ``refused`` message."""
        if seat == session.host_seat:
            session.message = text
            return self.refresh()
        return [Wire("send", {"seat": seat, "text": message("refused", self.build, reason=text)})]

    # -- a guest's messages ------------------------------------------------------------------------------------
    def guest_message(self, seat: int, text: str) -> Effects:
        """A message arrived on ``seat``'s connection: checked, then played, or refused with the reason."""
        session, guests = self.remote, self.guests
        seat = int(seat)
        if session is None or guests is None or seat not in guests.connected:
            return []
        try:
            fields = read_message(str(text), self.build, GUEST_KINDS)
            if "seat" in fields and fields["seat"] != seat:
                raise Refused(f"a message on Player {seat + 1}'s connection cannot speak for another seat")
            if fields["kind"] == "take-back":
                return self.ask_take_back(session, seat)
            if fields["kind"] == "agree":
                return self.answer(session, seat, fields.get("yes") is True)
            return self.guest_act(session, seat, fields)
        except Refused as exc:
            return self.tell(session, seat, drawing.sentence(str(exc)))

    def guest_act(self, session: RemoteSession, seat: int, fields: dict[str, Any]) -> Effects:
        if self.busy and session.computer_to_move():
            raise Refused("please wait: the computer is playing")
        session.guest_act(check_act(session.state, seat, fields))
        return self.refresh()


def headline_for(session: Session, seat: int) -> str:
    """Whose turn it is, or how the game ended, said for the player at ``seat``."""
    state = session.state
    outcome = state.outcome()
    if outcome is not None:
        return say(outcome.words(), session.names, seat)
    current = state.current_player
    assert current is not None
    if current == seat:
        return "Your turn"
    if session.setup.seats[current].computer:
        return say(f"{{{current}}} is thinking…", session.names, seat)
    return say(f"{{{current}}} to play", session.names, seat)
