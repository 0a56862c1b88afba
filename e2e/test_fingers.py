"""A table a finger can play: at phone sizes every tap target's hit area is at least 24x24 CSS px and most are 44x44
or more; Carbondale's marks lie inside their cards and no card lies over another cell's; a message never moves what
a finger is about to tap, and the next tap that works clears it. (The long measurement, decision by decision over
played games, is ``tests/bench/fit.py``.)"""

from __future__ import annotations

import collections
import random
import re
import sys
from pathlib import Path

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import resize, shot, wait_settled
from e2e.keys import mid_game
from e2e.test_layout import GAMES, SIZES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import address  # noqa: E402
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

TAP_TARGETS = (
    "#table button:not([hidden]), #table select, #board [data-action], #board [data-select], #board [data-try],"
    " #board [data-ui], #board [role='button'], #board summary"
)
"""Every element of the table a tap does something on."""
HIT_AREAS = """(selector) => {
  const most = 60;
  const found = [];
  for (const e of document.querySelectorAll(selector)) {
    if (e.closest("[hidden], details:not([open]) > :not(summary)")) continue;
    const box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(e).visibility === "hidden") continue;
    if (e.parentElement?.closest(selector)) continue;  // a tap target inside another counts as the outer one
    e.scrollIntoView({ block: "center", inline: "center" });
    const b = e.getBoundingClientRect();
    const [x, y] = [b.left + b.width / 2, b.top + b.height / 2];
    const hits = (px, py) => { const h = document.elementFromPoint(px, py); return !!h && e.contains(h); };
    const reach = (dx, dy) => {
      let n = 0;
      while (n < most && hits(x + dx * (n + 1), y + dy * (n + 1))) n += 1;
      return n;
    };
    const name = (e.className?.baseVal ?? e.className ?? e.tagName).toString().split(" ")[0] || e.tagName;
    const what = `${name} "${(e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 20)}"`;
    const does = e.dataset.action ? `action ${e.dataset.action}` : e.dataset.select ? `select ${e.dataset.select}` : "";
    if (!hits(x, y)) { found.push([0, 0, what, "covered", does]); continue; }
    found.push([reach(-1, 0) + reach(1, 0) + 1, reach(0, -1) + reach(0, 1) + 1, what, "", does]);
  }
  scrollTo(0, 0);
  const large = new Set(found.filter((a) => a[4] && Math.min(a[0], a[1]) >= 24).map((a) => a[4]));
  return found.map(([w, h, what, note, does]) => [w, h, what, note, Math.min(w, h) < 24 && large.has(does)]);
}"""
"""Each tap target's hit area through its centre (width and height in CSS px, up to 121): how far from its centre
a tap still lands on it, so a transparent larger hit area around a small mark counts; a target whose centre
another element covers counts as 0 x 0. The fifth field says whether a target under 24 px has an *equivalent*, the
exception of WCAG 2.2's target size: another target on the page, at least 24x24, that does the same (the same
``data-action`` or ``data-select``), as a Carbles marble on a twelve-seat ring has its button under the ring."""
LARGE_SHARE = 0.75
"""The share of tap targets whose hit area must be at least 44x44 at phone sizes."""


def tally(areas: list[list[object]]) -> tuple[list[list[object]], int, int]:
    """The hit areas under 24 px with no equivalent, how many are at least 44x44, and how many count: a small
    target with an equivalent is counted as that equivalent (which is measured too), not again."""
    counted = [a for a in areas if not a[4]]
    small = [a for a in counted if min(a[0], a[1]) < 24]  # type: ignore[type-var]
    large = sum(1 for a in counted if min(a[0], a[1]) >= 44)  # type: ignore[type-var]
    return small, large, len(counted)
PHONES = {"phone": (390, 844), "small": (360, 740)}


