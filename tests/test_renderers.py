"""Every game's renderer: every legal action reachable by clicks, nothing illegal offered."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

import pytest
from cardtable_web import drawing, selection
from cardtable_web.registry import SITE_GAMES, renderer_for

import pyengine
from tests.playouts import player_counts, playout, valid_options

GAME_IDS = list(pyengine.GAMES)
ROOT = Path(__file__).resolve().parents[1]


class ParsedClickables(HTMLParser):
    """The data-action and data-select values of an HTML fragment, read by a full HTML parser."""

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


class Clickables(NamedTuple):
    actions: list[str]
    selects: list[str]


CLICKABLE = re.compile(r'\sdata-(action|select)="([^"]*)"')


def clickables(markup: str) -> Clickables:
    """The data-action and data-select values of a renderer's HTML. Renderers write every attribute quoted and
    escaped (``html.attrs``), so a pattern reads them exactly, five times faster than a parser (the parser
    agrees: ``test_the_quick_reading_of_clickables_agrees_with_a_parser``)."""
    found = Clickables([], [])
    for kind, value in CLICKABLE.findall(markup):
        (found.actions if kind == "action" else found.selects).append(unescape(value))
    return found


def parsed_clickables(markup: str) -> ParsedClickables:
    parser = ParsedClickables()
    parser.feed(markup)
    parser.close()
    return parser


def reachable(render, view: dict, depth: int = 3) -> set[str]:  # type: ignore[no-untyped-def]
    """Every action text reachable from no selection by at most ``depth`` selection clicks."""
    found: set[str] = set()
    frontier: list[str | None] = [None]
    seen: set[str | None] = {None}
    for _ in range(depth + 1):
        next_frontier: list[str | None] = []
        for token in frontier:
            parsed = clickables(render(view, None if token is None else selection.decode(token)))
            found.update(parsed.actions)
            for token in parsed.selects:
                if token not in seen:
                    seen.add(token)
                    next_frontier.append(token)
        frontier = next_frontier
    return found


def follow_suggestion(game_id: str, view: dict, action: str, start: tuple | None) -> int:
    """Clicks the selections ``selection_for`` names, as a player would (clicking the chosen element again
    unchooses it), until the table offers ``action``; the number of clicks. Each named selection is on the
    table it is named from."""
    renderer = renderer_for(game_id)
    current = start
    for clicks in range(4):
        markup = renderer.render(view, current)
        step = renderer.selection_for(view, action, current)
        if step is None:
            assert action in clickables(markup).actions, f"{action!r} is not on the table of {current}"
            return clicks
        assert selection.encode(step) in clickables(markup).selects, f"{step} is not on the table of {current}"
        assert renderer.selection_words(view, step)
        current = None if step == current else step
    raise AssertionError(f"{action!r}: still not on the table after 3 clicks")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_selection_for_names_the_clicks_that_bring_up_each_action(game_id: str) -> None:
    """From no selection and from another selection on the table, following ``selection_for`` reaches every legal
    action in at most three clicks, each on an element of the table: the suggested move needs no drawing."""
    players = min(player_counts(game_id)[-1], 4)
    rnd = random.Random(f"selection-for/{game_id}")
    state = pyengine.new_game(game_id, players, 2, valid_options(game_id, players, rnd))
    stepped = 0
    for step, position in enumerate(playout(state, rnd, 300)):
        seat = position.current_player
        if seat is None or step % 6:
            continue
        view = position.view(seat) | {"names": [f"P{i}" for i in range(players)], "you": seat}
        starts = [None, *map(selection.decode, clickables(renderer_for(game_id).render(view, None)).selects)]
        actions = list(view["moves"])
        for action in rnd.sample(actions, min(len(actions), 10)):  # a few of Card-cassonne's hundreds of plays
            stepped += follow_suggestion(game_id, view, action, rnd.choice(starts))
            follow_suggestion(game_id, view, action, None)
    assert stepped > 0, "some actions need a selection first"


@pytest.mark.parametrize(
    "value", [("hand", "5♣"), ("claim", 1, -2, 1), ("pick", "7", (0, 3)), ("pick", None, None), ("shown", True, None)]
)
def test_a_selection_is_written_and_read_back_as_the_same_value(value: tuple) -> None:
    text = selection.encode(value)
    assert selection.decode(text) == value and selection.encode(selection.decode(text)) == text
    assert len(text) <= selection.MAX_TEXT and " " not in text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hand:5♣", "not JSON"),
        ('{"hand": "5♣"}', "JSON list that starts with a word"),
        ("[]", "JSON list that starts with a word"),
        ("[1, 2]", "JSON list that starts with a word"),
        ('["pick", 1.5]', "whole numbers"),
        ('["pick", NaN]', "holds no NaN"),
        ('["pick", {"a": 1}]', "whole numbers"),
        ('["pick", [[[1]]]]', "at most 3 deep"),
        ('["pick", "' + "x" * 300 + '"]', "at most 200 characters"),
    ],
)
def test_a_bad_selection_text_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        selection.decode(text)


def test_what_is_not_a_selection_is_not_written() -> None:
    for value in [(), (1, 2), ("pick", 1.5), ("pick", {"a": 1}), ("pick", ("x" * 300,)), "pick"]:
        with pytest.raises(ValueError, match="selection"):
            selection.encode(value)  # type: ignore[arg-type]


def test_the_site_registry_names_every_game_and_its_files() -> None:
    assert list(SITE_GAMES) == list(pyengine.GAMES)
    for game in SITE_GAMES.values():
        assert callable(game.render_module().render)
        assert (ROOT / game.stylesheet).is_file() and (ROOT / game.rules_page).is_file()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_quick_reading_of_clickables_agrees_with_a_parser(game_id: str) -> None:
    render = renderer_for(game_id).render
    players = player_counts(game_id)[-1]
    rnd = random.Random(f"agree/{game_id}")
    state = pyengine.new_game(game_id, players, 5, valid_options(game_id, players, rnd))
    for step, position in enumerate(playout(state, rnd, 200)):
        if step % 20 or position.current_player is None:
            continue
        view = position.view(position.current_player) | {"names": ['P"<&>'] * players, "you": None}
        for token in [None, *clickables(render(view, None)).selects]:
            markup = render(view, None if token is None else selection.decode(token))
            quick, parsed = clickables(markup), parsed_clickables(markup)
            assert (quick.actions, quick.selects) == (parsed.actions, parsed.selects)


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


class Named(HTMLParser):
    """The accessible names of an HTML fragment's face-up cards, and the labels of its groups."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: list[str | None] = []
        self.groups: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        if "card" in classes and "back" not in classes:
            self.cards.append(values.get("aria-label"))
        if values.get("role") == "group":
            self.groups.append(str(values.get("aria-label")))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_cards_are_named_in_words_and_hands_are_named_groups(game_id: str) -> None:
    """A screen reader hears "7 of spades", never "7 black spade suit"; a seat's own hand is a named group."""
    render = renderer_for(game_id).render
    players = player_counts(game_id)[0]
    rnd = random.Random(f"named/{game_id}")
    state = pyengine.new_game(game_id, players, 4, valid_options(game_id, players, rnd))
    cards_seen = 0
    for step, position in enumerate(playout(state, rnd, 60)):
        if step % 6 or position.is_terminal():
            continue
        seat = position.current_player
        view = position.view(seat) | {"names": [f"P{i}" for i in range(players)], "you": seat}
        named = Named()
        named.feed(render(view, None))
        assert any("hand" in label.lower() for label in named.groups), f"no named hand at step {step}"
        for label in named.cards:  # a control keeps the card it shows: "Q♡ (queen of hearts)"
            words = re.sub(r"\S+ \((\w+ of \w+|joker)\)", "", label or "")
            assert label and not any(suit in words for suit in "♣♢♡♠"), f"card named {label!r}"
        cards_seen += len(named.cards)
    assert cards_seen or game_id == "carbon-city-zero"  # its cards have names, not ranks and suits


