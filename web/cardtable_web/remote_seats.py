"""The seats of a hosted game that are played on other devices: the collaborator a hosted game in play is given.

:class:`RemoteSeats` feeds each connected guest its seat's feed (:func:`cardtable_web.feed.feed_for`, the door
every seat goes through), checks every guest message (:mod:`cardtable_web.remote`), asks everyone's agreement for
a take-back, and keeps the invitations and connections (:class:`~cardtable_web.remote.Guests`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pyengine.words import say

from .effects import Effect, Wire
from .feed import Ask, feed_for, names_for, sentence
from .html import esc
from .keeping import Keeper
from .link_seats import NO_TAKE_BACK, LinkSeats
from .misclick import shows_a_card_to
from .remote import GUEST_KINDS, Guests, Refused, check_act, connected_words, message, read_message, table_message
from .session import Session
from .trail import Trail

if TYPE_CHECKING:
    from .controller import TableController
    from .remote_host import RemoteSession

Effects = list[Effect]
PLEASE_WAIT = "please wait: the computer is playing"
REMOTE_SEATS_KEY = "cardtable.remote-seats"
"""``{table name: [seats played on other devices]}`` of the unfinished games this browser hosts: a host's page that
reloads (or opens the game again from the lobby) hosts it again, with new invitations for those seats."""
REMEMBERED_TABLES = 20


def remembered(keeper: Keeper, session: Session) -> tuple[int, ...]:
    """The remote seats of a kept game this browser hosted (none for any other game)."""
    if not session.table or session.state.is_terminal():
        return ()
    seats = keeper.read(REMOTE_SEATS_KEY, dict, {}).get(session.table)
    humans = set(session.humans)
    if not isinstance(seats, list) or not all(isinstance(s, int) and s in humans for s in seats):
        return ()
    return tuple(seats) if 0 < len(seats) < len(humans) else ()


@dataclass
class TakeBackAsk:
    """A take-back waiting for the other players' agreement."""

    seat: int
    moves: int
    """How many moves the game had when it was asked (any move since withdraws it)."""
    agreed: set[int] = field(default_factory=set)


