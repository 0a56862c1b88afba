"""Engine and computer-player benchmark under CPython; prints its figures.

    python tests/bench/engine.py [--games N] [--decisions N] [--only GAME]

For each game: actions per CPU second in random playouts, through the game's ``State`` (``legal_actions`` +
``apply``, every action checked against the legal ones by its text, as the page and a replay do) and through
the rules alone (``Rules.legal_actions`` + ``Rules.apply`` on cores, as the computer's search plays), full games
per second, and the computer's decision time per level (median and 95th percentile) on positions taken from
random playouts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pyengine  # noqa: E402
from pyengine.ai import LEVELS, make_bot  # noqa: E402
from tests.games import GAME_IDS, settings  # noqa: E402

PLAYERS = {game: settings(game).bench_counts or settings(game).players(game) for game in GAME_IDS}
"""Table sizes for the playout speeds, each game's from the one table of test settings (``tests/games.py``)."""
DECISION_PLAYERS = {"carbles": (2, 12), "carbon-city-zero": (1, 3)}
"""Table sizes for the decision times (default: 2 players)."""


def playout_speed(game: str, players: int, games: int, rules_only: bool = False) -> tuple[float, float, float]:
    """(actions per second, games per second, mean actions per game) over random playouts, through the
    ``State`` or (``rules_only``) through the rules' own ``legal_actions`` and ``apply``, as the search plays.

    Seconds are this process's CPU time (the wall clock also counts time other guests of a shared
    machine hold the core). Even so, runs on these machines vary up to twofold; see ``--repeat``.
    """
    actions = 0
    started = time.process_time()
    for seed in range(games):
        rnd = random.Random(seed)
        state = pyengine.new_game(game, players, seed)
        if rules_only:
            rules, core = state.rules, state.core
            while True:
                choices = rules.legal_actions(core)
                if not choices:
                    break
                core = rules.apply(core, rnd.choice(choices))
                actions += 1
            continue
        while True:
            legal = state.legal_actions()
            if not legal:
                break
            state = state.apply(rnd.choice(legal))
            actions += 1
    elapsed = time.process_time() - started
    return actions / elapsed, games / elapsed, actions / games


def decision_times(game: str, players: int, level: str, decisions: int) -> list[float]:
    """Seconds per decision of a bot at ``level`` on positions from random playouts."""
    rnd = random.Random(f"decisions/{game}")
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        state = pyengine.new_game(game, players, seed)
        seed += 1
        for _ in range(rnd.randrange(0, 60)):
            if state.is_terminal():
                break
            state = state.apply(rnd.choice(state.legal_actions()))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        bot = make_bot(level, seed)
        t0 = time.perf_counter()
        bot.choose(state)
        times.append(time.perf_counter() - t0)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--decisions", type=int, default=20, help="decisions timed per level (0: playouts only)")
    parser.add_argument("--only", default=None)
    parser.add_argument("--repeat", type=int, default=3, help="playout runs per row; the fastest is printed")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    print(f"random playouts, {args.games} games per row, best of {args.repeat} runs (CPU seconds)")
    print(f"{'game':18} {'players':>7} {'actions/s':>10} {'games/s':>8} {'actions/game':>12} {'rules alone':>12}")
    for game in GAME_IDS:
        if args.only and game != args.only:
            continue
        counts = PLAYERS[game]
        for players in counts:
            aps, gps, length = max(playout_speed(game, players, args.games) for _ in range(args.repeat))
            alone = max(playout_speed(game, players, args.games, rules_only=True)[0] for _ in range(args.repeat))
            print(f"{game:18} {players:>7} {aps:>10,.0f} {gps:>8.2f} {length:>12.0f} {alone:>12,.0f}", flush=True)
    if args.decisions <= 0:  # playouts only
        return
    print()
    print(f"{'game':18} {'players':>7} {'level':>7} {'median ms':>10} {'p95 ms':>8}")
    for game, info in pyengine.GAMES.items():
        if args.only and game != args.only:
            continue
        for players in DECISION_PLAYERS.get(game, (max(2, info.min_players),)):
            for level in LEVELS:
                count = args.decisions if level != "hard" else max(5, args.decisions // 4)
                times = decision_times(game, players, level, count)
                median, p95 = statistics.median(times) * 1000, percentile(times, 0.95) * 1000
                print(f"{game:18} {players:>7} {level:>7} {median:>10.0f} {p95:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
