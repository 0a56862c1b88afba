"""The deal attack at length, and what it would cost: prints figures, asserts nothing::

    python3 tests/bench/deals.py                    # 10^5 whole deals, 10^5 seeds searched
    python3 tests/bench/deals.py --deals 100000 --search 1000000

* how fast the attack of ``tests/test_deals.py`` searches seeds (seat 0's first hand of 100 Silver Bars), against
  today's deals (rules version 2: :class:`pyengine.rng.DealRng`, 128-bit seeds) and old ones (SplitMix64), and so
  how long the whole seed space takes: the old 30-bit space in hours, today's 128 bits beyond any machine;
* a chi-square test of whole deals: every card of the 95-card deck in every position over ``--deals`` new games
  of 100 Silver Bars (``pyengine.new_game``, the real deal), by card kind (the deck holds most cards twice);
* how long a new game's deal takes with each generator (the price of the keyed hash).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT)]

import pyengine  # noqa: E402
from pyengine.games.silver_bars.state import deck  # noqa: E402
from pyengine.rng import LEGACY_VERSIONS, SEED_BITS, fresh_seed  # noqa: E402
from tests.test_deals import Hand, chi_square_bound, deal_outputs, legacy_outputs, search  # noqa: E402

SECONDS_PER_YEAR = 365.25 * 24 * 3600


def attack_rates(count: int) -> None:
    """Seeds a second the attack tries, for each generator, and what a whole seed space would take."""
    for name, outputs, version, bits in (("today's deals", deal_outputs, None, SEED_BITS),
                                         ("old deals", legacy_outputs, min(LEGACY_VERSIONS), 30)):
        true = fresh_seed() if version is None else random.randrange(1_000_000_000)
        hand = Hand(pyengine.new_game("silver-bars", 2, true, rules_version=version))
        started = time.process_time()
        found = search(range(true + 1, true + 1 + count), outputs, hand)
        took = time.process_time() - started
        rate = count / took
        whole = 2**bits / rate
        said = f"{whole / 3600:,.1f} hours" if whole < 10 * SECONDS_PER_YEAR else \
            f"10^{math.log10(whole / SECONDS_PER_YEAR):.0f} years"
        print(f"{name}: {count:,} seeds searched in {took:.1f} s of CPU ({rate:,.0f} a second), {len(found)} found "
              f"beside the true one; the whole {bits}-bit space: {said} on one core")


def whole_deals(count: int) -> None:
    """Every card kind in every position of new games' whole deals, chi-square by position."""
    first = pyengine.new_game("silver-bars", 2, 0)
    kinds = sorted({str(card) for card in first.core.draw + first.core.hands[0] + first.core.hands[1]})
    started = time.process_time()
    counts = [Counter() for _ in range(95)]
    for _ in range(count):
        core = pyengine.new_game("silver-bars", 2, fresh_seed()).core
        dealt = [*core.hands[1 - core.dealer], *core.hands[core.dealer], *core.draw]  # as dealt, hands sorted
        for position, card in enumerate(dealt[14:], start=14):  # the draw pile keeps the shuffle's order
            counts[position][str(card)] += 1
    took = time.process_time() - started
    shares = Counter(str(card) for card in deck(2))
    statistic, df = 0.0, 0
    for position in range(14, 95):
        for kind in kinds:
            expected = count * shares[kind] / 95
            statistic += (counts[position][kind] - expected) ** 2 / expected
        df += len(kinds) - 1
    print(f"{count:,} whole deals ({took / count * 1e6:.0f} µs each, CPU): chi-square {statistic:,.0f} over {df:,} "
          f"degrees of freedom (the 0.1% bound {chi_square_bound(df):,.0f})")


def deal_cost(count: int) -> None:
    for version in (None, min(LEGACY_VERSIONS)):
        started = time.process_time()
        for seed in range(count):
            pyengine.new_game("silver-bars", 2, seed, rules_version=version)
        took = time.process_time() - started
        print(f"a new game of 100 Silver Bars, rules version {version or 'today'}: {took / count * 1e6:.0f} µs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--search", type=int, default=100_000)
    args = parser.parse_args()
    attack_rates(args.search)
    deal_cost(2_000)
    whole_deals(args.deals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
