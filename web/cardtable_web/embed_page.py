"""The embed frame in the browser: DOM and messages around :class:`cardtable_web.embed.Embed`.

``web/embed.js`` starts Pyodide, sets ``window.cardTableEmbed`` (``post``, ``attach``, ``params``) and calls
:func:`start`. See :mod:`cardtable_web.embed` for the address and the postMessage API.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import traceback
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from . import embed as model
from .html import esc
from .registry import site_game
from .urls import parse_qsl

SLICE_SECONDS = 0.03
REPLAY_STEP_SECONDS = 0.8


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class Frame:
    """The one embed on the page."""

    def __init__(self) -> None:
        self.bridge = js.cardTableEmbed
        self.root = js.document.getElementById("embed")
        self.request: model.Request | None = None
        self.embed: model.Embed | None = None
        self.busy = False
        self.generation = 0
        self.marked = False
        self._click = create_proxy(self.guard(self.on_click))
        self.root.addEventListener("click", self._click)

    # -- messages -------------------------------------------------------------------------------------------
    def send(self, event: dict[str, Any]) -> None:
        self.bridge.post(json.dumps(event))

    def error(self, message: object, data: dict[str, Any] | None = None) -> None:
        command = data.get("type") if data else None
        self.send({"type": "error", "message": str(message)[:300], "command": command, **model.reply_id(data)})

    def guard(self, action: Callable[..., Any]) -> Callable[..., Any]:
        """``action`` for the page: anything unexpected becomes an error event, never a broken frame."""

        def guarded(*args: Any) -> Any:
            try:
                return action(*args)
            except Exception as exc:  # the boundary: reported to the host and to the console
                js.console.warn("".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-2000:])
                self.error(f"unexpected: {type(exc).__name__}: {exc}")
                return None

        return guarded

    def command(self, text: Any) -> None:
        """A host's command (JSON text from embed.js, which already checked its source and origin)."""
        try:
            data = model.parse_command(text_or_none(text))
        except ValueError as exc:
            self.error(exc)
            return
        try:
            if data["type"] == "load":
                self.load(data)
            else:
                self.play(data)
        except ValueError as exc:
            self.error(exc, data)

    # -- showing --------------------------------------------------------------------------------------------
    def open_address(self) -> None:
        params = dict(parse_qsl(str(js.location.search).lstrip("?")))
        try:
            request = model.from_params(params)
        except ValueError as exc:
            self.root.innerHTML = f'<p class="error" role="alert">This embed cannot be shown: {esc(exc)}</p>'
            self.mark_ready()
            self.error(exc)
            return
        self.request = request
        self.show(model.Embed(request), "ready")

    def load(self, data: dict[str, Any]) -> None:
        base = self.request
        if base is None:
            raise ValueError("this embed's address could not be shown, so it loads nothing")
        state, mode = model.load_state(
            base.game, data.get("position"), data.get("record"), data.get("players"), data.get("options")
        )
        interactive = base.interactive and mode != "record"
        seat = model.read_seat(data.get("seat"), state, interactive)
        request = dataclasses.replace(base, state=state, mode=mode, seat=seat, interactive=interactive)
        self.request = request
        self.show(model.Embed(request), "loaded", data)

    def show(self, embed: model.Embed, kind: str, data: dict[str, Any] | None = None) -> None:
        self.generation += 1
        self.busy = False
        self.embed = embed
        load_stylesheet(embed.game)
        self.draw()
        self.mark_ready()
        self.send(embed.describe(kind, data))
        self.after()

    def mark_ready(self) -> None:
        if not self.marked:
            self.marked = True
            js.performance.mark("embed-ready")

    def draw(self) -> None:
        embed = self.embed
        if embed is None:
            return
        self.root.innerHTML = embed.html()
        for element in self.root.querySelectorAll(".zoomable"):
            element.style.zoom = "1"
            width, available = element.scrollWidth, self.root.clientWidth
            if width and available and width > available:
                element.style.zoom = str(max(0.3, available / width))
        state = embed.state
        if state.is_terminal():
            marker = "over"
        elif embed.computer_to_move():
            marker = "thinking"
        else:
            marker = "ready"
        js.document.documentElement.dataset.state = marker
        self.bridge.measure()

    def after(self) -> None:
        embed = self.embed
        if embed is not None and embed.computer_to_move() and not self.busy:
            self.busy = True
            asyncio.ensure_future(self.computer_turn())

    # -- playing --------------------------------------------------------------------------------------------
    def play(self, data: dict[str, Any]) -> None:
        embed = self.embed
        if embed is None:
            raise ValueError("nothing is shown to play on")
        if self.busy:
            raise ValueError("the computer is playing: wait for its move")
        events = embed.play(data["action"], "host")
        events[0].update(model.reply_id(data))
        self.draw()
        for event in events:
            self.send(event)
        self.after()

    def on_click(self, event: Any) -> None:
        target = event.target.closest("[data-action], [data-select], [data-ui]")
        embed = self.embed
        if not target or embed is None:
            return
        event.preventDefault()
        ui, action, select = (text_or_none(target.getAttribute(f"data-{name}")) for name in ("ui", "action", "select"))
        if embed.replay is not None:
            if ui is not None:
                self.on_replay(embed, ui, target)
            return
        session = embed.session
        assert session is not None
        if action is not None and embed.request.interactive and not self.busy:
            try:
                events = embed.play(action, "player")
            except ValueError as exc:
                session.message = str(exc)
                self.draw()
                return
            self.draw()
            for item in events:
                self.send(item)
            self.after()
        elif select is not None:
            session.select(select)
            self.draw()

    def on_replay(self, embed: model.Embed, name: str, target: Any) -> None:
        replay = embed.replay
        assert replay is not None
        number = int(text_or_none(target.getAttribute("data-step" if name == "jump" else "data-seat")) or 0)
        if replay.control(name, number) and name == "replay-play" and replay.playing:
            asyncio.ensure_future(self.play_replay(embed))
        self.draw()

    async def play_replay(self, embed: model.Embed) -> None:
        replay = embed.replay
        assert replay is not None
        while replay.playing and self.embed is embed and replay.index < replay.last:
            await asyncio.sleep(REPLAY_STEP_SECONDS)
            if replay.playing and self.embed is embed:
                replay.go(replay.index + 1)
                self.draw()

    async def computer_turn(self) -> None:
        generation = self.generation
        try:
            while self.generation == generation and self.embed is not None and self.embed.computer_to_move():
                embed = self.embed
                session = embed.session
                assert session is not None
                await asyncio.sleep(embed.request.delay / 1000)
                if self.generation != generation:
                    return
                seat = session.state.current_player
                assert seat is not None
                bot = session.bots[seat]
                slice_start = time.perf_counter()
                for _ in bot.think(session.state):
                    if time.perf_counter() - slice_start > SLICE_SECONDS:
                        await asyncio.sleep(0)
                        slice_start = time.perf_counter()
                        if self.generation != generation:
                            return
                events = embed.play(str(bot.decision), "computer")
                self.draw()
                for event in events:
                    self.send(event)
        except Exception as exc:  # the computer's task: reported, the frame stays
            if self.generation == generation:
                self.error(f"unexpected: {type(exc).__name__}: {exc}")
        finally:
            if self.generation == generation:
                self.busy = False
        if self.generation == generation and self.embed is not None:
            self.draw()


def load_stylesheet(game: str) -> None:
    """The game's stylesheet, once (embed.js usually added it before Python started)."""
    if not js.document.getElementById(f"style-{game}"):
        link = js.document.createElement("link")
        link.id = f"style-{game}"
        link.rel = "stylesheet"
        link.href = site_game(game).stylesheet
        js.document.head.append(link)


FRAME: Frame | None = None


def start() -> None:
    """Draw what the address asks for and start answering the host's commands."""
    global FRAME
    FRAME = Frame()
    FRAME.guard(FRAME.open_address)()
    FRAME.bridge.attach(create_proxy(FRAME.guard(FRAME.command)))
