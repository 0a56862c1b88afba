"""What Card-cassonne shows: each seat's view, the facts of each legal action, the named positions.

Rule numbers refer to the numbered rules of the game's rules page.
"""

from __future__ import annotations

from typing import Any

from ...core import Action, NamedPosition
from .board import Cell, area_value
from .notation import NOTATION, ScoreArea
from .state import CardcassonneState


def area_index(core: CardcassonneState) -> tuple[dict[Cell, int], list[Cell]]:
    """Each occupied cell's area number (areas numbered in play order of their first card) and each
    area's first card's cell."""
    found: tuple[dict[Cell, int], list[Cell]] | None = core.memo.get("area_index")
    if found is None:
        areas = core.table.areas
        index: dict[Cell, int] = {}
        firsts: list[Cell] = []
        for x, y, _ in core.board:
            if (x, y) in index:
                continue
            for c in areas[(x, y)].cells:
                index[c] = len(firsts)
            firsts.append((x, y))
        found = core.memo["area_index"] = (index, firsts)
    return found


def facts(core: CardcassonneState, action: Action) -> dict[str, Any]:
    """The notation's facts (``play``: card, x, y; ``score``: suit, x, y), and for a score the ``area`` (its
    number in the view's ``areas``), the ``card`` at the cell that names it and its ``value`` per token."""
    told = NOTATION.facts(action)
    if isinstance(action, ScoreArea):
        cell = (action.x, action.y)
        area = core.table.areas[cell]
        told["area"] = area_index(core)[0][cell]
        told["card"] = str(core.table.at[cell])
        told["value"] = area_value(len(area.cells))
    return told


def view(core: CardcassonneState, seat: int | None) -> dict[str, Any]:
    """The table (``grid`` of cards with their area and token, ``areas``), the tokens, the piles and the
    seat's own hand; ``scorable`` lists the areas that may be scored now (rule 15)."""
    table = core.table
    token_cells = core.token_cells
    index, firsts = area_index(core)
    areas: list[dict[str, Any]] = []
    for first in firsts:
        area = table.areas[first]
        areas.append(
            {
                "suit": area.suit,
                "cells": [list(c) for c in sorted(area.cells, key=lambda c: (c[1], c[0]))],
                "tokens": [[c[0], c[1], token_cells[c]] for c in sorted(area.cells) if c in token_cells],
                "size": len(area.cells),
                "open": len(area.open),
                "complete": area.complete,
                "partial": area.partial,
                "value": area_value(len(area.cells)),
            }
        )
    scorable = core.scorable if core.phase == "score" else []
    return {
        "phase": core.phase,
        "grid": [
            {"x": x, "y": y, "card": str(card), "token": token_cells.get((x, y)), "area": index[(x, y)]}
            for x, y, card in core.board
        ],
        "last": list(core.board[-1][:2]) if len(core.board) > 1 else None,
        "areas": areas,
        "tokens_left": list(core.tokens_left),
        "draw_count": len(core.deck),
        "removed": len(core.removed),
        "hand_counts": [len(h) for h in core.hands],
        "hand": None if seat is None else [str(c) for c in core.hands[seat]],
        "scorable": [{"area": index[cell], "x": cell[0], "y": cell[1]} for cell in scorable],
        "same_suit": "neighbours-alike" if core.alike else "same-as-played",
        "end": "play-out-hands" if core.play_out else "stop-when-deck-empty",
    }


POSITIONS: dict[str, NamedPosition] = {
    # A 2-card hearts area with seat 0's token and one open cell (1,1): L = 1, partially complete,
    # worth 2 (rules 11 and 16); seat 1's lone 8♠ has 3 open cells.
    "figure-1": NamedPosition(
        "A partially complete area",
        2,
        {
            "board": [
                [0, 0, "5♡"],
                [1, 0, "7♡"],
                [0, -1, "5♣"],
                [1, -1, "6♠"],
                [-1, 0, "9♢"],
                [2, 0, "8♠"],
                [0, 1, "3♣"],
            ],
            "hands": [["2♣"], ["3♢"]],
            "tokens": [[0, 0, 0], [2, 0, 1]],
            "tokens_left": [6, 6],
        },
    ),
}
"""Named positions (shown live on the rules page)."""
