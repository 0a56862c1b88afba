"""Soak of the page's doors: hostile addresses, stored entries and embed messages, through the same controllers
the page runs (:mod:`cardtable_web.controller`, :mod:`cardtable_web.embed_controller`; the browser adapters only
pass text in and effects out). Prints what was tried and how much failed::

    python3 tests/bench/hostile.py                  # 2,000 of each kind
    python3 tests/bench/hostile.py --each 20000 --seed 3
    python3 tests/bench/hostile.py --each 0         # only the timed storage shapes

It also times the storage shapes that once froze the page (bad entries by the thousand, a 400,001-entry history
beside a deep saves entry, a deep entry among good games, an orphaned 2,000,000-character kept game): from a
fresh page's start to a usable lobby and a started game, each of which must stay within
:data:`USABLE_SECONDS` on this machine (the page, in Pyodide, is about twice as slow as CPython).

A failure is an exception out of a controller (the page would show "Something went wrong"), a message that quotes
more than :data:`LONGEST_MESSAGE` characters, a lobby that no longer lists or starts a game after a storage attack,
or an embed reply without the command's ``id``. Exit status 1 when anything failed, with the first few to reproduce.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "web")]

from cardtable_web import address  # noqa: E402
from cardtable_web.controller import TableController  # noqa: E402
from cardtable_web.effects import LobbyError, Post, TableScreen  # noqa: E402
from cardtable_web.embed_controller import EmbedController  # noqa: E402
from cardtable_web.keeping import (  # noqa: E402
    HISTORY_KEY,
    KEPT_PREFIX,
    LOBBY_KEY,
    PUT_ASIDE_KEY,
    SAVES_KEY,
    Keeper,
    MemoryStorage,
)
from cardtable_web.session import Session  # noqa: E402
from cardtable_web.setup import Seat, Setup  # noqa: E402

import pyengine  # noqa: E402

USABLE_SECONDS = 2.0
"""How long a hostile store may keep the lobby from being usable (in the page)."""
PYODIDE_FACTOR = 2.0
"""Pure Python in the page is about this much slower than CPython here."""
PYTHON_WORDS = ("Exceeds the limit", "set_int_max_str_digits", "Traceback", "Error:", "sys.")
"""Python's own words, which no message of the site may hold."""
LONGEST_MESSAGE = 600
"""A refusal quotes at most about 40 characters of a bad value; with its sentence it stays under this."""

ODD_TEXTS = ["", "٢", "７", "-0", "1e9", "NaN", "null", "true", "[]", "{}", "%00", "%ZZ", "<script>", "'\"", "\u202e",
             "x" * 5_000, "9" * 40, "-1", "0x10", " 7", "7 ", "+7", "game", "&", "=", "#", "?",
             "9" * 5_000, "9" * 4_301, "1" + "0" * 39, "-" + "9" * 41, "[" * 3_000, "%5B" * 3_000]
ODD_JSON: list[Any] = [None, True, 0, -1, 1.5, 10**30, "", "x" * 3_000, [], {}, [[[[]]]], {"a": {"b": {}}},
                       {"length": 1}, ["x"], "yesterday", float("inf"), 10**40, 2**128, -(2**64)]
HUGE_NUMBER = "9" * 5_000
"""A JSON number past Python's own limit on digits (written into texts, since Python cannot write it)."""


def odd_value(rnd: random.Random, depth: int = 0) -> Any:
    """A JSON value of an unexpected shape: scalars, long texts, nesting, lists and objects of odd values."""
    pick = rnd.random()
    if depth > 3 or pick < 0.5:
        return rnd.choice(ODD_JSON + ODD_TEXTS)
    if pick < 0.75:
        return [odd_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {rnd.choice(["record", "seats", "delay", "title", "updated", "line", "moves", "table", "counted",
                        "result", "levels", "won", "date", "game", "address", "key", "x"]): odd_value(rnd, depth + 1)
            for _ in range(rnd.randrange(5))}


def dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=True)


def nested(depth: int, leaf: str = "1") -> str:
    """A JSON value nested ``depth`` lists deep (Python's own writer would recurse that deep)."""
    return "[" * depth + leaf + "]" * depth


