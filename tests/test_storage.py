"""The browser's storage read like hostile input: every stored entry is checked, a bad one is put aside with a message
in words, and the rest keeps working. Earlier versions' saves still load."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from cardtable_web import address, stored
from cardtable_web.aside import words as aside_words
from cardtable_web.keeping import (
    HISTORY_KEY,
    KEPT_PREFIX,
    LOBBY_KEY,
    MAX_DEPTH,
    OLD_CURRENT_KEY,
    OLD_LAST_KEY,
    OLD_UNREADABLE_KEY,
    PUT_ASIDE,
    PUT_ASIDE_KEY,
    SAVES_KEY,
    Keeper,
    MemoryStorage,
    game_key,
    statistics,
    statistics_rows,
    too_deep,
)
from cardtable_web.session import Session
from cardtable_web.setup import Seat, Setup

NOW = 1_700_000_000.0


def played(game: str = "carbondale", seed: int = 4, steps: int = 6, players: int = 2) -> Session:
    seats = [Seat(False)] + [Seat(True, "easy")] * (players - 1)
    session = Session(Setup(game, players, seed, seats, {}, 0))
    rnd = random.Random(seed)
    for _ in range(steps):
        if session.state.is_terminal():
            break
        session.state = session.state.apply(rnd.choice(session.state.legal_texts()))
    return session


def finished(game: str = "silver-bars", seed: int = 2) -> Session:
    return played(game, seed, 100_000)


GOOD_SAVE = {"updated": 1, "game": "carbondale", "moves": 1, "line": "0", "title": "T", "against": "a",
             "progress": "p"}
GOOD_FINISHED = {"date": 1, "game": "silver-bars", "title": "T", "against": "a", "result": "r", "won": True,
                 "levels": ["easy"], "takebacks": 0, "record": {}}

HOSTILE_SAVES: list[str] = [
    "[" * 100_000,
    "{" * 5_000,
    '{"a":' * 70 + "1" + "}" * 70,
    "x" * 6_000_000,
    "{not json",
    "1e999999",
    "9" * 5_000,
    "null",
    '"text"',
    "[]",
    json.dumps({"x": {**GOOD_SAVE, "updated": "yesterday"}}),
    json.dumps({"x": {**GOOD_SAVE, "updated": None}}),
    json.dumps({"x": {**GOOD_SAVE, "updated": -5}}),
    json.dumps({"x": {**GOOD_SAVE, "updated": 1e300}}),
    json.dumps({"x": {**GOOD_SAVE, "title": ["T"]}}),
    json.dumps({"x": {**GOOD_SAVE, "title": "T" * 10_000}}),
    json.dumps({"x": {**GOOD_SAVE, "line": "<script>"}}),
    json.dumps({"x": {**GOOD_SAVE, "line": None}}),
    json.dumps({"x": {**GOOD_SAVE, "moves": "many"}}),
    json.dumps({"x": "an entry"}),
    json.dumps({"x": [1, 2]}),
    json.dumps({"x": None}),
    json.dumps({"k" * 1_000: GOOD_SAVE}),
    json.dumps({"x": {"address": 7, "updated": 1}}),
    json.dumps({"x": {"address": "game=chess", "updated": 1, "title": "T", "against": "a", "progress": "p"}}),
    json.dumps({"x": {"address": "game=silver-bars&v=1&players=2&seats=h.ce&seed=5&moves=zz.zz", "updated": 1,
                      "title": "T", "against": "a", "progress": "p"}}),
]

HOSTILE_HISTORY: list[str] = [
    '[{"address":"x","title":"T","levels":{"length":1}}]',
    "[" * 100_000,
    '{"a": 1}',
    '[1, 2, "x", null, [], true]',
    json.dumps([{**GOOD_FINISHED, "date": "now"}]),
    json.dumps([{**GOOD_FINISHED, "levels": ["godlike"]}]),
    json.dumps([{**GOOD_FINISHED, "levels": "easy"}]),
    json.dumps([{**GOOD_FINISHED, "won": "yes"}]),
    json.dumps([{**GOOD_FINISHED, "takebacks": -1}]),
    json.dumps([{**GOOD_FINISHED, "title": {"x": 1}}]),
    json.dumps([{**GOOD_FINISHED, "result": "r" * 10_000}]),
    json.dumps([{k: v for k, v in GOOD_FINISHED.items() if k != "record"}]),
    json.dumps([GOOD_FINISHED] * 200),
]


def hostile_storage(saves: str | None = None, history: str | None = None) -> MemoryStorage:
    storage = MemoryStorage()
    if saves is not None:
        storage.setItem(SAVES_KEY, saves)
    if history is not None:
        storage.setItem(HISTORY_KEY, history)
    return storage


def still_works(keeper: Keeper) -> None:
    """A game is kept, listed, loaded, finished and counted, whatever else the storage held."""
    session = played()
    kept = keeper.keep(session, NOW)
    assert kept.ok, kept.message
    assert keeper.load(game_key(session)).state == session.state
    lobby = keeper.lobby_summary()
    assert any(row["key"] == game_key(session) for row in lobby["kept"])
    done = finished()
    assert keeper.finish(done, "You win!", NOW).ok
    assert keeper.history()[0]["result"] == "You win!"
    assert keeper.finished(0).state == done.state
    json.loads(keeper.storage.getItem(LOBBY_KEY))


@pytest.mark.parametrize("text", HOSTILE_SAVES, ids=range(len(HOSTILE_SAVES)))
def test_a_hostile_saves_entry_is_put_aside_and_the_rest_works(text: str) -> None:
    storage = hostile_storage(saves=text)
    keeper = Keeper(storage, clock=lambda: NOW)
    good = played("silver-bars", 9, 3)
    if text.startswith("{") and not text.startswith("{{") and len(text) < 100_000 and not text.startswith('{"a"'):
        mixed = json.loads(text) if text != "{not json" else None
        if isinstance(mixed, dict):  # the bad entry among good ones: only it goes
            keeper.keep(good)
            stored = json.loads(storage.items[SAVES_KEY])
            storage.setItem(SAVES_KEY, json.dumps({**stored, **mixed}))
    assert isinstance(keeper.saves(), dict)
    assert keeper.migrate() in (None, PUT_ASIDE)
    still_works(keeper)
    if game_key(good) in json.loads(storage.items[SAVES_KEY]):
        assert keeper.load(game_key(good)).state == good.state
    if text != "[]":
        assert storage.items.get(PUT_ASIDE_KEY), "the bad entry was put aside, not lost"
        assert keeper.lobby_summary()["aside"] == aside_words(len(keeper.aside())), "the lobby says how many"


@pytest.mark.parametrize("text", HOSTILE_HISTORY, ids=range(len(HOSTILE_HISTORY)))
def test_a_hostile_history_is_put_aside_and_the_rest_works(text: str) -> None:
    storage = hostile_storage(history=text)
    keeper = Keeper(storage, clock=lambda: NOW)
    assert keeper.migrate() == PUT_ASIDE
    still_works(keeper)
    statistics(keeper.history())


def test_a_bad_date_among_good_games_does_not_stop_pruning() -> None:
    """One save with ``"updated": "yesterday"`` once made every new game fail in the pruning."""
    storage = MemoryStorage()
    keeper = Keeper(storage)
    for seed in range(25):
        session = played("silver-bars", seed, 2)
        assert keeper.keep(session, NOW + seed).ok
        if seed == 3:
            saves = json.loads(storage.items[SAVES_KEY])
            saves["bad"] = {**GOOD_SAVE, "updated": "yesterday"}
            storage.setItem(SAVES_KEY, json.dumps(saves))
    saves = keeper.saves()
    assert len(saves) == 20 and "bad" not in saves
    assert sum(1 for key in storage.items if key.startswith(KEPT_PREFIX)) == 20, "a pruned game's record goes too"
    assert "yesterday" in storage.items[PUT_ASIDE_KEY]


def test_a_bad_kept_record_is_put_aside_when_loaded() -> None:
    storage = MemoryStorage()
    keeper = Keeper(storage)
    session = played()
    keeper.keep(session)
    key = game_key(session)
    for text in ["[" * 100_000, '{"record": {"game": "chess"}, "seats": []}', '{"record": 5}', "nul"]:
        keeper.keep(session)
        storage.setItem(KEPT_PREFIX + key, text)
        with pytest.raises(ValueError, match="could not be read and was put aside"):
            keeper.load(key)
        assert key not in keeper.saves()
    assert len(json.loads(storage.items[PUT_ASIDE_KEY])) == 4


def test_put_aside_entries_can_be_exported_and_cleared() -> None:
    storage = hostile_storage(saves="{not json")
    keeper = Keeper(storage)
    assert keeper.migrate() == PUT_ASIDE
    exported = json.loads(keeper.export_put_aside())
    assert exported[0]["text"] == "{not json" and exported[0]["from"] == SAVES_KEY and exported[0]["reason"]
    keeper.clear_put_aside()
    assert keeper.export_put_aside() == "" and keeper.lobby_summary()["aside"] == ""
    storage.setItem(PUT_ASIDE_KEY, "[" * 100_000)  # the list of what was put aside is itself unreadable
    assert json.loads(keeper.export_put_aside())[0]["text"] == "[" * 100_000
    keeper.put_aside("somewhere", "more", "a reason")
    assert len(json.loads(keeper.export_put_aside())) == 2


def test_storage_that_throws_or_returns_odd_things() -> None:
    class Broken:
        def getItem(self, key: str) -> Any:  # noqa: N802
            raise RuntimeError("SecurityError")

        def setItem(self, key: str, value: str) -> None:  # noqa: N802
            raise RuntimeError("SecurityError")

        def removeItem(self, key: str) -> None:  # noqa: N802
            raise RuntimeError("SecurityError")

    keeper = Keeper(Broken())
    assert keeper.migrate() is None and keeper.saves() == {} and keeper.history() == []
    kept = keeper.keep(played())
    assert not kept.ok and "cannot keep" in kept.message

    class Odd(MemoryStorage):
        def getItem(self, key: str) -> Any:  # noqa: N802
            return 12345

    keeper = Keeper(Odd())
    assert keeper.saves() == {} and keeper.keep(played()).ok


def test_depth_is_measured_without_reading() -> None:
    assert too_deep("[" * 100_000) and too_deep("{" * 5_000)
    assert not too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH) and too_deep("[" * (MAX_DEPTH + 1))
    assert not too_deep(json.dumps(["[" * 1_000, "{\"\\\"[[[["]))  # brackets inside strings do not count



def test_depth_is_measured_by_the_brackets_outside_strings_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long entry costs one step of the Python loop per bracket that counts: the brackets in its strings (a
    hostile entry's bulk) are dropped by string methods before the loop."""
    steps = 0
    brackets = stored._BRACKET

    class Counting:
        def finditer(self, text: str) -> Iterator[re.Match[str]]:
            nonlocal steps
            for found in brackets.finditer(text):
                steps += 1
                yield found

    monkeypatch.setattr(stored, "_BRACKET", Counting())
    assert not too_deep(json.dumps([{"actions": ["play 7♣ to a [1,2]"] * 500}] * 200))
    assert steps == 2 + 200 * 4  # the list, and per entry its object and its list of actions
    steps = 0
    assert not too_deep(json.dumps(["[" * 100_000, "{" * 100_000]))
    assert steps == 2


