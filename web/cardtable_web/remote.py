"""Playing on separate devices: the messages between the host's page and a guest's page, and what the host checks.

The host's page runs the engine. Each remote seat gets its own invitation (a one-time token with an expiry); the
guest's reply names the token, so the host knows which seat a connection plays before any message arrives. From
then on the seat of a message is the connection it came on, never what the message says.

Every message is one JSON object, ``{"v": PROTOCOL, "build": <the site's cache key>, "kind": ..., ...}``:

* host to guest: ``table`` (the seat's own view with its ``moves``, the public log said for that seat, who is
  connected, whose turn, a take-back waiting for agreement, and once the game is over its record), ``refused``
  (why a guest's message changed nothing) and ``seat-given`` (the host gave the seat to the computer);
* guest to host: ``act`` (an action's text, with how many moves the game had when it was chosen), ``take-back``
  (ask the others to agree to take back) and ``agree`` (the answer to someone else's take-back).

Only :func:`table_message` writes what a guest sees, from the seat's feed (:mod:`cardtable_web.feed`): hidden
cards never leave the host's page. Nothing here touches the browser, so it runs and is tested under CPython.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pyengine

from .effects import Wire as Wire
from .feed import SeatFeed

PROTOCOL = 1
MAX_MESSAGE = 4_000
"""The longest message a guest may send, in characters (an action's text is a few dozen)."""
MAX_ACTION = 200
INVITATION_SECONDS = 15 * 60
"""How long an invitation may be answered after it is made."""
GUEST_KINDS = ("act", "take-back", "agree")
HOST_KINDS = ("table", "refused", "seat-given", "held")


class Refused(ValueError):
    """A message or a reply the host (or the guest) does not take; its text says why, to the player."""


def message(kind: str, build: str, **fields: Any) -> str:
    """One message as its JSON text."""
    return json.dumps(
        {"v": PROTOCOL, "build": build, "kind": kind, **fields}, ensure_ascii=False, separators=(",", ":")
    )


def read_message(text: object, build: str, kinds: tuple[str, ...]) -> dict[str, Any]:
    """A message read and checked for its size, form, protocol, build and kind; :class:`Refused` says why not."""
    if not isinstance(text, str):
        raise Refused("the message is not text")
    if len(text) > MAX_MESSAGE and kinds == GUEST_KINDS:
        raise Refused(f"the message is too long ({len(text)} characters; at most {MAX_MESSAGE})")
    try:
        fields = json.loads(text)
    except ValueError:
        raise Refused("the message is not one this site writes") from None
    if not isinstance(fields, dict):
        raise Refused("the message is not one this site writes")
    if fields.get("v") != PROTOCOL:
        raise Refused("the message comes from another version of the remote play")
    if fields.get("build") != build:
        raise Refused("the other device runs a different build of this site: both must reload the page")
    if fields.get("kind") not in kinds:
        raise Refused(f"there is no message of the kind {str(fields.get('kind'))[:40]!r}")
    return fields


@dataclass(frozen=True)
class Invitation:
    """One remote seat's invitation: a token answered once, before ``expires`` (milliseconds since 1970)."""

    seat: int
    token: str
    expires: float


@dataclass
class Guests:
    """The host's side of the remote seats: invitations, connections, and the seats given to the computer."""

    build: str
    remote: tuple[int, ...]
    invitations: dict[str, Invitation] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    connected: set[int] = field(default_factory=set)
    given: set[int] = field(default_factory=set)
    """Remote seats the host gave to the computer (no invitation is taken for them any more)."""

    def invite(self, seat: int, token: str, now: float) -> Invitation:
        """A new invitation for a remote seat (any older one for the seat is withdrawn)."""
        if seat not in self.remote or seat in self.given:
            raise Refused(f"seat {seat + 1} is not played on another device")
        if seat in self.connected:
            raise Refused(f"Player {seat + 1} is connected: their seat needs no invitation")
        for old in [t for t, i in self.invitations.items() if i.seat == seat]:
            del self.invitations[old]
        invitation = Invitation(seat, token, now + INVITATION_SECONDS * 1000)
        self.invitations[token] = invitation
        return invitation

    def accept(self, token: object, build: object, now: float) -> int:
        """The seat a guest's reply takes (its invitation is used up); :class:`Refused` says why not."""
        if build != self.build:
            raise Refused(
                "This reply comes from a different build of the site: the guest must reload the "
                "invitation's page, and the host may need to reload too"
            )
        if not isinstance(token, str) or token in self.used:
            raise Refused("This reply answers an invitation that was already used: make a new invitation")
        invitation = self.invitations.get(token)
        if invitation is None:
            raise Refused(
                "This reply answers no invitation of this table (it may be for another game, or "
                "replaced by a newer invitation)"
            )
        if now > invitation.expires:
            raise Refused(
                f"This reply answers an expired invitation (they last {INVITATION_SECONDS // 60} "
                "minutes): make a new invitation"
            )
        if invitation.seat in self.connected or invitation.seat in self.given:
            raise Refused(f"The table is full: Player {invitation.seat + 1}'s seat is taken")
        self.used.add(token)
        del self.invitations[token]
        return invitation.seat

    def seat_state(self, seat: int) -> str:
        """``connected``, ``computer``, ``invited`` or ``away`` (a remote seat with nobody and no invitation)."""
        if seat in self.connected:
            return "connected"
        if seat in self.given:
            return "computer"
        return "invited" if any(i.seat == seat for i in self.invitations.values()) else "away"


def check_invitation(fields: object, build: str, now: float) -> str | None:
    """Why a guest cannot answer an invitation (None when it can): its form, the build and its expiry."""
    if not isinstance(fields, dict) or fields.get("v") != PROTOCOL:
        return "This link is not an invitation of this site (or of another version of it)."
    if fields.get("build") != build:
        return (
            "This invitation was made by a different build of the site. Reload this page; if it still says "
            "so, the host reloads theirs and makes a new invitation."
        )
    expires = fields.get("expires")
    if not isinstance(expires, int | float) or now > expires:
        return "This invitation has expired. Ask the host for a new one."
    if fields.get("game") not in pyengine.GAMES or not isinstance(fields.get("seat"), int):
        return "This invitation names no game of this site."
    return None


def check_act(state: pyengine.State, seat: int, fields: dict[str, Any]) -> str:
    """The action text a guest's ``act`` message plays for ``seat``; :class:`Refused` says why not."""
    if "seat" in fields and fields["seat"] != seat:
        raise Refused(f"a message on Player {seat + 1}'s connection cannot play for another seat")
    text = fields.get("action")
    if not isinstance(text, str) or not 0 < len(text) <= MAX_ACTION:
        raise Refused("the message names no action")
    if state.is_terminal():
        raise Refused("the game is over")
    if state.current_player != seat:
        raise Refused("it is not your turn")
    if fields.get("moves") != state.played:
        raise Refused("the table moved on before your move arrived: look again and choose")
    if text not in state.legal_texts():
        try:
            state.apply(text)
        except ValueError as exc:
            raise Refused(str(exc)) from None
    return text


def table_message(feed: SeatFeed, build: str, log_start: int = 0, **shared: Any) -> str:
    """What a guest is sent after any change: its seat's feed (:func:`cardtable_web.feed.feed_for`, the one door),
    with the public log's lines from ``log_start`` (the guest has the ones before); ``shared`` holds the table's
    public facts (who is connected, the seats' names, a message to this seat, the record once over)."""
    ask = None if feed.ask is None else {"seat": feed.ask.seat, "agreed": list(feed.ask.agreed)}
    return message(
        "table", build, seat=feed.seat, moves=feed.moves, view=feed.view, log_start=log_start,
        log=list(feed.log[log_start:]), headline=feed.headline, ask=ask, **shared,
    )


def connected_words(names: list[str], states: list[str], seat: int) -> str:
    """Who is at the table, in words (``states``: each seat's ``here``, ``connected``, ``away``... ``computer``)."""
    parts = []
    for index, (name, where) in enumerate(zip(names, states, strict=True)):
        who = "you" if index == seat else name
        parts.append(f"{who}: {SEAT_WORDS.get(where, where)}")
    return "At the table: " + "; ".join(parts) + "."


SEAT_WORDS = {
    "host": "hosting",
    "connected": "connected",
    "invited": "invited, not connected yet",
    "away": "not connected",
    "links": "plays by links",
    "computer": "the computer plays",
}
