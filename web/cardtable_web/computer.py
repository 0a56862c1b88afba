"""The computer's turns at the table: one task at a time, its pause, and a task of an earlier game dropped.

:class:`Computer` is the collaborator the table is given for the computer seats and suggestions. It makes the
:class:`~cardtable_web.effects.Think` effects and knows whether an answer still belongs to the game on the table
(by its generation); the mode in play applies the answers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .effects import Decided, Think, ThinkTask
from .session import Session

INSTANT_REDRAW_SECONDS = 0.25
"""At the instant pace, a run of computer moves is redrawn at most this often (every move is still kept)."""
STEP_SECONDS = 0.2
"""The pause before a further step of a computer's turn at the normal pace (and any quicker one but instant): a
moved card's slide (``web/motion.js``, 0.2 s) ends before the next step starts, and a turn of ten steps is on
screen within about 2.5 s."""
NORMAL_PACE_SECONDS = 0.6
"""The lobby's normal pace: the pause before a computer's turn."""


def step_pause(delay: float) -> float:
    """The pause before a further step of a computer's turn, at the pace ``delay`` (seconds before a turn): none
    at the instant pace, a slide's length up to the normal pace, else half the pace."""
    if delay <= 0:
        return 0.0
    return STEP_SECONDS if delay <= NORMAL_PACE_SECONDS else max(STEP_SECONDS, delay / 2)


def move_pause(delay: float, step: bool) -> float:
    """The pause before a computer's move at the pace ``delay``: the whole pace before a turn, the step pause before a
    further step of it or a forced move."""
    return step_pause(delay) if step else delay


class Computer:
    """The computer seats' turns and the suggestions of the game on the table."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.generation = 0
        """Bumped whenever the table's game changes: a computer task of an older generation is dropped."""
        self.busy = False
        """True while a computer seat's decision is being made (one task at a time moves every computer seat)."""
        self.reply_pending = False
        """True from a human's move until the computer's first reply is played: for that moment (the computer's
        pause at the chosen pace, and its thinking) the human may still take a misclicked move back; the pending
        reply is then dropped. Once the computer has played, nothing is taken back past its move."""
        self.suggesting = False
        self.previous_seat: int | None = None
        self.drawn = 0.0
        self.decisions: list[dict[str, Any]] = []
        """Each computer decision's game, level, time, iterations, choices and where it was made (benchmarks)."""

    def stop(self) -> None:
        """Drop the computer's task for the game on the table (its answer, when it comes, is ignored)."""
        self.generation += 1
        self.busy = self.reply_pending = False
        self.suggesting = False
        self.previous_seat = None

    def current(self, task: ThinkTask) -> bool:
        """Whether a task belongs to the game on the table now."""
        return task.generation == self.generation

    def may_take_back(self) -> bool:
        """Whether a human may take back now: nothing is being decided, or only the reply to their own move."""
        return not self.busy or self.reply_pending

    def start_turn(self, session: Session) -> Think | None:
        """The computer's decision when a computer seat is to move and no task is under way."""
        if not session.computer_to_move() or self.busy:
            return None
        self.busy = self.reply_pending = True
        self.drawn = self.clock()
        return self.think(session)

    def think(self, session: Session) -> Think:
        """Ask for the decision of the computer seat to move: the chosen pause before each computer turn, and a
        shorter one before each further step of the turn and each forced move (``step_pause``), so a turn plays
        out step by step and each step's slide is seen."""
        seat = session.state.current_player
        assert seat is not None
        forced = len(session.state.legal_texts()) == 1
        step = seat == self.previous_seat or forced
        pause = move_pause(session.setup.delay / 1000, step)
        self.previous_seat = seat
        request = session.think_request(seat) if session.thinks_away(seat) else None
        task = ThinkTask(self.generation, "move", seat, pause, session.bots[seat], session.state, request,
                         session.state.played, step)
        return Think(task)

    def pause_now(self, task: ThinkTask, session: Session) -> float:
        """The pause of a computer's move at the pace chosen now: a quicker pace chosen while the computer waits
        shortens the wait at once (a slower one counts from the next move)."""
        return min(task.pause, move_pause(session.setup.delay / 1000, task.step))

    def usable(self, answer: Decided, session: Session) -> bool:
        """Whether a move's answer is a legal move of its seat in the position it was asked for."""
        task = answer.task
        return answer.action is not None and session.state.current_player == task.seat and (
            session.state.played == task.moves) and answer.action in session.state.legal_texts()

    def retry_here(self, task: ThinkTask, session: Session) -> Think:
        """The worker could not decide (or not for this position): the page decides instead."""
        return Think(ThinkTask(task.generation, "move", task.seat, 0.0, task.bot, session.state, None, task.moves))

    def played(self, answer: Decided, session: Session) -> bool:
        """Note a computer's move (played already); whether the computer plays on (the next step of its turn)."""
        assert answer.action is not None
        self.decisions.append({
            "game": session.setup.game, "level": session.setup.seats[answer.task.seat].level,
            "seconds": round(answer.seconds, 4), "iterations": answer.iterations,
            "choices": len(answer.task.state.legal_texts()), "where": answer.where,
        })
        self.reply_pending = False
        if session.computer_to_move():
            return True
        self.busy = False
        self.previous_seat = None
        return False

    def redraw_now(self, session: Session) -> bool:
        """At the instant pace a run of computer moves is drawn a few times a second, not after each move."""
        now = self.clock()
        if session.setup.delay > 0 or now - self.drawn >= INSTANT_REDRAW_SECONDS:
            self.drawn = now
            return True
        return False

    def suggest(self, session: Session) -> Think | None:
        """Ask the computer (normal level, from the human's own view, re-dealt) for a move to suggest."""
        if self.busy or self.suggesting or not session.decides_now():
            return None
        self.suggesting = True
        bot, sample = session.hint_search()
        seat = session.state.current_player
        assert seat is not None
        return Think(ThinkTask(self.generation, "hint", seat, 0.0, bot, sample, None, session.state.played))
