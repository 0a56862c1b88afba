"""How much better the computer plays than ``random``, per game; prints its figures.

    python tests/bench/strength.py [--level normal] [--games N] [--only GAME]

Competitive games: the level's bot against ``random`` seat for seat, rotated round the
table game by game (win share per seat of each bot; ties split). Cooperative games: a table
of the level's bot against a table of ``random`` (the share of games won).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pyengine  # noqa: E402
from pyengine.simulate import simulate  # noqa: E402

PLAYERS = {"carbles": 2, "carbon-city-zero": 1, "carbondale": 2, "cardcassonne": 2, "silver-bars": 2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    print(f"{'game':18} {'players':>7} {'games':>5} {args.level + ' wins':>12} {'random wins':>12} {'seconds':>8}")
    for game, info in pyengine.GAMES.items():
        if args.only and game != args.only:
            continue
        players = PLAYERS.get(game, max(2, info.min_players))
        if info.cooperative:
            bot = simulate(game, players, args.games, args.seed, [args.level] * players)
            rnd = simulate(game, players, args.games, args.seed, ["random"] * players)
            ours, theirs = bot["win_rate_by_bot"][args.level], rnd["win_rate_by_bot"]["random"]
            seconds = bot["seconds"] + rnd["seconds"]
        else:
            bots = [args.level] + ["random"] * (players - 1)
            summary = simulate(game, players, args.games, args.seed, bots, rotate=True)
            ours, theirs = summary["win_rate_by_bot"][args.level], summary["win_rate_by_bot"]["random"]
            seconds = summary["seconds"]
        print(f"{game:18} {players:>7} {args.games:>5} {ours:>12.0%} {theirs:>12.0%} {seconds:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
