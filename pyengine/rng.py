"""The project's own seeded random generator.

Python promises a stable ``random()`` stream across versions but not a stable
``shuffle``; card games must deal the same cards under CPython 3.11 and under
Pyodide's 3.14, so every random choice goes through this small immutable
generator (SplitMix64), whose state is a plain integer stored in the game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Rng:
    """An immutable SplitMix64 generator: every draw returns a value and the next generator."""

    state: int

    @staticmethod
    def from_seed(seed: int) -> Rng:
        """A generator for any integer seed (negative and huge seeds are folded to 64 bits)."""
        return Rng((seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK)

    def to_seed(self) -> int:
        """A seed, between -2**63 and 2**63, whose :meth:`from_seed` is this generator (a position writes its
        generator so; the seeding is a bijection of 64-bit numbers)."""
        seed = ((self.state - 0x632BE59BD9B4E019) * pow(0x9E3779B97F4A7C15, -1, 1 << 64)) & _MASK
        return seed - (1 << 64) if seed >= 1 << 63 else seed

    def next64(self) -> tuple[int, Rng]:
        """The next 64-bit output and the advanced generator."""
        state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` and the advanced generator."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One element of a non-empty sequence, uniformly."""
        i, rng = self.below(len(items))
        return items[i], rng

    def split(self) -> tuple[Rng, Rng]:
        """Two independent generators (used to hand a fresh stream to a sub-procedure)."""
        a, rng = self.next64()
        return Rng.from_seed(a), rng