# ----------------------------------------------------------------------------------- Carbles: the ring


class RingParts(HTMLParser):
    """The Carbles ring: each place's classes and centre, the marble drawn in each place, the recent paths."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.places: dict[str, dict[str, str]] = {}
        self.centres: dict[str, tuple[float, float]] = {}
        self.marbles: dict[str, str] = {}
        self.routes: list[tuple[str, list[str]]] = []
        self.targets: list[dict[str, str | None]] = []
        self.place: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if "data-action" in values or "data-select" in values:
            self.targets.append({"tag": tag, **values})
        if tag == "g" and "data-place" in values:
            self.place = str(values["data-place"])
            assert self.place not in self.places, f"{self.place} drawn twice"
            self.places[self.place] = {k: v or "" for k, v in values.items()}
        elif tag == "circle" and "cbl-spot" in (values.get("class") or "") and self.place:
            self.centres[self.place] = (float(values["cx"] or 0), float(values["cy"] or 0))
        elif tag == "g" and "cbl-marble" in (values.get("class") or ""):
            key = str(values["data-marble"])
            assert key not in self.marbles, f"marble {key} drawn twice"
            self.marbles[key] = str(self.place)
        elif tag == "path" and values.get("data-route"):
            self.routes.append((str(values["data-marble"]), str(values["data-route"]).split()))

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.place = None


def ring_parts(html: str) -> RingParts:
    parser = RingParts()
    parser.feed(html)
    parser.close()
    return parser


def carbles_recent(state: pyengine.State) -> dict[int, list[dict]]:
    """``view["recent"]`` built by hand from the log: each seat's latest turn (a split 7: several entries)."""
    recent: dict[int, list[dict]] = {}
    previous = None
    for entry in state.log():
        if entry.seat is None:
            continue
        carries_on = previous is not None and previous.seat == entry.seat and previous.facts.get("left")
        recent[entry.seat] = [*recent[entry.seat], dict(entry.facts)] if carries_on else [dict(entry.facts)]
        previous = entry
    return recent