def sample_sessions() -> list[Session]:
    """A game of each kind a few moves in: what the mutations start from."""
    sessions = []
    for game, info in pyengine.GAMES.items():
        players = max(2, info.min_players) if info.max_players >= 2 else 1
        seats = [Seat(False)] + [Seat(True, "easy")] * (players - 1)
        session = Session(Setup(game, players, 5, seats, {}, 0))
        rnd = random.Random(game)
        for _ in range(6):
            if session.state.is_terminal():
                break
            session.state = session.state.apply(rnd.choice(session.state.legal_actions()))
        sessions.append(session)
    return sessions


def mutate(text: str, rnd: random.Random) -> str:
    """A few random edits of an address: parts cut, doubled, swapped for odd text, characters flipped."""
    parts = text.split("&")
    for _ in range(rnd.randrange(1, 4)):
        edit = rnd.randrange(6)
        i = rnd.randrange(len(parts)) if parts else 0
        if edit == 0 and parts:
            del parts[i]
        elif edit == 1 and parts:
            parts.insert(i, parts[i])
        elif edit == 2 and parts:
            name = parts[i].split("=", 1)[0]
            parts[i] = f"{name}={rnd.choice(ODD_TEXTS)}"
        elif edit == 3:
            name = rnd.choice(["seed", "table", "moves", "position", "bots", "x"])
            parts.insert(i, f"{name}={rnd.choice(ODD_TEXTS)}")
        elif edit == 4 and parts:
            chars = list(parts[i])
            if chars:
                chars[rnd.randrange(len(chars))] = rnd.choice(string.printable + "٢é\u0000")
            parts[i] = "".join(chars)
        else:
            parts.append("position=" + "[" * rnd.choice([10, 100, 100_000]))
    return "&".join(parts)


