"""The table page as one plain object: events in, effects out.

:class:`TableController` owns the game on the table (a :class:`~cardtable_web.session.Session`), the replay
viewer, the computer's turns, suggestions, keeping the game in the browser and the page's address. It never
touches the DOM: the page's adapter (:mod:`cardtable_web.shell`) turns clicks, keys, the address and storage
changes into calls here and runs the effects each call returns (:mod:`cardtable_web.effects`). So the whole
path from a click to what the screen shows runs, and is tested, under CPython.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pyengine
from pyengine.rng import fresh_seed

from . import address, drawing, selection
from .effects import (
    After,
    Click,
    Decided,
    Effect,
    Elsewhere,
    FillLobby,
    Fit,
    LobbyError,
    ReplayScreen,
    SetAddress,
    Share,
    ShowLobby,
    TableScreen,
    Think,
    ThinkTask,
    Tick,
    WarmWorker,
)
from .html import esc
from .keeping import Keeper, game_key
from .lesson import LessonProgress, LessonTable, read_address
from .registry import site_game
from .replay import REPLAY_STEP_SECONDS, Replay
from .session import Session
from .setup import Setup, lobby_from_query

INSTANT_REDRAW_SECONDS = 0.25
"""At the instant pace, a run of computer moves is redrawn at most this often (every move is still kept)."""
STEP_SECONDS = 0.2
"""The pause before a further step of a computer's turn at the normal pace (and any quicker one but instant): a
moved card's slide (``web/motion.js``, 0.2 s) ends before the next step starts, and a turn of ten steps is on
screen within about 2.5 s."""
NORMAL_PACE_SECONDS = 0.6
"""The lobby's normal pace: the pause before a computer's turn."""
NO_TAKE_BACK = "Nothing to take back: never past another player's decision or a card seen for the first time"

Effects = list[Effect]


def step_pause(delay: float) -> float:
    """The pause before a further step of a computer's turn, at the pace ``delay`` (seconds before a turn): none
    at the instant pace, a slide's length up to the normal pace, else half the pace."""
    if delay <= 0:
        return 0.0
    return STEP_SECONDS if delay <= NORMAL_PACE_SECONDS else max(STEP_SECONDS, delay / 2)


