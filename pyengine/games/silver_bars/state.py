"""100 Silver Bars' state (:class:`SilverBarsState`) and what the rules read of it: the cards, the vaults, the
deal, the thieves' targets, the legal actions and the winners.

Rule numbers ("rule 8") are those of the game's rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ...cards import JOKER, Card, sort_cards
from ...core import Action
from ...rng import Rng
from .notation import CLEAR, MINER_TOKENS, ROLE, SILVER_TOKENS, Act, token

VAULTS = 5
HAND = 7
LOCKS = 5
TARGET = 100
MAX_ROUNDS = 20
"""Site guard (not in the original): after this many rounds the higher total wins, a tie is shared."""

SILVER_RANKS = frozenset({1, 2, 3, 4, 6})
MINER_RANKS = frozenset({7, 8, 9, 10})
STRIKE = Card(12, "♠")
PLAIN_SUITS = ("♣", "♢", "♡")


@cache
def deck(strikes: int) -> tuple[Card, ...]:
    """The cards shuffled each round: two decks less the locks, the two J♠ and one joker (rule 1)."""
    cards: list[Card] = []
    for _ in range(2):
        for suit in ("♣", "♢", "♡", "♠"):
            cards.extend(Card(r, suit) for r in (1, 2, 3, 4, 6, 7, 8, 9, 10))
        for suit in PLAIN_SUITS:
            cards.extend((Card(11, suit), Card(12, suit), Card(13, suit)))
    cards.extend((JOKER,) * 3)
    cards.extend((STRIKE,) * strikes)
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Vault:
    """One vault: its stack bottom to top, rubble lying in it, and whether it is locked."""

    cards: tuple[Card, ...] = ()
    rubble: Card | None = None
    locked: bool = False

    @property
    def empty(self) -> bool:
        """Rules 4, 6: empty means no cards and no rubble."""
        return not self.cards and self.rubble is None

    @property
    def silver_on_top(self) -> bool:
        return bool(self.cards) and self.cards[-1].rank in SILVER_RANKS

    @property
    def silver_floor(self) -> int:
        """Rule 4: silver played here must be worth more than this: 0 when the vault is empty, the silver under a
        miner on top, and more than any silver when it takes none (locked, under rubble, or silver on top)."""
        if self.locked or self.rubble is not None:
            return 99
        if not self.cards:
            return 0
        return self.cards[-2].rank if self.cards[-1].rank in MINER_RANKS else 99

    def takes_silver(self, value: int) -> bool:
        """Rule 4: unlocked, and empty or a miner on top whose silver underneath is lower than ``value``."""
        return value > self.silver_floor

    @property
    def silver(self) -> int:
        """Sum of the silver values in the stack (rule 12)."""
        return sum(c.rank for c in self.cards if c.rank in SILVER_RANKS)


EMPTY_ROW = (Vault(),) * VAULTS


def _row(move: str, tok: str = "") -> tuple[Act, ...]:
    return tuple(Act(move, tok, i) for i in range(VAULTS))


PLAY = {tok: _row("play", tok) for tok in SILVER_TOKENS}
MINER = {tok: _row("miner", tok) for tok in MINER_TOKENS}
RUBBLE, SHOVEL, LOCK, STEAL, PLACE = (_row(move) for move in ("rubble", "shovel", "lock", "steal", "place"))
DISCARD = {tok: Act("discard", tok) for tok in ROLE}
ALONE = {tok: Act(tok) for tok in ("lo-thief", "hi-thief", "strike")}
"""Every action, made once: the legal actions are listed from these (the search lists them at every move)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A thief in progress: the tied opponent vaults to choose from, then the stolen silver to place."""

    thief: str
    choices: tuple[int, ...] = ()
    carry: Card | None = None
    source: int = -1


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How the last round ended (public): its number, points per seat, the reason and the final vaults."""

    number: int
    points: tuple[int, int]
    reason: str
    vaults: tuple[tuple[Vault, ...], tuple[Vault, ...]]


@dataclass(frozen=True)
class SilverBarsState:
    """The whole match: the hands, the piles, both rows of vaults, the strikes, a thief's pending steal and the
    totals."""

    rng: Rng
    placeable: bool
    strikes: int
    round: int
    dealer: int
    turn: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    draw: tuple[Card, ...]
    """The draw pile; its top is the last card."""
    discard: tuple[Card, ...]
    """The discard pile, face up; its top is the last card."""
    vaults: tuple[tuple[Vault, ...], tuple[Vault, ...]]
    strike: tuple[bool, bool]
    """Rule 9: a strike lies in front of this seat."""
    pending: Pending | None
    totals: tuple[int, int]
    last: RoundResult | None
    over: bool


