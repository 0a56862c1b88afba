"""A game's setup: which game, how many players, the seed, who sits where (a human or a computer at a
level), the options and the computer's pace. One reader for every way a setup arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pyengine
from pyengine.ai import DEFAULT_LEVEL, LEVELS
from pyengine.core import read_json
from pyengine.notation import quote

DEFAULT_DELAY_MS = 600
MAX_DELAY_MS = 10_000

@dataclass(frozen=True)
class Seat:
    """One seat: a human, or a computer at a level."""

    computer: bool
    level: str = "normal"

    def name(self, index: int, humans: int) -> str:
        if self.computer:
            return f"Computer {index + 1} ({self.level})"
        return "You" if humans == 1 else f"Player {index + 1}"


@dataclass
class Setup:
    """What the lobby (or the address) asks for."""

    game: str
    players: int
    seed: int
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)

    delay: int = DEFAULT_DELAY_MS
    """The pause before each computer move, in milliseconds."""

    @staticmethod
    def from_json(text: str) -> Setup:
        """A setup from the lobby's JSON; ``ValueError`` with one short message for the player."""
        data = read_json(text, "game settings")
        if not isinstance(data, dict):
            raise ValueError("the game settings must be an object")
        game = data.get("game")
        if not isinstance(game, str) or game not in pyengine.GAMES:
            raise ValueError(f"there is no game called {quote(game)}; the games are: {', '.join(pyengine.GAMES)}")
        info = pyengine.GAMES[game]
        players = pyengine.core.check_players(info, data.get("players", info.min_players))
        seed = parse_seed(data.get("seed"))
        bots = data.get("bots", [])
        if not isinstance(bots, list) or not all(whole(b) and 0 <= b < players for b in bots):
            raise ValueError(f"computer seats must be seat numbers from 0 to {players - 1}")
        if len(set(bots)) != len(bots):
            raise ValueError("a computer seat is listed twice")
        level = data.get("level", DEFAULT_LEVEL)
        levels = data.get("levels") or {}
        if not isinstance(levels, dict):
            raise ValueError("levels must be an object")
        seats = []
        for i in range(players):
            seat_level = levels.get(str(i), level)
            if not isinstance(seat_level, str) or seat_level not in LEVELS:
                got = quote(str(seat_level))
                raise ValueError(f"the computer's level must be one of {', '.join(LEVELS)}; got {got}")
            seats.append(Seat(computer=i in bots, level=seat_level))
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        pyengine.core.check_setup(pyengine.core.rules_for(game), players, options)
        delay = data.get("delay", DEFAULT_DELAY_MS)
        if not whole(delay) or not 0 <= delay <= MAX_DELAY_MS:
            raise ValueError(f"the computer's pause (delay) must be 0 to {MAX_DELAY_MS} milliseconds")
        return Setup(game, players, seed, seats, options, delay)


def whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_seed(value: object) -> int:
    """A seed: a whole number, given as a number or as decimal digits (at most 30, optionally signed)."""
    if whole(value) and abs(value) < 10**30:  # type: ignore[arg-type]
        return int(value)  # type: ignore[arg-type]
    if isinstance(value, str) and 0 < len(value.lstrip("-")) <= 30 and value.lstrip("-").isdigit() and value.isascii():
        return int(value)
    raise ValueError(f"the seed must be a whole number of at most 30 digits; got {quote(str(value))}")
