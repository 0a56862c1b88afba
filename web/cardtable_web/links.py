"""Playing at your own pace: each turn travels as a link, days apart if need be, still with no server.

The host's page is the only dealer and judge, as in live play on separate devices. When a seat played by links is to
act, the host makes that seat a **turn**; the guest's page plays the seat's whole turn on it and answers with a
**reply**, which the host checks and plays for real. The computer seats play on the host's page between.

* A turn (host to guest) holds the table's name, the seat, the turn's number (how many moves the game had), the
  game's setup, the seats' names, the public log said for that seat (from where its previous turn began), each
  seat's latest turn, the headline, and a **position re-dealt from the seat's view**: ``State.sample_hidden(seat,
  a fresh generator)``, written by :mod:`cardtable_web.cores`. That position shows the seat exactly its own view
  (the contract's re-deal keeps every view of the seat), and every card the seat cannot see is dealt at random by a
  generator nobody else holds, so it tells nothing of the real hands or the real draw pile (``tests/test_links.py``
  checks that re-dealing the truth's hidden cards changes no turn).
* The guest plays on that position (:class:`GuestTurn`) until its turn passes or a move shows it something: after
  each move it compares what the seat sees on the position and on further re-deals of it, and where they differ the
  move showed a card (a draw), which only the host knows. The turn pauses there and the reply goes back.
* A reply (guest to host) holds the table, the seat, the turn's number and the moves' texts, and for each move after
  the first a digest of the view it was chosen from. The host (:func:`take_reply`) refuses a reply of another game
  or seat, an old one (nothing is played twice), one from a turn the game never reached, or after the end, and
  plays the moves while the seat's view on the real game has the digest the guest saw: where it differs, the guest
  chose from a card it had not really drawn, so the rest waits for the seat's next turn link.

Each payload is JSON, deflated and written in base64url by :func:`pack`; the page seals it for one seat with
AES-GCM (``web/links.js``), so a link shows nothing to anyone without that seat's key. Pure: no DOM.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyengine
from pyengine.core import check_setup, check_version, read_json, rules_for
from pyengine.rng import Rng
from pyengine.words import Entry

from . import cores
from .feed import SeatFeed, names_for
from .trail import recent_turns

LINK_VERSION = 1
MAX_PACKED = 4_000
"""The longest packed payload read, in characters (a link under 2,000 characters holds at most about 1,400)."""
MAX_PLAIN = 200_000
"""The most a packed payload may inflate to, in bytes."""
MAX_LOG_LINES = 60
"""The most log lines a turn carries (a seat's previous turn and everything since, usually a few dozen)."""
MAX_ACTIONS = 200
MAX_LINK = 2_000
"""Every link a turn makes is shorter than this, in characters, for a site whose address (before the fragment) is at
most :data:`ADDRESS_ALLOWANCE` characters long: chat apps, mail and QR codes all take it."""
ADDRESS_ALLOWANCE = 100
SEALING = 12 + 16
"""What sealing adds to a packed payload's bytes: AES-GCM's nonce and tag (``web/links.js``)."""
REVEAL_CHECKS = 3
"""How many further re-deals a guest's move is played on to see whether it showed a card."""
BROKEN = "This link is damaged or was changed: ask for it again, whole."


class LinkRefused(ValueError):
    """A link that is not taken; its text is one sentence for the player."""


# -- packing -----------------------------------------------------------------------------------------------------
def pack(payload: dict[str, Any]) -> str:
    """``payload`` as compact JSON, raw-deflated and written in base64url (no padding)."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = squeezer.compress(text.encode("utf-8")) + squeezer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def unpack(text: object) -> dict[str, Any]:
    """The payload :func:`pack` wrote; :class:`LinkRefused` for anything else (bounded: no inflating bomb)."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_PACKED:
        raise LinkRefused(BROKEN)
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        opener = zlib.decompressobj(-15)
        plain = opener.decompress(packed, MAX_PLAIN)
        if opener.unconsumed_tail or not opener.eof:
            raise ValueError("not one deflated stream")
        payload = read_json(plain.decode("utf-8"), "link")
    except (ValueError, binascii.Error, zlib.error, UnicodeDecodeError):
        raise LinkRefused(BROKEN) from None
    if not isinstance(payload, dict) or payload.get("v") != LINK_VERSION:
        raise LinkRefused("This link was made by another version of this site: ask for a new one.")
    return payload


def link_length(packed: str, table: str, seat: int, address: int = ADDRESS_ALLOWANCE) -> int:
    """The length of the link that seals a packed payload (``web/links.js`` writes ``<address>#turn=<table>.<seat>.
    <h or g>.<nonce, sealed payload and tag in base64url>``), for a site address of ``address`` characters."""
    sealed = len(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))) + SEALING
    return address + len(f"#turn={table}.{seat}.h.") + -(-sealed * 4 // 3)


def digest(view: dict[str, Any]) -> str:
    """A short digest of a seat's view (without its moves): what a guest saw when it chose a move."""
    text = json.dumps(view, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode("utf-8")).digest()[:9]).decode("ascii")


