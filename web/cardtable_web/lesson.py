"""A lesson at the table: the game's real table, one step at a time (:mod:`pyengine.lessons` checks the moves).

:class:`LessonTable` is the model the controller holds while a lesson is on the table: the step being played
(a :class:`pyengine.lessons.StepPlay`), a :class:`LessonSession` that draws it like any game, and what the
learner was last told. :class:`LessonProgress` remembers the steps each learner finished, in the browser's
storage under ``cardtable.lessons`` (``{game: [step numbers from 0]}``), through the same :class:`Keeper` that
keeps the games. The lesson's address is ``#lesson=<game>&step=<n>`` (from 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyengine
from pyengine.lessons import Lesson, StepPlay, lesson_for
from pyengine.rng import fresh_seed

from . import drawing, selection
from .effects import Click, Effect, Fit, Share, TableScreen, Tick
from .feed import sentence
from .html import esc
from .keeping import Keeper
from .selection import Selection
from .session import Session
from .setup import Seat, Setup
from .urls import parse_qsl

if TYPE_CHECKING:
    from .controller import TableController

LESSONS_KEY = "cardtable.lessons"
FIRST_GAME_LEVEL = "easy"


class LessonProgress:
    """The steps each game's lesson has had finished in this browser."""

    def __init__(self, keeper: Keeper) -> None:
        self.keeper = keeper

    def done(self, game: str) -> list[int]:
        """The finished steps of ``game``'s lesson (numbers from 0), whatever else storage holds."""
        stored = self.keeper.read(LESSONS_KEY, dict, {})
        steps = stored.get(game, [])
        count = len(lesson_for(game).steps)
        if not isinstance(steps, list):
            return []
        return sorted({s for s in steps if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < count})

    def mark(self, game: str, index: int) -> None:
        """Step ``index`` of ``game``'s lesson is finished."""
        stored = dict(self.keeper.read(LESSONS_KEY, dict, {}))
        stored[game] = sorted({*self.done(game), index})
        self.keeper.write(LESSONS_KEY, stored)

    def next_step(self, game: str) -> int:
        """Where the lesson goes on: its first unfinished step (the first step once all are finished)."""
        done = set(self.done(game))
        return next((i for i in range(len(lesson_for(game).steps)) if i not in done), 0)


class LessonSession(Session):
    """A step's game at the table: the learner's moves are offered only while the step goes on."""

    def __init__(self, play: StepPlay) -> None:
        players = play.state.players
        seats = [Seat(seat != play.seat, FIRST_GAME_LEVEL) for seat in range(players)]
        super().__init__(Setup(play.lesson.game, players, 0, seats, dict(play.state.options), 0), play.state)
        self.play = play
        self.counted = False

    def decides_now(self) -> bool:
        return not self.play.is_done() and super().decides_now()

    def select(self, chosen: Selection) -> None:
        """A tap that chooses a card succeeds: the refusal said before it goes (one message at a time)."""
        self.message = ""
        super().select(chosen)


def read_address(fragment: str) -> tuple[str, int]:
    """The game and the step (from 0) of a lesson's address; ``ValueError`` saying what is wrong."""
    fields = dict(parse_qsl(fragment.lstrip("#")))
    game = fields.get("lesson", "")
    if game not in pyengine.GAMES:
        raise ValueError(f"there is no lesson called {game[:40]!r}")
    step = fields.get("step", "1")
    count = len(lesson_for(game).steps)
    if not (0 < len(step) <= 3 and step.isascii() and step.isdigit()) or not 1 <= int(step) <= count:
        raise ValueError(f"the lesson of {pyengine.GAMES[game].title} has steps 1 to {count}")
    return game, int(step) - 1


