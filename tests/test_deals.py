"""Deals nobody can work out: the attack that once found a hidden hand, tried against today's deals.

A guest of a remote game of 100 Silver Bars (or anyone facing the computer) sees its own first hand. When a deal's
seed was a 30-bit number and the generator SplitMix64, searching seeds around the real one for that hand found the
deal, and so every hidden card. Today a new game's seed is 128 secret bits and its deal comes from a keyed hash
(:class:`pyengine.rng.DealRng`): the same search finds nothing, while it still finds an old game's deal.

The search is the real attack, made quick: each candidate seed's generator is run through the deal's shuffle
only as long as it agrees with the hand seen (a card of the hand put where the hand is not, or the dealer drawn
otherwise, ends it), so no deal that could match is ever skipped. The long version, with whole deals, is
``tests/bench/deals.py``.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

import pytest

import pyengine
from pyengine.cards import sort_cards, standard_deck
from pyengine.games.silver_bars.state import HAND, deck
from pyengine.rng import LEGACY_VERSIONS, SEED_BITS, DealRng, Rng, fresh_seed

MASK = (1 << 64) - 1
COUNTERS = [n.to_bytes(8, "little") for n in range(1_000)]
"""The counters of the first thousand outputs (a deal draws about a hundred)."""
Outputs = Callable[[int], Iterator[int]]


def deal_outputs(seed: int) -> Iterator[int]:
    """:class:`DealRng`'s outputs for ``seed``, without making a generator object per draw."""
    key = hashlib.blake2b(str(seed).encode("ascii"), digest_size=32, person=b"cardtable-deal").digest()
    keyed = hashlib.blake2b(key=key, digest_size=8)
    for counter in COUNTERS:
        block = keyed.copy()
        block.update(counter)
        yield int.from_bytes(block.digest(), "little")


def legacy_outputs(seed: int) -> Iterator[int]:
    """SplitMix64's outputs for ``seed`` (rules version 1), the same way."""
    state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def below(outputs: Iterator[int], n: int) -> int:
    """:meth:`Rng.below` on a stream of outputs."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = next(outputs)
        if value < limit:
            return value % n


class Hand:
    """What seat 0 of 100 Silver Bars sees at the start, as the search compares it: its hand (a multiset: the
    deck holds most cards twice) and who deals."""

    def __init__(self, state: pyengine.State) -> None:
        view = state.view(0)
        self.dealer: int = view["dealer"]
        self.first = 0 if self.dealer == 1 else HAND  # the non-dealer is dealt first, from the top of the shuffle
        cards = [str(card) for card in deck(2)]
        self.kinds = sorted(set(cards))
        self.deck = [self.kinds.index(card) for card in cards]
        held = Counter(view["hand"])
        self.inside = [held[kind] for kind in self.kinds]
        """How many of each card the hand holds; ``outside`` how many the rest of the deck holds."""
        self.outside = [cards.count(kind) - held[kind] for kind in self.kinds]
        self.mine = [self.first <= i < self.first + HAND for i in range(len(cards))]

    def agrees(self, draws: Iterator[int]) -> bool:
        """Whether a generator's outputs deal this hand: the deal's shuffle, stopped at the first card that lands
        where the hand says it cannot (a card of the hand put in the other hand or the draw pile once too often)."""
        if below(draws, 2) != self.dealer:
            return False
        order, inside, outside = list(self.deck), list(self.inside), list(self.outside)
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates as Rng.shuffled: position i is final after this
            j = below(draws, i + 1)
            order[i], order[j] = order[j], order[i]
            card = order[i]
            left = inside if self.mine[i] else outside
            left[card] -= 1
            if left[card] < 0:
                return False
        return True


def search(seeds: Iterable[int], outputs: Outputs, hand: Hand) -> list[int]:
    """The seeds whose generator (``outputs``) deals seat 0 this hand: the attack."""
    return [seed for seed in seeds if hand.agrees(outputs(seed))]


def test_the_quick_generators_are_the_engines() -> None:
    """The attack's streams are exactly the engine's generators (else it would search something else)."""
    for seed in (0, 1, -5, 2**64 + 3, fresh_seed()):
        deal, legacy = DealRng.from_seed(seed), Rng.from_seed(seed)
        quick, old = deal_outputs(seed), legacy_outputs(seed)
        for _ in range(5):
            value, deal = deal.next64()
            assert next(quick) == value
            value, legacy = legacy.next64()
            assert next(old) == value


def test_a_shuffle_is_its_draws_one_by_one() -> None:
    """Either generator's shuffle is Fisher-Yates drawn through ``below``, one draw at a time (SplitMix64's is
    written out on its state for speed): the same order and the same generator after, so old records replay."""

    def by_draws(rng: Rng, items: list[int]) -> tuple[tuple[int, ...], Rng]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    rnd = random.Random(9)
    for _ in range(400):
        items = list(range(rnd.randrange(0, 70)))
        for rng in (Rng(rnd.getrandbits(64)), DealRng.from_seed(rnd.getrandbits(128))):
            assert rng.shuffled(items) == by_draws(rng, items)


def test_the_search_finds_an_old_deal_from_one_hand() -> None:
    """The attack works: an old game (rules version 1, a 30-bit seed) is found from seat 0's first hand alone."""
    true = random.Random(44).randrange(1_000_000_000)
    hand = Hand(pyengine.new_game("silver-bars", 2, true, rules_version=min(LEGACY_VERSIONS)))
    assert search(range(true - 20_000, true + 20_000), legacy_outputs, hand) == [true]