class TableController:
    """The one table of the page: what it shows, and what a click, a key or a computer's decision does."""

    def __init__(self, keeper: Keeper, clock: Callable[[], float] = time.perf_counter,
                 table_names: Callable[[], str] = address.new_table_name) -> None:
        self.keeper = keeper
        self.clock = clock
        self.table_names = table_names
        """Draws a new game's table name, which its sealed address shows instead of the seed."""
        self.session: Session | None = None
        self.replay: Replay | None = None
        self.generation = 0
        """Bumped whenever the table's game changes: a computer task of an older generation is dropped."""
        self.busy = False
        """True while a computer seat's decision is being made (one task at a time moves every computer seat)."""
        self.reply_pending = False
        """True from a human's move until the computer's first reply is played: for that moment (the computer's
        pause at the chosen pace, and its thinking) the human may still take a misclicked move back; the pending
        reply is then dropped. Once the computer has played, nothing is taken back past its move."""
        self.suggesting = False
        self.address = ""
        """The address fragment of the game on the table (what the page's address holds): sealed while it is
        played (:func:`cardtable_web.address.sealed`), full in the replay viewer."""
        self.last_kept: str | None = None
        """What this tab kept last (:attr:`Kept.token`): from there it may go anywhere (on, or back)."""
        self.elsewhere = False
        """True once another tab moved this game on: this tab keeps nothing more until it loads the newer one."""
        self.drawn = 0.0
        self.previous_seat: int | None = None
        self.decisions: list[dict[str, Any]] = []
        """Each computer decision's game, level, time, iterations, choices and where it was made (benchmarks)."""
        self.lesson: LessonTable | None = None
        """The lesson on the table (its step's game is :attr:`session` then), else None."""
        self.progress = LessonProgress(keeper)

    # -- starting and ending --------------------------------------------------------------------------------
    def start(self, settings_json: str) -> Effects:
        """Start a game from the lobby's settings (JSON); a bad setting is a message in the lobby."""
        try:
            setup = Setup.from_json(settings_json)
        except ValueError as exc:
            return [LobbyError(str(exc))]
        return self.start_setup(setup)

    def start_setup(self, setup: Setup) -> Effects:
        """Start a game, or go on with the kept one of the same deal, seats and options."""
        session = Session(setup)
        key = game_key(session)
        if key in self.keeper.saves():
            effects = self.continue_kept(key)
            if self.session is not None:
                self.session.message = "You had started this game before: it goes on where you left it."
                effects += self.refresh()
            return effects
        return self.begin(session)

    def open_query(self, query: str, fresh_seed: int) -> Effects:
        """The page's address asks for a game by its settings (``?game=...``): start it, or fill the lobby with
        what could be read and say what is wrong (``fresh_seed`` when the address gives no seed)."""
        setup, settings, error = lobby_from_query(str(query).lstrip("?"), fresh_seed)
        effects: Effects = [FillLobby(settings, error)] if settings or error else []
        return effects + (self.start_setup(setup) if setup is not None else [])

    def open_address(self, fragment: str) -> Effects:
        """Open the game an address holds (a finished one in the replay viewer); a bad one is a message. A full
        address (a link, its deal in view) is replaced by the sealed one, and its game does not count."""
        if str(fragment).lstrip("#").startswith("lesson="):
            return self.open_lesson(str(fragment))
        try:
            session = address.decode(str(fragment), self.keeper.deal)
        except ValueError as exc:
            return [LobbyError(f"This address does not hold a game of this site: {exc}")]
        if session.state.is_terminal():
            return self.begin_replay(session)
        if session.table:
            return self.begin(session, history="keep")
        session.counted = False
        return self.begin(session, history="replace")

    def continue_kept(self, key: str) -> Effects:
        """Continue a kept unfinished game (from the lobby's list)."""
        try:
            session = self.keeper.load(str(key))
        except ValueError as exc:  # a kept game that cannot be read is put aside, not lost
            return [ShowLobby(), LobbyError(str(exc))]
        return self.begin(session)

    def discard_kept(self, key: str) -> Effects:
        """The lobby's Discard on a kept game (the player confirmed it)."""
        self.keeper.discard(str(key))
        return [ShowLobby()]

    def replay_finished(self, index: int) -> Effects:
        """The lobby's Replay on a finished game (``index`` in the history, 0 the newest)."""
        try:
            session = self.keeper.finished(int(index))
        except ValueError as exc:
            return [ShowLobby(), LobbyError(str(exc))]
        return self.begin_replay(session)

    def clear_put_aside(self) -> Effects:
        """The lobby's "Clear" on what was put aside."""
        self.keeper.clear_put_aside()
        return [ShowLobby()]

    def migrate(self) -> Effects:
        """What earlier versions kept is brought in once; anything unreadable is put aside (the lobby's list of
        what was put aside says so)."""
        self.keeper.migrate()
        return []

    def begin(self, session: Session, history: str = "push") -> Effects:
        """Put a game on the table; ``history``: ``push`` a new address, ``replace`` the current one, or
        ``keep`` it (the address already holds this game)."""
        self.stop_computer()
        self.replay = None
        self.lesson = None
        self.session = session
        self.elsewhere = False
        self.last_kept = None
        if not session.table:
            session.table = self.keeper.table_of(session) or self.table_names()
        self.address = address.sealed(session)
        effects: Effects = [Elsewhere(False)]
        if any(session.thinks_away(seat) for seat in session.computers):
            effects.append(WarmWorker())  # starts in the background; the page thinks until it is ready
        if history != "keep":
            effects.append(SetAddress(self.address, history))
        return effects + self.refresh()

    def leave(self) -> Effects:
        """Back to the lobby; the game stays kept (Continue in the lobby, or Forward)."""
        self.stop_computer()
        self.session = None
        self.replay = None
        self.lesson = None
        return [SetAddress("", "push"), ShowLobby()]

    def address_changed(self, fragment: str) -> Effects:
        """Back and Forward: the lobby's address shows the lobby, a game's address its game."""
        fragment = str(fragment).lstrip("#")
        if not fragment:
            self.stop_computer()
            self.session = None
            self.replay = None
            self.lesson = None
            return [ShowLobby()]
        if fragment != self.address or self.session is None and self.replay is None:
            return self.open_address(fragment)
        return []

    def play_again(self, seed: int) -> Effects:
        """The same table again with a new deal (``seed`` drawn by the page)."""
        if self.session is None or self.lesson is not None:
            return []
        old = self.session.setup
        return self.begin(Session(Setup(old.game, old.players, seed, old.seats, dict(old.options), old.delay,
                                        names=list(old.names))))

    def stop_computer(self) -> None:
        """Drop the computer's task for the game on the table (its answer, when it comes, is ignored)."""
        self.generation += 1
        self.busy = self.reply_pending = False
        self.suggesting = False
        self.previous_seat = None

    def fail(self, exc: BaseException) -> Effects:
        """Something unexpected: a bug report to copy, and a usable lobby (the kept game stays)."""
        session = self.session
        self.stop_computer()
        self.session = None
        self.replay = None
        self.lesson = None
        record = None
        if session is not None:
            try:
                record = session.state.record()
            except Exception:  # the report must not fail too
                record = None
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-4_000:]
        report = {"error": f"{type(exc).__name__}: {exc}", "record": record, "traceback": detail}
        text = f"Something went wrong at the table: {type(exc).__name__}: {str(exc)[:200]}"
        return [ShowLobby(), LobbyError(text, report, trouble=True)]

    # -- after every change ---------------------------------------------------------------------------------
    def refresh(self) -> Effects:
        """After any change: the table drawn, the game kept, and a computer seat asked when it is its turn."""
        session = self.session
        if session is None:
            return []
        if self.lesson is not None:  # a lesson is never kept, and no computer plays in it
            return [self.screen(session)]
        effects: Effects = [self.screen(session)]
        effects += self.keep(session)
        if session.computer_to_move() and not self.busy:
            self.busy = True
            self.reply_pending = True
            self.drawn = self.clock()
            effects.append(self.think(session))
        return effects

    def screen(self, session: Session) -> TableScreen:
        """What the table shows now (the shown seat's view only)."""
        over = session.state.is_terminal()
        handover = session.needs_handover()
        hint = None
        if session.hint is not None:
            select = session.hint.select
            hint = ("data-select", selection.encode(select)) if select and session.selection != select else (
                "data-action", session.hint.action)
        can_undo = not over and (not self.busy or self.reply_pending) and session.can_take_back()
        marker = "over" if over else "thinking" if session.computer_to_move() else "ready"
        screen = TableScreen(
            title=session.info.title,
            game=session.setup.game,
            status_html=drawing.status_html(session),
            banner=drawing.banner(session, drawing.turn_start(session)),
            pace=session.setup.delay,
            board_html=drawing.handover_html(session) if handover else drawing.table_html(session),
            zoomable=not handover,
            moves=session.state.played,
            message=session.message,
            advice=session.advice,
            hint=hint,
            suggest_shown=session.decides_now() and not over,
            suggest_enabled=not self.suggesting,
            log_key=(id(session), session.trail.resets),
            log_lines=tuple(session.log_lines()),
            over=over,
            undo_enabled=can_undo,
            undo_reason="Take back your last move" if can_undo else NO_TAKE_BACK,
            marker=marker,
        )
        if self.lesson is None:
            return screen
        return replace(screen, title=f"{session.info.title}: learn to play", status_html=self.lesson.panel_html(),
                       over=False, suggest_shown=False, undo_enabled=True, undo_reason="Start this step again",
                       marker="ready")

    def keep(self, session: Session) -> Effects:
        """The game written into the address (sealed) and kept in the browser (a finished one in the history)."""
        self.address = address.sealed(session)
        effects: Effects = [SetAddress(self.address, "replace")]
        if self.elsewhere:
            return effects
        if session.state.is_terminal():
            kept = self.keeper.finish(session, drawing.headline(session))
        else:
            kept = self.keeper.keep(session, last_kept=self.last_kept)
            if kept.ok:
                self.last_kept = kept.token
        if kept.conflict:
            self.elsewhere = True
            effects.append(Elsewhere(True))
        elif kept.message and not session.message:
            session.message = kept.message
        return effects

    def storage_changed(self) -> Effects:
        """Another tab changed the kept games: if it moved this game on, offer to load the newer position."""
        session = self.session
        if session is None or self.elsewhere or self.lesson is not None:
            return []
        if self.keeper.moved_elsewhere(session, self.last_kept):
            self.elsewhere = True
            return [Elsewhere(True)]
        return []

    def load_newer(self) -> Effects:
        """Load the position another tab kept of this game."""
        session = self.session
        self.elsewhere = False
        if session is None:
            return [Elsewhere(False)]
        try:
            newer = self.keeper.load(game_key(session))
        except ValueError:  # no longer kept (finished or discarded there): this position stays
            return [Elsewhere(False)]
        return self.begin(newer, history="replace")

    # -- input ------------------------------------------------------------------------------------------------
    def click(self, click: Click) -> Effects:
        """A click on the table (see :class:`~cardtable_web.effects.Click`)."""
        if self.replay is not None:
            return self.replay_control(click.ui, click.number) if click.ui else []
        session = self.session
        if session is None:
            return []
        if click.ui is not None:
            return self.control(click.ui)
        if click.action is not None:
            return self.act(click.action)
        if click.select is not None:
            try:
                session.select(selection.decode(click.select))
            except ValueError:  # not a selection this site wrote: nothing to choose
                return []
            return self.refresh()
        if click.attempt is not None and self.lesson is not None:
            self.lesson.tried(click.attempt)
            return self.refresh()
        if click.attempt is not None:
            session.why_not(click.attempt)
            if not session.advice:
                session.advice = "Nothing to play there."
            return self.refresh()
        if session.advice and not self.suggesting:  # any click ends a suggestion or a refusal's reason
            session.clear_advice()
            return self.refresh()
        return []

    def act(self, text: str) -> Effects:
        """A human plays the action ``text`` (a refusal is said in the message)."""
        session = self.session
        assert session is not None
        if self.lesson is not None:
            self.lesson.act(text)
        elif self.busy or session.computer_to_move():
            session.message = "Please wait: the computer is playing."
        else:
            try:
                session.act(text)
            except ValueError as exc:  # IllegalAction is a ValueError
                session.message = str(exc)
        return self.refresh()

    def control(self, name: str) -> Effects:
        """One of the table's controls (``data-ui``)."""
        session = self.session
        assert session is not None
        if self.lesson is not None:
            return self.lesson_control(self.lesson, name)
        if name == "suggest":
            return self.suggest()
        if name == "load-newer":
            return self.load_newer()
        if name == "replay":
            return self.begin_replay(session)
        if name == "share":
            return [Share(self.share_note(session), address.encode(session))]
        if name == "zoom-fit":
            return [Fit()]
        session.clear_advice()
        if name == "take-device":
            session.take_device()
        elif name == "undo":
            self.take_back(session)
        return self.refresh()

    def take_back(self, session: Session) -> None:
        if self.busy and not self.reply_pending:
            session.message = "Please wait: the computer is playing."
            return
        try:
            session.take_back()
        except ValueError as exc:  # a refused take-back says why (the button stays tappable for that)
            session.message = str(exc)[:1].upper() + str(exc)[1:] + "."
            return
        if self.busy:  # the computer had not replied yet: its pending reply is dropped
            self.stop_computer()

    def cancel(self) -> Effects:
        """Escape at the table: drop the chosen card (or other selection)."""
        session = self.session
        if session is None or session.selection is None:
            return []
        session.selection = None
        return self.refresh()

    def set_pace(self, delay: int) -> Effects:
        """The computer's pause before each move, changed at the table (kept in the game's address)."""
        session = self.session
        if session is None or self.lesson is not None or not 0 <= int(delay) <= 10_000:
            return []
        session.setup.delay = int(delay)
        return self.keep(session)

    def share_note(self, session: Session) -> str:
        """What sharing the game's address means for its hidden cards."""
        if site_game(session.setup.game).open_information(session.state.options):
            return ("Everything in this game is open, so two players can play at a distance: send the address "
                    "after each move, and the other player opens it and plays on.")
        return ("This address contains the whole deal: anyone who decodes it can see every hand. It is for "
                "resuming on another device or showing a finished game, not for playing a hidden-hand game "
                "at a distance. A game opened from it does not count in the statistics.")

    # -- lessons --------------------------------------------------------------------------------------------------
    def start_lesson(self, game: str, step: int | None = None) -> Effects:
        """Learn to play: ``game``'s lesson at ``step`` (from 0), else at its first unfinished step."""
        try:
            index = self.progress.next_step(str(game)) if step is None else int(step)
            return self.begin_lesson(LessonTable(str(game), index, self.progress), "push")
        except ValueError as exc:
            return [LobbyError(f"This lesson cannot be shown: {exc}")]

    def open_lesson(self, fragment: str) -> Effects:
        """A lesson's address (``#lesson=carbles&step=2``): that step on the table."""
        try:
            game, index = read_address(fragment)
        except ValueError as exc:
            return [LobbyError(f"This address does not hold a lesson of this site: {exc}")]
        return self.begin_lesson(LessonTable(game, index, self.progress), "replace")

    def begin_lesson(self, lesson: LessonTable, history: str) -> Effects:
        """Put a lesson's step on the table."""
        self.stop_computer()
        self.replay = None
        self.lesson = lesson
        self.session = lesson.session
        self.address = lesson.address()
        return [Elsewhere(False), SetAddress(self.address, history), self.screen(lesson.session)]

    def lesson_control(self, lesson: LessonTable, name: str) -> Effects:
        """A lesson's buttons: show the step's move, start it again, the next step, the first game, share."""
        if name == "lesson-show":
            lesson.show()
        elif name in ("lesson-again", "undo"):
            return self.begin_lesson(LessonTable(lesson.game, lesson.index, self.progress), "replace")
        elif name == "lesson-next" and not lesson.last:
            return self.begin_lesson(LessonTable(lesson.game, lesson.index + 1, self.progress), "push")
        elif name == "lesson-first-game":
            return self.start_setup(lesson.first_game(fresh_seed()))
        elif name == "share":
            return [Share("This address opens this step of the lesson.", self.address)]
        elif name == "zoom-fit":
            return [Fit()]
        return [self.screen(lesson.session)]

    # -- the computer -------------------------------------------------------------------------------------------
    def think(self, session: Session) -> Think:
        """Ask for the decision of the computer seat to move: the chosen pause before each computer turn, and a
        shorter one before each further step of the turn and each forced move (``step_pause``), so a turn plays
        out step by step and each step's slide is seen."""
        seat = session.state.current_player
        assert seat is not None
        forced = len(session.state.legal_texts()) == 1
        delay = session.setup.delay / 1000
        pause = step_pause(delay) if seat == self.previous_seat or forced else delay
        self.previous_seat = seat
        request = session.think_request(seat) if session.thinks_away(seat) else None
        task = ThinkTask(self.generation, "move", seat, pause, session.bots[seat], session.state, request,
                         session.state.played)
        return Think(task)

    def current(self, task: ThinkTask) -> bool:
        """Whether a computer task still belongs to the game on the table (the host stops a stale one)."""
        return task.generation == self.generation and self.session is not None

    def decided(self, answer: Decided) -> Effects:
        """A computer's decision arrived (a move for its seat, or a suggestion for the human)."""
        task = answer.task
        if not self.current(task):
            return []
        if task.kind == "hint":
            return self.suggested(answer)
        session = self.session
        assert session is not None
        if answer.action is None or session.state.current_player != task.seat or (
                session.state.played != task.moves) or answer.action not in session.state.legal_texts():
            # the worker could not decide (or not for this position): the page decides instead
            return [Think(ThinkTask(task.generation, "move", task.seat, 0.0, task.bot, session.state, None,
                                    task.moves))]
        self.decisions.append({
            "game": session.setup.game, "level": session.setup.seats[task.seat].level,
            "seconds": round(answer.seconds, 4), "iterations": answer.iterations,
            "choices": len(session.state.legal_texts()), "where": answer.where,
        })
        session.computer_move(answer.action)
        self.reply_pending = False
        if not session.computer_to_move():
            self.busy = False
            self.previous_seat = None
            return self.refresh()
        # At the instant pace a run of computer moves is drawn a few times a second, not after each move.
        now = self.clock()
        effects: Effects = []
        if session.setup.delay > 0 or now - self.drawn >= INSTANT_REDRAW_SECONDS:
            effects.append(self.screen(session))
            self.drawn = now
        return effects + self.keep(session) + [self.think(session)]

    def suggest(self) -> Effects:
        """Ask the computer (normal level, from the human's own view, re-dealt) for a move to suggest."""
        session = self.session
        if session is None or self.busy or self.suggesting or not session.decides_now():
            return []
        self.suggesting = True
        session.advice = "Looking for a move…"
        session.hint = None
        bot, sample = session.hint_search()
        seat = session.state.current_player
        assert seat is not None
        task = ThinkTask(self.generation, "hint", seat, 0.0, bot, sample, None, session.state.played)
        return [self.screen(session), Think(task)]

    def suggested(self, answer: Decided) -> Effects:
        session = self.session
        assert session is not None
        self.suggesting = False
        if session.state.played != answer.task.moves:
            return self.refresh()
        if answer.action is None or answer.action not in session.state.legal_texts():
            session.advice = "No suggestion this time: try again."
        else:
            session.hint = drawing.hint_of(session, answer.action)
            session.advice = session.hint.words
        return self.refresh()

    # -- the replay viewer --------------------------------------------------------------------------------------
    def begin_replay(self, session: Session) -> Effects:
        """Show a game (usually finished) in the replay viewer, from the human's seat (or the first)."""
        self.stop_computer()
        self.session = None
        self.lesson = None
        seat = session.you if session.you is not None else (session.humans[0] if session.humans else 0)
        self.replay = Replay(session.state, session.names, seat, session.you)
        self.address = address.encode(session)
        return [SetAddress(self.address, "push"), self.replay_screen(self.replay)]

    def replay_screen(self, replay: Replay) -> ReplayScreen:
        game = replay.final.game
        caption = f'<p class="headline replay-caption" role="status">{esc(replay.caption())}</p>'
        return ReplayScreen(
            title=f"{pyengine.GAMES[game].title}: replay",
            game=game,
            status_html=caption + drawing.scores_html(replay.states[replay.index], replay.names),
            board_html=replay.controls_html() + drawing.render_view(game, replay.view()),
            log_html=replay.log_html(),
            moves=replay.final.played,
            index=replay.index,
            marker="over" if replay.index == replay.last else "ready",
        )

    def replay_control(self, name: str, number: int) -> Effects:
        replay = self.replay
        assert replay is not None
        if name == "share":
            return [Share("This address shows the whole game, every hand included.", self.address)]
        effects: Effects = []
        if replay.starts_playing(name, number):
            self.generation += 1
            effects.append(After(REPLAY_STEP_SECONDS, Tick(self.generation, "replay-step")))
        return [self.replay_screen(replay), *effects]

    def tick(self, tick: Tick) -> Effects:
        """A timer went off: the replay's next step while it plays."""
        replay = self.replay
        if tick.generation != self.generation or replay is None or not replay.playing:
            return []
        goes_on = replay.step()
        return [self.replay_screen(replay), *([After(REPLAY_STEP_SECONDS, tick)] if goes_on else [])]
