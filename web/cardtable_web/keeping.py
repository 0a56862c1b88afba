"""Games kept in the browser: unfinished games (several, one per game identity), finished ones, the statistics
drawn from them, and the lobby's summary of all that. Written against a Storage-like object (``getItem``,
``setItem``, ``removeItem``: the page's ``localStorage``, or a dict in tests), so it runs under CPython too.

What is stored
--------------
* ``cardtable.saves`` (:data:`SAVES_KEY`): ``{game key: summary}`` of the unfinished games. The key is the game's
  identity (:func:`game_key`: game, seed, seats and options); the summary holds when it was kept (``updated``, ms),
  ``moves``, ``line`` (the address's move codes, to tell one line of play from another) and the lobby's words
  (``title``, ``against``, ``progress``).
* ``cardtable.kept.<game key>`` (:data:`KEPT_PREFIX`): the game itself, ``{"record", "seats", "delay", "table",
  "counted"}``: the engine's record (game, rules version, players, options, seed, actions), who sits where, the
  table's name that its sealed address gives instead of the seed (:func:`cardtable_web.address.sealed`; the summary
  holds it too) and whether it counts in the statistics. The address is derived from it.
* ``cardtable.history`` (:data:`HISTORY_KEY`): the finished games, newest first, each a summary with its result
  and the same ``record``, ``seats`` and ``delay``.
* ``cardtable.lobby`` (:data:`LOBBY_KEY`): what the lobby shows before Python is ready, as plain text
  (:meth:`Keeper.lobby_summary`); the lobby's script only displays it.
* ``cardtable.put-aside`` (:data:`PUT_ASIDE_KEY`): stored entries that could not be read, kept for a bug report
  (exported or cleared from the lobby), never deleted unasked.

Earlier versions kept a game as its address (``{"address": ...}`` entries) and the game on the table as a full save
(``cardtable.current-game``); :meth:`Keeper.migrate` brings both in once.

Storage is read like hostile input: every entry through :meth:`Keeper.read` (bounded size and depth, then a shape
check); a bad entry is put aside with a message in words and the rest keeps working.

Nothing is overwritten without consent: a kept game is replaced only by the same game further on (its moves start
with the kept ones), or by this tab going back from what it kept. If another tab moved the same game elsewhere,
:meth:`Keeper.keep` refuses and the page offers to load the newer position.
"""

from __future__ import annotations

import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import pyengine
from pyengine.ai import LEVELS

from . import address
from .session import Session
from .setup import DEFAULT_DELAY_MS, MAX_DELAY_MS, Seat, Setup, option_text, whole

SAVES_KEY = "cardtable.saves"
KEPT_PREFIX = "cardtable.kept."
HISTORY_KEY = "cardtable.history"
LOBBY_KEY = "cardtable.lobby"
PUT_ASIDE_KEY = "cardtable.put-aside"
OLD_CURRENT_KEY = "cardtable.current-game"
"""Earlier versions' game on the table, a full save (read once by :meth:`Keeper.migrate`)."""
OLD_LAST_KEY = "cardtable.last-game"
OLD_UNREADABLE_KEY = "cardtable.unreadable-save"
MAX_SAVES = 20
MAX_HISTORY = 50
MAX_LISTED = 10
"""Finished games the lobby lists (the statistics count them all)."""
MAX_STORED = 5_000_000
"""A stored entry longer than this is not read (a browser's storage holds about this much in all)."""
MAX_DEPTH = 64
MAX_TEXT = 300
"""The longest title, result or key a summary may hold."""
MAX_ASIDE = 1_000_000
"""Put-aside text beyond this is cut (the storage must keep room for games)."""
PUT_ASIDE = "A saved game could not be read and was put aside."
UNREADABLE_MOVE = "one of its moves is not a move this version of the game allows"
UNREADABLE_RECORD = "its record is damaged or was made by another version of the site"


def put_aside_words(problem: ValueError) -> str:
    """The lobby's message for a kept game that could not be read, in plain words: what was wrong in general,
    never the engine's text of it (which names moves in notation; it is kept with what was put aside, for a
    bug report)."""
    why = UNREADABLE_MOVE if str(problem).startswith("record step") else UNREADABLE_RECORD
    return f"{PUT_ASIDE.removesuffix('.')}: {why}. Its details are kept for a bug report."
