"""Standard playing cards shared by the games: ranks, suits and a short notation.

A card is written rank then suit symbol: ``A♠``, ``10♡``, ``Q♣``; a joker is ``Jk``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field

SUITS = ("♣", "♢", "♡", "♠")
"""Clubs, diamonds, hearts, spades (bridge order)."""

SUIT_NAMES = {"♣": "clubs", "♢": "diamonds", "♡": "hearts", "♠": "spades"}
RED_SUITS = frozenset({"♢", "♡"})
BLACK_SUITS = frozenset({"♣", "♠"})

RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
"""Ranks are 1 (ace) to 13 (king); these are the letters of the non-numeric ones."""

_RANK_BY_NAME = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
_SUIT_ALIASES = {"C": "♣", "D": "♢", "H": "♡", "S": "♠", "♦": "♢", "♥": "♡", **{s: s for s in SUITS}}


@dataclass(frozen=True)
class Card:
    """A playing card: rank 1-13 and suit symbol, or a joker (rank 0, suit ``""``). Cards sort by rank, then by
    suit symbol (the order of ``(rank, suit)``)."""

    rank: int
    suit: str
    text: str = field(init=False, compare=False, repr=False)
    """The notation, made once (games write cards in every action)."""
    is_red: bool = field(init=False, compare=False, repr=False)
    is_black: bool = field(init=False, compare=False, repr=False)
    order: int = field(init=False, compare=False, repr=False)
    """Where the card sorts, as one number (re-dealing sorts thousands of cards a decision)."""

    def __post_init__(self) -> None:
        if len(self.suit) > 1:
            raise ValueError(f"a suit is one symbol, not {self.suit!r}")
        text = "Jk" if self.rank == 0 else f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "is_red", self.suit in RED_SUITS)
        object.__setattr__(self, "is_black", self.suit in BLACK_SUITS)
        object.__setattr__(self, "order", self.rank * 0x110000 + (ord(self.suit) if self.suit else 0))

    def __lt__(self, other: Card) -> bool:
        return self.order < other.order if isinstance(other, Card) else NotImplemented

    def __le__(self, other: Card) -> bool:
        return self.order <= other.order if isinstance(other, Card) else NotImplemented

    def __gt__(self, other: Card) -> bool:
        return self.order > other.order if isinstance(other, Card) else NotImplemented

    def __ge__(self, other: Card) -> bool:
        return self.order >= other.order if isinstance(other, Card) else NotImplemented

    def __str__(self) -> str:
        return self.text

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def colour(self) -> str:
        return "red" if self.is_red else "black"

    @staticmethod
    def parse(text: str) -> Card:
        """The card written ``text`` (``A♠``, ``10H``, ``Jk``); ``ValueError`` otherwise."""
        text = text.strip()
        if text in ("Jk", "JK", "Joker", "joker"):
            return JOKER
        if len(text) >= 2 and text[:-1].upper() in _RANK_BY_NAME and text[-1].upper() in _SUIT_ALIASES:
            return Card(_RANK_BY_NAME[text[:-1].upper()], _SUIT_ALIASES[text[-1].upper()])
        raise ValueError(f"{text!r} is not a card (write rank then suit, like A♠, 10♡, Q♣ or Jk)")


JOKER = Card(0, "")

_ORDER = operator.attrgetter("order")


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """The cards in their order (``sorted(cards)``), by each card's one number: no two cards are compared in Python,
    which makes the re-deals of the computer's imagined games quicker."""
    return sorted(cards, key=_ORDER)


def standard_deck(jokers: int = 0) -> tuple[Card, ...]:
    """One 52-card deck in a fixed order, plus ``jokers`` jokers."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14)) + (JOKER,) * jokers
