"""Browser benchmark: start-up, download size and computer decision times in Chromium.

    python tests/bench/browser.py [--site dist] [--runs 3] [--decisions 30] [--games silver-bars,...]

Prints: cold and warm time from navigation to a playable table, bare Pyodide start-up in the same
browser run (and the ratio), bare Pyodide started on the site's standard library (its start-up modules
compiled: that part's gain alone), the table's warm start without the memory snapshot (removed from the
service worker's cache: the ordinary start with every file cached), how Python started each time,
an embed of a named position (``embed.html``) until it is drawn and answers commands (and its ratio
to bare Pyodide), what the page downloads, what the first visit's files weigh with the gzip and
brotli compression a static host applies (each file the page fetched, compressed here; brotli when
the ``brotli`` package is installed), and per game and level the median and 95th percentile of the
computer's decision time measured inside the page, with the share of decisions that used the level's
whole iteration budget (the time cap stopped the others; ``--startup-only`` leaves decisions out).
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import statistics
import sys
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from devserver import SiteHandler  # noqa: E402
from e2e.conftest import CHROMIUM, FLAGS, SUB_PATH  # noqa: E402


def bare_page(options: str) -> bytes:
    """A page that only starts Pyodide, with ``options`` (a JavaScript expression) for ``loadPyodide``."""
    return f"""<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bare</title>
<script type="module">
const {{ loadPyodide }} = await import("./vendor/pyodide/pyodide.mjs");
const py = await loadPyodide({options});
py.runPython("1 + 1");
performance.mark("pyodide-ready");
</script>""".encode()


BARE = bare_page("")
BARE_STDLIB = bare_page(
    'await fetch("build.json").then((r) => r.json()).then((b) => (b.stdlib ? { stdLibURL: b.stdlib } : {}))'
)
"""Bare Pyodide on the site's standard library (its start-up modules compiled), to show that part's gain alone."""


class BenchHandler(SiteHandler):
    """The site, plus a bare Pyodide page beside it (never part of the site itself)."""

    prefix = SUB_PATH

    def do_GET(self) -> None:
        pages = {SUB_PATH + "__bare.html": BARE, SUB_PATH + "__bare_stdlib.html": BARE_STDLIB}
        page = pages.get(self.path.split("?")[0])
        if page is not None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
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


def fetched_files(page: Any, base: str) -> list[str]:
    """The site's files the page fetched (paths relative to the site), from the Resource Timing entries."""
    urls = page.evaluate(
        "[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map(e => e.name)"
    )
    return sorted({u.split("?")[0].split("#")[0][len(base) :] or "index.html" for u in urls if u.startswith(base)})


def compressed_sizes(site: Path, names: list[str]) -> tuple[int, int, int | None]:
    """(raw, gzip, brotli or None) bytes of the given site files, compressed as a static host would (level 9 and
    quality 9; a file is sent as it is when that is smaller)."""
    try:
        import brotli  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        brotli = None
    raw = gz = br = 0
    for name in names:
        path = site / name
        if not path.is_file():
            continue  # the bench's own page
        data = path.read_bytes()
        raw += len(data)
        gz += min(len(data), len(gzip.compress(data, 9, mtime=0)))
        if brotli is not None:
            br += min(len(data), len(brotli.compress(data, quality=9)))
    return raw, gz, br if brotli is not None else None


def worker_ready(page: Any) -> None:
    """Wait (at most a minute) until the service worker has installed and cached the site, the memory snapshot
    included (it is cached in the background after the first visit), as before a later visit."""
    page.evaluate(
        """async () => {
          const until = Date.now() + 60000;
          if (!navigator.serviceWorker) return;
          // a page that registers no worker (bare Pyodide) has nothing to wait for
          let registered = await navigator.serviceWorker.getRegistration();
          for (let i = 0; !registered && i < 25; i++) {
            await new Promise((r) => setTimeout(r, 200));
            registered = await navigator.serviceWorker.getRegistration();
          }
          if (!registered) return;
          await Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(r, 60000))]);
          const build = await (await fetch("build.json", { cache: "no-cache" })).json();
          if (!build.snapshot || !globalThis.caches) return;
          const url = new URL(build.snapshot, document.baseURI).href;
          while (Date.now() < until && !(await caches.match(url))) await new Promise((r) => setTimeout(r, 200));
        }"""
    )


