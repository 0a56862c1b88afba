"""Card-cassonne: lay cards on an open table, claim same-suit areas with tokens and score them.

The package, as every game's: :mod:`.rules` (:class:`CardcassonneRules`: setup, legal actions, effects, scores),
:mod:`.notation` (action values and their notation), :mod:`.words` (log entries, refusals), :mod:`.view` (views,
action facts, named positions), :mod:`.position` (a state from a described position, checked field by field, and
the lesson's positions), :mod:`.state` (:class:`CardcassonneState`, the whole game as one value), :mod:`.judgement`
(a position judged from one seat's view) and :mod:`.lessons` (the lesson); beside them :mod:`.board` (values,
cells, areas and what a board of cards implies).
"""

from __future__ import annotations

from ...core import register
from .board import Area, Table, area_value, auto_removed, draws_problem
from .notation import DONE, NO_TOKEN, NOTATION, TOKEN, Done, Play, ScoreArea, TokenChoice
from .rules import CardcassonneRules
from .state import CardcassonneState

RULES = register(CardcassonneRules())

__all__ = [
    "DONE",
    "NOTATION",
    "NO_TOKEN",
    "RULES",
    "TOKEN",
    "Area",
    "CardcassonneState",
    "CardcassonneRules",
    "Done",
    "Play",
    "ScoreArea",
    "Table",
    "TokenChoice",
    "area_value",
    "auto_removed",
    "draws_problem",
]
