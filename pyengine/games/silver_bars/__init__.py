"""100 Silver Bars: two small mines fill five vaults each with silver and lock them.

The players' rules, numbered, are the game's rules page (``web/rules/silver-bars.html``); code and
tests cite them as "rule 8". A site guard, not in the original, ends the match after ``MAX_ROUNDS``
rounds.

The package, as every game's: :mod:`.rules` (:class:`SilverBarsRules`: setup, apply, scores, evaluate,
rollout, sample_hidden), :mod:`.notation` (the cards' tokens, action values and :data:`NOTATION`),
:mod:`.words` (describe, why_illegal), :mod:`.view` (the view, the facts of an action and the attempt they
describe), :mod:`.position` (a state from a described position, and the lesson's positions), :mod:`.state`
(:class:`SilverBarsState`, the cards, the vaults and the legal actions), :mod:`.judgement` (a position judged
from one seat's view, and the plans' bias) and :mod:`.lessons` (the lesson).
"""

from __future__ import annotations

from ...core import register
from .notation import CLEAR, NOTATION, ROLE, Act, token
from .rules import SilverBarsRules
from .state import (
    HAND,
    LOCKS,
    MAX_ROUNDS,
    STRIKE,
    TARGET,
    VAULTS,
    Pending,
    RoundResult,
    SilverBarsState,
    Vault,
    deck,
    round_points,
    thief_target,
)
from .words import NAME

RULES = register(SilverBarsRules())

__all__ = [
    "CLEAR",
    "HAND",
    "LOCKS",
    "MAX_ROUNDS",
    "NAME",
    "NOTATION",
    "ROLE",
    "RULES",
    "STRIKE",
    "TARGET",
    "VAULTS",
    "Act",
    "Pending",
    "RoundResult",
    "SilverBarsRules",
    "SilverBarsState",
    "Vault",
    "deck",
    "round_points",
    "thief_target",
    "token",
]
