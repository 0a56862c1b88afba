"""A link opened on this page (``web/links.js`` reads its header, asks here for the key, unseals it and hands over
its payload): which side of a game it is for, and why it is refused, in one sentence each.

A link made by the host (``h``) opens on the device of the seat it is for (the key came with the seat's
invitation); a link made by a guest (``g``) opens on the host's device, which holds every seat's key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .effects import Effect, LobbyError, Wire
from .link_guest import latest_live, live_here, open_turn
from .link_host import Pacing
from .link_store import held_games, hosted_games, key_of
from .links import BROKEN

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]
NOT_JOINED = "This link is for a game this device has not joined: open the invitation you were sent first."
NOT_HOSTED = "This link is for the device that hosts its game: send it back to the player who hosts it."


class LinkDoor:
    """The links opened on the table page: their keys, the refusals, and the opened payload handed to its side."""

    def __init__(self, table: TableController, pacing: Pacing) -> None:
        self.table = table
        self.pacing = pacing

    def key(self, table: str, seat: int, way: str) -> str:
        """The key this browser holds for a link's seat ("" when none): a guest's own seat for the host's links,
        every seat of a game it hosts for the guests' links."""
        if way == "h":
            return key_of(self.table.keeper, table, seat)
        return self.pacing.key(table, seat) if way == "g" else ""

    def refused(self, table: str, seat: int, way: str) -> Effects:
        """A link this browser holds no key for, refused in one sentence."""
        keeper = self.table.keeper
        hosted = hosted_games(keeper).get(table)
        held = held_games(keeper).get(table)
        if way == "h" and hosted is not None:
            text = "This link is for another player's device: it shows nothing here, so send it to them."
        elif way == "h" and held is not None:
            text = "This device plays another seat of this game: this link is for another player."
        elif way == "h":
            text = NOT_JOINED
        elif held is not None or hosted is None:
            text = NOT_HOSTED
        else:
            text = "This link is for a seat that does not play by links in this game."
        return [LobbyError(text)]

    def broken(self) -> Effects:
        return [LobbyError(BROKEN)]

    def says(self, text: str) -> Effects:
        return [LobbyError(str(text)[:300])]

    def open_held(self, table: str) -> Effects:
        """The lobby's Open on a game this browser plays as a guest: its latest turn held here."""
        held = held_games(self.table.keeper).get(str(table))
        if held is None:
            return [LobbyError("That game is no longer kept in this browser.")]
        if not held["packed"]:  # played live until now: no link of it came yet
            return live_here(self.table, str(table), "") or self.shown(latest_live(self.table, str(table), held))
        return self.opened(str(table), int(held["seat"]), "h", str(held["packed"]))

    def opened(self, table: str, seat: int, way: str, packed: str, key: str = "") -> Effects:
        """An unsealed link's payload, for the guest's side (a turn) or the host's (a reply)."""
        if way != "h":
            return self.pacing.reply(table, seat, packed)
        if table in hosted_games(self.table.keeper):  # the host's own link for a seat, even an invitation
            return self.refused(table, seat, way)
        live = live_here(self.table, table)
        if live is not None:
            return live
        return self.shown(open_turn(self.table, table, seat, packed, key))

    def shown(self, effects: Effects) -> Effects:
        """A guest's table by links shown (or refused): what the page showed before closes (its connections, its
        panel of links)."""
        if any(isinstance(effect, LobbyError) for effect in effects):
            return effects
        leaving, self.table.closing = self.table.closing, [Wire("links-close")]
        return [*leaving, Wire("links-close"), *effects]