class LessonTable:
    """One lesson on the table: its step, the step's game, and what the learner was told last."""

    def __init__(self, game: str, index: int, progress: LessonProgress) -> None:
        self.lesson: Lesson = lesson_for(game)
        self.progress = progress
        self.play = StepPlay(self.lesson, index)
        self.session = LessonSession(self.play)

    @property
    def game(self) -> str:
        return self.lesson.game

    @property
    def index(self) -> int:
        return self.play.index

    @property
    def last(self) -> bool:
        return self.index == len(self.lesson.steps) - 1

    def address(self) -> str:
        return f"lesson={self.game}&step={self.index + 1}"

    def act(self, text: str) -> None:
        """The learner played ``text``: the step's move is played, any other is refused with its reason."""
        session = self.session
        session.clear_advice()
        reason = self.play.play(text)
        if reason is not None:
            session.message = sentence(reason) + " Try again."
            return
        session.state = self.play.state
        session.selection = None
        session.message = ""
        if self.play.is_done():
            self.progress.mark(self.game, self.index)
            session.advice = self.play.step.done

    def tried(self, facts_json: str) -> None:
        """A click on a place that plays nothing: the game's reason, to try again."""
        reason = self.session.why_not(facts_json) or "Nothing to play there"
        self.session.clear_advice()
        self.session.message = sentence(reason) + " Try again."

    def show(self) -> None:
        """Point at the step's next intended move (the table's suggestion highlight)."""
        session = self.session
        move = self.play.next_move()
        session.clear_advice()
        session.message = ""  # the suggestion takes the place of a refusal: one message at a time
        if move is None or not session.decides_now():
            return
        session.hint = drawing.hint_of(session, move)
        session.advice = session.hint.words.replace("Suggested move:", "Try this:", 1)

    def first_game(self, seed: int) -> Setup:
        """The setup of "Play your first game": the learner at seat 0, the easy computer everywhere else."""
        settings = self.lesson.first_game
        players = int(settings.get("players", 2))
        seats = [Seat(seat > 0, FIRST_GAME_LEVEL) for seat in range(players)]
        return Setup(self.game, players, seed, seats, dict(settings.get("options", {})))

    def panel_html(self) -> str:
        """The lesson's panel above the table: where the lesson is, the one thing to do, the rule, and the
        buttons to go on."""
        step, count = self.play.step, len(self.lesson.steps)
        done = self.progress.done(self.game)
        finished = self.play.is_done()
        marks = "".join(
            f'<li class="{"done" if i in done else "todo"}{" current" if i == self.index else ""}">'
            f'<span class="sr-only">step {i + 1}{", done" if i in done else ""}</span></li>'
            for i in range(count)
        )
        buttons = ['<button type="button" class="btn" data-ui="lesson-again">Start again</button>']
        if not finished:
            buttons.insert(0, '<button type="button" class="btn" data-ui="lesson-show">Show me</button>')
        elif not self.last:
            buttons.insert(
                0, '<button type="button" class="btn primary" data-ui="lesson-next" data-focus>Next step</button>'
            )
        first = "primary" if finished and self.last else ""
        buttons.append(
            f'<button type="button" class="btn {first}" data-ui="lesson-first-game"'
            f"{' data-focus' if first else ''}>Play your first game</button>"
        )
        # a step just opened: its task takes the focus (a screen reader says it), once; Tab goes on to the table
        fresh = " data-focus" if not finished and not self.play.played else ""
        return (
            f'<div class="lesson" data-step="{self.index + 1}" data-done="{str(finished).lower()}">'
            f'<div class="lesson-where"><p>Step {self.index + 1} of {count}</p>'
            f'<ol class="lesson-steps" aria-label="Steps, {len(done)} of {count} done">{marks}</ol></div>'
            f'<p class="lesson-task" tabindex="-1"{fresh}>{esc(step.task)}</p>'
            f'<p class="lesson-rule">{esc(step.rule)}</p>'
            f'<p class="lesson-buttons">{" ".join(buttons)}</p>'
            # a phone shows the rule on demand (the panel stays compact), a wider screen whole under the task
            f'<details class="lesson-why"><summary>Why?</summary><p>{esc(step.rule)}</p></details></div>'
        )


class LessonMode:
    """The table while a lesson is on it: the step's game drawn like any game, the lesson's panel above it, its
    buttons; no computer plays and nothing is kept."""

    def __init__(self, table: TableController, lesson: LessonTable) -> None:
        self.table = table
        self.lesson = lesson

    @property
    def session(self) -> Session:
        return self.lesson.session

    def refresh(self) -> list[Effect]:
        return [self.screen()]

    def screen(self) -> TableScreen:
        session = self.lesson.session
        feed = session.feed()
        handover = session.needs_handover()
        return TableScreen(
            title=f"{session.info.title}: learn to play", game=session.setup.game,
            status_html=self.lesson.panel_html(), banner=drawing.banner(session, drawing.turn_start(session)),
            pace=session.setup.delay,
            board_html=drawing.handover_html(session) if handover else drawing.render_view(
                session.setup.game, feed.view, session.selection),
            zoomable=not handover, moves=session.state.played, message=session.message, advice=session.advice,
            hint=session.hint_target(), suggest_shown=False, suggest_enabled=True,
            log_key=(id(session), session.trail.resets), log_lines=feed.log, over=False, undo_enabled=True,
            undo_reason="Start this step again", marker="ready",
        )

    def click(self, click: Click) -> list[Effect]:
        """A click on the lesson's table: its buttons, the step's move, a selection, or a place that plays
        nothing (its reason, to try again)."""
        session, lesson = self.lesson.session, self.lesson
        if click.ui is not None:
            return self.control(click.ui)
        if click.action is not None:
            lesson.act(click.action)
        elif click.select is not None:
            try:
                session.select(selection.decode(click.select))
            except ValueError:  # not a selection this site wrote: nothing to choose
                return []
        elif click.attempt is not None:
            lesson.tried(click.attempt)
        elif session.advice:  # any click ends a refusal's reason
            session.clear_advice()
        else:
            return []
        return self.refresh()

    def control(self, name: str) -> list[Effect]:
        """A lesson's buttons: show the step's move, start it again, the next step, the first game, share."""
        lesson, table = self.lesson, self.table
        if name == "lesson-show":
            lesson.show()
        elif name in ("lesson-again", "undo"):
            return table.begin_lesson(LessonTable(lesson.game, lesson.index, lesson.progress), "replace")
        elif name == "lesson-next" and not lesson.last:
            return table.begin_lesson(LessonTable(lesson.game, lesson.index + 1, lesson.progress), "push")
        elif name == "lesson-first-game":
            return table.start_setup(lesson.first_game(fresh_seed()))
        elif name == "share":
            return [Share("This address opens this step of the lesson.", lesson.address())]
        elif name == "zoom-fit":
            return [Fit()]
        return [self.screen()]

    def cancel(self) -> list[Effect]:
        """Escape: drop the chosen card."""
        if self.session.selection is None:
            return []
        self.session.selection = None
        return self.refresh()

    def tick(self, tick: Tick) -> list[Effect]:
        """A lesson sets no timer (its moves are not held: a step is tried again as often as the player likes)."""
        return []
