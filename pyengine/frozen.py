"""Helpers for the engines' immutable values."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str]] = {}


def evolve(value: T, **changes: Any) -> T:
    """A copy of a frozen dataclass (with a ``__dict__``) with ``changes``: ``dataclasses.replace``
    without re-running ``__init__`` and its checks, for the hot path of every move.

    Unknown field names are refused, as ``replace`` refuses them.
    """
    cls = type(value)
    known = _FIELDS.get(cls)
    if known is None:
        assert is_dataclass(cls), f"{cls.__name__} is not a dataclass"
        known = _FIELDS[cls] = frozenset(f.name for f in fields(cls))
    if not changes.keys() <= known:
        raise TypeError(f"{cls.__name__} has no fields {sorted(set(changes) - known)}")
    new = object.__new__(cls)
    state = new.__dict__
    state.update(value.__dict__)
    state.update(changes)
    return new
