"""Carbondale's state (:class:`CarbondaleState`) and what the rules read of it: the deck and its piles, the
hand sizes and limits, the multisets of cards, the scores (what a network implies is in :mod:`.network`).

Rule numbers ("rule 18") are those of the game's rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass

from ...cards import Card
from ...frozen import evolve
from ...notation import quote
from ...rng import Rng
from .network import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    Placed,
    network,
)

HAND_SIZE = 4
"""Rules 4 and 16: draw until the hand holds four cards."""
BONUS_HAND_SIZE = 5
"""Rule 11: one extra card after a one-step club or spade climb."""
CLAIM_ATTEMPTS = 2
"""Rule 13: at most two claim attempts a turn."""
STALEMATE_ROUNDS = 3
"""Rule 25: three full rounds without a build, counted from the turn after the last spare pile came in."""
ROUND_LIMIT = 100
"""Rule 26: the game ends after 100 rounds whatever happens."""
ACTIONS_PER_TURN = 15
"""A turn has at most 4 claim actions, 5 discards then 4 draws (or build, contribute and 5 draws), an end: 14."""

ACT, DEFEND, CONTRIBUTE, DISCARD, DRAW, OVER = "act", "defend", "contribute", "discard", "draw", "over"

DECK = tuple(Card(rank, suit) for suit in (CLUBS, DIAMONDS, HEARTS, SPADES) for rank in range(1, 11))
"""Rule 1: one deck per player without jokers and without J, Q, K (ace = 1)."""

STARTING_PAIRS = ((Card(1, SPADES), Card(2, CLUBS)), (Card(1, CLUBS), Card(2, SPADES)))
"""Rule 2: each player gets A♠ + 2♣ or A♣ + 2♠ (ace first: it lies west)."""

SEGMENTS = ((1, 4), (5, 7), (8, 10))
"""Rule 3: the draw pile (A-4) and the two spare piles (5-7, then 8-10)."""


# -- values ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Challenge:
    """A pending claim (rule 19): ``challenger`` shows ``card`` for ``target`` at (x, y) in ``owner``'s network."""

    challenger: int
    owner: int
    x: int
    y: int
    target: Card
    card: Card


@dataclass(frozen=True)
class CarbondaleState:
    """The whole game: every network, hand and pile, whose turn and in which phase, the pending claim."""

    players: int
    any_black_to_red: bool
    networks: tuple[tuple[Placed, ...], ...]
    hands: tuple[tuple[Card, ...], ...]
    """Each hand sorted."""
    pile: tuple[Card, ...]
    """The draw pile; its top is the last card."""
    spares: tuple[tuple[Card, ...], ...]
    """The unused spare piles, next one first (rule 3)."""
    stock: tuple[Card, ...]
    """The communal stock, face up, sorted (rule 5)."""
    fresh: tuple[Card, ...]
    """Stock cards the current player put down this turn (may not be drawn back, rule 16), sorted."""
    discards: tuple[Card, ...]
    """The face-down discards, sorted (nobody tracks them)."""
    current: int
    phase: str
    rng: Rng
    claims: int = 0
    claimed: bool = False
    pending: Challenge | None = None
    built: bool = False
    draw_to: int = HAND_SIZE
    idle: int = 0
    """Turns ended in a row without a build, counted from the turn after the last spare pile came in (rule 25)."""
    buried: tuple[Card, ...] = ()
    """Face-down discards the current player put down this turn (discards and challenge cards), sorted: like
    ``fresh``, they stay out of a draw pile re-formed during the turn (rule 17)."""
    last_spare_in: bool = False
    """The last spare pile came in during this turn, which therefore does not count as idle (rule 25)."""
    turns: int = 0
    winners: tuple[int, ...] = ()
    ending: str = ""
    known: tuple[tuple[Card, ...], ...] = ()
    """Cards every seat saw go into each hand and not come out (taken from the stock, won by a claim), sorted;
    empty until there are any. Re-deals keep them in their hands (public knowledge)."""


# -- multisets of cards ------------------------------------------------------------------


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with(cards: tuple[Card, ...], *more: Card) -> tuple[Card, ...]:
    out = list(cards)
    for card in more:
        insort(out, card)
    return tuple(out)


def _knowing(core: CarbondaleState, seat: int | None = None, card: Card | None = None) -> CarbondaleState:
    """``core`` with ``card`` publicly known to be in ``seat``'s hand, and every known card that a hand no
    longer holds forgotten (a hand holding a copy still holds the known card, whichever copy was played)."""
    known = [list(k) for k in core.known] or [[] for _ in core.hands]
    if seat is not None and card is not None:
        known[seat].append(card)
    kept = []
    for hand, cards in zip(core.hands, known, strict=True):
        left = list(hand)
        still = []
        for c in sorted(cards):
            if c in left:
                left.remove(c)
                still.append(c)
        kept.append(tuple(still))
    return evolve(core, known=tuple(kept) if any(kept) else ())


def distinct(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(cards))


def minus(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    out = list(cards)
    for card in taken:
        out.remove(card)
    return tuple(out)


def can_draw_pile(core: CarbondaleState) -> bool:
    """Rules 16 and 17: is there a draw pile, or anything to re-form one from? Not the cards the current player
    put down this turn (``fresh`` and ``buried``, parts of the stock and the discards)."""
    return bool(core.pile or core.spares) or len(core.stock) > len(core.fresh) or len(core.discards) > len(
        core.buried
    )


def parse_card(text: object, where: str = "card") -> Card:
    """A card of the Carbondale deck (ace to 10, rule 1) written like ``5♡``; a short ``ValueError`` starting
    with ``where`` otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: a card is text, rank then suit, like 5♡ or 10♣; got {type(text).__name__}")
    if len(text) > 8:
        raise ValueError(f"{where}: {quote(text)} is not a card (write rank then suit, like 5♡ or 10♣)")
    try:
        card = Card.parse(text)
    except ValueError:
        raise ValueError(f"{where}: {quote(text)} is not a card (write rank then suit, like 5♡ or 10♣)") from None
    if not 1 <= card.rank <= 10:
        raise ValueError(f"{where}: {quote(text)} is not a Carbondale card (ace to 10 only, rule 1)")
    return card


def scores(core: CarbondaleState) -> list[int | float]:
    """Each seat's progress toward 7 + 3 (rule 27)."""
    return [network(n).progress for n in core.networks]