def carbles_game(players: int, seed: int, actions: int) -> Iterator[pyengine.State]:
    """A Carbles game that moves on: out and forward moves are preferred to random ones."""
    rnd = random.Random(f"ring/{players}/{seed}")
    state = pyengine.new_game("carbles", players, seed, {}, rules_version="1")  # the deals these tests were made on
    for _ in range(actions):
        if state.is_terminal():
            return
        yield state
        texts = state.legal_texts()
        moving = [t for t in texts if t.endswith(" out") or "+" in t]
        state = state.apply(rnd.choice(moving if moving and rnd.random() < 0.9 else texts))
    yield state


@pytest.mark.parametrize("players", range(1, 13))
def test_carbles_ring_draws_every_place_and_marble_once(players: int) -> None:
    render = renderer_for("carbles").render
    names = [f"Player {p + 1}" for p in range(players)]
    size = 18 * players
    for step, state in enumerate(carbles_game(players, 1, 30 * players)):
        if step % (5 * players):
            continue
        seat = state.current_player if state.current_player is not None else 0
        view = state.view(seat) | {"names": names, "you": seat, "recent": carbles_recent(state)}
        parts = ring_parts(render(view, None))
        track = [f"t{n}" for n in range(size)]
        goals = [f"{p}:g{k}" for p in range(players) for k in range(4)]
        lots = [f"{p}:lot{k}" for p in range(players) for k in range(4)]
        assert sorted(parts.places) == sorted(track + goals + lots)
        for p in range(players):
            assert f"cbl-home seat-{p}" in parts.places[f"t{view['homes'][p]}"]["class"]
            assert f"cbl-entry seat-{p}" in parts.places[f"t{view['entries'][p]}"]["class"]
        # every marble once, where the view says (a lot marble in its own lot place)
        expected = {f"{p}.{i}": carbles_key(loc, i) for p, locations in enumerate(view["marbles"]) for i, loc in
                    enumerate(locations)}
        assert all(key.startswith(("t", f"{m.split('.')[0]}:")) for m, key in expected.items()), "its own goal, lot"
        assert parts.marbles == expected
        # the track is a circle, walked clockwise space after space, the viewer's stretch at the bottom
        centres = [parts.centres[t] for t in track]
        radii = [math.dist(c, (500, 500)) for c in centres]
        assert max(radii) - min(radii) < 0.2
        angles = [math.atan2(y - 500, x - 500) for x, y in centres]
        for a, b in zip(angles, angles[1:] + angles[:1], strict=True):
            assert math.isclose((b - a) % (2 * math.pi), 2 * math.pi / size, abs_tol=1e-3)
        middle = centres[18 * seat + 9]
        assert middle[1] > 500 + 0.9 * radii[0]
        # every target can be reached by the keyboard and has a name
        for target in parts.targets:
            if target["tag"] != "button":
                assert target.get("role") == "button" and target.get("tabindex") == "0" and target.get("aria-label")


