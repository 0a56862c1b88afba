"""Reading untrusted descriptions (positions): type tests and how a bad value is named in a message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from .notation import quote


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
