"""A game's core written as JSON and read back, field by field: how a turn's link carries a re-dealt position.

A game's own position format (``Rules.write_position``) describes only some states (for several games, only the
first turn), so a link carries the re-dealt core itself: every field the core compares, in the order its
dataclass declares them, cards as their texts, the generator as its state. It is read back by the fields' declared
types. Only the plain :class:`~pyengine.rng.Rng` is written: a deal's keyed generator holds the deal's secret, and
a re-dealt core never has one (``Rules.sample_hidden`` replaces the generator). Fields that do not take part in
comparing cores (caches, the log's scratch facts) are left out and take their defaults.

What is read comes from a link, so it is read like hostile input: a value of the wrong type is a ``ValueError``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import pyengine
from pyengine.cards import Card
from pyengine.rng import Rng

_HINTS: dict[type, dict[str, Any]] = {}
_CARDS: dict[str, Card] = {}
_CORE_TYPES: dict[str, type] = {}


def write(value: Any) -> Any:
    """``value`` (a core, or any part of one) as JSON-safe lists, numbers, texts and nulls."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card):
        return value.text
    if type(value) is Rng:
        return value.state
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [write(getattr(value, f.name)) for f in _fields(type(value))]
    if isinstance(value, tuple):
        return [write(item) for item in value]
    raise TypeError(f"a core's {type(value).__name__} has no written form")


def read(kind: Any, data: Any) -> Any:
    """The value of type ``kind`` that :func:`write` wrote as ``data``; ``ValueError`` for anything else."""
    if kind is type(None):
        return _checked(data, data is None)
    if kind in (int, str, bool):
        return _checked(data, type(data) is kind)
    if kind is Card:
        return _card(data)
    if kind is Rng:
        return Rng(_checked(data, type(data) is int and 0 <= data < 2**64))
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return _read_union(typing.get_args(kind), data)
    if origin is tuple:
        return _read_tuple(typing.get_args(kind), data)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        fields = _fields(kind)
        values = _checked(data, isinstance(data, list) and len(data) == len(fields))
        hints = _hints(kind)
        return kind(**{f.name: read(hints[f.name], item) for f, item in zip(fields, values, strict=True)})
    raise ValueError(f"a core holds no {kind!r}")


def core_type(game: str, players: int) -> type:
    """The class of ``game``'s core (taken from a new game's)."""
    if game not in _CORE_TYPES:
        _CORE_TYPES[game] = type(pyengine.new_game(game, players, 0).core)
    return _CORE_TYPES[game]


def _fields(kind: type) -> list[dataclasses.Field[Any]]:
    """The fields a core is written by: those its constructor takes and its comparison reads."""
    return [f for f in dataclasses.fields(kind) if f.init and f.compare]


def _hints(kind: type) -> dict[str, Any]:
    if kind not in _HINTS:
        _HINTS[kind] = typing.get_type_hints(kind)
    return _HINTS[kind]


def _card(data: Any) -> Card:
    """The card written ``data`` (each text read once: a link names the same cards again and again)."""
    card = _CARDS.get(data) if isinstance(data, str) else None
    if card is None:
        card = Card.parse(_checked(data, isinstance(data, str) and len(data) <= 4))
        _CARDS[data] = card
    return card


def _checked(data: Any, good: bool) -> Any:
    if not good:
        raise ValueError("the position in this link is not one this site writes")
    return data


def _read_union(choices: tuple[Any, ...], data: Any) -> Any:
    if data is None and type(None) in choices:
        return None
    others = [choice for choice in choices if choice is not type(None)]
    _checked(data, len(others) == 1)
    return read(others[0], data)


def _read_tuple(items: tuple[Any, ...], data: Any) -> tuple[Any, ...]:
    _checked(data, isinstance(data, list))
    if len(items) == 2 and items[1] is Ellipsis:
        return tuple(read(items[0], item) for item in data)
    _checked(data, len(data) == len(items))
    return tuple(read(kind, item) for kind, item in zip(items, data, strict=True))
