"""The address is the game; games kept in the browser; replay (no DOM)."""

from __future__ import annotations

import json
import random

import pytest
from cardtable_web import address
from cardtable_web.keeping import (
    HISTORY_KEY,
    KEPT_PREFIX,
    PUT_ASIDE_KEY,
    SAVES_KEY,
    Keeper,
    MemoryStorage,
    extends,
    game_key,
    line_of,
    statistics,
    summary,
)
from cardtable_web.replay import Replay
from cardtable_web.session import Session
from cardtable_web.setup import Seat, Setup

import pyengine
from tests.playouts import valid_options


def session_after(game: str, players: int, seed: int, steps: int, computers: int = 1) -> Session:
    rnd = random.Random(seed)
    seats = [Seat(False)] * (players - computers) + [Seat(True, "easy")] * computers
    session = Session(Setup(game, players, seed, seats, valid_options(game, players, rnd), 250))
    for _ in range(steps):
        if session.state.is_terminal():
            break
        session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
    return session


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_an_address_holds_the_whole_game(game: str) -> None:
    info = pyengine.GAMES[game]
    for players in {info.min_players, min(info.max_players, 4)}:
        session = session_after(game, players, 9, 40, computers=players // 2)
        fragment = address.encode(session)
        again = address.decode(fragment)
        assert again.state == session.state and again.state.record() == session.state.record()
        assert again.setup.seats == session.setup.seats and again.setup.delay == 250
        assert address.encode(again) == fragment
        assert len(fragment) < 600, "the address stays compact"


def test_bad_addresses_name_what_is_wrong() -> None:
    good = address.encode(session_after("silver-bars", 2, 3, 10))
    assert "bots=1&level=easy" in good, "the fragment names computer seats as the query does"
    old = good.replace("bots=1&level=easy", "seats=h.ce")
    for bad, words in [
        ("game=chess", "no game"),
        (good.replace(f"v={pyengine.GAMES['silver-bars'].rules_version}", "v=0"), "version"),
        (good.replace("bots=1", "bots=2"), "computer seats"),
        (good.replace("level=easy", "level=genius"), "level"),
        (good + "&bots=0", "twice"),
        (good.replace("players=2", "players=\u0662"), "players"),
        (old.replace("seats=h.ce", "seats=h.cz"), "seat"),
        (old.replace("seats=h.ce", "seats=h"), "seats"),
        (good + ".zz", "move"),
        (good + ".0" * pyengine.GAMES["silver-bars"].max_actions(2), "more moves than a game of 100 Silver Bars"),
        (good.replace("seed=3", "seed=x"), "seed"),
        (good.replace("seed=3", "seed=" + "9" * 5000), "seed"),
    ]:
        with pytest.raises(ValueError, match=words) as refused:
            address.decode(bad)
        assert len(str(refused.value)) < 300, "a bad value is quoted briefly"


def test_a_fragment_written_before_the_bots_rule_still_opens() -> None:
    seats = [Seat(False), Seat(True, "easy")]
    session = Session(Setup("silver-bars", 2, 3, seats, {"thief": "lowest-placeable"}, 250))
    for _ in range(10):
        session.state = session.state.apply(session.state.legal_texts()[0])
    fragment = address.encode(session)
    options = '{"thief":"lowest-placeable"}'
    old = fragment.replace("bots=1&level=easy", "seats=h.ce").replace("thief=lowest-placeable", f"options={options}")
    assert "seats=h.ce" in old and "options=" in old
    again = address.decode(old)
    assert again.state == address.decode(fragment).state and again.setup.seats == session.setup.seats


def test_kept_games_are_never_overwritten_by_another_line() -> None:
    keeper = Keeper(MemoryStorage())
    session = session_after("carbondale", 2, 4, 6)
    first = keeper.keep(session)
    assert first.ok and first.token
    session.state = session.state.apply(session.state.legal_texts()[0])
    later = keeper.keep(session, last_kept=first.token)
    assert later.ok, "the same game further on replaces its kept position"
    other_tab = address.decode(address.encode(session_after("carbondale", 2, 4, 6)))
    other_tab.state = other_tab.state.apply(other_tab.state.legal_texts()[-1])
    if line_of(other_tab) != later.token:
        refused = keeper.keep(other_tab)
        assert refused.conflict and not refused.ok
        assert keeper.moved_elsewhere(other_tab, None)
    assert keeper.saves()[game_key(session)]["line"] == later.token
    assert keeper.load(game_key(session)).state == session.state
    assert not keeper.moved_elsewhere(session, later.token)
    another = session_after("silver-bars", 2, 1, 3)
    assert keeper.keep(another).ok
    assert len(keeper.saves()) == 2, "a second game does not replace the first"
    entry = keeper.saves()[game_key(another)]
    assert entry["title"] == "100 Silver Bars" and entry["against"] == "against Computer (easy)"
    assert entry["progress"] == "round 1"


def test_a_kept_game_is_its_record() -> None:
    storage = MemoryStorage()
    keeper = Keeper(storage)
    session = session_after("cardcassonne", 3, 2, 12)
    keeper.keep(session)
    key = game_key(session)
    stored = json.loads(storage.items[KEPT_PREFIX + key])
    assert stored["record"] == session.record() and stored["delay"] == 250
    assert [s["computer"] for s in stored["seats"]] == [False, False, True]
    assert address.encode(keeper.load(key)) == address.encode(session)


def test_the_key_names_the_options() -> None:
    """The same address with another option is another game (it does not resume the kept one)."""
    seats = [Seat(False), Seat(True, "easy")]
    plain = Session(Setup("silver-bars", 2, 5, seats))
    other = Session(Setup("silver-bars", 2, 5, seats, {"thief": "lowest-placeable"}))
    assert game_key(plain) != game_key(other)
    assert game_key(plain) == "silver-bars:5:h.ce", "a game with the default options keeps its earlier key"


def test_a_finished_game_moves_into_the_history_and_the_statistics() -> None:
    keeper = Keeper(MemoryStorage())
    session = session_after("silver-bars", 2, 2, 100_000)
    assert session.state.is_terminal()
    keeper.keep(session_after("silver-bars", 2, 2, 5))
    assert keeper.finish(session, "You win!").ok
    assert keeper.finish(session, "You win!").ok
    history = keeper.history()
    assert len(history) == 1 and history[0]["result"] == "You win!" and history[0]["levels"] == ["easy"]
    assert history[0]["record"] == session.record()
    assert game_key(session) not in keeper.saves()
    assert keeper.finished(0).state == session.state
    table = statistics(history)
    assert table["100 Silver Bars"]["played"] == 1
    lobby = keeper.lobby_summary()
    assert lobby["kept"] == []
    assert lobby["finished"][0]["text"].startswith("100 Silver Bars against Computer (easy): You")
    assert lobby["statistics"][0][:2] == ["100 Silver Bars", "1"]


def test_full_or_broken_storage_is_survived() -> None:
    keeper = Keeper(MemoryStorage(quota=10))
    session = session_after("carbles", 2, 1, 3)
    kept = keeper.keep(session)
    assert not kept.ok and "cannot keep" in kept.message
    broken = MemoryStorage()
    broken.setItem(SAVES_KEY, "{not json")
    broken.setItem(HISTORY_KEY, json.dumps(["odd"]))
    keeper = Keeper(broken)
    assert keeper.saves() == {} and keeper.history() == []
    aside = json.loads(broken.items[PUT_ASIDE_KEY])
    assert [a["text"] for a in aside] == ["{not json", "odd"], "an unreadable save is kept aside"


def test_extends() -> None:
    assert extends("1.2.3", "1.2") and extends("1.2", "1.2") and extends("1", "")
    assert not extends("1.3", "1.2") and not extends("1.22", "1.2")


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_a_replay_steps_to_the_end_and_back(game: str) -> None:
    session = session_after(game, pyengine.GAMES[game].min_players, 5, 100_000, computers=0)
    replay = Replay(session.state, session.names, 0)
    assert replay.index == replay.last == len(session.state.history())
    assert replay.view()["scores"] == session.state.scores()
    replay.go(0)
    assert replay.view()["moves"] == {} and "the start" in replay.caption()
    replay.go(replay.last + 5)
    assert replay.index == replay.last
    html = replay.log_html()
    assert html.count('data-ui="jump"') == replay.last + 1


def test_a_take_back_in_this_tab_is_kept() -> None:
    keeper = Keeper(MemoryStorage())
    session = session_after("carbondale", 2, 4, 6)
    before = session.state
    first = keeper.keep(session)
    session.state = session.state.apply(session.state.legal_texts()[0])
    second = keeper.keep(session, last_kept=first.token)
    assert second.ok
    session.state = before
    assert keeper.keep(session, last_kept=second.token).ok, "going back from what this tab kept is allowed"
    session.state = session.state.apply(session.state.legal_texts()[-1])
    assert keeper.keep(session, last_kept="something else").ok, "the kept line extends to this one"


def test_replay_controls() -> None:
    session = session_after("silver-bars", 2, 6, 30, computers=0)
    replay = Replay(session.state, session.names, 0)
    assert replay.control("replay-first", 0) and replay.index == 0
    assert replay.control("replay-forward", 0) and replay.index == 1
    assert replay.control("jump", 5) and replay.index == 5
    assert replay.control("replay-back", 0) and replay.index == 4
    assert replay.control("replay-seat", 1) and replay.seat == 1
    replay.control("replay-last", 0)
    assert replay.control("replay-play", 0) and replay.playing and replay.index == 0, "play at the end starts over"
    assert not replay.control("share", 0)


def test_a_solo_game_is_named_so() -> None:
    assert summary(session_after("carbon-city-zero", 1, 2, 3, computers=0))["against"] == "solo"
    assert summary(session_after("carbles", 3, 2, 3, computers=0))["against"] == "3 players on this device"


def test_a_replay_speaks_to_the_one_human_as_the_table_did() -> None:
    """Against the computer the human is "You": the replay's caption and log say "You win", "your network"."""
    session = session_after("carbondale", 2, 5, 100_000, computers=1)
    assert session.you == 0 and session.names[0] == "You"
    replay = Replay(session.state, session.names, 0, session.you)
    words = replay.caption() + replay.log_html()
    assert "You wins" not in words and "You's" not in words and "You builds" not in words
    assert "You build" in words