@pytest.mark.parametrize("players", [4, 8, 12])
def test_every_carbles_ring_target_has_its_button_and_a_crowded_marble_no_tap(players: int) -> None:
    """A finger cannot tell the places of a crowded ring apart, so each place or marble to tap on the ring has an
    equivalent button under it (the same ``data-action`` or ``data-select``); a marble the chosen card cannot move
    says why on a tap only where a finger has room around it."""
    from cardtable_web.renderers.carbles import TRY_LEAST, Pick

    render = renderer_for("carbles").render
    names = [f"Player {p + 1}" for p in range(players)]
    checked = crowded = 0
    for step, state in enumerate(carbles_game(players, 3, 12 * players)):
        if step % 3 or state.current_player is None:
            continue
        seat = state.current_player
        view = state.view(seat) | {"names": names, "you": seat, "recent": carbles_recent(state)}
        cards = {m["card"] for m in view["moves"].values() if m["kind"] != "burn"}
        for card in sorted(cards):
            marbles = {tuple(m["marble"]) for m in view["moves"].values() if m["card"] == card and "marble" in m}
            for marble in [None, *sorted(marbles)]:
                html = render(view, Pick(card=card, marble=marble))
                ring, side = html.split("</svg>", 1)
                for attribute in ("data-action", "data-select"):
                    on_ring = set(re.findall(f'{attribute}="([^"]*)"', ring))
                    buttons = set(re.findall(f'<button[^>]*{attribute}="([^"]*)"', side))
                    assert on_ring <= buttons, f"{card} {marble}: no button for {on_ring - buttons}"
                    checked += len(on_ring)
                groups = re.findall(r'<g class="cbl-place[^"]*" data-place="(t[^"]*)"([^>]*)>(.*?)</g>', ring)
                for _, attributes, inside in groups:  # the track's places
                    if "data-try" in attributes:
                        radius = float(re.search(r'class="cbl-hit"[^>]* r="([0-9.]+)"', inside).group(1))
                        assert radius >= TRY_LEAST - 0.05
                    elif 'class="cbl-marble' in inside and "data-" not in attributes and marble is None:
                        crowded += 1  # while a card is chosen, a marble it cannot move and no tap says why
    assert checked, "no ring target was looked at"
    assert crowded or players < 8, "no marble was too crowded for a tap that says why"


def carbles_key(place: dict, marble: int) -> str:
    """A view's place as the ring names it: ``t5`` on the track, ``2:g1`` in player 3's goal, ``2:lot1`` the
    place of marble 2 (``marble`` 1) in player 3's lot."""
    if "track" in place:
        return f"t{place['track']}"
    if "goal" in place:
        owner, slot = place["goal"]
        return f"{owner}:g{slot}"
    return f"{place['lot']}:lot{marble}"


