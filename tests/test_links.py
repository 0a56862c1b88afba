"""Playing at your own pace, the links' core without a browser: the re-dealt position a turn carries, the guest's
turn played on it, the host's checks of a reply, and whole games of every game played by links alone (each link
passed as its packed plaintext; the page seals it for its seat)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from cardtable_web import cores
from cardtable_web.feed import feed_for, names_for
from cardtable_web.links import (
    BROKEN,
    MAX_LINK,
    GuestTurn,
    LinkRefused,
    digest,
    link_length,
    pack,
    read_reply,
    read_turn,
    seen_by,
    take_reply,
    turn_payload,
    unpack,
)
from cardtable_web.trail import Trail

import pyengine
from pyengine.ai import make_bot
from pyengine.rng import Rng
from pyengine.words import say

from .games import GAME_IDS, settings

TABLE = "a1b2c3d4e5"
CARD_DRAWN = re.compile(r"(10|[A2-9JQK])[♣♢♡♠]")


def random_game(game: str, players: int, seed: int, stop: int | None = None) -> pyengine.State:
    """A game played at random, to its end or ``stop`` moves."""
    state = pyengine.new_game(game, players, seed)
    rnd = random.Random(seed)
    while not state.is_terminal() and (stop is None or state.played < stop):
        state = state.apply(rnd.choice(state.legal_actions()))
    return state


@dataclass
class LinkTable:
    """A host's game played by links: the host's own seat and the computers play here, every other seat by turn
    links and replies passed as packed text."""

    state: pyengine.State
    host: int = 0
    computers: set[int] = field(default_factory=set)
    names: list[str] = field(default_factory=list)
    trails: dict[int, Trail] = field(default_factory=dict)
    links: list[tuple[int, str]] = field(default_factory=list)
    """Every link made: (seat, packed payload), turns and replies."""

    def __post_init__(self) -> None:
        self.names = self.names or [f"Player {seat + 1}" for seat in range(self.state.players)]
        self.bots = {seat: make_bot("random", seat) for seat in self.computers}

    def turn_for(self, seat: int, rng: Rng | None = None) -> str:
        """The packed turn link the host makes for ``seat``."""
        names = self.names
        trail = self.trails.setdefault(seat, Trail(lambda text: say(text, names, seat)))
        feed = feed_for(self.state, names, self.computers, seat, seat, trail, offer=False,
                        shown_names=names_for(names, seat))
        packed = pack(turn_payload(self.state, TABLE, seat, names, self.host, feed, trail.entries, rng))
        self.links.append((seat, packed))
        return packed

    def take(self, packed: str) -> None:
        reply = read_reply(unpack(packed))
        assert reply.table == TABLE
        self.state = take_reply(self.state, reply, self.names[reply.seat])

    def play_out(self, rnd: random.Random, guest_moves: Any = None, turns_at_most: int | None = None) -> int:
        """Play to the end (or ``turns_at_most`` guest turns); each guest chooses at random among its moves. How
        many turn links were made."""
        turns = 0
        while not self.state.is_terminal() and (turns_at_most is None or turns < turns_at_most):
            seat = self.state.current_player
            assert seat is not None
            if seat in self.computers:
                self.state = self.state.apply(self.bots[seat].choose(self.state))
            elif seat == self.host:
                self.state = self.state.apply(rnd.choice(self.state.legal_texts()))
            else:
                guest = GuestTurn(read_turn(unpack(self.turn_for(seat))), Rng.from_seed(rnd.getrandbits(63)))
                assert seen_by(guest.state, seat) == seen_by(self.state, seat)
                while guest.decides:
                    guest.play(rnd.choice(guest.state.legal_texts()))
                packed = pack(guest.reply())
                self.links.append((seat, packed))
                self.take(packed)
                turns += 1
        return turns


# -- packing and the re-dealt core ---------------------------------------------------------------------------------
def test_a_payload_packs_and_unpacks_and_nothing_else_unpacks() -> None:
    payload = {"v": 1, "kind": "reply", "actions": ["play 6 v3"], "names": ["Zoë"]}
    assert unpack(pack(payload)) == payload
    packed = pack(payload)
    for broken in (packed[:-3], packed + "A", "", "not base64!", "x" * 5_000, 7):
        with pytest.raises(LinkRefused, match="damaged"):
            unpack(broken)
    with pytest.raises(LinkRefused, match="another version"):
        unpack(pack({"v": 99}))


def test_a_bomb_does_not_inflate() -> None:
    """A payload that would inflate past the limit is refused unread."""
    import base64
    import zlib

    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = squeezer.compress(b"[" * 1 + b"0," * 500_000 + b"0]") + squeezer.flush()
    text = base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(text) < 4_000
    with pytest.raises(LinkRefused, match="damaged"):
        unpack(text)


@pytest.mark.parametrize(("game", "players"), [(g, p) for g in GAME_IDS for p in settings(g).players(g)])
def test_a_redealt_core_is_written_and_read_back_exactly(game: str, players: int) -> None:
    state = pyengine.new_game(game, players, 4)
    rnd = random.Random(4)
    kind = cores.core_type(game, players)
    checked = 0
    while checked < 300:
        seat = state.current_player if state.current_player is not None else 0
        redealt = state.sample_hidden(seat, rnd.getrandbits(60)).core
        assert cores.read(kind, cores.write(redealt)) == redealt
        checked += 1
        if state.is_terminal():
            break
        state = state.apply(rnd.choice(state.legal_actions()))


def test_a_core_reads_nothing_it_did_not_write() -> None:
    kind = cores.core_type("silver-bars", 2)
    good = cores.write(pyengine.new_game("silver-bars", 2, 1).sample_hidden(0, 1).core)
    for bad in (None, [], good[:-1], [*good, 1], ["x", *good[1:]], {"a": 1}):
        with pytest.raises(ValueError, match="not one this site writes"):
            cores.read(kind, bad)


def test_a_deal_generator_is_never_written() -> None:
    """The real game's generator holds the deal's secret: only a re-deal's plain generator has a written form."""
    with pytest.raises(TypeError):
        cores.write(pyengine.new_game("silver-bars", 2, 1).core)