CANNOT_KEEP = ("This browser cannot keep the game (storage is full or switched off); play goes on, and the "
               "address still holds the game.")

_BRACKET = re.compile(r"[\[\]{}]")
_LINE = re.compile(r"[0-9a-z.]*")


class Storage(Protocol):
    def getItem(self, key: str) -> Any: ...  # noqa: N802 (the DOM's names)
    def setItem(self, key: str, value: str) -> None: ...  # noqa: N802
    def removeItem(self, key: str) -> None: ...  # noqa: N802


class MemoryStorage:
    """A Storage in a dict, for the tests and the benchmarks."""

    def __init__(self, quota: int | None = None) -> None:
        self.items: dict[str, str] = {}
        self.quota = quota

    def getItem(self, key: str) -> str | None:  # noqa: N802
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if self.quota is not None and sum(map(len, self.items.values())) + len(value) > self.quota:
            raise OSError("QuotaExceededError")
        self.items[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)


def too_deep(text: str) -> bool:
    """Whether ``text``'s arrays and objects nest deeper than :data:`MAX_DEPTH` (``json.loads`` on
    ``"[" * 100000`` crashes Python in the page). Its escapes are dropped and its strings split off with
    string methods, so a long entry is measured without a Python loop over every character."""
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    depth = 0
    for bracket in _BRACKET.findall(outside):
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def moves_of(fragment: str) -> str:
    """The moves part of an address fragment."""
    for part in fragment.split("&"):
        if part.startswith("moves="):
            return part[len("moves=") :]
    return ""


def extends(newer: str, older: str) -> bool:
    """Whether the moves ``newer`` continue the moves ``older`` (or are the same)."""
    return newer == older or not older or newer.startswith(older + ".")


def game_key(session: Session) -> str:
    """A game's identity among the kept games: the game, its seed, its seats, the options that differ from the
    game's defaults and the position it started from (the same address with another option is another game)."""
    setup, state = session.setup, session.state
    seats = ".".join(("c" + s.level[0]) if s.computer else "h" for s in setup.seats)
    key = f"{setup.game}:{setup.seed}:{seats}"
    options = [f"{o.name}={option_text(state.options[o.name])}" for o in session.info.options
               if state.options[o.name] != o.default]
    if options:
        key += ":" + "&".join(options)
    if state.position is not None:
        text = json.dumps(state.position, sort_keys=True, separators=(",", ":"))
        key += f":position-{zlib.crc32(text.encode()):08x}"
    return key


def line_of(session: Session) -> str:
    """The game's moves as its address writes them (each the index of the action among the legal ones)."""
    session.trail.follow(session.state)
    return ".".join(session.trail.codes)


def summary(session: Session) -> dict[str, str]:
    """What the lobby says of a kept game without Python: its title, who plays, how far it went."""
    state = session.state
    computers = [s for s in session.setup.seats if s.computer]
    humans = len(session.setup.seats) - len(computers)
    if not computers:
        against = "solo" if humans == 1 else f"{humans} players on this device"
    else:
        levels = sorted({s.level for s in computers}, key=list(LEVELS).index)
        against = ("against " if humans else "") + (
            "Computer" if len(computers) == 1 else f"{len(computers)} computers"
        ) + f" ({', '.join(levels)})"
    view = state.view(None)
    progress = f"round {view['round']}" if whole(view.get("round")) else f"move {state.played}"
    return {"title": session.info.title, "against": against, "progress": progress}


def the_game(session: Session) -> dict[str, Any]:
    """The stored form of a game: its record, who sits where and the computer's pace."""
    return {
        "record": session.record(),
        "seats": [{"computer": s.computer, "level": s.level} for s in session.setup.seats],
        "delay": session.setup.delay,
        "table": session.table,
        "counted": session.counted,
    }


