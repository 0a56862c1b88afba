"""The address is the game: a session written into the page's address fragment, and read back.

``#game=silver-bars&v=1&players=2&seed=5&bots=1&level=easy&moves=3.0.a.1b`` holds everything a record holds,
plus who sits where, so the same address opened anywhere shows the same position. Its setup is written as an
address's query writes it (:mod:`cardtable_web.setup` reads both, and fragments written before, with
``seats=h.ce`` and ``options={...}``); then the rules' version ``v``, a ``position`` (JSON) when the game started
from one, ``takebacks`` and the moves. Moves are written compactly as the index of each action among the legal
actions at that point (base 36), which the contract keeps in a deterministic order; only options differing from
the defaults are written.

The address of a game being played is *sealed* (:func:`sealed`): it names the table (``table=k3f9a1c2b7``, a
random name drawn on this device) instead of the seed, so that nobody who reads the address bar can deal the cards
again and see the hidden ones, or run the computer's player to foresee its moves. The seed stays with the kept game
in this browser's storage, which :func:`decode` asks (its ``deals``) for a sealed address. A full address, seed
and all, is made only for Share and for finished games.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyengine
from pyengine.core import read_json

from .session import Session
from .setup import DEFAULT_DELAY_MS, digits, option_text, query_fields, read_fields, read_setup, seat_fields
from .urls import urlencode

MAX_FRAGMENT = 2_000_000
FRAGMENT_PARAMS = ("v", "position", "takebacks", "moves", "table")
"""The fragment's parameters besides its setup's."""
TABLE_NAME = re.compile(r"[0-9a-z]{6,16}")
"""A table's name in a sealed address (drawn at random on the device that keeps its deal)."""


def new_table_name() -> str:
    """A fresh table's name: random, so that it tells nothing of the deal."""
    return secrets.token_hex(5)


@dataclass(frozen=True)
class Deal:
    """What this device keeps of a sealed address's table: the seed, the position the game started from (if
    any: it may show hidden cards too), and whether the game counts in the statistics (not when it came from a
    link that showed its deal, or from a position)."""

    seed: int
    counted: bool
    position: dict[str, Any] | None = None


def encode(session: Session) -> str:
    """The full address fragment (without ``#``) of the game: its seed and moves, enough to replay it anywhere."""
    return _fragment(session, sealed=False)


def sealed(session: Session) -> str:
    """The address of a game being played on this device: its table's name instead of its seed and the position
    it started from (the full address when the game has no table name)."""
    return _fragment(session, sealed=bool(session.table))


def _fragment(session: Session, sealed: bool) -> str:
    state = session.state
    info = pyengine.GAMES[state.game]
    session.trail.follow(state)
    moves = session.trail.codes
    fields: list[tuple[str, str]] = [
        ("game", state.game),
        ("v", state.version),
        ("players", str(state.players)),
        ("table", session.table) if sealed else ("seed", str(state.seed)),
    ]
    fields += seat_fields(session.setup.seats)
    fields += [(o.name, option_text(state.options[o.name])) for o in info.options
               if state.options[o.name] != o.default]
    if session.setup.delay != DEFAULT_DELAY_MS:
        fields.append(("delay", str(session.setup.delay)))
    if state.position is not None and not sealed:
        fields.append(("position", json.dumps(state.position, separators=(",", ":"), ensure_ascii=False)))
    if state.takebacks:
        fields.append(("takebacks", str(state.takebacks)))
    fields.append(("moves", ".".join(moves)))
    return urlencode(fields, safe=".,:{}[]\"")


def decode(fragment: str, deals: Callable[[str], Deal | None] | None = None) -> Session:
    """The session an address fragment describes; ``ValueError`` naming what is wrong. A sealed address's deal
    comes from ``deals`` (this browser's kept games), and the session keeps its table's name."""
    if not isinstance(fragment, str) or len(fragment) > MAX_FRAGMENT:
        raise ValueError("this address is not a game")
    fields = query_fields(fragment)
    deal = _deal(fields, deals)
    settings, problems = read_fields(fields, None if deal is None else deal.seed, FRAGMENT_PARAMS)
    if not settings:
        raise ValueError(f"this address names no game of this site: {problems[0]}")
    info = pyengine.GAMES[settings["game"]]
    version = fields.get("v")
    if version != info.rules_version and version not in info.earlier_versions:
        raise ValueError(f"this address was made for another version of the rules of {info.title}")
    if problems:
        raise ValueError("; ".join(problems))
    setup = read_setup(settings)
    position = read_json(fields["position"], "position") if "position" in fields else None
    if deal is not None:
        position = deal.position
    state = pyengine.new_game(setup.game, setup.players, setup.seed, setup.options, position, version)
    takebacks = fields.get("takebacks", "0")
    if not digits(takebacks, 6):
        raise ValueError("the address's take-back count is not a number")
    state = state.with_takebacks(int(takebacks))
    moves = [m for m in fields.get("moves", "").split(".") if m]
    if len(moves) > info.max_actions(setup.players):  # no game of these rules lasts that long
        raise ValueError(f"the address holds more moves than a game of {info.title} can last")
    for step, code in enumerate(moves):
        legal = state.legal_actions()
        index = _from_base36(code)
        if index is None or index >= len(legal):
            raise ValueError(f"move {step + 1} of the address is not a legal move")
        state = state.apply(legal[index])
    setup.options = dict(state.options)
    session = Session(setup, state)
    if deal is not None:
        session.table, session.counted = fields["table"], deal.counted
    return session


def _deal(fields: dict[str, str], deals: Callable[[str], Deal | None] | None) -> Deal | None:
    """The kept deal of a sealed address (None for a full one); ``ValueError`` when this browser has none."""
    if "seed" in fields or "table" not in fields:
        return None
    name = fields["table"]
    deal = deals(name) if deals is not None and TABLE_NAME.fullmatch(name) else None
    if deal is None:
        raise ValueError("this game's deal is kept only in the browser where it was played: there, Share gives "
                         "an address that opens it anywhere")
    return deal


def _from_base36(code: str) -> int | None:
    if not code or len(code) > 4 or not code.isalnum() or not code.isascii():
        return None
    return int(code.lower(), 36)
