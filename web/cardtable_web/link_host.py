"""Hosting a game played at your own pace: the turns of the seats on other devices travel as links.

:class:`Pacing` starts such a game from the lobby, takes the replies (putting their game on the table first when it
is not there), and moves a hosted game to another device. The game is hosted as any game with others is
(:class:`~cardtable_web.remote_host.Hosting`): its other seats are one :class:`~cardtable_web.remote_seats.RemoteSeats`,
each seat played by links (:class:`~cardtable_web.link_seats.LinkSeats`) while it is not connected live, so a player
of a game started by links may join it live too, and a live game falls back to links when a connection closes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pyengine.core import read_json

from . import link_store
from .effects import Effect, LobbyError, Wire
from .feed import sentence
from .keeping import session_from, the_game
from .link_seats import NO_TAKE_BACK, LinkSeats, new_key
from .links import BROKEN, LinkRefused, read_reply, unpack
from .remote_host import Hosting, LinkSession, remote_setup
from .remote_seats import RemoteSeats

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]
EXPORT_KIND = "card-table hosted game"
__all__ = ["NO_TAKE_BACK", "LinkSeats", "LinkSession", "Pacing"]


class Pacing:
    """The table page's games at your own pace: started, hosted again, their invitations and replies."""

    def __init__(self, table: TableController, hosting: Hosting | None = None) -> None:
        self.table = table
        self.hosting = hosting or Hosting(table)
        """The page's hosting of games with others (a game by links is one, hosted again by it too)."""

    @property
    def seats(self) -> LinkSeats | None:
        """The link seats of the game on the table (None: no hosted game is on it)."""
        others = getattr(self.table.mode, "others", None)
        return others.links if isinstance(others, RemoteSeats) else None

    def start(self, settings_json: str) -> Effects:
        """The lobby's "Play with others", at your own pace: the game starts at once, each guest's invitation
        shown."""
        try:
            setup, remote, state = remote_setup(settings_json)
        except ValueError as exc:
            return [LobbyError(str(exc))]
        session = LinkSession(setup, remote, state)
        now = self.table.keeper.clock() * 1000
        return self.hosting.host(session, now, "push", keys={seat: new_key() for seat in remote}, live=())

    def invite(self, seat: int) -> Effects:
        """A seat's invitation: its table now, with its key."""
        seats = self.seats
        if seats is None or not seats.linked(int(seat)):
            return []
        return [seats.link(int(seat), invite=True, row="invitation")]

    def key(self, table: str, seat: int) -> str:
        """The key of a seat of a game hosted here ("" when this browser hosts no such seat)."""
        entry = link_store.hosted_games(self.table.keeper).get(str(table))
        return str(entry["keys"].get(str(seat), "")) if entry is not None else ""

    def reply(self, table: str, seat: int, packed: str) -> Effects:
        """A guest's reply link, opened (and unsealed) on this page: played on its game, which is put on the table
        first when it is not there; a refusal is one sentence (at the table, or in the lobby)."""
        seats = self.seats
        effects: Effects = []
        try:
            reply = read_reply(unpack(packed))
            if (reply.table, reply.seat) != (table, seat):
                raise LinkRefused(BROKEN)
            if seats is None or seats.session.table != table:
                effects = self.open_game(table)
                seats = self.seats
            assert seats is not None and seats.session.table == table
            return effects + seats.take(reply)
        except LinkRefused as exc:
            seats = self.seats
            if seats is not None and seats.session.table == table:
                seats.session.message = str(exc)
                return effects + self.table.refresh()
            return effects + [LobbyError(str(exc))]

    # -- a hosted game moved to another device ------------------------------------------------------------------------
    def export(self) -> Effects:
        """The game on the table as a file for another device of the host's: its record (the deal with it), who sits
        where, and each seat's key, so that the game goes on from there (and no longer from here)."""
        seats = self.seats
        if seats is None:
            return []
        session = seats.session
        links = {"seats": sorted(seats.keys), "keys": {str(s): k for s, k in seats.keys.items()},
                 "names": [session.names[s] for s in sorted(seats.keys)], "joined": sorted(seats.joined)}
        text = json.dumps({"kind": EXPORT_KIND, "version": 1, "game": the_game(session), "links": links},
                          ensure_ascii=False)
        name = f"card-table-{session.setup.game}-{session.table}.json"
        return [Wire("link-export", {"name": name, "text": text})]

    def bring(self, text: str) -> Effects:
        """A game exported from another device of the host's, hosted here from now on (``LobbyError`` in words when
        the file holds no such game)."""
        try:
            fields = read_json(str(text), "file")
            if not isinstance(fields, dict) or fields.get("kind") != EXPORT_KIND or fields.get("version") != 1:
                raise ValueError("it is not a game exported from Card Table")
            session = session_from(fields.get("game"))
            links: dict[str, Any] = fields.get("links") or {}
            if not session.table or not link_store.valid_hosted(links) or session.state.is_terminal():
                raise ValueError("it holds no unfinished game played by links")
        except ValueError as exc:
            return [LobbyError(sentence(f"This file cannot be opened: {exc}"))]
        keys = {int(seat): str(links["keys"][str(seat)]) for seat in links["seats"]}
        link_store.host(self.table.keeper, session.table, keys, None, link_store.joined(links))
        return self.table.begin(session)

    def open_game(self, table: str) -> Effects:
        """Put the kept game of ``table`` on the table (:class:`LinkRefused` when this browser keeps it no more)."""
        keeper = self.table.keeper
        for key, kept in keeper.saves().items():
            if kept.get("table") == table:
                try:
                    session = keeper.load(key)
                except ValueError as exc:
                    raise LinkRefused(str(exc)) from None
                effects = self.table.begin(session)
                if self.seats is not None:
                    return effects
        if any(entry.get("table") == table for entry in keeper.history()):
            raise LinkRefused("This game is over: this link came after its end, and nothing was played.")
        raise LinkRefused("This link belongs to a game this device does not host (or no longer keeps).")