def forget_snapshot(page: Any) -> None:
    """Remove the memory snapshot from the service worker's cache (the next start is the ordinary one)."""
    page.evaluate(
        """async () => {
          const build = await (await fetch("build.json", { cache: "no-cache" })).json();
          if (!build.snapshot) return;
          const url = new URL(build.snapshot, document.baseURI).href;
          for (const name of await caches.keys()) await (await caches.open(name)).delete(url);
        }"""
    )


def startup(
    browser: Browser, base: str, path: str, mark: str, runs: int, plain: bool = False
) -> tuple[list[float], list[float], list[float], int, int, list[str], list[str]]:
    """Cold, warm and warm-without-snapshot times, the first visit's bytes, requests and files, and how Python
    started each time (the page's ``data-python``)."""
    cold, warm, plain_warm, ways = [], [], [], []
    size = count = 0
    files: list[str] = []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(base + path)
        cold.append(mark_time(page, mark))
        size, count = downloaded(page)
        files = fetched_files(page, base)
        ways.append(str(page.evaluate("document.documentElement.dataset.python || ''")))
        worker_ready(page)
        page.goto(base + path)
        warm.append(mark_time(page, mark))
        ways.append(str(page.evaluate("document.documentElement.dataset.python || ''")))
        if plain:
            forget_snapshot(page)
            page.goto(base + path)
            plain_warm.append(mark_time(page, mark))
            ways.append(str(page.evaluate("document.documentElement.dataset.python || ''")))
        context.close()
    return cold, warm, plain_warm, size, count, files, ways


