"""What each seat sees of a Carbondale game, and its named positions (rules-page figures).

Rule numbers are those of the game's rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

from typing import Any

from ...core import NamedPosition
from .network import ZONE, Placed, network
from .state import (
    ACT,
    CLAIM_ATTEMPTS,
    ROUND_LIMIT,
    STALEMATE_ROUNDS,
    CarbondaleState,
)

FIGURE_1 = NamedPosition(
    "Figure 1: a network five cards wide and three tall",
    players=2,
    position={
        # The original's example network, reconstructed; legal with "any black builds any red" (rule 28).
        "networks": [
            [
                {"card": "2♠", "x": 0, "y": 0, "start": True},
                {"card": "A♣", "x": 1, "y": 0, "start": True},
                {"card": "3♠", "x": -1, "y": 0, "from": [0, 0]},
                {"card": "4♠", "x": -2, "y": 0, "from": [-1, 0]},
                {"card": "5♠", "x": -2, "y": 1, "from": [-2, 0]},
                {"card": "3♢", "x": -1, "y": 1, "from": [-1, 0]},
                {"card": "2♡", "x": 0, "y": 1, "from": [0, 0]},
                {"card": "3♣", "x": 1, "y": 1, "from": [1, 0]},
                {"card": "2♢", "x": 0, "y": 1, "from": [1, 1]},
                {"card": "4♣", "x": 2, "y": 1, "from": [1, 1]},
                {"card": "4♡", "x": 2, "y": 0, "from": [2, 1]},
                {"card": "5♣", "x": 1, "y": 2, "from": [1, 1]},
                {"card": "6♠", "x": 0, "y": 2, "from": [1, 2]},
                {"card": "6♢", "x": -1, "y": 2, "from": [0, 2]},
                {"card": "5♡", "x": 2, "y": 2, "from": [1, 2]},
                {"card": "3♡", "x": 2, "y": 2, "from": [2, 1]},
            ],
            [
                {"card": "A♣", "x": 0, "y": 0, "start": True},
                {"card": "2♠", "x": 1, "y": 0, "start": True},
            ],
        ],
        "seed": 1,
    },
    options={"any_black_to_red": True},
)


POSITIONS = {"figure-1": FIGURE_1}
"""The named positions (loaded by :mod:`.position`)."""


def view(core: CarbondaleState, seat: int | None) -> dict[str, Any]:
    fresh_left = list(core.fresh)
    stock = []
    for card in core.stock:
        is_fresh = card in fresh_left
        if is_fresh:
            fresh_left.remove(card)
        stock.append({"card": card.text, "fresh": is_fresh})
    pending = core.pending
    return {
        "networks": [_network_view(cards) for cards in core.networks],
        "zone": ZONE,
        "hand": [c.text for c in core.hands[seat]] if seat is not None else None,
        "hand_counts": [len(h) for h in core.hands],
        "stock": stock,
        "draw_count": len(core.pile),
        "spares": [len(s) for s in core.spares],
        "spares_used": 2 - len(core.spares),
        "discard_count": len(core.discards),
        "round": core.turns // core.players + 1,
        "phase": core.phase,
        "claims_made": core.claims,
        "claim_open": core.phase == ACT and core.claims < CLAIM_ATTEMPTS and not core.claimed,
        "built": core.built,
        "draw_to": core.draw_to,
        "pending": None
        if pending is None
        else {
            "challenger": pending.challenger,
            "owner": pending.owner,
            "x": pending.x,
            "y": pending.y,
            "target": pending.target.text,
            "challenge": pending.card.text,
        },
        "any_black_to_red": core.any_black_to_red,
        "idle_turns": core.idle,
        "stalemate_turns": STALEMATE_ROUNDS * core.players,
        "turn_number": core.turns + 1,
        "turn_limit": ROUND_LIMIT * core.players,
        "ending": core.ending,
    }


def _network_view(cards: tuple[Placed, ...]) -> dict[str, Any]:
    """A network as the page draws it: its cells (each card with its source and marks) and its size."""
    net = network(cards)
    cells = []
    for (x, y), here in sorted(net.cells.items()):
        cells.append(
            {
                "x": x,
                "y": y,
                "cards": [
                    {
                        "card": p.card.text,
                        "from": list(p.source) if p.source is not None else None,
                        "dir": p.direction,
                        "start": p.start,
                        "vulnerable": net.is_vulnerable(p),
                    }
                    for p in here
                ],
            }
        )
    return {
        "cells": cells,
        "min_x": net.min_x,
        "max_x": net.max_x,
        "min_y": net.min_y,
        "max_y": net.max_y,
        "width": net.width,
        "height": net.height,
        "hearts": net.hearts,
        "diamonds": net.diamonds,
        "progress": net.progress,
    }
