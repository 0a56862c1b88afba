"""A selection on the table (a card chosen before its target) as a value, and its text in the page.

A renderer's selection is a small immutable value: a tuple whose first item names what is chosen, the rest
being words, whole numbers, booleans, None or tuples of those (a renderer may name its fields with a
``NamedTuple``, which equals the plain tuple). The renderer writes it into ``data-select`` with :func:`encode`;
a click gives the attribute's text back, and :func:`decode` turns it into the value again. So no renderer
reads a text format of its own: it compares values.

The text is compact JSON (a list), the same for every game: ``["hand","5♣"]``, ``["claim",1,[0,1]]``.
"""

from __future__ import annotations

import json
from typing import Any

Item = Any
"""A selection's item: ``str``, ``int``, ``bool``, None, or a tuple of items."""
Selection = tuple[Item, ...]

MAX_TEXT = 200
"""The longest selection text (characters): a selection names a card or two and a place, never more."""
MAX_DEPTH = 3
"""How deeply a selection's tuples may nest."""


def toggled(current: Selection | None, chosen: Selection) -> Selection | None:
    """The selection after a click on ``chosen``: it is chosen, or dropped when it was chosen already."""
    return None if current == chosen else chosen


def encode(value: Selection) -> str:
    """The text of a selection, for the ``data-select`` attribute; ``ValueError`` for what is not a selection."""
    _check(value, 0)
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_TEXT:
        raise ValueError(f"a selection is written in at most {MAX_TEXT} characters; this one takes {len(text)}")
    return text


def decode(text: str) -> Selection:
    """The selection written by :func:`encode` (a clicked element's ``data-select``); ``ValueError`` saying
    what is wrong with any other text."""
    if not isinstance(text, str):
        raise ValueError(f"a selection is a text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ValueError(f"a selection is written in at most {MAX_TEXT} characters; this one has {len(text)}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise ValueError(f"a selection is a JSON list; {text!r} is not JSON ({error.msg})") from None
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"a selection is a JSON list that starts with a word; got {text!r}")
    value = _tuples(data, 0)
    assert isinstance(value, tuple)
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"a selection holds no {name}")


def _tuples(data: object, depth: int) -> Item:
    """Decoded JSON with its lists as tuples, checked item by item."""
    if isinstance(data, list):
        if depth >= MAX_DEPTH:
            raise ValueError(f"a selection nests lists at most {MAX_DEPTH} deep")
        return tuple(_tuples(item, depth + 1) for item in data)
    if data is None or isinstance(data, str | int):  # bool is an int
        return data
    raise ValueError(f"a selection holds words, whole numbers, true/false, null and lists; not {json.dumps(data)}")


def _check(value: object, depth: int) -> None:
    if isinstance(value, tuple):
        if depth == 0 and (not value or not isinstance(value[0], str)):
            raise ValueError(f"a selection is a tuple that starts with a word; got {value!r}")
        if depth >= MAX_DEPTH:
            raise ValueError(f"a selection nests tuples at most {MAX_DEPTH} deep")
        for item in value:
            _check(item, depth + 1)
    elif depth == 0 or not (value is None or isinstance(value, str | int)):
        raise ValueError(f"a selection is a tuple of words, whole numbers, booleans, None and tuples; not {value!r}")
