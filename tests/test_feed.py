"""One door per seat: everything a seat receives comes from :func:`cardtable_web.feed.feed_for`, so the check that
nothing hidden leaves the engine runs on that one function, for every game of the registry: a seat's whole feed
(its view, the public log said for it, each seat's latest turn, the headline) is the same when every card the seat
cannot see is re-dealt."""

from __future__ import annotations

import json
import random

import pytest
from cardtable_web.feed import Ask, feed_for, headline, names_for, sentence
from cardtable_web.registry import SITE_GAMES
from cardtable_web.trail import Trail

import pyengine
from pyengine.words import say, seat_names


def fed(state: pyengine.State, seat: int | None, ask: Ask | None = None) -> str:
    """A seat's whole feed as the wire carries it (JSON)."""
    names = seat_names(state.players)
    trail = Trail(lambda text: say(text, names, seat))
    feed = feed_for(state, names, set(), seat, seat, trail, shown_names=names_for(names, seat), ask=ask)
    return json.dumps([feed.view, feed.log, feed.headline, feed.moves, feed.seat, feed.you], sort_keys=True,
                      ensure_ascii=False, default=str)


def positions(game: str, rnd: random.Random) -> list[pyengine.State]:
    """A few positions of a random game of ``game`` at each of its player counts."""
    info = pyengine.GAMES[game]
    found = []
    for players in range(info.min_players, info.max_players + 1):
        state = pyengine.new_game(game, players, rnd.randrange(10_000), {})
        for step in range(rnd.randrange(40, 120)):
            if state.is_terminal():
                break
            if step % 13 == 5:
                found.append(state)
            state = state.apply(rnd.choice(state.legal_actions()))
        found.append(state)
    return found


@pytest.mark.parametrize("game", list(SITE_GAMES))
def test_nothing_hidden_leaves_the_engine_through_the_door(game: str) -> None:
    rnd = random.Random(game)
    checked = 0
    for state in positions(game, rnd):
        for seat in range(state.players):
            redealt = state.sample_hidden(seat, rnd.randrange(1_000))
            assert fed(redealt, seat) == fed(state, seat), f"{game}: seat {seat}'s feed shows a hidden card"
            checked += 1
    assert checked >= 4


def test_the_check_finds_a_seat_fed_another_seats_view() -> None:
    """The check above can fail: a door that gave seat 1 the view of seat 0 shows seat 0's hand."""
    state = pyengine.new_game("silver-bars", 2, 4, {})
    redealt = state.sample_hidden(1, 5)
    assert fed(redealt, 0) != fed(state, 0)


def test_a_feed_offers_moves_only_when_asked_and_names_its_own_seat_you() -> None:
    state = pyengine.new_game("carbles", 2, 3, {})
    seat = state.current_player
    assert seat is not None
    names = seat_names(2)
    offered = feed_for(state, names, set(), seat, seat, Trail(lambda text: text), shown_names=names_for(names, seat))
    shown = feed_for(state, names, set(), seat, seat, Trail(lambda text: text), offer=False)
    assert offered.view["moves"] and shown.view["moves"] == {}
    assert offered.view["names"][seat] == "You" and shown.view["names"] == names
    assert offered.headline == "Your turn" and offered.ask is None


def test_the_headline_and_sentences() -> None:
    state = pyengine.new_game("silver-bars", 2, 4, {})
    current = state.current_player
    assert current is not None
    names = ["Ann", "Bob"]
    assert headline(state, names, {current}, None) == f"{names[current]} is thinking…"
    assert headline(state, names, set(), None) == f"{names[current]} to play"
    assert sentence("it is not your turn") == "It is not your turn."
    assert sentence("Done!") == "Done!" and sentence("") == ""
