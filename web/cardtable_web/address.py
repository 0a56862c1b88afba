"""The address is the game: a session written into the page's address fragment, and read back.

``#game=silver-bars&v=1&players=2&seats=h.ce&seed=5&moves=3.0.a.1b`` holds everything a
record holds, plus who sits where (``h`` a human, ``c`` + the level's first letter a computer),
so the same address opened anywhere shows the same position. Moves are written compactly as the
index of each action among the legal actions at that point (base 36), which the contract keeps
in a deterministic order; options differing from the defaults are JSON.
"""

from __future__ import annotations

import json
from typing import Any

import pyengine
from pyengine.ai import LEVELS
from pyengine.core import read_json
from pyengine.notation import quote as brief

from .session import Session
from .setup import DEFAULT_DELAY_MS, MAX_DELAY_MS, Seat, Setup, parse_seed
from .urls import parse_qsl, urlencode

_LEVEL_BY_LETTER = {name[0]: name for name in LEVELS}
MAX_MOVES = 200_000


def seat_code(seat: Seat) -> str:
    return f"c{seat.level[0]}" if seat.computer else "h"


def encode(session: Session) -> str:
    """The address fragment (without ``#``) of the game on the table."""
    state = session.state
    info = pyengine.GAMES[state.game]
    session.trail.follow(state)
    moves = session.trail.codes
    options = {o.name: state.options[o.name] for o in info.options if state.options[o.name] != o.default}
    fields: list[tuple[str, str]] = [
        ("game", state.game),
        ("v", info.rules_version),
        ("players", str(state.players)),
        ("seats", ".".join(seat_code(s) for s in session.setup.seats)),
        ("seed", str(state.seed)),
    ]
    if options:
        fields.append(("options", json.dumps(options, separators=(",", ":"))))
    if state.position is not None:
        fields.append(("position", json.dumps(state.position, separators=(",", ":"), ensure_ascii=False)))
    if session.setup.delay != DEFAULT_DELAY_MS:
        fields.append(("delay", str(session.setup.delay)))
    if state.takebacks:
        fields.append(("takebacks", str(state.takebacks)))
    fields.append(("moves", ".".join(moves)))
    return urlencode(fields, safe=".,:{}[]\"")


def decode(fragment: str) -> Session:
    """The session an address fragment describes; ``ValueError`` naming what is wrong."""
    if not isinstance(fragment, str) or len(fragment) > 2_000_000:
        raise ValueError("this address is not a game")
    fields = dict(parse_qsl(fragment.lstrip("#")))
    game = fields.get("game")
    if game not in pyengine.GAMES:
        raise ValueError(f"this address names no game of this site ({brief(game or '')})")
    info = pyengine.GAMES[game]
    if fields.get("v") != info.rules_version:
        raise ValueError(f"this address was made for another version of the rules of {info.title}")
    try:
        players = int(fields.get("players", ""))
    except ValueError:
        raise ValueError("the address's number of players is not a number") from None
    codes = fields.get("seats", "").split(".")
    if len(codes) != players:
        raise ValueError("the address's seats do not match its number of players")
    seats = []
    for code in codes:
        if code == "h":
            seats.append(Seat(False))
        elif len(code) == 2 and code[0] == "c" and code[1] in _LEVEL_BY_LETTER:
            seats.append(Seat(True, _LEVEL_BY_LETTER[code[1]]))
        else:
            raise ValueError(f"the address's seat {brief(code)} is neither a human nor a computer level")
    seed = parse_seed(fields.get("seed", ""))
    options = read_json(fields["options"], "options") if "options" in fields else {}
    position = read_json(fields["position"], "position") if "position" in fields else None
    delay = fields.get("delay", str(DEFAULT_DELAY_MS))
    if not (delay.isdigit() and len(delay) <= 5 and int(delay) <= MAX_DELAY_MS):
        raise ValueError("the address's delay is not 0 to 10000 milliseconds")
    state = pyengine.new_game(game, players, seed, options, position)
    takebacks = fields.get("takebacks", "0")
    if not (takebacks.isdigit() and len(takebacks) < 7):
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
    setup = Setup(game, players, seed, seats, dict(state.options), int(delay))
    session = Session(setup, state)
    return session


def _from_base36(code: str) -> int | None:
    if not code or len(code) > 4 or not code.isalnum() or not code.isascii():
        return None
    return int(code.lower(), 36)


def describe_save(session: Session) -> dict[str, Any]:
    """What the lobby shows of a kept game without Python: its title, who plays, how far it went."""
    state = session.state
    info = session.info
    computers = [s for s in session.setup.seats if s.computer]
    humans = len(session.setup.seats) - len(computers)
    if not computers:
        against = "solo" if humans == 1 else f"{humans} players on this device"
    else:
        levels = sorted({s.level for s in computers}, key=list(LEVELS).index)
        against = ("against " if humans else "") + (
            "Computer" if len(computers) == 1 else f"{len(computers)} computers"
        ) + f" ({', '.join(levels)})"
    view = state.view(None)
    progress = f"round {view['round']}" if isinstance(view.get("round"), int) else f"move {len(state.history())}"
    return {"title": info.title, "against": against, "progress": progress}
