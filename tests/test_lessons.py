"""Every game's lesson, played through its intended moves, and every step's refusals (``pyengine.lessons``)."""

from __future__ import annotations

import pytest
from cardtable_web.controller import TableController
from cardtable_web.effects import Click, Effect, LobbyError, SetAddress, TableScreen, Think
from cardtable_web.html import esc
from cardtable_web.keeping import Keeper, MemoryStorage
from cardtable_web.lesson import LessonProgress

import pyengine
from pyengine.core import rules_for
from pyengine.lessons import Lesson, StepPlay, lesson_for
from tests.test_plain_words import shapes

GAMES = list(pyengine.GAMES)


def steps_of(game: str) -> list[tuple[Lesson, int]]:
    lesson = lesson_for(game)
    return [(lesson, i) for i in range(len(lesson.steps))]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_lesson_of_five_to_ten_steps_on_its_named_positions(game: str) -> None:
    lesson = lesson_for(game)
    assert lesson.game == game
    assert 5 <= len(lesson.steps) <= 10
    for step in lesson.steps:
        assert step.position in rules_for(game).positions, step.position
        assert step.teaches and step.solution


@pytest.mark.parametrize(
    ("lesson", "index"),
    [pair for game in GAMES for pair in steps_of(game)],
    ids=lambda value: value.game if isinstance(value, Lesson) else str(value + 1),
)
def test_each_step_plays_through_its_intended_moves_and_refuses_a_wrong_one(lesson: Lesson, index: int) -> None:
    play = StepPlay(lesson, index)
    step = play.step
    untaught = [text for text in play.state.legal_texts() if text not in play.taught()]
    wrong = untaught + list(step.mistakes)
    assert wrong, "a step refuses at least one move"
    for text in wrong:
        reason = play.refusal(text)
        assert reason, text
        assert play.play(text) == reason and not play.played  # refused: nothing changes, and it may be retried
    for text in untaught:
        assert play.refusal(text) == step.wrong
    for text in step.mistakes:
        assert play.refusal(text) != step.wrong, f"{text} is illegal: the game's own reason is said"
    for number, text in enumerate(step.solution):
        assert not play.is_done(), f"done before move {number + 1}"
        assert play.next_move() == text
        assert play.play(text) is None, text
    assert play.is_done()
    assert play.refusal(step.solution[0]) is not None


@pytest.mark.parametrize("game", GAMES)
def test_lesson_words_are_plain(game: str) -> None:
    for step in lesson_for(game).steps:
        for text in (step.task, step.rule, step.wrong, step.done):
            assert text.endswith((".", "!")), text
            assert not shapes(text), (text, shapes(text))


def test_a_game_without_a_lesson_module_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="no game called"):
        lesson_for("chess")
    with pytest.raises(ValueError, match="no step 99"):
        StepPlay(lesson_for("carbles"), 98)


# -- the lesson at the table (web/cardtable_web/lesson.py through the table's controller) ------------------------------


def table(storage: MemoryStorage | None = None) -> TableController:
    return TableController(Keeper(storage if storage is not None else MemoryStorage()))


def drawn(effects: list[Effect]) -> TableScreen:
    screens = [e for e in effects if isinstance(e, TableScreen)]
    assert screens, effects
    return screens[-1]


def play_step_by_what_the_table_draws(control: TableController) -> TableScreen:
    """Play the step on the table by its "Show me": each pointed-at choice is drawn on the board, then clicked."""
    lesson = control.lesson
    assert lesson is not None
    screen = drawn(control.click(Click(ui="lesson-show")))
    for _ in range(20):
        if lesson.play.is_done():
            return screen
        assert screen.hint is not None, screen.advice
        name, value = screen.hint
        assert f'{name}="{esc(value)}"' in screen.board_html, (name, value)
        click = Click(select=value) if name == "data-select" else Click(action=value)
        screen = drawn(control.click(click))
        if not lesson.play.is_done():
            screen = drawn(control.click(Click(ui="lesson-show")))
    raise AssertionError("the step did not end")


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_is_played_through_the_table_and_its_progress_kept(game: str) -> None:
    storage = MemoryStorage()
    control = table(storage)
    screen = drawn(control.start_lesson(game))
    count = len(lesson_for(game).steps)
    for index in range(count):
        assert control.address == f"lesson={game}&step={index + 1}"
        assert f'data-step="{index + 1}"' in screen.status_html and not screen.over
        screen = play_step_by_what_the_table_draws(control)
        assert 'data-done="true"' in screen.status_html and screen.advice
        if index < count - 1:
            screen = drawn(control.click(Click(ui="lesson-next")))
    assert LessonProgress(Keeper(storage)).done(game) == list(range(count))
    assert control.keeper.saves() == {}
    first = control.click(Click(ui="lesson-first-game"))
    assert control.lesson is None and control.session is not None
    seats = control.session.setup.seats
    assert [seat.computer for seat in seats] == [False] + [True] * (len(seats) - 1)
    assert {seat.level for seat in control.session.setup.seats[1:]} == {"easy"}
    assert any(isinstance(e, SetAddress) and e.fragment.startswith("game=") for e in first)


