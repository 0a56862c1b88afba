"""Whole games by links in the browser, from the first move: the long run of ``e2e/test_links.py``.

    python3 build.py && python3 tests/bench/links_browser.py [--games 2] [--seed 1]

Browser contexts of one Chromium with no WebRTC at all (each a device with its own storage, so no data channel)
play whole games from the deal to the end by nothing but links, every move chosen by a random human's clicks: 100
Silver Bars for two (the host and a guest), and Carbondale for three: the host, a guest and a computer seat (which
plays on the host's page between the human turns), and the host and two guests. Each guest opens its turn link in
its tab, plays its whole turn and gives back its reply link, which the host's tab opens. At the end each guest opens
its last link and sees how the game ended, and a device holding no key opens every link of the game with a wrong
key: each is refused and no card's name shows on its page. Prints, per game: the moves, the links, the longest
link, the wall time and what failed (nothing, when it passes); exits non-zero on any failure. The default test run
plays the ends of such games (``e2e/test_links.py``); this plays them whole.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

import devserver  # noqa: E402
from e2e.conftest import SUB_PATH, TEST_CHROMIUM, TEST_FLAGS  # noqa: E402
from e2e.test_links import (  # noqa: E402
    CARD,
    invitation,
    last_links,
    open_link,
    play_by_links,
    start_by_links,
    unconnected_device,
)
from e2e.test_remote import Device  # noqa: E402

LINK_LIMIT = 2_000
"""The longest a link may be, in characters."""


@dataclass(frozen=True)
class Table:
    """A game by links: its settings for the host's page and the seats played by guests' devices."""

    label: str
    game: str
    players: int
    bots: tuple[int, ...]
    guests: tuple[int, ...]


TABLES = (
    Table("100 Silver Bars, 2 devices", "silver-bars", 2, (), (1,)),
    Table("Carbondale, 2 devices and a computer", "carbondale", 3, (2,), (1,)),
    Table("Carbondale, 3 devices", "carbondale", 3, (), (1, 2)),
)
NAMES = ["Hal", "Bea", "Cy", "Di"]


@dataclass
class Played:
    moves: int
    links: list[str]
    seconds: float
    problems: list[str]


def play_whole(browser: Browser, base_url: str, table: Table, seed: int) -> Played:
    """One whole game of ``table`` by links, dealt by ``seed``, and the wrong-key check of its links."""
    devices = [unconnected_device(browser, base_url, "host")]
    problems: list[str] = []
    links: list[str] = []
    started = time.perf_counter()
    try:
        settings = {"game": table.game, "players": table.players, "seed": seed, "bots": list(table.bots), "delay": 0,
                    "remote": list(table.guests), "names": NAMES[: table.players]}
        host = start_by_links(devices[0], settings)
        guests = {}
        for seat in table.guests:
            devices.append(unconnected_device(browser, base_url, NAMES[seat], (390, 844)))
            guests[seat] = devices[-1].page
            links.append(invitation(host, seat))
            open_link(guests[seat], links[-1])
        play_by_links(host, guests, random.Random(seed), links)
        last_links(host, guests, links)
        moves = int(host.evaluate("document.documentElement.dataset.moves"))
        seconds = time.perf_counter() - started
        problems += [f"a link of {len(link)} characters" for link in links if len(link) >= LINK_LIMIT]
        problems += wrong_key_shows_nothing(unconnected_device(browser, base_url, "outsider"), links, devices)
    finally:
        problems += [p for made in devices for p in made.problems()]
        for made in devices:
            made.context.close()
    return Played(moves, links, seconds, problems)


def wrong_key_shows_nothing(outsider: Device, links: list[str], devices: list[Device]) -> list[str]:
    """Every link opened with a wrong key on a device that holds none: refused, and no card's name on the page."""
    devices.append(outsider)
    page = outsider.page
    page.goto("index.html")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'")
    problems = []
    for number, link in enumerate(links):
        if CARD.search(link):
            problems.append(f"link {number} holds a card's name in clear")
        open_link(page, link.split("&key=")[0] + "&key=" + "A" * 22)
        page.wait_for_function("document.querySelector('#lobby-error').textContent !== ''")
        if "damaged or was changed" not in page.locator("#lobby-error").inner_text():
            problems.append(f"link {number} with a wrong key: {page.locator('#lobby-error').inner_text()!r}")
        if CARD.search(page.locator("body").inner_text()):
            problems.append(f"link {number} with a wrong key shows a card's name")
        page.evaluate("document.querySelector('#lobby-error').textContent = ''")
    return problems


def run(tables: tuple[Table, ...], games: int, first_seed: int, report: Callable[[str], Any] = print) -> int:
    failures = 0
    with devserver.serving(ROOT / "dist", SUB_PATH) as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=TEST_CHROMIUM, args=TEST_FLAGS)
        report("| table | seed | moves | links | longest link | median link | seconds | problems |")
        report("|---|---|---|---|---|---|---|---|")
        for table in tables:
            for seed in range(first_seed, first_seed + games):
                played = play_whole(browser, base_url, table, seed)
                lengths = [len(link) for link in played.links]
                failures += bool(played.problems)
                report(f"| {table.label} | {seed} | {played.moves} | {len(played.links)} | {max(lengths):,} "
                       f"| {statistics.median(lengths):,.0f} | {played.seconds:.1f} "
                       f"| {'; '.join(played.problems[:3]) or 'none'} |")
        browser.close()
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="whole games of each table")
    parser.add_argument("--seed", type=int, default=1, help="the first game's deal")
    parser.add_argument("--table", type=int, choices=range(1, len(TABLES) + 1),
                        help="only this table: " + ", ".join(f"{n} {t.label}" for n, t in enumerate(TABLES, 1)))
    args = parser.parse_args()
    tables = TABLES if args.table is None else (TABLES[args.table - 1],)
    failures = run(tables, args.games, args.seed)
    print(f"{failures} of {len(tables) * args.games} games failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
