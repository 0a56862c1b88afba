"""Small HTML helpers shared by the renderers (escaping, cards, buttons).

An element that selects carries its selection value (:mod:`cardtable_web.selection`): the helpers write its
text into ``data-select`` (:func:`selecting`), so no renderer writes or reads one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .selection import Selection, encode

SUIT_CLASS = {"♣": "clubs", "♢": "diamonds", "♡": "hearts", "♠": "spades"}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
CARD_TEXT = re.compile(r"\b(10|[2-9AJQK])([♣♢♡♠])|\bJk\b")


def card_name(match: re.Match[str]) -> str:
    """A card's name in words: "7 of spades", "queen of hearts", "joker"."""
    if match.group(0) == "Jk":
        return "joker"
    return f"{RANK_NAMES.get(match.group(1), match.group(1))} of {SUIT_CLASS[match.group(2)]}"


def spoken(text: str, *, keep_shown: bool = False) -> str:
    """Text as a screen reader should say it: every card written like ``7♠`` or ``Jk`` becomes
    "7 of spades" or "joker" ("take Q♡" is read "take queen of hearts"). With ``keep_shown`` (a control,
    whose name must contain what it shows, for voice control) the card stays too: "Q♡ (queen of hearts)"."""
    if keep_shown:
        return CARD_TEXT.sub(lambda m: f"{m.group(0)} ({card_name(m)})", text)
    return CARD_TEXT.sub(card_name, text)


def esc(text: object) -> str:
    """Text made safe for HTML content and attribute values: what ``html.escape(text, quote=True)`` replaces,
    replaced the same way, without importing it (``html.entities``: 37 ms of the page's start); five replaces
    are several times quicker than one ``translate`` of a text with cards."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#x27;"))


def attrs(**values: object) -> str:
    """HTML attributes from keyword arguments; ``data_action`` becomes ``data-action``.

    None and False values are left out; True gives a bare attribute.
    """
    parts = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(name if value is True else f'{name}="{esc(value)}"')
    return (" " + " ".join(parts)) if parts else ""


def classes(*names: str | None | bool) -> str:
    return " ".join(n for n in names if isinstance(n, str) and n)


def card(
    text: str,
    *,
    action: str | None = None,
    select: Selection | None = None,
    selected: bool = False,
    extra: str = "",
    title: str | None = None,
    tag: str | None = None,
    attempt: Mapping[str, Any] | None = None,
) -> str:
    """A face-up card written like ``10♡`` (or ``Jk``), clickable when given an action or a selection;
    with only an ``attempt`` (the facts of the move a click would try), a click asks why it is refused.
    Its text is its key (``data-card``): a redraw slides it from where it was to where it is now."""
    suit = text[-1] if text and text[-1] in SUIT_CLASS else ""
    colour = "red" if suit in ("♢", "♡") else ("black" if suit else "joker")
    rank = text[:-1] if suit else text
    clickable = action is not None or select is not None
    trying = attempt is not None and not clickable
    element = tag or ("button" if clickable or trying else "span")
    cls = classes("card", colour, SUIT_CLASS.get(suit), selected and "selected", clickable and "clickable",
                  trying and "tryable", extra)
    label = title or text
    kind = "button" if element == "button" else None
    role = "img" if element == "span" else None  # a picture of a card, named in words
    opening = attrs(class_=cls, role=role, data_card=text, data_action=action, data_select=selecting(select),
                    title=label, aria_label=spoken(label, keep_shown=element == "button"), type=kind)
    if trying:
        opening += tried(attempt)
    return f'<{element}{opening}><span class="rank">{esc(rank)}</span><span class="suit">{esc(suit)}</span></{element}>'



def card_back(count: int | None = None, label: str = "") -> str:
    """A face-down card, optionally with a count (a pile or a hidden hand)."""
    inner = f'<span class="count">{count}</span>' if count is not None else ""
    return f'<span class="card back"{attrs(title=label or None)}>{inner}</span>'


def button(
    label: str, *, action: str | None = None, select: Selection | None = None, extra: str = "", title: str | None = None
) -> str:
    """A text button for an action or a selection."""
    opening = attrs(type="button", class_=classes("btn", extra), data_action=action, data_select=selecting(select),
                    title=title)
    return f"<button{opening}>{esc(label)}</button>"


def chosen_once(chosen: object) -> Callable[[object], bool]:
    """Whether each card of a hand, asked in the hand's order, shows as the chosen one: the first card equal to
    ``chosen`` does and no later one. A hand can hold equal cards (two decks, or cards chosen by rank alone), and
    choosing either is the same move."""
    shown = False

    def shows(card: object) -> bool:
        nonlocal shown
        if shown or chosen is None or card != chosen:
            return False
        shown = True
        return True

    return shows


def selecting(select: Selection | None) -> str | None:
    """The ``data-select`` text of a selection (None: the element selects nothing)."""
    return None if select is None else encode(select)


def tried(facts: Mapping[str, Any] | None) -> str:
    """The ``data-try`` attribute of an element a player might click although it plays nothing: the facts of
    the move the click would attempt (the page asks the engine why it is refused and shows the reason)."""
    if facts is None:
        return ""
    return f' data-try="{esc(json.dumps(dict(facts), ensure_ascii=False, separators=(",", ":")))}"'


def last_move_words(view: Mapping[str, Any], seat: int) -> str:
    """How a mark of a seat's latest turn reads: "your last move" or "last move of Computer 2"."""
    if seat == view.get("you"):
        return "your last move"
    return f"last move of {view['names'][seat]}"


def last_label_words(view: Mapping[str, Any], seat: int) -> str:
    """The words of the small label on a mark of a seat's latest turn: "last move: Computer 2" (a computer's level
    left out to keep it short) or "your last move"."""
    if seat == view.get("you"):
        return "your last move"
    return "last move: " + str(view["names"][seat]).split(" (")[0]


def last_label(view: Mapping[str, Any], seat: int) -> str:
    """The small label on a mark of a seat's latest turn (the mark is an outline too: not colour alone)."""
    return f'<span class="last-label seat-{seat}">{esc(last_label_words(view, seat))}</span>'


def legend(entries: Iterable[tuple[str, str]]) -> str:
    """The table's key: each symbol (HTML, drawn as on the table) with its meaning in words, under a summary
    that is always visible ("What the marks mean"), so touch screens, which show no tooltips, can read it too."""
    rows = "".join(f'<div class="legend-row"><dt>{symbol}</dt><dd>{esc(words)}</dd></div>' for symbol, words in entries)
    return (f'<details class="legend"><summary>What the marks mean</summary>'
            f'<dl class="legend-list">{rows}</dl></details>')


def join(parts: Iterable[str]) -> str:
    return "".join(parts)