def test_a_wrong_move_is_refused_with_its_reason_and_may_be_retried() -> None:
    control = table()
    control.start_lesson("silver-bars")
    screen = drawn(control.click(Click(action="play 4 v2")))  # legal, but not what the step teaches
    assert screen.message == "Put the 4 of silver into your first vault. Try again."
    screen = drawn(control.click(Click(action="miner 8 v1")))  # not legal at all: the game's reason
    assert screen.message.endswith("Try again.") and "Put the 4" not in screen.message
    assert control.lesson is not None and not control.lesson.play.played
    screen = drawn(control.click(Click(action="play 4 v1")))
    assert screen.message == "" and screen.advice == "Well done."
    screen = drawn(control.click(Click(ui="undo")))  # Take back starts the step again
    assert 'data-done="false"' in screen.status_html and control.lesson.play.played == []


def test_a_lesson_address_opens_its_step_and_a_bad_one_says_why() -> None:
    storage = MemoryStorage()
    storage.setItem("cardtable.lessons", '{"carbles": [0, 1, 99, "x", true], "chess": [1]}')
    control = table(storage)
    screen = drawn(control.open_address("#lesson=carbles&step=3"))
    assert control.lesson is not None and control.lesson.index == 2
    assert 'aria-label="Steps, 2 of 10 done"' in screen.status_html
    assert control.progress.next_step("carbles") == 2
    for bad in ("lesson=chess&step=1", "lesson=carbles&step=11", "lesson=carbles&step=x"):
        effects = table().open_address(bad)
        assert isinstance(effects[0], LobbyError), bad
    storage.setItem("cardtable.lessons", "[not json")
    assert LessonProgress(Keeper(storage)).done("carbles") == []
    assert drawn(table(storage).start_lesson("carbles")).status_html.count('class="todo') == 10


def test_a_lesson_is_never_kept_and_no_computer_plays_in_it() -> None:
    storage = MemoryStorage()
    control = table(storage)
    effects = control.start_lesson("carbondale")
    effects += control.click(Click(action="build 4♣ at 1,1 north of 2♣"))
    effects += control.click(Click(action="contribute 9♢"))
    assert not any(isinstance(e, Think) for e in effects)
    assert not storage.getItem("cardtable.saves") and control.keeper.saves() == {}
    assert control.set_pace(0) == [] and control.storage_changed() == []


@pytest.mark.parametrize(
    "stored",
    [
        "[not json",
        "[]",
        '"text"',
        '{"carbles": "x"}',
        '{"carbles": [1.5, -1, 9, null, {}]}',
        '{"carbles": {"0": 1}}',
        '{"carbles": [' + ",".join(["0"] * 5000) + "]}",
        "{" * 5000,
    ],
)
def test_hostile_stored_progress_never_stops_a_lesson(stored: str) -> None:
    """Whatever the storage holds under the lessons' key, a lesson opens at a real step and is kept on finishing."""
    storage = MemoryStorage()
    storage.setItem("cardtable.lessons", stored)
    control = table(storage)
    screen = drawn(control.start_lesson("carbles"))
    assert control.lesson is not None and control.lesson.index in (0, 1)
    assert "Steps," in screen.status_html
    play_step_by_what_the_table_draws(control)
    assert control.lesson.index in LessonProgress(Keeper(storage)).done("carbles")