# -- earlier versions' saves ---------------------------------------------------------------------------------------


def old_address_entry(session: Session, updated: int) -> dict[str, Any]:
    """An unfinished game as earlier versions kept it: its address (with ``seats=`` and ``options={...}``)."""
    fragment = address.encode(session)
    computers = [i for i, s in enumerate(session.setup.seats) if s.computer]
    seats = ".".join("ce" if i in computers else "h" for i in range(session.state.players))
    if computers:
        fragment = fragment.replace("&bots=" + ",".join(map(str, computers)) + "&level=easy", "&seats=" + seats)
    else:
        fragment = fragment.replace("&moves=", f"&seats={seats}&moves=")
    return {"address": fragment, "updated": updated, "game": session.setup.game, "moves": 6, "title": "T",
            "against": "against Computer (easy)", "progress": "round 1"}


def test_an_old_address_save_still_loads_and_moves_to_todays_form() -> None:
    storage = MemoryStorage()
    first, second = played("carbondale", 4), played("carbles", 5)
    old = {"carbondale:4:h.ce": old_address_entry(first, 5), "carbles:5:h.ce": old_address_entry(second, 7)}
    assert "seats=h.ce" in old["carbondale:4:h.ce"]["address"]
    storage.setItem(SAVES_KEY, json.dumps(old))
    storage.setItem(HISTORY_KEY, json.dumps([{"address": address.encode(finished()), "date": 3, "game": "silver-bars",
                                              "title": "100 Silver Bars", "against": "against Computer (easy)",
                                              "progress": "round 3", "result": "You win!", "won": True,
                                              "levels": ["easy"], "takebacks": 0}]))
    keeper = Keeper(storage)
    assert keeper.load("carbondale:4:h.ce").state == first.state, "an old entry loads before it is migrated"
    assert keeper.migrate() is None
    saves = keeper.saves()
    assert set(saves) == {game_key(first), game_key(second)}
    assert all("line" in entry for entry in saves.values())
    assert saves[game_key(first)]["updated"] == 5, "the game keeps its date"
    assert keeper.load(game_key(second)).state == second.state
    assert keeper.finished(0).state == finished().state, "an old finished game replays from its address"
    assert [row["text"] for row in keeper.lobby_summary()["finished"]] == [
        "100 Silver Bars against Computer (easy): You win!"]
    assert keeper.migrate() is None and set(keeper.saves()) == set(saves), "migrating again changes nothing"


