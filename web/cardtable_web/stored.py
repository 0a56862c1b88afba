"""Reading what the browser stored as hostile input, in time linear in its size and with a cap on what is read.

A stored list or object is read whole when it can be (one call of the JSON reader); when it cannot (a part
nests too deep, holds a number too long, or the text breaks off), it is split into its top-level parts by one
pass over the text (no recursion, no part read twice) and each part is read on its own: good parts beside bad
ones are kept one by one. Past a cap, the rest of the text is not read at all: it is one part, put aside.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

MAX_STORED = 5_000_000
"""A stored entry longer than this is not read (a browser's storage holds about this much in all)."""
MAX_DEPTH = 64
MAX_TOKENS = 200_000
"""Splitting a text looks at most this many of its strings and marks; the rest is one part, put aside unread."""
MAX_DIGITS = 60
"""The longest whole number a stored entry may hold (seeds take at most 40 digits)."""

_BRACKET = re.compile(r"[\[\]{}]")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]', re.DOTALL)
"""A string (escapes and all) or a bracket, comma or colon: what splitting a JSON text into parts looks at."""


def too_deep(text: str) -> bool:
    """Whether ``text``'s arrays and objects nest deeper than :data:`MAX_DEPTH` (``json.loads`` on
    ``"[" * 100000`` crashes Python in the page). Its escapes are dropped and its strings split off with
    string methods, so a long entry is measured without a Python loop over every character."""
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    depth = 0
    for found in _BRACKET.finditer(outside):
        depth += 1 if found.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


class _TooLong(ValueError):
    """A number longer than :data:`MAX_DIGITS` digits (never handed to Python's own conversion)."""


def _whole(digits: str) -> int:
    if len(digits) > MAX_DIGITS + 1:
        raise _TooLong(digits[:20])
    return int(digits)


def load(text: str) -> Any:
    """The JSON value of ``text``, or None when it is too long, too deep or not JSON."""
    if len(text) > MAX_STORED or too_deep(text):
        return None
    try:
        return json.loads(text, parse_int=_whole)
    except ValueError:  # JSONDecodeError, and a number too long
        return None


@dataclass(frozen=True)
class Part:
    """One top-level part of a stored list or object: its key (None in a list, or when unreadable) and its
    value's text."""

    key: str | None
    text: str


def parts(text: str, most: int) -> tuple[list[Part], str] | None:
    """The first ``most`` top-level parts of the JSON list or object ``text`` and the text after them ("" when
    there is none: the whole text was split); None when ``text`` is neither. One pass over what it splits, which
    is at most :data:`MAX_TOKENS` strings and marks."""
    body = text.strip()
    if not body or body[0] not in "[{":
        return None
    is_object = body[0] == "{"
    found: list[Part] = []
    depth, start, key = 0, 1, None
    for seen, token in enumerate(_TOKEN.finditer(body)):
        if seen >= MAX_TOKENS:
            return found, body[start:]
        mark = token.group()
        if mark in "[{":
            depth += 1
        elif mark in "]}":
            depth -= 1
            if depth == 0:
                _add(found, body[start : token.start()], key, is_object)
                return found, ""
        elif depth == 1 and mark == ",":
            _add(found, body[start : token.start()], key, is_object)
            start, key = token.end(), None
            if len(found) >= most:
                return found, body[start:]
        elif depth == 1 and mark == ":" and is_object and key is None:
            key, start = body[start : token.start()].strip(), token.end()
    _add(found, body[start:], key, is_object)  # the text breaks off: its last part as it is
    return found, ""


def _add(found: list[Part], text: str, key: str | None, is_object: bool) -> None:
    """A part found (an object's part with an unreadable key keeps None as its key: a bad part)."""
    if text.strip():
        name = load(key) if is_object and key else None
        found.append(Part(name if isinstance(name, str) else None, text.strip()))
