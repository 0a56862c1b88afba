"""A game at the table, the model behind the page: seats (human or computer), whose screen
it is, acting, and saving. It writes no HTML (:mod:`cardtable_web.drawing` does) and knows
nothing of the DOM (:mod:`cardtable_web.shell`), so it runs and is tested under CPython.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pyengine
from pyengine.ai import Bot, make_bot
from pyengine.core import read_json
from pyengine.rng import fresh_seed
from pyengine.takeback import take_back, take_back_point
from pyengine.words import say

from .feed import SeatFeed, feed_for, sentence
from .selection import Selection, encode, toggled
from .setup import Setup
from .trail import Trail

THINK_AWAY = frozenset({"normal", "hard"})
"""Levels whose search runs in the computer's worker once it is ready (easy's few iterations stay in the page,
thinking in short slices)."""


HINT_LEVEL = "normal"
"""The computer level that suggests a move to a human."""


@dataclass(frozen=True)
class Hint:
    """A suggested move: its action text, the selection to make first (a two-step move) and its words."""

    action: str
    select: Selection | None
    words: str


class Session:
    """One game in progress with its seats and the screen's point of view."""

    def __init__(self, setup: Setup, state: pyengine.State | None = None, secret: int | None = None) -> None:
        self.setup = setup
        self.state = state or pyengine.new_game(setup.game, setup.players, setup.seed, setup.options)
        self.secret = fresh_seed() if secret is None else secret
        """The computer seats' own secret (and the suggestions'): their draws never come from the deal's seed,
        so nobody who learns the seed can foresee their moves."""
        self.humans = [i for i, s in enumerate(setup.seats) if not s.computer]
        self.names = setup.seat_names()
        self.bots: dict[int, Bot] = {
            i: make_bot(s.level, self.bot_seed(i)) for i, s in enumerate(setup.seats) if s.computer
        }
        self.selection: Selection | None = None
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        """The seat whose cards are on screen (None: nobody's, e.g. behind the hand-over screen)."""
        self.message: str = ""
        self.advice: str = ""
        """A polite note beside the table: why a click was refused, or the suggested move (cleared by any click)."""
        self.hint: Hint | None = None
        self.hints = 0
        """How many suggestions this game asked for (each gets its own seed)."""
        self.trail = Trail(self.say)
        """The game's moves written, coded and said once each (see :mod:`cardtable_web.trail`)."""
        self.table = ""
        """The table's name its sealed address gives instead of the seed (drawn when it is first kept)."""
        self.counted = (state is None or state.position is None) and not setup.chosen
        """Whether the game counts in the statistics: not when its deal was chosen (a typed seed) or came from a
        link that showed it (the hidden cards could be known), or from a position."""

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
        self.clear_advice()
        if len(self.humans) > 1 and self.state.current_player in self.humans and self.state.current_player != seat:
            self.viewer = None  # hand the device over before the next human's cards appear

    def bot_seed(self, seat: int) -> int:
        """The seed of a computer seat's player (the same in the page and in the worker)."""
        return self.secret * 31 + seat

    def thinks_away(self, seat: int) -> bool:
        """Whether this computer seat's search belongs in the worker (see ``THINK_AWAY``)."""
        return self.setup.seats[seat].computer and self.setup.seats[seat].level in THINK_AWAY

    def think_request(self, seat: int) -> str:
        """The worker's request for this seat's decision (:meth:`pyengine.thinker.Thinker.decide`)."""
        return json.dumps({"record": self.record(), "bot": self.setup.seats[seat].level, "seed": self.bot_seed(seat)})

    def computer_move(self, action: Any) -> None:
        self.state = self.state.apply(action)
        self.selection = None
        self.clear_advice()
        if len(self.humans) > 1 and self.state.current_player in self.humans:
            self.viewer = None

    # -- take-backs -----------------------------------------------------------------------
    def take_back_seat(self) -> int | None:
        """The human who would take back now: the one on screen, or the only human."""
        if self.viewer is not None and not self.setup.seats[self.viewer].computer:
            return self.viewer
        return self.you

    def can_take_back(self) -> bool:
        seat = self.take_back_seat()
        return seat is not None and take_back_point(self.state, seat, self.computers) is not None

    def take_back(self) -> None:
        """Return the human to their previous decision (``ValueError`` saying why not; see pyengine.takeback)."""
        seat = self.take_back_seat()
        if seat is None:
            raise ValueError("nothing to take back")
        point = take_back(self.state, seat, self.computers)
        self.state = point.with_takebacks(self.state.takebacks + 1)
        self.selection = None
        self.message = ""
        self.clear_advice()
        self.viewer = seat

    @property
    def computers(self) -> set[int]:
        return {i for i, s in enumerate(self.setup.seats) if s.computer}

    def select(self, chosen: Selection) -> None:
        """A click on a selection (a card before its target; clicked again, it is dropped); it keeps a
        suggestion only when it follows it."""
        self.selection = toggled(self.selection, chosen)
        self.message = ""  # a tap that works ends a refusal's message
        if self.hint is None or self.hint.select != chosen or self.selection is None:
            self.clear_advice()

    def hint_target(self) -> tuple[str, str] | None:
        """The suggested choice to highlight: its attribute and value (the selection to make first, else the
        move itself)."""
        if self.hint is None:
            return None
        select = self.hint.select
        if select and self.selection != select:
            return "data-select", encode(select)
        return "data-action", self.hint.action

    def clear_advice(self) -> None:
        """Any click or move ends a suggestion and a refusal's reason."""
        self.advice = ""
        self.hint = None

    # -- help for the human who decides --------------------------------------------------------
    def why_not(self, facts_json: str) -> str:
        """Why the move a click tried (its facts as JSON, from the table's ``data-try``) is refused, in words;
        ``ValueError`` for facts no move has (a renderer's mistake)."""
        self.clear_advice()
        self.message = ""  # one message at a time: the reason replaces an earlier refusal
        if self.computer_to_move():
            return "Please wait: the computer is playing."
        if not self.decides_now():
            return "It is not your turn."
        reason = self.state.why_not(read_json(facts_json, "move's facts"), self.viewer)
        self.advice = sentence(reason) if reason else ""
        return self.advice

    def hint_search(self) -> tuple[Bot, pyengine.State]:
        """The computer that suggests a move and what it may look at: the deciding human's own view, as a
        state whose hidden cards are re-dealt at random (never the real hidden cards)."""
        seat = self.state.current_player
        if seat is None or not self.decides_now():
            raise ValueError("there is no decision of yours to suggest")
        self.hints += 1
        seed = self.secret * 97 + self.state.played * 13 + self.hints
        return make_bot(HINT_LEVEL, seed), self.state.sample_hidden(seat, seed)

    # -- what the screen shows ---------------------------------------------------------------
    @property
    def you(self) -> int | None:
        """The seat of the person at the screen when exactly one human plays (log lines say "you")."""
        return self.humans[0] if len(self.humans) == 1 else None

    def decides_now(self) -> bool:
        """Whether the seat on screen is a human whose decision it is."""
        seat = self.viewer
        return seat is not None and self.state.current_player == seat and not self.setup.seats[seat].computer

    def feed(self) -> SeatFeed:
        """What this device's screen receives (:func:`cardtable_web.feed.feed_for`): the shown seat's view, its
        moves only when it decides now, the seats named as this screen names them (:meth:`shown_names`)."""
        return feed_for(self.state, self.names, self.computers, self.viewer, self.you, self.trail,
                        offer=self.decides_now(), shown_names=self.shown_names())

    def shown_names(self) -> list[str]:
        """The seats' names as this device's table shows them: the names the players gave (an unnamed player at
        the screen is "You" already, :meth:`~cardtable_web.setup.Setup.seat_names`)."""
        return list(self.names)

    def screen_view(self) -> dict[str, Any]:
        """The view the renderer draws (the shown seat's, see :meth:`feed`)."""
        return self.feed().view

    def say(self, text: str) -> str:
        """A text with seat placeholders (a log entry, a headline) in words for this table."""
        return say(text, self.names, self.you)

    def log_lines(self) -> list[str]:
        """The whole public log, in words."""
        self.trail.follow(self.state)
        return self.trail.said

    def record(self) -> dict[str, Any]:
        """The game's record (its actions written once each, as the game went)."""
        self.trail.follow(self.state)
        return self.state.record(list(self.trail.texts))
