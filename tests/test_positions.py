"""Every game's named positions: listed in ``docs/positions.md`` (so the list cannot go stale), loadable, and the
position formats of 100 Silver Bars and Carbon City Zero checked field by field."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import pyengine
from pyengine.core import named_position, rules_for
from pyengine.games.silver_bars.state import deck
from pyengine.lessons import lesson_for

ROOT = Path(__file__).resolve().parents[1]
LISTED = re.compile(r"\| `([a-z0-9-]+)` \|.*\(\.\./embed\.html\?game=([a-z-]+)&position=([a-z0-9-]+)\)")


def listed() -> set[tuple[str, str]]:
    """(game, position) of every row of the page, each row's name and link agreeing."""
    rows = set()
    for line in (ROOT / "docs" / "positions.md").read_text("utf-8").splitlines():
        found = LISTED.search(line)
        if found:
            name, game, linked = found.groups()
            assert name == linked, line
            assert f"https://SITE/embed.html?game={game}&amp;position={name}" not in line  # written plainly
            assert f'src="https://SITE/embed.html?game={game}&position={name}"' in line, "its embed code"
            rows.add((game, name))
    return rows


def test_the_positions_page_lists_every_named_position_of_every_game_and_nothing_else() -> None:
    named = {(game, name) for game in pyengine.GAMES for name in rules_for(game).positions}
    assert listed() == named


def test_the_positions_page_links_each_lesson_step_where_its_position_is() -> None:
    page = (ROOT / "docs" / "positions.md").read_text("utf-8")
    for game in pyengine.GAMES:
        for number, step in enumerate(lesson_for(game).steps, 1):
            if step.continues:  # it goes on where the step before it ended: no position of its own
                continue
            row = next(line for line in page.splitlines() if f"game={game}&position={step.position})" in line)
            assert f"(../index.html#lesson={game}&step={number})" in row, row[:80]


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_every_game_has_named_positions_and_its_rules_page_shows_only_those(game: str) -> None:
    positions = rules_for(game).positions
    assert positions
    for name in positions:
        assert named_position(game, name).legal_actions(), name
    page = (ROOT / "web" / "rules" / f"{game}.html").read_text("utf-8")
    figures = re.findall(r'class="live-position" data-position="([a-z0-9-]+)"', page)
    assert figures and set(figures) <= set(positions)


SILVER_HANDS = [["4♣", "8♡"], ["2♣"]]


@pytest.mark.parametrize(
    ("position", "words"),
    [
        ({"hands": SILVER_HANDS, "board": []}, "'board' is not part"),
        ({}, "'hands' must be a list of two"),
        ({"hands": [["4♣"] * 9, []]}, "at most 7 cards"),
        ({"hands": [["5♣"], []]}, "no 5♣ is left"),
        ({"hands": SILVER_HANDS, "vaults": [[["8♣"]], []]}, "cannot lie there"),
        ({"hands": SILVER_HANDS, "vaults": [[["4♠", "7♠", "3♠"]], []]}, "cannot lie there"),
        ({"hands": SILVER_HANDS, "vaults": [[{"cards": ["4♠", "7♠"], "locked": True}], []]}, "can be locked"),
        ({"hands": SILVER_HANDS, "vaults": [[{"cards": ["4♠"], "rubble": "K♣"}], []]}, "only in an empty vault"),
        ({"hands": SILVER_HANDS, "totals": [100, 0]}, "'totals' must be a whole number from 0 to 99"),
        ({"hands": SILVER_HANDS, "turn": 2}, "'turn'"),
        ({"hands": SILVER_HANDS, "strike": [1, 0]}, "'strike'"),
    ],
)
def test_a_silver_bars_position_is_checked_field_by_field(position: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words) as refused:
        pyengine.new_game("silver-bars", 2, 0, None, position)
    assert len(str(refused.value)) < 200


def test_a_silver_bars_position_deals_every_card_not_named_into_the_draw_pile() -> None:
    state = pyengine.new_game("silver-bars", 2, 0, None, {"hands": SILVER_HANDS, "vaults": [[["6♠"]], []]})
    core = state.core
    assert len(deck(2)) == 95 and len(core.draw) == 95 - 4  # the round's cards, less the four named
    assert [v.cards for v in core.vaults[0]][0][0].rank == 6 and state.current_player == 0
