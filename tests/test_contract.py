"""The generic suite: every registered game through the engine contract, by random playouts."""

from __future__ import annotations

import json
import random
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyengine
from pyengine import IllegalAction, RefusedAction, Rng, UnreadableAction
from pyengine.core import named_position, rules_for
from pyengine.words import Entry, seat_names
from tests.playouts import play_on, player_counts, playout, valid_options

GAME_IDS = list(pyengine.GAMES)
SEEDS = range(6)
STEP_BUDGET = 2_500
"""A playout test starts no further seed once its games took this many actions (``tests/soak.py`` plays many more)."""
CHECK_EVERY_STEP = 1_200
"""A playout test checks every state of its first this many actions, then every ``CHECK_STRIDE``th: a long game
(Carbles with twelve players plays thousands of actions) is still played to its end, and the soak checks them all."""
CHECK_STRIDE = 8
SYNONYM_KEYS = ("turn", "active", "pile", "draw_pile", "deck_count", "log")
"""Keys no view has: each names an idea with one shared key (``current_player``, ``draw_count``, ...), and the log
is ``State.log()``."""


def games_and_counts() -> list[tuple[str, int]]:
    return [(g, n) for g in GAME_IDS for n in player_counts(g)]


def test_registry_metadata() -> None:
    for game_id, info in pyengine.GAMES.items():
        assert info.id == game_id
        assert info.title and info.blurb and info.rules_version
        assert 1 <= info.min_players <= info.max_players
        json.dumps(info.to_json())
        for option in info.options:
            assert option.default in option.choices
            assert not option.labels or len(option.labels) == len(option.choices), "a label for every choice"
            if any(isinstance(c, str) for c in option.choices) and not all(isinstance(c, bool) for c in option.choices):
                assert option.labels, f"{game_id}: option {option.name!r} shows its choices in plain words"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_setup_raises_value_error_naming_allowed_values(game_id: str) -> None:
    info = pyengine.GAMES[game_id]
    with pytest.raises(ValueError, match="players"):
        pyengine.new_game(game_id, info.max_players + 1, 1)
    with pytest.raises(ValueError, match="options"):
        pyengine.new_game(game_id, info.min_players, 1, {"no-such-option": 1})
    for option in info.options:
        with pytest.raises(ValueError, match=option.name):
            pyengine.new_game(game_id, info.min_players, 1, {option.name: "not-a-choice"})
    with pytest.raises(ValueError, match="games are"):
        pyengine.new_game("no-such-game", 2, 1)


@pytest.mark.parametrize("game_id,players", games_and_counts())
def test_random_playouts_keep_the_contract(game_id: str, players: int) -> None:
    info = pyengine.GAMES[game_id]
    bound = info.max_actions(players)
    foreign: list[str] = ["no such action", ""]
    played = 0
    for seed in SEEDS:
        if played >= STEP_BUDGET:  # long games (Carbles with many players) play fewer seeds; the soak plays more
            break
        rnd = random.Random(f"{game_id}/{players}/{seed}")
        options = valid_options(game_id, players, rnd)
        state = pyengine.new_game(game_id, players, seed, options)
        assert state == pyengine.new_game(game_id, players, seed, options), "a seed deals the same game"
        steps = 0
        for later in playout(state, rnd, bound + 1):
            if played + steps < CHECK_EVERY_STEP or steps % CHECK_STRIDE == 0:
                check_state(later, rnd, foreign, deep=steps % 7 == 0 if steps < 70 else steps % 97 == 0)
            steps += 1
        played += steps
        state = later
        assert state.is_terminal(), f"{game_id} with {players} players did not end within {bound} actions"
        assert steps - 1 <= bound
        check_end(state)
        check_hidden_at_end(state, rnd)
        again = pyengine.from_json(state.to_json())  # the record, written and read back, replays the same game
        assert again == state and again.record() == state.record()


