"""The log's words: entries with seat placeholders, and the one place that turns them into sentences.

An engine writes a log entry's text with a placeholder for each seat it names, by seat
number, so the same entry reads right whoever looks at it:

- ``{1}``: the seat's name ("Computer 2", or "you" for the person at the screen);
- ``{1:poss}``: its possessive ("Computer 2's", "your");
- ``{1:their}``: its possessive when the seat was just named ("their", "your");
- ``{1:wins}``: any other word after the colon is a verb in the third person singular,
  which agrees with the seat ("Computer 2 wins", "you win").

:func:`say` resolves a text for a list of seat names and the seat that is "you" (if any);
the first letter of each sentence is capitalised.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were", "goes": "go"}
_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([a-z])")


def base_form(verb: str) -> str:
    """The verb's form after "you": ``wins`` → ``win``, ``passes`` → ``pass``, ``carries`` → ``carry``."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(index: int) -> str:
    """The 0-based ``index`` as a word counted from one: 0 → ``first``, 3 → ``fourth``."""
    return ORDINALS[index] if 0 <= index < len(ORDINALS) else f"number {index + 1}"


def listed(items: Sequence[str], conjunction: str = "and") -> str:
    """Items in a sentence: ``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def seat_names(players: int) -> list[str]:
    """The names seats have when nobody named them: Player 1, Player 2, ..."""
    return [f"Player {seat + 1}" for seat in range(players)]


class _Grammar(string.Formatter):
    def __init__(self, names: Sequence[str], you: int | None) -> None:
        self.names = names
        self.you = you

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        seat = int(key)
        if not 0 <= seat < len(self.names):
            return f"seat {seat + 1}"
        return seat

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, str):
            return value
        you = value == self.you
        name = self.names[value]
        if not format_spec:
            return "you" if you else name
        if format_spec == "poss":
            return "your" if you else f"{name}'s"
        if format_spec == "their":
            return "your" if you else "their"
        return base_form(format_spec) if you else format_spec


def say(text: str, names: Sequence[str], you: int | None = None) -> str:
    """``text`` with its seat placeholders resolved for ``names``, seen by seat ``you``."""
    resolved = _Grammar(names, you).format(text)
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), resolved)


def plain(text: object) -> str:
    """Text made safe to put in an entry's template (braces doubled)."""
    return str(text).replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class Entry:
    """One line of the public log: who acted (None: the game itself), the text and its facts."""

    seat: int | None
    text: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "text": self.text, "facts": dict(self.facts)}

    def say(self, names: Sequence[str], you: int | None = None) -> str:
        return say(self.text, names, you)
