"""Lessons: a game taught step by step on its real table.

A lesson is data. Each :class:`Step` names one of the game's named positions (``Rules.positions``), or goes on
where the step before it ended (one story told over several steps), says the one thing to do there and the rule
behind it, and lists the moves it teaches, by their facts (as ``State.moves()`` gives them). The engine checks a
step (:class:`StepPlay`): a move it teaches is played; any other move is refused with a reason (the step's own for
a legal move it does not teach, the game's for an illegal one) and may be tried again; the step ends when its goal
holds, and then shows the other players' answer it names (a claim's result). A step praises only the moves its
task asks for. Each game's lesson is ``LESSON`` in ``games/<game>/lessons.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .core import RefusedAction, State, named_position
from .games import GAME_MODULES

Pattern = Mapping[str, Any]
"""Some of a move's facts: a move matches when its facts hold every key with the same value."""


@dataclass(frozen=True)
class Goal:
    """When a step is over: ``turn``, once the learner's turn has passed (or the game is over); ``moves``, after
    ``count`` moves; ``win``, once the game is over with the learner among the winners."""

    kind: str = "turn"
    count: int = 1


TURN_ENDS = Goal("turn")
ONE_MOVE = Goal("moves", 1)
WIN = Goal("win")


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a position, one thing to do in it, and the rule behind it."""

    position: str
    """The name of one of the game's named positions, where the step starts (its player to move learns); empty
    for a step that ``continues``."""
    task: str
    """The one thing to do, said to the learner ("Knock out the computer's marble with your 7")."""
    rule: str
    """The rule behind it, in one or two plain sentences."""
    teaches: tuple[Pattern, ...]
    """The moves the step accepts, by their facts (a move matching any pattern is accepted)."""
    wrong: str
    """What the learner is told after a legal move the step does not teach."""
    solution: tuple[str, ...]
    """The intended moves, in order (the tests play them; the table's "Show me" points at the next one)."""
    mistakes: tuple[str, ...] = ()
    """Moves a learner may try that break a rule (the tests check that each is refused with the game's reason)."""
    goal: Goal = TURN_ENDS
    done: str = "Well done."
    """Said once the goal holds."""
    before: tuple[str, ...] = ()
    """Moves played in the position before the learner acts, which set the scene (the computer's claim that the
    learner then answers): the learner is the player to move after them."""
    continues: bool = False
    """The step goes on where the step before it ended (after its moves and their answer), so one story told over
    several steps keeps what the learner built; ``before`` then holds the other players' turn in between."""
    answer: tuple[str, ...] = ()
    """The other players' moves played as soon as the goal holds, so that the step shows what the learner's move
    led to (the computer's answer to a claim)."""


@dataclass(frozen=True)
class Lesson:
    """A game's lesson: its steps, then a first game against the easy computer."""

    game: str
    steps: tuple[Step, ...]
    first_game: Mapping[str, Any] = field(default_factory=dict)
    """The lobby's settings of "Play your first game" besides the game (players, options); the learner sits at
    seat 0 and every other seat is the easy computer."""


def lesson_for(game: str) -> Lesson:
    """The lesson of ``game`` (``ValueError`` for a game the site does not have)."""
    if game not in GAME_MODULES:
        raise ValueError(f"there is no game called {game!r}")
    module = import_module(f"pyengine.games.{GAME_MODULES[game]}.lessons")
    lesson: Lesson = module.LESSON
    return lesson


def matches(facts: Mapping[str, Any], pattern: Pattern) -> bool:
    """Whether a move's facts hold every key of ``pattern`` with the same value."""
    return all(key in facts and facts[key] == value for key, value in pattern.items())


def start_of(lesson: Lesson, index: int) -> State:
    """Where step ``index`` starts, before its ``before`` moves: its named position, or, for a step that
    continues, where the step before it ended after its intended moves."""
    step = lesson.steps[index]
    if not step.continues:
        return named_position(lesson.game, step.position)
    if index == 0:
        raise ValueError("the first step of a lesson has no step before it to go on from")
    previous = StepPlay(lesson, index - 1)
    for text in previous.step.solution:
        reason = previous.play(text)
        if reason is not None:
            raise ValueError(f"step {index}'s move {text!r} is refused: {reason}")
    return previous.state


class StepPlay:
    """One step being played: its state, the learner's seat, what was played, and the check of each move."""

    def __init__(self, lesson: Lesson, index: int) -> None:
        if not 0 <= index < len(lesson.steps):
            raise ValueError(f"the lesson has steps 1 to {len(lesson.steps)}; there is no step {index + 1}")
        self.lesson = lesson
        self.index = index
        self.step = lesson.steps[index]
        self.state: State = start_of(lesson, index)
        for text in self.step.before:
            self.state = self.state.apply(text)
        seat = self.state.current_player
        if seat is None:
            raise ValueError(f"step {index + 1}'s position is over before it starts")
        self.seat: int = seat
        self.played: list[str] = []
        self.answered = False

    def taught(self) -> list[str]:
        """The texts of the legal moves this step accepts now (none once it is over)."""
        if self.is_done() or self.state.current_player != self.seat:
            return []
        return [
            text
            for text, facts in self.state.moves().items()
            if any(matches(facts, pattern) for pattern in self.step.teaches)
        ]

    def refusal(self, text: str) -> str | None:
        """Why ``text`` is not a move of this step now (None when it is): the game's reason for an illegal
        move, the step's own for a legal move it does not teach."""
        if self.is_done():
            return "This step is done."
        if self.state.current_player != self.seat:
            return "It is not your turn."
        try:
            self.state.parse_action(text)
        except RefusedAction as exc:
            return str(exc)
        if text.strip() not in self.taught():
            return self.step.wrong
        return None

    def play(self, text: str) -> str | None:
        """Play ``text`` if the step teaches it; else its refusal (nothing changes, and it may be tried again)."""
        reason = self.refusal(text)
        if reason is None:
            self.state = self.state.apply(text)
            self.played.append(text.strip())
            if self.is_done():
                for answer in self.step.answer:
                    self.state = self.state.apply(answer)
                self.answered = True
        return reason

    def next_move(self) -> str | None:
        """The intended move to play next (for "Show me"), when the moves so far follow the solution."""
        count = len(self.played)
        if self.played == list(self.step.solution[:count]) and count < len(self.step.solution):
            return self.step.solution[count]
        taught = self.taught()
        return taught[0] if taught else None

    def is_done(self) -> bool:
        """Whether the step's goal holds (it still does once the other players have answered)."""
        if self.answered:
            return True
        goal = self.step.goal
        if goal.kind == "moves":
            return len(self.played) >= goal.count
        if goal.kind == "win":
            return self.state.is_terminal() and self.seat in self.state.winners()
        return bool(self.played) and self.state.current_player != self.seat