def seen_by(state: pyengine.State, seat: int) -> dict[str, Any]:
    """What ``seat`` sees of ``state``, its moves left out (they follow from the rest)."""
    return state.view(seat, moves=False)


# -- the host's turn for a seat ---------------------------------------------------------------------------------
def log_start(entries: Sequence[Entry], seat: int) -> int:
    """Where a seat's turn link begins the log: at the start of the seat's latest run of moves (its previous turn,
    or the turn it is in), so that the guest's own moves come back as the real game says them; at most
    :data:`MAX_LOG_LINES` lines."""
    at = len(entries)
    while at > 0 and entries[at - 1].seat != seat:
        at -= 1
    while at > 0 and entries[at - 1].seat == seat:
        at -= 1
    return max(at, len(entries) - MAX_LOG_LINES)


def turn_payload(state: pyengine.State, table: str, seat: int, names: list[str], host: int, feed: SeatFeed,
                 entries: Sequence[Entry], rng: Rng | None = None) -> dict[str, Any]:
    """The turn for ``seat`` (see the module's docstring): ``host`` is the host's seat, ``feed`` the seat's own
    (:func:`cardtable_web.feed.feed_for`, said for it), ``entries`` the log's entries, ``rng`` the fresh generator
    of the re-deal (None: one from the platform's cryptographic generator)."""
    fresh = rng if rng is not None else Rng.from_seed(secrets.randbits(64))
    payload = {
        "v": LINK_VERSION, "kind": "turn", "table": table, "seat": seat, "turn": state.played,
        "game": state.game, "players": state.players, "options": dict(state.options), "rules": state.version,
        "names": list(names), "host": host, "headline": feed.headline,
        "recent": {str(s): turn for s, turn in feed.view.get("recent", {}).items()},
        "core": cores.write(state.sample_hidden(seat, fresh).core),
    }
    return within_a_link(payload, list(feed.log), log_start(entries, seat))


def within_a_link(payload: dict[str, Any], log: list[str], start: int) -> dict[str, Any]:
    """``payload`` with the log's lines from ``start``, as many of the latest as keep its link shorter than
    :data:`MAX_LINK` characters (the older ones are left out when they do not fit, then each seat's latest turn)."""
    def fits(first: int) -> bool:
        trial = {**payload, "log_start": first, "log": log[first:]}
        return link_length(pack(trial), str(payload["table"]), int(payload["seat"])) < MAX_LINK

    low, high = start, len(log)
    if not fits(high):
        payload = {**payload, "recent": {}}
    while low < high:  # the first line from which the rest fits
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle + 1
    return {**payload, "log_start": low, "log": log[low:]}


