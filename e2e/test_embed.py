"""Embeds: ``embed.html`` in frames of a page on another origin, its postMessage API, the rules pages' embed code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

import devserver
from e2e.conftest import wait_settled

DEMO = Path(__file__).resolve().parent / "demo"
FRAMES = ("carbondale", "carbles", "cardcassonne")


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    """The demonstration page, served from a second local port (another origin than the site's)."""
    with devserver.serving(DEMO, "/") as url:
        yield url


def messages(page: Page, kind: str | None = None, frame: str | None = None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("window.__messages")
    return [m for m in found if (kind is None or m["type"] == kind) and (frame is None or m["frame"] == frame)]


def wait_for(page: Page, kind: str, frame: str, count: int = 1) -> None:
    try:
        page.wait_for_function(
            "([kind, frame, count]) => "
            "window.__messages.filter(m => m.type === kind && m.frame === frame).length >= count",
            arg=[kind, frame, count],
            timeout=90_000,
        )
    except Exception:
        raise AssertionError(f"no {kind} event from {frame}; the events: {messages(page)}") from None


def test_demo_page_embeds_three_positions_from_another_origin(page: Page, base_url: str, demo_url: str) -> None:
    page.watch.allowed.append(demo_url)  # type: ignore[attr-defined]
    page.goto(f"{demo_url}index.html?site={quote(base_url, safe='')}")
    for frame in FRAMES:
        wait_for(page, "ready", frame)
    ready = {m["frame"]: m for m in messages(page, "ready")}
    assert ready["carbondale"]["mode"] == "position" and ready["carbondale"]["seat"] is None
    assert ready["carbles"]["seat"] == 0 and ready["carbles"]["moves"] == []  # view only: nothing to click
    for frame in FRAMES:  # the drawn position's height follows the loading note's
        page.wait_for_function(
            "frame => window.__messages.some(m => m.type === 'resize' && m.frame === frame && m.height > 100)",
            arg=frame,
        )
    # every frame is sandboxed and sized from its events
    for element in page.locator("iframe").all():
        assert element.get_attribute("sandbox") == "allow-scripts allow-same-origin"
    frame = page.frame_locator("iframe").nth(2)
    expect(frame.locator(".cc-board")).to_be_visible()

    # play the merging card through the API: a move event, then a resize as the board grows
    page.evaluate("window.__send('cardcassonne', {type: 'play', action: '6♡ @ 1,0', id: 7})")
    wait_for(page, "move", "cardcassonne")
    move = messages(page, "move", "cardcassonne")[0]
    assert move["action"] == "6♡ @ 1,0" and move["id"] == 7 and move["by"] == "host"
    assert move["facts"] == {"kind": "play", "card": "6♡", "x": 1, "y": 0}
    assert move["seat"] == 0 and move["current_player"] == 1
    page.wait_for_timeout(300)  # the merged board keeps its size (it filled a gap)
    tallest = max(m["height"] for m in messages(page, "resize", "cardcassonne"))
    page.evaluate("window.__send('cardcassonne', {type: 'play', action: 'K♣ @ 1,2'})")  # a new row: it grows
    wait_for(page, "move", "cardcassonne", 2)
    page.wait_for_function(
        "tallest => window.__messages.some(m => m.frame === 'cardcassonne' && m.type === 'resize'"
        " && m.height > tallest)",
        arg=tallest,
    )

    # a 7 split through the API, one marble at a time
    page.evaluate("window.__send('carbles', {type: 'play', action: '7 m1 +3'})")
    wait_for(page, "move", "carbles")
    assert messages(page, "move", "carbles")[0]["facts"]["steps"] == 3

    # bad commands get an error event, and the frame goes on
    page.evaluate("""() => {
        window.__send('carbondale', 'hello');
        window.__send('carbondale', {type: 'explode'});
        window.__send('carbondale', {type: 'play', action: 'no such move', id: 'x'});
        window.__send('carbondale', {type: 'load', position: 'no-such-figure'});
        window.__send('carbondale', {type: 'load', position: 'figure-1', extra: 1});
    }""")
    wait_for(page, "error", "carbondale", 5)
    errors = messages(page, "error", "carbondale")
    assert "unknown command type" in errors[1]["message"]
    assert errors[2]["id"] == "x" and errors[2]["command"] == "play"
    assert "no position" in errors[3]["message"]
    page.evaluate("window.__send('carbondale', {type: 'load', position: 'figure-1', seat: 1, id: 2})")
    wait_for(page, "loaded", "carbondale")
    assert messages(page, "loaded", "carbondale")[0]["seat"] == 1


def test_interactive_embed_plays_against_the_computer(page: Page) -> None:
    events: list[dict[str, Any]] = []
    page.expose_function("__event", lambda text: events.append(json.loads(text)))
    page.add_init_script("addEventListener('cardtable:event', (e) => window.__event(e.detail))")
    page.goto("embed.html?game=silver-bars&seed=5&interactive=1&delay=0&level=easy")
    wait_settled(page)
    ready = next(e for e in events if e["type"] == "ready")
    seat = ready["seat"]  # by default, the seat that decides first
    assert ready["interactive"] and seat == ready["current_player"] and ready["moves"]
    for _ in range(10):  # pick a card, then where it goes: clicks as a person makes them
        if any(e["type"] == "move" for e in events):
            break
        actions = page.locator("#embed [data-action]:visible")
        (actions if actions.count() else page.locator("#embed [data-select]:visible")).first.click()
        page.wait_for_timeout(200)
    for _ in range(300):  # the computer answers (unless the move kept the turn)
        moves = [e for e in events if e["type"] == "move"]
        if any(m["by"] == "computer" for m in moves) or (moves and moves[0]["current_player"] == seat):
            break
        page.wait_for_timeout(100)
    assert moves[0]["by"] == "player" and moves[0]["seat"] == seat
    assert any(m["by"] == "computer" for m in moves[1:]) or moves[0]["current_player"] == seat


def test_bad_address_says_why(page: Page) -> None:
    page.goto("embed.html?game=carbondale&position=nowhere")
    page.wait_for_function("performance.getEntriesByName('embed-ready').length > 0")
    expect(page.locator("#embed .error")).to_contain_text("no position")


def test_rules_figures_offer_embed_code(page: Page, base_url: str) -> None:
    page.goto("index.html?game=carbondale&players=2&seed=3&bots=1&level=easy&delay=0")
    wait_settled(page)
    page.locator("#show-rules").click()
    button = page.locator(".live-position + .embed-code button")
    expect(button.first).to_be_visible()
    button.first.click()
    code = page.locator(".embed-code textarea").first.input_value()
    assert code.startswith(f'<iframe src="{base_url}embed.html?game=carbondale&amp;position=figure-1"')
    assert 'sandbox="allow-scripts allow-same-origin"' in code
    expect(page.locator("#position-format")).to_be_visible()  # the page's own section, or the engine's
