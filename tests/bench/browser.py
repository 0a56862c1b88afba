"""Browser benchmark: start-up, download size and computer decision times in Chromium.

    python tests/bench/browser.py [--site dist] [--runs 3] [--decisions 30] [--games silver-bars,...]
                                  [--startup-only] [--compare SITE] [--site-stdlib]

Start-up is measured as players meet it, each run in a fresh browser profile kept on disk:

- **first visit**: nothing cached;
- **same tab**: a second navigation in the first visit's tab, once the service worker holds the site and the memory
  snapshot (the same browser process: what it compiled is still in memory);
- **returning**: the browser closed and started again on the same profile, then the page opened (a player coming
  back another day: only what the browser keeps on disk helps);
- **returning again**: the same once more (a return takes Python's WebAssembly from the browser's HTTP cache, whose
  compiled code the browser kept from the first visit; a page that took the service worker's copy instead compiles
  it on its first return, and not on later ones);
- **returning without the snapshot** (the table only): the same, with the snapshot removed from the service
  worker's cache, so Python starts the ordinary way with every file cached.

Each is timed from navigation to a playable table of 100 Silver Bars against the computer (``table-ready``), to an
embed of a Carbondale position drawn and answering (``embed-ready``), and to bare Pyodide having run ``1 + 1`` (a
page beside the site, measured the same way in the same run; it has no service worker, so it comes back from the
browser's HTTP cache). The ratios to bare Pyodide are the figures to compare between machines. The table's and the
embed's phases (the page's ``performance.mark``s) give the time names, and a light trace of each start says
whether the browser took Python's compiled WebAssembly from its code cache and how many of its functions it still
compiled when first called. Then what the page downloads, and what the first visit's files weigh with the gzip and
brotli compression a static host applies; and per game and level the median and 95th percentile of the computer's
decision time measured inside the page, with the share of decisions that used the level's whole iteration budget
(the time cap stopped the others; ``--startup-only`` leaves decisions out).
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright  # noqa: E402

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


PHASES = (
    ("python-start", "Python asked"),
    ("python-snapshot-read", "snapshot read"),
    ("python-wasm-compiled", "WebAssembly compiled"),
    ("python-restored", "Python restored"),
    ("python-loaded", "archives unpacked"),
    ("main-py", "program run"),
    ("shell-imported", "table's modules imported"),
)
"""The page's marks of Python's start (``web/python.js``): the start asked for; the snapshot read (its header
checked, then its image read while the WebAssembly compiles; or found missing); Python's WebAssembly compiled or
taken from the browser's code cache; Python restored from the snapshot (or started the ordinary way); the engine's
archives unpacked; then, on the table, its program (``web/main.py``) run and the table's own modules imported (the
first drawing follows). The snapshot and the WebAssembly are read at the same time, so either may come first."""

VISITS = ("first visit", "same tab", "returning", "returning again", "returning without the snapshot")


@dataclass
class Visit:
    """One page load: seconds until its mark, its phases (seconds since navigation), how Python started, and from
    the trace whether the WebAssembly came from the code cache and how many functions were compiled when called."""

    seconds: float
    phases: dict[str, float]
    way: str
    from_code_cache: bool
    compiled_lazily: int
    runtime: str = ""
    """Where the page took Python's WebAssembly: ``http-cache`` or ``file`` (``data-runtime``; none for bare
    Pyodide)."""


def visit(context: BrowserContext, page: Page, url: str, mark: str) -> Visit:
    """Open ``url`` in ``page`` and wait for ``mark``, with a light trace of the WebAssembly's compilation."""
    cdp = context.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda data: events.extend(data["value"]))
    cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
    cdp.send("Tracing.start", {"categories": "v8.wasm", "transferMode": "ReportEvents"})
    page.goto(url)
    seconds = mark_time(page, mark)
    names = [name for name, _ in PHASES] + [mark]
    phases = page.evaluate(
        "(names) => Object.fromEntries(names.flatMap((n) => performance.getEntriesByName(n)"
        ".slice(0, 1).map((e) => [n, e.startTime / 1000])))",
        names,
    )
    way = str(page.evaluate("document.documentElement.dataset.python || ''"))
    runtime = str(page.evaluate("document.documentElement.dataset.runtime || ''"))
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(50)
    cdp.detach()
    counts = Counter(str(e.get("name")) for e in events)
    return Visit(seconds, phases, way, counts["wasm.Deserialize"] > 0, counts["wasm.CompileLazy"], runtime)