def test_an_old_current_game_save_is_migrated_once() -> None:
    storage = MemoryStorage()
    session = played("cardcassonne", 3, 8, players=3)
    old = {"record": session.record(), "viewer": 0, "delay": 250,
           "seats": [{"computer": s.computer, "level": s.level} for s in session.setup.seats]}
    storage.setItem(OLD_CURRENT_KEY, json.dumps(old))
    storage.setItem(OLD_LAST_KEY, json.dumps(old))
    storage.setItem(OLD_UNREADABLE_KEY, "something earlier versions could not read")
    keeper = Keeper(storage)
    assert keeper.migrate() == PUT_ASIDE, "what earlier versions put aside is said once"
    assert OLD_CURRENT_KEY not in storage.items and OLD_LAST_KEY not in storage.items
    assert OLD_UNREADABLE_KEY not in storage.items
    loaded = keeper.load(game_key(session))
    assert loaded.state == session.state and loaded.setup.delay == 250 and loaded.setup.seats == session.setup.seats
    assert keeper.migrate() is None, "once"


def test_an_unreadable_current_game_is_put_aside() -> None:
    for text in ["[" * 100_000, '{"record": {"game": "silver-bars"}, "seats": "all"}', "{" * 70, "[]"]:
        storage = MemoryStorage()
        storage.setItem(OLD_CURRENT_KEY, text)
        keeper = Keeper(storage)
        assert keeper.migrate() == PUT_ASIDE
        assert OLD_CURRENT_KEY not in storage.items
        assert json.loads(storage.items[PUT_ASIDE_KEY])[0]["text"] == text
        still_works(keeper)


