"""Whole games by the keyboard alone: Tab into the table, arrows between the choices, Enter to choose, Escape.
At each game's end, nothing on the table is drawn over anything else, on a small phone and on a desktop
(``e2e/test_overlap.py`` says how that is looked for)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import wait_settled
from e2e.keys import near_the_end, play_by_keys
from e2e.test_overlap import defects_at_both_sizes
from tests.games import GAME_IDS, settings


@pytest.mark.parametrize(
    ("game", "seed", "left"),
    [(game, *settings(game).keys) for game in GAME_IDS],
)
def test_a_game_to_its_end_by_keys_alone(page: Page, game: str, seed: int, left: int) -> None:
    page.goto("index.html#" + near_the_end(game, seed, left))
    wait_settled(page)
    made = play_by_keys(page, random.Random(seed))
    assert made > 0
    expect(page.locator("#game-over")).to_be_visible()
    found = defects_at_both_sizes(page, game, "end")  # the end of the game, its result on show
    assert not found, f"{game} at its end:\n" + "\n".join(found)
    page.keyboard.press("Escape")  # Escape closes the result, then the rules drawer opened by keys
    expect(page.locator("#game-over")).to_be_hidden()
    page.locator("#show-rules").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#rules")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#rules")).to_be_hidden()
