"""Every game's renderer: every legal action reachable by clicks, nothing illegal offered."""

from __future__ import annotations

import random
from html.parser import HTMLParser
from pathlib import Path

import pytest
from cardtable_web.registry import SITE_GAMES, renderer_for

import pyengine
from tests.playouts import player_counts, playout, valid_options

GAME_IDS = list(pyengine.GAMES)
ROOT = Path(__file__).resolve().parents[1]


class Clickables(HTMLParser):
    """The data-action and data-select values of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.actions: list[str] = []
        self.selects: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "data-action" and value is not None:
                self.actions.append(value)
            elif name == "data-select" and value is not None:
                self.selects.append(value)


def clickables(html: str) -> Clickables:
    parser = Clickables()
    parser.feed(html)
    parser.close()
    return parser


def reachable(render, view: dict, depth: int = 3) -> set[str]:  # type: ignore[no-untyped-def]
    """Every action text reachable from no selection by at most ``depth`` selection clicks."""
    found: set[str] = set()
    frontier: list[str | None] = [None]
    seen: set[str | None] = {None}
    for _ in range(depth + 1):
        next_frontier: list[str | None] = []
        for selection in frontier:
            parsed = clickables(render(view, selection))
            found.update(parsed.actions)
            for token in parsed.selects:
                if token not in seen:
                    seen.add(token)
                    next_frontier.append(token)
        frontier = next_frontier
    return found


def test_the_site_registry_names_every_game_and_its_files() -> None:
    assert list(SITE_GAMES) == list(pyengine.GAMES)
    for game in SITE_GAMES.values():
        assert callable(game.render_module().render)
        assert (ROOT / game.stylesheet).is_file() and (ROOT / game.rules_page).is_file()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_renderers_never_read_or_write_action_texts(game_id: str) -> None:
    """Rendering with every action text replaced by an opaque token offers exactly those tokens.

    A renderer that parsed a text or built one itself would offer a real action text (or miss one).
    """
    source = (ROOT / "web" / "cardtable_web" / "renderers" / f"{SITE_GAMES[game_id].renderer}.py").read_text()
    assert "import re" not in source and "from re " not in source
    render = renderer_for(game_id).render
    checked = 0
    for players in player_counts(game_id):
        rnd = random.Random(f"opaque/{game_id}/{players}")
        state = pyengine.new_game(game_id, players, players, valid_options(game_id, players, rnd))
        for step, position in enumerate(playout(state, rnd, 300)):
            seat = position.current_player
            if seat is None or step % 7:
                continue
            view = position.view(seat) | {"names": [f"P{i}" for i in range(players)], "you": seat}
            tokens = {f"#move-{i}": facts for i, facts in enumerate(view["moves"].values())}
            offered = reachable(render, view | {"moves": tokens})
            assert offered == set(tokens), f"step {step}: offered {sorted(offered - set(tokens))[:3]}, " \
                                           f"missing {sorted(set(tokens) - offered)[:3]}"
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_legal_action_is_reachable_by_clicking(game_id: str) -> None:
    render = renderer_for(game_id).render
    checked = 0
    for players in player_counts(game_id):
        for seed in range(2):
            rnd = random.Random(f"render/{game_id}/{players}/{seed}")
            state = pyengine.new_game(game_id, players, seed, valid_options(game_id, players, rnd))
            for step, position in enumerate(playout(state, rnd, 400)):
                if step % 5:
                    continue
                seat = position.current_player
                names = {"names": [f"P{i}" for i in range(players)], "you": None}
                if seat is None:
                    render(position.view(None) | names, None)
                    continue
                legal = position.legal_texts()
                view = position.view(seat) | names
                offered = reachable(render, view)
                missing = set(legal) - offered
                assert not missing, f"step {step}: legal but not clickable: {sorted(missing)[:5]}"
                illegal = offered - set(legal)
                assert not illegal, f"step {step}: offered but not legal: {sorted(illegal)[:5]}"
                # a seat that does not decide is offered nothing
                other = (seat + 1) % players
                if other != seat:
                    assert not clickables(render(position.view(other) | names, None)).actions
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_face_up_cards_on_screen_come_from_the_viewers_view(game_id: str) -> None:
    """Hidden cards never reach the page: every face-up card drawn is in the seat's view."""
    import json
    import re

    render = renderer_for(game_id).render
    players = player_counts(game_id)[0]
    rnd = random.Random(f"hidden/{game_id}")
    state = pyengine.new_game(game_id, players, 3, valid_options(game_id, players, rnd))
    for step, position in enumerate(playout(state, rnd, 120)):
        if step % 10:
            continue
        for seat in [None, *range(players)]:
            view = position.view(seat) | {"names": [f"P{i}" for i in range(players)], "you": seat}
            text = json.dumps(view, ensure_ascii=False)
            html = render(view, None)
            for rank, suit in re.findall(r'<span class="rank">([^<]*)</span><span class="suit">([^<]+)</span>', html):
                assert f"{rank}{suit}" in text, f"{rank}{suit} is drawn for seat {seat} but is not in its view"