def deal_of(entry: object) -> address.Deal | None:
    """The deal a stored game (kept or finished) holds: its record's seed and position, and whether it counts
    (not when it came from a link or from a position); None when the entry holds no such record."""
    if not isinstance(entry, dict) or not isinstance(record := entry.get("record"), dict):
        return None
    seed, position = record.get("seed"), record.get("position")
    if not isinstance(seed, int) or not whole(seed) or not (position is None or isinstance(position, dict)):
        return None
    counted = entry.get("counted", True) is not False and position is None
    return address.Deal(seed, counted, position)


def session_from(entry: object) -> Session:
    """The game a stored entry holds: ``{"record", "seats", "delay"}`` (also the full save of earlier versions,
    which adds ``viewer``), or an earlier version's ``{"address": fragment}``; ``ValueError`` in words."""
    if not isinstance(entry, dict):
        raise ValueError("it is not an object")
    if "record" not in entry and isinstance(entry.get("address"), str):
        return address.decode(entry["address"])
    state = pyengine.replay(entry.get("record"))
    raw = entry.get("seats")
    if not isinstance(raw, list) or len(raw) != state.players or not all(isinstance(s, dict) for s in raw):
        raise ValueError("its seats do not match its game")
    seats = [Seat(s.get("computer") is True, s.get("level", "normal")) for s in raw]
    if any(not isinstance(s.level, str) or s.level not in LEVELS for s in seats):
        raise ValueError("its seats name no computer level of this site")
    delay = entry.get("delay", DEFAULT_DELAY_MS)
    if not whole(delay) or not 0 <= delay <= MAX_DELAY_MS:
        delay = DEFAULT_DELAY_MS
    session = Session(Setup(state.game, state.players, int(state.seed or 0), seats, dict(state.options), delay), state)
    table = entry.get("table", "")
    session.table = table if isinstance(table, str) and address.TABLE_NAME.fullmatch(table) else ""
    session.counted = entry.get("counted", True) is not False and state.position is None
    return session


# -- the shapes of stored entries ---------------------------------------------------------------------------------


def _text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def _count(value: object) -> bool:
    return whole(value) and 0 <= value < 10**15  # type: ignore[operator]


def save_problem(key: object, entry: object) -> str | None:
    """What is wrong with an unfinished game's summary (None: nothing)."""
    if not _text(key) or not isinstance(entry, dict):
        return "it is not a kept game's summary"
    if not _count(entry.get("updated")):
        return "its date is not a time"
    if not all(_text(entry.get(name)) for name in ("title", "against", "progress")):
        return "its title, players or progress are not short texts"
    if not _text(entry.get("table", "")):
        return "its table's name is not a name"
    if isinstance(entry.get("address"), str) and "line" not in entry:
        return None  # an earlier version's entry: the address is read when the game is
    line = entry.get("line")
    if not isinstance(line, str) or not _LINE.fullmatch(line) or not _count(entry.get("moves")):
        return "its moves are not a game's moves"
    return None


def finished_problem(entry: object) -> str | None:
    """What is wrong with a finished game's entry (None: nothing)."""
    if not isinstance(entry, dict):
        return "it is not a finished game"
    if not _count(entry.get("date")):
        return "its date is not a time"
    if not all(_text(entry.get(name, "")) for name in ("title", "against", "result")):
        return "its title, players or result are not short texts"
    levels = entry.get("levels")
    if not isinstance(levels, list) or not all(isinstance(level, str) and level in LEVELS for level in levels):
        return "its computer levels are not levels of this site"
    if entry.get("won") not in (True, False, None) or not _count(entry.get("takebacks", 0)):
        return "its result is not a result"
    if not _text(entry.get("table", "")) or entry.get("counted", True) not in (True, False):
        return "its table's name is not a name"
    record = entry.get("record")
    if record is None and isinstance(entry.get("address"), str):
        return None  # an earlier version's entry: the address is read when the game is replayed
    if not isinstance(record, dict) or record.get("game") not in pyengine.GAMES or not isinstance(
            record.get("actions"), list) or not isinstance(entry.get("seats"), list):
        return "it holds no game"
    return None


