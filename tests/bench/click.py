"""What a click costs the table in Python: the controller's answer to a human's move, the table drawn for it
included (its HTML, the take-back check, the address and the kept game), under CPython; prints its figures.

    python tests/bench/click.py [--games N] [--only GAME]

One human against a computer that plays at random (its search is measured by ``engine.py``): every human
click that plays a move is timed (CPU seconds), median and 95th percentile per game. The browser runs the same
Python in WebAssembly, about 1.5-2 times slower, and adds its DOM work.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[2] / "web")]

from cardtable_web.controller import TableController  # noqa: E402
from cardtable_web.effects import Click, Decided, Effect, TableScreen, Think  # noqa: E402
from cardtable_web.keeping import Keeper, MemoryStorage  # noqa: E402

import pyengine  # noqa: E402

CHOICE = '"'


def offered(screen: TableScreen) -> list[tuple[str, str]]:
    """The board's ``data-action`` and ``data-select`` values (the hand-over's button too)."""
    found = []
    for kind in ("action", "select", "ui"):
        marker = f'data-{kind}="'
        for part in screen.board_html.split(marker)[1:]:
            value = part.split(CHOICE, 1)[0].replace("&quot;", '"').replace("&amp;", "&").replace("&#x27;", "'")
            if kind != "ui" or value == "take-device":
                found.append((kind, value))
    return found


def run(controller: TableController, effects: list[Effect], rnd: random.Random) -> TableScreen | None:
    """Run effects as the page would, the computer answering at once with a random legal move."""
    screen = None
    pending = list(effects)
    while pending:
        effect = pending.pop(0)
        if isinstance(effect, TableScreen):
            screen = effect
        elif isinstance(effect, Think):
            task = effect.task
            pending += controller.decided(Decided(task, rnd.choice(task.state.legal_texts()), 1))
    return screen


def clicks(game: str, seed: int) -> list[float]:
    """CPU seconds of each human click that played a move, over one game."""
    rnd = random.Random(seed)
    controller = TableController(Keeper(MemoryStorage()))
    settings = {"game": game, "players": 2 if game != "carbon-city-zero" else 1, "seed": seed,
                "bots": [1] if game != "carbon-city-zero" else [], "level": "easy", "delay": 0}
    screen = run(controller, controller.start(json.dumps(settings)), rnd)
    times = []
    while screen is not None and not screen.over:
        kind, value = rnd.choice([c for c in offered(screen) if c[0] == "action"] or offered(screen))
        click = Click(action=value) if kind == "action" else Click(select=value) if kind == "select" else Click(
            ui=value)
        started = time.process_time()
        effects = controller.click(click)
        if kind == "action":
            times.append(time.process_time() - started)
        screen = run(controller, effects, rnd) or screen
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    print("| game | clicks | median ms | 95th percentile ms |")
    print("|---|---|---|---|")
    for game in pyengine.GAMES:
        if args.only and game != args.only:
            continue
        times = [t for seed in range(args.games) for t in clicks(game, seed)]
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"| {pyengine.GAMES[game].title} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
              f"{p95 * 1000:.1f} |")


if __name__ == "__main__":
    main()
