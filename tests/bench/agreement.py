"""How steady the computer's choices are: normal and hard, several seeds each, on positions of greedy games.

    python tests/bench/agreement.py [--game carbondale] [--positions 30] [--seeds 3]
    python tests/bench/agreement.py --game cardcassonne --ranking 3000

A search whose choice changes with its seed on most positions is bound by noise, and more iterations buy it
strength; one that picks the same move whatever the seed gains little from them. Positions come from two-player
games of the greedy player of ``strength.py`` (a position is taken now and then where the player to move has at
least three different moves). For each level the script prints how often its most common choice was picked (1.00:
every seed agreed), how often that choice is normal's and hard's, and its CPU milliseconds per decision.

With ``--ranking N`` it checks instead a game's ``rank_actions`` (what a level's root width keeps): on each position
the game ranks, where a search of N iterations without a root width would choose among the ranked actions, and how
often that is among hard's root width.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pyengine  # noqa: E402
from pyengine.ai import LEVELS, SearchBot  # noqa: E402
from pyengine.core import State, rules_for  # noqa: E402
from pyengine.rng import Rng  # noqa: E402
from tests.bench.strength import GreedyBot  # noqa: E402

LEVEL_NAMES = ("normal", "hard")


def positions(game: str, wanted: int, seed: int) -> list[State]:
    """``wanted`` positions of greedy two-player games, each with at least three different moves to choose from."""
    rnd = random.Random(seed)
    found: list[State] = []
    number = 0
    while len(found) < wanted:
        state = pyengine.new_game(game, 2, seed + number)
        bots = [GreedyBot(game, 2 * number), GreedyBot(game, 2 * number + 1)]
        number += 1
        while not state.is_terminal() and len(found) < wanted:
            seat = state.current_player
            assert seat is not None
            if len({str(a) for a in state.legal_actions()}) >= 3 and rnd.random() < 0.08:
                found.append(state)
            state = state.apply(bots[seat].choose(state))
    return found


def ranking(game: str, found: list[State], iterations: int) -> None:
    """Where a wide search's choice stands in the game's ranking (hard's settings, no root width, ``iterations``)."""
    hard = LEVELS["hard"].for_rules(rules_for(game))
    width = hard.root_width
    wide = replace(hard, iterations=iterations, root_width=None, max_seconds=None, name="")
    places: list[int] = []
    for i, state in enumerate(found):
        seat = state.current_player
        world = state.sample_hidden(seat, Rng.from_seed(i)).core
        ranked = state.rules.rank_actions(world, state.rules.search_actions(world))
        if ranked is None:
            continue
        choice = str(SearchBot(wide, seed=i).choose(state))
        places.append([str(a) for a in ranked].index(choice))
        print(f"  position {i}: {len(ranked)} actions, the search chose the one ranked {places[-1] + 1}", flush=True)
    if not places:
        print(f"{game} ranks none of these positions")
        return
    kept = sum(place < width for place in places) if width else len(places)
    print(f"{game}: {len(places)} ranked positions; a search of {iterations} iterations chose one of the best {width}"
          f" (hard's root width) on {kept}; places {sorted(p + 1 for p in places)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="carbondale", choices=tuple(pyengine.GAMES))
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--ranking", type=int, default=0, metavar="N",
                        help="check the game's ranking against a search of N iterations instead")
    args = parser.parse_args()
    found = positions(args.game, args.positions, args.seed)
    if args.ranking:
        ranking(args.game, found, args.ranking)
        return
    steady: dict[str, float] = dict.fromkeys(LEVEL_NAMES, 0.0)
    cpu: dict[str, float] = dict.fromkeys(LEVEL_NAMES, 0.0)
    modes: dict[tuple[int, str], str] = {}
    for i, state in enumerate(found):
        for name in LEVEL_NAMES:
            started = time.process_time()
            picks = [str(SearchBot(LEVELS[name], seed=s * 7919 + i).choose(state)) for s in range(args.seeds)]
            cpu[name] += time.process_time() - started
            mode, count = Counter(picks).most_common(1)[0]
            steady[name] += count / args.seeds
            modes[(i, name)] = mode
    n = len(found)
    print(f"{args.game}: {n} positions, {args.seeds} seeds each")
    for name in LEVEL_NAMES:
        same = {other: sum(modes[(i, name)] == modes[(i, other)] for i in range(n)) / n for other in LEVEL_NAMES}
        print(
            f"  {name:7} most common choice {steady[name] / n:.2f} of the picks"
            f"   same as normal's {same['normal']:.2f}   as hard's {same['hard']:.2f}"
            f"   {1000 * cpu[name] / (n * args.seeds):.0f} ms per decision (CPU)"
        )


if __name__ == "__main__":
    main()
