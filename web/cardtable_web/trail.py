"""A game followed move by move: its action texts, address codes, log lines and each seat's latest turn,
each made once.

The page redraws after every move; remaking the whole record, address and log each time would cost
more with every move of a long game. A :class:`Trail` keeps them and, when the game has moved on,
adds only the new moves (a take-back or another game starts it afresh).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyengine
from pyengine.words import Entry


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if number == 0:
            return text


def recent_turns(entries: Sequence[Entry]) -> dict[int, list[dict[str, Any]]]:
    """Each seat's latest turn in a log: the facts of the longest run of consecutive entries of that seat
    that ends at its last entry (what ``view["recent"]`` shows, so the table marks the last moves)."""
    recent: dict[int, list[dict[str, Any]]] = {}
    previous: int | None = None
    for entry in entries:
        _note_turn(recent, previous, entry)
        previous = entry.seat
    return recent


def _note_turn(recent: dict[int, list[dict[str, Any]]], previous: int | None, entry: Entry) -> None:
    """Add ``entry`` to its seat's latest turn (a new turn when the entry before it was another's)."""
    if entry.seat is not None:
        if entry.seat != previous:
            recent[entry.seat] = []
        recent[entry.seat].append(dict(entry.facts))


class Trail:
    """The moves of a game so far: ``texts`` (its record's actions), ``codes`` (its address's moves), ``said``
    (its log lines in words), ``entries`` (its log entries) and ``recent`` (each seat's latest turn)."""

    def __init__(self, say: Callable[[str], str]) -> None:
        self.say = say
        self.state: pyengine.State | None = None
        self.texts: list[str] = []
        self.codes: list[str] = []
        self.said: list[str] = []
        self.entries: list[Entry] = []
        self.recent: dict[int, list[dict[str, Any]]] = {}
        """Each seat's latest turn: the facts of its log entries in order, a turn being the longest run of
        consecutive entries of that seat that ends at its last entry (what ``view["recent"]`` shows)."""
        self.resets = 0
        """How often the trail started afresh (the page rebuilds its log then)."""

    def follow(self, state: pyengine.State) -> None:
        """Catch up with ``state``: only its new moves are written, coded and said."""
        if state is self.state:
            return
        steps = state.steps_since(self.state) if self.state is not None else None
        if steps is None:
            self.texts, self.codes, self.said, self.entries, self.recent = [], [], [], [], {}
            self.resets += 1
            steps = state.history()
        for before, action in steps:
            text = str(action)
            self.texts.append(text)
            self.codes.append(base36(before.index_of(action)))
        node_entries = [after.entry() for after in _afters(state, len(steps))]
        for entry in node_entries:
            assert entry is not None
            _note_turn(self.recent, self.entries[-1].seat if self.entries else None, entry)
            self.entries.append(entry)
            self.said.append(self.say(entry.text))
        self.state = state


def _afters(state: pyengine.State, count: int) -> list[pyengine.State]:
    """The last ``count`` states up to ``state`` (each made by one of the new moves), oldest first."""
    found: list[pyengine.State] = []
    node = state
    for _ in range(count):
        found.append(node)
        parent = node.history_parent()
        assert parent is not None
        node = parent
    found.reverse()
    return found
