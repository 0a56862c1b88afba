"""The embed as one plain object: the address, the host's commands, clicks and the computer's decisions in;
effects out (draw the frame, post an event to the host, think, step the replay).

The frame's adapter (:mod:`cardtable_web.embed_page`) runs the effects, as the table page's adapter runs
:class:`~cardtable_web.controller.TableController`'s. The address and the postMessage API are
:mod:`cardtable_web.embed`'s docstring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import embed as model
from . import selection
from .effects import After, Click, Decided, Effect, FrameScreen, Post, Think, ThinkTask, Tick
from .html import esc
from .replay import REPLAY_STEP_SECONDS

Effects = list[Effect]


class EmbedController:
    """The one embed of a frame."""

    def __init__(self) -> None:
        self.request: model.Request | None = None
        self.embed: model.Embed | None = None
        self.busy = False
        self.generation = 0

    # -- what the host and the address ask ------------------------------------------------------------------
    def error(self, message: object, data: Mapping[str, Any] | None = None) -> Post:
        command = data.get("type") if data else None
        return Post({"type": "error", "message": str(message)[:300], "command": command, **model.reply_id(data)})

    def open_address(self, search: str, fresh_seed: int | None = None) -> Effects:
        """Show what the frame's address (its query, ``search``) asks for; a new game without a seed is dealt
        with ``fresh_seed``."""
        try:
            request = model.from_query(str(search), fresh_seed)
        except ValueError as exc:
            html = f'<p class="error" role="alert">This embed cannot be shown: {esc(exc)}</p>'
            return [FrameScreen(html, "ready", ""), self.error(exc)]
        self.request = request
        return self.show(model.Embed(request), "ready")

    def command(self, text: str | None) -> Effects:
        """A host's command (JSON text; embed.js already checked its source and origin)."""
        try:
            data = model.parse_command(text)
        except model.CommandError as exc:
            return [Post({**self.error(exc).event, **exc.reply})]
        try:
            return self.load(data) if data["type"] == "load" else self.play(data)
        except ValueError as exc:
            return [self.error(exc, data)]

    def load(self, data: Mapping[str, Any]) -> Effects:
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
        return self.show(model.Embed(request), "loaded", data)

    def show(self, embed: model.Embed, kind: str, data: Mapping[str, Any] | None = None) -> Effects:
        self.generation += 1
        self.busy = False
        self.embed = embed
        return [self.screen(), Post(embed.describe(kind, data)), *self.after()]

    def screen(self) -> FrameScreen:
        embed = self.embed
        assert embed is not None
        state = embed.state
        marker = "over" if state.is_terminal() else "thinking" if embed.computer_to_move() else "ready"
        return FrameScreen(embed.html(), marker, embed.game)

    # -- playing ------------------------------------------------------------------------------------------------
    def play(self, data: Mapping[str, Any]) -> Effects:
        """The host's ``play`` command."""
        embed = self.embed
        if embed is None:
            raise ValueError("nothing is shown to play on")
        if self.busy:
            raise ValueError("the computer is playing: wait for its move")
        events = embed.play(data["action"], "host")
        events[0].update(model.reply_id(data))
        return [self.screen(), *(Post(event) for event in events), *self.after()]

    def click(self, click: Click) -> Effects:
        """A click in the frame: an action (when interactive), a selection, or a replay control."""
        embed = self.embed
        if embed is None:
            return []
        if embed.replay is not None:
            return self.replay_control(embed, click) if click.ui else []
        session = embed.session
        assert session is not None
        if click.action is not None and embed.request.interactive and not self.busy:
            try:
                events = embed.play(click.action, "player")
            except ValueError as exc:
                session.message = str(exc)
                return [self.screen()]
            return [self.screen(), *(Post(event) for event in events), *self.after()]
        if click.select is not None:
            try:
                session.select(selection.decode(click.select))
            except ValueError:  # not a selection this site wrote: nothing to choose
                return []
            return [self.screen()]
        return []

    def after(self) -> Effects:
        """The computer's decision, when a computer seat is to move."""
        embed = self.embed
        if embed is None or not embed.computer_to_move() or self.busy:
            return []
        session = embed.session
        assert session is not None
        seat = session.state.current_player
        assert seat is not None
        self.busy = True
        task = ThinkTask(self.generation, "move", seat, embed.request.delay / 1000, session.bots[seat],
                         session.state, None, session.state.played)
        return [Think(task)]

    def current(self, task: ThinkTask) -> bool:
        return task.generation == self.generation and self.embed is not None

    def decided(self, answer: Decided) -> Effects:
        """The computer's decision arrived: play it and tell the host."""
        if not self.current(answer.task) or answer.action is None:
            return []
        embed = self.embed
        assert embed is not None
        self.busy = False
        events = embed.play(answer.action, "computer")
        return [self.screen(), *(Post(event) for event in events), *self.after()]

    def fail(self, exc: BaseException) -> Effects:
        """Anything unexpected becomes an error event, never a broken frame."""
        self.busy = False
        return [self.error(f"unexpected: {type(exc).__name__}: {exc}")]

    # -- a record's replay ----------------------------------------------------------------------------------------
    def replay_control(self, embed: model.Embed, click: Click) -> Effects:
        replay = embed.replay
        assert replay is not None and click.ui is not None
        effects: Effects = []
        if replay.starts_playing(click.ui, click.number):
            self.generation += 1
            effects.append(After(REPLAY_STEP_SECONDS, Tick(self.generation, "replay-step")))
        return [self.screen(), *effects]

    def tick(self, tick: Tick) -> Effects:
        embed = self.embed
        replay = embed.replay if embed is not None else None
        if tick.generation != self.generation or replay is None or not replay.playing:
            return []
        goes_on = replay.step()
        return [self.screen(), *([After(REPLAY_STEP_SECONDS, tick)] if goes_on else [])]
