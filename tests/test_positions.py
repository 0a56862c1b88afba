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


def section(game: str) -> str:
    """The page's section of ``game``, as it must be: its heading and a row per named position, each with the
    position's title, seats, link, lesson step and embed code (the rows are made from the engine alone)."""
    title = pyengine.GAMES[game].title
    steps = {step.position: number for number, step in enumerate(lesson_for(game).steps, 1)}
    lines = [f"## {title}", "", "| name | what it shows | players | opens | lesson step | embed code |",
             "|---|---|---|---|---|---|"]
    for name, named in rules_for(game).positions.items():
        link = f"[open](../embed.html?game={game}&position={name})"
        step = f"[step {steps[name]}](../index.html#lesson={game}&step={steps[name]})" if name in steps else ""
        code = (f'`<iframe src="https://SITE/embed.html?game={game}&position={name}" title="{title}, {named.title}" '
                'width="100%" height="420" style="border: 0" sandbox="allow-scripts allow-same-origin"></iframe>`')
        lines.append(f"| `{name}` | {named.title} | {named.players} | {link} | {step} | {code} |")
    return "\n".join(lines) + "\n"


def test_the_positions_page_lists_every_named_position_of_every_game_and_nothing_else() -> None:
    """Each game's section is on the page as the engine makes it; a failure prints the sections to paste."""
    page = (ROOT / "docs" / "positions.md").read_text("utf-8")
    missing = [section(game) for game in pyengine.GAMES if section(game) not in page]
    assert not missing, "docs/positions.md lacks or differs from these sections:\n\n" + "\n\n".join(missing)
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


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_a_written_position_reads_back_to_the_same_position(game: str) -> None:
    """Over random games: every state the game's format can describe (``write_position``), written and read back,
    gives the same view to every seat (its moves among it), the same state up to what no seat sees (both re-dealt
    alike give the same core), and the same description again."""
    import random

    from pyengine import Rng
    from tests.playouts import playout, valid_options

    rules = rules_for(game)
    assert rules.info.loads_positions, f"{game} loads no positions"
    info = rules.info
    written = 0
    for seed in range(4):
        rnd = random.Random(f"write/{game}/{seed}")
        players = rnd.randint(info.min_players, info.max_players)
        options = valid_options(game, players, rnd)
        for state in playout(pyengine.new_game(game, players, seed, options), rnd, 400):
            position = rules.write_position(state.core)
            if position is None:
                continue
            written += 1
            loaded = pyengine.new_game(game, players, 0, state.options, position)
            for seat in [None, *range(players)]:
                assert loaded.view(seat) == state.view(seat), f"seat {seat} sees another position"
            same = Rng.from_seed(seed)
            assert loaded.sample_hidden(None, same).core == state.sample_hidden(None, same).core
            assert rules.write_position(loaded.core) == position
    assert written >= 3, f"only {written} states of {game} could be written"
