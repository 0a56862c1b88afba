"""How long a computer's whole turn takes on screen at a pace, per game: from the human's move until the table
waits for the human again (every step of the computer's turn drawn, its slides played).

    python tests/bench/pace.py [--game carbondale] [--pace 600] [--level normal] [--turns 12] [--games 1]

Plays games (``--turns N``: only the first N computer turns of each) in the built site (``dist/``) in Debian's
Chromium, one human (random clicks, as ``e2e/play.py`` clicks) against one computer at ``--level``, at the chosen
pace (``--pace``, milliseconds: 600 is the lobby's "Normal"). Prints per game the median, the slowest and the
steps of a turn (computer moves drawn), against the target: a median of at most 2.5 s at the normal pace.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

import devserver  # noqa: E402
import pyengine  # noqa: E402
from e2e.conftest import CHROMIUM, FLAGS, SUB_PATH, returning_visitor  # noqa: E402
from e2e.play import one_click  # noqa: E402

TARGET_SECONDS = 2.5
"""The median time (seconds) of a computer's whole turn at the normal pace, in every game."""
WATCH = """() => {
  window.paceTurns = [];
  let started = null, steps = 0;
  const root = document.documentElement;
  new MutationObserver(() => {
    const state = root.dataset.state;
    if (state === "thinking" && started === null) { started = performance.now(); steps = 0; }
    if (started !== null && (state === "ready" || state === "over")) {
      window.paceTurns.push([(performance.now() - started) / 1000, steps]);
      started = null;
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  new MutationObserver(() => { if (started !== null) steps += 1; })
    .observe(document.getElementById("board"), { childList: true, subtree: true, attributes: true });
}"""
"""Times each computer turn: from the page's state turning to "thinking" until it waits again; counts redraws (one
batch of changes to the table each)."""
SETTLED = "['ready', 'over'].includes(document.documentElement.dataset.state)"


def play(page: Page, game: str, seed: int, pace: int, level: str, turns: int) -> list[tuple[float, int]]:
    """One game (or its first ``turns`` computer turns): each computer turn's seconds and redraws."""
    page.goto(f"index.html?game={game}&players=2&seed={seed}&bots=1&level={level}&delay={pace}")
    page.wait_for_function(SETTLED, timeout=300_000)
    page.evaluate(WATCH)
    rnd = random.Random(seed)
    for _ in range(2000):
        page.wait_for_function(SETTLED, timeout=300_000, polling=50)
        if page.evaluate("document.documentElement.dataset.state") == "over":
            break
        if page.evaluate("window.paceTurns.length") >= turns > 0:
            break
        handover = page.locator("#board [data-ui='take-device']")
        if handover.count():
            handover.first.click()
            continue
        one_click(page, rnd)
    return [tuple(t) for t in page.evaluate("window.paceTurns")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--pace", type=int, default=600, help="milliseconds before a computer's turn (600: normal)")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--turns", type=int, default=0, help="computer turns per game (0: whole games)")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--site", default=str(ROOT / "dist"))
    args = parser.parse_args()
    games = [g for g, info in pyengine.GAMES.items() if info.max_players >= 2 and (not args.game or g in args.game)]
    print(f"pace {args.pace} ms, computer {args.level}, turns per game: {args.turns or 'whole game'}")
    with devserver.serving(Path(args.site), SUB_PATH) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(base_url=url, service_workers="block", viewport={"width": 1366, "height": 768})
        returning_visitor(context, url)
        page = context.new_page()
        page.set_default_timeout(180_000)
        for game in games:
            turns: list[tuple[float, int]] = []
            for n in range(args.games):
                turns += play(page, game, args.seed + n, args.pace, args.level, args.turns)
            seconds = [t for t, _ in turns]
            median = statistics.median(seconds) if seconds else 0.0
            verdict = "met" if median <= TARGET_SECONDS else "NOT met"
            steps = statistics.median([s for _, s in turns]) if turns else 0
            slowest = max(seconds, default=0)
            print(f"{game:17} {len(turns)} computer turns: median {median:.2f} s, slowest {slowest:.2f} s, "
                  f"median redraws {steps:.0f}; target {TARGET_SECONDS} s at the normal pace: {verdict}", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
