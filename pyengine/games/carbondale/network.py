"""Carbondale's networks: where a card lies, what may be built from what, and what a network's cards imply
(cells, size, red counts, vulnerable cards).

Rule numbers are those of the game's rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...cards import Card
from .notation import DIRECTIONS

CLUBS, DIAMONDS, HEARTS, SPADES = "♣", "♢", "♡", "♠"

ZONE = 5
"""Rule 9: a network fits in 5 columns x 5 rows."""
GOAL_MAIN, GOAL_SIDE = 7, 3
"""Rule 24: seven of one red suit and three of the other."""


# -- values ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A card in a network at cell (x, y) (x grows east, y north), built from the black card at ``source``.

    ``source`` is None for a starting card (rule 2).
    """

    card: Card
    x: int
    y: int
    source: tuple[int, int] | None = None

    @property
    def start(self) -> bool:
        return self.source is None

    @property
    def direction(self) -> str | None:
        """The way it was built: ``north`` if it lies north of its source."""
        if self.source is None:
            return None
        step = (self.x - self.source[0], self.y - self.source[1])
        for name, dx, dy in DIRECTIONS:
            if (dx, dy) == step:
                return name
        return None


# -- card rules ------------------------------------------------------------------------


def build_limit(source: Card, card: Card, any_black_to_red: bool = False) -> int | None:
    """The highest rank of ``card``'s suit that may be built from ``source`` (rule 10's table), or None.

    ♣->♣ and ♠->♠: N+2; ♣->♠ and ♠->♣: N+1; ♣->♡ and ♠->♢: N (rule 28: any black to any red
    with the ``any_black_to_red`` option). Only black cards are sources (rule 7).
    """
    if not source.is_black:
        return None
    if card.suit == source.suit:
        return source.rank + 2
    if card.is_black:
        return source.rank + 1
    if any_black_to_red or (source.suit, card.suit) in ((CLUBS, HEARTS), (SPADES, DIAMONDS)):
        return source.rank
    return None


def earns_bonus(source: Card, card: Card) -> bool:
    """Rule 11: a ♣->♣ or ♠->♠ build of rank at most N+1 earns an extra card."""
    return source.is_black and card.suit == source.suit and card.rank <= source.rank + 1


def can_challenge(target: Card, challenge: Card) -> bool:
    """Rule 19: same colour, at least two ranks higher."""
    return challenge.is_red == target.is_red and challenge.rank >= target.rank + 2


def can_defend(challenge: Card, defence: Card) -> bool:
    """Rule 20: same colour as the challenge card, rank at least as high."""
    return defence.is_red == challenge.is_red and defence.rank >= challenge.rank


def progress_of(hearts: int, diamonds: int) -> int:
    """Rule 27: progress toward 7 + 3, from 0 to 10."""
    return max(min(hearts, GOAL_MAIN) + min(diamonds, GOAL_SIDE), min(diamonds, GOAL_MAIN) + min(hearts, GOAL_SIDE))


def reaches_goal(hearts: int, diamonds: int) -> bool:
    """Rule 24: at least 7 ♡ and 3 ♢, or 7 ♢ and 3 ♡."""
    return (hearts >= GOAL_MAIN and diamonds >= GOAL_SIDE) or (diamonds >= GOAL_MAIN and hearts >= GOAL_SIDE)


class Network:
    """What a network's cards imply: cells, bounding box, red counts and vulnerable cards (rule 18)."""

    __slots__ = ("cards", "cells", "min_x", "max_x", "min_y", "max_y", "hearts", "diamonds", "vulnerable")

    def __init__(self, cards: tuple[Placed, ...]) -> None:
        self.cards = cards
        cells: dict[tuple[int, int], tuple[Placed, ...]] = {}
        sources: set[tuple[int, int]] = set()
        hearts = diamonds = 0
        for placed in cards:
            cells[(placed.x, placed.y)] = cells.get((placed.x, placed.y), ()) + (placed,)
            if placed.source is not None:
                sources.add(placed.source)
            if placed.card.suit == HEARTS:
                hearts += 1
            elif placed.card.suit == DIAMONDS:
                diamonds += 1
        self.cells = cells
        xs = [x for x, _ in cells] or [0]
        ys = [y for _, y in cells] or [0]
        self.min_x, self.max_x, self.min_y, self.max_y = min(xs), max(xs), min(ys), max(ys)
        self.hearts, self.diamonds = hearts, diamonds
        # rule 18: safe if a starting card, built upon, or a red sharing its cell with another red
        self.vulnerable = tuple(
            p
            for p in cards
            if p.source is not None
            and not (p.card.is_black and (p.x, p.y) in sources)
            and not (p.card.is_red and len(cells[(p.x, p.y)]) == 2)
        )

    @property
    def width(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def height(self) -> int:
        return self.max_y - self.min_y + 1

    @property
    def progress(self) -> int:
        return progress_of(self.hearts, self.diamonds)

    def is_vulnerable(self, placed: Placed) -> bool:
        return placed in self.vulnerable

    def fits(self, x: int, y: int) -> bool:
        """Rule 9: would a card in cell (x, y) keep the network within 5 x 5?"""
        return max(self.max_x, x) - min(self.min_x, x) < ZONE and max(self.max_y, y) - min(self.min_y, y) < ZONE

    def room_for(self, card: Card, x: int, y: int) -> str | None:
        """Why ``card`` cannot go into cell (x, y) by rules 6, 8 and 9, else None."""
        here = self.cells.get((x, y), ())
        if not here:
            if not self.fits(x, y):
                return f"a card there would make the network wider or taller than {ZONE} cards"
            return None
        if here[0].card.is_black:
            return f"that place already holds the black {here[0].card}"
        if len(here) >= 2:
            return "that place already holds two red cards"
        if card.is_black:
            return f"a black card goes only into an empty place, and that one holds the {here[0].card}"
        return None


@lru_cache(maxsize=8192)
def network(cards: tuple[Placed, ...]) -> Network:
    """The (cached) analysis of a network."""
    return Network(cards)
