"""Every game's lesson, played through its intended moves, and every step's refusals (``pyengine.lessons``)."""

from __future__ import annotations

import pytest

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
