"""Games kept in the browser: unfinished games (several, one per game identity), finished ones, and
the statistics drawn from them. Written against a Storage-like object (``getItem``, ``setItem``,
``removeItem``: the page's ``localStorage``, or a dict in tests), so it runs under CPython too.

Nothing is overwritten without consent: a kept game is replaced only by the same game further on
(its moves start with the kept ones). If another tab moved the same game elsewhere, :meth:`Keeper.keep`
refuses and the page offers to load the newer position.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Protocol

from .address import describe_save
from .session import Session

SAVES_KEY = "cardtable.saves"
"""``{game identity: entry}`` of the unfinished games (the lobby lists them without Python)."""
HISTORY_KEY = "cardtable.history"
"""The finished games, newest first (the lobby lists them and counts the statistics)."""
CURRENT_KEY = "cardtable.current-game"
"""The game on the table in this tab, as a full save (what earlier versions kept; tests read it)."""
LAST_KEY = "cardtable.last-game"
"""The last finished game's full save."""
UNREADABLE_KEY = "cardtable.unreadable-save"
"""A save that could not be read is kept here for a bug report instead of being deleted."""
MAX_SAVES = 20
MAX_HISTORY = 50


class Storage(Protocol):
    def getItem(self, key: str) -> Any: ...  # noqa: N802 (the DOM's names)
    def setItem(self, key: str, value: str) -> None: ...  # noqa: N802
    def removeItem(self, key: str) -> None: ...  # noqa: N802


class MemoryStorage:
    """A Storage in a dict (tests; and the page's fallback when the browser has none)."""

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


def moves_of(address: str) -> str:
    """The moves part of an address fragment."""
    for part in address.split("&"):
        if part.startswith("moves="):
            return part[len("moves=") :]
    return ""


def extends(newer: str, older: str) -> bool:
    """Whether the moves ``newer`` continue the moves ``older`` (or are the same)."""
    return newer == older or not older or newer.startswith(older + ".")


@dataclass
class Kept:
    """What happened to a save: kept, refused (another tab moved on), or the storage failed."""

    ok: bool
    conflict: bool = False
    message: str = ""


class Keeper:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # -- reading and writing, surviving a broken or full storage --------------------------------
    def read(self, key: str, default: Any) -> Any:
        try:
            text = self.storage.getItem(key)
        except Exception:  # storage switched off: nothing kept
            return default
        if not isinstance(text, str):
            return default
        try:
            value = json.loads(text)
        except ValueError:
            self.write(UNREADABLE_KEY, text)
            self.remove(key)
            return default
        return value if isinstance(value, type(default)) else default

    def write(self, key: str, value: str) -> bool:
        try:
            self.storage.setItem(key, value)
            return True
        except Exception:  # QuotaExceededError, SecurityError: survivable
            return False

    def remove(self, key: str) -> None:
        try:
            self.storage.removeItem(key)
        except Exception:  # storage switched off: nothing to remove
            pass

    # -- unfinished games ---------------------------------------------------------------------------
    def saves(self) -> dict[str, dict[str, Any]]:
        saves = self.read(SAVES_KEY, {})
        return {k: v for k, v in saves.items() if isinstance(v, dict) and isinstance(v.get("address"), str)}

    def conflict(self, session: Session, address: str, last_kept: str | None = None) -> bool:
        """Whether another tab has kept this game along a different line than ``address``: the kept position
        is neither what this tab kept last (``last_kept``) nor on the way to ``address``."""
        kept = self.saves().get(session.key)
        if kept is None or kept["address"] == last_kept:
            return False
        return not extends(moves_of(address), moves_of(kept["address"]))

    def keep(self, session: Session, address: str, now: float | None = None, last_kept: str | None = None) -> Kept:
        """Keep the game on the table (unfinished), unless another tab moved it elsewhere.

        ``last_kept`` is what this tab kept last: from there this tab may go anywhere (a take-back too).
        """
        if self.conflict(session, address, last_kept):
            return Kept(False, conflict=True)
        saves = self.saves()
        entry = {"address": address, "updated": int((now or time.time()) * 1000), "game": session.setup.game,
                 "moves": len(session.state.history()), **describe_save(session)}
        saves[session.key] = entry
        while len(saves) > MAX_SAVES:  # the oldest go first
            del saves[min(saves, key=lambda k: saves[k].get("updated", 0))]
        ok = self.write(SAVES_KEY, json.dumps(saves, ensure_ascii=False))
        ok = self.write(CURRENT_KEY, session.saved()) and ok
        if not ok:
            return Kept(False, message="This browser cannot keep the game (storage is full or switched off); "
                                       "play goes on, and the address still holds the game.")
        return Kept(True)

    def discard(self, key: str) -> None:
        saves = self.saves()
        saves.pop(key, None)
        self.write(SAVES_KEY, json.dumps(saves, ensure_ascii=False))

    # -- finished games -------------------------------------------------------------------------------
    def finish(self, session: Session, address: str, result: str, now: float | None = None) -> Kept:
        """Move a finished game from the unfinished ones into the history (once)."""
        saves = self.saves()
        saves.pop(session.key, None)
        history = [h for h in self.read(HISTORY_KEY, []) if isinstance(h, dict)]
        if any(h.get("address") == address for h in history):
            return Kept(True)
        winners = session.state.winners()
        you = session.you
        entry = {
            "address": address, "date": int((now or time.time()) * 1000), "game": session.setup.game,
            "title": session.info.title, "result": result, **describe_save(session),
            "won": None if you is None else you in winners,
            "levels": sorted({s.level for s in session.setup.seats if s.computer}),
            "takebacks": session.state.takebacks,
        }
        history.insert(0, entry)
        ok = self.write(SAVES_KEY, json.dumps(saves, ensure_ascii=False))
        ok = self.write(HISTORY_KEY, json.dumps(history[:MAX_HISTORY], ensure_ascii=False)) and ok
        ok = self.write(LAST_KEY, session.saved()) and ok
        self.remove(CURRENT_KEY)
        return Kept(ok, message="" if ok else "This browser could not keep the finished game (storage is full).")

    def history(self) -> list[dict[str, Any]]:
        return [h for h in self.read(HISTORY_KEY, []) if isinstance(h, dict)]


def statistics(history: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game: games played, won (by the one human), and the same by computer level; take-backs counted."""
    table: dict[str, dict[str, Any]] = {}
    for entry in history:
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
