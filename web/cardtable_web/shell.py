"""The table in the page: PyScript DOM bindings around a :class:`Session`.

The lobby is plain HTML and script (it appears before Python is ready); it hands the
chosen settings to :func:`start`. From then on this module draws the table, turns clicks
on ``data-action`` / ``data-select`` / ``data-ui`` elements into moves, and lets computer
seats think in small slices so the page stays responsive.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

import pyengine

from . import drawing
from .html import esc
from .registry import site_game
from .session import Session, Setup

SAVE_KEY = "cardtable.current-game"
UNREADABLE_KEY = "cardtable.unreadable-save"
"""A save that could not be read is kept here (for a bug report) instead of being deleted."""
LAST_KEY = "cardtable.last-game"
"""The record of the last finished game (the game in progress is under SAVE_KEY)."""
SLICE_SECONDS = 0.03
"""A computer seat thinks at most this long before letting the page breathe."""


def root() -> Any:
    return document.documentElement


def set_state(name: str) -> None:
    """The page's state marker: loading, ready, thinking or over."""
    root().dataset.state = name


def byid(name: str) -> Any:
    return document.getElementById(name)


def text_or_none(value: Any) -> str | None:
    """A JS string as Python text; JS ``null`` and ``undefined`` (whatever Pyodide makes of them) as None."""
    return value if isinstance(value, str) else None


