"""Plain words everywhere: what the table says to a player reads as sentences, never as the engines' notation.

Random games of every game and player count are played; at the human's decisions every text the page can show
is made the way the page makes it: the suggestion for a move (``drawing.hint_of``), the reason a click on a
place that plays nothing is refused (each ``data-try`` of the table, with nothing chosen and with some offered
choices made), the table's tooltips and screen-reader names, the reason a move from an earlier position is
refused (a stale click), the banner, the headline, the scores and the log. Each text is searched for
notation-shaped tokens: grid coordinates, seat, marble, vault and card-place codes, signed numbers, rule numbers,
Python reprs, quoted commands and nested parentheses.

Every text a player sees is also searched for developer words (:data:`DEVELOPER_WORDS`: the runtime's name, a
guard's bound, the rules' bookkeeping): the same texts, and besides them the whole visible text of every table
(each named position and each sampled decision, every game read from the registry), each lesson's words and the
lobby's statistics.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from html import unescape

import pytest
from cardtable_web import drawing, selection
from cardtable_web.controller import TableController
from cardtable_web.effects import LobbyError
from cardtable_web.keeping import KEPT_PREFIX, UNREADABLE_MOVE, UNREADABLE_RECORD, Keeper, MemoryStorage, game_key
from cardtable_web.session import Session
from cardtable_web.setup import read_setup

import pyengine
from pyengine.lessons import lesson_for
from tests.games import GAME_IDS, settings
from tests.playouts import valid_options

NOTATION_SHAPES = {
    "coordinates": re.compile(r"-?\d+,-?\d+|\(-?\d+, -?\d+\)"),
    "seat code": re.compile(r"\b[Pp]\d+"),
    "marble or vault code": re.compile(r"\b[mMvV]\d+\b"),
    "place code": re.compile(r"#\d"),
    "signed number": re.compile(r"(?<![\w♣♢♡♠])[+-]\d"),
    "rule number": re.compile(r"\brules? \d|§"),
    "Python repr": re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]{}]"),
    "quoted command": re.compile(r"(^|[\s(:])'|\"|`"),
    "nested parentheses": re.compile(r"\([^)]*\(|\)\s*\)|\)\s*\("),
    "notation word": re.compile(
        r"\b(lo-thief|hi-thief|discard-in-play|discard-market|search-deck|search-global|factories-zero|"
        r"topdeck-next|no-token|move_goal|partner_out)\b|@|->|\b\w+_\w+\b"
    ),
    "slot counted from 0": re.compile(r"\bslot 0\b"),
}
"""What notation looks like (each a name and a pattern); a text the page shows must match none."""

DEVELOPER_WORDS = {
    "the runtime": re.compile(r"\b(Python|Pyodide|PyScript|runtime|interpreter|Traceback|Exception)\b"),
    "a guard's bound": re.compile(r"\bof at most \d|\bat most \d+ (decks|turns|actions|moves)\b"),
    "the rules' bookkeeping": re.compile(r"\bremoved unseen\b|\bhumans only\b|\bseat \d+ of\b"),
    "a script's leftovers": re.compile(r"\bundefined\b|\bNaN\b|\bnull\b|\[object |\bTrue\b|\bFalse\b"),
    "a broken sentence": re.compile(r"\baway and draw\b"),
}
"""Words of the code, not of the games (each a name and a pattern): no text a player sees holds any."""

PLAYERS = {game: list(settings(game).players(game)) for game in GAME_IDS}
"""The player counts played, each game's from the one table of test settings (``tests/games.py``)."""

DECISIONS = 6
ACTIONS = 500
"""The actions played at most in one game (enough to end most games of most games)."""
"""The human decisions looked at in one game (the page's texts are made for each)."""

TRY = re.compile(r'data-try="([^"]*)"')
LABEL = re.compile(r'(?:title|aria-label)="([^"]*)"')
"""A tooltip or a name a screen reader says."""
SELECT = re.compile(r'data-select="([^"]*)"')


def shapes(text: str) -> list[str]:
    """The names of the notation shapes found in ``text``."""
    return [name for name, pattern in NOTATION_SHAPES.items() if pattern.search(text)]


def developer_words(text: str) -> list[str]:
    """The names of the developer words found in ``text``."""
    return [name for name, pattern in DEVELOPER_WORDS.items() if pattern.search(text)]


