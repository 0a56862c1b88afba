"""The one reader of a game's setup: the lobby's settings, an address's query, and a game's fragment (old and new)."""

from __future__ import annotations

import json

import pytest
from cardtable_web import address
from cardtable_web.session import Session
from cardtable_web.setup import (
    DEFAULT_DELAY_MS,
    MAX_QUERY,
    Seat,
    Setup,
    lobby_from_query,
    query_fields,
    read_setup,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import pyengine

FRESH = 4242



def setup_from_query(query: str, fresh_seed: int) -> Setup:
    """The setup an address's query starts (the page's path, :func:`lobby_from_query`); ``ValueError`` with the
    lobby's message when it starts nothing."""
    setup, _, error = lobby_from_query(query, fresh_seed)
    if setup is None:
        raise ValueError(error or "this address names no game")
    return setup

def test_a_query_gives_the_setup_it_names() -> None:
    setup = setup_from_query("?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0&thief=lowest-placeable",
                             FRESH)
    assert setup == Setup("silver-bars", 2, 7, [Seat(False), Seat(True, "easy")],
                          {"thief": "lowest-placeable"}, 0, chosen=True)
    assert setup_from_query("game=carbles", FRESH) == Setup("carbles", 2, FRESH, [Seat(False), Seat(False)], {},
                                                           DEFAULT_DELAY_MS)


def test_a_fresh_seed_is_secret_and_a_given_one_is_a_chosen_deal() -> None:
    """Without a seed, the game is dealt from a fresh 128-bit secret that the lobby never shows, and it counts;
    a seed given (typed in the lobby or in an address) is a chosen deal, which does not count."""
    setup, lobby, error = lobby_from_query("game=carbles&players=2", FRESH)
    assert setup is not None and error is None and not setup.chosen and "seed" not in lobby
    assert Session(setup).counted
    typed = read_setup({"game": "carbles", "players": 2, "seed": "12"})
    assert typed.chosen and typed.seed == 12 and not Session(typed).counted
    seeds = {read_setup({"game": "carbles", "players": 2, "seed": ""}).seed for _ in range(64)}
    assert len(seeds) == 64 and max(seeds).bit_length() > 100, "each fresh deal draws 128 secret bits"
    long = str(2**128 - 1)
    assert read_setup({"game": "carbles", "players": 2, "seed": long}).seed == 2**128 - 1
    assert setup_from_query(f"game=carbles&seed={long}", FRESH).seed == 2**128 - 1


def test_each_computer_seat_may_have_its_own_level() -> None:
    setup = setup_from_query("game=carbondale&players=3&seed=1&bots=1,2:hard&level=easy", FRESH)
    assert setup.seats == [Seat(False), Seat(True, "easy"), Seat(True, "hard")]


def test_options_are_read_by_their_text() -> None:
    setup = setup_from_query("game=cardcassonne&players=3&seed=1&removed=43&end=stop-when-deck-empty", FRESH)
    assert setup.options == {"removed": 43, "end": "stop-when-deck-empty"}
    assert setup_from_query("game=carbles&seed=1&open_hands=true", FRESH).options == {"open_hands": True}
    assert setup_from_query("game=carbles&seed=1&open_hands=True", FRESH).options == {"open_hands": True}


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("game=silver-bars&seed=5&bots=1&delay=abc", "delay"),
        ("game=silver-bars&seed=5&bots=1&delay=10001", "delay"),
        ("game=silver-bars&seed=5&bots=1&level=bogus", "level"),
        ("game=silver-bars&seed=5&bots=1:genius", "level"),
        ("game=carbles&players=100000", "takes 1 to 12 players"),
        ("game=carbles&players=0", "takes 1 to 12 players"),
        ("game=silver-bars&seed=1e5", "seed"),
        ("game=silver-bars&seed=" + "1" * 41, "seed"),
        pytest.param("game=silver-bars&seed=" + "9" * 3_900, "seed", id="seed-of-3900-digits"),
        ("game=silver-bars&bots=0,0", "twice"),
        ("game=silver-bars&bots=2", "computer seats"),
        ("game=silver-bars&bots=x", "computer seats"),
        ("game=silver-bars&nonsense=1", "not a setting"),
        ("game=silver-bars&thief=nobody", "one of lowest-overall, lowest-placeable"),
        ("game=chess", "no game called 'chess'"),
        ("game=carbles&players=\u0662", "players"),  # ARABIC-INDIC DIGIT TWO: ASCII digits only
        ("game=silver-bars&seed=\u0667", "seed"),
        ("game=silver-bars&delay=\uff15", "delay"),  # FULLWIDTH DIGIT FIVE
        ("game=silver-bars&bots=\u0661", "computer seats"),
        ("game=silver-bars&bots=1&bots=1", "'bots' twice"),
        ("game=silver-bars&game=carbles", "'game' twice"),
    ],
)
def test_a_bad_query_starts_nothing_and_says_why(query: str, words: str) -> None:
    setup, lobby, error = lobby_from_query("?" + query, FRESH)
    assert setup is None and error is not None and words in error
    with pytest.raises(ValueError, match="cannot start"):
        setup_from_query(query, FRESH)


