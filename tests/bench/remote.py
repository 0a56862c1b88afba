"""Playing on separate devices: how long a move takes to show on the other device, over the local connection.

    python tests/bench/remote.py [--moves 40] [--seed 3] [--site dist]

Two contexts of one Chromium (two devices) join a game of 100 Silver Bars through the invitation and reply links
(e2e/test_remote.py's steps) and play ``--moves`` moves by clicking what each table offers. For each move the time
runs from the click on the mover's page (a card's target, after choosing the card) until the other page has drawn
the new position (its ``data-moves`` changed): the host's moves travel to the guest as its seat's table, the
guest's moves travel to the host, which checks and plays them. Both pages read one clock (one browser). Prints the
median and the 90th percentile of each direction and of all moves; the target is a median of at most 100 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

import devserver  # noqa: E402
from e2e.conftest import CHROMIUM, FLAGS, SUB_PATH, returning_visitor  # noqa: E402
from e2e.play import HELD, PLAYED_OR_HELD  # noqa: E402

WATCH = """() => {
  window.shownAt = {};
  new MutationObserver(() => { window.shownAt[document.documentElement.dataset.moves] = Date.now(); })
    .observe(document.documentElement, { attributes: true, attributeFilter: ["data-moves"] });
}"""
CLICK = """() => {
  // a move the table offers, or first a card and then where it goes; returns the time of the move's click
  const usable = (el) => el.offsetParent !== null && !el.disabled;
  const moves = () => [...document.querySelectorAll("#board [data-action]")].filter(usable);
  if (!moves().length) {
    const card = [...document.querySelectorAll("#board [data-select]")].filter(usable)[0];
    if (!card) return null;
    card.click();
  }
  const move = moves()[0];
  if (!move) return null;
  const at = Date.now();
  move.click();
  return at;
}"""


SECOND_TAP = """() => {
  const at = Date.now();
  document.querySelector("#board [data-action].hinted").click();
  return at;
}"""
"""The second tap on a move the table holds (it would show a card); returns the time of the tap."""


def start(host: Page, guest: Page, seed: int) -> None:
    host.goto("index.html")
    host.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=120_000)
    settings = {"game": "silver-bars", "players": 2, "seed": seed, "remote": [1], "delay": 0}
    host.evaluate("settings => window.cardTableRemote.start(settings)", settings)
    link = host.locator("#remote-seats li[data-seat='1'] .remote-invitation")
    link.wait_for(timeout=60_000)
    guest.goto(link.input_value())
    reply = guest.locator(".remote-reply-link")
    reply.wait_for(timeout=120_000)
    host.fill("#remote-paste", reply.input_value())
    host.click("#remote-paste-take")
    guest.wait_for_selector("#board [data-card]", timeout=60_000)


def measure(host: Page, guest: Page, moves: int) -> dict[str, list[float]]:
    """Each move's time to show on the other page, by direction."""
    times: dict[str, list[float]] = {"host to guest": [], "guest to host": []}
    for page in (host, guest):
        page.evaluate(WATCH)
    for _ in range(moves):
        if host.evaluate("document.documentElement.dataset.state") == "over":
            break
        count = int(host.evaluate("document.documentElement.dataset.moves"))
        guest.wait_for_function(f"Number(document.documentElement.dataset.moves) === {count}")
        mover, other, direction = (host, guest, "host to guest")
        clicked = host.evaluate(CLICK)
        if clicked is None:
            mover, other, direction = (guest, host, "guest to host")
            clicked = guest.evaluate(CLICK)
        if clicked is None:
            raise SystemExit("neither table offers a move")
        mover.wait_for_function(PLAYED_OR_HELD, arg=str(count))
        if HELD in mover.locator("#advice").inner_text():  # a move that shows a card: timed from its second tap
            clicked = mover.evaluate(SECOND_TAP)
        other.wait_for_function(f"(window.shownAt[{count + 1}] || 0) >= {clicked}", timeout=30_000)
        mover.wait_for_function(f"Number(document.documentElement.dataset.moves) >= {count + 1}")
        times[direction].append(float(other.evaluate(f"window.shownAt[{count + 1}]")) - clicked)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--site", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    with devserver.serving(args.site, SUB_PATH) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pages = []
        for _ in range(2):
            context = browser.new_context(base_url=url, service_workers="block")
            returning_visitor(context, url)
            pages.append(context.new_page())
        host, guest = pages
        start(host, guest, args.seed)
        times = measure(host, guest, args.moves)
        browser.close()
    every = [t for direction in times.values() for t in direction]
    for name, values in [*times.items(), ("all moves", every)]:
        if values:
            ninety = sorted(values)[max(0, int(len(values) * 0.9) - 1)]
            print(
                f"{name}: {len(values)} moves, median {statistics.median(values):.0f} ms, 90th percentile "
                f"{ninety:.0f} ms"
            )
    verdict = "met" if every and statistics.median(every) <= 100 else "NOT met"
    print(f"target (median at most 100 ms): {verdict}")


if __name__ == "__main__":
    main()
