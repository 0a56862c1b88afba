"""The address is the game: a session written into the page's address fragment, and read back.

``#game=silver-bars&v=1&players=2&seed=5&bots=1&level=easy&moves=3.0.a.1b`` holds everything a record holds,
plus who sits where, so the same address opened anywhere shows the same position. Its setup is written as an
address's query writes it (:mod:`cardtable_web.setup` reads both, and fragments written before, with
``seats=h.ce`` and ``options={...}``); then the rules' version ``v``, a ``position`` (JSON) when the game started
from one, ``takebacks`` and the moves. Moves are written compactly as the index of each action among the legal
actions at that point (base 36), which the contract keeps in a deterministic order; only options differing from
the defaults are written.
"""

from __future__ import annotations

import json

import pyengine
from pyengine.core import read_json

from .session import Session
from .setup import DEFAULT_DELAY_MS, digits, option_text, query_fields, read_fields, read_setup
from .urls import urlencode

MAX_MOVES = 200_000
MAX_FRAGMENT = 2_000_000
FRAGMENT_PARAMS = ("v", "position", "takebacks", "moves")
"""The fragment's parameters besides its setup's."""


def encode(session: Session) -> str:
    """The address fragment (without ``#``) of the game on the table."""
    state = session.state
    info = pyengine.GAMES[state.game]
    session.trail.follow(state)
    moves = session.trail.codes
    fields: list[tuple[str, str]] = [
        ("game", state.game),
        ("v", info.rules_version),
        ("players", str(state.players)),
        ("seed", str(state.seed)),
    ]
    computers = [(i, s.level) for i, s in enumerate(session.setup.seats) if s.computer]
    if computers:
        level = computers[0][1]
        fields.append(("bots", ",".join(f"{i}:{own}" if own != level else str(i) for i, own in computers)))
        fields.append(("level", level))
    fields += [(o.name, option_text(state.options[o.name])) for o in info.options
               if state.options[o.name] != o.default]
    if session.setup.delay != DEFAULT_DELAY_MS:
        fields.append(("delay", str(session.setup.delay)))
    if state.position is not None:
        fields.append(("position", json.dumps(state.position, separators=(",", ":"), ensure_ascii=False)))
    if state.takebacks:
        fields.append(("takebacks", str(state.takebacks)))
    fields.append(("moves", ".".join(moves)))
    return urlencode(fields, safe=".,:{}[]\"")


def decode(fragment: str) -> Session:
    """The session an address fragment describes; ``ValueError`` naming what is wrong."""
    if not isinstance(fragment, str) or len(fragment) > MAX_FRAGMENT:
        raise ValueError("this address is not a game")
    fields = query_fields(fragment)
    settings, problems = read_fields(fields, None, FRAGMENT_PARAMS)
    if not settings:
        raise ValueError(f"this address names no game of this site: {problems[0]}")
    info = pyengine.GAMES[settings["game"]]
    if fields.get("v") != info.rules_version:
        raise ValueError(f"this address was made for another version of the rules of {info.title}")
    if problems:
        raise ValueError("; ".join(problems))
    setup = read_setup(settings)
    position = read_json(fields["position"], "position") if "position" in fields else None
    state = pyengine.new_game(setup.game, setup.players, setup.seed, setup.options, position)
    takebacks = fields.get("takebacks", "0")
    if not digits(takebacks, 6):
        raise ValueError("the address's take-back count is not a number")
    state = state.with_takebacks(int(takebacks))
    moves = [m for m in fields.get("moves", "").split(".") if m]
    if len(moves) > MAX_MOVES:
        raise ValueError("the address holds too many moves")
    for step, code in enumerate(moves):
        legal = state.legal_texts()
        index = _from_base36(code)
        if index is None or index >= len(legal):
            raise ValueError(f"move {step + 1} of the address is not a legal move")
        state = state.apply(legal[index])
    setup.options = dict(state.options)
    return Session(setup, state)


def _from_base36(code: str) -> int | None:
    if not code or len(code) > 4 or not code.isalnum() or not code.isascii():
        return None
    return int(code.lower(), 36)