class Soak:
    def __init__(self) -> None:
        self.tried: dict[str, int] = {}
        self.outcomes: dict[str, int] = {}
        """How the inputs that did not fail came out (refused in words, opened, ...): the soak's reach."""
        self.failures: list[str] = []

    def saw(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def attempt(self, kind: str, what: str, run: Callable[[], None]) -> None:
        self.tried[kind] = self.tried.get(kind, 0) + 1
        try:
            run()
        except Exception as exc:  # any exception out of a controller is a failure of the soak
            self.failures.append(f"{kind}: {type(exc).__name__}: {str(exc)[:200]} <- {what[:300]!r}")


def check_effects(effects: list[Any]) -> None:
    for effect in effects:
        if isinstance(effect, LobbyError) and not effect.trouble and len(effect.text) > LONGEST_MESSAGE:
            raise AssertionError(f"a {len(effect.text)}-character message: {effect.text[:100]}")
        if isinstance(effect, LobbyError) and any(words in effect.text for words in PYTHON_WORDS):
            raise AssertionError(f"Python's words: {effect.text[:200]}")
        if isinstance(effect, LobbyError) and effect.trouble:
            raise AssertionError(f"trouble: {effect.text}")


def soak_addresses(soak: Soak, sessions: list[Session], rnd: random.Random, count: int) -> None:
    """Mutated fragments (table and full) and queries, opened as the page opens them."""
    keeper = Keeper(MemoryStorage())
    for i in range(count):
        session = rnd.choice(sessions)
        base = address.encode(session)
        kind = i % 4
        text = mutate(base, rnd) if kind < 2 else "?" + mutate(base.replace("&moves=", "&x="), rnd)
        if kind == 3:
            text = mutate(f"lesson={session.state.game}&step={rnd.choice(['1', '2', HUGE_NUMBER])}", rnd)

        def run(text: str = text, kind: int = kind) -> None:
            control = TableController(keeper)
            effects = control.open_query(text, 7) if kind == 2 else control.address_changed("#" + text)
            check_effects(effects)
            opened = any(isinstance(e, TableScreen) for e in effects) or control.replay is not None
            soak.saw("address opened" if opened else "address refused in words")

        soak.attempt("addresses", text, run)


def soak_storage(soak: Soak, sessions: list[Session], rnd: random.Random, count: int) -> None:
    """Storage holding odd entries beside good ones: the lobby still lists, a game still starts, continues, ends."""
    good = MemoryStorage()
    keeper = Keeper(good)
    for session in sessions:
        keeper.keep(session)
    good_items = dict(good.items)
    keys = [SAVES_KEY, HISTORY_KEY, LOBBY_KEY, PUT_ASIDE_KEY, "cardtable.current-game", *[
        k for k in good_items if k.startswith(KEPT_PREFIX)]]
    for _ in range(count):
        storage = MemoryStorage()
        storage.items = dict(good_items)
        for key in rnd.sample(keys, rnd.randrange(1, 4)):
            storage.items[key] = _odd_entry(storage.items.get(key), rnd)

        def run(storage: MemoryStorage = storage) -> None:
            control = TableController(Keeper(storage))
            check_effects(control.migrate())
            lobby = control.keeper.lobby_summary()
            for row in lobby["kept"][:2]:
                check_effects(control.continue_kept(row["key"]))
            effects = control.start(json.dumps({"game": "silver-bars", "players": 2, "seed": 99, "bots": [1],
                                                "level": "easy", "delay": 0}))
            check_effects(effects)
            if not any(isinstance(e, TableScreen) for e in effects):
                raise AssertionError("no game started")
            if control.keeper.lobby_summary()["aside"]:
                soak.saw("storage entry put aside")

        soak.attempt("storage states", json.dumps({k: storage.items.get(k, "")[:200] for k in keys}), run)


def _odd_entry(text: str | None, rnd: random.Random) -> str:
    """An odd stored text: an unexpected shape, a good entry with one field changed, cut short, or nested deep."""
    pick = rnd.randrange(5)
    if pick == 0 or text is None:
        return dumps(odd_value(rnd))
    if pick == 1:
        try:
            value = json.loads(text)
        except ValueError:
            return text[: len(text) // 2]
        if isinstance(value, dict) and value:
            name = rnd.choice(list(value))
            if isinstance(value[name], dict) and value[name] and rnd.random() < 0.5:
                inner = rnd.choice(list(value[name]))
                value[name][inner] = odd_value(rnd)
            else:
                value[name] = odd_value(rnd)
        elif isinstance(value, list) and value:
            value[rnd.randrange(len(value))] = odd_value(rnd)
        return dumps(value)
    if pick == 2:
        return text[: rnd.randrange(len(text) + 1)]
    if pick == 3:
        return "[" * rnd.choice([65, 1000, 100_000])
    return "x" * rnd.choice([10, 6_000_000])


def soak_embed(soak: Soak, rnd: random.Random, count: int) -> None:
    """Embed commands of every odd shape, each answered with its id kept (or refused without one when unreadable)."""
    frames = ["?game=carbondale&position=figure-1", "?game=silver-bars&players=2&interactive=1&seat=0",
              "?game=carbles&players=4", "?game=cardcassonne&players=2&interactive=1&seat=0&level=easy"]
    records = [s.state.record() for s in sample_sessions()]
    for i in range(count):
        command: Any = rnd.choice([
            {"type": "load", "position": "figure-1"},
            {"type": "load", "record": rnd.choice(records), "seat": 0},
            {"type": "play", "action": rnd.choice(["build 4♣ at 1,0", "discard 5♠", "end turn", "x"])},
            {"type": rnd.choice(["load", "play", "x", 7, [], None])},
        ])
        command = json.loads(json.dumps({**command, "id": i}))
        for _ in range(rnd.randrange(3)):
            field = rnd.choice(["position", "record", "players", "options", "seat", "action", "game"])
            if isinstance(command.get(field), dict) and command[field] and rnd.random() < 0.7:
                command[field][rnd.choice(list(command[field]))] = odd_value(rnd)  # one field of a good value
            else:
                command[field] = odd_value(rnd)
        text = dumps(command) if rnd.random() < 0.9 else rnd.choice([
            "{", "[]", "null", dumps(odd_value(rnd)), f'{{"type": "load", "id": {i}, "position": {nested(3_000)}}}',
            f'{{"type": "load", "id": {i}, "record": {{"seed": {HUGE_NUMBER}}}}}',
            f'{{"type": "play", "id": {i}, "action": {HUGE_NUMBER}}}'])

        def run(text: str = text, search: str = rnd.choice(frames), i: int = i) -> None:
            control = EmbedController()
            control.open_address(search, 3)
            posts = [e.event for e in control.command(text) if isinstance(e, Post)]
            readable = text.startswith('{"type"') and HUGE_NUMBER not in text and "[" * 100 not in text
            if readable and not any(p.get("id") == i for p in posts):
                raise AssertionError(f"no reply kept the id: {posts}")
            soak.saw(f"embed reply {posts[0].get('type') if posts else 'none'}")
            for post in posts:
                message = str(post.get("message", ""))
                if len(message) > LONGEST_MESSAGE:
                    raise AssertionError("a long message")
                if any(words in message for words in PYTHON_WORDS):
                    raise AssertionError(f"Python's words: {message[:200]}")

        soak.attempt("embed messages", text, run)


def timed_stores(sessions: list[Session]) -> dict[str, dict[str, str]]:
    """The storage shapes that once froze the page, each a fresh store of this machine's browser."""
    good = MemoryStorage()
    Keeper(good).finish(sessions[0], "done")  # a game a few moves long: a thousand of them fit in the quota
    entry = json.loads(good.items[HISTORY_KEY])[0]
    stores: dict[str, dict[str, str]] = {}
    for bad in (500, 1_000, 2_000, 4_000):
        stores[f"{bad:,} bad history entries"] = {HISTORY_KEY: json.dumps([{**entry, "date": "now"}] * bad + [entry])}
    stores["400,001-entry history, deep saves"] = {HISTORY_KEY: "[" + ",".join(["1"] * 400_001) + "]",
                                                  SAVES_KEY: '{"a":' * 400_000}
    stores["a list 100 deep among good games"] = {HISTORY_KEY: "[" + ",".join([json.dumps(entry), nested(100)] * 25)
                                                 + "]"}
    stores["4,000 bad saves"] = {SAVES_KEY: json.dumps({f"k{i}": {"updated": "then"} for i in range(4_000)})}
    stores["orphaned 2,000,000-character game"] = {KEPT_PREFIX + "x": json.dumps({"record": "y" * 2_000_000})}
    stores["huge numbers everywhere"] = {key: f'[{{"date": {HUGE_NUMBER}}}]' for key in (HISTORY_KEY, SAVES_KEY,
                                                                                        PUT_ASIDE_KEY, LOBBY_KEY)}
    stores["5,000,000 characters of brackets"] = {HISTORY_KEY: "[" * 5_000_000}
    stores["2,500,000 ones in a broken list"] = {HISTORY_KEY: "[" + "1," * 2_500_000}
    return stores


def time_storage(soak: Soak, sessions: list[Session]) -> list[str]:
    """Each timed store: the seconds from a fresh page's start (migrate, the lobby) to a started game, in CPU time
    (the figure a machine of its own would see) beside the clock's."""
    lines = []
    for name, items in timed_stores(sessions).items():
        storage = MemoryStorage()
        storage.items = dict(items)
        size = sum(map(len, items.values()))
        started, cpu = time.perf_counter(), time.process_time()

        def run(storage: MemoryStorage = storage) -> None:
            control = TableController(Keeper(storage))
            check_effects(control.migrate())
            control.keeper.lobby_summary()
            effects = control.start(json.dumps({"game": "silver-bars", "players": 2, "bots": [1], "level": "easy"}))
            if not any(isinstance(e, TableScreen) for e in effects):
                raise AssertionError("no game started")

        soak.attempt("timed stores", name, run)
        took, wall = time.process_time() - cpu, time.perf_counter() - started
        if took * PYODIDE_FACTOR > USABLE_SECONDS:
            soak.failures.append(f"timed stores: {name} took {took:.2f} s (about {took * PYODIDE_FACTOR:.1f} s "
                                 "in the page)")
        aside = Keeper(storage).aside()
        lines.append(f"  {name} ({size:,} characters): {took:.3f} s of CPU ({wall:.3f} s on the clock, the machine "
                     "shared) to a usable lobby and a started game; "
                     f"{sum(e.get('count', 1) for e in aside):,} put aside")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--each", type=int, default=2_000, help="inputs of each kind (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    soak = Soak()
    sessions = sample_sessions()
    stores = time_storage(soak, sessions)
    started = time.perf_counter()
    soak_addresses(soak, sessions, rnd, args.each)
    soak_storage(soak, sessions, rnd, args.each)
    soak_embed(soak, rnd, args.each)
    took = time.perf_counter() - started
    tried = ", ".join(f"{n} {kind}" for kind, n in soak.tried.items())
    print(f"hostile inputs tried: {tried} ({sum(soak.tried.values())} in all, {took:.0f} s); "
          f"failures: {len(soak.failures)}")
    print("  outcomes: " + ", ".join(f"{kind} {n}" for kind, n in sorted(soak.outcomes.items())))
    print("storage that once froze the page (CPython here; the page is about twice as slow):")
    print("\n".join(stores))
    for failure in soak.failures[:5]:
        print("  " + failure)
    return 1 if soak.failures else 0


if __name__ == "__main__":
    sys.exit(main())
