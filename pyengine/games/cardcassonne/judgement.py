"""Card-cassonne's judgement: how good a position looks from one seat's view, what is banked and what is still to
come. One function, shared by the computer's search (``CardcassonneRules.judgement``) and the rule-based yardstick
(``tests/bench/rulebased.py``)."""

from __future__ import annotations

from typing import Any

from ...estimate import lead

FACES = "JQKA"


def worths(view: dict[str, Any]) -> list[float]:
    """Each seat's points, plus what its tokens on the table should still bring, plus its tokens in reserve.

    A token is worth its area's value times how close the area is to closing (its cards against its open cells;
    a partially complete area can be scored at once), plus a share of the 3-point end bonus on a face card that
    grows as the game nears its end. A token in reserve is worth more while many cards remain."""
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
        worth[s] += view["tokens_left"][s] * (0.5 + 2.5 * left)
    return worth


def value(view: dict[str, Any], seat: int) -> float:
    """The seat's lead over the best other seat by :func:`worths`."""
    return lead(worths(view), seat)
