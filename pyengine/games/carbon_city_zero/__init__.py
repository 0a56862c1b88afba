"""Carbon City Zero (World Edition): a cooperative deck-building game about a carbon neutral city.

The package, as every game's: :mod:`.rules` (:class:`CarbonCityZeroRules`: setup, legal actions, apply, scores,
evaluation), :mod:`.notation` (the actions and their notation), :mod:`.words` (the log and refusals),
:mod:`.view` (the view, the facts of each action, named positions) and :mod:`.position` (which refuses
positions: the game has none yet); beside them :mod:`.cards` (the card table, data in ``cards.json``) and
:mod:`.state` (:class:`CarbonCityZeroState` and its counting). Rule numbers are those of the rules page
(``web/rules/carbon-city-zero.html``).
"""

from __future__ import annotations

from ...core import register
from .cards import CARDS, MARKET_SECTORS, TABLE, CardTable, CardType, load_table, validate_table
from .notation import NOTATION, Buy, EndTurn, Move, Use
from .rules import CarbonCityZeroRules
from .state import CarbonCityZeroState, Deck, cost_of, income, turn_carbon

__all__ = [
    "CARDS",
    "MARKET_SECTORS",
    "NOTATION",
    "RULES",
    "TABLE",
    "Buy",
    "CarbonCityZeroRules",
    "CarbonCityZeroState",
    "CardTable",
    "CardType",
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

RULES = register(CarbonCityZeroRules())
