"""The table page's bridge for playing on separate devices: the calls ``web/remote.js`` makes into Python (a reply
arrived, a guest's message, a connection opened or closed) and those of ``web/links.js`` (a game at your own pace
started, an invitation, a link's key, a link opened), each run through the page's controller.

The page's one table is given the remote play (:class:`~cardtable_web.remote_host.Hosting`); a guest's page puts
its table in the guest's mode (:class:`~cardtable_web.remote_guest.GuestMode`) once its connection opens, and the
table leaves that mode for the lobby when the guest leaves.
"""

from __future__ import annotations

import json
from typing import Any

from js import window  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from .effects import Wire
from .link_door import LinkDoor
from .link_host import Pacing
from .remote import check_invitation
from .remote_guest import GuestMode
from .remote_host import Hosting


def now() -> float:
    """The browser's clock, in milliseconds since 1970 (invitations expire by it)."""
    return float(window.Date.now())


def install(page: Any, bridge: Any) -> None:
    """Put the remote play's calls on the page's bridge (``window.cardTable``)."""
    table = page.controller
    build = str(window.document.documentElement.dataset.build or "")  # a game hosted again after a reload
    hosting = Hosting(table, build, lambda: str(window.cardTableRemote.token()))

    guests: list[GuestMode] = []  # the live guest's table this page showed last

    def guest() -> GuestMode | None:
        return table.mode if isinstance(table.mode, GuestMode) else None

    def guest_open(seat: int, game: str, build: str) -> Any:
        mode = GuestMode(table, str(build), int(seat), str(game))
        guests[:] = [mode]
        table.closing = [Wire("close-all")]
        return [Wire("links-close"), *table.show(mode)]  # a table by links in this tab gives way, and its panel

    def page_left() -> Any:
        """This page's connections all closed (it left the table, or is leaving): nothing is played live from
        here any more, and the lobby's rows say so."""
        for mode in guests:
            mode.left()
        return hosting.page_left()

    def guest_call(method: str, *args: Any) -> Any:
        mode = guest()
        return getattr(mode, method)(*args) if mode is not None else []

    bridge.startRemote = page.call(lambda settings, build: hosting.start_remote(str(settings), str(build), now()))
    bridge.remoteInvite = page.call(lambda seat: hosting.invite(int(seat), now()))
    bridge.remoteReply = page.call(
        lambda token, build, name="": hosting.reply(str(token), str(build), now(), str(name or "")))
    bridge.remoteJoined = page.call(lambda seat: hosting.joined(int(seat)))
    bridge.remoteLeft = page.call(lambda seat: hosting.left(int(seat)))
    bridge.remoteMessage = page.call(lambda seat, text: hosting.guest_message(int(seat), str(text)))
    bridge.remoteGiveSeat = page.call(lambda seat: hosting.give_to_computer(int(seat)))
    bridge.remoteGuestOpen = page.call(guest_open)
    bridge.remoteGuestMessage = page.call(lambda text: guest_call("receive", str(text)))
    bridge.remoteGuestClosed = page.call(lambda: guest_call("closed"))
    bridge.remoteLeftPage = page.call(page_left)
    bridge.remoteCheck = create_proxy(
        lambda text, build: check_invitation(json.loads(str(text)), str(build), now()) or ""
    )
    window.cardTableRemote.ready(bridge)
    install_links(page, bridge, hosting)


def install_links(page: Any, bridge: Any, hosting: Hosting) -> None:
    """Put the calls of the games at your own pace on the bridge (``web/links.js``)."""
    pacing = Pacing(page.controller, hosting)
    door = LinkDoor(page.controller, pacing)
    bridge.startLinks = page.call(lambda settings: pacing.start(str(settings)))
    bridge.linkInvite = page.call(lambda seat: pacing.invite(int(seat)))
    bridge.linkKey = create_proxy(lambda table, seat, way: door.key(str(table), int(seat), str(way)))
    bridge.linkRefused = page.call(lambda table, seat, way: door.refused(str(table), int(seat), str(way)))
    bridge.linkBroken = page.call(door.broken)
    bridge.linkSays = page.call(lambda text: door.says(str(text)))
    bridge.linkOpened = page.call(lambda table, seat, way, packed, key="": door.opened(
        str(table), int(seat), str(way), str(packed), str(key or "")))
    bridge.openHeld = page.call(lambda table: door.open_held(str(table)))
    bridge.exportHosted = page.call(pacing.export)
    bridge.bringHosted = page.call(lambda text: pacing.bring(str(text)))
    window.cardTableLinks.ready(bridge)
