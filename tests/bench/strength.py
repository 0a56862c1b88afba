"""How strong the computer plays, per game, against a yardstick; prints win rates with 95% intervals.

    python tests/bench/strength.py [--level normal] [--against greedy] [--games N] [--game ID] [--players N]
                                   [--seed S] [--jobs J] [--first G]

Competitive games: the level's bot against the ``--against`` player (``random``, ``greedy``, ``rulebased``,
``counting`` (Silver Bars and Card-cassonne only) or a level; ``--level`` may also name one of those players, e.g.
``--level rulebased --against greedy``),
seats rotated game by game. At 2 players a game is won, lost or tied (ties count half). At 3-4 players
the table mixes both kinds of seat (rotated) and every pair of one level seat and one opponent seat is
a duel: won when only the level seat wins or, with no winner between them, it scored more (ties half);
50% means equal strength whatever the table. Cooperative games: the share of games a table of the level
wins (``--against`` is ignored). Every search runs on its iteration budget, without the time cap, so the
figures are the same on any machine; the milliseconds per decision (CPU time) of the level are printed.

The greedy player is a casual human's one-ply rule: it tries each legal move on a re-deal of what its
seat cannot see (``sample_hidden`` of its seat; never the true hidden cards) and prefers the move that
scores or takes most now (the game's ``greedy_gain`` below), ties broken at random.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pyengine  # noqa: E402
from pyengine import Rng  # noqa: E402
from pyengine.ai import LEVELS, Bot, RandomBot, SearchBot  # noqa: E402
from pyengine.core import Core, State, rules_for  # noqa: E402
from tests.bench.counting import CHOOSERS as COUNTING_GAMES  # noqa: E402
from tests.bench.counting import CountingBot  # noqa: E402
from tests.bench.rulebased import CHOOSERS, RuleBasedBot  # noqa: E402
from tests.games import GAME_IDS, settings  # noqa: E402

PLAYERS = {game: settings(game).strength_counts or settings(game).players(game)[:2] for game in GAME_IDS}
"""The player counts measured by default, per game."""


def _lead(values: list[float], seat: int) -> float:
    """The seat's value minus the best other seat's."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def _carbles(core: Any, seat: int) -> float:
    """Marbles' progress of the seat's side against the others' (a knockout sends a marble back): a marble on the
    ring counts the spaces beyond its home, one in the goal a full lap and its slot. Read from the seat's view."""
    view = rules_for("carbles").view(core, seat)
    size, homes = view["track_size"], view["homes"]

    def progress(p: int) -> int:
        total = 0
        for place in view["marbles"][p]:
            if "goal" in place:
                total += size + place["goal"][1]
            elif "track" in place:
                total += 1 + (place["track"] - homes[p]) % size
        return total

    mine = next(tuple(t) for t in view["teams"] or [[p] for p in range(len(homes))] if seat in t)
    return sum(progress(p) * (1 if p in mine else -1) for p in range(len(homes)))


def _silver(core: Any, seat: int) -> float:
    """Silver banked and in the vaults (locked silver a little more), the seat's against the other's."""
    def worth(s: int) -> float:
        return float(core.totals[s] + sum(v.silver * (1.1 if v.locked else 1.0) for v in core.vaults[s]))
    return worth(seat) - worth(1 - seat)


def _cardcassonne(core: Any, seat: int) -> float:
    """Points, plus one for each own token on the table (a casual player claims every area it can)."""
    points = [p + sum(1 for *_, owner in core.tokens if owner == s) for s, p in enumerate(core.points)]
    return _lead(points, seat)


def _ccz(core: Any, seat: int) -> float:
    """Carbon cut (the team's shared goal)."""
    return -float(rules_for("carbon-city-zero").scores(core)[0])


GREEDY_GAIN: dict[str, Callable[[Core, int], float]] = {
    "carbles": _carbles,
    "carbondale": lambda core, seat: _lead([float(s) for s in rules_for("carbondale").scores(core)], seat),
    "cardcassonne": _cardcassonne,
    "silver-bars": _silver,
    "carbon-city-zero": _ccz,
}
"""Per game: how good a position is for ``seat`` right now, as a casual player counts it."""


class GreedyBot(Bot):
    """One-ply greedy: the legal move whose result (on a re-deal of the seat's unseen cards) gains most now."""

    name = "greedy"

    def __init__(self, game: str, seed: int = 0) -> None:
        self.gain = GREEDY_GAIN[game]
        self.random = random.Random(f"greedy:{seed}")

    def think(self, state: State) -> Generator[int, None, None]:
        seat = state.current_player
        assert seat is not None
        rules = state.rules
        world = rules.sample_hidden(state.core, seat, Rng.from_seed(self.random.getrandbits(62)))
        scored = [(self.gain(rules.apply(world, a), seat), self.random.random(), i)
                  for i, a in enumerate(rules.legal_actions(world))]
        legal = {str(a): a for a in state.legal_actions()}
        actions = rules.legal_actions(world)
        for *_, i in sorted(scored, reverse=True):
            if str(actions[i]) in legal:  # the move is legal in the true state too (it is the seat's own)
                self.decision = legal[str(actions[i])]
                break
        self.iterations_done = 1
        yield 1


YARDSTICKS = ("random", "greedy", "rulebased", "counting")
"""The players that are not a level: ``rulebased`` is tests/bench/rulebased.py (competitive games only),
``counting`` tests/bench/counting.py (100 Silver Bars and Card-cassonne)."""


