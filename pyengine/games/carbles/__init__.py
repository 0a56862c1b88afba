"""Carbles: cards move marbles round a ring of 18 spaces per player into four goal spaces.

The package in the contract's order: :mod:`.rules` (setting up, legal actions, their effect and
the results) with :mod:`.board` (the ring, the homes, the goal entries and slots as locations),
:mod:`.actions` (action values and their notation), :mod:`.words` (the log and the refusals),
:mod:`.view` (what a seat sees, the facts of each action, the named positions) and :mod:`.position`
(a core from a described position, checked field by field).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import Action, OptionValue, register
from ...words import Entry
from .actions import NOTATION, Back, Burn, Marble, Move, Out, Pass, Play, Swap, rank_text
from .board import LOT, MARBLES, SECTOR, destinations, entry, forward, goal, home, occupancy
from .position import load
from .rules import DECK, MOVES_PER_DECK, Carbles, PlayRules, deal, deck_cap, legal
from .view import POSITIONS, facts, view
from .words import describe, why_illegal


class CarblesRules(PlayRules):
    """The rules of Carbles with the table's part: views, facts, log entries, refusals and named positions."""

    positions = POSITIONS

    def load_position(self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> Carbles:
        """A core from a position (``marbles``, ``turn``, ``seed``, ``hands``, ``deck``, ``discards``): see
        :func:`.position.load` and the rules page's "Position format"; anything invalid is a short ``ValueError``."""
        return load(players, options, position)

    def view(self, core: Carbles, seat: int | None) -> dict[str, Any]:
        return view(core, seat)

    def facts(self, core: Carbles, action: Action) -> dict[str, Any]:
        assert isinstance(action, Play)
        return facts(core, action)

    def attempt(self, core: Carbles, facts: Mapping[str, Any]) -> Action:
        """The action of an attempt given by the facts :meth:`facts` makes: the ``card`` (its rank), the
        ``marble`` and the ``with`` marble as ``[player, marble]`` pairs, the ``steps``."""
        fields = dict(facts)
        if facts.get("kind") != "burn" and "card" in facts:
            fields["rank"] = facts["card"]
        for key, name in (("marble", "marble"), ("with", "other")):
            if key in facts:
                pair = facts[key]
                if (not isinstance(pair, list) or len(pair) != 2
                        or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in pair)):
                    said = repr(pair)[:40]
                    raise ValueError(f"{key!r} of a move cannot be {said}: it is a [player, marble] pair")
                fields[name] = str(Marble(None if pair[0] == core.turn else pair[0], pair[1]))
        if facts.get("kind") == "back" and "steps" not in fields:
            fields["steps"] = 4
        return NOTATION.from_facts(fields)

    def describe(self, before: Carbles, action: Action, after: Carbles) -> Entry:
        assert isinstance(action, Play)
        return describe(before, action, after)

    def why_illegal(self, core: Carbles, action: Action) -> str:
        assert isinstance(action, Play)
        return why_illegal(core, action)


RULES = register(CarblesRules())

__all__ = [
    "DECK", "LOT", "MARBLES", "MOVES_PER_DECK", "NOTATION", "POSITIONS", "RULES", "SECTOR",
    "Back", "Burn", "Carbles", "CarblesRules", "Marble", "Move", "Out", "Pass", "Play", "Swap",
    "deal", "deck_cap", "destinations", "entry", "forward", "goal", "home", "legal", "occupancy", "rank_text",
]  # fmt: skip
