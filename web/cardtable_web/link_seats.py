"""The seats of a hosted game that are played by links while they are not connected live.

A hosted game has one set of other seats (:class:`~cardtable_web.remote_seats.RemoteSeats`): each guest's seat is
served live while its data channel is open, and by links when it is not. :class:`LinkSeats` is the links' half:
after every change it makes the link for whoever acts next among the seats played by links now
(:func:`cardtable_web.links.turn_payload`, from the seat's own feed), and once the game is over each such guest's last
link, with the result; it plays a guest's reply (:func:`cardtable_web.links.take_reply`).

A seat is played by links when it has a key, is not connected live, and its device holds its key: in a game started
at your own pace every seat's first link is its invitation (the key after it); in a game started live a seat's key
reaches its device over its connection (in the table messages, to that seat alone), and the seat plays on by links
once that connection closes. Both ways check the game's number of moves, so a move is never played twice.

The page seals each payload for its seat (``web/links.js``): a :class:`~cardtable_web.effects.Wire` ``link`` effect
carries the packed payload and the seat's key. Each seat's key is drawn here once, kept in this browser with the
game (:mod:`cardtable_web.link_store`), and given to its player in the seat's invitation or over its connection.
"""

from __future__ import annotations

import base64
import secrets
from typing import TYPE_CHECKING

from pyengine.words import say

from . import link_store
from .effects import Effect, Wire
from .feed import feed_for, names_for
from .links import LinkRefused, Reply, pack, take_reply, turn_payload
from .session import Session
from .trail import Trail

if TYPE_CHECKING:
    from .controller import TableController
    from .remote_host import RemoteSession

Effects = list[Effect]
NO_TAKE_BACK = "Take back is not offered in a game played by links: a move, once sent, is played."


def new_key() -> str:
    """A seat's key: 128 random bits in base64url (AES-GCM's key, given in the seat's invitation only)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(16)).decode("ascii").rstrip("=")


class LinkSeats:
    """The links of the seats of one hosted game that are not connected live (see the module's docstring)."""

    def __init__(self, table: TableController, session: RemoteSession, keys: dict[int, str],
                 joined: set[int] | None = None, live: set[int] | None = None, invites: bool = True) -> None:
        self.table = table
        self.session = session
        self.keys = keys
        self.joined = set(joined or ())
        """The seats whose device holds their key (their reply came, or their connection carried it). Until then
        each link of a seat is its invitation (the key after it), so whichever link the host sends first lets the
        player in."""
        self.live = live if live is not None else set()
        """The seats connected live now (the live seats' own set): no link is made for them while they are."""
        self.invites = invites
        """Whether a seat whose device has no key yet is sent links (its invitations): a game started at your own
        pace. In a game started live such a seat waits for its live invitation."""
        self.trails: dict[int, Trail] = {}
        """Each seat's game followed once, its log said for that seat."""
        self.made: dict[int, int] = {}
        """The position (how many moves) of each seat's latest link: a link is made once per position."""

    def linked(self, seat: int) -> bool:
        """Whether ``seat`` can be played by links (it has a key its device holds, or may be sent it)."""
        return seat in self.keys and (self.invites or seat in self.joined)

    def by_links(self, seat: int) -> bool:
        """Whether ``seat`` is played by links now: it can be, and is not connected live."""
        return self.linked(seat) and seat not in self.live

    # -- what the game in play asks --------------------------------------------------------------------------------
    def feed(self, session: Session) -> Effects:
        """The link for whoever acts next by links, once the computer seats have played; each such guest's last link
        at the end."""
        state = session.state
        if state.is_terminal():
            due = list(self.keys)
        elif not self.table.computer.busy and state.current_player is not None:
            due = [state.current_player]
        else:
            due = []
        effects: Effects = []
        for seat in due:
            if self.by_links(seat) and self.made.get(seat) != state.played:
                self.made[seat] = state.played
                self.session.linked = True
                effects.append(self.link(seat, invite=seat not in self.joined, row="turn"))
        return effects

    def link(self, seat: int, invite: bool = False, row: str = "invitation") -> Wire:
        """The link of ``seat``'s table now, with its key after it when ``invite``; the panel shows it as the seat's
        ``turn`` link or as its ``invitation``."""
        session, state = self.session, self.session.state
        names = session.names
        trail = self.trails.setdefault(seat, Trail(lambda text: say(text, names, seat)))
        feed = feed_for(state, names, session.computers, seat, seat, trail, offer=False,
                        shown_names=names_for(names, seat))
        payload = turn_payload(state, session.table, seat, names, session.host_seat, feed, trail.entries)
        return Wire("link", {
            "to": "guest", "table": session.table, "seat": seat, "name": names[seat], "key": self.keys[seat],
            "packed": pack(payload), "turn": state.played, "theirs": state.current_player == seat,
            "over": state.is_terminal(), "invite": invite, "row": row, "title": session.info.title,
        })

    def seats(self) -> Effects:
        """Each seat's row in the host's panel of links, but a seat's connected live (the panel of players on
        other devices shows it, and no link is made for it meanwhile)."""
        state = self.session.state
        rows = [{"seat": seat, "name": self.session.names[seat], "key": self.keys[seat], "joined": seat in self.joined,
                 "state": "over" if state.is_terminal() else "theirs" if state.current_player == seat else "waiting"}
                for seat in sorted(self.keys) if self.by_links(seat)]
        return [Wire("link-seats", {"table": self.session.table, "rows": rows})]

    def keep(self, session: Session) -> None:
        """The game's seats and keys remembered by its table's name, and the lobby's rows of the games by links."""
        if session.table:
            keeper = self.table.keeper
            link_store.host(keeper, session.table, self.keys, self.session.names, self.joined)
            live = tuple(self.session.names[seat] for seat in sorted(self.live))
            link_store.write_lobby(keeper, session, int(keeper.clock() * 1000), live)

    # -- the seat's device, live or by links ------------------------------------------------------------------------
    def connected(self, seat: int) -> None:
        """``seat``'s connection opened: its table messages carry its key, so its device holds it from now on."""
        if seat in self.keys:
            self.joined.add(seat)

    def left(self, seat: int) -> None:
        """``seat``'s connection closed: it plays on by links, its link made afresh for the position it left."""
        self.made.pop(seat, None)

    def given(self, seat: int) -> None:
        """The host gave ``seat`` to the computer: no link is made for it any more."""
        self.keys.pop(seat, None)

    # -- a guest's reply -------------------------------------------------------------------------------------------
    def take(self, reply: Reply) -> Effects:
        """Play a guest's reply (:class:`LinkRefused` says why not: then nothing changed). A seat connected live may
        still send the reply of a turn it played by links: the turn's number says whether it is the game's now."""
        session = self.session
        if not self.linked(reply.seat):
            raise LinkRefused("This link is for a seat that does not play by links in this game.")
        session.played(take_reply(session.state, reply, session.names[reply.seat]))
        self.joined.add(reply.seat)
        return self.table.refresh()
