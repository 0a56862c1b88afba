"""The table session (no DOM): seats, hand-over between humans, computer moves, saving."""

from __future__ import annotations

import json

import pytest
from cardtable_web import drawing
from cardtable_web.keeping import session_from, the_game
from cardtable_web.registry import renderer_for
from cardtable_web.session import Session
from cardtable_web.setup import Seat, Setup

import pyengine

TWO_PLAYER_GAMES = [g for g, i in pyengine.GAMES.items() if i.min_players <= 2 <= i.max_players]


def setup_json(game: str, **extra: object) -> str:
    return json.dumps({"game": game, "players": 2, "seed": 7, **extra})


@pytest.mark.parametrize("game", TWO_PLAYER_GAMES)
def test_hotseat_hands_the_device_over_between_humans(game: str) -> None:
    session = Session(Setup.from_json(setup_json(game, bots=[])))
    assert session.viewer is None and session.needs_handover()
    assert "Pass the device" in drawing.handover_html(session)
    session.take_device()
    first = session.state.current_player
    assert session.viewer == first and not session.needs_handover()
    while session.state.current_player == first:
        session.act(session.state.legal_texts()[0])
    if session.state.current_player is not None:
        assert session.viewer is None, "the next human's cards wait behind the hand-over screen"
        assert session.needs_handover()


@pytest.mark.parametrize("game", TWO_PLAYER_GAMES)
def test_against_the_computer_no_handover_and_no_acting_out_of_turn(game: str) -> None:
    session = Session(Setup.from_json(setup_json(game, bots=[1], level="easy")))
    assert session.viewer == 0 and not session.needs_handover()
    steps = 0
    while not session.state.is_terminal() and steps < 40:
        if session.computer_to_move():
            with pytest.raises(pyengine.IllegalAction, match="not your turn"):
                session.act(session.state.legal_texts()[0])
            bot = session.bots[session.state.current_player]
            session.computer_move(bot.choose(session.state))
        else:
            session.act(session.state.legal_texts()[-1])
        steps += 1
        assert session.viewer == 0
        drawing.table_html(session)
        drawing.status_html(session.feed(), session.setup.game)


@pytest.mark.parametrize("game", TWO_PLAYER_GAMES[:1])
def test_bad_settings_give_player_messages(game: str) -> None:
    with pytest.raises(ValueError, match="no game called"):
        Setup.from_json(json.dumps({"game": "chess", "players": 2, "seed": 1}))
    with pytest.raises(ValueError, match="players"):
        Setup.from_json(setup_json(game, players=99))
    with pytest.raises(ValueError, match="seed"):
        Setup.from_json(json.dumps({"game": game, "players": 2, "seed": "x"}))
    with pytest.raises(ValueError, match="computer seats"):
        Setup.from_json(setup_json(game, bots=[5]))
    with pytest.raises(ValueError, match="level"):
        Setup.from_json(setup_json(game, bots=[1], level="genius"))


@pytest.mark.parametrize("game", TWO_PLAYER_GAMES)
def test_a_saved_game_resumes_exactly(game: str) -> None:
    session = Session(Setup(game, 2, 3, [Seat(False), Seat(True, "easy")]))
    for _ in range(6):
        if session.state.is_terminal():
            break
        if session.computer_to_move():
            session.computer_move(session.bots[session.state.current_player].choose(session.state))
        else:
            session.act(session.state.legal_texts()[0])
    again = session_from(json.loads(json.dumps(the_game(session))))
    assert again.state == session.state and again.setup.seats == session.setup.seats
    assert again.viewer == 0


def test_scores_say_what_they_count_when_not_points() -> None:
    """Carbon City Zero's shared score is the carbon cut so far, in words; plain points are plain numbers."""
    ccz = Session(Setup.from_json(json.dumps({"game": "carbon-city-zero", "players": 1, "seed": 3})))
    assert "<b>no carbon cut yet</b>" in drawing.status_html(ccz.feed(), ccz.setup.game)
    words = renderer_for("carbon-city-zero").score_words
    assert (words(6), words(-3), words(0)) == ("cut 6 carbon", "added 3 carbon", "no carbon cut yet")
    bars = Session(Setup.from_json(setup_json("silver-bars")))
    status = drawing.status_html(bars.feed(), bars.setup.game)
    assert "<b>0</b>" in status and "carbon" not in status


def test_words_come_from_one_place() -> None:
    """Names and grammar are resolved once: "You win", "your", "Computer 2 wins"."""
    session = Session(Setup("silver-bars", 2, 3, [Seat(False), Seat(True, "easy")]))
    assert session.say("{0} {0:wins} with {0:poss} vaults") == "You win with your vaults"
    assert session.say("{1} {1:wins} with {1:poss} vaults") == "Computer 2 (easy) wins with Computer 2 (easy)'s vaults"
    assert session.feed().headline == "Your turn"
    hotseat = Session(Setup("silver-bars", 2, 3, [Seat(False), Seat(False)]))
    assert hotseat.say("{1} {1:deals}") == "Player 2 deals"


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_the_whole_log_is_in_words(game: str) -> None:
    """The page gets the whole log (not only the latest lines), with no placeholder or "Player N" left for "you"."""
    info = pyengine.GAMES[game]
    players = max(2, info.min_players)
    seats = [Seat(False)] + [Seat(True, "easy")] * (players - 1)
    session = Session(Setup(game, players, 5, seats))
    import random

    rnd = random.Random(5)
    for _ in range(150):
        if session.state.is_terminal():
            break
        session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
    lines = session.log_lines()
    assert len(lines) == len(session.state.history())
    for line in lines:
        assert "{" not in line and "Player 1" not in line and "You's" not in line and "You wins" not in line, line


def test_the_banner_tells_the_last_computers_whole_turn() -> None:
    from cardtable_web.drawing import banner

    session = Session(Setup("carbondale", 3, 5, [Seat(False), Seat(True, "easy"), Seat(True, "easy")]))
    while session.state.current_player == 0:
        session.act(session.state.legal_texts()[-1])
    since = len(session.state.history())
    assert banner(session, since) == ""
    while session.computer_to_move():
        session.computer_move(session.bots[session.state.current_player].choose(session.state))
    line = banner(session, since)
    last = session.state.log()[-1]
    entries = session.state.log()[since:]
    first_of_turn = next((i for i in range(len(entries) - 1, -1, -1) if entries[i].seat != last.seat), -1) + 1
    turn = entries[first_of_turn:]
    name = session.names[last.seat]
    assert line.startswith(session.say(turn[0].text)), "the turn's first step is said whole, with its name"
    assert line.count(name) == session.say(turn[0].text).count(name), "the name is said once"
    for entry in turn[1:]:  # each further step, without the name
        assert session.say(entry.text).removeprefix(name + " ") in line
