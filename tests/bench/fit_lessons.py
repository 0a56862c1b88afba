"""Every lesson step on one screen: whether each step's task and every choice it needs lie in the first screen.

    python tests/bench/fit_lessons.py [--game carbles] [--size phone] [--shots DIR]

The lessons' side of ``tests/bench/fit.py`` (same sizes, same site: ``dist/``, built first when missing). In
Debian's Chromium, a new player takes every game's lesson from its first step, as a person does: each step is
played by its "Show me" (the choice it points at is tapped), then "Next step". Before each tap, with the page as
the step left it, it records whether the step's task (``.lesson-task``) and the pointed-at choice (the card to
choose first, then each place it can go, and every later move of the step) are wholly inside the viewport; the
page is never scrolled by the measurement, so a step that opens away from the table's top counts as off screen.
Prints per game and size "steps with the task or a choice off the first screen: X of Y" and which, then per
size the total, against the target: every step.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

import devserver  # noqa: E402
import pyengine  # noqa: E402
from e2e.conftest import CHROMIUM, FLAGS, SUB_PATH, returning_visitor  # noqa: E402
from pyengine.lessons import lesson_for  # noqa: E402
from tests.bench.fit import ANIMATIONS, SIZES  # noqa: E402

SIZE: dict[str, dict[str, Any]] = SIZES  # type: ignore[assignment]
"""The sizes of ``fit.py``, as the browser's context takes them."""
SETTLED = "['ready', 'over'].includes(document.documentElement.dataset.state)"
OFF = """(selector) => {
  const e = document.querySelector(selector);
  if (!e) return 'missing';
  const b = e.getBoundingClientRect();
  if (b.top < 0 || b.left < 0 || b.bottom > innerHeight || b.right > innerWidth)
    return `at x ${Math.round(b.left)}-${Math.round(b.right)}, y ${Math.round(b.top)}-${Math.round(b.bottom)}`;
  return '';
}"""
"""Where an element lies when it is not wholly in the viewport ('' when it is)."""
TAP = """(selector) => document.querySelector(selector).dispatchEvent(
  new MouseEvent('click', {bubbles: true, cancelable: true, view: window}))"""
"""A tap where the element is, without the scrolling a driver's click does first."""


def settled(page: Page) -> None:
    page.wait_for_function(SETTLED, timeout=120_000, polling=50)
    page.evaluate(ANIMATIONS)


def step_off(page: Page) -> list[str]:
    """Play the step on the screen by its "Show me"; what of it lay off the first screen (empty: all fitted)."""
    off: list[str] = []
    for _ in range(12):
        if page.locator("#status .lesson[data-done='true']").count():
            return off
        page.evaluate(TAP, "[data-ui='lesson-show']")
        settled(page)
        for name, selector in (("task", ".lesson-task"), ("choice", "#board .hinted")):
            where = page.evaluate(OFF, selector)
            if where and name == "task":
                off.append(f"task {where}")
            elif where:
                hinted = page.locator("#board .hinted").first
                what = hinted.get_attribute("data-action") or hinted.get_attribute("data-select")
                said = page.evaluate("Math.round(document.getElementById('advice').getBoundingClientRect().height)")
                off.append(f"choice {what} {where} (the suggestion above the table: {said} px high)")
        page.evaluate(TAP, "#board .hinted")
        settled(page)
    raise AssertionError("the step did not end")


def tour(page: Page, game: str, size: str, shots: str | None) -> list[tuple[int, list[str]]]:
    """Take ``game``'s lesson from its first step; each step's number and what lay off its first screen."""
    page.goto("index.html")
    settled(page)
    page.evaluate("localStorage.clear()")
    page.evaluate(TAP, f".lesson-link[data-game='{game}']")
    results = []
    for index in range(len(lesson_for(game).steps)):
        settled(page)
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{size}-{game}-{index + 1}.png")
        results.append((index + 1, step_off(page)))
        if page.locator("[data-ui='lesson-next']").count():
            page.evaluate(TAP, "[data-ui='lesson-next']")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--size", action="append", choices=list(SIZES), help="only this size (repeatable)")
    parser.add_argument("--shots", help="a folder for a screenshot of each step as it opens")
    parser.add_argument("--site", default=str(ROOT / "dist"))
    args = parser.parse_args()
    games = [g for g in pyengine.GAMES if not args.game or g in args.game]
    sizes = [s for s in SIZES if not args.size or s in args.size]
    if not (Path(args.site) / "index.html").exists():
        import subprocess

        subprocess.run([sys.executable, str(ROOT / "build.py")], check=True, cwd=ROOT)
    with devserver.serving(Path(args.site), SUB_PATH) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for size in sizes:
            context = browser.new_context(base_url=url, service_workers="block", **SIZE[size])
            returning_visitor(context, url)
            page = context.new_page()
            page.set_default_timeout(120_000)
            vw = SIZE[size]["viewport"]
            steps, outside = 0, 0
            for game in games:
                results = tour(page, game, size, args.shots)
                off = [(number, missing) for number, missing in results if missing]
                steps, outside = steps + len(results), outside + len(off)
                print(
                    f"{game:17} {vw['width']}x{vw['height']}: steps with the task or a choice off the first screen: "
                    f"{len(off)} of {len(results)}",
                    flush=True,
                )
                for number, missing in off:
                    print(f"    step {number}: {'; '.join(missing)}", flush=True)
            verdict = "met" if not outside else "NOT met"
            print(
                f"all lessons at {vw['width']}x{vw['height']}: {steps - outside} of {steps} steps on the first "
                f"screen; target every step: {verdict}",
                flush=True,
            )
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
