"""The embed frame's adapter: DOM events and the host's commands into
:class:`~cardtable_web.embed_controller.EmbedController` calls, and its effects into the frame.

``web/embed.js`` starts Pyodide, sets ``window.cardTableEmbed`` (``post``, ``attach``, ``measure``) and calls
:func:`start`. See :mod:`cardtable_web.embed` for the address and the postMessage API.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from js import document, window  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from pyengine.rng import fresh_seed

from .dom import console_trace, decide, guarded, load_stylesheet, text_or_none
from .effects import After, Click, Decided, Effect, FrameScreen, Post, Think
from .embed_controller import EmbedController


class Frame:
    """The one embed on the page: runs the controller's effects."""

    def __init__(self) -> None:
        self.bridge = window.cardTableEmbed
        self.root = document.getElementById("embed")
        self.controller = EmbedController()
        self.marked = False
        self._click = create_proxy(self.guard(self.on_click))
        self.root.addEventListener("click", self._click)

    def guard(self, action: Any) -> Any:
        return guarded(action, self.fail)

    def fail(self, exc: BaseException) -> None:
        console_trace(exc)
        self.run(self.controller.fail(exc))

    def run(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, FrameScreen):
                self.draw(effect)
            elif isinstance(effect, Post):
                self.bridge.post(json.dumps(effect.event))
            elif isinstance(effect, Think):
                asyncio.ensure_future(self.think(effect))
            elif isinstance(effect, After):
                asyncio.ensure_future(self.after(effect))

    def draw(self, screen: FrameScreen) -> None:
        if screen.game:
            load_stylesheet(screen.game)
        window.cardTableMotion.redraw(self.root, screen.html)  # morphed in place; what moved slides there
        for element in self.root.querySelectorAll(".zoomable"):
            element.style.zoom = "1"
            width, available = element.scrollWidth, self.root.clientWidth
            if width and available and width > available:
                element.style.zoom = str(max(0.3, available / width))
        document.documentElement.dataset.state = screen.marker
        if not self.marked:
            self.marked = True
            window.performance.mark("embed-ready")
        self.bridge.measure()

    async def think(self, effect: Think) -> None:
        task = effect.task
        try:
            action, iterations, seconds, where = await decide(task, self.controller.current)
            if self.controller.current(task):
                self.run(self.controller.decided(Decided(task, action, iterations, seconds, where)))
        except Exception as exc:  # the computer's task: reported, the frame stays
            if self.controller.current(task):
                self.fail(exc)

    async def after(self, effect: After) -> None:
        await asyncio.sleep(effect.seconds)
        self.guard(lambda: self.run(self.controller.tick(effect.tick)))()

    def on_click(self, event: Any) -> None:
        target = event.target.closest("[data-action], [data-select], [data-ui]")
        if not target or self.controller.embed is None:
            return
        event.preventDefault()
        ui, action, select = (text_or_none(target.getAttribute(f"data-{name}")) for name in ("ui", "action", "select"))
        number = text_or_none(target.getAttribute("data-step" if ui == "jump" else "data-seat")) or "0"
        self.run(self.controller.click(Click(ui, action, select, None, int(number) if number.isdigit() else 0)))

    def command(self, text: Any) -> None:
        self.run(self.controller.command(text_or_none(text)))


FRAME: Frame | None = None


def start() -> None:
    """Draw what the address asks for and start answering the host's commands."""
    global FRAME
    FRAME = frame = Frame()
    seed = fresh_seed()  # 128 bits from the browser's cryptographic generator
    frame.guard(lambda: frame.run(frame.controller.open_address(str(window.location.search), seed)))()
    frame.bridge.attach(create_proxy(frame.guard(frame.command)))
