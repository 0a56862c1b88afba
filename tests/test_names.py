"""Players' names: given once in the lobby (and for each seat of friends on one device), cleaned and cut, kept with
the game in the browser and never in an address, said at the table and in the log, and passed to other devices."""

from __future__ import annotations

import json
import random

import pytest
from cardtable_web import address, drawing
from cardtable_web.keeping import Keeper, MemoryStorage, game_key, summary
from cardtable_web.session import Session
from cardtable_web.setup import MAX_NAME, clean_name, read_setup

import pyengine
from tests.test_remote import BUILD, Table


@pytest.mark.parametrize(("typed", "kept"), [
    ("Ann", "Ann"), ("  Ann   Lee ", "Ann Lee"), ("x" * 50, "x" * MAX_NAME), ("{0} {1:poss}", "0 1:poss"),
    ("A\u202enn\u0000\n", "Ann"), (None, ""), (7, ""), ("<b>Bo</b>", "<b>Bo</b>"),
])
def test_a_name_is_one_short_line_without_placeholders(typed: object, kept: str) -> None:
    assert clean_name(typed) == kept


def named(game: str, players: int, bots: list[int], names: list[str]) -> Session:
    return Session(read_setup({"game": game, "players": players, "seed": 4, "bots": bots, "delay": 0,
                               "names": names}))


def test_seats_are_named_by_the_players_and_computers_keep_their_own_names() -> None:
    session = named("carbondale", 3, [2], ["Ann", "", "Cy"])
    assert session.names == ["Ann", "Player 2", "Computer 3 (normal)"]
    assert named("silver-bars", 2, [1], []).names == ["You", "Computer 2 (normal)"]
    with pytest.raises(ValueError, match="at most 2 names"):
        named("silver-bars", 2, [1], ["a", "b", "c"])
    with pytest.raises(ValueError, match="list"):
        read_setup({"game": "silver-bars", "players": 2, "seed": 1, "names": "Ann"})


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_names_are_said_at_the_table_and_in_the_log_as_escaped_text(game: str) -> None:
    info = pyengine.GAMES[game]
    players = max(2, info.min_players)
    session = named(game, players, [], ["<i>Ann</i>", "Ben & co"][:players])
    rnd = random.Random(game)
    for _ in range(40):
        if session.state.is_terminal():
            break
        session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
    session.viewer = session.state.current_player
    html = drawing.status_html(session.feed(), game) + drawing.table_html(session)
    html += drawing.log_items(session.log_lines())
    assert "<i>Ann</i>" not in html, "a name is never markup"
    assert "&lt;i&gt;Ann&lt;/i&gt;" in html or "Ben &amp; co" in html
    assert any("<i>Ann</i>" in line or "Ben & co" in line for line in session.log_lines())


def test_names_are_kept_with_the_game_and_never_written_into_an_address() -> None:
    keeper = Keeper(MemoryStorage())
    session = named("carbles", 2, [], ["Ann", "Ben"])
    keeper.keep(session)
    assert "Ann" not in address.encode(session) and "Ann" not in address.sealed(session)
    loaded = keeper.load(game_key(session))
    assert loaded.names == ["Ann", "Ben"]
    assert summary(loaded)["against"] == "Ann and Ben on this device"
    assert keeper.lobby_summary()["kept"][0]["text"].startswith(("Ann's turn in Carbles", "Ben's turn in Carbles"))
    kept_key = next(k for k in keeper.storage.items if k.startswith("cardtable.kept."))
    stored = json.loads(keeper.storage.getItem(kept_key))
    stored["names"] = [{"x": 1}, "Ben", "Cy", "Dee"]  # tampered: the game still loads, its seats keep their own names
    keeper.storage.setItem(kept_key, json.dumps(stored))
    assert keeper.load(game_key(session)).names == ["Player 1", "Player 2"]


def test_against_the_computer_your_turn_is_said_first() -> None:
    session = named("silver-bars", 2, [1], ["Ann"])
    while session.state.current_player != 0:
        session.state = session.state.apply(session.state.legal_actions()[0])
    assert summary(session)["turn"] == "your turn"
    keeper = Keeper(MemoryStorage())
    keeper.keep(session)
    assert keeper.lobby_summary()["kept"][0]["text"].startswith("Your turn in 100 Silver Bars against Computer")


def test_names_reach_the_guests_and_a_guest_names_its_own_seat() -> None:
    table = Table("carbondale", 3, seed=2)
    table.host.session.setup.names = ["Hal", "", "Gus"]
    table.host.session.names = table.host.session.setup.seat_names()
    assert table.invitations[1]["host"] == "Player 1"  # the invitation names its host (named here only after it)
    table.run(table.hosting.reply(table.invitations[1]["token"], BUILD, 0, "Zoë{0}\u202e"))
    table.run(table.hosting.reply(table.invitations[2]["token"], BUILD, 0, "Impostor"))
    assert table.host.session.names == ["Hal", "Zoë0", "Gus"], "the host's names stand; a guest names its own seat"
    screen = table.guest_screen(2)
    assert "Hal" in screen.status_html and "Zoë0" in screen.status_html and ">You<" in screen.status_html
