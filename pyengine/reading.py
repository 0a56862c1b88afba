"""Reading untrusted text and descriptions (records, positions): JSON of a bounded size and depth, type tests
and how a bad value is named in a message."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeGuard

from .notation import quote

MAX_RECORD_CHARS = 5_000_000
"""A record text longer than this is refused before it is read."""
MAX_NUMBER_DIGITS = 60
"""The longest whole number JSON text may hold (a seed takes at most 40 digits); longer ones are refused unread,
never handed to Python's own conversion, whose limit speaks Python's words."""
MAX_JSON_DEPTH = 64
"""Records and positions nest a few levels; deeper JSON is refused before it is read (no recursion blow-up)."""


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_list(value: object) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    return isinstance(value, list | tuple)


def shown(value: object) -> str:
    """A value for a message: small whole numbers and constants as they are, anything else quoted briefly."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if abs(value) < 1e15 else "a huge number"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**15 else "a huge number"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, Mapping):
        return "an object"
    return quote(value)


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (strings skipped), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def read_json(text: object, what: str = "record") -> Any:
    """JSON text read safely: a bounded size and depth, and every failure a short ``ValueError``."""
    if not isinstance(text, str):
        raise ValueError(f"a {what} is JSON text; got {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise ValueError(f"the {what} is too long ({len(text):,} characters; at most {MAX_RECORD_CHARS:,})")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"the {what} nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, parse_int=_whole_number)
    except _TooLong:
        raise ValueError(f"a number in the {what} is longer than {MAX_NUMBER_DIGITS} digits") from None
    except ValueError as exc:  # JSONDecodeError
        raise ValueError(f"not a JSON {what}: {quote(str(exc))}") from None


class _TooLong(ValueError):
    """A number with more digits than anything the site writes."""


def _whole_number(digits: str) -> int:
    """A JSON whole number, refused before conversion when longer than :data:`MAX_NUMBER_DIGITS` digits."""
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _TooLong(digits[:20])
    return int(digits)
