"""Every game's lesson, played through its intended moves, and every step's refusals (``pyengine.lessons``)."""

from __future__ import annotations

import pytest
from cardtable_web import selection
from cardtable_web.controller import TableController
from cardtable_web.effects import Click, Effect, LobbyError, SetAddress, TableScreen, Think
from cardtable_web.html import esc
from cardtable_web.keeping import Keeper, MemoryStorage
from cardtable_web.lesson import LessonProgress

import pyengine
from pyengine.core import rules_for
from pyengine.games.cardcassonne.board import auto_removed
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
    for number, step in enumerate(lesson.steps):
        assert step.position in rules_for(game).positions or (step.continues and not step.position and number)
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


ALSO_ASKED: dict[tuple[str, int], set[str]] = {
    # "next to your 2 of clubs" (three spaces are), "give a card to the stock" (any of the other cards)
    ("carbondale", 1): {
        "build 4♣ at 2,0 east of 2♣",
        "build 4♣ at 1,-1 south of 2♣",
        "contribute 4♠",
        "contribute 10♢",
    },
    # "on your 2 of clubs" (built from it, on any of its free sides), "give a card to the stock"
    ("carbondale", 2): {
        "build 2♡ at 2,0 east of 2♣",
        "build 2♡ at 1,-1 south of 2♣",
        "contribute 3♡",
        "contribute 10♠",
    },
    # "then draw a card": from the draw pile or, as the rule says, from the stock
    ("carbondale", 3): {"take 3♣ from stock"},
    # "Build your 3 of hearts": on any club it may go on
    ("carbondale", 6): {
        "build 3♡ at 2,-1 south of 3♣",
        "build 3♡ at 3,-1 south of 4♣",
        "build 3♡ at 4,1 north of 5♣",
        "build 3♡ at 4,-1 south of 5♣",
    },
    ("silver-bars", 8): {"discard 7", "discard 8", "discard 9"},  # "discard a card"
    ("carbles", 7): {"7 m1 +4", "7 m2 +3", "7 m2 +4", "7 m1 +3"},  # "3 spaces for one, 4 for the other", either way
    ("carbles", 9): {"burn 5♡"},  # "burn one"
    # "next to the 5 of hearts": any of its four sides
    ("cardcassonne", 1): {"6♡ @ 0,-1", "6♡ @ 0,1", "6♡ @ -1,0"},
    # "beside the hearts", then the token (placed on the card just played, wherever it went)
    ("cardcassonne", 3): {"6♡ @ 0,-1", "6♡ @ 0,1", "6♡ @ -1,0", "6♡ @ 1,-1", "6♡ @ 1,1"},
    # "Fill the last empty space": with any card; the task asks nothing of the token
    ("cardcassonne", 4): {"2♠ @ -1,0", "J♣ @ -1,0", "token"},
    # "Play your 2 of clubs": anywhere that keeps the hearts area scorable
    ("cardcassonne", 5): {"2♣ @ 1,-2", "2♣ @ -2,0", "2♣ @ 3,0", "2♣ @ 2,1", "2♣ @ 0,2"},
}
"""The moves a step praises besides its intended ones, each because its task's words allow it (the audit of
``test_a_step_praises_only_what_its_task_asks``: a move added here is read against the task first)."""


