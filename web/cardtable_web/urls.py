"""Percent-encoding for the page's addresses, as ``urllib.parse`` does it, without importing it.

In the page (Python compiled to WebAssembly) ``import urllib.parse`` costs about 70 ms of a first visit's start,
most of it ``ipaddress``, which these addresses never need. These functions give the same results as
``quote``, ``urlencode(..., quote_via=quote)`` and ``parse_qsl(..., keep_blank_values=True)`` (a property test
compares them under CPython).
"""

from __future__ import annotations

from collections.abc import Iterable

_SAFE_TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~"
_ALWAYS_SAFE = frozenset(_SAFE_TEXT.encode("ascii"))
_HEX = "0123456789ABCDEFabcdef"


def quote(text: str, safe: str = "/") -> str:
    """``text`` with every byte of its UTF-8 form percent-encoded, except letters, digits, ``_.-~`` and ``safe``."""
    if not text.strip(_SAFE_TEXT + safe):  # nothing to encode (a game's moves, most often): as it is
        return text
    keep = _ALWAYS_SAFE | frozenset(safe.encode("ascii", "ignore"))
    return "".join(chr(b) if b in keep else f"%{b:02X}" for b in text.encode("utf-8", "strict"))


def urlencode(fields: Iterable[tuple[str, str]], safe: str = "") -> str:
    """``name=value`` pairs joined by ``&``, each side quoted with ``safe`` kept as it is."""
    return "&".join(f"{quote(name, safe)}={quote(value, safe)}" for name, value in fields)


def unquote(text: str) -> str:
    """Percent-escapes decoded as UTF-8 (bytes that are not UTF-8 become U+FFFD); a ``%`` not followed by two hex
    digits stays as it is."""
    if "%" not in text:
        return text
    out: list[str] = []
    raw = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "%" and i + 2 < len(text) and text[i + 1] in _HEX and text[i + 2] in _HEX:
            raw.append(int(text[i + 1 : i + 3], 16))
            i += 3
            continue
        if raw:
            out.append(raw.decode("utf-8", "replace"))
            raw.clear()
        out.append(text[i])
        i += 1
    if raw:
        out.append(raw.decode("utf-8", "replace"))
    return "".join(out)


def parse_qsl(query: str) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of a query (``+`` is a space; a pair without ``=`` has an empty value)."""
    pairs = []
    for piece in query.split("&"):
        if not piece:
            continue
        name, _, value = piece.partition("=")
        pairs.append((unquote(name.replace("+", " ")), unquote(value.replace("+", " "))))
    return pairs