def hit_areas(page: Page, game: str, players: int) -> list[list[object]]:
    """The hit areas of a mid-game table of ``game``, before and after choosing the hand's first card."""
    _, _, choose, _ = GAMES[game]
    page.goto("index.html#" + mid_game(game, players, 3, 6))
    wait_settled(page)
    areas = list(page.evaluate(HIT_AREAS, TAP_TARGETS))
    if choose and page.locator(choose).count():
        page.locator(choose).first.click()
        wait_settled(page)
        areas += page.evaluate(HIT_AREAS, TAP_TARGETS)
    return areas


def test_every_tap_target_is_finger_sized_on_a_phone(page: Page) -> None:
    small, middling, large, total = [], [], 0, 0
    for size, (width, height) in PHONES.items():
        page.set_viewport_size({"width": width, "height": height})
        for game, info in pyengine.GAMES.items():
            areas = hit_areas(page, game, max(info.min_players, 2) if game != "carbon-city-zero" else 1)
            shot(page, game, f"fingers-{size}")
            under, over, counted = tally(areas)
            small += [f"{game} at {width}x{height}: {a[2]} {a[0]}x{a[1]} {a[3]}" for a in under]
            large += over
            middling += [f"{game} {a[2]} {a[0]}x{a[1]}" for a in areas if 24 <= min(a[0], a[1]) < 44]
            total += counted
    assert not small, "tap targets under 24x24 px:\n" + "\n".join(small)
    assert large >= LARGE_SHARE * total, f"only {large} of {total} tap targets are at least 44x44 px: {middling}"


CARDS_AND_MARKS = """() => {
  const inside = (a, b) =>
    a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const meets = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const problems = [];
  for (const mark of document.querySelectorAll("#board .cb-penny, #board .cb-vmark")) {
    const card = mark.parentElement.querySelector(".card");
    if (!inside(mark.getBoundingClientRect(), card.getBoundingClientRect()))
      problems.push(`the ${mark.textContent} of ${card.dataset.card} lies outside its card`);
  }
  for (const cell of document.querySelectorAll("#board .cb-cell")) {
    const box = cell.getBoundingClientRect();
    for (const card of cell.querySelectorAll(".card")) {
      const c = card.getBoundingClientRect();
      if (!inside(c, box)) problems.push(`${card.dataset.card} lies past its cell's edge`);
    }
    for (const other of cell.parentElement.querySelectorAll(".cb-cell")) {
      if (other === cell) continue;
      for (const card of other.querySelectorAll(".card"))
        if (meets(card.getBoundingClientRect(), box)) problems.push(`${card.dataset.card} covers a neighbouring cell`);
    }
  }
  return problems;
}"""


def test_carbondale_cards_keep_to_their_cells_and_marks_to_their_cards(page: Page) -> None:
    """At every size, in networks grown over a game: each penny and "!" inside its card, each card inside its cell
    (a red card leans toward its source but never over the neighbouring cell)."""
    problems = []
    for moves in (40, 90):
        page.goto("index.html#" + mid_game("carbondale", 3, 5, moves))
        wait_settled(page)
        assert page.locator("#board .cb-penny").count(), "no marked card to look at"
        for size, (width, height) in SIZES.items():
            resize(page, width, height)
            page.evaluate("document.getAnimations().forEach((a) => a.finish())")
            shot(page, "carbondale", f"cells-{moves}-{size}")
            problems += [f"at {width}x{height} after {moves} moves: {p}" for p in page.evaluate(CARDS_AND_MARKS)]
    assert not problems, "\n".join(sorted(set(problems)))


BUILD = re.compile(r"build (\S+) at (-?\d+,-?\d+) ")


