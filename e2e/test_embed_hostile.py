"""An embed host's hostile commands, as only a browser sends them (a structured clone, then JSON), are refused in
the site's words, never Python's."""

from __future__ import annotations

from playwright.sync_api import Page

from e2e.test_embed_guard import host

PYTHON_WORDS = ("Exceeds the limit", "set_int_max_str_digits", "Traceback", "RecursionError", "sys.")


def test_a_deep_or_odd_command_is_refused_in_words(page: Page, base_url: str) -> None:
    messages = host(page, base_url, "allow-scripts allow-same-origin", "game=carbondale&position=figure-1")
    assert any(m["type"] == "ready" for m in messages), messages
    page.evaluate("""() => {
        const frame = document.getElementById("f").contentWindow;
        let deep = 1;
        for (let i = 0; i < 3000; i++) deep = [deep];
        frame.postMessage({type: "load", position: deep, id: 1}, "*");
        frame.postMessage(JSON.stringify({type: "load", position: "figure-1"}), "*");
        frame.postMessage({type: "load", position: "figure-1", players: Number("9".repeat(400)), id: 3}, "*");
        frame.postMessage({type: "play", action: "9".repeat(5000), id: 4}, "*");
    }""")
    page.wait_for_function("window.__messages.filter(m => m.type === 'error').length >= 4", timeout=60_000)
    errors = [m["message"] for m in page.evaluate("window.__messages") if m["type"] == "error"]
    assert "nests deeper than 64" in errors[0], errors
    assert "not its JSON text" in errors[1], errors
    for message in errors:
        assert not any(words in message for words in PYTHON_WORDS) and len(message) < 400, message