# -- nothing hidden in a turn -----------------------------------------------------------------------------------------
def turns_of(state: pyengine.State, seat: int, fresh: int) -> dict[str, Any]:
    table = LinkTable(state)
    return unpack(table.turn_for(seat, Rng.from_seed(fresh)))


@pytest.mark.parametrize(("game", "players"), [(g, p) for g in GAME_IDS for p in settings(g).players(g)])
def test_a_turn_is_the_same_whatever_the_hidden_cards_are(game: str, players: int) -> None:
    """Re-dealing what a seat cannot see of the real game (other hands, the draw pile's order, the generator)
    changes nothing in that seat's turn link, given the same fresh generator: the link is made from the seat's
    view alone, and its position's hidden cards come from the fresh generator only."""
    rnd = random.Random(7)
    checked = 0
    for seed in range(2):
        state = pyengine.new_game(game, players, seed)
        while not state.is_terminal() and checked < 150 * (seed + 1):
            seat = state.current_player
            assert seat is not None
            other_truth = state.sample_hidden(seat, rnd.getrandbits(60))
            fresh = rnd.getrandbits(60)
            assert turns_of(state, seat, fresh) == turns_of(other_truth, seat, fresh)
            checked += 1
            state = state.apply(rnd.choice(state.legal_actions()))