def paired(seq: Any, seat: int, value: Any) -> Any:
    return (value, seq[1]) if seat == 0 else (seq[0], value)


def take_card(hand: tuple[Card, ...], tok: str) -> tuple[Card, tuple[Card, ...]]:
    """The first card of ``hand`` named ``tok`` and the hand without it."""
    for i, card in enumerate(hand):
        if token(card) == tok:
            return card, hand[:i] + hand[i + 1:]
    raise KeyError(tok)


def added(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(sort_cards(hand + (card,)))


def thief_target(core: SilverBarsState, seat: int, lo: bool) -> tuple[int, tuple[int, ...]] | None:
    """Rule 8: the value a thief would steal and the tied opponent vaults holding it, or None if unplayable."""
    mine = core.vaults[seat]
    found: dict[int, list[int]] = {}
    for i, v in enumerate(core.vaults[1 - seat]):
        if not v.locked and v.cards and v.cards[-1].rank in SILVER_RANKS:
            found.setdefault(v.cards[-1].rank, []).append(i)
    if not found:
        return None
    values = sorted(found)
    if core.placeable:  # option thief=lowest-placeable: only silver that could be placed counts
        values = [x for x in values if any(w.takes_silver(x) for w in mine)]
        if not values:
            return None
    value = values[0] if lo else values[-1]
    if not any(w.takes_silver(value) for w in mine):
        return None
    return value, tuple(found[value])


def round_points(vaults: tuple[Vault, ...]) -> int:
    """Rule 12: every silver card in a locked vault counts; unlocked vaults score nothing."""
    return sum(v.silver for v in vaults if v.locked)


Hands = tuple[tuple[Card, ...], tuple[Card, ...]]


def deal_round(rng: Rng, strikes: int, dealer: int) -> tuple[Hands, tuple[Card, ...], Rng]:
    cards, rng = rng.shuffled(deck(strikes))
    first = tuple(sorted(cards[:HAND]))
    second = tuple(sorted(cards[HAND:2 * HAND]))
    hands = (second, first) if dealer == 0 else (first, second)  # the non-dealer is dealt first
    return hands, cards[2 * HAND:], rng


def legal(core: SilverBarsState) -> list[Action]:
    """Every legal action of the player to move: a strike to clear, a thief's follow-up, else the plays, the
    discards and the locks."""
    if core.over:
        return []
    seat = core.turn
    if core.strike[seat]:
        return [CLEAR]  # rule 3
    mine = core.vaults[seat]
    pending = core.pending
    if pending is not None:
        if pending.carry is None:
            return [STEAL[i] for i in pending.choices]
        value = pending.carry.rank
        return [PLACE[i] for i, v in enumerate(mine) if v.takes_silver(value)]
    plays: list[Action] = []
    discards: list[Action] = []
    below = [v.silver_floor for v in mine]  # rule 4
    on_silver = [i for i, v in enumerate(mine) if not v.locked and v.silver_on_top]  # rules 5, 10
    seen: set[str] = set()
    for card in core.hands[seat]:
        tok = token(card)
        if tok in seen:
            continue
        seen.add(tok)
        discards.append(DISCARD[tok])  # rule 2: any card may be discarded
        rank = card.rank
        if rank in SILVER_RANKS:
            row = PLAY[tok]
            plays += [row[i] for i in range(VAULTS) if rank > below[i]]
        elif rank in MINER_RANKS:
            row = MINER[tok]
            plays += [row[i] for i in on_silver]
        elif tok == "rubble":
            plays += [RUBBLE[i] for i, v in enumerate(core.vaults[1 - seat]) if v.empty and not v.locked]
        elif tok == "shovel":
            plays += [SHOVEL[i] for i, v in enumerate(mine) if v.rubble is not None]
        elif tok == "strike":
            plays.append(ALONE[tok])
        elif thief_target(core, seat, tok == "lo-thief") is not None:
            plays.append(ALONE[tok])
    if sum(v.locked for v in mine) >= LOCKS:  # rule 10
        return plays + discards
    return plays + discards + [LOCK[i] for i in on_silver]


def winners(core: SilverBarsState) -> list[int]:
    """The seats with the best match total once the match is over (both on a tie)."""
    if not core.over:
        return []
    best = max(core.totals)
    return [seat for seat in (0, 1) if core.totals[seat] == best]
