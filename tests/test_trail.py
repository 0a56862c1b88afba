"""The page follows a game move by move: texts, address codes and log lines made once each, equal to remaking them."""

from __future__ import annotations

import random

import pytest
from cardtable_web.session import Session
from cardtable_web.setup import Seat, Setup

import pyengine


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_the_trail_equals_the_whole_game_remade(game: str) -> None:
    info = pyengine.GAMES[game]
    players = info.min_players
    session = Session(Setup(game, players, 3, [Seat(False)] * players))
    rnd = random.Random(game)
    for step in range(60):
        if session.state.is_terminal():
            break
        if step == 40 and session.can_take_back():
            session.take_back()
        else:
            session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
        record = session.record()
        assert record == session.state.record()
        assert session.log_lines() == [session.say(e.text) for e in session.state.log()]
        steps = zip(session.state.history(), session.trail.codes, strict=True)
        assert [before.legal_texts()[int(code, 36)] for (before, _), code in steps] == record["actions"]
