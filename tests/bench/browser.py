"""Browser benchmark: start-up, download size and computer decision times in Chromium.

    python tests/bench/browser.py [--site dist] [--runs 3] [--decisions 30] [--games silver-bars,...]

Prints: cold and warm time from navigation to a playable table, bare Pyodide start-up in the
same browser run (and the ratio), an embed of a named position (``embed.html``) until it is drawn
and answers commands (and its ratio to bare Pyodide; the goal is at most 1.2), what the page downloads,
and per game and level the median and 95th percentile of the computer's decision time measured inside
the page (``--startup-only`` leaves those out).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from devserver import SiteHandler  # noqa: E402
from e2e.conftest import CHROMIUM, FLAGS, SUB_PATH  # noqa: E402

BARE = b"""<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bare</title>
<script type="module">
const { loadPyodide } = await import("./vendor/pyodide/pyodide.mjs");
const py = await loadPyodide();
py.runPython("1 + 1");
performance.mark("pyodide-ready");
</script>"""


class BenchHandler(SiteHandler):
    """The site, plus a bare Pyodide page beside it (never part of the site itself)."""

    prefix = SUB_PATH

    def do_GET(self) -> None:
        if self.path.split("?")[0] == SUB_PATH + "__bare.html":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(BARE)))
            self.end_headers()
            self.wfile.write(BARE)
            return
        super().do_GET()


def mark_time(page: Any, mark: str) -> float:
    page.wait_for_function(f"performance.getEntriesByName('{mark}').length > 0", timeout=120_000)
    return float(page.evaluate(f"performance.getEntriesByName('{mark}')[0].startTime")) / 1000


def downloaded(page: Any) -> tuple[int, int]:
    """(bytes, requests) the page fetched, from the Resource Timing entries."""
    entries = page.evaluate(
        "[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]"
        ".map(e => e.encodedBodySize || 0)"
    )
    return sum(entries), len(entries)


def startup(browser: Browser, base: str, path: str, mark: str, runs: int) -> tuple[list[float], list[float], int, int]:
    cold, warm = [], []
    size = count = 0
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(base + path)
        cold.append(mark_time(page, mark))
        size, count = downloaded(page)
        page.goto(base + path)
        warm.append(mark_time(page, mark))
        context.close()
    return cold, warm, size, count


def decisions(browser: Browser, base: str, game: str, players: int, level: str, wanted: int) -> list[float]:
    context = browser.new_context()
    page = context.new_page()
    bots = ",".join(str(i) for i in range(players))
    times: list[float] = []
    seed = 1
    while len(times) < wanted:
        page.goto(f"{base}index.html?game={game}&players={players}&seed={seed}&bots={bots}&level={level}&delay=0")
        # normal and hard think in the worker once it is ready (the page thinks until then): count those only
        where = "page" if level == "easy" else "worker"
        counted = f"JSON.parse(window.cardTable.decisionStats()).filter((d) => d.where === '{where}').length"
        page.wait_for_function(
            f"window.cardTable.decisionStats && ({counted} >= {wanted - len(times)}"
            " || document.documentElement.dataset.state === 'over')",
            timeout=600_000,
        )
        stats = json.loads(page.evaluate("window.cardTable.decisionStats()"))
        times += [d["seconds"] for d in stats if d["choices"] > 1 and d["where"] == where]
        seed += 1
    context.close()
    return times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", default=str(ROOT / "dist"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--games", default="")
    parser.add_argument("--startup-only", action="store_true", help="measure start-up only (no decision times)")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(BenchHandler, directory=args.site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}"
    sys.path.insert(0, str(ROOT))
    import pyengine

    games = [g for g in args.games.split(",") if g] or list(pyengine.GAMES)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        table = "index.html?game=silver-bars&players=2&seed=7&bots=1&level=normal"
        t_cold, t_warm, size, count = startup(browser, base, table, "table-ready", args.runs)
        b_cold, b_warm, b_size, _ = startup(browser, base, "__bare.html", "pyodide-ready", args.runs)
        embed = "embed.html?game=carbondale&position=figure-1"
        e_cold, e_warm, e_size, _ = startup(browser, base, embed, "embed-ready", args.runs)
        med = statistics.median
        print(f"runs: {args.runs} (medians)")
        print(f"table ready, cold: {med(t_cold):.2f} s   warm: {med(t_warm):.2f} s")
        print(f"bare Pyodide, cold: {med(b_cold):.2f} s   warm: {med(b_warm):.2f} s")
        print(f"ratio table/bare, cold: {med(t_cold) / med(b_cold):.2f}   warm: {med(t_warm) / med(b_warm):.2f}")
        print(f"embed of a position, cold: {med(e_cold):.2f} s   warm: {med(e_warm):.2f} s")
        print(f"ratio embed/bare, cold: {med(e_cold) / med(b_cold):.2f}   warm: {med(e_warm) / med(b_warm):.2f}")
        print(f"page download: {size / 1e6:.2f} MB in {count} requests (bare Pyodide: {b_size / 1e6:.2f} MB)")
        print(f"embed download: {e_size / 1e6:.2f} MB")
        if args.startup_only:
            browser.close()
            server.shutdown()
            return
        print()
        print(f"{'game':18} {'level':>7} {'decisions':>9} {'median ms':>10} {'p95 ms':>8}")
        for game in games:
            info = pyengine.GAMES[game]
            players = 2 if info.min_players <= 2 <= info.max_players else info.min_players
            for level in ("easy", "normal", "hard"):
                wanted = args.decisions if level != "hard" else max(5, args.decisions // 3)
                times = decisions(browser, base, game, players, level, wanted)
                median, p95 = med(times) * 1000, pct(times, 0.95) * 1000
                print(f"{game:18} {level:>7} {len(times):>9} {median:>10.0f} {p95:>8.0f}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