def lobby_problem(lobby: object) -> str | None:
    """What is wrong with a stored lobby summary's finished games and statistics (None: nothing)."""
    if not isinstance(lobby, dict):
        return "it is not a summary"
    done, table = lobby.get("finished"), lobby.get("statistics")
    if not isinstance(done, list) or not all(
            isinstance(row, dict) and _count(row.get("index")) and _count(row.get("date")) and _text(row.get("text"))
            for row in done):
        return "its finished games are not rows"
    if not isinstance(table, list) or not all(
            isinstance(row, list) and len(row) == 5 and all(_text(cell) for cell in row) for row in table):
        return "its statistics are not rows"
    return None


@dataclass
class Kept:
    """What happened to a save: kept, refused (another tab moved on), or the storage failed.

    ``token`` is what this tab kept (its line of moves): give it back as ``last_kept`` to the next
    :meth:`Keeper.keep` and to :meth:`Keeper.moved_elsewhere`."""

    ok: bool
    conflict: bool = False
    message: str = ""
    token: str | None = None


class Keeper:
    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        self._read_cache: dict[str, tuple[str, Any]] = {}
        """The last text read (or written) under each key and its value: the same text is not parsed again."""

    # -- reading and writing, surviving a broken, full or tampered storage ---------------------------------------
    def raw(self, key: str) -> str | None:
        try:
            text = self.storage.getItem(key)
        except Exception:  # storage switched off: nothing kept
            return None
        return text if isinstance(text, str) else None

    def read(self, key: str, kind: type, default: Any, set_aside: bool = True) -> Any:
        """The JSON stored under ``key`` if it is of ``kind`` (``dict`` or ``list``); else ``default``, and the
        entry is put aside (unless it was absent, or ``set_aside`` is false: a summary made again at once)."""
        text = self.raw(key)
        if text is None:
            return default
        cached = self._read_cache.get(key)
        if cached is not None and cached[0] == text:
            return cached[1]
        value = None
        if len(text) <= MAX_STORED and not too_deep(text):
            try:
                value = json.loads(text)
            except ValueError:  # JSONDecodeError, and integers beyond CPython's digit limit
                value = None
        if not isinstance(value, kind):
            if set_aside and self.put_aside(key, text, "it is not readable JSON of the right kind"):
                self.remove(key)  # (when even that fails, the entry stays where it is, unread)
            return default
        self._read_cache[key] = (text, value)
        return value

    def write(self, key: str, value: Any) -> bool:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        try:
            self.storage.setItem(key, text)
        except Exception:  # QuotaExceededError, SecurityError: survivable
            return False
        self._read_cache[key] = (text, value)
        return True

    def remove(self, key: str) -> None:
        self._read_cache.pop(key, None)
        try:
            self.storage.removeItem(key)
        except Exception:  # storage switched off: nothing to remove
            pass

    # -- entries put aside -------------------------------------------------------------------------------------------
    def put_aside(self, where: str, text: object, reason: str) -> bool:
        """Keep an unreadable entry (its text, or its JSON) for a bug report; False if the storage refused it."""
        if not isinstance(text, str):
            text = json.dumps(text, ensure_ascii=False)
        aside = self.aside()
        aside.append({"from": where[:MAX_TEXT], "reason": reason, "date": int(self.clock() * 1000),
                      "text": text[:MAX_ASIDE]})
        return self.write(PUT_ASIDE_KEY, aside)

    def aside(self) -> list[dict[str, Any]]:
        """The entries put aside (an unreadable list of them is itself kept as one)."""
        text = self.raw(PUT_ASIDE_KEY)
        if text is None:
            return []
        try:
            value = json.loads(text) if len(text) <= MAX_STORED and not too_deep(text) else None
        except ValueError:
            value = None
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):
            return value
        return [{"from": PUT_ASIDE_KEY, "reason": "the list of entries put aside was unreadable",
                 "text": text[:MAX_ASIDE]}]

    def export_put_aside(self) -> str:
        """The entries put aside, as text for a bug report ("" when there are none)."""
        aside = self.aside()
        return json.dumps(aside, ensure_ascii=False, indent=1) if aside else ""

    def clear_put_aside(self) -> None:
        self.remove(PUT_ASIDE_KEY)
        self.remove(OLD_UNREADABLE_KEY)
        self.lobby_summary(finished=False)

    # -- unfinished games -----------------------------------------------------------------------------------------
    def saves(self) -> dict[str, dict[str, Any]]:
        """The unfinished games' summaries by game key; a bad one is put aside (the others stay)."""
        saves = self.read(SAVES_KEY, dict, {})
        bad = {key: problem for key, entry in saves.items() if (problem := save_problem(key, entry))}
        if not bad:
            return dict(saves)
        for key, problem in bad.items():
            self.put_aside(f"{SAVES_KEY} {key}"[:MAX_TEXT], {"key": key, "entry": saves[key]}, problem)
        good = {key: entry for key, entry in saves.items() if key not in bad}
        self.write(SAVES_KEY, good)
        return good

    def keep(self, session: Session, now: float | None = None, last_kept: str | None = None) -> Kept:
        """Keep the game on the table (unfinished), unless another tab moved it elsewhere.

        ``last_kept`` is the token this tab kept last (:attr:`Kept.token`): from there this tab may go anywhere
        (a take-back too)."""
        key = game_key(session)
        line = line_of(session)
        saves = self.saves()
        kept = saves.get(key)
        if kept is not None and self._line(kept) != last_kept and not extends(line, self._line(kept)):
            return Kept(False, conflict=True)
        entry = {"updated": self._now(now), "game": session.setup.game, "moves": session.state.played,
                 "line": line, "table": session.table, **summary(session)}
        saves.pop(key, None)
        saves[key] = entry
        dropped = []
        while len(saves) > MAX_SAVES:  # the oldest go first
            oldest = min(saves, key=lambda k: saves[k]["updated"])
            dropped.append(oldest)
            del saves[oldest]
        ok = self.write(KEPT_PREFIX + key, the_game(session)) and self.write(SAVES_KEY, saves)
        for old in dropped:
            self.remove(KEPT_PREFIX + old)
        self.lobby_summary(finished=False)
        if not ok:
            return Kept(False, message=CANNOT_KEEP, token=None)
        return Kept(True, token=line)

    def table_of(self, session: Session) -> str:
        """The table's name of the kept game that ``session`` is (empty when it is not kept)."""
        kept = self.saves().get(game_key(session))
        table = kept.get("table", "") if kept is not None else ""
        return table if isinstance(table, str) else ""

    def deal(self, table: str) -> address.Deal | None:
        """The seed (and whether it counts) of the game kept here under the table's name ``table``: unfinished,
        else finished (a sealed address of a game that ended since). None when this browser keeps none. Read from
        the stored record, without replaying it (opening the address replays it)."""
        for key, kept in self.saves().items():
            if kept.get("table") == table:
                return deal_of(self.read(KEPT_PREFIX + key, dict, None))
        for entry in self.history():
            if entry.get("table") == table:
                return deal_of(entry)
        return None

    def moved_elsewhere(self, session: Session, last_kept: str | None) -> bool:
        """Whether another tab kept this game at another point than this tab's ``last_kept``."""
        kept = self.saves().get(game_key(session))
        return kept is not None and self._line(kept) != last_kept

    def load(self, key: str) -> Session:
        """The kept game ``key``; ``ValueError`` in words (an unreadable one is put aside)."""
        key = str(key)
        summary_entry = self.saves().get(key)
        if summary_entry is None:
            raise ValueError("That game is no longer kept in this browser.")
        if "line" not in summary_entry:  # an earlier version's entry: its address is the game
            stored: Any = {"address": summary_entry["address"]}
        else:
            stored = self.read(KEPT_PREFIX + key, dict, None)  # an unreadable text is put aside by read
        if stored is None:
            self.discard(key)
            raise ValueError(f"{PUT_ASIDE} (Its moves are missing.)")
        try:
            return session_from(stored)
        except ValueError as exc:
            self.put_aside(KEPT_PREFIX + key, stored, str(exc)[:MAX_TEXT])
            self.discard(key)
            raise ValueError(put_aside_words(exc)) from None

    def discard(self, key: str) -> None:
        saves = self.saves()
        if saves.pop(str(key), None) is not None:
            self.write(SAVES_KEY, saves)
        self.remove(KEPT_PREFIX + str(key))
        self.lobby_summary(finished=False)

    # -- finished games ---------------------------------------------------------------------------------------------
    def finish(self, session: Session, result: str, now: float | None = None) -> Kept:
        """Move a finished game from the unfinished ones into the history (once)."""
        key, line = game_key(session), line_of(session)
        history = self.history()
        if any(h.get("key") == key and h.get("line") == line for h in history):
            return Kept(True, token=line)
        saves = self.saves()
        saves.pop(key, None)
        winners = session.state.winners()
        you = session.you
        entry = {
            "date": self._now(now), "game": session.setup.game, "key": key, "line": line, **summary(session),
            "result": str(result)[:MAX_TEXT], "won": None if you is None else you in winners,
            "levels": sorted({s.level for s in session.setup.seats if s.computer}, key=list(LEVELS).index),
            "takebacks": session.state.takebacks, **the_game(session),
        }
        ok = self.write(HISTORY_KEY, [entry, *history][:MAX_HISTORY])
        if ok:  # (when the history is full, the game stays among the unfinished ones rather than be lost)
            self.write(SAVES_KEY, saves)
            self.remove(KEPT_PREFIX + key)
        self.lobby_summary()
        return Kept(ok, message="" if ok else "This browser could not keep the finished game (storage is full).",
                    token=line)

    def history(self) -> list[dict[str, Any]]:
        """The finished games, newest first; a bad entry is put aside (the others stay)."""
        history = self.read(HISTORY_KEY, list, [])
        problems = [finished_problem(entry) for entry in history]
        if not any(problems):
            return list(history)
        for entry, problem in zip(history, problems, strict=True):
            if problem:
                self.put_aside(HISTORY_KEY, entry, problem)
        good = [entry for entry, problem in zip(history, problems, strict=True) if not problem]
        self.write(HISTORY_KEY, good)
        return good

    def finished(self, index: int) -> Session:
        """The finished game at ``index`` of the history (0: the newest), to replay; ``ValueError`` in words."""
        history = self.history()
        if not whole(index) or not 0 <= index < len(history):
            raise ValueError("That finished game is no longer kept in this browser.")
        try:
            return session_from(history[index])
        except ValueError as exc:
            self.put_aside(HISTORY_KEY, history[index], str(exc)[:MAX_TEXT])
            self.write(HISTORY_KEY, history[:index] + history[index + 1 :])
            self.lobby_summary()
            raise ValueError(put_aside_words(exc)) from None

    # -- earlier versions' storage ------------------------------------------------------------------------------------
    def migrate(self) -> str | None:
        """Bring in what earlier versions kept (once): the full save of the game on the table
        (``cardtable.current-game``) and kept games stored as their address; an unreadable one is put aside.
        Returns the message for the lobby when something was put aside (None: nothing to say)."""
        aside_before = len(self.aside())
        saves_before = self.raw(SAVES_KEY)
        old = self.raw(OLD_UNREADABLE_KEY)
        if old is not None:
            self.put_aside(OLD_UNREADABLE_KEY, old, "an earlier version could not read it")
            self.remove(OLD_UNREADABLE_KEY)
        current = self.raw(OLD_CURRENT_KEY)
        if current is not None:
            _migrate_current(self, current)
        self.remove(OLD_LAST_KEY)  # the last finished game: the history holds it too
        for key, entry in self.saves().items():
            if "line" not in entry:
                _migrate_save(self, key, entry)
        self.lobby_summary(finished=len(self.aside()) > aside_before or self.raw(SAVES_KEY) != saves_before)
        return PUT_ASIDE if len(self.aside()) > aside_before else None

    # -- the lobby -----------------------------------------------------------------------------------------------
    def lobby_summary(self, finished: bool = True) -> dict[str, Any]:
        """What the lobby shows, in plain text (also written to :data:`LOBBY_KEY` for the next visit's lobby,
        drawn before Python is ready)::

            {"kept": [{"key", "text", "updated"}], "finished": [{"index", "text", "date"}],
             "statistics": [[game, played, won, by opponent, with take-backs]], "aside": message or ""}

        ``updated`` and ``date`` are milliseconds since 1970 (the lobby says them in the reader's time zone).
        ``finished=False``: only the unfinished games changed, so the finished ones and the statistics are taken
        from the summary written before (the history, which holds every finished game's record, is not read
        again on every move) unless that summary is unreadable."""
        saves = self.saves()
        kept = [{"key": key, "text": f"{e['title']} {e['against']}, {e['progress']}", "updated": e["updated"]}
                for key, e in sorted(saves.items(), key=lambda item: -item[1]["updated"])]
        before = self.read(LOBBY_KEY, dict, {}, set_aside=False) if not finished else {}
        if lobby_problem(before) is None:
            done, table = before["finished"], before["statistics"]
        else:
            history = self.history()
            done = [{"index": i, "date": h["date"], "text": finished_text(h)}
                    for i, h in enumerate(history[:MAX_LISTED])]
            table = statistics_rows(statistics(history))
        lobby = {"kept": kept, "finished": done, "statistics": table,
                 "aside": PUT_ASIDE if self.raw(PUT_ASIDE_KEY) is not None else ""}
        self.write(LOBBY_KEY, lobby)
        return lobby

    def _now(self, now: float | None) -> int:
        return int((self.clock() if now is None else now) * 1000)

    @staticmethod
    def _line(kept: dict[str, Any]) -> str:
        line = kept.get("line")
        return line if isinstance(line, str) else moves_of(str(kept.get("address", "")))