def test_the_check_finds_a_turn_that_holds_the_real_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a turn made from the real core (its generator aside) differs between two truths
    of the same view."""
    state = random_game("silver-bars", 2, 3, stop=10)
    seat = state.current_player
    assert seat is not None
    other_truth = state.sample_hidden(seat, 99)

    def the_real_cards(self: pyengine.State, seat: int | None, rng: Any) -> pyengine.State:
        return pyengine.State(self.rules, self.players, self.options, None, replace(self.core, rng=Rng(0)))

    monkeypatch.setattr(pyengine.State, "sample_hidden", the_real_cards)
    assert turns_of(state, seat, 5) != turns_of(other_truth, seat, 5)


@pytest.mark.parametrize(("game", "players"), [(g, p) for g in GAME_IDS for p in settings(g).players(g)])
def test_a_turn_shows_the_seat_its_own_view(game: str, players: int) -> None:
    """The re-dealt position of a turn shows its seat exactly what the real game shows it, moves included."""
    state = pyengine.new_game(game, players, 5)
    rnd = random.Random(5)
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.current_player
        assert seat is not None
        turn = read_turn(turns_of(state, seat, rnd.getrandbits(60)))
        assert turn.state.view(seat) == state.view(seat)
        state = state.apply(rnd.choice(state.legal_actions()))


# -- whole games by links alone ---------------------------------------------------------------------------------------
BY_LINKS = {"silver-bars": 6}
"""How many whole games the test plays of a game (default: :data:`GAMES_EACH`); ``tests/bench/links.py`` plays
more, at every table size, and prints the longest links."""
GAMES_EACH = 4
LARGEST_TABLE_TURNS = 300
"""Guest turns played at a game's largest table: long enough for the longest logs between two turns of a seat (a
random whole game of Carbles at 12 seats is over 4,000 of them)."""


def tables_by_links() -> list[tuple[str, int, set[int], int]]:
    """Each game at two seats, one guest, and at three (where it takes three) with a computer in the last seat."""
    tables = []
    for game in GAME_IDS:
        two, most = settings(game).two(game), pyengine.GAMES[game].max_players
        if two > 1:
            tables.append((game, two, set(), BY_LINKS.get(game, GAMES_EACH)))
        if most >= 3:
            tables.append((game, 3, {2}, GAMES_EACH))
    return tables


def longest_link(table: LinkTable) -> int:
    """The longest link a table made, as the page seals it."""
    return max(link_length(packed, TABLE, seat) for seat, packed in table.links)


@pytest.mark.parametrize(("game", "players", "computers", "games"), tables_by_links())
def test_whole_games_are_played_by_links_alone(game: str, players: int, computers: set[int], games: int) -> None:
    """Many whole games: each guest plays its turns on its link's position and the host plays the replies, to
    the same end the moves make on the real game; every link stays under 2,000 characters."""
    longest = 0
    for seed in range(games):
        rnd = random.Random(seed)
        table = LinkTable(pyengine.new_game(game, players, seed), computers=computers)
        turns = table.play_out(rnd)
        assert table.state.is_terminal() and turns > 0
        replayed = pyengine.replay(table.state.record())
        assert replayed.scores() == table.state.scores()
        longest = max(longest, longest_link(table))
    assert longest < MAX_LINK


@pytest.mark.parametrize("game", [game for game in GAME_IDS if pyengine.GAMES[game].max_players > 3])
def test_links_stay_short_at_the_largest_table(game: str) -> None:
    """Every seat but the host's by links at the game's largest table, where the most happens between two turns
    of a seat: the moves replay to the same position, and every link stays under 2,000 characters."""
    table = LinkTable(pyengine.new_game(game, pyengine.GAMES[game].max_players, 1))
    turns = table.play_out(random.Random(1), turns_at_most=LARGEST_TABLE_TURNS)
    assert turns == LARGEST_TABLE_TURNS or table.state.is_terminal()
    assert pyengine.replay(table.state.record()).view(None) == table.state.view(None)
    assert longest_link(table) < MAX_LINK


# -- the host's checks ----------------------------------------------------------------------------------------------
def guest_turn(table: LinkTable, seed: int = 1) -> GuestTurn:
    seat = table.state.current_player
    assert seat is not None and seat != table.host
    redeal = Rng.from_seed(seed * 1_000_003 + table.state.played)  # the turn's re-deal, the same in every run
    return GuestTurn(read_turn(unpack(table.turn_for(seat, redeal))), Rng.from_seed(seed))


def to_guest(table: LinkTable, rnd: random.Random) -> None:
    """Play on until a guest seat is to act."""
    while table.state.current_player == table.host:
        table.state = table.state.apply(rnd.choice(table.state.legal_texts()))


def test_a_reply_is_played_once() -> None:
    table = LinkTable(pyengine.new_game("silver-bars", 2, 2))
    rnd = random.Random(2)
    to_guest(table, rnd)
    guest = guest_turn(table)
    guest.play(guest.state.legal_texts()[0])
    packed = pack(guest.reply())
    table.take(packed)
    moved = table.state
    with pytest.raises(LinkRefused, match="played already"):
        table.take(packed)
    assert table.state is moved


def test_a_reply_of_a_turn_never_reached_or_not_the_seats_is_refused() -> None:
    table = LinkTable(pyengine.new_game("silver-bars", 2, 2))
    to_guest(table, random.Random(2))
    guest = guest_turn(table)
    guest.play(guest.state.legal_texts()[0])
    reply = guest.reply()
    before = table.state
    for forged in ({**reply, "turn": reply["turn"] + 5}, {**reply, "seat": 0}):
        with pytest.raises(LinkRefused, match="not from"):
            table.take(pack(forged))
    assert table.state is before


def test_a_reply_with_a_move_not_possible_plays_nothing() -> None:
    table = LinkTable(pyengine.new_game("carbondale", 2, 3))
    to_guest(table, random.Random(3))
    guest = guest_turn(table)
    while guest.decides:
        guest.play(guest.state.legal_texts()[-1])
    before = table.state
    reply = guest.reply()
    for actions in (["build nowhere"], [*reply["actions"][:-1], "discard 99♠"]):
        with pytest.raises(LinkRefused, match="cannot make now"):
            table.take(pack({**reply, "actions": actions}))
    assert table.state is before


def test_a_reply_after_the_end_is_refused() -> None:
    table = LinkTable(random_game("silver-bars", 2, 8))
    with pytest.raises(LinkRefused, match="over"):
        table.take(pack({"v": 1, "kind": "reply", "table": TABLE, "seat": 1, "turn": table.state.played,
                         "actions": ["discard 7"], "seen": []}))


def test_a_forged_or_truncated_reply_is_refused() -> None:
    for payload in ({"v": 1, "kind": "turn"}, {"v": 1, "kind": "reply", "table": TABLE, "seat": 1, "turn": 0,
                                                 "actions": [], "seen": []},
                    {"v": 1, "kind": "reply", "table": TABLE, "seat": True, "turn": 0, "actions": ["x"],
                     "seen": []}):
        with pytest.raises(LinkRefused, match="damaged"):
            read_reply(payload)


def test_moves_chosen_from_a_card_not_really_drawn_wait_for_the_next_link() -> None:
    """A guest that played on past a card it drew (a re-deal's made-up card) chose the rest from a view the real
    game never showed: the host plays the moves up to the draw and makes the seat a new turn link."""
    for seed in range(40):
        table = LinkTable(pyengine.new_game("carbondale", 2, seed))
        rnd = random.Random(seed)
        while not table.state.is_terminal():
            to_guest(table, rnd)
            if table.state.is_terminal():
                break
            guest = guest_turn(table, seed)
            while guest.decides:
                guest.play(rnd.choice(guest.state.legal_texts()))
            if not guest.revealed or guest.state.current_player != guest.seat:
                table.take(pack(guest.reply()))
                continue
            guest.revealed = False  # a careless guest plays on past the card it drew
            guest.play(rnd.choice(guest.state.legal_texts()))
            seat, played = guest.seat, table.state.played
            table.take(pack(guest.reply()))
            assert table.state.played == played + len(guest.actions) - 1
            assert table.state.current_player == seat
            return
    raise AssertionError("no guest drew a card mid-turn")


def test_a_guest_turn_pauses_at_a_drawn_card_and_shows_the_view_before_it() -> None:
    table = LinkTable(pyengine.new_game("silver-bars", 2, 6))
    to_guest(table, random.Random(6))
    guest = guest_turn(table)
    seen = seen_by(guest.state, guest.seat)
    guest.play(next(t for t in guest.state.legal_texts() if t.startswith("discard")))
    assert guest.paused and guest.revealed
    assert seen_by(guest.shown, guest.seat) == seen
    assert guest.reply()["seen"] == []
    with pytest.raises(ValueError, match="not your turn"):
        guest.play(guest.state.legal_texts()[0])


def test_a_digest_is_of_what_the_seat_sees() -> None:
    state = pyengine.new_game("silver-bars", 2, 1)
    assert digest(seen_by(state, 0)) == digest(seen_by(state.sample_hidden(0, 3), 0))
    assert digest(seen_by(state, 0)) != digest(seen_by(state, 1))


def test_a_turn_payload_that_is_not_one_is_refused() -> None:
    good = turns_of(pyengine.new_game("silver-bars", 2, 1), 0, 1)
    assert read_turn(good).seat == 0
    for bad in ({**good, "core": good["core"][:-1]}, {**good, "seat": 5}, {**good, "game": "chess"},
                {**good, "names": ["A"]}, {**good, "host": 2}, {**good, "recent": {"9": []}},
                {**good, "kind": "reply"}):
        with pytest.raises(LinkRefused, match=BROKEN[:20]):
            read_turn(bad)


def test_a_move_that_shows_a_card_is_said_in_the_log_when_its_words_hold_no_card() -> None:
    """The log says a move that drew a card (its public words are the same on every re-deal), and the table shows the
    position before it; a move whose words would name the made-up card is not said."""
    table = LinkTable(pyengine.new_game("silver-bars", 2, 6))
    to_guest(table, random.Random(6))
    guest = guest_turn(table)
    guest.play(next(t for t in guest.state.legal_texts() if t.startswith("discard")))
    assert guest.revealed and guest.entries == [] and len(guest.said) == 1
    assert "draw" in guest.said[0].text and not CARD_DRAWN.search(guest.said[0].text.split("draw")[-1])
