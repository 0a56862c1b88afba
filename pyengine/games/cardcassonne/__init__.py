"""Card-cassonne: lay cards on an open table, claim same-suit areas with tokens and score them.

The package: ``board`` (values, cells, areas, the core), ``actions`` (action values and their
notation), ``rules`` (setup, legal actions, effects, scores), ``position`` (positions, checked field by
field), ``words`` (log entries, refusals) and ``view`` (views, action facts, named positions).
"""

from __future__ import annotations

from ...core import register
from .board import Area, CardcassonneState, Table, area_value, auto_removed, draws_problem
from .notation import DONE, NO_TOKEN, NOTATION, TOKEN, Done, Play, ScoreArea, TokenChoice
from .rules import CardcassonneRules

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