def _migrate_current(keeper: Keeper, text: str) -> None:
    """An earlier version's save of the game on the table, kept as today's (an unreadable one put aside)."""
    stored = keeper.read(OLD_CURRENT_KEY, dict, None)  # an unreadable text is put aside by read
    if stored is None:
        return
    try:
        session = session_from(stored)
    except ValueError as exc:
        keeper.put_aside(OLD_CURRENT_KEY, text, str(exc)[:MAX_TEXT])
        keeper.remove(OLD_CURRENT_KEY)
        return
    if not session.state.is_terminal() and game_key(session) not in keeper.saves():
        keeper.keep(session)
    keeper.remove(OLD_CURRENT_KEY)

def _migrate_save(keeper: Keeper, key: str, entry: dict[str, Any]) -> None:
    """An earlier version's kept game (its address) in today's form, under today's key (which names the
    options)."""
    session: Session | None = None
    try:
        session = address.decode(entry["address"])
    except ValueError as exc:
        keeper.put_aside(f"{SAVES_KEY} {key}"[:MAX_TEXT], entry, str(exc)[:MAX_TEXT])
    saves = keeper.saves()
    saves.pop(key, None)
    keeper.write(SAVES_KEY, saves)
    if session is not None and not session.state.is_terminal():
        keeper.keep(session, entry["updated"] / 1000)