def test_the_lobby_keeps_what_it_could_read() -> None:
    setup, lobby, error = lobby_from_query("?game=silver-bars&seed=5&bots=1&level=easy&delay=abc", FRESH)
    assert setup is None and error and "delay" in error and "The lobby below holds the rest" in error
    assert lobby["game"] == "silver-bars" and lobby["seed"] == "5" and lobby["bots"] == [1]
    assert lobby["levels"] == {"0": "easy", "1": "easy"} and lobby["delay"] == DEFAULT_DELAY_MS
    read_setup(lobby)  # what the lobby shows starts a game


def test_every_problem_is_said_once_and_briefly() -> None:
    bad = "x" * 5_000
    _, _, error = lobby_from_query(f"game=carbles&players={bad}&seed={bad}&delay={bad}&level={bad}&bots={bad}"
                                   f"&partners={bad}", FRESH)
    assert error is not None
    assert error.count("x" * 41) == 0, "a bad value is quoted at most 40 characters long"
    assert len(error) < 800


def test_no_game_in_the_query_is_the_lobby_itself() -> None:
    assert lobby_from_query("", FRESH) == (None, {}, None)
    assert lobby_from_query("?utm=1", FRESH) == (None, {}, None)


def test_a_long_query_is_refused_unread() -> None:
    setup, lobby, error = lobby_from_query("?game=carbles&seed=1&" + "a" * MAX_QUERY, FRESH)
    assert setup is None and lobby == {} and error and "too long" in error


def test_query_fields_refuse_duplicates() -> None:
    assert query_fields("#a=1&b=%20x") == {"a": "1", "b": " x"}
    with pytest.raises(ValueError, match="twice"):
        query_fields("a=1&a=1")


def test_the_lobbys_settings() -> None:
    settings_ = {"game": "carbondale", "players": 3, "seed": "9", "bots": [2], "levels": {"2": "hard"},
                 "options": {"any_black_to_red": True}, "delay": 0}
    setup = Setup.from_json(json.dumps(settings_))
    assert setup == read_setup(settings_)
    assert setup.seats == [Seat(False), Seat(False), Seat(True, "hard")] and setup.seed == 9
    for bad, words in [({"game": 3}, "no game"), ({"bots": [3]}, "computer seats"), ({"levels": [1]}, "levels"),
                       ({"options": {"x": 1}}, "unknown option"), ({"delay": -1}, "delay")]:
        with pytest.raises(ValueError, match=words):
            read_setup({**settings_, **bad})
    with pytest.raises(ValueError, match="object"):
        read_setup([])


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_an_address_query_and_its_fragment_say_the_same_setup(game: str) -> None:
    """The fragment writes its setup as a query does: the one reader reads both."""
    info = pyengine.GAMES[game]
    players = max(info.min_players, min(3, info.max_players))
    bots = ",".join(str(i) for i in range(1, players))
    setup = setup_from_query(f"game={game}&players={players}&seed=12&bots={bots}&level=hard&delay=50", FRESH)
    fragment = address.encode(Session(setup))
    assert fragment.startswith(f"game={game}&v={info.rules_version}&players={players}&seed=12")
    assert ("&bots=" + bots + "&level=hard" in fragment) == bool(bots)
    again = address.decode(fragment).setup
    assert (again.seats, again.seed, again.delay) == (setup.seats, setup.seed, setup.delay)


def test_an_old_fragment_still_opens() -> None:
    """Fragments written before the one name for computer seats: ``seats=h.ce`` and ``options={...}``."""
    old = ('game=silver-bars&v=1&players=2&seats=h.ce&seed=5&options={"thief":"lowest-placeable"}'
           "&delay=250&moves=0.1")
    session = address.decode(old)
    assert session.setup.seats == [Seat(False), Seat(True, "easy")]
    assert session.state.options["thief"] == "lowest-placeable" and session.setup.delay == 250
    assert len(session.state.history()) == 2
    new = address.encode(session)
    assert "bots=1&level=easy" in new and "thief=lowest-placeable" in new and "seats=" not in new
    assert address.decode(new).state == session.state


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["game", "players", "seed", "bots", "level", "delay", "thief", "x",
                                           "strikes", "seats", "options"]),
                          st.text(max_size=12)), max_size=8))
def test_any_query_gives_a_setup_or_words(pairs: list[tuple[str, str]]) -> None:
    from cardtable_web.urls import urlencode

    query = urlencode([("game", "silver-bars"), *pairs])
    setup, lobby, error = lobby_from_query(query, FRESH)
    assert (setup is None) == (error is not None)
    if error is not None:
        assert len(error) < 1_000
    if setup is not None:
        Session(setup)


def test_the_computers_chances_do_not_come_from_the_deals_seed() -> None:
    """A computer seat's search (and a suggestion) draws from a secret of its own, drawn with the game: two tables
    of the same deal do not share it, and knowing the seed does not give it; a test may still fix it."""
    setup = read_setup({"game": "silver-bars", "players": 2, "seed": "7", "bots": [1]})
    one, two = Session(setup), Session(setup)
    assert one.state == two.state, "the same deal"
    assert one.bot_seed(1) != two.bot_seed(1) and setup.seed * 31 + 1 not in (one.bot_seed(1), two.bot_seed(1))
    assert one.secret.bit_length() > 100
    assert Session(setup, secret=5).bot_seed(1) == Session(setup, secret=5).bot_seed(1)
    request = json.loads(one.think_request(1))
    assert request["seed"] == one.bot_seed(1) and str(setup.seed) != str(request["seed"])