def praised_paths(play: StepPlay, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every sequence of moves the step praises, from its start to its end: at each point every legal move is
    tried, and each praised one is followed (a refused one must change nothing)."""
    if play.is_done():
        assert not play.taught(), "a finished step praises nothing more"
        return [path]
    assert len(path) < 8, f"the step never ends after {path}"
    paths = []
    for text in play.state.legal_texts():
        if play.refusal(text) is not None:
            continue
        branch = StepPlay(play.lesson, play.index)
        for earlier in (*path, text):
            assert branch.play(earlier) is None, (path, earlier)
        paths += praised_paths(branch, (*path, text))
    assert paths, f"after {path} the step cannot go on: nothing is praised"
    return paths


@pytest.mark.parametrize(
    ("lesson", "index"),
    [pair for game in GAMES for pair in steps_of(game)],
    ids=lambda value: value.game if isinstance(value, Lesson) else str(value + 1),
)
def test_a_step_praises_only_what_its_task_asks(lesson: Lesson, index: int) -> None:
    """Every legal move at every point of every praised way through the step: the praised ones are the intended
    moves and those the task's words allow (``ALSO_ASKED``), and every praised way reaches the step's end."""
    paths = praised_paths(StepPlay(lesson, index))
    praised = {text for path in paths for text in path}
    step = lesson.steps[index]
    assert praised == set(step.solution) | ALSO_ASKED.get((lesson.game, index + 1), set())


def test_carbondale_face_down_step_refuses_a_face_up_discard() -> None:
    play = StepPlay(lesson_for("carbondale"), 2)
    assert "face down" in play.step.task
    assert play.refusal("discard 9♢ face up") == play.step.wrong


def test_a_claim_step_ends_with_the_claim_resolved() -> None:
    """Carbondale's claim step: after the claim the computer answers, and the claimed card is in the learner's
    hand when the step is over."""
    play = StepPlay(lesson_for("carbondale"), 3)
    assert play.play("claim 3♣ at 0,1 from P2 with 5♣") is None
    assert play.is_done()
    view = play.state.view(play.seat)
    assert "3♣" in view["hand"] and not view["pending"], view["pending"]
    assert play.state.current_player == play.seat  # the learner's turn goes on: the claim is settled


def test_silver_bars_story_keeps_the_vault_locked_in_its_fourth_step() -> None:
    lesson = lesson_for("silver-bars")
    lock = lesson.steps.index(next(step for step in lesson.steps if step.solution == ("lock v1",)))
    ended = StepPlay(lesson, lock)
    ended.play("lock v1")
    mine = ended.state.view(ended.seat)["vaults"][ended.seat]
    after = StepPlay(lesson, lock + 1)
    assert after.step.continues
    assert after.state.view(after.seat)["vaults"][after.seat] == mine
    assert mine[0]["locked"] and mine[0]["cards"] == ["4♣", "8♡", "6♡"]
    for text in after.step.solution:
        after.play(text)
    story = after.state.view(after.seat)["vaults"][after.seat]
    for index in (lock + 2, lock + 3):  # the rubble and the strike: the same vaults (the rubble in an empty one)
        play = StepPlay(lesson, index)
        vaults = play.state.view(play.seat)["vaults"][play.seat]
        assert [v["cards"] for v in vaults[:3]] == [v["cards"] for v in story[:3]], play.step.task
        assert vaults[0]["locked"], play.step.task


def test_a_continuing_step_starts_where_the_step_before_it_ended() -> None:
    for game in GAMES:
        lesson = lesson_for(game)
        for index, step in enumerate(lesson.steps):
            if not step.continues:
                continue
            before = StepPlay(lesson, index - 1)
            for text in before.step.solution:
                before.play(text)
            state = before.state
            for text in step.before:
                state = state.apply(text)
            assert StepPlay(lesson, index).state.record() == state.record()


def test_card_cassonne_lesson_sets_aside_as_many_cards_as_a_real_game() -> None:
    """Not "91 removed unseen": each step's draw pile holds the cards a game of its players would have."""
    lesson = lesson_for("cardcassonne")
    for index in range(len(lesson.steps)):
        state = StepPlay(lesson, index).state
        assert state.view(0)["removed"] == auto_removed(state.players), index + 1


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


def test_one_message_at_a_time_and_a_refusal_goes_with_the_next_tap_that_succeeds() -> None:
    control = table()
    control.start_lesson("silver-bars")
    pick_four = selection.encode(("card", "4"))  # the 4 of silver in the hand, chosen before its vault
    refused = drawn(control.click(Click(action="play 4 v2")))
    assert refused.message and not refused.advice
    screen = drawn(control.click(Click(select=pick_four)))  # choosing the right card: the refusal goes
    assert screen.message == "" and screen.advice == ""
    screen = drawn(control.click(Click(action="play 4 v2")))
    assert screen.message and not screen.advice
    screen = drawn(control.click(Click(ui="lesson-show")))  # the suggestion takes the refusal's place
    assert screen.message == "" and screen.advice.startswith("Try this:")
    screen = drawn(control.click(Click(action="play 4 v2")))
    assert screen.message and not screen.advice
    screen = drawn(control.click(Click(action="play 4 v1")))
    assert screen.message == "" and screen.advice == "Well done."


def test_the_panel_says_the_task_then_the_rule_which_a_phone_shows_on_demand() -> None:
    control = table()
    screen = drawn(control.start_lesson("carbles"))
    panel = screen.status_html
    assert panel.index('class="lesson-task"') < panel.index('class="lesson-rule"') < panel.index('"lesson-buttons"')
    rule = esc(lesson_for("carbles").steps[0].rule)
    assert f'<p class="lesson-rule">{rule}</p>' in panel
    assert f'<details class="lesson-why"><summary>Why?</summary><p>{rule}</p></details>' in panel


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