# -- a turn as the guest reads it -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    """A turn link's payload, read and checked (see :func:`read_turn`)."""

    table: str
    seat: int
    turn: int
    game: str
    names: tuple[str, ...]
    host: int
    """The host's seat."""
    log_start: int
    log: tuple[str, ...]
    recent: dict[int, list[dict[str, Any]]]
    headline: str
    state: pyengine.State = field(compare=False)
    """The re-dealt position, as a state with no seed and no history."""

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def host_name(self) -> str:
        return self.names[self.host]

    def shown_names(self) -> list[str]:
        """The seats' names as the guest's table shows them (its own seat is "You")."""
        return names_for(list(self.names), self.seat)


def read_turn(payload: dict[str, Any]) -> Turn:
    """A turn payload checked field by field; :class:`LinkRefused` for anything this site does not write."""
    try:
        if payload.get("kind") != "turn":
            raise ValueError("not a turn")
        rules = rules_for(payload["game"])
        players = payload["players"]
        options = check_setup(rules, players, payload["options"])
        seat = _seat(payload["seat"], players)
        version = check_version(rules.info, payload["rules"])
        core = cores.read(cores.core_type(rules.info.id, players), payload["core"])
        state = pyengine.State(rules, players, options, None, core, version=version)
        return Turn(
            table=_text(payload["table"], 40), seat=seat, turn=_count(payload["turn"]), game=rules.info.id,
            names=tuple(_text(name, 40) for name in _list(payload["names"], players)),
            host=_seat(payload["host"], players),
            log_start=_count(payload["log_start"]),
            log=tuple(_text(line, 1_000) for line in _list(payload["log"])),
            recent=_recent(payload["recent"], players), headline=_text(payload["headline"], 300), state=state,
        )
    except LinkRefused:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError):
        raise LinkRefused(BROKEN) from None


def _text(value: object, most: int) -> str:
    if not isinstance(value, str) or len(value) > most:
        raise ValueError("not a short text")
    return value