# -- statistics ------------------------------------------------------------------------------------------------------


def test_statistics_count_games_wins_levels_and_take_backs() -> None:
    history = [
        {"title": "Carbles", "won": True, "levels": ["easy"], "takebacks": 0},
        {"title": "Carbles", "won": False, "levels": ["easy", "hard"], "takebacks": 2},
        {"title": "Carbles", "won": None, "levels": [], "takebacks": 0},
        {"title": "Carbon City Zero", "won": True, "levels": [], "takebacks": 1, "against": "solo"},
    ]
    table = statistics(history)
    assert table["Carbles"]["played"] == 3 and table["Carbles"]["won"] == 1 and table["Carbles"]["takebacks"] == 1
    assert table["Carbles"]["levels"] == {"easy": {"played": 2, "won": 1}, "hard": {"played": 1, "won": 0},
                                          "between people": {"played": 1, "won": 0}}
    assert statistics_rows(table) == [
        ["Carbles", "3", "1", "easy: won 1 of 2, hard: won 0 of 1, between people: 1 played", "1"],
        ["Carbon City Zero", "1", "1", "solo: won 1 of 1", "1"],
    ]


def test_the_lobby_summary_is_written_for_the_next_visit() -> None:
    storage = MemoryStorage()
    keeper = Keeper(storage, clock=lambda: NOW)
    session = played("silver-bars", 1, 3)
    keeper.keep(session)
    keeper.finish(finished(), "You win!")
    lobby = json.loads(storage.items[LOBBY_KEY])
    assert lobby == keeper.lobby_summary()
    text = "Your turn in 100 Silver Bars against Computer (easy), round 1"
    assert lobby["kept"] == [{"key": game_key(session), "text": text, "updated": int(NOW * 1000)}]
    assert lobby["finished"][0]["index"] == 0 and lobby["statistics"][0][0] == "100 Silver Bars"
    keeper.discard(game_key(session))
    assert json.loads(storage.items[LOBBY_KEY])["kept"] == []
    assert KEPT_PREFIX + game_key(session) not in storage.items


