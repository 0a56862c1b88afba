"""A whole decision on one screen, and tap targets a finger hits: per game, player count and screen size.

    python tests/bench/fit.py [--games 1] [--game carbles] [--players 2] [--size small] [--decisions 0]
                              [--tap-decisions 24] [--shots DIR]

Plays whole games (``--decisions N``: only the first N decisions of each) in the built site (``dist/``, built
first when missing) in Debian's Chromium, one human against easy computers at instant pace, at every player
count of every game (``--players``: only these counts), clicking as a person does
(``e2e/play.py``'s ``one_click``). At each human decision, with the page scrolled to its top, it records whether
(a) the hand (the player's own cards or area: ``GAMES`` in ``e2e/test_layout.py``), (b) the first tap (the hand's
first card, where the game takes a selection first), (c) every place it then offers (``#board [data-action]``:
network cells, grid cells, track spaces, vaults, the market) and (d) the end-turn control where the game has one
are all wholly inside the viewport. Prints per game, player count and size "decisions that needed scrolling: X of
Y (Z%)" and what was off screen most, then per size the share of all decisions that needed no scrolling, against
the target: 95%.

At phone sizes (390x844 with touch, 360x740) it also measures, over the first ``--tap-decisions`` decisions of each
game, before and after the first tap, every tap target's hit area (how far from its centre a tap still lands on
it), and prints how many are under 24 CSS px either way and the share at least 44x44, against the targets: none
under 24, and 75% at least 44x44. A target under 24 px with an equivalent (a target of 24 px or more that does the
same, WCAG 2.2's exception: a Carbles marble on a crowded ring and its button under the ring) is counted as that
equivalent, and the figures say how many there were.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

import devserver  # noqa: E402
import pyengine  # noqa: E402
from e2e.conftest import CHROMIUM, FLAGS, SUB_PATH, returning_visitor  # noqa: E402
from e2e.play import one_click  # noqa: E402
from e2e.test_fingers import HIT_AREAS, TAP_TARGETS, tally  # noqa: E402
from e2e.test_layout import GAMES  # noqa: E402

SIZES = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
    "small": {"viewport": {"width": 360, "height": 740}},
    "desktop": {"viewport": {"width": 1366, "height": 768}},
}
CASES = [(game, n) for game, info in pyengine.GAMES.items() for n in range(info.min_players, info.max_players + 1)]
"""Every game at every player count it is played by."""
TARGET = 95
"""The share of decisions (percent) that must need no scrolling, at every size."""
PHONES = ("phone", "small")
"""The sizes where tap targets are measured."""
TAPS_LARGE = 75
"""The share of tap targets (percent) whose hit area must be at least 44x44 CSS px at phone sizes."""

IN_VIEW = """([selector, not]) => [...document.querySelectorAll(selector)].some((e) => {
  if (not && e.matches(not)) return false;
  const b = e.getBoundingClientRect();
  return b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
})"""
COUNT = """([selector, not]) => [...document.querySelectorAll(selector)].filter((e) => {
  if (not && e.matches(not)) return false;
  return e.getBoundingClientRect().width > 0;
}).length"""
PLACES = """[...document.querySelectorAll('#board [data-action]')].map((e) => {
  const [x, y, w, h] = ["left", "top", "width", "height"].map((k) => Math.round(e.getBoundingClientRect()[k]));
  return `${e.dataset.action}: ${x},${y} ${w}x${h}`;
})"""
"""Where each place to play is (to find out why a decision needed scrolling)."""
ANIMATIONS = """async () => {
  const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
  const ended = Promise.all(finite.map((a) => a.finished.catch(() => null)));
  await Promise.race([ended, new Promise((done) => setTimeout(done, 1500))]);
}"""
SETTLED = "['ready', 'over'].includes(document.documentElement.dataset.state)"
IN_ONE_VIEW = """(e) => {
  const b = e.getBoundingClientRect();
  return b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
}"""
ALL_IN_VIEW = """([selector, not]) => [...document.querySelectorAll(selector)].every((e) => {
  if (not && e.matches(not)) return true;
  const b = e.getBoundingClientRect();
  return b.width === 0 || (b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth);
})"""
"""Whether every drawn element of ``selector`` lies wholly inside the viewport."""


def state(page: Page) -> str:
    page.wait_for_function(SETTLED, timeout=300_000)  # a busy machine
    return str(page.evaluate("document.documentElement.dataset.state"))


def settle(page: Page) -> None:
    """Let the table's finite animations end (at most 1.5 s), then scroll to the top: a move's pop grows an
    element for a moment, which would count as a sideways scroll."""
    page.evaluate(ANIMATIONS)
    page.evaluate("scrollTo(0, 0)")


def measure(page: Page, game: str, taps: list[list[object]] | None) -> list[str]:
    """What of a whole decision is off the first screen now (an empty list: it all fits): the hand, the first
    tap (the hand's first card, where the game takes a selection first), every place it then offers and the
    end-turn control. With ``taps``, every tap target's hit area is added to it, before and after the first tap."""
    _, hand, choose, end = GAMES[game]
    settle(page)
    off = []
    if taps is not None:
        taps += page.evaluate(HIT_AREAS, TAP_TARGETS)
    if not page.evaluate(IN_VIEW, [hand, None]):
        off.append("hand")
    targets = ["#board [data-action]", end]
    if not page.evaluate(COUNT, targets) and choose and page.locator(choose).count():
        first = page.locator(choose).first
        if not first.evaluate(IN_ONE_VIEW):
            off.append("first tap")
        first.click(force=True)  # at once, even while the last move's cards still slide
        state(page)
        settle(page)
        if taps is not None:
            taps += page.evaluate(HIT_AREAS, TAP_TARGETS)
    if page.evaluate(COUNT, targets) and not page.evaluate(ALL_IN_VIEW, targets):
        off.append("places to play")
    if end and page.evaluate(COUNT, [end, None]) and not page.evaluate(IN_VIEW, [end, None]):
        off.append("end turn")
    if page.evaluate("document.documentElement.scrollWidth") > page.viewport_size["width"]:
        off.append("sideways scroll")
    return off


def play(
    page: Page, game: str, players: int, seed: int, cap: int, shots: str | None, size: str, taps: Taps
) -> tuple[int, collections.Counter[str]]:
    """Play one game (or ``cap`` decisions of it); return the decisions measured and what was off screen. A page
    that never settles ends the game there: the decisions so far count, and "stalled" says so (with a screenshot
    in ``shots``)."""
    off: collections.Counter[str] = collections.Counter()
    try:
        playing(page, game, players, seed, cap, shots, size, off, taps)
    except PlaywrightError as error:
        off["stalled"] += 1
        marker = page.evaluate("document.documentElement.dataset.state")
        first = str(error).splitlines()[0]
        print(f"  {game} {players}p: stalled after {off['decisions']} decisions (page state {marker}): {first}")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{game}-{players}-{size}-stalled.png")
    return off.pop("decisions", 0), off


class Taps:
    """The hit areas measured over the first ``decisions`` decisions of each game (none: not measured)."""

    def __init__(self, decisions: int) -> None:
        self.decisions = decisions
        self.areas: list[list[object]] = []

    def now(self, decision: int) -> list[list[object]] | None:
        """Where to add this decision's hit areas, if it is measured."""
        return self.areas if decision < self.decisions else None

    def report(self) -> str:
        """The figures: how many hit areas under 24 px either way, the share of 44 px both ways, the smallest."""
        small, large, total = tally(self.areas)
        if not total:
            return "tap targets: none measured"
        excused = sum(1 for a in self.areas if a[4])
        kinds = collections.Counter(f"{str(a[2]).split()[0]}{' ' + str(a[3]) if a[3] else ''}" for a in small)
        worst = ", ".join(f"{k} {n}" for k, n in kinds.most_common(4)) or "-"
        share = 100 * large / total
        verdict = "met" if not small and share >= TAPS_LARGE else "NOT met"
        return (f"tap targets: {len(small)} of {total} under 24 px ({worst}); {share:.0f}% at least 44x44; "
                f"target none under 24 and {TAPS_LARGE}% at least 44x44: {verdict}; {excused} more under 24 px "
                f"with an equivalent of 24 px or more (not counted)")


def playing(
    page: Page,
    game: str,
    players: int,
    seed: int,
    cap: int,
    shots: str | None,
    size: str,
    off: collections.Counter[str],
    taps: Taps,
) -> None:
    """Play one game (or ``cap`` decisions of it), counting in ``off`` the decisions measured ("decisions") and
    what was off screen."""
    bots = ",".join(str(seat) for seat in range(1, players))
    page.goto(f"index.html?game={game}&players={players}&seed={seed}&bots={bots}&level=easy&delay=0")
    rnd = random.Random(seed)
    last = None
    for _ in range(3000):
        if state(page) == "over" or (cap and off["decisions"] >= cap):
            break
        handover = page.locator("#board [data-ui='take-device']")
        if handover.count():
            handover.first.click()
            continue
        moves = page.evaluate("document.documentElement.dataset.moves")
        if moves != last:
            last = moves
            missing = measure(page, game, taps.now(off["decisions"]) if size in PHONES else None)
            off["decisions"] += 1
            off.update(missing)
            off["needed scrolling"] += bool(missing)
            if shots and missing and off["needed scrolling"] <= 2:
                Path(shots).mkdir(parents=True, exist_ok=True)
                name = f"{shots}/{game}-{players}-{size}-{off['decisions']}"
                page.screenshot(path=f"{name}.png")
                Path(f"{name}.txt").write_text(f"{missing}\n" + "\n".join(page.evaluate(PLACES)))
            if state(page) == "over":
                break
        one_click(page, rnd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per game, size and player count")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--size", action="append", choices=list(SIZES), help="only this size (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this player count (repeatable)")
    parser.add_argument("--decisions", type=int, default=0, help="decisions measured per game (0: whole games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tap-decisions", type=int, default=24,
                        help="decisions per game whose tap targets are measured at phone sizes (0: none)")
    parser.add_argument(
        "--shots",
        help="a folder for screenshots (and where the places to play were) of the first two"
        " decisions per case that needed scrolling",
    )
    parser.add_argument("--site", default=str(ROOT / "dist"))
    args = parser.parse_args()
    cases = [(g, p) for g, p in CASES if (not args.game or g in args.game) and (not args.players or p in args.players)]
    sizes = [s for s in SIZES if not args.size or s in args.size]
    if not (Path(args.site) / "index.html").exists():
        import subprocess

        subprocess.run([sys.executable, str(ROOT / "build.py")], check=True, cwd=ROOT)
    print(f"decisions per game: {args.decisions or 'whole game'}; games per case: {args.games}")
    with devserver.serving(Path(args.site), SUB_PATH) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for size in sizes:
            context = browser.new_context(base_url=url, service_workers="block", **SIZES[size])
            returning_visitor(context, url)
            page = context.new_page()
            page.set_default_timeout(180_000)
            all_decisions, all_scrolled = 0, 0
            all_taps = Taps(args.tap_decisions)
            for game, players in cases:
                started = time.monotonic()
                total, off = 0, collections.Counter()
                taps = Taps(args.tap_decisions)
                for n in range(args.games):
                    page.evaluate("localStorage.clear()") if page.url.startswith("http") else None
                    done, missing = play(page, game, players, args.seed + n, args.decisions, args.shots, size, taps)
                    total += done
                    off.update(missing)
                scrolled = off.pop("needed scrolling", 0)
                all_decisions, all_scrolled = all_decisions + total, all_scrolled + scrolled
                worst = ", ".join(f"{what} {n}" for what, n in off.most_common()) or "-"
                pct = 100 * scrolled / total if total else 0
                vw = SIZES[size]["viewport"]
                print(
                    f"{game:17} {players}p {vw['width']}x{vw['height']}: decisions that needed scrolling: "
                    f"{scrolled} of {total} ({pct:.0f}%); off screen: {worst} [{time.monotonic() - started:.0f} s]",
                    flush=True,
                )
                if size in PHONES and args.tap_decisions:
                    print(f"  {taps.report()}", flush=True)
                    all_taps.areas += taps.areas
            vw = SIZES[size]["viewport"]
            fitted = all_decisions - all_scrolled
            fits = 100 * fitted / all_decisions if all_decisions else 0
            verdict = "met" if fits >= TARGET else "NOT met"
            print(
                f"all cases at {vw['width']}x{vw['height']}: {fitted} of {all_decisions} decisions ({fits:.1f}%) "
                f"needed no scrolling; target {TARGET}%: {verdict}",
                flush=True,
            )
            if size in PHONES and args.tap_decisions:
                print(f"all cases at {vw['width']}x{vw['height']}: {all_taps.report()}", flush=True)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