def visible_text(html: str) -> str:
    """The text an HTML fragment shows (its tags dropped, its entities read), with its tooltips and names."""
    return unescape(re.sub(r"<[^>]+>", " ", html)) + " " + " ".join(unescape(t) for t in LABEL.findall(html))


def shown_in(text: str, action: str) -> bool:
    """Whether a suggestion shows its move's notation: the whole text, or a text with digits or symbols."""
    said = text.removeprefix("Suggested move: ").split(".")[0].strip().lower()
    notation = action.strip().lower()
    return said == notation or (bool(re.search(r"[\d♣♢♡♠@#:+]", notation)) and notation in text.lower())


def session_for(game: str, players: int, seed: int, rnd: random.Random) -> Session:
    """A game with a human in the first seat and computers elsewhere (every seat a human in a hot-seat game
    when ``seed`` is odd, so that the texts name players too)."""
    bots = list(range(1, players)) if seed % 2 == 0 else []
    setup = read_setup({"game": game, "players": players, "seed": seed, "bots": bots, "level": "easy",
                        "options": valid_options(game, players, rnd), "delay": 0})
    return Session(setup)


def table_texts(session: Session, rnd: random.Random, earlier: list[pyengine.State]) -> Iterator[tuple[str, str]]:
    """(what, text) of every suggestion and refusal the table of the deciding human can show now (a sample of
    each); a suggestion that shows its move's notation is said to be one."""
    view = session.screen_view()
    moves = list(view["moves"])
    for action in rnd.sample(moves, min(4, len(moves))):
        hint = drawing.hint_of(session, action)
        yield ("suggestion showing its notation" if shown_in(hint.words, action) else "suggestion"), hint.words
    board = drawing.table_html(session)
    yield "table text", visible_text(board)
    choices = [None, *rnd.sample(SELECT.findall(board), min(3, len(SELECT.findall(board))))]
    for choice in choices:
        session.selection = None if choice is None else selection.decode(unescape(choice))
        board = drawing.table_html(session)
        for label in set(LABEL.findall(board)):
            yield "tooltip or label", unescape(label)
        tries = TRY.findall(board)
        for attempt in rnd.sample(tries, min(4, len(tries))):
            yield "refusal", session.why_not(unescape(attempt))
    session.selection = None
    for before in earlier[-3:]:  # a click on a move the table offered a moment ago (another tab, a slow page)
        for facts in list(before.moves().values())[:3]:
            reason = session.state.why_not(facts, session.viewer)
            if reason:
                yield "refusal of a stale click", reason


def game_texts(game: str, players: int, seed: int) -> Iterator[tuple[str, str]]:
    """(what, text) of every text sampled in one random game."""
    rnd = random.Random(f"{game}/{players}/{seed}")
    session = session_for(game, players, seed, rnd)
    earlier: list[pyengine.State] = []
    since = 0
    decisions = 0
    for _ in range(ACTIONS):
        state = session.state
        if state.is_terminal():
            break
        seat = state.current_player
        if seat is not None and not session.setup.seats[seat].computer and decisions < DECISIONS and rnd.random() < 0.1:
            session.viewer = seat
            decisions += 1
            yield "banner", drawing.banner(session, since)
            yield "headline", session.feed().headline
            yield from table_texts(session, rnd, earlier)
            since = len(state.history())
        earlier.append(state)
        session.state = state.apply(rnd.choice(state.legal_actions()))
    yield "headline", session.feed().headline
    state = session.state
    scores = drawing.scores_html(state.game, state.scores(), state.current_player, session.names)
    yield "scores", re.sub(r"<[^>]+>", " ", scores)
    for line in session.log_lines():
        yield "log", line


CASES = [(game, players) for game in GAME_IDS for players in PLAYERS[game]]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_every_text_a_player_sees_is_plain_words(game: str, players: int) -> None:
    found: dict[str, tuple[str, str]] = {}
    count = 0
    for seed in (0, 1):
        for what, text in game_texts(game, players, seed):
            count += 1
            for word in developer_words(text):
                found.setdefault(word, (what, text))
            if what == "table text":  # a table shows numbers with signs and codes of its own: only words here
                continue
            for shape in shapes(text) + (["move notation"] if what.endswith("notation") else []):
                found.setdefault(shape, (what, text))
    assert count > 20
    assert not found, "notation where a player reads words:\n" + "\n".join(
        f"{shape} in a {what}: {text}" for shape, (what, text) in found.items())


