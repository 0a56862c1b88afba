"""Hosting a game played on separate devices: the engine runs here, guests play their seats remotely.

:class:`RemoteSession` is a :class:`~cardtable_web.session.Session` seen from the host's seat only (no hot-seat
hand-over). :class:`Hosting` is the collaborator the table page gives its table: it starts a hosted game (a
:class:`~cardtable_web.play.PlayMode` given the game's :class:`~cardtable_web.remote_seats.RemoteSeats`), hosts a
kept one again after a reload, and takes the page's connection events (invitations, replies, guests' messages).
A game on one device never reaches it but for that one question: was it hosted? The page's connection code
(``web/remote.js``) runs the :class:`~cardtable_web.effects.Wire` effects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyengine
from pyengine.ai import DEFAULT_LEVEL, make_bot
from pyengine.core import named_position, read_json, replay
from pyengine.takeback import take_back, take_back_point

from . import link_store
from .controller import TableController
from .effects import Effect, LobbyError, Wire
from .feed import names_for
from .link_seats import new_key
from .play import PlayMode
from .remote import Refused, message
from .remote_seats import REMOTE_SEATS_KEY, RemoteSeats, remembered
from .session import Session
from .setup import Seat, Setup, clean_name, read_setup

Effects = list[Effect]
__all__ = ["REMOTE_SEATS_KEY", "Hosting", "RemoteSession", "remote_setup"]


class RemoteSession(Session):
    """A game whose other human seats play on other devices: the host's screen shows the host's seat only."""

    def __init__(self, setup: Setup, remote: tuple[int, ...], state: pyengine.State | None = None) -> None:
        super().__init__(setup, state)
        self.remote = remote
        self.host_seat = next(i for i in self.humans if i not in remote)
        self.viewer = self.host_seat
        self.linked = False
        """True once a seat played by links: nothing is taken back since (a link out may be for any position)."""

    @property
    def you(self) -> int | None:
        return self.host_seat

    def shown_names(self) -> list[str]:
        """The host's own seat is "You" on the host's table (each device has one player at its screen)."""
        return names_for(self.names, self.host_seat)

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

    def can_take_back(self) -> bool:
        return not self.linked and super().can_take_back()

    def can_take_back_for(self, seat: int) -> bool:
        return not self.linked and take_back_point(self.state, seat, self.computers) is not None

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


class LinkSession(RemoteSession):
    """A game started at your own pace: its other seats play by links (or live, once connected), and nothing is
    taken back (a guest's move was sent as it was played)."""

    def __init__(self, setup: Setup, remote: tuple[int, ...], state: pyengine.State | None = None) -> None:
        super().__init__(setup, remote, state)
        self.linked = True


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


class Hosting:
    """The table page's remote play: hosted games started, hosted again, and their connections' events."""

    def __init__(self, table: TableController, build: str = "", tokens: Callable[[], str] = lambda: "") -> None:
        self.table = table
        self.build = build
        self.tokens = tokens
        """Draws an invitation's token (the page gives the browser's random generator)."""
        self.hosted: RemoteSeats | None = None
        """The other seats of the game this page hosted last (connected or not)."""
        table.rehost = self.host_again

    @property
    def seats(self) -> RemoteSeats | None:
        """The remote seats of the game on the table (None: no hosted game is on it)."""
        mode = self.table.mode
        others = mode.others if isinstance(mode, PlayMode) else None
        return others if isinstance(others, RemoteSeats) else None

    # -- starting --------------------------------------------------------------------------------------------
    def start_remote(self, settings_json: str, build: str, now: float) -> Effects:
        """The lobby's "Play with others": the game starts at once and each remote seat is invited."""
        try:
            setup, remote, state = remote_setup(settings_json)
        except ValueError as exc:
            return [LobbyError(str(exc))]
        self.build = build
        return self.host(RemoteSession(setup, remote, state), now, "push")

    def host(self, session: RemoteSession, now: float, history: str, keys: dict[int, str] | None = None,
             joined: set[int] | None = None, live: tuple[int, ...] | None = None) -> Effects:
        """Put a game with others on the table: each seat played live while connected, by links when not, with
        its ``keys`` (new ones when None; a game started live sends each seat's over its connection); the seats
        ``live`` (all of them when None) are invited to connect at once, the others' first link is their
        invitation."""
        keys = keys if keys is not None else {seat: new_key() for seat in session.remote}
        seats = RemoteSeats(self.table, session, self.build, keys, joined, invites=live is not None)
        self.hosted = seats
        effects = [Wire("links-close"), *self.table.begin(session, history, others=seats)]
        self.table.closing = [Wire("close-all"), Wire("links-close")]
        effects.append(Wire("host", {"names": session.names, "remote": list(session.remote)}))
        for seat in session.remote if live is None else live:
            effects += self.invite(seat, now)
        return effects + self.table.refresh()

    def host_again(self, kept: Session, history: str) -> Effects | None:
        """A hosted game opened again (the host's page reloaded, or a reply opened in a tab that showed something
        else): hosted as before, each seat that played live invited anew, each seat whose device holds its key
        played by links meanwhile (None: the game was not hosted here)."""
        if isinstance(kept, RemoteSession) or not kept.table:
            return None
        live = remembered(self.table.keeper, kept)
        entry = link_store.hosted_games(self.table.keeper).get(kept.table)
        if entry is not None and not set(entry["seats"]) < set(kept.humans):
            entry = None
        if entry is None:
            if not live:
                return None
            session = RemoteSession(kept.setup, live, kept.state)
        else:
            seats = tuple(sorted(set(entry["seats"]) | set(live)))
            session = LinkSession(kept.setup, seats, kept.state)
        session.table, session.counted = kept.table, kept.counted
        now = self.table.keeper.clock() * 1000
        if entry is None:
            return self.host(session, now, history)
        keys = {seat: str(entry["keys"][str(seat)]) for seat in entry["seats"]}
        return self.host(session, now, history, keys, link_store.joined(entry), live)

    def page_left(self) -> Effects:
        """This page's connections all closed (it left the hosted game's table, or is leaving): nobody plays it live
        any more, and the lobby's rows say so."""
        hosted = self.hosted
        if hosted is not None and hosted.guests.connected:
            for seat in list(hosted.guests.connected):
                hosted.left(seat)
            link_store.write_lobby(self.table.keeper, hosted.session if self.seats is hosted else None,
                                   int(self.table.keeper.clock() * 1000))
        return []

    # -- invitations and connections -------------------------------------------------------------------------
    def invite(self, seat: int, now: float) -> Effects:
        """A new invitation for a remote seat; the page makes its offer, link and code."""
        seats = self.seats
        if seats is None:
            return []
        try:
            invitation = seats.guests.invite(int(seat), self.tokens(), now)
        except Refused as exc:
            return [Wire("note", {"text": str(exc)})]
        seats.asked.add(invitation.seat)
        setup = seats.session.setup
        data = {"seat": invitation.seat, "token": invitation.token, "expires": invitation.expires,
                "build": self.build, "game": setup.game, "players": setup.players,
                "name": seats.session.names[invitation.seat],
                "host": seats.session.names[seats.session.host_seat]}  # the guest's page names who invites
        return [Wire("invite", data), *seats.seats()]

    def reply(self, token: str, build: str, now: float, name: str = "") -> Effects:
        """A guest's reply arrived (pasted, scanned, or handed over by another tab): connect its seat, or say why
        not. The reply's ``name`` (the guest's own, if given) names the seat unless the host named it."""
        seats = self.seats
        if seats is None:
            return [Wire("note", {"text": "No game on this table is waiting for a reply."})]
        try:
            seat = seats.guests.accept(token, build, now)
        except Refused as exc:
            return [Wire("note", {"text": str(exc) + "."})]
        self.name_guest(seats.session, seat, name)
        connecting = Wire("note", {"text": f"Connecting Player {seat + 1}…"})
        return [Wire("connect", {"seat": seat, "token": token}), connecting]

    def name_guest(self, session: RemoteSession, seat: int, name: str) -> None:
        """A guest's own name for its seat, when the host gave the seat none (cleaned like every name)."""
        name = clean_name(name)
        if not name:
            return
        names = [*session.setup.names, *[""] * session.setup.players][: session.setup.players]
        if not names[seat]:
            names[seat] = name
            session.setup.names = names
            session.names[seat] = name

    def joined(self, seat: int) -> Effects:
        """A guest's connection is open: it gets its seat's table at once."""
        seats = self.seats
        if seats is None:
            return []
        seats.guests.connected.add(int(seat))
        seats.links.connected(int(seat))
        seats.sent.pop(int(seat), None)
        seats.logs.pop(int(seat), None)
        return self.table.refresh()

    def left(self, seat: int) -> Effects:
        """A guest's connection closed: the seat plays on by links (its device holds its key), from the position
        it left; or it waits for a new invitation (or the computer)."""
        seats = self.seats
        if seats is None or int(seat) not in seats.guests.connected:
            return []
        seats.left(int(seat))
        name = seats.session.names[int(seat)]
        seats.session.message = (
            f"{name} left the table: the game goes on by links with them (their link shows here when it is their "
            "turn), or invite them again to play live." if seats.links.linked(int(seat)) else
            f"{name} left the table: make a new invitation for them, or let the computer play their seat.")
        return self.table.refresh()

    def give_to_computer(self, seat: int) -> Effects:
        """The host lets the computer play a remote seat (its guest, if any, is told and let go)."""
        seats = self.seats
        seat = int(seat)
        if seats is None or seat not in seats.guests.remote or seat in seats.guests.given:
            return []
        guests, effects = seats.guests, []
        if seat in guests.connected:
            effects.append(Wire("send", {"seat": seat, "text": message("seat-given", self.build)}))
            effects.append(Wire("close", {"seat": seat}))
            guests.connected.discard(seat)
        guests.given.add(seat)
        seats.links.given(seat)
        for token in [t for t, i in guests.invitations.items() if i.seat == seat]:
            del guests.invitations[token]
        seats.session.give_to_computer(seat)
        if seats.asking is not None:
            seats.asking.agreed.add(seat)
        return effects + self.table.refresh()

    def guest_message(self, seat: int, text: str) -> Effects:
        """A message arrived on ``seat``'s connection (see :meth:`RemoteSeats.guest_message`)."""
        seats = self.seats
        return [] if seats is None else seats.guest_message(int(seat), str(text))
