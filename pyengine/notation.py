"""Action notation, declared once per action kind: one template both writes and reads an action.

A game lists its action kinds as :class:`Form` values in a :class:`Notation`::

    NOTATION = Notation(
        Form("lock", Act, "lock v{vault}", vault=VAULT, move="lock"),
        Form("discard", Act, "discard {tok}", tok=TOKEN, move="discard"),
    )

Each ``{name}`` of the template is an attribute of the action, written and read by its
:class:`Slot`; keyword arguments that are not slots are constants of the kind (they pick
the form when writing and are passed to the constructor when reading). ``str(action)``
is ``NOTATION.write(action)``; the engine's ``parse_action`` and ``why_illegal`` read
texts through :meth:`Notation.parse`, so a kind's words exist in exactly one place.

The same declaration gives an action's *facts* (``{"kind": ..., field: value}``, JSON-safe),
which views carry for the page so that no renderer ever reads or writes an action text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import Card

MAX_QUOTE = 40
"""Bad input is quoted back at most this long."""


def quote(text: object) -> str:
    """A short, safe quotation of what was given (at most :data:`MAX_QUOTE` characters)."""
    shown = text if isinstance(text, str) else type(text).__name__
    if len(shown) > MAX_QUOTE:
        return repr(shown[:MAX_QUOTE]) + "…"
    return repr(shown)


def _said(value: object) -> str:
    """A value named in a message (short)."""
    if isinstance(value, str):
        return quote(value)
    text = repr(value)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "…"


def _fact(value: Any) -> Any:
    """A slot value as JSON: cards by their notation, tuples as lists."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, tuple):
        return [_fact(v) for v in value]
    return value


@dataclass(frozen=True)
class Slot:
    """How one field of an action is written (``write``), matched (``pattern``) and read back (``read``)."""

    pattern: str
    read: Callable[[str], Any]
    write: Callable[[Any], str] = str
    example: str = "1"
    fact: Callable[[Any], Any] = _fact
    """The field as it appears in the action's facts (JSON-safe)."""
    unfact: Callable[[Any], Any] | None = None
    """The field's value from its fact, when the fact is not simply its text (``read`` of it)."""

    def value_of(self, fact: object) -> Any:
        """The field's value from its fact (the inverse of ``fact``); ``ValueError`` for anything else."""
        if self.unfact is not None:
            value = self.unfact(fact)
        elif isinstance(fact, str) or isinstance(fact, int) and not isinstance(fact, bool):
            value = self.read(str(fact))
        else:
            raise ValueError("not a fact of this field")
        back = self.fact(value)
        if back != fact or type(back) is not type(fact):
            raise ValueError("not a fact of this field")
        return value


def whole(digits: int = 6, signed: bool = False) -> Slot:
    """A whole number of at most ``digits`` digits (optionally with a minus sign)."""
    return Slot((r"-?" if signed else "") + rf"\d{{1,{digits}}}", int, str, "0" if signed else "1")


INT = whole(signed=True)
"""A signed whole number (grid coordinates)."""


def one_based(digits: int = 2) -> Slot:
    """An index kept 0-based in the action and its facts, written 1-based (``v1`` is vault 0)."""
    return Slot(rf"\d{{1,{digits}}}", lambda s: int(s) - 1, lambda v: str(v + 1), "1", int, _index)


def _index(fact: object) -> int:
    if not isinstance(fact, int) or isinstance(fact, bool) or fact < 0:
        raise ValueError("not an index")
    return fact


_CARD_PATTERN = r"(?:10|[2-9AJQK])[♣♢♡♠]|Jk"
CARD = Slot(_CARD_PATTERN, Card.parse, str, "5♣")
"""A playing card in the canonical notation (``10♡``, ``Q♣``, ``Jk``)."""


def words(*choices: str) -> Slot:
    """One of a fixed set of words (the longest alternatives are tried first)."""
    ordered = sorted(choices, key=len, reverse=True)
    return Slot("|".join(re.escape(c) for c in ordered), str, str, choices[0])


_FIELD = re.compile(r"\{(\w+)\}")


def _compile_writer(pieces: list[tuple[str, str, Callable[[Any], str]]]) -> Callable[[Any], str]:
    """One function writing a template's text from an action's fields, made once per form.

    Every legal action of every position is written, so this is on the engines' hot path: the template
    becomes an f-string (literals escaped, fields by attribute name, each slot's writer called by name),
    about three times faster than joining the pieces at each call.
    """
    namespace: dict[str, Any] = {}
    parts = []
    for literal, name, write in pieces:
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if not name:
            continue
        if write is str:
            parts.append(f"{{a.{name}}}")
        else:
            namespace[f"write_{name}"] = write
            parts.append(f"{{write_{name}(a.{name})}}")
    writer: Callable[[Any], str] = eval("lambda a: f" + repr("".join(parts)), namespace)  # noqa: S307 (our own template)
    return writer