def ways_into_one_cell(seed: int, ways: int) -> tuple[str, str]:
    """The address of a random two-player Carbondale game at the first turn where a card of the human's hand can
    be built into one open cell from ``ways`` sources, and that card."""
    session = Session(Setup("carbondale", 2, seed, [Seat(False), Seat(True, "easy")], {}, 0))
    rnd = random.Random(seed)
    state = session.state
    while not state.is_terminal():
        if state.current_player == 0:
            builds = collections.Counter(m.groups() for m in map(BUILD.match, state.legal_texts()) if m)
            card = next((card for (card, _), n in builds.items() if n == ways), None)
            if card:
                session.state = state
                return address.encode(session), card
        state = state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no turn of seed {seed} builds a card into one cell {ways} ways")


def test_builds_sharing_a_carbondale_cell_are_each_finger_sized_on_a_phone(page: Page) -> None:
    """A chosen card that can go into one open cell from two or three sources: the cell's buttons share it, each
    at least 24 px both ways on the smallest phone (a cell is 3.1rem there)."""
    page.set_viewport_size({"width": 360, "height": 740})
    for seed, ways in ((6, 2), (13, 3)):
        fragment, card = ways_into_one_cell(seed, ways)
        page.goto("index.html#" + fragment)
        wait_settled(page)
        page.locator(f"#board .cb-hand [data-card='{card}'][data-select]").first.click()
        wait_settled(page)
        shared = page.locator("#board .cb-open .cb-builds").filter(has=page.locator(f".cb-build:nth-child({ways})"))
        expect(shared.first).to_be_visible()
        areas = page.evaluate(HIT_AREAS, "#board .cb-build")
        small = [f"{a[2]} {a[0]}x{a[1]}" for a in areas if min(a[0], a[1]) < 24]
        assert len(areas) >= ways and not small, f"{ways} ways into one cell: {small}"
        shot(page, "carbondale", f"builds-sharing-a-cell-{ways}")


def test_both_carbondale_networks_are_above_the_fold_on_a_wide_screen(page: Page) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    for moves in (6, 60):
        page.goto("index.html#" + mid_game("carbondale", 2, 3, moves))
        wait_settled(page)
        page.evaluate("scrollTo(0, 0)")
        seats = page.locator("#board .cb-seat")
        bottoms = seats.evaluate_all("els => els.map((e) => e.getBoundingClientRect().bottom)")
        assert len(bottoms) == 2 and max(bottoms) <= 768, f"after {moves} moves the networks end at {bottoms}"


TARGET_BOXES = """() => [...document.querySelectorAll("#board [data-action], #board [data-select], #board [data-try]")]
  .map((e) => { const b = e.getBoundingClientRect(); return [Math.round(b.left), Math.round(b.top)]; })"""


def test_a_message_never_moves_a_tap_target_and_the_next_good_tap_clears_it(page: Page) -> None:
    """A refused tap's reason shows over the table: every tap target stays where it was; one message shows at a
    time; the next tap that works clears it."""
    page.set_viewport_size({"width": 390, "height": 844})
    tried = page.locator("#board [data-try]")
    for seed in range(1, 12):  # a position where a chosen card cannot move some marble
        page.goto("index.html#" + mid_game("carbles", 2, seed, 12))
        wait_settled(page)
        if page.locator(".cbl-hand-area [data-select]").count() < 2:
            continue
        page.locator(".cbl-hand-area [data-select]").first.click()
        wait_settled(page)
        if tried.count():
            break
    assert tried.count(), "nothing refused to tap on"
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    before = page.evaluate(TARGET_BOXES)
    tried.first.dispatch_event("click")
    expect(page.locator("#advice")).not_to_be_empty()
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    shot(page, "carbles", "message-phone")
    assert page.evaluate(TARGET_BOXES) == before, "showing the message moved the tap targets"
    shown = page.locator("#message, #advice").evaluate_all(
        "els => els.filter((e) => getComputedStyle(e).display !== 'none').length")
    assert shown == 1, f"{shown} messages show at once"
    page.locator(".cbl-hand-area [data-select]").last.click()
    wait_settled(page)
    expect(page.locator("#advice")).to_be_empty()
    expect(page.locator("#message")).to_be_empty()
