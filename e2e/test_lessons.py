"""A lesson in the browser: "Learn to play" on a lobby card, a wrong move refused with its reason, the step's move by
clicks and the next by keys, the progress remembered after a reload (on a phone's screen), then the first game against
the computer."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.conftest import wait_settled

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
