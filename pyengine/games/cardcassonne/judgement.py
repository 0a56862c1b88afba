"""Card-cassonne's judgement: how good a position looks from one seat's view, what is banked and what is still to
come. One function, shared by the computer's search (``CardcassonneRules.judgement``) and the rule-based yardstick
(``tests/bench/rulebased.py``)."""

from __future__ import annotations

from typing import Any

from ...estimate import lead
from .board import FACE_RANKS, area_value
from .state import CardcassonneState
from .view import area_index

FACES = "JQKA"


def reserve(tokens: int, left: float) -> float:
    """What a seat's tokens in reserve are worth with ``left`` of the cards still to play: the first two keep a
    good area open to claim (more while many cards remain); tokens come back when their areas score, so the rest
    are worth little more than their place at the end."""
    kept = min(tokens, 2)
    return kept * (0.4 + 1.2 * left) + (tokens - kept) * (0.1 + 0.3 * left)


def next_mover(current: int | None, phase: str, players: int) -> int | None:
    """The seat that plays the next card: the current one before it plays, else the one after it."""
    if current is None:
        return None
    return current if phase == "play" else (current + 1) % players


def opening(size: int) -> float:
    """What the next seat to play may take from the largest area holding no token (``size`` cards): a card of its
    suit joins it, a token claims it and it scores at once when partially complete (rules 12, 15, 16). About
    half the time the hand holds such a card."""
    return 0.5 * area_value(size + 1) if size >= 2 else 0.0


def worths(view: dict[str, Any]) -> list[float]:
    """Each seat's points, plus what its tokens on the table should still bring, plus its tokens in reserve
    (:func:`reserve`).

    A token is worth its area's value times how close the area is to closing (its cards against its open cells;
    a partially complete area can be scored at once), plus a share of the 3-point end bonus on a face card that
    grows as the game nears its end. The seat to play next may claim the largest area without a token
    (:func:`opening`)."""
    players = view["players"]
    remaining = view["draw_count"] + sum(view["hand_counts"])
    total = 104 - view["removed"] - 1
    left = remaining / max(total, 1)
    worth = [float(p) for p in view["scores"]]
    faces = {(g["x"], g["y"]): g["card"][:-1] in FACES for g in view["grid"]}
    for area in view["areas"]:
        if not area["tokens"]:
            continue
        size, open_cells = area["size"], area["open"]
        closeness = 0.95 if area["partial"] else size / (size + open_cells)
        for x, y, owner in area["tokens"]:
            worth[owner] += area["value"] * closeness
            if faces.get((x, y)):
                worth[owner] += 3 * (1 - left) * (1 - closeness) + 0.5
    for s in range(players):
        worth[s] += reserve(view["tokens_left"][s], left)
    mover = next_mover(view["current_player"], view["phase"], players)
    if mover is not None and view["tokens_left"][mover]:
        worth[mover] += opening(max((a["size"] for a in view["areas"] if not a["tokens"] and a["open"]), default=0))
    return worth


def worths_of(core: CardcassonneState) -> list[float]:
    """:func:`worths` read from the core without drawing its view: the same public facts (points, the table's areas
    and tokens, the piles' sizes), the same sums in the same order, so the same figures, several times faster."""
    players = core.players
    remaining = len(core.deck) + sum(len(h) for h in core.hands)
    total = 104 - len(core.removed) - 1
    left = remaining / max(total, 1)
    worth = [float(p) for p in core.points]
    if core.tokens:
        areas, at = core.table.areas, core.table.at
        index = area_index(core)[0]
        for x, y, owner in sorted(core.tokens, key=lambda t: (index[(t[0], t[1])], t[0], t[1])):
            area = areas[(x, y)]
            size, open_cells = len(area.cells), len(area.open)
            closeness = 0.95 if open_cells <= size else size / (size + open_cells)
            worth[owner] += area_value(size) * closeness
            if at[(x, y)].rank in FACE_RANKS:
                worth[owner] += 3 * (1 - left) * (1 - closeness) + 0.5
    for s in range(players):
        worth[s] += reserve(core.tokens_left[s], left)
    mover = next_mover(None if core.phase == "over" else core.turn, core.phase, players)
    if mover is not None and core.tokens_left[mover]:
        index, firsts = area_index(core)
        claimed = {index[(x, y)] for x, y, _ in core.tokens}
        unclaimed = (core.table.areas[first] for i, first in enumerate(firsts) if i not in claimed)
        worth[mover] += opening(max((len(area.cells) for area in unclaimed if area.open), default=0))
    return worth


def value(view: dict[str, Any], seat: int) -> float:
    """The seat's lead over the best other seat by :func:`worths`."""
    return lead(worths(view), seat)


def value_of(core: CardcassonneState, seat: int) -> float:
    """:func:`value` read from the core (:func:`worths_of`): what any seat's view shows, the hands aside."""
    return lead(worths_of(core), seat)