def _count(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1_000_000:
        raise ValueError("not a count")
    return value


def _seat(value: object, players: int) -> int:
    seat = _count(value)
    if seat >= players:
        raise ValueError("not a seat")
    return seat


def _list(value: object, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length) or len(value) > 1_000:
        raise ValueError("not a list")
    return value


def _recent(value: object, players: int) -> dict[int, list[dict[str, Any]]]:
    if not isinstance(value, dict):
        raise ValueError("not each seat's latest turn")
    recent = {}
    for seat, turn in value.items():
        if not (isinstance(seat, str) and seat.isdigit() and int(seat) < players and isinstance(turn, list)
                and all(isinstance(facts, dict) for facts in turn)):
            raise ValueError("not each seat's latest turn")
        recent[int(seat)] = turn
    return recent


# -- the guest's turn in play -----------------------------------------------------------------------------------
class GuestTurn:
    """A guest's whole turn played on the re-dealt position of its turn link, until the turn passes to another
    seat, the game ends, or a move shows the seat a card (which only the host can deal): then it pauses, and
    :meth:`reply` is what goes back to the host."""

    def __init__(self, turn: Turn, rng: Rng | None = None) -> None:
        self.turn = turn
        self.seat = turn.seat
        self.state = turn.state
        self.shown = turn.state
        """The position the table shows: the latest one that shows nothing the re-deal made up."""
        self.rng = rng if rng is not None else Rng.from_seed(secrets.randbits(64))
        self.actions: list[str] = []
        self.seen: list[str] = []
        self.entries: list[Entry] = []
        """The log's entries of the moves shown here (each seat's latest turn is marked from them)."""
        self.said: list[Entry] = []
        """The log's entries of the moves played here, as the real game says them too: a move that showed a card
        only when its words are the same on every re-deal (else they may hold the made-up card)."""
        self.revealed = False

    @property
    def paused(self) -> bool:
        """Whether the turn waits for the host: a move showed a card, the turn passed, or the game ended."""
        return self.revealed or self.state.current_player != self.seat

    @property
    def decides(self) -> bool:
        return not self.paused

    def play(self, text: str) -> None:
        """Play one move of the seat (``ValueError`` saying why not)."""
        if not self.decides:
            raise pyengine.IllegalAction("it is not your turn")
        before = self.state
        after = before.apply(text)
        if self.actions:
            self.seen.append(digest(seen_by(before, self.seat)))
        self.actions.append(text)
        self.state = after
        redealt = self.redealt_afters(before, text)
        seen = seen_by(after, self.seat)
        self.revealed = any(seen_by(other, self.seat) != seen for other in redealt)
        entry = after.entry()
        if not self.revealed:
            self.shown = after
            if entry is not None:
                self.entries.append(entry)
        if entry is not None and (not self.revealed or all(other.entry() == entry for other in redealt)):
            self.said.append(entry)

    def redealt_afters(self, before: pyengine.State, text: str) -> list[pyengine.State]:
        """``text`` played on :data:`REVEAL_CHECKS` further re-deals of the position before it: where the seat sees
        something else on one of them than on the turn's position, the move showed it a card the re-deal made up."""
        afters = []
        for _ in range(REVEAL_CHECKS):
            fresh, self.rng = self.rng.split()
            afters.append(before.sample_hidden(self.seat, fresh).apply(text))
        return afters

    def recent(self) -> dict[int, list[dict[str, Any]]]:
        """Each seat's latest turn, this turn's moves included."""
        if not self.entries:
            return dict(self.turn.recent)
        return {**self.turn.recent, **recent_turns(self.entries)}

    def reply(self) -> dict[str, Any]:
        """What goes back to the host: the moves' texts and what the seat saw before each after the first."""
        turn = self.turn
        return {"v": LINK_VERSION, "kind": "reply", "table": turn.table, "seat": self.seat, "turn": turn.turn,
                "actions": list(self.actions), "seen": list(self.seen)}


# -- the host takes a reply -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reply:
    table: str
    seat: int
    turn: int
    actions: tuple[str, ...]
    seen: tuple[str, ...]


def read_reply(payload: dict[str, Any]) -> Reply:
    """A reply payload checked field by field; :class:`LinkRefused` for anything this site does not write."""
    try:
        if payload.get("kind") != "reply":
            raise ValueError("not a reply")
        actions = tuple(_text(text, 200) for text in _list(payload["actions"]))
        seen = tuple(_text(text, 20) for text in _list(payload["seen"]))
        seat = payload["seat"]
        if not 0 < len(actions) <= MAX_ACTIONS or len(seen) != len(actions) - 1 or type(seat) is not int:
            raise ValueError("not a reply")
        return Reply(_text(payload["table"], 40), seat, _count(payload["turn"]), actions, seen)
    except (ValueError, TypeError, KeyError):
        raise LinkRefused(BROKEN) from None


def take_reply(state: pyengine.State, reply: Reply, name: str) -> pyengine.State:
    """The game after a guest's reply (its table and seat already checked; ``name`` the seat's name): its moves
    played while the seat's real view is the one the guest chose from. :class:`LinkRefused` says why nothing was
    played: the game is over, the link is old or from a turn never reached, it is not the seat's turn, or a move
    is not possible (then none of them is played)."""
    if state.is_terminal():
        raise LinkRefused("This game is over: this link came after its end, and nothing was played.")
    if reply.turn < state.played:
        raise LinkRefused(f"This link of {name}'s was played already, or the game moved on since: nothing was "
                          "played again.")
    if reply.turn > state.played or state.current_player != reply.seat:
        raise LinkRefused(f"This link is not from {name}'s turn in this game: nothing was played.")
    after = state
    for index, text in enumerate(reply.actions):
        if index and digest(seen_by(after, reply.seat)) != reply.seen[index - 1]:
            break  # the guest chose the rest from a card it had not really drawn: its next link goes on
        if after.current_player != reply.seat:  # a digest that matches says it is the seat's turn: a forgery
            raise LinkRefused(f"This link holds moves after {name}'s turn ended: nothing was played.")
        try:
            after = after.apply(text)
        except ValueError:
            raise LinkRefused(f"This link holds a move {name} cannot make now: nothing was played.") from None
    return after