def check_state(state: pyengine.State, rnd: random.Random, foreign: list[str], deep: bool) -> None:
    actions = state.legal_actions()
    texts = [str(a) for a in actions]
    assert len(set(texts)) == len(texts), "action notations are unique"
    assert texts == [str(a) for a in state.legal_actions()], "legal actions come in a deterministic order"
    assert (state.current_player is None) == (not actions) == state.is_terminal()
    for text in texts[:5]:
        assert str(state.parse_action(text)) == text
    check_notation_and_facts(state, actions, deep)
    players = state.players
    public = state.view(None)
    json.dumps(public)
    assert public["moves"] == {}, "the public view offers no moves"
    assert len(state.scores()) == players
    if not actions:
        return
    assert 0 <= state.current_player < players
    weighed = state.rules.search_actions(state.core)
    assert weighed and set(weighed) <= set(actions), "the search weighs some of the legal actions, never others"
    if deep:
        ranked = state.rules.rank_actions(state.core, weighed)
        assert ranked is None or sorted(map(str, ranked)) == sorted(map(str, weighed)), "a ranking orders them all"
    # apply never changes the receiver
    core_before, view_before = state.core, state.view(state.current_player)
    state.apply(rnd.choice(actions))
    assert state.core == core_before and state.view(state.current_player) == view_before
    # refused actions (unreadable, or illegal now) raise and change nothing
    for text in foreign[-4:]:
        if text not in texts:
            with pytest.raises(RefusedAction):
                state.apply(text)
            assert state.core == core_before
    foreign.extend(texts[:2])
    if not deep:
        return
    # views: JSON-safe, and unchanged when what a seat cannot see is re-dealt
    check_log(state)
    for seat in [None, *range(players)]:
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
        check_view_keys(view)
        sample = state.sample_hidden(seat, Rng.from_seed(rnd.randrange(1 << 30)))
        assert sample.view(seat) == view, f"sample_hidden changed what seat {seat} sees"
        if seat == state.current_player:
            assert sample.legal_texts() == state.legal_texts(), "a seat's choices depend only on what it sees"
        # the sample depends only on the view and the generator
        assert sample.sample_hidden(seat, Rng.from_seed(99)).core == state.sample_hidden(seat, Rng.from_seed(99)).core
        # a sample is a playable position
        for later in playout(sample, rnd, 3):
            later.legal_actions()


def check_notation_and_facts(state: pyengine.State, actions: list[object], deep: bool = True) -> None:
    """Each action is written and read by its one form; the deciding seat's view carries every action's facts."""
    notation = state.rules.notation
    kinds = set(notation.kinds())
    for action in actions if deep else actions[:8]:
        text = str(action)
        assert notation.write(action) == text
        assert notation.parse(text) == action, f"{text!r} does not read back as the same action"
    seat = state.current_player
    if seat is None or not deep:
        return
    view = state.view(seat)
    moves = view["moves"]
    assert list(moves) == [str(a) for a in actions], "moves lists exactly the legal actions, in order"
    for text, facts in moves.items():
        assert isinstance(facts, dict) and facts.get("kind") in kinds, f"{text!r}: facts need a known kind: {facts}"
        assert json.loads(json.dumps(facts)) == facts
    for other in range(state.players):
        if other != seat:
            assert state.view(other)["moves"] == {}, "only the deciding seat is offered moves"


def check_view_keys(view: dict[str, object]) -> None:
    """The shared keys mean one thing in every game, and no view uses a synonym of one."""
    synonyms = [key for key in SYNONYM_KEYS if key in view]
    assert not synonyms, f"synonyms of shared view keys: {synonyms}"
    players = view["players"]
    assert isinstance(players, int)
    for key in ("hand_counts", "draw_counts"):
        if key in view:
            counts = view[key]
            assert isinstance(counts, list) and len(counts) == players and all(isinstance(n, int) for n in counts)
    for key in ("draw_count", "discard_count", "round"):
        if key in view:
            assert isinstance(view[key], int), key
    if "hand" in view:
        hand = view["hand"]
        assert hand is None if view["seat"] is None else isinstance(hand, list)
    if "dealer" in view:
        assert view["dealer"] is None or 0 <= view["dealer"] < players  # type: ignore[operator]