class RemoteSeats:
    """The remote seats of one hosted game (see the module's docstring)."""

    def __init__(self, table: TableController, session: RemoteSession, build: str, keys: dict[int, str],
                 joined: set[int] | None = None, invites: bool = False) -> None:
        self.table = table
        self.session = session
        self.build = build
        self.guests = Guests(build, session.remote)
        self.links = LinkSeats(table, session, keys, joined, self.guests.connected, invites)
        """The seats played by links while they are not connected (:mod:`cardtable_web.link_seats`)."""
        self.asked: set[int] = set()
        """The seats ever invited to connect live (the panel of live seats lists them)."""
        self.sent: dict[int, str] = {}
        """The last table message sent to each seat (nothing is sent twice)."""
        self.logs: dict[int, list[str]] = {}
        """The log each guest holds, as sent (a table message carries only the lines it lacks)."""
        self.trails: dict[int, Trail] = {}
        """Each seat's game followed once, its log said for that seat."""
        self.asking: TakeBackAsk | None = None
        self.notes: dict[int, str] = {}
        """A sentence for a guest's next table message (a take-back refused, the seat given back)."""

    # -- what the game in play asks (:class:`cardtable_web.play.OtherSeats`) ---------------------------------
    def left(self, seat: int) -> None:
        """``seat``'s connection closed: it is no longer connected, and plays on by links from where it left."""
        self.guests.connected.discard(seat)
        self.links.left(seat)

    def feed(self, session: Session) -> Effects:
        """A table message to each connected guest whose table changed, then the link for whoever acts next by
        links."""
        if self.asking is not None and self.asking.moves != session.state.played:
            self.asking = None
        effects: Effects = []
        for seat in sorted(self.guests.connected):
            text, log, start = self.table_message(seat)
            if self.sent.get(seat) != text or start < len(log):
                self.sent[seat], self.logs[seat] = text, log
                effects.append(Wire("send", {"seat": seat, "text": text}))
        self.notes.clear()
        return effects + self.links.feed(session)

    def table_message(self, seat: int) -> tuple[str, list[str], int]:
        """The table message for ``seat``, the whole log said for it, and where the lines the guest lacks begin."""
        session = self.session
        names = session.names
        trail = self.trails.setdefault(seat, Trail(lambda text: say(text, names, seat)))
        feed = feed_for(session.state, names, session.computers, seat, seat, trail,
                        shown_names=names_for(names, seat), ask=self.ask())
        log, held = list(feed.log), self.logs.get(seat, [])
        start = len(held) if log[: len(held)] == held else 0
        over = session.state.is_terminal()
        text = table_message(
            feed, self.build, start, names=names, seats=self.seat_states(),
            can_take_back=not over and self.asking is None and session.can_take_back_for(seat),
            note=self.notes.get(seat, ""), record=session.record() if over else None, links=self.key_for(seat),
        )
        return text, log, start

    def key_for(self, seat: int) -> dict[str, str] | None:
        """The seat's key, for its device alone (over its connection): when it leaves, it plays on by links."""
        key = self.links.keys.get(seat)
        return None if key is None else {"table": self.session.table, "key": key}

    def seats(self) -> Effects:
        """Each seat's state for the host's panels: of live invitations (the seats ever invited live), and of
        links."""
        rows = [{"seat": s, "name": self.session.names[s], "state": self.live_state(s)}
                for s in self.guests.remote if s in self.asked or s in self.guests.given]
        return [Wire("seats", {"seats": rows}), *self.links.seats()]

    def live_state(self, seat: int) -> str:
        """A seat's row in the panel of live seats: ``links`` for a seat with nobody connected that plays on by
        links (its links show in the panel below), else its live state (:meth:`Guests.seat_state`)."""
        state = self.guests.seat_state(seat)
        return "links" if state == "away" and self.links.by_links(seat) else state

    def ask(self) -> Ask | None:
        ask = self.asking
        return None if ask is None else Ask(ask.seat, tuple(sorted(ask.agreed)))

    def status_html(self, session: Session) -> str:
        """Who is at the table, for the host's screen."""
        words = connected_words(session.names, self.seat_states(), self.session.host_seat)
        return f'<p class="remote-seats" data-remote-seats>{esc(words)}</p>'

    def seat_states(self) -> list[str]:
        session = self.session
        return [
            "host" if i == session.host_seat else "links" if self.links.by_links(i) and i not in self.guests.given
            else self.guests.seat_state(i) if i in self.guests.remote else "computer"
            for i in range(session.setup.players)
        ]

    def control(self, session: Session, name: str) -> Effects | None:
        """The host's Take back asks the others; its Agree and Refuse answer a guest's."""
        host = self.session.host_seat
        if name == "undo" and self.session.linked:
            session.message = NO_TAKE_BACK
            return self.table.refresh()
        if name == "undo":
            session.clear_advice()
            return self.ask_take_back(host)
        if name in ("remote-agree", "remote-refuse"):
            return self.answer(host, name == "remote-agree")
        return None

    def keep(self, session: Session) -> None:
        """The game's remote seats remembered by its table's name, while it is unfinished; and its keys, once a
        seat can be played by links."""
        if not session.table:
            return
        if self.links.joined or self.links.invites:
            self.links.keep(session)
        keeper = self.table.keeper
        tables = keeper.read(REMOTE_SEATS_KEY, dict, {})
        seats = None if session.state.is_terminal() else sorted(self.asked - self.guests.given)
        if tables.get(session.table) != seats:
            tables.pop(session.table, None)
            if seats:
                tables[session.table] = seats
            keeper.write(REMOTE_SEATS_KEY, dict(list(tables.items())[-REMEMBERED_TABLES:]))

    # -- take-backs by agreement ---------------------------------------------------------------------------------
    def ask_take_back(self, seat: int) -> Effects:
        """``seat`` asks to take back its last decision: the others must agree (computers always do)."""
        session = self.session
        if self.table.computer.busy or self.asking is not None or not session.can_take_back_for(seat):
            reason = ("A take-back is already waiting" if self.asking is not None else
                      "Nothing to take back: never past another player's decision or a card seen for the first time")
            return self.tell(seat, reason + ".")
        self.asking = TakeBackAsk(seat, session.state.played, {seat})
        return self.settle()

    def answer(self, seat: int, agree: bool) -> Effects:
        ask, session = self.asking, self.session
        if ask is None or seat == ask.seat:
            return self.tell(seat, "No take-back is waiting for your answer.")
        if not agree:
            self.asking = None
            self.notes[ask.seat] = f"{session.names[seat]} did not agree to take back."
            if ask.seat == session.host_seat:
                session.message = self.notes.pop(ask.seat)
            return self.table.refresh()
        ask.agreed.add(seat)
        return self.settle()

    def settle(self) -> Effects:
        """Take back once every player at the table (connected and human) agreed."""
        ask = self.asking
        assert ask is not None
        if {self.session.host_seat} | self.guests.connected <= ask.agreed:
            self.asking = None
            try:
                self.session.take_back_for(ask.seat)
            except ValueError as exc:
                return self.tell(ask.seat, sentence(str(exc)))
        return self.table.refresh()

    def tell(self, seat: int, text: str) -> Effects:
        """A sentence for one player: the host's message, or a guest's ``refused`` message."""
        if seat == self.session.host_seat:
            self.session.message = text
            return self.table.refresh()
        return [Wire("send", {"seat": seat, "text": message("refused", self.build, reason=text)})]

    # -- a guest's messages ------------------------------------------------------------------------------------
    def guest_message(self, seat: int, text: str) -> Effects:
        """A message arrived on ``seat``'s connection: checked, then played, or refused with the reason."""
        if seat not in self.guests.connected:
            return []
        try:
            fields = read_message(str(text), self.build, GUEST_KINDS)
            if "seat" in fields and fields["seat"] != seat:
                raise Refused(f"a message on Player {seat + 1}'s connection cannot speak for another seat")
            if fields["kind"] == "take-back":
                return self.ask_take_back(seat)
            if fields["kind"] == "agree":
                return self.answer(seat, fields.get("yes") is True)
            return self.guest_act(seat, fields)
        except Refused as exc:
            return self.tell(seat, sentence(str(exc)))

    def guest_act(self, seat: int, fields: dict[str, Any]) -> Effects:
        session = self.session
        if self.table.computer.busy and session.computer_to_move():
            raise Refused(PLEASE_WAIT)
        text = check_act(session.state, seat, fields)
        if fields.get("hold") is True and shows_a_card_to(session.state, text, range(session.setup.players)):
            held = message("held", self.build, action=text, moves=session.state.played)
            return [Wire("send", {"seat": seat, "text": held})]  # the guest's page holds it (misclick)
        session.guest_act(text)
        return self.table.refresh()
