"""A lesson in the browser: "Learn to play" on a lobby card, a wrong move refused with its reason, the step's move by
clicks and the next by keys, the progress remembered after a reload (on a phone's screen), then the first game against
the computer; on a phone (390x844, touch), one message at a time, a panel that never moves, and each new step opening
in view."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from e2e.conftest import Watch, returning_visitor, wait_settled

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PICK_KING = """[data-select='["pick","K",null]']"""
PICK_EIGHT = """[data-select='["pick","8",null]']"""


def test_a_lesson_is_played_by_clicks_and_keys_and_its_progress_is_remembered(page: Page) -> None:
    page.goto("index.html")
    wait_settled(page)
    page.click(".lesson-link[data-game='carbles']")
    lesson = page.locator("#status .lesson")
    expect(lesson).to_have_attribute("data-step", "1")
    expect(lesson.locator(".lesson-task")).to_have_text("Bring a marble out of your lot with your king.")

    page.click("#board [data-try]")  # the 5: no marble out to move
    expect(page.locator("#message")).to_have_text("Your 5 cannot move any marble now: play another card. Try again.")
    expect(lesson).to_have_attribute("data-done", "false")

    page.click(f"#board {PICK_KING}")
    page.click("#board button[data-action='K out']")
    expect(lesson).to_have_attribute("data-done", "true")
    expect(page.locator("#advice")).to_have_text("Well done.")
    expect(page.locator("#message")).to_have_text("")
    assert page.url.endswith("#lesson=carbles&step=1")

    expect(page.locator("[data-ui='lesson-next']")).to_be_focused()  # the keyboard goes on from there
    page.keyboard.press("Enter")
    expect(lesson).to_have_attribute("data-step", "2")
    expect(lesson.locator(".lesson-task")).to_be_focused()  # a screen reader says the new step's task
    page.focus(f"#board {PICK_EIGHT}")
    page.keyboard.press("Enter")
    page.focus("#board button[data-action='8 m1 +8']")
    page.keyboard.press("Enter")
    expect(lesson).to_have_attribute("data-done", "true")

    page.set_viewport_size({"width": 360, "height": 740})  # a phone: the step, its buttons and the hand on one screen
    page.reload()
    wait_settled(page)
    expect(lesson).to_have_attribute("data-step", "2")
    expect(lesson.locator(".lesson-steps")).to_have_attribute("aria-label", "Steps, 2 of 10 done")
    for shown in (lesson.locator(".lesson-task"), page.locator("[data-ui='lesson-show']"), page.locator(PICK_EIGHT)):
        expect(shown).to_be_in_viewport(ratio=1)
    page.click("#table-menu")  # on a phone the table's buttons fold behind Menu
    page.click("#to-lobby")
    expect(page.locator(".lesson-link[data-game='carbles']")).to_have_text("Learn to play (2 steps done)")

    page.click(".lesson-link[data-game='carbles']")  # the lesson goes on at its first unfinished step
    expect(lesson).to_have_attribute("data-step", "3")
    page.click("[data-ui='lesson-first-game']")
    expect(page.locator("#table-title")).to_have_text("Carbles")
    expect(page.locator("#status .lesson")).to_have_count(0)
    assert "#game=carbles" in page.url


def play_by_show_me(page: Page, lesson: Locator) -> None:
    """Play the step on the screen by its "Show me", tapping what it points at."""
    for _ in range(6):
        if lesson.get_attribute("data-done") == "true":
            return
        page.tap("[data-ui='lesson-show']")
        page.tap("#board .hinted")
        wait_settled(page)
    raise AssertionError("the step did not end")


@pytest.fixture(scope="module")
def phone(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    context = browser.new_context(base_url=base_url, service_workers="block", **PHONE)  # type: ignore[arg-type]
    returning_visitor(context, base_url)
    yield context
    context.close()


def test_on_a_phone_one_message_at_a_time_the_panel_never_moves_and_the_next_step_opens_in_view(
    phone: BrowserContext, base_url: str
) -> None:
    page = phone.new_page()
    watch = Watch(page, base_url)
    page.set_default_timeout(60_000)
    page.goto("index.html#lesson=silver-bars&step=1")
    wait_settled(page)
    lesson = page.locator("#status .lesson")
    opened = lesson.bounding_box()
    message, advice = page.locator("#message"), page.locator("#advice")

    page.tap('#board [data-select=\'["card","4","4♣"]\']')  # a card's selection names its token and its card
    page.tap("#board [data-action='play 4 v2']")  # a legal move the step does not ask for: refused
    expect(message).to_have_text("Put the 4 of silver into your first vault. Try again.")
    assert lesson.bounding_box() == opened
    page.tap("[data-ui='lesson-show']")  # the suggestion takes the refusal's place
    expect(message).to_have_text("")
    expect(advice).to_contain_text("Try this:")
    play_by_show_me(page, lesson)
    expect(lesson).to_have_attribute("data-done", "true")
    expect(message).to_have_text("")
    expect(advice).to_have_text("Well done.")
    assert lesson.bounding_box() == opened  # done, the panel keeps its place and size: nothing under a finger moved

    page.goto("index.html#lesson=carbondale&step=3")  # a long table: the player scrolls down to it
    wait_settled(page)
    play_by_show_me(page, lesson)
    # the player has scrolled down to the table, the "Next step" button at the screen's top edge
    page.evaluate(
        "scrollTo(0, document.querySelector(\"[data-ui='lesson-next']\").getBoundingClientRect().top + scrollY - 4)"
    )
    assert page.evaluate("scrollY") > 0
    page.tap("[data-ui='lesson-next']")
    expect(lesson).to_have_attribute("data-step", "4")
    expect(lesson.locator(".lesson-task")).to_be_in_viewport(ratio=1)
    assert page.evaluate("scrollY") == 0
    why = lesson.locator(".lesson-why")
    expect(lesson.locator(".lesson-rule")).to_be_hidden()  # a phone shows the rule on demand
    why.locator("summary").tap()
    expect(why.locator("p")).to_be_visible()
    assert not watch.problems, watch.problems
