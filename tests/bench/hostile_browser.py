"""The storage shapes that once froze the page, timed in the browser: each store is written into a fresh page's
``localStorage``, the page is loaded again, and the time until the lobby is usable (the page ready, a game's Play
button on screen) is printed beside the same load with a clean store. Target: each hostile store leaves a usable
lobby within 2 s of what a clean store takes, and within 2 s in all on a quiet machine. ::

    python3 build.py && python3 tests/bench/hostile_browser.py --runs 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "web")]

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.bench.hostile import sample_sessions, timed_stores  # noqa: E402

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]


def serve() -> tuple[subprocess.Popen[str], str]:
    """The built site served on a free loopback port, and its address."""
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(ROOT / "dist")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    port = line.split("port ")[1].split(" ")[0]
    return proc, f"http://127.0.0.1:{port}/"


def usable_after_load(page: Page, url: str, store: dict[str, str]) -> float:
    """Seconds from navigation to a usable lobby, with ``store`` written into the page's storage first."""
    page.goto(url, wait_until="commit")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=120_000)
    page.evaluate("store => { localStorage.clear();"
                  " for (const [k, v] of Object.entries(store)) localStorage.setItem(k, v); }", store)
    started = time.perf_counter()
    page.reload(wait_until="commit")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=600_000)
    page.locator(".game-card .play, .game-card button").first.wait_for(state="visible")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    stores = {"clean store": {}, **timed_stores(sample_sessions())}
    server, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            for name, store in stores.items():
                times = []
                for _ in range(args.runs):
                    context = browser.new_context()
                    page = context.new_page()
                    times.append(usable_after_load(page, url, store))
                    context.close()
                size = sum(len(v) for v in store.values())
                print(f"{name:45} {size:>10,} characters  usable lobby: median {statistics.median(times):.2f} s"
                      f" (min {min(times):.2f}, max {max(times):.2f})", flush=True)
            browser.close()
    finally:
        server.terminate()
    print(json.dumps({"runs": args.runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
