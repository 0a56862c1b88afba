"""Carbon City Zero (World Edition): a cooperative deck-building game about a carbon neutral city.

The package: :mod:`.cards` (the card table, data in ``cards.json``), :mod:`.state` (the state and
its counting), :mod:`.actions` (the actions and their notation), :mod:`.rules` (setup, legal actions,
apply, scores, evaluation), :mod:`.words` (the log and refusals) and :mod:`.view` (the view, the
facts of each action, named positions). Rule numbers are those of the rules page
(``web/rules/carbon-city-zero.html``).
"""

from __future__ import annotations

from ...core import register
from .actions import NOTATION, Buy, EndTurn, Move, Use
from .cards import CARDS, MARKET_SECTORS, TABLE, CardTable, CardType, load_table, validate_table
from .rules import CarbonCityZero
from .state import Core, Deck, cost_of, income, turn_carbon

__all__ = [
    "CARDS",
    "MARKET_SECTORS",
    "NOTATION",
    "RULES",
    "TABLE",
    "Buy",
    "CarbonCityZero",
    "CardTable",
    "CardType",
    "Core",
    "Deck",
    "EndTurn",
    "Move",
    "Use",
    "cost_of",
    "income",
    "load_table",
    "turn_carbon",
    "validate_table",
]

RULES = register(CarbonCityZero())
