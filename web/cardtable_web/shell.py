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

from . import address, drawing, embed
from .html import esc
from .keeping import CURRENT_KEY, UNREADABLE_KEY, Keeper
from .registry import site_game
from .replay import Replay
from .session import Session, Setup

REPLAY_STEP_SECONDS = 0.8
INSTANT_REDRAW_SECONDS = 0.25
"""At the instant pace, a run of computer moves is redrawn at most this often."""
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
        self.keeper = Keeper(window.localStorage)
        self.address = ""
        """The address fragment of the game on the table (what the page's address holds)."""
        self.last_kept: str | None = None
        """The address this tab kept last (from there it may go anywhere: on, or back by a take-back)."""
        self.elsewhere = False
        """True once another tab moved this game on: this tab stops keeping it until the newer position is loaded."""
        self.replay: Replay | None = None
        self.drawn_moves = -1
        """How many moves the board showed when last drawn (the marks of the last moves pop only when new)."""
        self.suggesting = False
        """True while the computer looks for a move to suggest."""
        self.banner_from = 0
        self.log_mark: tuple[int, int] | None = None
        self.log_shown = 0
        """Which game's log is drawn (and after how many fresh starts), and how many of its lines."""
        """The banner tells what the computers did since this move (the last human decision)."""

    # -- starting and ending ----------------------------------------------------------------
    def start(self, settings_json: str) -> None:
        """Start a game from the lobby's settings (JSON); a bad setting shows a message in the lobby."""
        try:
            session = Session(Setup.from_json(settings_json))
        except ValueError as exc:
            window.cardTable.showLobbyError(str(exc))
            return
        if session.key in self.keeper.saves():  # the same deal and seats: it is the kept game, so go on with it
            self.continue_saved(session.key)
            if self.session is not None:
                self.session.message = "You had started this game before: it goes on where you left it."
                self.refresh()
            return
        self.begin(session)

    def open_address(self, fragment: str) -> None:
        """Open the game an address holds (a finished one in the replay viewer); a bad one gets a message."""
        try:
            session = address.decode(str(fragment))
        except ValueError as exc:
            window.cardTable.showLobbyError(f"This address does not hold a game of this site: {exc}")
            return
        if session.state.is_terminal():
            self.begin_replay(session)
        else:
            self.begin(session, history="keep")

    def continue_saved(self, key: str) -> None:
        """Continue a kept unfinished game (from the lobby's list)."""
        kept = self.keeper.saves().get(str(key))
        if kept is None:
            window.cardTable.showLobbyError("That game is no longer kept in this browser.")
            return
        try:
            session = address.decode(kept["address"])
        except ValueError as exc:
            self.keeper.write(UNREADABLE_KEY, json.dumps(kept))
            self.keeper.discard(str(key))
            self.report = bug_report(f"A kept game could not be read: {exc}", None, {"save": kept})
            window.cardTable.showLobbyError(
                f"That game could not be resumed ({exc}). It was kept aside for a bug report.", self.report
            )
            window.cardTable.refreshKept()
            return
        self.begin(session)

    def migrate(self) -> None:
        """Earlier versions kept one game (as a full save): keep it among the games, or aside if unreadable."""
        text = text_or_none(window.localStorage.getItem(CURRENT_KEY))
        if not text:
            return
        try:
            session = Session.resume(text)
        except ValueError as exc:
            self.keeper.write(UNREADABLE_KEY, text)
            self.keeper.remove(CURRENT_KEY)
            self.report = bug_report(f"The saved game could not be read: {exc}", None, {"save": text[:20_000]})
            window.cardTable.showLobbyError(
                f"The saved game could not be resumed ({exc}). It was kept aside for a bug report.", self.report
            )
            return
        if session.key not in self.keeper.saves():
            self.keeper.keep(session, address.encode(session))

    def begin(self, session: Session, history: str = "push") -> None:
        """Put a game on the table; ``history``: push a new address, replace the current one, or keep it."""
        self.stop_computer()
        self.replay = None
        self.session = session
        self.elsewhere = False
        self.last_kept = None
        byid("elsewhere").hidden = True
        self.zoom = 1.0
        self.pause = session.setup.delay / 1000
        self.banner_from = len(session.state.history())
        self.address = address.encode(session)
        if any(session.thinks_away(seat) for seat in session.computers):
            window.cardTableThinker.warm()  # starts in the background; the page thinks until it is ready
        if history == "push":
            window.history.pushState("table", "", window.location.pathname + "#" + self.address)
        elif history == "replace":
            window.history.replaceState("table", "", window.location.pathname + "#" + self.address)
        self.show_table(session.info.title, session.setup.game)
        self.refresh()

    def show_table(self, title: str, game: str) -> None:
        byid("lobby").hidden = True
        byid("table").hidden = False
        document.title = f"{title} · Card Table"
        byid("table-title").textContent = title
        load_stylesheet(game)
        self.load_rules(game)

    def leave(self) -> None:
        """Back to the lobby; the game stays kept (Continue in the lobby, or Forward)."""
        self.stop_computer()
        self.session = None
        self.replay = None
        if window.location.hash or window.location.search:
            window.history.pushState("lobby", "", window.location.pathname)
        self.show_lobby()

    def on_history(self) -> None:
        """Back and Forward: the lobby's address shows the lobby, a game's address its game."""
        fragment = str(window.location.hash or "").lstrip("#")
        if not fragment:
            self.stop_computer()
            self.session = None
            self.replay = None
            self.show_lobby()
        elif fragment != self.address or self.session is None and self.replay is None:
            self.open_address(fragment)

    def show_lobby(self) -> None:
        byid("table").hidden = True
        byid("lobby").hidden = False
        document.title = "Card Table"
        root().dataset.moves = "0"
        set_state("ready")
        window.cardTable.refreshKept()

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
        """Redraw the status, the board (or the hand-over screen), the message and the log.

        The element that had the keyboard's focus gets it back after the redraw (found by what it does).
        """
        focused = focus_key()
        byid("status").innerHTML = drawing.status_html(session)
        line = drawing.banner(session, self.banner_from)
        byid("banner").textContent = line
        byid("banner").title = line
        byid("pace-table").value = str(session.setup.delay)
        board = byid("board")
        if session.needs_handover():
            board.innerHTML = drawing.handover_html(session)
        else:
            board.innerHTML = drawing.table_html(session)
            self.apply_zoom()
        self.draw_legend(session.setup.game)
        moves = len(session.state.history())
        board.classList.toggle("fresh", moves != self.drawn_moves)
        self.drawn_moves = moves
        if not self.marked_ready:
            self.marked_ready = True
            window.performance.mark("table-ready")
        byid("message").textContent = session.message
        self.draw_advice(session)
        self.draw_log(session)
        over = session.state.is_terminal()
        byid("game-over").hidden = not over
        if over:
            byid("game-over-text").innerHTML = drawing.status_html(session)
        byid("play-again-bar").hidden = not over
        restore_focus(focused)
        undo = byid("undo")
        undo.hidden = False
        possible = not over and not self.busy and session.can_take_back()
        undo.disabled = not possible
        undo.title = "Take back your last move" if possible else (
            "Nothing to take back: never past another player's decision or a card seen for the first time")

    def draw_legend(self, game: str) -> None:
        """The key to the table's symbols, under the table: drawn once per game (so it stays open while the
        table redraws)."""
        box = byid("legend")
        if box.getAttribute("data-game") != game:
            box.innerHTML = drawing.legend_html(game)
            box.setAttribute("data-game", game)

    def draw_advice(self, session: Session) -> None:
        """The polite note beside the table (a refusal's reason or a suggestion), the suggestion's highlight and
        the "Suggest a move" button (only while the human on screen decides)."""
        byid("advice").textContent = session.advice
        hint = session.hint
        if hint is not None:
            name, value = ("data-select", hint.select) if hint.select and session.selection != hint.select else (
                "data-action", hint.action)
            element = byid("board").querySelector(f'[{name}="{window.CSS.escape(value)}"]')
            if element:
                element.classList.add("hinted")
                element.setAttribute("aria-describedby", "advice")
        button = byid("suggest")
        button.hidden = not session.decides_now() or session.state.is_terminal()
        button.disabled = self.suggesting

    def draw_log(self, session: Session) -> None:
        """The log: only new lines are added (the whole log is drawn again after a take-back or another game)."""
        log = byid("log")
        lines = session.log_lines()
        mark = (id(session), session.trail.resets)
        if mark != self.log_mark or len(lines) < self.log_shown:
            log.innerHTML = drawing.log_items(lines)
        elif len(lines) > self.log_shown:
            log.insertAdjacentHTML("beforeend", drawing.log_items(lines[self.log_shown :]))
        self.log_mark, self.log_shown = mark, len(lines)
        log.scrollTop = log.scrollHeight

    def keep(self, session: Session) -> None:
        """Write the game into the address and keep it in the browser (a finished one in the history)."""
        self.address = address.encode(session)
        window.history.replaceState("table", "", "#" + self.address)
        root().dataset.moves = str(len(session.state.history()))
        if self.elsewhere:
            return
        if session.state.is_terminal():
            kept = self.keeper.finish(session, self.address, drawing.headline(session))
        else:
            kept = self.keeper.keep(session, self.address, last_kept=self.last_kept)
            if kept.ok:
                self.last_kept = self.address
        if kept.conflict:
            self.moved_elsewhere()
        elif kept.message and not session.message:
            session.message = kept.message

    def moved_elsewhere(self) -> None:
        """Another tab moved this game on: say so, keep nothing more here, offer the newer position."""
        self.elsewhere = True
        byid("elsewhere").hidden = False

    def storage_changed(self) -> None:
        """Another tab changed the kept games: if it moved this game on, offer to load the newer position."""
        session = self.session
        if session is None or self.elsewhere:
            return
        kept = self.keeper.saves().get(session.key)
        if kept is not None and kept["address"] != self.last_kept:
            self.moved_elsewhere()

    def load_newer(self) -> None:
        session = self.session
        kept = self.keeper.saves().get(session.key) if session is not None else None
        if kept is None:
            byid("elsewhere").hidden = True
            self.elsewhere = False
            return
        self.open_address(kept["address"])
        window.history.replaceState("table", "", "#" + self.address)

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
        target = event.target.closest("[data-action], [data-select], [data-ui], [data-try]")
        if not target:
            if self.session is not None and self.session.advice and not self.suggesting:
                self.session.clear_advice()  # any click ends a suggestion or a refusal's reason
                self.refresh()
            return
        ui, action, select, attempt = (
            text_or_none(target.getAttribute(f"data-{name}")) for name in ("ui", "action", "select", "try"))
        if self.replay is not None and ui is not None:
            event.preventDefault()
            self.on_replay_ui(str(ui), target)
            return
        if self.session is None:
            return
        event.preventDefault()
        if ui is not None:
            self.on_ui(str(ui))
        elif action is not None:
            self.on_action(str(action))
        elif select is not None:
            self.session.select(str(select))
            self.refresh()
        elif attempt is not None:
            self.on_attempt(str(attempt))

    def on_attempt(self, facts: str) -> None:
        """A click on something that plays nothing now: the engine's reason, said beside the table."""
        session = self.session
        assert session is not None
        session.why_not(facts)
        if not session.advice:
            session.advice = "Nothing to play there."
        self.refresh()

    def suggest(self) -> None:
        """Ask the computer (normal level, from the human's own view) for a move; it thinks in slices."""
        session = self.session
        if session is None or self.busy or self.suggesting or not session.decides_now():
            return
        self.suggesting = True
        asyncio.ensure_future(self.find_suggestion(session, self.generation, len(session.state.history())))

    async def find_suggestion(self, session: Session, generation: int, moves: int) -> None:
        try:
            session.advice = "Looking for a move…"
            session.hint = None
            self.draw_advice(session)
            bot, sample = session.hint_search()
            slice_start = time.perf_counter()
            for _ in bot.think(sample):
                if time.perf_counter() - slice_start > SLICE_SECONDS:
                    await asyncio.sleep(0)
                    slice_start = time.perf_counter()
                    if self.generation != generation or len(session.state.history()) != moves:
                        return
            text = str(bot.decision)
            if self.session is not session or len(session.state.history()) != moves:
                return
            if text not in session.state.legal_texts():
                session.advice = "No suggestion this time: try again."
            else:
                session.hint = drawing.hint_of(session, text)
                session.advice = session.hint.words
        finally:
            self.suggesting = False
        self.refresh()

    def on_ui(self, name: str) -> None:
        session = self.session
        assert session is not None
        if name == "suggest":
            self.suggest()
            return
        session.clear_advice()
        if name == "take-device":
            session.take_device()
        elif name == "zoom-in":
            self.zoom = min(2.0, self.zoom * 1.25)
        elif name == "zoom-out":
            self.zoom = max(0.3, self.zoom / 1.25)
        elif name == "zoom-fit":
            self.fit()
            return
        elif name == "undo":
            if self.busy:
                session.message = "Please wait: the computer is playing."
            else:
                try:
                    session.take_back()
                except ValueError as exc:
                    session.message = str(exc)
        elif name == "load-newer":
            self.load_newer()
            return
        elif name == "replay":
            self.begin_replay(session)
            return
        elif name == "share":
            self.share()
            return
        self.refresh()

    def set_pace(self, delay: int) -> None:
        """The computer's pace, changed at the table (kept in the game's address)."""
        session = self.session
        if session is None or not 0 <= int(delay) <= 10_000:
            return
        session.setup.delay = int(delay)
        self.pause = session.setup.delay / 1000
        self.keep(session)

    def cancel(self) -> None:
        """Escape at the table: drop the chosen card (or other selection)."""
        session = self.session
        if session is not None and session.selection is not None:
            session.selection = None
            self.refresh()

    def draw_figures(self, game: str) -> None:
        """The live figures of a rules page opened from the lobby."""
        render_live_positions(byid("rules-body"), str(game))

    def share(self) -> None:
        """The share dialog: the game's address, and what sharing it means for hidden cards."""
        session = self.session
        if session is None:
            return
        link = str(window.location.href)
        byid("share-address").value = link
        game = site_game(session.setup.game)
        if game.open_information(session.state.options):
            note = ("Everything in this game is open, so two players can play at a distance: send the address "
                    "after each move, and the other player opens it and plays on.")
        else:
            note = ("This address contains the whole deal: anyone who decodes it can see every hand. It is for "
                    "resuming on another device or showing a finished game, not for playing a hidden-hand game "
                    "at a distance.")
        byid("share-note").textContent = note
        byid("share-box").hidden = False

    # -- the replay viewer ------------------------------------------------------------------------
    def begin_replay(self, session: Session) -> None:
        """Show a game (usually finished) in the replay viewer, from the human's seat (or the first)."""
        self.stop_computer()
        self.session = None
        seat = session.you if session.you is not None else (session.humans[0] if session.humans else 0)
        self.replay = Replay(session.state, session.names, seat, session.you)
        self.address = address.encode(session)
        if str(window.location.hash).lstrip("#") != self.address:
            window.history.pushState("table", "", "#" + self.address)
        byid("game-over").hidden = True
        self.show_table(f"{session.info.title}: replay", session.setup.game)
        self.draw_replay()

    def draw_replay(self) -> None:
        replay = self.replay
        if replay is None:
            return
        game = replay.final.game
        byid("status").innerHTML = (f'<p class="headline" role="status">{esc(replay.caption())}</p>'
                                    + drawing.scores_html(replay.states[replay.index], replay.names))
        byid("board").innerHTML = replay.controls_html() + drawing.render_view(game, replay.view())
        self.draw_legend(game)
        byid("message").textContent = ""
        log = byid("log")
        log.innerHTML = replay.log_html()
        self.log_mark = None
        current = log.querySelector("[aria-current]")
        if current:
            current.scrollIntoView(to_js_block())
        byid("undo").hidden = True
        byid("suggest").hidden = True
        byid("advice").textContent = ""
        byid("play-again-bar").hidden = True  # a replay has no game on the table to play again
        root().dataset.moves = str(len(replay.final.history()))
        root().dataset.replayIndex = str(replay.index)
        set_state("over" if replay.index == replay.last else "ready")

    def on_replay_ui(self, name: str, target: Any) -> None:
        replay = self.replay
        assert replay is not None
        number = int(text_or_none(target.getAttribute("data-step" if name == "jump" else "data-seat")) or 0)
        if replay.control(name, number):
            if name == "replay-play" and replay.playing:
                asyncio.ensure_future(self.play_replay(replay))
        elif name == "share":
            byid("share-address").value = str(window.location.href)
            byid("share-note").textContent = "This address shows the whole game, every hand included."
            byid("share-box").hidden = False
            return
        self.draw_replay()

    async def play_replay(self, replay: Replay) -> None:
        while replay.playing and self.replay is replay and replay.index < replay.last:
            await asyncio.sleep(REPLAY_STEP_SECONDS)
            if replay.playing and self.replay is replay:
                replay.go(replay.index + 1)
                self.draw_replay()

    def on_action(self, text: str) -> None:
        session = self.session
        assert session is not None
        if self.busy or session.computer_to_move():
            session.message = "Please wait: the computer is playing."
        else:
            try:
                session.act(text)
                self.banner_from = len(session.state.history())
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
        previous: int | None = None
        drawn = time.perf_counter()
        try:
            while self.generation == generation and self.session is not None and self.session.computer_to_move():
                session = self.session
                seat = session.state.current_player
                assert seat is not None
                # One pause per computer turn: its routine further steps (draws, contributions, forced moves)
                # follow at once, so a turn is seen as one step.
                forced = len(session.state.legal_texts()) == 1
                await asyncio.sleep(0 if seat == previous or forced else self.pause)
                previous = seat
                if self.generation != generation:
                    return
                started = time.perf_counter()
                decided = await self.think_away(session, seat) if session.thinks_away(seat) else None
                if self.generation != generation:
                    return
                where = "worker"
                if decided is None:
                    where, bot = "page", session.bots[seat]
                    slice_start = time.perf_counter()
                    for _ in bot.think(session.state):
                        if time.perf_counter() - slice_start > SLICE_SECONDS:
                            await asyncio.sleep(0)
                            slice_start = time.perf_counter()
                            if self.generation != generation:
                                return
                    decided = (str(bot.decision), bot.iterations_done)
                elapsed = time.perf_counter() - started
                self.decisions.append(
                    {
                        "game": session.setup.game,
                        "level": session.setup.seats[seat].level,
                        "seconds": round(elapsed, 4),
                        "iterations": decided[1],
                        "choices": len(session.state.legal_texts()),
                        "where": where,
                    }
                )
                session.computer_move(decided[0])
                # At the instant pace, a run of computer moves is drawn a few times a second, not after each
                # move (every move is still kept): the table shows where the run is without spending its time
                # on redraws.
                now = time.perf_counter()
                if self.pause > 0 or not session.computer_to_move() or now - drawn >= INSTANT_REDRAW_SECONDS:
                    self.refresh()  # busy: draws without starting a second computer task
                    drawn = now
                else:
                    self.keep(session)
        except Exception as exc:  # the error boundary for the computer's task
            if self.generation == generation:
                self.fail(exc)
            return
        finally:
            if self.generation == generation:
                self.busy = False
        if self.generation == generation:
            self.refresh()

    async def think_away(self, session: Session, seat: int) -> tuple[str, int] | None:
        """The computer's decision from its worker (action text, iterations), or None when the worker is not
        ready or fails on it (then the page thinks)."""
        thinker = window.cardTableThinker
        if thinker.status() != "ready":
            thinker.warm()
            return None
        try:
            reply = json.loads(await thinker.think(session.think_request(seat)))
        except Exception:  # the worker failed on this one: the page decides instead
            return None
        legal = reply.get("action") if isinstance(reply, dict) else None
        if session.state.current_player != seat or legal not in session.state.legal_texts():
            return None
        return legal, int(reply.get("iterations", 0))

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


