"""Frames the game cannot run in say so, in the frame and to the host page, instead of loading forever."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

HOST = """<!doctype html><title>host</title><script>
window.__messages = [];
addEventListener("message", (event) => window.__messages.push(event.data));
</script><iframe id="f" sandbox="{sandbox}" src="{src}" width="600" height="300"></iframe>"""


def host(page: Page, base_url: str, sandbox: str, query: str) -> Any:
    page.set_content(HOST.format(sandbox=sandbox, src=f"{base_url}embed.html?{query}"))
    page.wait_for_function("window.__messages.some(m => m.type === 'error' || m.type === 'ready')", timeout=90_000)
    return page.evaluate("window.__messages")


def test_an_opaque_origin_sandbox_is_refused_in_words(page: Page, base_url: str) -> None:
    messages = host(page, base_url, "allow-scripts", "game=carbondale&position=figure-1")
    errors = [m for m in messages if m["type"] == "error"]
    assert errors and "allow-same-origin" in errors[0]["message"]
    frame = page.frame_locator("#f")
    assert "cannot be shown" in frame.locator("#embed").inner_text()
    # the blocked module script is the browser's own complaint, expected here
    page.watch.problems[:] = [p for p in page.watch.problems if "CORS" not in p and "Failed to load" not in p]  # type: ignore[attr-defined]


def test_an_origin_that_is_no_origin_is_refused_in_words(page: Page, base_url: str) -> None:
    messages = host(page, base_url, "allow-scripts allow-same-origin",
                    "game=carbondale&position=figure-1&origin=https%3A%2F%2Fa%2520b")
    errors = [m for m in messages if m["type"] == "error"]
    assert errors and "origin" in errors[0]["message"]
    assert not [m for m in messages if m["type"] == "ready"]