def test_a_new_deal_cannot_be_searched_from_one_hand() -> None:
    """A new game: 10^5 seeds around the true one (each side, every power of two up to its 128 bits, and its
    bits flipped one at a time) and 10^4 seeds sampled from the whole old 30-bit space match nothing; only the
    true seed, which nobody but the engine holds, deals that hand (``tests/bench/deals.py`` searches ten times
    as many)."""
    true = fresh_seed()
    state = pyengine.new_game("silver-bars", 2, true)
    assert state.record()["rules_version"] not in LEGACY_VERSIONS and true.bit_length() > SEED_BITS - 16
    hand = Hand(state)
    assert search([true], deal_outputs, hand) == [true], "the search recognises the true deal"
    near = [true + d for d in range(-49_900, 49_900) if d]
    near += [true + sign * (1 << p) for p in range(7, SEED_BITS) for sign in (1, -1)]
    near += [true ^ (1 << bit) for bit in range(SEED_BITS)]
    assert len(near) >= 100_000
    assert search(near, deal_outputs, hand) == []
    sampled = random.Random(7).sample(range(1_000_000_000), 10_000)
    assert search(sampled, deal_outputs, hand) == []


def chi_square_bound(df: int, z: float = 3.09) -> float:
    """The chi-square value that ``df`` degrees of freedom exceed with probability about 0.001 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("size", [10])
def test_every_card_is_equally_likely_in_every_position(size: int) -> None:
    """Over 10^5 deals (seeds 0 to 99,999, so neighbouring keys too), each card lands in each position about as
    often as any other: a chi-square smoke test of the deal's shuffle (the engine's own ``shuffled``)."""
    deals = 100_000
    counts = [[0] * size for _ in range(size)]
    cards = list(range(size))
    for seed in range(deals):
        if size <= 10:
            order, _ = DealRng.from_seed(seed).shuffled(cards)
        else:  # the same shuffle on the quick stream (52 positions; checked against the engine above)
            order, draws = list(cards), deal_outputs(seed)
            for i in range(size - 1, 0, -1):
                j = below(draws, i + 1)
                order[i], order[j] = order[j], order[i]
        for position, card in enumerate(order):
            counts[position][card] += 1
    expected = deals / size
    statistic = sum((n - expected) ** 2 / expected for row in counts for n in row)
    df = (size - 1) ** 2
    assert statistic < chi_square_bound(df), (statistic, chi_square_bound(df))
    assert statistic > df / 2, "counts this even would be a pattern too"


def test_old_records_replay_with_their_own_generator() -> None:
    """Records, addresses and saves of rules version 1 keep SplitMix64: the same cards as before this change (the
    hands below were dealt by the engine of that time), replayed move for move, their version kept."""
    old = pyengine.new_game("silver-bars", 2, 12345, rules_version="1")
    assert old.view(0)["hand"] == ["2♡", "3♡", "4♠", "7♠", "7♣", "9♢", "J♡"]
    assert pyengine.new_game("carbles", 4, 777, rules_version="1").view(1)["hand"] == ["2♠", "2♠", "5♡", "7♠", "Q♠"]
    assert type(old.core.rng) is Rng and type(pyengine.new_game("silver-bars", 2, 12345).core.rng) is DealRng
    rnd = random.Random(1)
    for _ in range(30):
        old = old.apply(rnd.choice(old.legal_actions()))
    record = old.record()
    assert record["rules_version"] == "1" and record["seed"] == 12345
    again = pyengine.replay(record)
    assert again == old and again.record() == record
    with pytest.raises(ValueError, match="rules version"):
        pyengine.replay({**record, "rules_version": "0"})


def test_a_long_seed_goes_through_json_as_text() -> None:
    """A seed past JavaScript's exact numbers is written as its digits, so a page reading the record keeps it."""
    seed = fresh_seed() | 1 << 127
    record = pyengine.new_game("carbles", 2, seed).record()
    assert record["seed"] == str(seed)
    assert pyengine.replay(record).seed == seed and pyengine.new_game("carbles", 2, 7).record()["seed"] == 7


def test_cards_sort_by_rank_then_suit() -> None:
    """A card's one sorting number keeps the order of ``(rank, suit)``: re-deals sort the unseen cards first, so
    the order is part of every deal the computer imagines and every turn link."""
    cards = [*standard_deck(jokers=2)]
    random.Random(3).shuffle(cards)
    assert sorted(cards) == sorted(cards, key=lambda card: (card.rank, card.suit))
    for a in cards:
        for b in cards[:9]:
            assert (a < b, a <= b, a > b, a >= b) == (
                (a.rank, a.suit) < (b.rank, b.suit), (a.rank, a.suit) <= (b.rank, b.suit),
                (a.rank, a.suit) > (b.rank, b.suit), (a.rank, a.suit) >= (b.rank, b.suit))


def test_sorting_by_the_cards_number_is_sorting_the_cards() -> None:
    """``sort_cards`` (the re-deals' quick sort) gives exactly ``sorted``, equal cards in the same order."""
    rnd = random.Random(4)
    for _ in range(50):
        cards = [rnd.choice(standard_deck(jokers=2)) for _ in range(rnd.randrange(0, 60))]
        assert [id(card) for card in sort_cards(cards)] == [id(card) for card in sorted(cards)]
