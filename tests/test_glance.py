"""The table at a glance: each seat's latest turn (``view["recent"]``), refused clicks explained by the engine
(``State.why_not``), and the suggested move (from the human's own view)."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

import pytest
from cardtable_web import drawing, embed
from cardtable_web.registry import renderer_for
from cardtable_web.replay import Replay
from cardtable_web.session import Session
from cardtable_web.setup import Setup

import pyengine
from tests.games import GAME_IDS, settings
from tests.test_renderers import clickables

GLANCE_GAMES = GAME_IDS


def session_for(game: str, seed: int = 7, bots: list[int] | None = None) -> Session:
    settings = {"game": game, "players": 2, "seed": seed, "bots": [1] if bots is None else bots, "level": "easy"}
    return Session(Setup.from_json(json.dumps(settings)))


def step(session: Session, rnd: random.Random) -> None:
    """One random move, by whoever decides (the computer seats through their own path)."""
    text = rnd.choice(session.state.legal_texts())
    if session.computer_to_move():
        session.computer_move(text)
    else:
        session.act(text)


def expected_recent(state: pyengine.State) -> dict[int, list[dict[str, object]]]:
    """The definition, walked the slow way: each seat's last run of consecutive log entries."""
    log = state.log()
    recent: dict[int, list[dict[str, object]]] = {}
    for seat in {e.seat for e in log if e.seat is not None}:
        last = max(i for i, e in enumerate(log) if e.seat == seat)
        first = last
        while first > 0 and log[first - 1].seat == seat:
            first -= 1
        recent[seat] = [dict(e.facts) for e in log[first : last + 1]]
    return recent


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_recent_is_each_seats_latest_turn_move_by_move(game: str) -> None:
    session = session_for(game, bots=[])
    session.take_device()
    rnd = random.Random(3)
    assert session.screen_view()["recent"] == {}
    for _ in range(60):
        if session.state.is_terminal():
            break
        session.state = session.state.apply(rnd.choice(session.state.legal_texts()))
        session.viewer = session.state.current_player
        assert session.screen_view()["recent"] == expected_recent(session.state)


def test_recent_starts_afresh_when_the_game_goes_back() -> None:
    """A take-back (or a reload) puts an earlier state on the table: the trail starts afresh."""
    session = session_for("silver-bars")
    rnd = random.Random(5)
    for _ in range(6):
        step(session, rnd)
    session.screen_view()
    earlier = session.state.history_parent()
    assert earlier is not None and earlier.history_parent() is not None
    session.state = earlier.history_parent()
    assert session.screen_view()["recent"] == expected_recent(session.state)


