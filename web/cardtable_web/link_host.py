"""Hosting a game played at your own pace: the turns of the seats on other devices travel as links.

:class:`LinkSeats` is the collaborator a hosted game in play is given (an :class:`~cardtable_web.play.OtherSeats`,
as live play's :class:`~cardtable_web.remote_seats.RemoteSeats` is): after every change it makes the link for
whoever acts next (:func:`cardtable_web.links.turn_payload`, from the seat's own feed), and once the game is over
each guest's last link, with the result; it plays a guest's reply (:func:`cardtable_web.links.take_reply`). The
computer seats play on this page between, as in any game. :class:`Pacing` starts such a game from the lobby, hosts a
kept one again (after a reload, or when a reply is opened in a tab that shows something else) and takes the replies.

The page seals each payload for its seat (``web/links.js``): a :class:`~cardtable_web.effects.Wire` ``link`` effect
carries the packed payload and the seat's key. Each seat's key is drawn here once, kept in this browser with the
game (:mod:`cardtable_web.link_store`), and given to its player in the seat's invitation only.
"""

from __future__ import annotations

import base64
import json
import secrets
from typing import TYPE_CHECKING, Any

from pyengine.core import read_json
from pyengine.words import say

from . import link_store
from .effects import Effect, LobbyError, Wire
from .feed import feed_for, names_for, sentence
from .html import esc
from .keeping import session_from, the_game
from .links import BROKEN, LinkRefused, Reply, pack, read_reply, take_reply, turn_payload, unpack
from .remote_host import RemoteSession, remote_setup
from .session import Session
from .trail import Trail

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]
EXPORT_KIND = "card-table hosted game"
NO_TAKE_BACK = "Take back is not offered in a game played by links: a move, once sent, is played."


def new_key() -> str:
    """A seat's key: 128 random bits in base64url (AES-GCM's key, given in the seat's invitation only)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(16)).decode("ascii").rstrip("=")


class LinkSession(RemoteSession):
    """A game whose other human seats play on other devices by links: the host's screen shows the host's seat only,
    and nothing is taken back (a guest's move was sent as it was played)."""

    def can_take_back(self) -> bool:
        return False

    def can_take_back_for(self, seat: int) -> bool:
        return False


class LinkSeats:
    """The seats of one hosted game that play by links (see the module's docstring)."""

    def __init__(self, table: TableController, session: LinkSession, keys: dict[int, str],
                 joined: set[int] | None = None) -> None:
        self.table = table
        self.session = session
        self.keys = keys
        self.joined = set(joined or ())
        """The seats whose reply came: their device holds their key. Until then each link of a seat is its
        invitation (the key after it), so whichever link the host sends first lets the player in."""
        self.trails: dict[int, Trail] = {}
        """Each seat's game followed once, its log said for that seat."""
        self.made: dict[int, int] = {}
        """The position (how many moves) of each seat's latest link: a link is made once per position."""

    # -- what the game in play asks (:class:`cardtable_web.play.OtherSeats`) ---------------------------------
    def feed(self, session: Session) -> Effects:
        """The link for whoever acts next, once the computer seats have played; each guest's last link at the end."""
        state = session.state
        if state.is_terminal():
            due = list(self.keys)
        elif state.current_player in self.keys and not self.table.computer.busy:
            due = [state.current_player]
        else:
            due = []
        effects: Effects = []
        for seat in due:
            if self.made.get(seat) != state.played:
                self.made[seat] = state.played
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
        """Each seat's row in the host's panel of links."""
        state = self.session.state
        rows = [{"seat": seat, "name": self.session.names[seat], "key": self.keys[seat], "joined": seat in self.joined,
                 "state": "over" if state.is_terminal() else "theirs" if state.current_player == seat else "waiting"}
                for seat in sorted(self.keys)]
        return [Wire("link-seats", {"table": self.session.table, "rows": rows})]

    def ask(self) -> None:
        return None

    def status_html(self, session: Session) -> str:
        """Who plays where, and whose link is out."""
        parts = []
        for seat, name in enumerate(session.names):
            where = ("you, hosting" if seat == self.session.host_seat else
                     f"{name}: the computer" if seat in session.computers else f"{name}: by links")
            parts.append(where)
        words = "At the table: " + "; ".join(parts) + "."
        return f'<p class="remote-seats" data-link-seats>{esc(words)}</p>'

    def control(self, session: Session, name: str) -> Effects | None:
        """Take back is not offered: every guest's move was sent as it was played."""
        if name != "undo":
            return None
        session.message = NO_TAKE_BACK
        return self.table.refresh()

    def keep(self, session: Session) -> None:
        """The game's seats and keys remembered by its table's name, and the lobby's rows of the games by links."""
        if session.table:
            keeper = self.table.keeper
            link_store.host(keeper, session.table, self.keys, self.session.names, self.joined)
            link_store.write_lobby(keeper, session, int(keeper.clock() * 1000))

    # -- a guest's reply -------------------------------------------------------------------------------------------
    def take(self, reply: Reply) -> Effects:
        """Play a guest's reply (:class:`LinkRefused` says why not: then nothing changed)."""
        session = self.session
        if reply.seat not in self.keys:
            raise LinkRefused("This link is for a seat that does not play by links in this game.")
        session.played(take_reply(session.state, reply, session.names[reply.seat]))
        self.joined.add(reply.seat)
        return self.table.refresh()


class Pacing:
    """The table page's games at your own pace: started, hosted again, their invitations and replies."""

    def __init__(self, table: TableController) -> None:
        self.table = table
        earlier = table.rehost
        table.rehost = lambda kept, history: self.host_again(kept, history) or earlier(kept, history)

    @property
    def seats(self) -> LinkSeats | None:
        """The link seats of the game on the table (None: no game played by links is on it)."""
        mode = self.table.mode
        others = getattr(mode, "others", None)
        return others if isinstance(others, LinkSeats) else None

    def start(self, settings_json: str) -> Effects:
        """The lobby's "Play with others", at your own pace: the game starts at once, each guest's invitation
        shown."""
        try:
            setup, remote, state = remote_setup(settings_json)
        except ValueError as exc:
            return [LobbyError(str(exc))]
        return self.host(LinkSession(setup, remote, state), {seat: new_key() for seat in remote}, "push")

    def host(self, session: LinkSession, keys: dict[int, str], history: str, joined: set[int] | None = None) -> Effects:
        """Put a game played by links on the table (the page's panel of links starts afresh)."""
        seats = LinkSeats(self.table, session, keys, joined)
        effects = [Wire("links-close"), *self.table.begin(session, history, others=seats)]
        self.table.closing = [Wire("links-close")]
        return effects

    def host_again(self, kept: Session, history: str) -> Effects | None:
        """A kept game this browser hosts by links, put on the table: hosted as before (None: not one)."""
        entry = link_store.hosted_games(self.table.keeper).get(kept.table) if kept.table else None
        humans = set(kept.humans)
        if entry is None or isinstance(kept, RemoteSession) or not set(entry["seats"]) < humans:
            return None
        keys = {seat: entry["keys"][str(seat)] for seat in entry["seats"]}
        session = LinkSession(kept.setup, tuple(sorted(keys)), kept.state)
        session.table, session.counted = kept.table, kept.counted
        return self.host(session, keys, history, link_store.joined(entry))

    def invite(self, seat: int) -> Effects:
        """A seat's invitation: its table now, with its key."""
        seats = self.seats
        if seats is None or int(seat) not in seats.keys:
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

