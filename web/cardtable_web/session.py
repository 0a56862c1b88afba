"""A game at the table, the model behind the page: seats (human or computer), whose screen
it is, acting, and saving. It writes no HTML (:mod:`cardtable_web.drawing` does) and knows
nothing of the DOM (:mod:`cardtable_web.shell`), so it runs and is tested under CPython.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pyengine
from pyengine.ai import BOT_NAMES, LEVELS, Bot, make_bot
from pyengine.words import say


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

    @staticmethod
    def from_json(text: str) -> Setup:
        """A setup from the lobby's JSON; ``ValueError`` with a message for the player."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the game settings are not readable: {exc}") from None
        game = data.get("game")
        if game not in pyengine.GAMES:
            raise ValueError(f"unknown game {game!r}; the games are: {', '.join(pyengine.GAMES)}")
        info = pyengine.GAMES[game]
        players = data.get("players", info.min_players)
        if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
            raise ValueError(f"{info.title} takes {info.min_players} to {info.max_players} players; got {players!r}")
        seed = data.get("seed")
        if not isinstance(seed, int):
            raise ValueError(f"the seed must be a whole number; got {seed!r}")
        level = data.get("level", "normal")
        bots = data.get("bots", [])
        if not isinstance(bots, list) or not all(isinstance(b, int) and 0 <= b < players for b in bots):
            raise ValueError(f"bots must list computer seats between 0 and {players - 1}; got {bots!r}")
        levels = data.get("levels") or {}
        seats = []
        for i in range(players):
            seat_level = levels.get(str(i), level)
            if seat_level not in LEVELS:
                raise ValueError(f"level must be one of {', '.join(LEVELS)}; got {seat_level!r}")
            seats.append(Seat(computer=i in bots, level=seat_level))
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        return Setup(game, players, seed, seats, options)


class Session:
    """One game in progress with its seats and the screen's point of view."""

    def __init__(self, setup: Setup, state: pyengine.State | None = None) -> None:
        self.setup = setup
        self.state = state or pyengine.new_game(setup.game, setup.players, setup.seed, setup.options)
        self.humans = [i for i, s in enumerate(setup.seats) if not s.computer]
        self.names = [s.name(i, len(self.humans)) for i, s in enumerate(setup.seats)]
        self.bots: dict[int, Bot] = {
            i: make_bot(s.level, setup.seed * 31 + i) for i, s in enumerate(setup.seats) if s.computer
        }
        self.selection: str | None = None
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        """The seat whose cards are on screen (None: nobody's, e.g. behind the hand-over screen)."""
        self.message: str = ""

    # -- whose screen -------------------------------------------------------------------
    @property
    def info(self) -> pyengine.GameInfo:
        return pyengine.GAMES[self.setup.game]

    def computer_to_move(self) -> bool:
        seat = self.state.current_player
        return seat is not None and self.setup.seats[seat].computer

    def needs_handover(self) -> bool:
        """True when a human must take the device before their cards are shown."""
        seat = self.state.current_player
        if seat is None or self.setup.seats[seat].computer:
            return False
        return seat != self.viewer

    def take_device(self) -> None:
        """The deciding human has the device: show their cards."""
        self.viewer = self.state.current_player
        self.selection = None

    # -- actions --------------------------------------------------------------------------
    def act(self, text: str) -> None:
        """A human's click on an action; ``IllegalAction`` (a ValueError) if it is not theirs to make."""
        seat = self.state.current_player
        if seat is None:
            raise pyengine.IllegalAction("the game is over")
        if seat != self.viewer or self.setup.seats[seat].computer:
            raise pyengine.IllegalAction("it is not your turn")
        self.state = self.state.apply(text)
        self.selection = None
        self.message = ""
        if len(self.humans) > 1 and self.state.current_player in self.humans and self.state.current_player != seat:
            self.viewer = None  # hand the device over before the next human's cards appear

    def computer_move(self, action: Any) -> None:
        self.state = self.state.apply(action)
        self.selection = None
        if len(self.humans) > 1 and self.state.current_player in self.humans:
            self.viewer = None

    def select(self, token: str) -> None:
        self.selection = None if self.selection == token else token

    # -- what the screen shows ---------------------------------------------------------------
    @property
    def you(self) -> int | None:
        """The seat of the person at the screen when exactly one human plays (log lines say "you")."""
        return self.humans[0] if len(self.humans) == 1 else None

    def decides_now(self) -> bool:
        """Whether the seat on screen is a human whose decision it is."""
        seat = self.viewer
        return seat is not None and self.state.current_player == seat and not self.setup.seats[seat].computer

    def screen_view(self) -> dict[str, Any]:
        """The view the renderer draws: the shown seat's view only, with the seats' names."""
        view = self.state.view(self.viewer)
        if not self.decides_now():
            view["moves"] = {}
        view["names"] = self.names
        view["you"] = self.you
        return view

    def say(self, text: str) -> str:
        """A text with seat placeholders (a log entry, a headline) in words for this table."""
        return say(text, self.names, self.you)

    def log_lines(self) -> list[str]:
        """The whole public log, in words."""
        return [self.say(entry.text) for entry in self.state.log()]

    def saved(self) -> str:
        """JSON that resumes this game after a reload."""
        return json.dumps(
            {
                "record": self.state.record(),
                "seats": [{"computer": s.computer, "level": s.level} for s in self.setup.seats],
                "viewer": self.viewer,
            }
        )

    @staticmethod
    def resume(text: str) -> Session:
        """The session saved by :meth:`saved`; ``ValueError`` if it does not replay."""
        data = json.loads(text)
        state = pyengine.replay(data["record"])
        seats = [Seat(bool(s["computer"]), s.get("level", "normal")) for s in data["seats"]]
        if len(seats) != state.players or any(s.level not in BOT_NAMES for s in seats):
            raise ValueError("the saved seats do not match the saved game")
        setup = Setup(state.game, state.players, int(state.seed or 0), seats, dict(state.options))
        session = Session(setup, state)
        viewer = data.get("viewer")
        if len(session.humans) == 1 and viewer == session.humans[0]:
            session.viewer = viewer  # with several humans, the device is handed over again
        return session