def next_on_track(a: str, b: str, size: int, back: bool) -> bool:
    return a.startswith("t") and b.startswith("t") and (int(b[1:]) - int(a[1:])) % size == (size - 1 if back else 1)


@pytest.mark.parametrize("players", [1, 2, 5, 12])
def test_carbles_recent_paths_follow_the_track(players: int) -> None:
    """Each seat's last turn is drawn as each moved marble's path: space after space, into the goal by its entry."""
    render = renderer_for("carbles").render
    names = [f"Player {p + 1}" for p in range(players)]
    size = 18 * players
    kinds: set[str] = set()
    goals = 0
    for step, state in enumerate(carbles_game(players, 2, 40 * players)):
        if step % 6:
            continue
        recent = carbles_recent(state)
        view = state.view(None) | {"names": names, "you": None, "recent": recent}
        routes = ring_parts(render(view, None)).routes
        moved = [(facts, step) for _, entries in sorted(recent.items()) for facts in entries for step in facts["moved"]]
        assert len(routes) == len(moved)
        for (key, keys), (facts, step) in zip(routes, moved, strict=True):
            p, i = step["marble"]
            assert key == f"{p}.{i}"
            kinds.add(facts["kind"])
            start, end = carbles_key(step["from"], i), carbles_key(step["to"], i)
            assert (keys[0], keys[-1]) == (start, end)
            if facts["kind"] in ("out", "partner_out", "swap"):
                assert len(keys) == 2
                continue
            back = facts["kind"] == "back"
            goals += end.startswith(f"{p}:g") and not start.startswith(f"{p}:g")
            for a, b in zip(keys, keys[1:], strict=False):
                into_goal = a == f"t{view['entries'][p]}" and b == f"{p}:g0"
                along_goal = a.startswith(f"{p}:g") and b == f"{p}:g{int(a[-1]) + 1}"
                assert next_on_track(a, b, size, back) or into_goal or along_goal, f"{a} -> {b} in {keys}"
            assert len(keys) - 1 == facts.get("steps", len(keys) - 1)
    assert {"out", "move"} <= kinds, kinds
    assert goals or players == 1, "some path leads into a goal lane"


def carbles_unrolled_figure() -> str:
    """The rules page's unrolled figure: the named position "board" (six players) cut open into strips."""
    from cardtable_web.renderers import carbles

    state = pyengine.core.named_position("carbles", "board")
    return str(carbles.unrolled(state.view(None) | {"names": [f"Player {p + 1}" for p in range(6)], "you": None}))


def test_carbles_rules_page_keeps_the_unrolled_figure_of_its_board() -> None:
    """The rules page shows the ring of its first example, then the same board unrolled (a static figure)."""
    page = (ROOT / "web" / "rules" / "carbles.html").read_text()
    live = '<div class="live-position" data-position="board"></div>\n'
    assert live + carbles_unrolled_figure() in page, "regenerate the figure: python3 -m tests.test_renderers"


if __name__ == "__main__":  # rewrite the rules page's unrolled figure after a change to the renderer
    rules = ROOT / "web" / "rules" / "carbles.html"
    text = rules.read_text()
    start = text.index('<div class="live-position" data-position="board"></div>\n')
    start += len('<div class="live-position" data-position="board"></div>\n')
    end = text.index("</figure>\n", start) + len("</figure>\n") if text[start:].startswith("<figure") else start
    rules.write_text(text[:start] + carbles_unrolled_figure() + text[end:])


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_every_table_has_a_key_to_its_symbols(game: str) -> None:
    """A legend under a visible summary says what each symbol on the table means (touch screens show no
    tooltips); it offers nothing to click but its summary, and every symbol it names is drawn on some table."""
    legend = drawing.legend_html(game)
    assert legend.startswith('<details class="legend"><summary>What the marks mean</summary>')
    assert legend.count("<dt>") >= 4 and legend.count("<dt>") == legend.count("<dd>")
    assert "data-action" not in legend and "data-select" not in legend and "data-try" not in legend