def decisions(
    browser: Browser, base: str, game: str, players: int, level: str, wanted: int
) -> list[tuple[float, int]]:
    """The computer's decisions with a choice to make: (seconds, search iterations) of each, as the page timed them."""
    context = browser.new_context()
    page = context.new_page()
    bots = ",".join(str(i) for i in range(players))
    times: list[tuple[float, int]] = []
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
        times += [(d["seconds"], d["iterations"]) for d in stats if d["choices"] > 1 and d["where"] == where]
        seed += 1
    context.close()
    return times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def serve(site: str) -> tuple[str, Any]:
    """The site's address, served from a process of its own, as a real host does: in this one the server would share
    Python's lock with Playwright's client and delay the page's requests while the script waits on the browser."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(BenchHandler, directory=site))
    serving = multiprocessing.get_context("fork").Process(target=server.serve_forever, daemon=True)
    serving.start()
    server.socket.close()
    return f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}", serving


TABLE = "index.html?game=silver-bars&players=2&seed=7&bots=1&level=normal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", default=str(ROOT / "dist"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--games", default="")
    parser.add_argument("--startup-only", action="store_true", help="measure start-up only (no decision times)")
    parser.add_argument("--compare", default="", metavar="SITE",
                        help="also time the table on another build of the site in the same browser run (for example "
                             "one made with build.py --no-bytecode), to show what a difference between them gains")
    args = parser.parse_args()
    base, serving = serve(args.site)
    sys.path.insert(0, str(ROOT))
    import pyengine
    from pyengine.ai import LEVELS

    games = [g for g in args.games.split(",") if g] or list(pyengine.GAMES)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        t_cold, t_warm, t_plain, size, count, files, ways = startup(
            browser, base, TABLE, "table-ready", args.runs, plain=True
        )
        if args.compare:
            other, other_serving = serve(args.compare)
            o_cold, o_warm, o_plain, o_size, _, _, _ = startup(browser, other, TABLE, "table-ready", args.runs, True)
            other_serving.terminate()
        b_cold, b_warm, _, b_size, _, _, _ = startup(browser, base, "__bare.html", "pyodide-ready", args.runs)
        s_cold, s_warm, _, _, _, _, _ = startup(browser, base, "__bare_stdlib.html", "pyodide-ready", args.runs)
        embed = "embed.html?game=carbondale&position=figure-1"
        e_cold, e_warm, _, e_size, _, _, e_ways = startup(browser, base, embed, "embed-ready", args.runs)
        med = statistics.median
        print(f"runs: {args.runs} (medians)")
        print(f"table ready, cold: {med(t_cold):.2f} s   warm: {med(t_warm):.2f} s   "
              f"warm without the snapshot: {med(t_plain):.2f} s")
        print(f"bare Pyodide, cold: {med(b_cold):.2f} s   warm: {med(b_warm):.2f} s")
        print(f"bare Pyodide on the site's standard library, cold: {med(s_cold):.2f} s   warm: {med(s_warm):.2f} s   "
              f"(ratio to bare: {med(s_cold) / med(b_cold):.2f}, {med(s_warm) / med(b_warm):.2f})")
        if args.compare:
            print(f"table of {args.compare}, cold: {med(o_cold):.2f} s   warm: {med(o_warm):.2f} s   "
                  f"warm without the snapshot: {med(o_plain):.2f} s   (download {o_size / 1e6:.2f} MB)")
            print(f"  this site gains, cold: {med(o_cold) - med(t_cold):+.2f} s   "
                  f"warm: {med(o_warm) - med(t_warm):+.2f} s"
                  f"   warm without the snapshot: {med(o_plain) - med(t_plain):+.2f} s")
        print(f"ratio table/bare, cold: {med(t_cold) / med(b_cold):.2f}   warm: {med(t_warm) / med(b_warm):.2f}   "
              f"warm without the snapshot: {med(t_plain) / med(b_warm):.2f}")
        print(f"how Python started (table: cold, warm, warm without): {' '.join(ways)}; embed: {' '.join(e_ways)}")
        print(f"embed of a position, cold: {med(e_cold):.2f} s   warm: {med(e_warm):.2f} s")
        print(f"ratio embed/bare, cold: {med(e_cold) / med(b_cold):.2f}   warm: {med(e_warm) / med(b_warm):.2f}")
        print(f"page download: {size / 1e6:.2f} MB in {count} requests (bare Pyodide: {b_size / 1e6:.2f} MB)")
        print(f"embed download: {e_size / 1e6:.2f} MB")
        raw, gz, br = compressed_sizes(Path(args.site), files)
        brotli_text = f"{br / 1e6:.2f} MB" if br is not None else "(no brotli package)"
        print(f"first visit's files ({len(files)}): {raw / 1e6:.2f} MB, gzip {gz / 1e6:.2f} MB, brotli {brotli_text}")
        snapshot = json.loads((Path(args.site) / "build.json").read_text(encoding="utf-8")).get("snapshot")
        if snapshot:
            s_raw, s_gz, s_br = compressed_sizes(Path(args.site), [snapshot])
            s_brotli = f"{s_br / 1e6:.2f} MB" if s_br is not None else "-"
            print(f"  and in the background, the service worker caches the snapshot for the next visit: "
                  f"{s_raw / 1e6:.2f} MB, gzip {s_gz / 1e6:.2f} MB, brotli {s_brotli}")
        if args.startup_only:
            browser.close()
            serving.terminate()
            return
        print()
        print(f"{'game':18} {'level':>7} {'decisions':>9} {'median ms':>10} {'p95 ms':>8} {'full budget':>11}")
        for game in games:
            info = pyengine.GAMES[game]
            players = 2 if info.min_players <= 2 <= info.max_players else info.min_players
            for level in ("easy", "normal", "hard"):
                wanted = args.decisions if level != "hard" else max(5, args.decisions // 3)
                made = decisions(browser, base, game, players, level, wanted)
                times = [seconds for seconds, _ in made]
                median, p95 = med(times) * 1000, pct(times, 0.95) * 1000
                full = sum(1 for _, done in made if done >= LEVELS[level].iterations) / len(made)
                print(f"{game:18} {level:>7} {len(times):>9} {median:>10.0f} {p95:>8.0f} {full:>11.0%}")
        browser.close()
    serving.terminate()


if __name__ == "__main__":
    main()
