"""The project's own seeded random generators.

Python promises a stable ``random()`` stream across versions but not a stable
``shuffle``; card games must deal the same cards under CPython 3.11 and under
Pyodide's 3.14, so every random choice goes through a small immutable generator
stored in the game state.

* :class:`Rng` (SplitMix64) is quick, and its state is a plain integer. It deals the games of rules version
  ``"1"`` (so their records replay exactly), named positions and the computer's imagined deals. Its outputs
  give its state away: from a few dealt cards, a search over seeds finds the rest of the deck.
* :class:`DealRng` deals every newer game: each output is a keyed hash (BLAKE2b) of a counter, keyed by the
  seed. Nothing short of trying every key links its outputs to its key, and a new game's key is a 128-bit
  secret (:func:`fresh_seed`), so no search can work out a deal from a hand.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15
"""SplitMix64's step: the state advances by it at every draw."""
_SEED_OFFSET = 0x632BE59BD9B4E019
_MIX_1, _MIX_2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
"""SplitMix64's output mixing multipliers."""


@dataclass(frozen=True)
class Rng:
    """An immutable SplitMix64 generator: every draw returns a value and the next generator."""

    state: int

    @staticmethod
    def from_seed(seed: int) -> Rng:
        """A generator for any integer seed (negative and huge seeds are folded to 64 bits)."""
        return Rng((seed * _GOLDEN + _SEED_OFFSET) & _MASK)

    def to_seed(self) -> int:
        """A seed, between -2**63 and 2**63, whose :meth:`from_seed` is this generator (a position writes its
        generator so; the seeding is a bijection of 64-bit numbers)."""
        seed = ((self.state - _SEED_OFFSET) * pow(_GOLDEN, -1, _SPAN)) & _MASK
        return seed - (1 << 64) if seed >= 1 << 63 else seed

    def next64(self) -> tuple[int, Rng]:
        """The next 64-bit output and the advanced generator."""
        state = (self.state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * _MIX_1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX_2) & _MASK
        return z ^ (z >> 31), Rng(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = _SPAN - _SPAN % n
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` and the advanced generator."""
        out = list(items)
        if type(self) is not Rng:  # another stream (DealRng): draw by draw
            rng = self
            for i in range(len(out) - 1, 0, -1):
                j, rng = rng.below(i + 1)
                out[i], out[j] = out[j], out[i]
            return tuple(out), rng
        # SplitMix64 itself, the draws of ``below`` written out on the state (the computer re-deals hidden cards
        # thousands of times a decision): the same cards in the same order
        state = self.state
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                state = (state + _GOLDEN) & _MASK  # next64, as written above
                z = ((state ^ (state >> 30)) * _MIX_1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX_2) & _MASK
                value = z ^ (z >> 31)
                if value < limit:
                    break
            j = value % n
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(state)

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One element of a non-empty sequence, uniformly."""
        i, rng = self.below(len(items))
        return items[i], rng

    def split(self) -> tuple[Rng, Rng]:
        """Two independent generators (used to hand a fresh stream to a sub-procedure)."""
        a, rng = self.next64()
        return Rng.from_seed(a), rng


SEED_BITS = 128
"""How many bits of secret a new game's seed holds."""

LEGACY_VERSIONS = frozenset({"1"})
"""Rules versions whose games are dealt by SplitMix64 (:class:`Rng`); every later version deals with
:class:`DealRng`."""


def fresh_seed() -> int:
    """A new game's seed: :data:`SEED_BITS` bits from the platform's cryptographic generator (in the browser,
    Pyodide's ``os.urandom`` is the page's ``crypto.getRandomValues``)."""
    return secrets.randbits(SEED_BITS)


def for_deal(seed: int, rules_version: str) -> Rng:
    """The generator that deals a game of ``rules_version`` from ``seed``."""
    if rules_version in LEGACY_VERSIONS:
        return Rng.from_seed(seed)
    return DealRng.from_seed(seed)


_DEAL_PERSON = b"cardtable-deal"


@dataclass(frozen=True)
class DealRng(Rng):
    """An immutable keyed-hash generator: output ``n`` is BLAKE2b keyed by ``key`` over the counter ``n``
    (``state``). The same API as :class:`Rng`; its outputs do not reveal its key."""

    key: bytes = b""

    @staticmethod
    def from_seed(seed: int) -> DealRng:
        """A generator keyed by any integer seed (its decimal digits, hashed to a 256-bit key)."""
        key = hashlib.blake2b(str(seed).encode("ascii"), digest_size=32, person=_DEAL_PERSON).digest()
        return DealRng(0, key)

    def next64(self) -> tuple[int, DealRng]:
        """The next 64-bit output and the advanced generator."""
        block = hashlib.blake2b(self.state.to_bytes(8, "little"), key=self.key, digest_size=8).digest()
        return int.from_bytes(block, "little"), DealRng((self.state + 1) & _MASK, self.key)

    def split(self) -> tuple[Rng, Rng]:
        """Two independent generators: a new key drawn from this one, and this one advanced."""
        a, rng = self.next64()
        b, rng = rng.next64()
        return DealRng.from_seed((a << 64) | b), rng