class Table:
    """The one table on the page."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.busy = False
        self.generation = 0
        """Bumped whenever the table's game changes: a computer task of an older generation stops."""
        self.report = ""
        self.zoom = 1.0
        self.pause = 0.6
        self.decisions: list[dict[str, Any]] = []
        self._click = create_proxy(self.guard(self.on_click))
        byid("table").addEventListener("click", self._click)
        self.rules_cache: dict[str, str] = {}
        self.marked_ready = False

    # -- starting and ending ----------------------------------------------------------------
    def start(self, settings_json: str) -> None:
        """Start a game from the lobby's settings (JSON); a bad setting shows a message in the lobby."""
        try:
            session = Session(Setup.from_json(settings_json))
        except ValueError as exc:
            window.cardTable.showLobbyError(str(exc))
            return
        self.begin(session)

    def resume(self) -> bool:
        """Resume the game saved in this browser, if any; an unreadable save is kept aside, never deleted."""
        text = text_or_none(window.localStorage.getItem(SAVE_KEY))
        if not text:
            return False
        try:
            session = Session.resume(str(text))
        except ValueError as exc:
            store(UNREADABLE_KEY, text)
            window.localStorage.removeItem(SAVE_KEY)
            self.report = bug_report(f"The saved game could not be read: {exc}", None, {"save": text[:20_000]})
            window.cardTable.showLobbyError(
                f"The saved game could not be resumed ({exc}). It was kept aside for a bug report.", self.report
            )
            return False
        self.begin(session)
        return True

    def begin(self, session: Session) -> None:
        self.stop_computer()
        self.session = session
        self.zoom = 1.0
        self.pause = session.setup.delay / 1000
        byid("lobby").hidden = True
        byid("table").hidden = False
        document.title = f"{session.info.title} · Card Table"
        byid("table-title").textContent = session.info.title
        load_stylesheet(session.setup.game)
        self.load_rules(session.setup.game)
        self.refresh()

    def leave(self) -> None:
        self.stop_computer()
        self.session = None
        window.localStorage.removeItem(SAVE_KEY)
        self.show_lobby()

    def show_lobby(self) -> None:
        byid("table").hidden = True
        byid("lobby").hidden = False
        document.title = "Card Table"
        set_state("ready")

    def stop_computer(self) -> None:
        """End the computer's task for the game on the table (it notices at its next step and stops quietly)."""
        self.generation += 1
        self.busy = False

    def play_again(self) -> None:
        if self.session is None:
            return
        old = self.session.setup
        seed = int(window.Math.floor(window.Math.random() * 1_000_000_000))
        self.begin(Session(Setup(old.game, old.players, seed, old.seats, dict(old.options), old.delay)))

    # -- the error boundary -----------------------------------------------------------------------
    def guard(self, action: Callable[..., Any]) -> Callable[..., Any]:
        """``action`` for the page: any unexpected exception shows the trouble dialog instead of a traceback."""

        def guarded(*args: Any) -> Any:
            try:
                return action(*args)
            except Exception as exc:  # the boundary: anything unexpected, reported and survived
                self.fail(exc)
                return None

        return guarded

    def fail(self, exc: BaseException) -> None:
        """Show what went wrong with a bug report to copy, and go back to a usable lobby (the save stays)."""
        session = self.session
        self.stop_computer()
        self.session = None
        record = None
        if session is not None:
            try:
                record = session.state.record()
            except Exception:  # the report must not fail too
                record = None
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-4_000:]
        self.report = bug_report(f"{type(exc).__name__}: {exc}", record, {"traceback": detail})
        self.show_lobby()
        window.cardTable.showTrouble(f"Something went wrong at the table: {type(exc).__name__}: {str(exc)[:200]}",
                                     self.report)

    # -- after every change ---------------------------------------------------------------------
    def refresh(self) -> None:
        """After any change: draw the table, keep the game, and let a computer seat move if it is its turn."""
        session = self.session
        if session is None:
            return
        self.draw(session)
        self.keep(session)
        self.mark_state(session)
        if session.computer_to_move() and not self.busy:  # one computer task at a time; it moves every computer seat
            self.busy = True
            asyncio.ensure_future(self.computer_turn())

    def draw(self, session: Session) -> None:
        """Redraw the status, the board (or the hand-over screen), the message and the log."""
        byid("status").innerHTML = drawing.status_html(session)
        board = byid("board")
        if session.needs_handover():
            board.innerHTML = drawing.handover_html(session)
        else:
            board.innerHTML = drawing.table_html(session)
            self.apply_zoom()
        if not self.marked_ready:
            self.marked_ready = True
            window.performance.mark("table-ready")
        byid("message").textContent = session.message
        log = byid("log")
        log.innerHTML = drawing.log_html(session)
        log.scrollTop = log.scrollHeight
        over = session.state.is_terminal()
        byid("game-over").hidden = not over
        if over:
            byid("game-over-text").innerHTML = drawing.status_html(session)

    def keep(self, session: Session) -> None:
        """Save the game in progress; a finished game's record is kept apart."""
        if session.state.is_terminal():
            kept = store(LAST_KEY, session.saved())
            window.localStorage.removeItem(SAVE_KEY)
        else:
            kept = store(SAVE_KEY, session.saved())
        if not kept and not session.message:
            session.message = "This browser cannot save the game (storage is full or switched off); play goes on."

    def mark_state(self, session: Session) -> None:
        """The page's state marker for tests: over, thinking (a computer's turn) or ready."""
        if session.state.is_terminal():
            set_state("over")
        elif session.computer_to_move():
            set_state("thinking")
        else:
            set_state("ready")

    def apply_zoom(self) -> None:
        for element in document.querySelectorAll("#board .zoomable"):
            element.style.zoom = str(self.zoom)
            controls = document.createElement("div")
            controls.className = "zoom-controls"
            controls.innerHTML = (
                '<button type="button" class="btn" data-ui="zoom-out" aria-label="Zoom out">−</button>'
                '<button type="button" class="btn" data-ui="zoom-fit">Fit</button>'
                '<button type="button" class="btn" data-ui="zoom-in" aria-label="Zoom in">+</button>'
            )
            element.parentNode.insertBefore(controls, element)

    def fit(self) -> None:
        for element in document.querySelectorAll("#board .zoomable"):
            element.style.zoom = "1"
            width, available = element.scrollWidth, element.parentNode.clientWidth
            if width and available:
                self.zoom = max(0.3, min(1.5, available / width))
            element.style.zoom = str(self.zoom)

    # -- input ------------------------------------------------------------------------------------
    def on_click(self, event: Any) -> None:
        target = event.target.closest("[data-action], [data-select], [data-ui]")
        if not target or self.session is None:
            return
        event.preventDefault()
        ui, action, select = (text_or_none(target.getAttribute(f"data-{name}")) for name in ("ui", "action", "select"))
        if ui is not None:
            self.on_ui(str(ui))
        elif action is not None:
            self.on_action(str(action))
        elif select is not None:
            self.session.select(str(select))
            self.refresh()

    def on_ui(self, name: str) -> None:
        session = self.session
        assert session is not None
        if name == "take-device":
            session.take_device()
        elif name == "zoom-in":
            self.zoom = min(2.0, self.zoom * 1.25)
        elif name == "zoom-out":
            self.zoom = max(0.3, self.zoom / 1.25)
        elif name == "zoom-fit":
            self.fit()
            return
        self.refresh()

    def on_action(self, text: str) -> None:
        session = self.session
        assert session is not None
        if self.busy or session.computer_to_move():
            session.message = "Please wait: the computer is playing."
        else:
            try:
                session.act(text)
            except ValueError as exc:  # IllegalAction is a ValueError
                session.message = str(exc)
        self.refresh()

    # -- computer seats ---------------------------------------------------------------------------
    async def computer_turn(self) -> None:
        """Let computer seats move one after another, thinking in slices, with a short visible pause.

        The task belongs to one game (its generation): once the table changes game it stops at its
        next step without touching anything, and it always ends with ``busy`` cleared for its game.
        """
        generation = self.generation
        try:
            while self.generation == generation and self.session is not None and self.session.computer_to_move():
                session = self.session
                seat = session.state.current_player
                assert seat is not None
                await asyncio.sleep(self.pause)
                if self.generation != generation:
                    return
                bot = session.bots[seat]
                started = time.perf_counter()
                slice_start = started
                for _ in bot.think(session.state):
                    if time.perf_counter() - slice_start > SLICE_SECONDS:
                        await asyncio.sleep(0)
                        slice_start = time.perf_counter()
                        if self.generation != generation:
                            return
                elapsed = time.perf_counter() - started
                self.decisions.append(
                    {
                        "game": session.setup.game,
                        "level": session.setup.seats[seat].level,
                        "seconds": round(elapsed, 4),
                        "iterations": bot.iterations_done,
                        "choices": len(session.state.legal_texts()),
                    }
                )
                session.computer_move(bot.decision)
                self.refresh()  # busy: draws without starting a second computer task
        except Exception as exc:  # the error boundary for the computer's task
            if self.generation == generation:
                self.fail(exc)
            return
        finally:
            if self.generation == generation:
                self.busy = False
        if self.generation == generation:
            self.refresh()

    # -- rules panel ------------------------------------------------------------------------------
    def load_rules(self, game: str) -> None:
        panel = byid("rules-body")
        info = pyengine.GAMES[game]
        panel.innerHTML = f"<p>Loading the rules of {esc(info.title)}…</p>"
        asyncio.ensure_future(self._load_rules(game))

    async def _load_rules(self, game: str) -> None:
        panel = byid("rules-body")
        if game not in self.rules_cache:
            response = await window.fetch(site_game(game).rules_page)
            if not response.ok:
                panel.innerHTML = "<p>The rules page could not be loaded.</p>"
                return
            self.rules_cache[game] = str(await response.text())
        panel.innerHTML = self.rules_cache[game]
        render_live_positions(panel, game)

    def stats(self) -> str:
        return json.dumps(self.decisions)