class Form:
    """One action kind: its name, the action type, its template and the slots of its fields."""

    __slots__ = ("kind", "type", "template", "slots", "constants", "names", "regex", "example", "writer")

    def __init__(self, kind: str, type_: type, template: str, /, *, example: str = "", **fields: Any) -> None:
        self.kind = kind
        self.type = type_
        self.template = template
        names = tuple(_FIELD.findall(template))
        slots = {n: fields[n] for n in names}
        if any(not isinstance(s, Slot) for s in slots.values()):
            raise TypeError(f"form {kind!r}: every {{field}} of {template!r} needs a Slot")
        self.slots: dict[str, Slot] = slots
        self.constants = {k: v for k, v in fields.items() if k not in slots}
        self.names = names
        pattern, at = [], 0
        pieces: list[tuple[str, str, Callable[[Any], str]]] = []
        for match in _FIELD.finditer(template):
            name = match.group(1)
            pattern.append(re.escape(template[at : match.start()]))
            pattern.append(f"(?P<{name}>{slots[name].pattern})")
            pieces.append((template[at : match.start()], name, slots[name].write))
            at = match.end()
        pattern.append(re.escape(template[at:]))
        pieces.append((template[at:], "", str))
        self.writer = _compile_writer(pieces)
        self.regex = re.compile("".join(pattern))
        filled = _FIELD.sub(lambda m: slots[m.group(1)].example, template)
        self.example = example or filled

    def matches(self, action: object) -> bool:
        return type(action) is self.type and all(getattr(action, k) == v for k, v in self.constants.items())

    def write(self, action: object) -> str:
        """The action's text: the template with each field written by its slot."""
        return self.writer(action)

    def read(self, text: str) -> object | None:
        """The action written ``text`` by this form, or None."""
        match = self.regex.fullmatch(text)
        if match is None:
            return None
        values = dict(self.constants)
        try:
            for name in self.names:
                values[name] = self.slots[name].read(match.group(name))
        except ValueError:
            return None
        action: object = self.type(**values)
        return action

    def from_facts(self, facts: Mapping[str, Any]) -> object:
        """The action these facts describe (its fields read back from their facts; other keys ignored);
        ``ValueError`` naming the missing or malformed field."""
        values = dict(self.constants)
        for name in self.names:
            if name not in facts:
                raise ValueError(f"the facts of a {self.kind!r} move need {name!r}")
            try:
                values[name] = self.slots[name].value_of(facts[name])
            except (ValueError, KeyError, TypeError, IndexError):
                raise ValueError(f"{name!r} of a {self.kind!r} move cannot be {_said(facts[name])}") from None
        action: object = self.type(**values)
        if self.read(self.write(action)) != action:
            raise ValueError(f"the facts of a {self.kind!r} move do not make one: {_said(dict(facts))}")
        return action

    def facts(self, action: object) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in self.names:
            out[name] = self.slots[name].fact(getattr(action, name))
        return out


class Notation:
    """A game's action kinds: writes, reads and describes its actions."""

    def __init__(self, *forms: Form) -> None:
        self.forms = forms
        kinds = [f.kind for f in forms]
        if len(set(kinds)) != len(kinds):
            raise ValueError(f"two forms share a kind: {kinds}")
        self.write = lru_cache(maxsize=1 << 16)(self._write)

    def form_of(self, action: object) -> Form:
        for form in self.forms:
            if form.matches(action):
                return form
        raise TypeError(f"no form writes {action!r}")

    def _write(self, action: object) -> str:
        return self.form_of(action).write(action)

    def parse(self, text: str) -> object | None:
        """The action written ``text`` (whether legal or not), or None when no form reads it."""
        for form in self.forms:
            action = form.read(text)
            if action is not None:
                return action
        return None

    def from_facts(self, facts: object) -> object:
        """The action (legal or not) that ``facts`` describe: ``{"kind": ..., field: fact}`` as :meth:`facts`
        gives them; ``ValueError`` saying what is wrong with anything else."""
        if not isinstance(facts, Mapping):
            raise ValueError(f"the facts of a move are an object; got {type(facts).__name__}")
        kind = facts.get("kind")
        for form in self.forms:
            if form.kind == kind:
                return form.from_facts(facts)
        raise ValueError(f"no move is of kind {_said(kind)}; the kinds are: {', '.join(self.kinds())}")

    def facts(self, action: object) -> dict[str, Any]:
        """``{"kind": ..., field: value}`` for ``action`` (JSON-safe; indexes 0-based)."""
        return self.form_of(action).facts(action)

    def examples(self, most: int = 6) -> str:
        """Examples of the game's actions (the first ``most`` kinds, then "…")."""
        shown = [f.example for f in self.forms[:most]]
        return ", ".join(shown) + (", …" if len(self.forms) > most else "")

    def help(self, text: str) -> str:
        """The message for a text that no form reads, with examples of the notation: for a developer (the command
        line, an embed's host page, a record's replay). A player never sees it: the lobby says a saved game with
        such a move could not be read in plain words (``keeping.put_aside_words``)."""
        return f"{quote(text)} is not an action of this game; actions look like: {self.examples()}"

    def kinds(self) -> Iterable[str]:
        return (f.kind for f in self.forms)