def check_log(state: pyengine.State) -> None:
    """Log entries: who acted, a text with seat placeholders that resolves for any names, JSON-safe facts."""
    names = seat_names(state.players)
    for entry in state.log(last=8):
        assert isinstance(entry, Entry)
        assert entry.seat is None or 0 <= entry.seat < state.players
        for you in (None, 0):
            line = entry.say(names, you)
            assert "{" not in line and "}" not in line and "Player 0" not in line, line
        assert json.loads(json.dumps(entry.to_json())) == entry.to_json()


def check_end(state: pyengine.State) -> None:
    """A finished game's outcome: its winners are seats, each seat has a place, a game played together is won by
    every seat or by none, and the winners share one win."""
    winners = state.winners()
    assert all(0 <= w < state.players for w in winners)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == tuple(sorted(winners))
    assert outcome.cooperative == pyengine.GAMES[state.game].cooperative_with(state.options)
    assert len(outcome.ranks) == state.players and all(1 <= r <= state.players for r in outcome.ranks)
    assert all(outcome.ranks[w] == 1 for w in winners)
    if outcome.cooperative and winners:
        assert winners == list(range(state.players))
        assert all(outcome.share(seat) == 1.0 for seat in range(state.players))
    elif winners:
        assert sum(outcome.share(seat) for seat in range(state.players)) == pytest.approx(1.0)
    with pytest.raises(RefusedAction):
        state.apply("anything")


def check_hidden_at_end(state: pyengine.State, rnd: random.Random) -> None:
    """A finished game reveals nothing hidden either: every seat's view, the public one first (its scores and
    winners among it), is the same when every card that seat cannot see is re-dealt."""
    assert state.is_terminal()
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        for _ in range(3):
            sample = state.sample_hidden(seat, Rng.from_seed(rnd.randrange(1 << 30)))
            assert sample.view(seat) == view, f"the finished game's view of seat {seat} shows what it cannot see"


class LeakAtTheEnd(pyengine.Rules):
    """A game's rules that, once the game is over, put in every view a number drawn from its hidden cards (as a
    finished game's scores would if they counted the cards left in the hands)."""

    def __init__(self, rules: pyengine.Rules) -> None:
        self.inner = rules
        self.info = rules.info
        self.notation = rules.notation

    def __getattribute__(self, name: str) -> object:
        if name in {"inner", "info", "notation", "view"} or name.startswith("__"):
            return object.__getattribute__(self, name)
        return getattr(object.__getattribute__(self, "inner"), name)

    def view(self, core: object, seat: int | None) -> dict[str, object]:
        view = self.inner.view(core, seat)
        if self.inner.current_player(core) is None:
            view["left"] = zlib.crc32(repr(core).encode())
        return view


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_end_check_catches_a_finished_game_that_shows_hidden_cards(game_id: str) -> None:
    """The contract's end check fails for a finished game whose public view changes when its hidden cards are
    re-dealt (and passes the game itself)."""
    info = pyengine.GAMES[game_id]
    rnd = random.Random(f"leak/{game_id}")
    players = max(info.min_players, min(2, info.max_players))
    start = pyengine.new_game(game_id, players, 5, valid_options(game_id, players, rnd))
    state = play_on(start, rnd, info.max_actions(players) + 1)
    assert state.is_terminal()
    check_hidden_at_end(state, rnd)
    leaky = pyengine.State(LeakAtTheEnd(state.rules), state.players, state.options, state.seed, state.core)
    hides = any(state.sample_hidden(seat, Rng.from_seed(k)).core != state.core
                for seat in [None, *range(players)] for k in range(3))
    if hides:  # a game that hides nothing at its end (open hands, an empty deck) has nothing to leak
        with pytest.raises(AssertionError, match="shows what it cannot see"):
            check_hidden_at_end(leaky, rnd)


