"""Returning starts of two or more builds of the site, paired: each round, each build in turn (the order reversed
every other round) gets a fresh browser profile, a first visit, then two returns in a browser closed and started
again, as ``browser.py`` measures a return. Prints each round's returns and, per build, the median and mean seconds
from navigation to the table playable, with the median of each phase mark.

    python tests/bench/returns.py SITE,OTHER_SITE [--rounds 6] [--page index.html?game=...] [--mark table-ready]

Differences of a few tens of milliseconds drown in ``browser.py``'s three runs; alternating the builds on one
machine, round by round, lets them show.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.bench import browser  # noqa: E402

MARKS = "Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, Math.round(m.startTime)]))"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", help="the built sites, comma-separated")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--page", default=browser.TABLE)
    parser.add_argument("--mark", default="table-ready")
    args = parser.parse_args()
    sites = args.sites.split(",")
    served = [browser.serve(site) for site in sites]
    seconds: dict[str, list[float]] = {site: [] for site in sites}
    marks: dict[str, list[dict[str, float]]] = {site: [] for site in sites}
    with sync_playwright() as p:
        for round_ in range(args.rounds):
            order = list(zip(sites, served, strict=True))
            for site, (base, _) in order if round_ % 2 == 0 else reversed(order):
                with tempfile.TemporaryDirectory() as folder:
                    profile = Path(folder)
                    context, page = browser.launch(p, profile)
                    browser.visit(context, page, base + args.page, args.mark)
                    browser.worker_ready(page)
                    page.wait_for_timeout(browser.LIVED_MS)
                    context.close()
                    for _ in range(2):
                        context, page = browser.launch(p, profile)
                        visit = browser.visit(context, page, base + args.page, args.mark)
                        seconds[site].append(visit.seconds)
                        marks[site].append(page.evaluate(MARKS))
                        page.wait_for_timeout(browser.LIVED_MS)
                        context.close()
            print(f"round {round_ + 1}: " + ", ".join(
                f"{site} {seconds[site][-2]:.3f} {seconds[site][-1]:.3f}" for site in sites), flush=True)
    for _, server in served:
        server.terminate()
    for site in sites:
        kept = marks[site]
        phases = {name: statistics.median(m[name] for m in kept) for name in kept[0] if all(name in m for m in kept)}
        print(f"{site}: {len(seconds[site])} returns, median {statistics.median(seconds[site]):.3f} s, mean "
              f"{statistics.mean(seconds[site]):.3f} s; phases (median ms): "
              + ", ".join(f"{name} {value:.0f}" for name, value in sorted(phases.items(), key=lambda kv: kv[1])))


if __name__ == "__main__":
    main()