SETTLE_MS = 2500
"""How long a browser just started is left before the page is opened. A player starts the browser and then opens
the page; Chromium meanwhile prepares its own pages (the address bar's pop-up is a web page of its own), about a
second and a half of processor time here, which would otherwise compete with the page's start."""


LIVED_MS = 5000
"""How long each visit's page stays open before the browser is closed, as a player's page does (at least): the
browser writes Python's compiled WebAssembly to its code cache only once a start has run a while (one second was
too short for the table's start without PyScript), so a shorter stay would measure returns no player meets."""


def launch(playwright: Playwright, profile: Path) -> tuple[BrowserContext, Page]:
    """Chromium on a profile kept on disk (as a player's browser), once it has settled, and its page."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=FLAGS, service_workers="allow"
    )
    page = context.pages[0] if context.pages else context.new_page()
    page.wait_for_timeout(SETTLE_MS)
    return context, page


@dataclass
class Startup:
    """Every run's visits by kind (``VISITS``), and the first visit's download: bytes, requests, files."""

    visits: dict[str, list[Visit]] = field(default_factory=lambda: {kind: [] for kind in VISITS})
    size: int = 0
    count: int = 0
    files: list[str] = field(default_factory=list)

    def median(self, kind: str) -> float | None:
        times = [v.seconds for v in self.visits[kind]]
        return statistics.median(times) if times else None


def startup(playwright: Playwright, base: str, path: str, mark: str, runs: int, plain: bool = False) -> Startup:
    """Each run, in a fresh profile: the first visit, a second navigation in its tab once the service worker holds
    the site and the snapshot, then (the browser closed and started again) a returning visit, and another; with
    ``plain``, also a returning visit with the snapshot removed from the cache (the browser closed and started again
    once more)."""
    result = Startup()
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="cardtable-bench-profile-") as folder:
            profile = Path(folder)
            context, page = launch(playwright, profile)
            result.visits["first visit"].append(visit(context, page, base + path, mark))
            result.size, result.count = downloaded(page)
            result.files = fetched_files(page, base)
            worker_ready(page)
            result.visits["same tab"].append(visit(context, page, base + path, mark))
            page.wait_for_timeout(LIVED_MS)
            context.close()
            context, page = launch(playwright, profile)
            result.visits["returning"].append(visit(context, page, base + path, mark))
            page.wait_for_timeout(LIVED_MS)
            context.close()
            context, page = launch(playwright, profile)
            result.visits["returning again"].append(visit(context, page, base + path, mark))
            if plain:
                forget_snapshot(page)
                page.wait_for_timeout(LIVED_MS)
                context.close()
                context, page = launch(playwright, profile)
                result.visits["returning without the snapshot"].append(visit(context, page, base + path, mark))
            context.close()
    return result


def seconds_cell(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def ratio_cell(value: float | None, bare: float | None) -> str:
    return f"{value / bare:.2f}" if value is not None and bare else "-"


def print_startup(results: dict[str, Startup], bare: Startup, runs: int) -> None:
    """The start-up table, the ratios to bare Pyodide, and the phases of each page's start."""
    print(f"Start-up: medians of {runs} run(s), each in a fresh browser profile; seconds from navigation until")
    print("the table is playable, the embed drawn and answering, bare Pyodide has run 1 + 1.")
    print("  first visit: nothing cached.   same tab: a second navigation in the first visit's tab (the service")
    print("  worker holds the site and the snapshot).   returning: the browser closed, started again on the same")
    print("  profile, the page opened.   again: the same once more.   no snapshot: returning, the snapshot removed.")
    print("Targets: returning under 1.0 s and at most 0.40 of bare Pyodide's returning start; first visit at most")
    print("0.60 of bare Pyodide's first visit.")
    print()
    heads = ["first visit", "same tab", "returning", "again", "no snapshot"]
    print(f"{'':30}" + "".join(f"{head:>13}" for head in heads))
    rows = {**results, "bare Pyodide": bare}
    for name, result in rows.items():
        print(f"{name:30}" + "".join(f"{seconds_cell(result.median(kind)):>13}" for kind in VISITS))
    for name, result in results.items():
        cells = [ratio_cell(result.median(kind), bare.median(kind)) for kind in VISITS[:4]]
        cells.append(ratio_cell(result.median(VISITS[4]), bare.median("returning")))
        print(f"{'ratio ' + name + ' / bare':30}" + "".join(f"{cell:>13}" for cell in cells))
    print()
    print("Phases, ms since navigation (medians): the page's performance marks (web/python.js). The snapshot and the")
    print("WebAssembly are read at once, so either may come first; 'WebAssembly compiled' means compiled or taken from")
    print("the browser's code cache. 'code cache' counts the runs whose start took Python's WebAssembly from there")
    print("(from the trace), 'lazy' is the median number of its functions compiled only when first called.")
    print("'WebAssembly from' says, run by run, where the page took it: the browser's HTTP cache, or as any file")
    print("(the service worker's copy once it holds the site).")
    for name, result in rows.items():
        for kind in VISITS:
            made = result.visits[kind]
            if not made:
                continue
            marks = [mark for mark, _ in PHASES] + [m for m in made[0].phases if m not in dict(PHASES)]
            cells = []
            for mark in marks:
                times = [v.phases[mark] for v in made if mark in v.phases]
                if times:
                    label = dict(PHASES).get(mark, f"ready ({mark})")
                    cells.append(f"{label} {statistics.median(times) * 1000:.0f}")
            cached = sum(v.from_code_cache for v in made)
            lazy = statistics.median(v.compiled_lazily for v in made)
            ways = " ".join(v.way or "-" for v in made)
            taken = " ".join(v.runtime or "-" for v in made)
            print(f"  {name}, {kind} (Python: {ways}; WebAssembly from: {taken}; code cache {cached}/{len(made)}, "
                  f"lazy {lazy:.0f}):")
            print("      " + ", ".join(cells))


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
    parser.add_argument("--site-stdlib", action="store_true",
                        help="also time bare Pyodide started on the site's standard library (that part's gain alone)")
    parser.add_argument("--compare", default="", metavar="SITE",
                        help="also time the table on another build of the site in the same browser run (for example "
                             "one made with build.py --no-bytecode), to show what a difference between them gains")
    args = parser.parse_args()
    base, serving = serve(args.site)
    sys.path.insert(0, str(ROOT))
    import pyengine
    from pyengine.ai import LEVELS
    from pyengine.core import rules_for

    games = [g for g in args.games.split(",") if g] or list(pyengine.GAMES)
    with sync_playwright() as p:
        embed = "embed.html?game=carbondale&position=figure-1"
        results = {"table": startup(p, base, TABLE, "table-ready", args.runs, plain=True)}
        results["embed"] = startup(p, base, embed, "embed-ready", args.runs)
        if args.compare:
            other, other_serving = serve(args.compare)
            results[f"table of {args.compare}"] = startup(p, other, TABLE, "table-ready", args.runs, plain=True)
            other_serving.terminate()
        bare = startup(p, base, "__bare.html", "pyodide-ready", args.runs)
        if args.site_stdlib:
            results["bare Pyodide, site's stdlib"] = startup(p, base, "__bare_stdlib.html", "pyodide-ready", args.runs)
        print_startup(results, bare, args.runs)
        table = results["table"]
        print()
        print(f"page download: {table.size / 1e6:.2f} MB in {table.count} requests "
              f"(bare Pyodide: {bare.size / 1e6:.2f} MB); embed download: {results['embed'].size / 1e6:.2f} MB")
        files = table.files
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
            serving.terminate()
            return
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        print()
        print(f"{'game':18} {'level':>7} {'decisions':>9} {'median ms':>10} {'p95 ms':>8} {'full budget':>11}")
        for game in games:
            info = pyengine.GAMES[game]
            players = 2 if info.min_players <= 2 <= info.max_players else info.min_players
            for level in ("easy", "normal", "hard"):
                wanted = args.decisions if level != "hard" else max(5, args.decisions // 3)
                made = decisions(browser, base, game, players, level, wanted)
                times = [seconds for seconds, _ in made]
                median, p95 = statistics.median(times) * 1000, pct(times, 0.95) * 1000
                budget = LEVELS[level].for_rules(rules_for(game), players).iterations
                full = sum(1 for _, done in made if done >= budget) / len(made)
                print(f"{game:18} {level:>7} {len(times):>9} {median:>10.0f} {p95:>8.0f} {full:>11.0%}")
        browser.close()
    serving.terminate()


if __name__ == "__main__":
    main()