class Tries(HTMLParser):
    """The ``data-try`` facts of a table's HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.tries: list[dict[str, object]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("data-try"):
            assert "data-action" not in found and "data-select" not in found
            self.tries.append(json.loads(str(found["data-try"])))


def tries_of(markup: str) -> list[dict[str, object]]:
    parser = Tries()
    parser.feed(markup)
    return parser.tries


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_every_click_that_plays_nothing_gets_the_engines_reason(game: str) -> None:
    """Every ``data-try`` on the table (with and without a selection) is a well-formed attempt that the engine
    refuses with a reason; every game offers some (a card with no use, or a target not legal for the card)."""
    session = session_for(game, bots=[])
    rnd = random.Random(11)
    seen = 0
    for _ in range(80):
        if session.state.is_terminal():
            break
        session.take_device()
        tokens = [None, *clickables(drawing.table_html(session)).selects]
        for token in tokens[:4]:
            session.selection = token
            for facts in tries_of(drawing.table_html(session)):
                reason = session.state.why_not(facts, session.viewer)
                assert reason, f"{game}: {facts} is legal but drawn as refused"
                seen += 1
        session.selection = None
        session.act(rnd.choice(session.state.legal_texts()))
    assert seen > 5, f"{game}: the table offered only {seen} refused clicks"


SAMPLE_REFUSALS = {game: settings(game).refusal for game in GAME_IDS}


@pytest.mark.parametrize("game", list(SAMPLE_REFUSALS))
def test_why_not_gives_the_reason_and_refuses_malformed_facts(game: str) -> None:
    state = pyengine.new_game(game, 2, 3)
    facts, words = SAMPLE_REFUSALS[game]
    if facts.get("card") == "HAND":  # a card the seat holds
        facts = dict(facts, card=state.view(state.current_player)["hand"][0])
    reason = state.why_not(facts)
    assert reason and words in reason
    legal_text, legal_facts = next(iter(state.moves().items()))
    assert state.why_not(legal_facts) is None, legal_text
    other = 1 - int(state.current_player or 0)
    assert state.why_not(legal_facts, other) == "it is not your turn"
    with pytest.raises(ValueError, match="an object"):
        state.why_not([1, 2])
    with pytest.raises(ValueError, match="no move is of kind 'teleport'"):
        state.why_not({"kind": "teleport"})
    fields = [k for k in legal_facts if k != "kind"]
    if fields:
        with pytest.raises(ValueError, match="cannot be True"):
            state.why_not({"kind": legal_facts["kind"], **{k: True for k in fields}})
        with pytest.raises(ValueError, match="need"):
            state.why_not({"kind": legal_facts["kind"]})


def test_a_vault_on_the_wrong_side_is_refused_with_its_reason() -> None:
    state = pyengine.new_game("silver-bars", 2, 3)
    play = next(f for f in state.moves().values() if f["kind"] == "play")
    assert state.why_not(dict(play, side=1 - play["side"])) == "silver goes on your own vaults"


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_the_suggestion_comes_from_the_humans_view_and_is_on_the_table(game: str) -> None:
    session = session_for(game, seed=4)
    rnd = random.Random(2)
    while not session.decides_now():
        step(session, rnd)
    seat = session.viewer
    bot, sample = session.hint_search()
    assert sample.seed is None, "a re-dealt sample, never the real state"
    assert sample.view(seat) == session.state.view(seat)
    text = str(bot.choose(sample))
    assert text in session.state.legal_texts()
    hint = drawing.hint_of(session, text)
    if hint.select is not None:
        session.select(hint.select)
    assert text in clickables(drawing.table_html(session)).actions
    session.hint = hint
    session.act(text)
    assert session.hint is None and session.advice == ""


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_a_suggestion_is_found_without_drawing_the_table(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The selection that brings up a suggested move comes from the legal moves' facts (the renderer's
    ``selection_for``): nothing is drawn; clicking it (and, for a Carbles marble, the next one) shows the move,
    and the session keeps the suggestion while its selection is clicked."""
    session = session_for(game, seed=6)
    rnd = random.Random(4)
    renderer = renderer_for(game)
    checked = 0
    for _ in range(40):
        if session.state.is_terminal():
            break
        if session.decides_now():
            text = rnd.choice(session.state.legal_texts())
            with monkeypatch.context() as patched:
                patched.setattr(renderer, "render", lambda *_: pytest.fail("hint_of drew the table"))
                hint = drawing.hint_of(session, text)
            for _ in range(2):
                if hint.select is None:
                    break
                session.hint = hint
                session.select(hint.select)
                assert session.hint is hint, "a click on the suggested selection keeps the suggestion"
                hint = drawing.hint_of(session, text)
            assert text in clickables(drawing.table_html(session)).actions
            checked += 1
            session.selection = None
        step(session, rnd)
    assert checked > 5


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_the_last_turn_of_the_computer_is_marked_with_words(game: str) -> None:
    session = session_for(game, seed=5)
    rnd = random.Random(1)
    for _ in range(12):
        step(session, rnd)
        if session.state.is_terminal():
            break
        recent = session.screen_view()["recent"]
        markup = drawing.table_html(session)
        if 1 in recent and any(f.get("kind") not in ("take", "draw", "end", "strike", "clear", "lo-thief",
                                                      "hi-thief", "token", "no-token", "done", "decline", "defend")
                               for f in recent[1]):
            if "last move of Computer 2" in markup or "last move: Computer 2" in markup:
                return
    pytest.fail(f"{game}: no mark of the computer's last move in 12 moves")


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_a_replay_marks_each_seats_latest_turn_at_every_step(game: str) -> None:
    """Stepping through a replay, the table shows the latest turns as they were at that move."""
    state = pyengine.new_game(game, 2, seed=4)
    rnd = random.Random(2)
    for _ in range(40):
        if state.is_terminal():
            break
        state = state.apply(rnd.choice(state.legal_texts()))
    replay = Replay(state, ["Ann", "Bo"], 0)
    marked = 0
    for index in range(replay.last + 1):
        replay.go(index)
        view = replay.view()
        assert view["recent"] == expected_recent(replay.states[index])
        markup = drawing.render_view(game, view)
        marked += any(words in markup for words in ("last move: Bo", "last move of Bo", "Bo&#x27;s last turn"))
    assert replay.view()["recent"] and marked > 0


@pytest.mark.parametrize("game", GLANCE_GAMES)
def test_an_embed_marks_the_latest_turns(game: str) -> None:
    frame = embed.Embed(embed.from_params({"game": game, "players": "2", "seed": "4", "seat": "0"}))
    assert frame.session is not None and frame.view()["recent"] == {}
    rnd = random.Random(6)
    for _ in range(8):
        frame.session.state = frame.session.state.apply(rnd.choice(frame.session.state.legal_texts()))
    assert frame.view()["recent"] == expected_recent(frame.session.state) != {}