def test_an_outcome_places_the_seats_and_says_the_end() -> None:
    """Winners first, the others by score with ties sharing a place; a game played together shares one place."""
    from pyengine import Outcome

    ended = Outcome.of([2], [10, 30, 20, 10], cooperative=False)
    assert ended.ranks == (3, 2, 1, 3) and ended.words() == "{2} {2:wins}!" and ended.share(2) == 1.0
    tied = Outcome.of([1, 0], [5, 5, 1], cooperative=False)
    assert tied.winners == (0, 1) and tied.ranks == (1, 1, 3) and tied.share(0) == 0.5
    assert tied.words() == "{0} and {1} win!"
    assert Outcome.of([], [1, 2], cooperative=False).words() == "Game over: nobody wins."
    together = Outcome.of([0, 1], [9, 9], cooperative=True)
    assert together.ranks == (1, 1) and together.share(1) == 1.0 and together.words() == "Everyone wins!"
    lost = Outcome.of([], [0, 0], cooperative=True)
    assert not lost.won and lost.words() == "Time is up: the game is lost."
    assert pyengine.new_game("carbondale", 2, 1).outcome() is None


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=-(2**63), max_value=2**63), data=st.data())
def test_replay_round_trips_any_prefix(game_id: str, seed: int, data: st.DataObject) -> None:
    info = pyengine.GAMES[game_id]
    players = data.draw(st.integers(info.min_players, info.max_players))
    rnd = random.Random(seed)
    options = valid_options(game_id, players, rnd)
    state = pyengine.new_game(game_id, players, seed, options)
    state = play_on(state, rnd, data.draw(st.integers(0, 60)))
    assert pyengine.from_json(state.to_json()) == state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_refusals_say_why_briefly(game_id: str) -> None:
    """A text no form reads is unreadable and lists the notation; a well-written illegal action is illegal and gets
    the game's reason."""
    info = pyengine.GAMES[game_id]
    rnd = random.Random(11)
    state = play_on(pyengine.new_game(game_id, info.min_players, 11, valid_options(game_id, info.min_players, rnd)),
                    rnd, 5)
    with pytest.raises(UnreadableAction, match="actions look like") as caught:
        state.apply("x" * 100_000)
    assert len(str(caught.value)) < 1_000, "bad input is quoted briefly"
    legal = set(state.legal_texts())
    rules = rules_for(game_id)
    reasons = 0
    for later in playout(state, rnd, 40):
        for text in list(legal)[:20]:
            if text not in later.legal_texts() and not later.is_terminal():
                parsed = rules.notation.parse(text)
                assert parsed is not None
                with pytest.raises(IllegalAction) as refused:
                    later.apply(text)
                assert "actions look like" not in str(refused.value)
                reasons += 1
        legal |= set(later.legal_texts())
    assert reasons > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_named_positions_load_and_play(game_id: str) -> None:
    """Every named position (rules-page figures, embeds) loads, keeps the contract and plays on."""
    rules = rules_for(game_id)
    for name in rules.positions:
        state = named_position(game_id, name)
        assert state.position is not None
        rnd = random.Random(name)
        for later in playout(state, rnd, 30):
            check_state(later, rnd, [], deep=True)
    with pytest.raises(ValueError, match="positions are"):
        named_position(game_id, "no such position")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_tampered_records_name_the_failing_field(game_id: str) -> None:
    info = pyengine.GAMES[game_id]
    rnd = random.Random(5)
    state = pyengine.new_game(game_id, info.min_players, 5, valid_options(game_id, info.min_players, rnd))
    state = play_on(state, rnd, 12)
    record = state.record()
    for key in ("game", "rules_version", "players", "options", "seed", "actions"):
        broken = dict(record)
        del broken[key]
        with pytest.raises(ValueError, match=key):
            pyengine.replay(broken)
    with pytest.raises(ValueError, match="rules_version"):
        pyengine.replay({**record, "rules_version": "0-tampered"})
    with pytest.raises(ValueError, match="seed"):
        pyengine.replay({**record, "seed": "seven"})
    if record["actions"]:
        with pytest.raises(ValueError, match="step 0"):
            pyengine.replay({**record, "actions": ["not an action", *record["actions"][1:]]})
    with pytest.raises(ValueError):
        pyengine.from_json(state.to_json()[:-7])
    with pytest.raises(ValueError):
        pyengine.replay([1, 2, 3])
