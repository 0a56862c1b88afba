"""Carbles: cards move marbles round a ring of 18 spaces per player into four goal spaces.

The package, as every game's: :mod:`.rules` (:class:`CarblesRules`, the contract), :mod:`.notation` (action
values and their notation), :mod:`.words` (the log and the refusals), :mod:`.view` (what a seat sees, the facts
of each action, the named positions), :mod:`.position` (a state from a described position, checked field by
field, and the lesson's positions), :mod:`.state` (:class:`CarblesState`, dealing, the legal plays and where each
leads), :mod:`.judgement` (a position judged from one seat's view) and :mod:`.lessons` (the lesson); beside them
:mod:`.board` (the ring, the homes, the goal entries and slots as locations).
"""

from __future__ import annotations

from ...core import register
from .board import LOT, MARBLES, SECTOR, destinations, entry, forward, goal, home, occupancy
from .notation import NOTATION, Back, Burn, Marble, Move, Out, Pass, Play, Swap, rank_text
from .rules import CarblesRules
from .state import DECK, MOVES_PER_DECK, CarblesState, deal, deck_cap, legal
from .view import POSITIONS

RULES = register(CarblesRules())

__all__ = [
    "DECK", "LOT", "MARBLES", "MOVES_PER_DECK", "NOTATION", "POSITIONS", "RULES", "SECTOR",
    "Back", "Burn", "CarblesRules", "CarblesState", "Marble", "Move", "Out", "Pass", "Play", "Swap",
    "deal", "deck_cap", "destinations", "entry", "forward", "goal", "home", "legal", "occupancy", "rank_text",
]  # fmt: skip
