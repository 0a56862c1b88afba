"""Replaying a finished (or any) game: step forward and back, jump to a move, from a chosen seat's view."""

from __future__ import annotations

from typing import Any

import pyengine
from pyengine.words import say

from . import drawing
from .computer import Computer
from .effects import After, Click, Effect, ReplayScreen, Share, Tick
from .html import esc
from .trail import recent_turns

REPLAY_STEP_SECONDS = 0.8
"""While a replay plays, the next move is shown after this long."""


class Replay:
    """A game's positions from the first to the last, and which one is shown, from whose seat."""

    def __init__(self, final: pyengine.State, names: list[str], seat: int | None, you: int | None = None) -> None:
        """``seat``: whose view is shown first; ``you``: the one human who played, if one did (the words then
        say "You win", "your network", as the table did)."""
        self.final = final
        self.states = [before for before, _ in final.history()] + [final]
        self.entries = final.log()
        self.names = names
        self.seat = seat
        self.you = you
        self.index = len(self.states) - 1
        self.playing = False

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def go(self, index: int) -> None:
        self.index = max(0, min(self.last, index))
        if self.index == self.last:
            self.playing = False

    def step(self) -> bool:
        """The next move while the replay plays; whether it plays on after it."""
        self.go(self.index + 1)
        return self.playing and self.index < self.last

    def starts_playing(self, name: str, number: int) -> bool:
        """A replay control clicked (:meth:`control`); True when it set the replay playing."""
        return self.control(name, number) and name == "replay-play" and self.playing

    def control(self, name: str, number: int) -> bool:
        """A replay control clicked (``number``: the ``data-step`` or ``data-seat`` it carries); True if it was one.

        Play toggles ``playing`` (from the start again when at the end); the page then steps while it is set.
        """
        if name == "replay-first":
            self.go(0)
        elif name == "replay-back":
            self.go(self.index - 1)
        elif name == "replay-forward":
            self.go(self.index + 1)
        elif name == "replay-last":
            self.go(self.last)
        elif name == "jump":
            self.go(number)
        elif name == "replay-seat":
            self.seat = number
        elif name == "replay-play":
            self.playing = not self.playing
            if self.playing and self.index == self.last:
                self.go(0)
        else:
            return False
        return True

    def view(self) -> dict[str, Any]:
        """The shown position from the chosen seat, each seat's latest turn marked (nothing to click: a replay
        only shows)."""
        state = self.states[self.index]
        view = state.view(self.seat)
        view["moves"] = {}
        view["names"] = self.names
        view["you"] = self.you
        view["recent"] = recent_turns(self.entries[: self.index])
        return view

    def caption(self) -> str:
        if self.index == 0:
            return f"Replay: the start (of {self.last} moves)"
        entry = self.entries[self.index - 1]
        return f"Replay: move {self.index} of {self.last}: {say(entry.text, self.names, self.you)}"

    def controls_html(self) -> str:
        """The replay bar: first, back, play or pause, forward, last, and whose view."""
        def button(ui: str, label: str, text: str, disabled: bool = False) -> str:
            off = " disabled" if disabled else ""
            return f'<button type="button" class="btn" data-ui="{ui}" aria-label="{label}"{off}>{text}</button>'

        at_start, at_end = self.index == 0, self.index == self.last
        seats = "".join(
            f'<button type="button" class="btn{" primary" if s == self.seat else ""}" data-ui="replay-seat" '
            f'data-seat="{s}" aria-pressed="{str(s == self.seat).lower()}">{esc(name)}</button>'
            for s, name in enumerate(self.names)
        )
        return (
            '<div class="replay-bar" role="group" aria-label="Replay">'
            + button("replay-first", "First move", "|◀ Start", at_start)
            + button("replay-back", "One move back", "◀ Back", at_start)
            + button("replay-play", "Pause" if self.playing else "Play", "Pause" if self.playing else "Play", at_end)
            + button("replay-forward", "One move forward", "Forward ▶", at_end)
            + button("replay-last", "Last move", "End ▶|", at_end)
            + f'<span class="replay-where" aria-live="polite">{esc(self.caption())}</span>'
            + f'<span class="replay-seats">View of: {seats}</span></div>'
        )

    def log_html(self) -> str:
        """The whole log; each entry jumps to the position after it."""
        start = '<button type="button" class="linkish" data-ui="jump" data-step="0">The start</button>'
        items = [f'<li value="0">{start}</li>']
        for number, entry in enumerate(self.entries, 1):
            current = ' aria-current="step"' if number == self.index else ""
            items.append(
                f'<li{current}><button type="button" class="linkish" data-ui="jump" data-step="{number}">'
                f"{esc(say(entry.text, self.names, self.you))}</button></li>"
            )
        return "".join(items)


class ReplayMode:
    """The table's replay viewer: a :class:`Replay` drawn, its controls and its steps while it plays."""

    def __init__(self, replay: Replay, fragment: str, computer: Computer) -> None:
        self.replay = replay
        self.fragment = fragment
        """The game's full address (what Share gives)."""
        self.computer = computer
        """The table's computer, whose generation drops the steps of a replay no longer shown."""

    def refresh(self) -> list[Effect]:
        return [self.screen()]

    def screen(self) -> ReplayScreen:
        replay = self.replay
        game = replay.final.game
        state = replay.states[replay.index]
        caption = f'<p class="headline replay-caption" role="status">{esc(replay.caption())}</p>'
        return ReplayScreen(
            title=f"{pyengine.GAMES[game].title}: replay",
            game=game,
            status_html=caption + drawing.scores_html(game, state.scores(), state.current_player, replay.names),
            board_html=replay.controls_html() + drawing.render_view(game, replay.view()),
            log_html=replay.log_html(),
            moves=replay.final.played,
            index=replay.index,
            marker="over" if replay.index == replay.last else "ready",
        )

    def click(self, click: Click) -> list[Effect]:
        """A replay control (a click on anything else does nothing)."""
        if not click.ui:
            return []
        if click.ui == "share":
            return [Share("This address shows the whole game, every hand included.", self.fragment)]
        if not self.replay.starts_playing(click.ui, click.number):
            return [self.screen()]
        self.computer.stop()
        return [self.screen(), After(REPLAY_STEP_SECONDS, Tick(self.computer.generation, "replay-step"))]

    def cancel(self) -> list[Effect]:
        return []

    def tick(self, tick: Tick) -> list[Effect]:
        """A timer went off: the replay's next step while it plays."""
        replay = self.replay
        if tick.generation != self.computer.generation or not replay.playing:
            return []
        goes_on = replay.step()
        return [self.screen(), *([After(REPLAY_STEP_SECONDS, tick)] if goes_on else [])]
