"""The table page's bridge for playing on separate devices: the calls ``web/remote.js`` makes into Python (a reply
arrived, a guest's message, a connection opened or closed), each run through the page's controller.

The host's controller is the page's :class:`~cardtable_web.remote_host.HostTable`; a guest's page puts a
:class:`~cardtable_web.remote_guest.GuestTable` in its place once its connection opens, and the host's back when the
guest leaves.
"""

from __future__ import annotations

import json
from typing import Any

from js import window  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from .remote import check_invitation
from .remote_guest import GuestTable
from .remote_host import HostTable


def now() -> float:
    """The browser's clock, in milliseconds since 1970 (invitations expire by it)."""
    return float(window.Date.now())


def install(page: Any, bridge: Any) -> None:
    """Put the remote play's calls on the page's bridge (``window.cardTable``)."""
    host: HostTable = page.controller
    host.tokens = lambda: str(window.cardTableRemote.token())
    host.build = str(window.document.documentElement.dataset.build or "")  # a game hosted again after a reload

    def hosting() -> HostTable:
        return host

    def guest() -> GuestTable | None:
        return page.controller if isinstance(page.controller, GuestTable) else None

    def guest_open(seat: int, game: str, build: str) -> Any:
        page.controller = GuestTable(host.keeper, str(build), int(seat), str(game))
        return page.controller.refresh()

    def guest_call(method: str, *args: Any) -> Any:
        table = guest()
        return getattr(table, method)(*args) if table is not None else []

    def leave() -> Any:
        effects = page.controller.leave()
        page.controller = host
        return effects

    bridge.startRemote = page.call(lambda settings, build: hosting().start_remote(str(settings), str(build), now()))
    bridge.remoteInvite = page.call(lambda seat: hosting().invite(int(seat), now()))
    bridge.remoteReply = page.call(
        lambda token, build, name="": hosting().reply(str(token), str(build), now(), str(name or "")))
    bridge.remoteJoined = page.call(lambda seat: hosting().joined(int(seat)))
    bridge.remoteLeft = page.call(lambda seat: hosting().left(int(seat)))
    bridge.remoteMessage = page.call(lambda seat, text: hosting().guest_message(int(seat), str(text)))
    bridge.remoteGiveSeat = page.call(lambda seat: hosting().give_to_computer(int(seat)))
    bridge.remoteGuestOpen = page.call(guest_open)
    bridge.remoteGuestMessage = page.call(lambda text: guest_call("receive", str(text)))
    bridge.remoteGuestClosed = page.call(lambda: guest_call("closed"))
    bridge.remoteCheck = create_proxy(
        lambda text, build: check_invitation(json.loads(str(text)), str(build), now()) or ""
    )
    bridge.leaveGame = page.call(leave)
    bridge.cancel = page.call(lambda: page.controller.cancel())
    window.cardTableRemote.ready(bridge)
