"""The table page as one plain object: events in, effects out.

:class:`TableController` is the one table of the page. It holds one mode at a time: a game in play
(:class:`~cardtable_web.play.PlayMode`), a lesson (:class:`~cardtable_web.lesson.LessonMode`), the replay viewer
(:class:`~cardtable_web.replay.ReplayMode`) or a remote guest's seat (:class:`~cardtable_web.remote_guest.GuestMode`),
or none (the lobby). It is given its collaborators: the :class:`~cardtable_web.computer.Computer` that plays the
computer seats, and, on the table page, the remote play (:class:`~cardtable_web.remote_host.Hosting` sets
:attr:`TableController.rehost`). It never touches the DOM: the page's adapter (:mod:`cardtable_web.shell`) turns
clicks, keys, the address and storage changes into calls here and runs the effects each call returns
(:mod:`cardtable_web.effects`). So the whole path from a click to what the screen shows runs, and is tested, under
CPython.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from typing import Any, Protocol

from . import address
from .computer import STEP_SECONDS, Computer, step_pause
from .effects import (
    Click,
    Decided,
    Effect,
    Elsewhere,
    FillLobby,
    LobbyError,
    SetAddress,
    ShowLobby,
    ThinkTask,
    Tick,
    WarmWorker,
)
from .keeping import Keeper, game_key
from .lesson import LessonMode, LessonProgress, LessonTable, read_address
from .misclick import choose_policy
from .play import OtherSeats, PlayMode
from .replay import Replay, ReplayMode
from .session import Session
from .setup import Setup, lobby_from_query

__all__ = ["STEP_SECONDS", "Effects", "Mode", "TableController", "step_pause"]

Effects = list[Effect]


class Mode(Protocol):
    """What the table asks of any mode: draw it, a click on it, Escape, a timer it set."""

    def refresh(self) -> Effects: ...

    def click(self, click: Click) -> Effects: ...

    def cancel(self) -> Effects: ...

    def tick(self, tick: Tick) -> Effects: ...


class TableController:
    """The one table of the page: which mode it is in, and the events that start, change and end them."""

    def __init__(self, keeper: Keeper, clock: Callable[[], float] = time.perf_counter,
                 table_names: Callable[[], str] = address.new_table_name) -> None:
        self.keeper = keeper
        self.table_names = table_names
        """Draws a new game's table name, which its sealed address shows instead of the seed."""
        self.computer = Computer(clock)
        self.mode: Mode | None = None
        self.address = ""
        """The address fragment of what the table shows (what the page's address holds): a game's sealed address
        while it is played (:func:`cardtable_web.address.sealed`), full in the replay viewer."""
        self.progress = LessonProgress(keeper)
        self.rehost: Callable[[Session, str], Effects | None] = lambda session, history: None
        """Asked first when a game is put on the table: whether it was hosted here, and if so hosts it again (the
        remote play sets it; a page without remote play hosts nothing)."""
        self.closing: Effects = []
        """What leaving the current game or guest seat must also do (close the remote connections)."""

    # -- what the table holds (for the page's adapter and the tests) ------------------------------------------
    @property
    def session(self) -> Session | None:
        """The game on the table: in play, or a lesson's step."""
        mode = self.mode
        return mode.session if isinstance(mode, PlayMode | LessonMode) else None

    @property
    def lesson(self) -> LessonTable | None:
        return self.mode.lesson if isinstance(self.mode, LessonMode) else None

    @property
    def replay(self) -> Replay | None:
        return self.mode.replay if isinstance(self.mode, ReplayMode) else None

    @property
    def decisions(self) -> list[dict[str, Any]]:
        return self.computer.decisions

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
        if key not in self.keeper.saves():
            return self.begin(session)
        effects = self.continue_kept(key)
        if self.session is not None:
            self.session.message = "You had started this game before: it goes on where you left it."
            effects += self.refresh()
        return effects

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

    def begin(self, session: Session, history: str = "push", others: OtherSeats | None = None) -> Effects:
        """Put a game in play on the table (hosted again if it was hosted here); ``history``: ``push`` a new
        address, ``replace`` the current one, or ``keep`` it (the address already holds this game)."""
        if others is None:
            hosted = self.rehost(session, history)
            if hosted is not None:
                return hosted
        closing, self.closing = (self.closing, []) if others is None else ([], self.closing)
        self.computer.stop()
        self.mode = mode = PlayMode(self, session, others)
        if not session.table:
            session.table = self.keeper.table_of(session) or self.table_names()
        self.address = address.sealed(session)
        effects: Effects = [*closing, Elsewhere(False)]
        if any(session.thinks_away(seat) for seat in session.computers):
            effects.append(WarmWorker())  # starts in the background; the page thinks until it is ready
        if history != "keep":
            effects.append(SetAddress(self.address, history))
        return effects + mode.refresh()

    def show(self, mode: Mode) -> Effects:
        """Put a mode on the table that has no game of this device's (a remote guest's seat): it is drawn."""
        self.computer.stop()
        self.mode = mode
        return mode.refresh()

    def leave(self) -> Effects:
        """Back to the lobby; the game stays kept (Continue in the lobby, or Forward)."""
        closing, self.closing = self.closing, []
        self.to_lobby()
        return [*closing, SetAddress("", "push"), ShowLobby()]

    def to_lobby(self) -> None:
        self.computer.stop()
        self.mode = None

    def address_changed(self, fragment: str) -> Effects:
        """Back and Forward: the lobby's address shows the lobby, a game's address its game."""
        fragment = str(fragment).lstrip("#")
        if not fragment:
            self.to_lobby()
            return [ShowLobby()]
        if fragment != self.address or self.mode is None:
            return self.open_address(fragment)
        return []

    def play_again(self, seed: int) -> Effects:
        """The same table again with a new deal (``seed`` drawn by the page)."""
        if not isinstance(self.mode, PlayMode):
            return []
        old = self.mode.session.setup
        return self.begin(Session(Setup(old.game, old.players, seed, old.seats, dict(old.options), old.delay,
                                        names=list(old.names))))

    def fail(self, exc: BaseException) -> Effects:
        """Something unexpected: a bug report to copy, and a usable lobby (the kept game stays)."""
        session = self.session
        self.to_lobby()
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

    # -- lessons and replays --------------------------------------------------------------------------------------
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
        self.computer.stop()
        self.mode = mode = LessonMode(self, lesson)
        self.address = lesson.address()
        return [Elsewhere(False), SetAddress(self.address, history), mode.screen()]

    def begin_replay(self, session: Session) -> Effects:
        """Show a game (usually finished) in the replay viewer, from the human's seat (or the first)."""
        self.computer.stop()
        seat = session.you if session.you is not None else (session.humans[0] if session.humans else 0)
        self.address = address.encode(session)
        self.mode = mode = ReplayMode(Replay(session.state, session.names, seat, session.you), self.address,
                                      self.computer)
        return [SetAddress(self.address, "push"), mode.screen()]

    # -- events, each for the mode it belongs to ----------------------------------------------------------------
    def refresh(self) -> Effects:
        """Draw the table again (and whatever follows a change in its mode)."""
        return self.mode.refresh() if self.mode is not None else []

    def click(self, click: Click) -> Effects:
        """A click on the table (see :class:`~cardtable_web.effects.Click`)."""
        return self.mode.click(click) if self.mode is not None else []

    def cancel(self) -> Effects:
        """Escape at the table: drop the chosen card (or other selection)."""
        return self.mode.cancel() if self.mode is not None else []

    def set_pace(self, delay: int) -> Effects:
        """The computer's pause before each move, changed at the table (kept in the game's address)."""
        return self.mode.set_pace(delay) if isinstance(self.mode, PlayMode) else []

    def storage_changed(self) -> Effects:
        """Another tab changed the kept games: if it moved this game on, offer to load the newer position."""
        return self.mode.storage_changed() if isinstance(self.mode, PlayMode) else []

    def current(self, task: ThinkTask) -> bool:
        """Whether a computer task still belongs to the game on the table."""
        return self.computer.current(task) and isinstance(self.mode, PlayMode)

    def pause_now(self, task: ThinkTask) -> float:
        """The pause a computer task waits, at the pace chosen now (:meth:`Computer.pause_now`)."""
        if task.kind == "move" and self.current(task) and isinstance(self.mode, PlayMode):
            return self.computer.pause_now(task, self.mode.session)
        return task.pause

    def decided(self, answer: Decided) -> Effects:
        """A computer's decision arrived (a move for its seat, or a suggestion for the human)."""
        if not self.current(answer.task) or not isinstance(self.mode, PlayMode):
            return []
        return self.mode.decided(answer)

    def tick(self, tick: Tick) -> Effects:
        """A timer went off: the replay's next step while it plays, or a held move's time is up."""
        return self.mode.tick(tick) if self.mode is not None else []

    def set_misclick(self, chosen: str) -> Effects:
        """The player chose how a move that would show a card waits (:mod:`cardtable_web.misclick`)."""
        if not choose_policy(self.keeper, str(chosen)):
            return []
        return self.refresh()
