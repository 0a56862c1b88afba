"""The computer's worker side: it follows a game by its record and decides as the page's own bot does."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from cardtable_web.session import Session
from cardtable_web.setup import Seat, Setup

import pyengine
from pyengine import ai
from pyengine.thinker import Thinker

GAMES = list(pyengine.GAMES)


def session_with_computers(game: str, seed: int) -> Session:
    players = max(2, pyengine.GAMES[game].min_players)
    seats = [Seat(False)] + [Seat(True, "easy")] * (players - 1)  # a budget far below its time cap
    return Session(Setup(game, players, seed, seats, {}, 0))


@pytest.mark.parametrize("game", GAMES)
def test_the_worker_decides_what_the_page_would(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same record, same seat, same seed: the worker's choice is the page bot's choice, move after move
    (with the iteration budget alone ending the search, as on a machine that is not overloaded)."""
    monkeypatch.setitem(ai.LEVELS, "easy", dataclasses.replace(ai.LEVELS["easy"], max_seconds=None))
    session = session_with_computers(game, 5)
    rnd = random.Random(game)
    thinker = Thinker()
    compared = 0
    while compared < 4 and not session.state.is_terminal():
        seat = session.state.current_player
        if session.computer_to_move() and len(session.state.legal_texts()) > 1:
            reply = json.loads(thinker.decide(session.think_request(seat)))
            assert reply["actions"] == len(session.state.history())
            page_choice = session.bots[seat].choose(session.state)
            assert reply["action"] == str(page_choice)
            assert reply["iterations"] > 0 and session.bots[seat].iterations_done > 0
            compared += 1
        session.state = session.state.apply(rnd.choice(session.state.legal_texts()))
    assert compared or session.state.is_terminal()


def test_following_a_game_applies_only_new_actions_and_starts_again_after_a_take_back() -> None:
    state = pyengine.new_game("silver-bars", 2, 3)
    rnd = random.Random(1)
    thinker = Thinker()
    for _ in range(12):
        state = state.apply(rnd.choice(state.legal_texts()))
        followed = thinker.follow(state.record())
        assert followed == state
    kept = thinker.state
    assert thinker.follow(state.record()) is kept, "nothing new: nothing applied"
    earlier = state.history()[5][0].with_takebacks(1)
    assert thinker.follow(earlier.record()) == earlier
    other = pyengine.new_game("silver-bars", 2, 4)
    assert thinker.follow(other.record()) == other


@pytest.mark.parametrize(
    ("request_json", "message"),
    [
        ("[]", "a request is an object"),
        ('{"record": 1}', "a request is an object"),
        ('{"record": {"actions": "x"}, "bot": "easy", "seed": 1}', "'actions' must be a list"),
        ('{"record": {"actions": []}, "bot": "easy", "seed": true}', "whole-number 'seed'"),
        ('{"record": {"actions": []}, "seed": 1}', "names its 'bot'"),
        ('{"record": {"actions": []}, "bot": "easy", "seed": 1}', "record field"),
        ("{", "JSON"),
    ],
)
def test_bad_requests_say_what_is_wrong(request_json: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Thinker().decide(request_json)


def test_unknown_bots_and_finished_games_are_refused() -> None:
    state = pyengine.new_game("silver-bars", 2, 3)
    request = {"record": state.record(), "bot": "genius", "seed": 1}
    with pytest.raises(ValueError, match="unknown computer player"):
        Thinker().decide(json.dumps(request))
    rnd = random.Random(2)
    while not state.is_terminal():
        state = state.apply(rnd.choice(state.legal_texts()))
    with pytest.raises(ValueError, match="the game is over"):
        Thinker().decide(json.dumps({"record": state.record(), "bot": "easy", "seed": 1}))
