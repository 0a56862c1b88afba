"""A rules page's live figures: each ``.live-position`` drawn from a named position of the game, with its "Copy
embed code" button. It touches the DOM (see :data:`cardtable_web.DOM_ADAPTERS`); the embed code and the position
format it shows are :mod:`cardtable_web.embed`'s, pure.
"""

from __future__ import annotations

import asyncio
from typing import Any

from js import document, window  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

import pyengine

from . import drawing
from .dom import load_stylesheet, text_or_none
from .embed import embed_code, position_format_html
from .html import esc


def render_live_positions(panel: Any, game: str) -> None:
    """Draw every ``.live-position`` of a rules page: a named position of the game, in its public view."""
    load_stylesheet(game)  # opened from the lobby, no table of this game has loaded it yet
    for element in panel.querySelectorAll(".live-position"):
        try:
            state = pyengine.core.named_position(game, text_or_none(element.getAttribute("data-position")))
            element.innerHTML = drawing.render_state(state, None)
        except ValueError as exc:
            element.textContent = f"(This position could not be shown: {exc})"
    add_embed_buttons(panel, game)  # each figure's "Copy embed code"



def add_embed_buttons(panel: Any, game: str) -> None:
    """Give every ``.live-position`` of a rules page a "Copy embed code" button."""
    site = str(window.URL.new(".", document.baseURI).href)
    if not document.getElementById("style-embed"):  # the button's and the section's styles
        link = document.createElement("link")
        link.id, link.rel, link.href = "style-embed", "stylesheet", "web/embed.css"
        document.head.append(link)
    if not panel.querySelector("#position-format"):  # the page does not document its format: the engine does
        panel.insertAdjacentHTML("beforeend", position_format_html(game, site))
    for element in panel.querySelectorAll(".live-position"):
        name = element.getAttribute("data-position")
        if not isinstance(name, str):
            continue
        code = embed_code(site, game, name)
        box = document.createElement("div")
        box.className = "embed-code"
        box.innerHTML = (
            '<button type="button" class="btn">Copy embed code</button> <span class="hint" aria-live="polite">'
            f'</span><textarea readonly hidden aria-label="Embed code">{esc(code)}</textarea>'
        )
        element.after(box)
        button, note, area = box.querySelector("button"), box.querySelector(".hint"), box.querySelector("textarea")

        async def write(code: str, note: Any) -> None:
            try:
                await window.navigator.clipboard.writeText(code)
                note.textContent = "Copied."
            except Exception:  # no clipboard here (or not allowed): the code is selected to copy by hand
                note.textContent = "Select the code below and copy it."

        def copy(_event: Any, code: str = code, note: Any = note, area: Any = area) -> None:
            area.hidden = False
            area.select()
            asyncio.ensure_future(write(code, note))

        button.addEventListener("click", create_proxy(copy))