def store(key: str, value: str) -> bool:
    """Keep ``value`` in the browser's storage; False (and the game goes on) when storage is full or unavailable."""
    try:
        window.localStorage.setItem(key, value)
        return True
    except Exception:  # QuotaExceededError, SecurityError in private modes: survivable
        return False


def bug_report(error: str, record: dict[str, Any] | None, extra: dict[str, Any]) -> str:
    """The text "Copy a bug report" copies: the error, the game's record and options, the browser."""
    return json.dumps(
        {"error": error, "record": record, "browser": str(window.navigator.userAgent),
         "address": str(window.location.href), **extra},
        indent=1, ensure_ascii=False,
    )


def load_stylesheet(game: str) -> None:
    """Add the game's stylesheet to the page once."""
    if not document.getElementById(f"style-{game}"):
        link = document.createElement("link")
        link.id = f"style-{game}"
        link.rel = "stylesheet"
        link.href = site_game(game).stylesheet
        document.head.append(link)


def render_live_positions(panel: Any, game: str) -> None:
    """Draw every ``.live-position`` of a rules page: a named position of the game, in its public view."""
    for element in panel.querySelectorAll(".live-position"):
        try:
            state = pyengine.core.named_position(game, text_or_none(element.getAttribute("data-position")))
            element.innerHTML = drawing.render_state(state, None)
        except ValueError as exc:
            element.textContent = f"(This position could not be shown: {exc})"


TABLE: Table | None = None


def main() -> None:
    """Set up the table and tell the lobby that Python is ready."""
    global TABLE
    TABLE = Table()
    bridge = window.cardTable
    bridge.startGame = create_proxy(TABLE.guard(TABLE.start))
    bridge.resumeGame = create_proxy(TABLE.guard(TABLE.resume))
    bridge.leaveGame = create_proxy(TABLE.guard(TABLE.leave))
    bridge.playAgain = create_proxy(TABLE.guard(TABLE.play_again))
    bridge.decisionStats = create_proxy(TABLE.stats)
    bridge.pythonReady()
