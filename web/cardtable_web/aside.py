"""What was put aside: stored entries that could not be read, kept under ``cardtable.put-aside`` for a bug report
(shown or cleared from the lobby), never deleted unasked.

Everything put aside in one reading is written at once (one read and one write of the list, whatever the number
of bad entries), and the list stays small: each text is cut to :data:`MAX_ENTRY` characters, the texts together
to :data:`MAX_TOTAL`, and entries past :data:`MAX_ENTRIES` are only counted.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from . import stored

PUT_ASIDE_KEY = "cardtable.put-aside"
PUT_ASIDE = "A saved game could not be read and was put aside."
MAX_TOTAL = 1_000_000
"""The put-aside list's texts together are cut to this (the storage must keep room for games)."""
MAX_ENTRY = 100_000
"""One put-aside entry's text is cut to this."""
MAX_ENTRIES = 100
"""Entries put aside beyond this many are only counted (their texts dropped)."""
MAX_FIELD = 300

Bad = tuple[str, Any, str]
"""An entry to put aside: where it was stored, its text (or value) and why it was put aside."""


class Keeping(Protocol):
    """What the put-aside list needs of a keeper: raw text by key, writing JSON, removing a key."""

    def raw(self, key: str) -> str | None: ...
    def write(self, key: str, value: Any) -> bool: ...
    def remove(self, key: str) -> None: ...


def words(count: int) -> str:
    """The lobby's message for ``count`` entries put aside ("" for none)."""
    if count <= 0:
        return ""
    return PUT_ASIDE if count == 1 else f"{count:,} saved entries could not be read and were put aside."


def count(entries: list[dict[str, Any]]) -> int:
    """How many entries the list stands for (one that only counts the ones past the cap stands for them all)."""
    total = 0
    for entry in entries:
        many = entry.get("count", 1)
        total += many if isinstance(many, int) and not isinstance(many, bool) and 0 < many < 10**12 else 1
    return total


class Shelf:
    """The list of what was put aside, through a keeper's storage (its text read once per change)."""

    def __init__(self, keeper: Keeping, clock: Callable[[], float]) -> None:
        self.keeper = keeper
        self.clock = clock
        self._seen: tuple[str, list[dict[str, Any]]] | None = None

    def entries(self) -> list[dict[str, Any]]:
        """The entries put aside (an unreadable list of them is itself kept as one)."""
        text = self.keeper.raw(PUT_ASIDE_KEY)
        if text is None:
            return []
        if self._seen is not None and self._seen[0] == text:
            return list(self._seen[1])
        value = stored.load(text)
        if not (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
            value = [{"from": PUT_ASIDE_KEY, "reason": "the list of entries put aside was unreadable",
                      "text": text[:MAX_ENTRY]}]
        self._seen = (text, value)
        return list(value)

    def add(self, bad: Iterable[Bad]) -> bool:
        """Put these entries aside, in one write; False if the storage refused it (nothing then changed)."""
        new = [_entry(where, text, reason, int(self.clock() * 1000)) for where, text, reason in bad]
        if not new:
            return True
        value = _trimmed(self.entries() + new)
        if not self.keeper.write(PUT_ASIDE_KEY, value):
            return False
        self._seen = None
        return True

    def export(self) -> str:
        entries = self.entries()
        return json.dumps(entries, ensure_ascii=False, indent=1) if entries else ""


def _entry(where: str, text: Any, reason: str, date: int) -> dict[str, Any]:
    many = len(text) if isinstance(text, list) and reason.startswith("entries past") else 1
    if not isinstance(text, str):
        text = json.dumps(text, ensure_ascii=False)
    entry: dict[str, Any] = {"from": str(where)[:MAX_FIELD], "reason": str(reason)[:MAX_FIELD], "date": date,
                             "text": text[:MAX_ENTRY]}
    if many > 1:
        entry["count"] = many
    return entry


def _trimmed(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The list within its caps: past :data:`MAX_ENTRIES`, one entry counts the rest; past :data:`MAX_TOTAL`
    characters of text, the later texts are dropped."""
    if len(entries) > MAX_ENTRIES:
        rest = entries[MAX_ENTRIES - 1 :]
        entries = entries[: MAX_ENTRIES - 1] + [{
            "from": "several places", "reason": "more entries were put aside than the list keeps: only their number "
            "is kept", "count": count(rest), "text": ""}]
    total, kept = 0, []
    for entry in entries:
        text = entry.get("text", "")
        size = len(text) if isinstance(text, str) else 0
        if total + size > MAX_TOTAL:
            entry = {**entry, "text": "", "cut": "its text was dropped: the list of entries put aside is full"}
            size = 0
        total += size
        kept.append(entry)
    return kept
