"""Carbon City Zero (World Edition): a cooperative deck-building game about a carbon neutral city.

The package, as every game's: :mod:`.rules` (:class:`CarbonCityZeroRules`: setup, legal actions, apply, scores,
evaluation), :mod:`.notation` (the actions and their notation), :mod:`.words` (the log and refusals),
:mod:`.view` (the view, the facts of each action, named positions), :mod:`.position` (a turn of the cooperative
game from a described position, and the lesson's positions), :mod:`.state` (:class:`CarbonCityZeroState` and
its counting) and :mod:`.lessons` (the lesson); no judgement (see :data:`JUDGEMENT`); beside them :mod:`.cards`
(the card table, data in ``cards.json``). Rule numbers are those of the rules page
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

JUDGEMENT = None
"""No ``judgement.py``: the game is played together (every seat shares one result, so there is no lead over another
seat to judge, and no rule-based yardstick to play by one); the search values positions by the rules' ``evaluate``
(a projection of the carbon to come), in the Friendly Rivalry variant too."""