def test_a_finished_game_the_history_cannot_take_stays_kept() -> None:
    class NoRoomForHistory(MemoryStorage):
        def setItem(self, key: str, value: str) -> None:  # noqa: N802
            if key == HISTORY_KEY:
                raise OSError("QuotaExceededError")
            super().setItem(key, value)

    storage = NoRoomForHistory()
    keeper = Keeper(storage)
    done = finished()
    keeper.keep(played("silver-bars", 2, 5))
    result = keeper.finish(done, "You win!")
    assert not result.ok and "storage is full" in result.message
    assert game_key(done) in keeper.saves(), "the game is not lost"


def test_a_move_does_not_read_the_history() -> None:
    """Every finished game's record is in the history: keeping a move, and starting the page, read none of it."""

    class Counting(MemoryStorage):
        def __init__(self) -> None:
            super().__init__()
            self.reads: list[str] = []

        def getItem(self, key: str) -> str | None:  # noqa: N802
            self.reads.append(key)
            return super().getItem(key)

    storage = Counting()
    keeper = Keeper(storage)
    keeper.finish(finished(), "You win!")
    session = played("silver-bars", 1, 3)
    storage.reads.clear()
    Keeper(storage).migrate()
    kept = keeper.keep(session)
    session.state = session.state.apply(session.state.legal_texts()[0])
    keeper.keep(session, last_kept=kept.token)
    assert HISTORY_KEY not in storage.reads
    assert keeper.lobby_summary(finished=False)["statistics"][0][0] == "100 Silver Bars"


# -- the shapes that once cost time growing with the square of the bad entries, or threw good entries out ---------


