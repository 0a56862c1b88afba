"""Carbondale: grow a network of clubs and spades that wins hearts and diamonds.

The players' rules, numbered, are the game's rules page (``web/rules/carbondale.html``); code and
tests cite them as "rule 18". Choices where the original leaves room are listed on that page under
"Choices this site made"; among them:

- rule 2: the ace always lies west of the 2 (a mirror image changes nothing, so no choice is asked);
- face-down discards are unseen by everyone, challenge and defending cards included;
- rule 25 (stalemate guard) plus rule 26, a hard limit of ``ROUND_LIMIT`` rounds, so every game ends.

The package, as every game's: :mod:`.rules` (:class:`CarbondaleRules`: setup, legal actions, apply, scores,
evaluate, sample_hidden), :mod:`.notation` (action values and :data:`NOTATION`), :mod:`.words` (describe,
why_illegal), :mod:`.view` (views and named positions), :mod:`.position` (a state from a described position,
and the lesson's positions), :mod:`.state` (:class:`CarbondaleState`, the deck and its piles), :mod:`.judgement`
(a position judged from one seat's view) and :mod:`.lessons` (the lesson); beside them :mod:`.network` (where a
card lies, the build table and what a network's cards imply).
"""

from __future__ import annotations

from ...core import register
from .network import ZONE, Network, Placed, build_limit, network
from .notation import (
    NOTATION,
    Build,
    Claim,
    Contribute,
    Decline,
    Defend,
    Discard,
    DrawPile,
    EndTurn,
    Move,
    TakeStock,
)
from .rules import CarbondaleRules
from .state import ROUND_LIMIT, CarbondaleState
from .view import FIGURE_1

RULES = register(CarbondaleRules())

__all__ = [
    "FIGURE_1",
    "NOTATION",
    "RULES",
    "ROUND_LIMIT",
    "ZONE",
    "Build",
    "CarbondaleRules",
    "CarbondaleState",
    "Claim",
    "Contribute",
    "Decline",
    "Defend",
    "Discard",
    "DrawPile",
    "EndTurn",
    "Move",
    "Network",
    "Placed",
    "TakeStock",
    "build_limit",
    "network",
]