_FOCUS_ATTRIBUTES = ("data-action", "data-select", "data-ui", "id")


def focus_key() -> tuple[str, str] | None:
    """What the focused element does (its action, selection, control or id), to find it after a redraw."""
    active = document.activeElement
    if not active or not active.getAttribute:
        return None
    for name in _FOCUS_ATTRIBUTES:
        value = text_or_none(active.getAttribute(name))
        if value:
            return name, value
    return None


def restore_focus(key: tuple[str, str] | None) -> None:
    """Give the focus back to the element that does the same thing after a redraw (if it is still there)."""
    if key is None:
        return
    name, value = key
    element = document.querySelector(f'[{name}="{window.CSS.escape(value)}"]')
    if element and document.activeElement != element:
        element.focus(window.Object.fromEntries(window.Array.of(window.Array.of("preventScroll", True))))


def to_js_block() -> Any:
    """``{block: "nearest"}`` for scrollIntoView."""
    return window.Object.fromEntries(window.Array.of(window.Array.of("block", "nearest")))


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
    load_stylesheet(game)  # opened from the lobby, no table of this game has loaded it yet
    for element in panel.querySelectorAll(".live-position"):
        try:
            state = pyengine.core.named_position(game, text_or_none(element.getAttribute("data-position")))
            element.innerHTML = drawing.render_state(state, None)
        except ValueError as exc:
            element.textContent = f"(This position could not be shown: {exc})"
    embed.add_embed_buttons(panel, game, window, create_proxy)  # each figure's "Copy embed code"


TABLE: Table | None = None


def main() -> None:
    """Set up the table and tell the lobby that Python is ready."""
    global TABLE
    TABLE = Table()
    bridge = window.cardTable
    bridge.startGame = create_proxy(TABLE.guard(TABLE.start))
    bridge.openAddress = create_proxy(TABLE.guard(TABLE.open_address))
    bridge.continueSaved = create_proxy(TABLE.guard(TABLE.continue_saved))
    bridge.onHistory = create_proxy(TABLE.guard(TABLE.on_history))
    bridge.storageChanged = create_proxy(TABLE.guard(TABLE.storage_changed))
    bridge.leaveGame = create_proxy(TABLE.guard(TABLE.leave))
    bridge.playAgain = create_proxy(TABLE.guard(TABLE.play_again))
    bridge.setPace = create_proxy(TABLE.guard(TABLE.set_pace))
    bridge.cancel = create_proxy(TABLE.guard(TABLE.cancel))
    bridge.drawFigures = create_proxy(TABLE.guard(TABLE.draw_figures))
    bridge.decisionStats = create_proxy(TABLE.stats)
    TABLE.guard(TABLE.migrate)()
    bridge.pythonReady()