def test_a_deep_entry_among_good_finished_games_goes_aside_alone() -> None:
    """One finished game nested 100 deep among good ones: only it is put aside; the good games stay listed and
    counted, and the lobby says how many entries were put aside."""
    storage = MemoryStorage()
    keeper = Keeper(storage, clock=lambda: NOW)
    done = finished()
    assert keeper.finish(done, "You win!", NOW).ok
    good = json.loads(storage.items[HISTORY_KEY])[0]
    deep = "[" * 100 + "]" * 100
    storage.setItem(HISTORY_KEY, "[" + ",".join([json.dumps(good), deep, json.dumps(good), deep]) + "]")
    history = keeper.history()
    assert len(history) == 2 and all(entry["result"] == "You win!" for entry in history)
    assert len(keeper.aside()) == 2 and all(entry["text"] == deep for entry in keeper.aside())
    lobby = keeper.lobby_summary()
    assert lobby["aside"] == "2 saved entries could not be read and were put aside."
    assert len(lobby["finished"]) == 2 and lobby["statistics"][0][1] == "2"
    assert keeper.history() == history and len(keeper.aside()) == 2, "what was put aside is put aside once"


def test_many_bad_entries_are_put_aside_in_one_write() -> None:
    """Thousands of bad entries: the put-aside list is read and written once, not once per entry, and stays
    within its caps (the rest only counted)."""
    storage = MemoryStorage()
    writes: list[str] = []
    set_item = storage.setItem
    storage.setItem = lambda key, value: (writes.append(key), set_item(key, value))[1]  # type: ignore[method-assign]
    storage.items[HISTORY_KEY] = json.dumps([{**GOOD_FINISHED, "date": "now"}] * 4_000 + [GOOD_FINISHED])
    storage.items[SAVES_KEY] = json.dumps({f"k{i}": {**GOOD_SAVE, "updated": "then"} for i in range(4_000)})
    keeper = Keeper(storage, clock=lambda: NOW)
    assert keeper.history() == [] and keeper.saves() == {}
    assert writes.count(PUT_ASIDE_KEY) == 2, writes.count(PUT_ASIDE_KEY)
    aside = keeper.aside()
    assert len(aside) <= 100 and sum(len(entry.get("text", "")) for entry in aside) <= 1_000_000
    assert keeper.lobby_summary()["aside"].startswith("8,001 saved entries"), "the lobby counts every entry"


def test_a_hostile_history_of_400001_entries_leaves_a_usable_lobby() -> None:
    """A huge history beside a deep saves entry: the first 50 games are read, the rest put aside as one."""
    storage = MemoryStorage()
    storage.items[HISTORY_KEY] = "[" + ",".join(["1"] * 400_001) + "]"
    storage.items[SAVES_KEY] = '{"a":' * 100_000
    keeper = Keeper(storage, clock=lambda: NOW)
    keeper.migrate()
    assert keeper.history() == [] and keeper.saves() == {}
    still_works(keeper)


def test_an_orphaned_kept_game_is_listed_again_or_reclaimed() -> None:
    """A kept game that no summary names: listed again when it reads and goes on; else put aside and its room
    given back (a 2,000,000-character entry no longer holds the storage unseen)."""
    storage = MemoryStorage()
    keeper = Keeper(storage, clock=lambda: NOW)
    session = played()
    assert keeper.keep(session, NOW).ok
    key = game_key(session)
    del storage.items[SAVES_KEY]
    storage.items[KEPT_PREFIX + "carbondale:1:h.ce"] = json.dumps({"record": {}, "x": "y" * 2_000_000})
    keeper = Keeper(storage, clock=lambda: NOW)
    keeper.migrate()
    assert key in keeper.saves() and keeper.load(key).state == session.state, "a readable orphan is listed again"
    assert KEPT_PREFIX + "carbondale:1:h.ce" not in storage.items, "an unreadable orphan gives its room back"
    assert len(keeper.aside()) == 1 and len(storage.items[PUT_ASIDE_KEY]) < 200_000