def finished_text(entry: dict[str, Any]) -> str:
    """A finished game in the lobby's list: what, against whom, the result, and whether take-backs were used."""
    marks = " (with take-backs)" if entry.get("takebacks") else ""
    if entry.get("counted") is False:
        marks += " (not counted: it came from a link or a position)"
    return f"{entry['title']} {entry.get('against', '')}: {entry['result']}{marks}"


def statistics(history: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game: games played, won (by the one human), and the same by computer level; take-backs counted.
    A game opened from a link that showed its deal, or from a position, does not count."""
    table: dict[str, dict[str, Any]] = {}
    for entry in history:
        if entry.get("counted") is False:
            continue
        row = table.setdefault(str(entry.get("title", entry.get("game"))),
                               {"played": 0, "won": 0, "takebacks": 0, "levels": {}})
        row["played"] += 1
        row["won"] += entry.get("won") is True
        row["takebacks"] += bool(entry.get("takebacks"))
        for level in entry.get("levels") or ["humans only"]:
            by = row["levels"].setdefault(level, {"played": 0, "won": 0})
            by["played"] += 1
            by["won"] += entry.get("won") is True
    return table


def statistics_rows(table: dict[str, dict[str, Any]]) -> list[list[str]]:
    """The statistics table's rows as text: game, played, won, by opponent, with take-backs."""
    return [
        [title, str(row["played"]), str(row["won"]),
         ", ".join(f"{level}: {by['won']} of {by['played']}" for level, by in row["levels"].items()),
         str(row["takebacks"])]
        for title, row in table.items()
    ]
