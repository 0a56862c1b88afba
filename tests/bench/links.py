"""Playing at your own pace: how long the links of whole games are, game by game and table by table.

    python tests/bench/links.py [--games 5] [--address 100]

Plays ``--games`` whole games of every game at each of its table sizes (the fewest seats of two or more, four, and
the most it takes) by links alone, as tests/test_links.py does: the first seat plays on the host's device, every
other seat by turn links and replies, each choosing its moves at random. Each link is measured as the page seals it
(``cardtable_web.links.link_length``: the site's address of ``--address`` characters, the table, the seat, then the
nonce, the deflated payload and the tag in base64url). Prints, per game and table size, the number of links, the
median and the longest turn link, and the longest reply; the target is every link under 2,000 characters.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "web"))

from cardtable_web.links import MAX_LINK, link_length, unpack  # noqa: E402

import pyengine  # noqa: E402
from tests.test_links import TABLE, LinkTable  # noqa: E402


def table_sizes(game: str) -> list[int]:
    info = pyengine.GAMES[game]
    return sorted({max(2, info.min_players), min(4, info.max_players), info.max_players})


def measure(game: str, players: int, games: int, address: int) -> dict[str, float]:
    turns: list[int] = []
    replies: list[int] = []
    started = time.perf_counter()
    for seed in range(games):
        table = LinkTable(pyengine.new_game(game, players, seed))
        table.play_out(random.Random(seed))
        for seat, packed in table.links:
            kind = unpack(packed)["kind"]
            (turns if kind == "turn" else replies).append(link_length(packed, TABLE, seat, address))
    return {"links": len(turns) + len(replies), "median": statistics.median(turns), "longest": max(turns),
            "reply": max(replies), "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--address", type=int, default=100, help="the site's address before '#', in characters")
    args = parser.parse_args()
    print(f"{'game':<18}{'seats':>6}{'links':>8}{'median':>8}{'longest':>9}{'reply':>7}  (characters; "
          f"target {MAX_LINK}, a {args.address}-character site address)")
    worst = 0
    for game in pyengine.GAMES:
        for players in table_sizes(game):
            found = measure(game, players, args.games, args.address)
            worst = max(worst, int(found["longest"]), int(found["reply"]))
            print(f"{game:<18}{players:>6}{found['links']:>8}{found['median']:>8.0f}{found['longest']:>9}"
                  f"{found['reply']:>7}  ({found['seconds']:.0f} s)", flush=True)
    print(f"longest link of all: {worst} characters ({'under' if worst < MAX_LINK else 'not under'} {MAX_LINK})")


if __name__ == "__main__":
    main()
