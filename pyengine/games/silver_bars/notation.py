"""100 Silver Bars' actions: the cards' rank/role tokens, one action value and :data:`NOTATION`.

Suits do not matter, so actions name cards by rank or role (``play 6 v3``, ``miner 9 v2``,
``rubble v4``, ``shovel v1``, ``lo-thief``, ``hi-thief``, ``strike``, ``discard 7``, ``lock v5``,
``clear strike``) and a thief's follow-ups are ``steal vN`` (a tie among the opponent's vaults)
and ``place vN`` (where the stolen silver goes). Vaults are numbered 1-5 in notation, 0-4 in
action values, facts and views.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...cards import Card
from ...notation import Form, Notation, one_based, words

RANK_TOKEN = {1: "A", 2: "2", 3: "3", 4: "4", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "lo-thief", 13: "rubble", 0: "hi-thief"}
SILVER_TOKENS = ("A", "2", "3", "4", "6")
MINER_TOKENS = ("7", "8", "9", "10")
THIEVES = ("lo-thief", "hi-thief")
SILVER_RANKS_BY_TOKEN = {"A": 1, "2": 2, "3": 3, "4": 4, "6": 6}
ROLE = {
    **{t: "silver" for t in SILVER_TOKENS}, **{t: "miner" for t in MINER_TOKENS},
    "rubble": "rubble", "shovel": "shovel", "lo-thief": "lo thief", "hi-thief": "hi thief", "strike": "strike",
}
"""A card's role word by its token (the word under a card in hand)."""


def token(card: Card) -> str:
    """The rank/role name of a card in action notation (suits do not matter)."""
    tok = _TOKENS.get(card.order)
    if tok is None:
        tok = _TOKENS[card.order] = _token(card)
    return tok


def _token(card: Card) -> str:
    if card.rank == 12:
        return "strike" if card.suit == "♠" else "shovel"
    return RANK_TOKEN[card.rank]


_TOKENS: dict[int, str] = {}
"""Each card's token by its order, once named (the search names the cards in every move it weighs)."""


@dataclass(frozen=True, slots=True)
class Act:
    """One action: its ``move`` (the notation's kind), a card's rank/role token and a vault 0-4 (shown 1-5)."""

    move: str
    tok: str = ""
    vault: int = -1

    def __str__(self) -> str:
        return NOTATION.write(self)


VAULT = one_based(2)
RANK = words(*SILVER_TOKENS, *MINER_TOKENS)
TOKEN = words(*ROLE)
NOTATION = Notation(
    Form("play", Act, "play {tok} v{vault}", tok=RANK, vault=VAULT, move="play", example="play 6 v3"),
    Form("miner", Act, "miner {tok} v{vault}", tok=RANK, vault=VAULT, move="miner", example="miner 9 v2"),
    Form("rubble", Act, "rubble v{vault}", vault=VAULT, move="rubble", example="rubble v4"),
    Form("shovel", Act, "shovel v{vault}", vault=VAULT, move="shovel"),
    Form("lo-thief", Act, "lo-thief", move="lo-thief"),
    Form("hi-thief", Act, "hi-thief", move="hi-thief"),
    Form("strike", Act, "strike", move="strike"),
    Form("discard", Act, "discard {tok}", tok=TOKEN, move="discard", example="discard 7"),
    Form("lock", Act, "lock v{vault}", vault=VAULT, move="lock", example="lock v5"),
    Form("clear", Act, "clear strike", move="clear"),
    Form("steal", Act, "steal v{vault}", vault=VAULT, move="steal", example="steal v2"),
    Form("place", Act, "place v{vault}", vault=VAULT, move="place", example="place v3"),
)

CLEAR = Act("clear")
