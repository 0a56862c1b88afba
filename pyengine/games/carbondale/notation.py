"""Carbondale's actions: one value per kind, each written and read by its one form of :data:`NOTATION`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ...notation import CARD, INT, Form, Notation, Slot, one_based, words

DIRECTIONS = (("north", 0, 1), ("east", 1, 0), ("south", 0, -1), ("west", -1, 0))
"""The four ways to build from a source card (x grows east, y north)."""
STEP = {name: (dx, dy) for name, dx, dy in DIRECTIONS}


class _Written:
    """An action's text is its notation, ``NOTATION.write(action)``, made once per value and kept on it."""

    __slots__ = ()

    def __str__(self) -> str:
        memo = self.__dict__
        text: str | None = memo.get("_text")
        if text is None:
            text = memo["_text"] = _WRITERS[type(self)](self)
        return text


@dataclass(frozen=True)
class Claim(_Written):
    """Rule 19: challenge for the vulnerable ``target`` at (x, y) of ``owner`` with ``challenge``."""

    target: Card
    x: int
    y: int
    owner: int
    challenge: Card


@dataclass(frozen=True)
class Defend(_Written):
    """Rule 20: the owner answers the challenge with ``card``."""

    card: Card


@dataclass(frozen=True)
class Decline(_Written):
    """Rule 22: the owner lets the claimed card go."""


@dataclass(frozen=True)
class Build(_Written):
    """Rule 14: place ``card`` at (x, y), ``direction`` of the black ``source`` card it is built from."""

    card: Card
    x: int
    y: int
    direction: str
    source: Card


@dataclass(frozen=True)
class Contribute(_Written):
    """Rule 14: the card given to the communal stock after a build."""

    card: Card


@dataclass(frozen=True)
class Discard(_Written):
    """Rule 15: discard ``card`` face up (to the stock) or face down."""

    card: Card
    face_up: bool


@dataclass(frozen=True)
class DrawPile(_Written):
    """Rule 16: draw the top card of the draw pile (re-forming it first if it is empty, rule 17)."""


@dataclass(frozen=True)
class TakeStock(_Written):
    """Rule 16: draw ``card`` from the communal stock."""

    card: Card


@dataclass(frozen=True)
class EndTurn(_Written):
    """End the turn when no (more) drawing is needed or possible."""


Move = Claim | Defend | Decline | Build | Contribute | Discard | DrawPile | TakeStock | EndTurn
"""Every Carbondale action."""

DECLINE, DRAW_PILE, END_TURN = Decline(), DrawPile(), EndTurn()

def _face(fact: object) -> bool:
    if not isinstance(fact, bool):
        raise ValueError("face up is true or false")
    return fact


FACE = Slot("up|down", lambda s: s == "up", lambda up: "up" if up else "down", "up", bool, _face)
"""Face up (True) or face down (False)."""

NOTATION = Notation(
    Form("claim", Claim, "claim {target} at {x},{y} from P{owner} with {challenge}",
         target=CARD, x=INT, y=INT, owner=one_based(), challenge=CARD),
    Form("defend", Defend, "defend with {card}", card=CARD),
    Form("decline", Decline, "decline"),
    Form("build", Build, "build {card} at {x},{y} {direction} of {source}",
         card=CARD, x=INT, y=INT, direction=words(*STEP), source=CARD),
    Form("contribute", Contribute, "contribute {card}", card=CARD),
    Form("discard", Discard, "discard {card} face {face_up}", card=CARD, face_up=FACE),
    Form("draw", DrawPile, "draw from pile"),
    Form("take", TakeStock, "take {card} from stock", card=CARD),
    Form("end", EndTurn, "end turn"),
)
"""Examples: ``claim 3♡ at 1,0 from P2 with 4♠``, ``build 5♣ at 0,1 north of 4♣``, ``discard 9♢ face down``."""


_WRITERS: dict[type, Callable[[Any], str]] = {form.type: form.writer for form in NOTATION.forms}
"""Each action type has exactly one form (face up and face down are one slot of ``discard``)."""
