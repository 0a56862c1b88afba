"""What each seat sees of a Carbondale game, and the positions it can be loaded from (rules-page figures).

Rule numbers are those of the game's rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...core import NamedPosition, OptionValue
from ...rng import Rng
from .rules import (
    ACT,
    CLAIM_ATTEMPTS,
    DECK,
    HAND_SIZE,
    ROUND_LIMIT,
    SEGMENTS,
    STALEMATE_ROUNDS,
    STARTING_PAIRS,
    ZONE,
    CarbondaleCore,
    Network,
    Placed,
    network,
    parse_card,
)
from .words import CarbondaleWords

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


class Carbondale(CarbondaleWords):
    """Carbondale's rules: the mechanics (:mod:`.rules`), their words (:mod:`.words`) and the views."""

    positions = {"figure-1": FIGURE_1}

    def view(self, core: CarbondaleCore, seat: int | None) -> dict[str, Any]:
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

    # -- positions -----------------------------------------------------------------------------
    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> CarbondaleCore:
        """A core from ``{"networks": [[{"card", "x", "y", "start"? , "from"?: [x, y]}, ...], ...],
        "hands"?: [[card, ...], ...], "stock"?: [card, ...], "current"?: seat, "seed"?: int,
        "spares_used"?: int}``.

        Missing networks get the starting pair A♠ 2♣; missing hands are dealt from the draw pile.
        ``"spares_used"`` (0-2) says how many spare piles are already in the draw pile; by default, those
        whose ranks appear in a network.
        """
        if not isinstance(position, Mapping):
            raise ValueError("a Carbondale position must be an object")
        seed = position.get("seed", 0)
        if not isinstance(seed, int):
            raise ValueError("position field 'seed' must be an integer")
        rng = Rng.from_seed(seed)
        raw_networks = position.get("networks", [])
        if not isinstance(raw_networks, list) or len(raw_networks) > players:
            raise ValueError(f"position field 'networks' must be a list of at most {players} networks")
        pool = list(DECK * players)

        def take(card: Card, where: str) -> None:
            if card not in pool:
                raise ValueError(f"{where}: no {card} is left ({players} decks)")
            pool.remove(card)

        networks: list[tuple[Placed, ...]] = []
        for seat in range(players):
            raw = raw_networks[seat] if seat < len(raw_networks) else None
            cards: tuple[Placed, ...]
            if raw is None:
                cards = (Placed(STARTING_PAIRS[0][0], 0, 0), Placed(STARTING_PAIRS[0][1], 1, 0))
            else:
                cards = _load_network(raw, seat)
            for placed in cards:
                take(placed.card, f"network {seat + 1}")
            networks.append(cards)
        hands_raw = position.get("hands")
        stock_raw = position.get("stock", [])
        if not isinstance(stock_raw, list):
            raise ValueError("position field 'stock' must be a list of cards")
        stock = tuple(sorted(parse_card(str(c)) for c in stock_raw))
        for card in stock:
            take(card, "stock")
        given_hands: list[tuple[Card, ...] | None] = [None] * players
        if hands_raw is not None:
            if not isinstance(hands_raw, list) or len(hands_raw) != players:
                raise ValueError(f"position field 'hands' must be a list of {players} hands")
            for seat, hand in enumerate(hands_raw):
                if not isinstance(hand, list):
                    raise ValueError(f"position hand {seat + 1} must be a list of cards")
                given_hands[seat] = tuple(sorted(parse_card(str(c)) for c in hand))
                for card in given_hands[seat] or ():
                    take(card, f"hand {seat + 1}")
        # spare piles whose ranks are already built are taken as used (part of the draw pile now)
        ranks_built = {p.card.rank for net in networks for p in net}
        inferred = max((i for i, (low, _) in enumerate(SEGMENTS) if any(r >= low for r in ranks_built)), default=0)
        last_used = position.get("spares_used", inferred)
        if not isinstance(last_used, int) or not 0 <= last_used <= 2:
            raise ValueError("position field 'spares_used' must be 0, 1 or 2")
        segments: list[tuple[Card, ...]] = []
        for low, high in SEGMENTS:
            segment, rng = rng.shuffled([c for c in pool if low <= c.rank <= high])
            segments.append(segment)
        pile, rng = rng.shuffled([c for segment in segments[: last_used + 1] for c in segment])
        spares = segments[last_used + 1 :]
        hands: list[tuple[Card, ...]] = []
        for seat in range(players):
            hand = given_hands[seat]
            if hand is None:
                if len(pile) < HAND_SIZE:
                    raise ValueError("the draw pile is too small to deal the missing hands")
                hand = tuple(sorted(pile[-HAND_SIZE:]))
                pile = pile[:-HAND_SIZE]
            hands.append(hand)
        current = position.get("current", 0)
        if not isinstance(current, int) or not 0 <= current < players:
            raise ValueError(f"position field 'current' must be a seat 0..{players - 1}")
        return CarbondaleCore(
            players=players,
            any_black_to_red=bool(options.get("any_black_to_red", False)),
            networks=tuple(networks),
            hands=tuple(hands),
            pile=pile,
            spares=tuple(spares),
            stock=stock,
            fresh=(),
            discards=(),
            current=current,
            phase=ACT,
            rng=rng,
        )


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


def _load_network(raw: object, seat: int) -> tuple[Placed, ...]:
    """A network from its position description, checked against rules 6, 7 and 9 (not the build table)."""
    if not isinstance(raw, list):
        raise ValueError(f"position network {seat + 1} must be a list of cards")
    cards: list[Placed] = []
    for entry in raw:
        if not isinstance(entry, Mapping) or "card" not in entry:
            raise ValueError(f"position network {seat + 1}: each entry needs 'card', 'x' and 'y'")
        card = parse_card(str(entry["card"]))
        x, y = entry.get("x"), entry.get("y")
        if not isinstance(x, int) or not isinstance(y, int):
            raise ValueError(f"position network {seat + 1}: {card} needs integer 'x' and 'y'")
        source: tuple[int, int] | None = None
        if not entry.get("start", False):
            src = entry.get("from")
            if not (isinstance(src, list) and len(src) == 2 and all(isinstance(v, int) for v in src)):
                raise ValueError(f"position network {seat + 1}: {card} needs 'start' or 'from': [x, y]")
            source = (src[0], src[1])
            if abs(source[0] - x) + abs(source[1] - y) != 1:
                raise ValueError(f"position network {seat + 1}: {card} is not next to its source (rule 7)")
        cards.append(Placed(card, x, y, source))
    net = Network(tuple(cards))
    for placed in cards:
        here = net.cells[(placed.x, placed.y)]
        if len(here) > 2 or (len(here) == 2 and not all(p.card.is_red for p in here)):
            raise ValueError(f"position network {seat + 1}: cell {placed.x},{placed.y} breaks rule 6")
        if placed.source is not None:
            src_cards = net.cells.get(placed.source, ())
            if len(src_cards) != 1 or not src_cards[0].card.is_black:
                raise ValueError(f"position network {seat + 1}: {placed.card} must be built from a black card")
    if net.width > ZONE or net.height > ZONE:
        raise ValueError(f"position network {seat + 1} is larger than {ZONE} x {ZONE} (rule 9)")
    return tuple(cards)
