"""100 Silver Bars: two small mines fill five vaults each with silver and lock them.

The players' rules, numbered, are the game's rules page (``web/rules/silver-bars.html``); code and
tests cite them as "rule 8". A site guard, not in the original, ends the match after ``MAX_ROUNDS``
rounds.

Modules, in the contract's order: :mod:`.rules` (the cards and the core value, setup, legal actions,
apply, scores, evaluate, rollout, sample_hidden), :mod:`.actions` (the cards' tokens, action values
and :data:`NOTATION`), :mod:`.words` (facts, describe, why_illegal), :mod:`.view` (the view; the game
has no named positions).
"""

from __future__ import annotations

from ...core import register
from .actions import CLEAR, NOTATION, ROLE, Act, token
from .rules import (
    HAND,
    LOCKS,
    MAX_ROUNDS,
    STRIKE,
    TARGET,
    VAULTS,
    Pending,
    RoundResult,
    SilverBarsRules,
    SilverCore,
    Vault,
    deck,
    round_points,
    thief_target,
)
from .view import SilverBars
from .words import NAME, SilverBarsWords

RULES = register(SilverBars())

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
    "SilverBars",
    "SilverBarsRules",
    "SilverBarsWords",
    "SilverCore",
    "Vault",
    "deck",
    "round_points",
    "thief_target",
    "token",
]