@pytest.mark.parametrize("text", [
    "Suggested move: play 4 v3.", "Suggested move: 4 m1 -4.", "claim A♢ at -1,0 from P2 with 4♢",
    "choose A♢ (ace of diamonds) (built west…))", "You -6 carbon cut", "Vault 3 is locked (rule 10)",
    "write it as '7♡ @ 1,2'", "use Bike Lanes #1 special", "the special rule of Hydropower (discard-in-play)",
    "you play 7♡ at (2, 3)", "goal slot 0", "None", "[1, 2]",
])
def test_the_notation_shapes_are_recognised(text: str) -> None:
    assert shapes(text)


@pytest.mark.parametrize("text", [
    "You put the 6♣ of silver into your middle vault and draw.", "Computer 2 (easy)'s second marble",
    "Carbon falls by 3 to 55; 4 rounds left", "From the 6♣ you may build clubs only up to a 8.",
    "You score 13, Computer 2 (easy) scores 23; totals 17 to 45.", "the players' cards",
])
def test_plain_sentences_pass(text: str) -> None:
    assert not shapes(text)


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_the_lobby_says_why_a_saved_game_was_put_aside_in_plain_words(game: str) -> None:
    """A kept game whose record no longer reads (a move this version does not allow, a damaged record) is put aside;
    the lobby says so in words, never with the engine's text of the move (its notation)."""
    keeper = Keeper(MemoryStorage())
    session = session_for(game, PLAYERS[game][0], 2, random.Random(game))
    for _ in range(3):
        session.state = session.state.apply(session.state.legal_actions()[0])
    damages = [({"actions": ["m9 -4 @ 1,2 from P2"]}, UNREADABLE_MOVE), ({"seed": "seven"}, UNREADABLE_RECORD)]
    for damage, said in damages:
        keeper.keep(session)
        key = game_key(session)
        kept = json.loads(keeper.storage.getItem(KEPT_PREFIX + key))
        kept["record"] = {**kept["record"], **damage}
        keeper.storage.setItem(KEPT_PREFIX + key, json.dumps(kept))
        message = TableController(keeper).continue_kept(key)[-1]
        assert isinstance(message, LobbyError) and said in message.text
        assert not shapes(message.text), message.text
    assert "m9 -4" in keeper.export_put_aside(), "the engine's own words are kept for a bug report"


@pytest.mark.parametrize("text", [
    "Python is ready.", "Deck: 78 cards · deck 1 of at most 16", "91 removed unseen", "humans only: 0 of 1",
    "You call a worker's strike on Computer 2, which sends the miners 8♣ and 9♢ away and draw.", "undefined",
])
def test_the_developer_words_are_recognised(text: str) -> None:
    assert developer_words(text)


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_no_table_of_a_named_position_shows_developer_words(game: str) -> None:
    """Every named position (the rules' figures, the lessons' steps, the lobby's picture), drawn for its first seat
    and for nobody, shows none of the developer words; nor does any lesson's text."""
    found = []
    for name in pyengine.core.rules_for(game).positions:
        state = pyengine.core.named_position(game, name)
        for seat in (0, None):
            text = visible_text(drawing.render_state(state, seat))
            found += [f"{name} ({word}): {text[:200]}" for word in developer_words(text)]
    for step in lesson_for(game).steps:
        for text in (step.task, step.rule, step.wrong, step.done, *step.before):
            found += [f"lesson ({word}): {text}" for word in developer_words(text)]
    assert not found, "\n".join(found)


def test_the_statistics_say_solo_and_between_people_in_words() -> None:
    """A solo game and a game between people on one device, in the lobby's statistics and history, in words."""
    keeper = Keeper(MemoryStorage())
    games = [(game, 1 if pyengine.GAMES[game].min_players == 1 else 2) for game in pyengine.GAMES]
    for i, (game, players) in enumerate(games):
        setup = replace(read_setup({"game": game, "players": players, "seed": i, "bots": [], "delay": 0,
                                    "names": ["Ann", "Ben"][:players]}), chosen=False)  # counted, as a fresh deal
        session = Session(setup)
        rnd = random.Random(i)
        while not session.state.is_terminal():
            session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
        keeper.finish(session, session.feed().headline)
    lobby = keeper.lobby_summary()
    texts = [" ".join(row) for row in lobby["statistics"]] + [row["text"] for row in lobby["finished"]]
    assert any("solo: won" in text for text in texts) and any("between people: 1 played" in text for text in texts)
    assert any("Ann and Ben on this device" in text for text in texts), texts
    assert not [text for text in texts if developer_words(text)], texts
