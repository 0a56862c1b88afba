"""Hostile and clumsy input: every bad record, position or setting is refused with a short ``ValueError``
(or ``RefusedAction``) naming what is wrong, or accepted with the contract intact."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from cardtable_web.keeping import OLD_CURRENT_KEY, PUT_ASIDE, Keeper, MemoryStorage
from cardtable_web.session import Session
from cardtable_web.setup import Setup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyengine
from pyengine import RefusedAction, Rng
from pyengine.core import named_position, rules_for
from tests.playouts import play_on, playout, valid_options

GAME_IDS = list(pyengine.GAMES)
SHORT = 700
"""Messages for bad input stay this short whatever was given (a notation's examples may fill some of it)."""


def short_error(call: Callable[[], object], kind: type[Exception] = ValueError) -> str:
    with pytest.raises(kind) as caught:
        call()
    message = str(caught.value)
    assert len(message) < SHORT, f"a {len(message)}-character message: {message[:120]}…"
    return message


# -- the engine's edges ---------------------------------------------------------------------------------------------


def test_deep_huge_and_odd_json_is_refused_briefly() -> None:
    assert "deeper" in short_error(lambda: pyengine.from_json("[" * 100_000))
    assert "longer than" in short_error(lambda: pyengine.from_json('{"seed": 1' + "0" * 5_000 + "}"))
    short_error(lambda: pyengine.from_json("x" * 1_000_000))
    short_error(lambda: pyengine.from_json(None))  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_record_fields_are_checked_and_named(game_id: str) -> None:
    info = pyengine.GAMES[game_id]
    state = pyengine.new_game(game_id, info.min_players, 3)
    record = state.record()
    assert "'options'" in short_error(lambda: pyengine.replay({**record, "options": None}))
    assert "'players'" in short_error(lambda: pyengine.replay({**record, "players": 10**6}))
    assert "'options'" in short_error(lambda: pyengine.replay({**record, "options": {"x" * 10_000: 1}}))
    assert "'seed'" in short_error(lambda: pyengine.replay({**record, "seed": "7" * 100_000}))
    assert "'position'" in short_error(lambda: pyengine.replay({**record, "position": {"bogus": [1] * 1000}}))
    short_error(lambda: pyengine.replay({**record, "actions": ["x" * 1_000_000]}))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_actions_with_huge_numbers_are_illegal_not_crashes(game_id: str) -> None:
    info = pyengine.GAMES[game_id]
    rnd = random.Random(2)
    state = play_on(pyengine.new_game(game_id, info.min_players, 2, valid_options(game_id, info.min_players, rnd)),
                    rnd, 3)
    for text in [t for t in state.legal_texts() if any(c.isdigit() for c in t)][:10]:
        digits = "".join("9" * 5_000 if c.isdigit() else c for c in text)
        short_error(lambda digits=digits: state.apply(digits), RefusedAction)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seats_and_generators_are_checked(game_id: str) -> None:
    info = pyengine.GAMES[game_id]
    state = pyengine.new_game(game_id, info.min_players, 4)
    for seat in (99, -1, True, "0", 0.5):
        short_error(lambda seat=seat: state.view(seat))  # type: ignore[arg-type]
        short_error(lambda seat=seat: state.sample_hidden(seat, 1))  # type: ignore[arg-type]
    for generator in ("seed", 1.5, None, True):
        short_error(lambda generator=generator: state.sample_hidden(0, generator))  # type: ignore[arg-type]
    state.sample_hidden(0, Rng.from_seed(1))


# -- positions and records, mutated -----------------------------------------------------------------------------------

ODD_VALUES: list[Any] = [None, -1, 99, 0.5, 10**6, "", "5♡", "x" * 200, [], {}, [[]], True, 2**70]


def mutations(value: Any, rnd: random.Random) -> Any:
    """``value`` with one random leaf replaced, a list item duplicated or dropped, or a key removed."""
    value = copy.deepcopy(value)
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in list(node):
                paths.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for i in range(len(node)):
                paths.append((node, i))
                walk(node[i])

    walk(value)
    if not paths:
        return rnd.choice(ODD_VALUES)
    parent, key = rnd.choice(paths)
    move = rnd.randrange(4)
    if move == 0:
        parent[key] = rnd.choice(ODD_VALUES)
    elif move == 1 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif move == 2 and isinstance(parent, list):
        del parent[key]
    elif move == 3 and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = [parent[key]] * rnd.randrange(2, 60)
    return value


def holds_the_contract(state: pyengine.State, rnd: random.Random, steps: int = 25) -> None:
    """An accepted state plays on: actions exist until the end, one score per seat, views are JSON."""
    for later in playout(state, rnd, steps):
        assert len(later.scores()) == later.players
        for seat in [None, *range(later.players)]:
            json.dumps(later.view(seat))
        assert bool(later.legal_actions()) != later.is_terminal()


POSITIONED = [g for g in GAME_IDS if rules_for(g).positions]


@pytest.mark.parametrize("game_id", POSITIONED)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_mutated_positions_are_refused_or_sound(game_id: str, seed: int) -> None:
    rnd = random.Random(seed)
    rules = rules_for(game_id)
    named = rules.positions[rnd.choice(list(rules.positions))]
    position = dict(named.position)
    for _ in range(rnd.randrange(1, 4)):
        position = mutations(position, rnd)
    if not isinstance(position, dict):
        position = {"cards": position}
    try:
        state = pyengine.new_game(game_id, named.players, seed, dict(named.options), position)
    except ValueError as exc:
        assert len(str(exc)) < SHORT
        return
    holds_the_contract(state, rnd)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_mutated_records_are_refused_or_sound(game_id: str, seed: int) -> None:
    rnd = random.Random(seed)
    if rules_for(game_id).positions and rnd.random() < 0.3:
        start = named_position(game_id, rnd.choice(list(rules_for(game_id).positions)))
    else:
        info = pyengine.GAMES[game_id]
        players = rnd.randint(info.min_players, min(info.max_players, 4))
        start = pyengine.new_game(game_id, players, seed, valid_options(game_id, players, rnd))
    record = play_on(start, rnd, rnd.randrange(0, 30)).record()
    for _ in range(rnd.randrange(1, 3)):
        record = mutations(record, rnd)
    try:
        state = pyengine.replay(record)
    except ValueError as exc:
        assert len(str(exc)) < SHORT
        return
    holds_the_contract(state, rnd, 10)


# -- the page's settings and saves ------------------------------------------------------------------------------------

GOOD = {"game": "silver-bars", "players": 2, "seed": 5, "bots": [1], "level": "easy"}


@pytest.mark.parametrize(
    "change,words",
    [
        ({"delay": None}, "delay"),
        ({"delay": "abc"}, "delay"),
        ({"delay": 10**9}, "delay"),
        ({"level": "bogus"}, "level"),
        ({"players": 100_000}, "players"),
        ({"players": True}, "players"),
        ({"bots": [1, 1]}, "twice"),
        ({"bots": [7]}, "seat"),
        ({"seed": 1e5}, "seed"),
        ({"seed": "12abc"}, "seed"),
        ({"seed": "1" * 41}, "seed"),
        ({"seed": "9" * 5_000}, "seed"),
        ({"options": {"nonsense": 1}}, "option"),
        ({"options": {"thief": "x" * 100_000}}, "thief"),
        ({"game": "x" * 100_000}, "no game"),
    ],
)
def test_bad_settings_get_one_short_message(change: dict[str, Any], words: str) -> None:
    assert words in short_error(lambda: Setup.from_json(json.dumps({**GOOD, **change})))


def test_a_huge_number_is_refused_in_words() -> None:
    """A number past Python's own limit on digits is named in the site's words, never Python's."""
    text = json.dumps(GOOD)[:-1] + ', "delay": 1' + "0" * 5_000 + "}"
    said = short_error(lambda: Setup.from_json(text))
    assert "digits" not in said.lower() or "set_int_max_str_digits" not in said, said
    assert "sys." not in said and "Exceeds" not in said, said


def test_seeds_are_exact_whole_numbers() -> None:
    assert Setup.from_json(json.dumps({**GOOD, "seed": str(2**53 + 1)})).seed == 2**53 + 1
    assert Setup.from_json(json.dumps({**GOOD, "seed": "1" * 23})).seed == int("1" * 23)
    assert Setup.from_json(json.dumps({**GOOD, "seed": -4})).seed == -4


@pytest.mark.parametrize(
    "save",
    [
        "[" * 100_000,
        "{}",
        '{"record": null, "seats": []}',
        json.dumps({"record": {"game": "silver-bars"}, "seats": []}),
        "not json at all",
    ],
)
def test_unreadable_saves_are_put_aside(save: str) -> None:
    """An earlier version's save of the game on the table that does not read is put aside, never loaded."""
    storage = MemoryStorage()
    storage.setItem(OLD_CURRENT_KEY, save)
    keeper = Keeper(storage)
    assert keeper.migrate() == PUT_ASIDE
    assert storage.getItem(OLD_CURRENT_KEY) is None
    (aside,) = keeper.aside()
    assert aside["from"] == OLD_CURRENT_KEY and aside["reason"] and aside["text"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # no timing on a busy machine
@given(
    st.dictionaries(
        st.sampled_from(["game", "players", "seed", "bots", "level", "levels", "options", "delay", "other"]),
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                  st.lists(st.integers(-2, 5), max_size=4), st.dictionaries(st.text(max_size=5), st.integers())),
    )
)
def test_any_settings_give_a_setup_or_a_value_error(data: dict[str, Any]) -> None:
    try:
        setup = Setup.from_json(json.dumps({**GOOD, **data}))
    except ValueError as exc:
        assert len(str(exc)) < SHORT
        return
    Session(setup)


# -- huge numbers and deep nesting at every door, refused in the site's words -------------------------------------

NINES = "9" * 5_000
PYTHON_WORDS = ("Exceeds the limit", "set_int_max_str_digits", "Traceback", "sys.", "Error")


def in_site_words(text: str) -> str:
    assert not any(words in text for words in PYTHON_WORDS), text
    assert len(text) < 2 * SHORT, text
    return text


@pytest.mark.parametrize(
    ("fragment", "words"),
    [
        pytest.param(f"lesson=carbles&step={NINES}", "steps 1 to", id="lesson-step-of-5000-nines"),
        pytest.param(f"lesson={NINES}", "no lesson", id="lesson-of-5000-nines"),
        pytest.param(f"game=carbles&v=2&players=2&seed={NINES}", "seed", id="seed-of-5000-nines"),
        pytest.param(f"game=carbles&v=2&players={NINES}&seed=1", "players", id="players-of-5000-nines"),
        pytest.param(f"game=carbles&v=2&players=2&seed=1&takebacks={NINES}", "take-back", id="takebacks"),
        pytest.param(f"game=carbles&v=2&players=2&seed=1&delay={NINES}", "pause", id="delay"),
        pytest.param(f"game=carbles&v=2&players=2&seed=1&moves={NINES}", "move 1", id="moves"),
        pytest.param(f"game=carbles&v={NINES}&players=2&seed=1", "version", id="version"),
        pytest.param("game=carbondale&v=2&players=2&seed=1&position=" + "[" * 3_000, "deeper", id="deep-position"),
        pytest.param(f'game=carbondale&v=2&players=2&seed=1&position={{"x":{NINES}}}', "digits", id="huge-in-position"),
    ],
)
def test_hostile_addresses_are_refused_in_the_sites_words(fragment: str, words: str) -> None:
    from cardtable_web.controller import TableController
    from cardtable_web.effects import LobbyError

    control = TableController(Keeper(MemoryStorage()))
    errors = [e.text for e in control.open_address("#" + fragment) if isinstance(e, LobbyError)]
    assert errors and words in in_site_words(errors[0]), errors


@pytest.mark.parametrize(
    ("command", "words"),
    [
        pytest.param('{"type": "load", "id": 1, "position": ' + "[" * 3_000 + "]" * 3_000 + "}", "deeper",
                     id="position-3000-deep"),
        pytest.param('{"type": "load", "id": 1, "position": ' + '{"a":' * 3_000 + "1" + "}" * 3_001, "deeper",
                     id="object-3000-deep"),
        pytest.param(f'{{"type": "load", "id": 1, "record": {{"seed": {NINES}}}}}', "digits", id="huge-seed"),
        pytest.param(f'{{"type": "play", "id": 1, "action": {NINES}}}', "digits", id="huge-action"),
        pytest.param(f'{{"type": "load", "id": {NINES}}}', "digits", id="huge-id"),
        pytest.param(json.dumps(json.dumps({"type": "load"})), "not its JSON text", id="json-text"),
    ],
)
def test_hostile_embed_commands_are_refused_in_the_sites_words(command: str, words: str) -> None:
    from cardtable_web.effects import Post
    from cardtable_web.embed_controller import EmbedController

    control = EmbedController()
    control.open_address("?game=carbondale&position=figure-1", 3)
    (error,) = [e.event for e in control.command(command) if isinstance(e, Post)]
    assert error["type"] == "error" and words in in_site_words(error["message"]), error


@pytest.mark.parametrize(
    "query",
    [f"?game=carbles&players={NINES}", f"?game=carbles&seed={NINES}", f"?game=carbles&seat={NINES}&interactive=1",
     "?game=carbondale&position=" + "[" * 3_000, f'?game=carbles&record={{"seed":{NINES}}}',
     f"?game=carbles&delay={NINES}"],
    ids=["players", "seed", "seat", "deep-position", "huge-record-seed", "delay"],
)
def test_hostile_embed_addresses_are_refused_in_the_sites_words(query: str) -> None:
    from cardtable_web.effects import Post
    from cardtable_web.embed_controller import EmbedController

    posts = [e.event for e in EmbedController().open_address(query, 3) if isinstance(e, Post)]
    assert posts and posts[0]["type"] == "error", posts
    in_site_words(posts[0]["message"])