def make(name: str, game: str, seed: int, tune: dict[str, Any] | None = None, players: int | None = None) -> Bot:
    """A player by name: random, greedy, rulebased or a level (on its iteration budget, no time cap), with the
    settings of ``tune`` tried on it."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(game, seed)
    if name == "rulebased":
        return RuleBasedBot(game, seed)
    if name == "counting":
        return CountingBot(game, seed)
    level = replace(LEVELS[name], max_seconds=None)
    if tune:
        level = replace(level.for_rules(rules_for(game), players), name="", **tune)
    return SearchBot(level, seed, name)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def duel(state: State, a: int, b: int) -> float:
    """Seat a's result against seat b at the end: 1 ahead, 0.5 level, 0 behind."""
    won = state.winners()
    if (a in won) != (b in won):
        return 1.0 if a in won else 0.0
    sa, sb = state.scores()[a], state.scores()[b]
    return 0.5 if sa == sb else float(sa > sb)


Job = tuple[str, int, int, int, str, str, dict[str, Any]]


def one_game(job: Job) -> tuple[float, int, float, int, str]:
    """Game ``g`` of a match: the level's points and duels, its CPU seconds and decisions, and a line saying how it
    ended."""
    game, players, seed, g, level, against, tune = job
    info = pyengine.GAMES[game]
    if info.cooperative:
        names = [level] * players
    else:
        names = [level if (s + g) % 2 == 0 else against for s in range(players)]
        if players == 2:
            names = [level, against] if g % 2 == 0 else [against, level]
    bots = [make(name, game, seed * 1000 + g * 16 + s, tune if name == level else None, players)
            for s, name in enumerate(names)]
    state = pyengine.new_game(game, players, seed + g)
    cpu = 0.0
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        t0 = time.process_time()
        action = bots[seat].choose(state)
        if names[seat] == level:
            cpu += time.process_time() - t0
            decisions += 1
        state = state.apply(action)
    points = 0.0
    count = 0
    outcome = state.outcome()
    assert outcome is not None
    if outcome.cooperative:
        points, count = (1.0 if outcome.won else 0.0), 1
    else:
        for a in range(players):
            for b in range(players):
                if names[a] == level and names[b] != level:
                    points += duel(state, a, b)
                    count += 1
    return points, count, cpu, decisions, f"game {g + 1}: seats {names}, scores {state.scores()}, {level} +{points:g}"


def played(
    work: list[Job], jobs: int
) -> Iterator[tuple[float, int, float, int, str]]:
    """Each game's result (:func:`one_game`) in order, played here or in ``jobs`` processes."""
    if jobs <= 1:
        yield from map(one_game, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(one_game, work, chunksize=1)


def match(
    game: str, players: int, games: int, seed: int, level: str, against: str, verbose: bool = False, jobs: int = 1,
    first: int = 0, tune: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play games ``first`` to ``first + games - 1`` of the match (in ``jobs`` processes); the level's result (wins
    or duels), its interval and its CPU ms per decision. A long match can be played in slices (``first``), each game
    the same whichever slice plays it."""
    work = [(game, players, seed, g, level, against, tune or {}) for g in range(first, first + games)]
    points = 0.0
    count = decisions = 0
    cpu = 0.0
    for game_points, duels, seconds, decided, line in played(work, jobs):
        points += game_points
        count += duels
        cpu += seconds
        decisions += decided
        if verbose:
            print(f"  {line}", file=sys.stderr, flush=True)
    low, high = wilson(points, count)
    return {"rate": points / count, "low": low, "high": high, "n": count,
            "ms": 1000 * cpu / max(decisions, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="normal", choices=(*LEVELS, *YARDSTICKS),
                        help="the player measured: a level, or a yardstick (e.g. rulebased against greedy)")
    parser.add_argument("--against", default="greedy", choices=(*YARDSTICKS, *LEVELS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--game", default=None, choices=tuple(pyengine.GAMES))
    parser.add_argument("--players", type=int, default=None, help="one player count (default: the usual ones)")
    parser.add_argument("--verbose", action="store_true", help="print each game's result as it ends")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, each in a process of its own")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (0: the match's first game)")
    parser.add_argument("--tune", action="append", default=[], metavar="NAME=JSON",
                        help="try a setting of the measured level, e.g. root_width=8 (repeatable)")
    args = parser.parse_args()
    tune = {name: json.loads(value) for name, value in (t.split("=", 1) for t in args.tune)}
    print(f"{'game':18} {'players':>7} {'games':>5} {'duels':>5} {args.level + ' vs ' + args.against:>18}"
          f" {'95% interval':>13} {'ms/decision':>11}")
    for game in pyengine.GAMES:
        if args.game and game != args.game:
            continue
        if "rulebased" in (args.level, args.against) and game not in CHOOSERS:
            continue  # no rule-based player for a cooperative game
        if "counting" in (args.level, args.against) and game not in COUNTING_GAMES:
            continue  # the counting player plays two games
        for players in (args.players,) if args.players else PLAYERS[game]:
            r = match(game, players, args.games, args.seed, args.level, args.against, args.verbose, args.jobs,
                      args.first, tune)
            what = "team wins" if pyengine.GAMES[game].cooperative else ""
            print(f"{game:18} {players:>7} {args.games:>5} {r['n']:>5} {r['rate']:>14.0%} {what:3}"
                  f" {r['low']:>6.0%}-{r['high']:<5.0%} {r['ms']:>11.0f}", flush=True)


if __name__ == "__main__":
    main()
