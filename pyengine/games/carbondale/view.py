"""What each seat sees of a Carbondale game, and the positions it can be loaded from (rules-page figures).

Rule numbers are those of the game's rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...core import NamedPosition, OptionValue
from ...notation import quote
from ...reading import is_int
from ...rng import Rng
from .network import ZONE, Network, Placed, network, reaches_goal
from .rules import (
    ACT,
    BONUS_HAND_SIZE,
    CLAIM_ATTEMPTS,
    DECK,
    HAND_SIZE,
    ROUND_LIMIT,
    SEGMENTS,
    STALEMATE_ROUNDS,
    STARTING_PAIRS,
    CarbondaleCore,
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
        """A core from a position: the rules page's "Position format" says what each field means.

        ``{"networks"?: [null | [{"card", "x", "y", "start": true} | {"card", "x", "y", "from": [x, y]}, ...],
        ...], "hands"?: [[card, ...], ...], "stock"?: [card, ...], "current"?: seat, "seed"?: int,
        "spares_used"?: 0..2}``. Missing networks get the starting pair A♠ 2♣; missing hands are dealt from
        the draw pile; every card not placed is in the draw pile or a spare pile. Anything else, or anything
        the rules could not have produced in a network, is refused with a ``ValueError`` naming the field.
        """
        if not isinstance(position, Mapping):
            raise ValueError("a Carbondale position must be an object")
        unknown = sorted((str(key) for key in position if key not in POSITION_FIELDS), key=len)
        if unknown:
            raise ValueError(
                f"position field {quote(unknown[0])} is not part of a Carbondale position "
                f"(fields: {', '.join(POSITION_FIELDS)})"
            )
        seed = position.get("seed", 0)
        if not is_int(seed) or not -SEED_LIMIT < seed < SEED_LIMIT:
            raise ValueError(f"position field 'seed' must be an integer below 2**64 in size; got {_shown(seed)}")
        rng = Rng.from_seed(seed)
        current = position.get("current", 0)
        if not is_int(current) or not 0 <= current < players:
            raise ValueError(f"position field 'current' must be a seat 0..{players - 1}; got {_shown(current)}")
        pool = Counter(DECK * players)

        def take(cards: tuple[Card, ...], where: str) -> None:
            for card in cards:
                if not pool[card]:
                    raise ValueError(f"{where}: no {card} is left (the game has {players} of each card)")
                pool[card] -= 1

        raw_networks = position.get("networks", [])
        if not isinstance(raw_networks, list) or len(raw_networks) > players:
            raise ValueError(f"position field 'networks' must be a list of at most {players} networks")
        networks: list[tuple[Placed, ...]] = []
        for seat in range(players):
            raw = raw_networks[seat] if seat < len(raw_networks) else None
            where = f"position field 'networks', network {seat + 1}"
            cards = DEFAULT_NETWORK if raw is None else _load_network(raw, where)
            take(tuple(p.card for p in cards), where)
            networks.append(cards)
        stock_raw = position.get("stock", [])
        if not isinstance(stock_raw, list) or len(stock_raw) > len(DECK) * players:
            raise ValueError("position field 'stock' must be a list of cards")
        stock = tuple(sorted(parse_card(c, "position field 'stock'") for c in stock_raw))
        take(stock, "position field 'stock'")
        given_hands: list[tuple[Card, ...] | None] = [None] * players
        hands_raw = position.get("hands")
        if hands_raw is not None:
            if not isinstance(hands_raw, list) or len(hands_raw) != players:
                raise ValueError(f"position field 'hands' must be a list of {players} hands")
            for seat, hand in enumerate(hands_raw):
                where = f"position field 'hands', hand {seat + 1}"
                if not isinstance(hand, list) or len(hand) > BONUS_HAND_SIZE:
                    raise ValueError(f"{where} must be a list of at most {BONUS_HAND_SIZE} cards")
                cards_in_hand = tuple(sorted(parse_card(c, where) for c in hand))
                take(cards_in_hand, where)
                given_hands[seat] = cards_in_hand
        # spare piles whose ranks are already built are taken as used (part of the draw pile now)
        ranks_built = {p.card.rank for net in networks for p in net}
        inferred = max((i for i, (low, _) in enumerate(SEGMENTS) if any(r >= low for r in ranks_built)), default=0)
        last_used = position.get("spares_used", inferred)
        if not is_int(last_used) or not 0 <= last_used <= 2:
            raise ValueError(f"position field 'spares_used' must be 0, 1 or 2; got {_shown(last_used)}")
        left = sorted(pool.elements())
        segments: list[tuple[Card, ...]] = []
        for low, high in SEGMENTS:
            segment, rng = rng.shuffled([c for c in left if low <= c.rank <= high])
            segments.append(segment)
        pile, rng = rng.shuffled([c for segment in segments[: last_used + 1] for c in segment])
        spares = segments[last_used + 1 :]
        hands: list[tuple[Card, ...]] = []
        for seat in range(players):
            hand = given_hands[seat]
            if hand is None:
                if len(pile) < HAND_SIZE:
                    raise ValueError("position field 'hands': the draw pile is too small to deal the missing hands")
                hand = tuple(sorted(pile[-HAND_SIZE:]))
                pile = pile[:-HAND_SIZE]
            hands.append(hand)
        core = CarbondaleCore(
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
        self._check_loaded(core)
        return core

    def _check_loaded(self, core: CarbondaleCore) -> None:
        """The loaded core holds every card once and keeps the contract: a decision to make, a score per seat."""
        zones = [p.card for net in core.networks for p in net] + [c for hand in core.hands for c in hand]
        zones += [*core.pile, *core.stock, *core.discards, *(c for spare in core.spares for c in spare)]
        if Counter(zones) != Counter(DECK * core.players):
            raise ValueError("position: the cards are not those of the game's decks, each exactly once")
        if not self.legal_actions(core) or len(self.scores(core)) != core.players:
            raise ValueError("position: the game could not go on from it")


POSITION_FIELDS = ("networks", "hands", "stock", "current", "seed", "spares_used")
"""Every field a position may have (the rules page's "Position format")."""
NETWORK_ENTRY_FIELDS = ("card", "x", "y", "start", "from")
COORDINATE_LIMIT = 50
"""Network coordinates lie within -50..50 (any 5 x 5 zone fits in there many times over)."""
SEED_LIMIT = 2**64
DEFAULT_NETWORK = (Placed(STARTING_PAIRS[0][0], 0, 0), Placed(STARTING_PAIRS[0][1], 1, 0))
"""A network left out of a position: A♠ west of 2♣ (rule 2)."""


def _shown(value: object) -> str:
    """A value for a message: true or false, small integers as they are, anything else quoted briefly."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**6 else "a very large number"
    return quote(value)


def _coordinate(value: object, where: str, name: str) -> int:
    if not is_int(value) or not -COORDINATE_LIMIT <= value <= COORDINATE_LIMIT:
        raise ValueError(f"{where}: {name} must be an integer from {-COORDINATE_LIMIT} to {COORDINATE_LIMIT}; "
                         f"got {_shown(value)}")
    return value


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


def _load_network(raw: object, where: str) -> tuple[Placed, ...]:
    """A network from its position description, checked against rules 2 and 6-9 (not the build table, rule 10):
    one starting pair side by side, every other card next to the black card it was built from, every card
    traced back to the starting pair, cells holding one black or up to two red cards, within 5 x 5."""
    if not isinstance(raw, list) or len(raw) > 2 * ZONE * ZONE:
        raise ValueError(f"{where} must be a list of at most {2 * ZONE * ZONE} cards")
    cards: list[Placed] = []
    for entry in raw:
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where}: each card is an object with 'card', 'x', 'y' and 'start' or 'from'")
        extra = sorted((str(key) for key in entry if key not in NETWORK_ENTRY_FIELDS), key=len)
        if extra:
            raise ValueError(f"{where}: {quote(extra[0])} is not a field of a network card "
                             f"(fields: {', '.join(NETWORK_ENTRY_FIELDS)})")
        if "card" not in entry:
            raise ValueError(f"{where}: each card needs 'card', 'x' and 'y'")
        card = parse_card(entry["card"], where)
        x = _coordinate(entry.get("x"), f"{where}, {card}", "'x'")
        y = _coordinate(entry.get("y"), f"{where}, {card}", "'y'")
        start = entry.get("start", False)
        if not isinstance(start, bool):
            raise ValueError(f"{where}, {card}: 'start' must be true or false")
        source: tuple[int, int] | None = None
        if start:
            if entry.get("from") is not None:
                raise ValueError(f"{where}, {card}: a starting card has no 'from' (rule 2)")
        else:
            src = entry.get("from")
            if not isinstance(src, list) or len(src) != 2:
                raise ValueError(f"{where}, {card} needs 'start': true or 'from': [x, y]")
            source = (_coordinate(src[0], f"{where}, {card}", "'from'"),
                      _coordinate(src[1], f"{where}, {card}", "'from'"))
            if abs(source[0] - x) + abs(source[1] - y) != 1:
                raise ValueError(f"{where}: {card} is not next to its source (rule 7)")
        cards.append(Placed(card, x, y, source))
    starts = [p for p in cards if p.start]
    pair = {p.card for p in starts}
    if len(starts) != 2 or not any(pair == set(option) for option in STARTING_PAIRS):
        raise ValueError(f"{where} needs exactly one starting pair, A♠ and 2♣ or A♣ and 2♠ (rule 2)")
    if starts[0].y != starts[1].y or abs(starts[0].x - starts[1].x) != 1:
        raise ValueError(f"{where}: the two starting cards lie side by side, east and west (rule 2)")
    net = Network(tuple(cards))
    for placed in cards:
        here = net.cells[(placed.x, placed.y)]
        if len(here) > 2 or (len(here) == 2 and not all(p.card.is_red for p in here)):
            raise ValueError(f"{where}: cell {placed.x},{placed.y} breaks rule 6")
        if placed.source is not None:
            src_cards = net.cells.get(placed.source, ())
            if len(src_cards) != 1 or not src_cards[0].card.is_black:
                raise ValueError(f"{where}: {placed.card} must be built from a black card (rule 7)")
    for placed in cards:  # every black card leads back to a starting card (rules 2 and 7)
        at, steps = placed, 0
        while at.source is not None and steps <= len(cards):
            at, steps = net.cells[at.source][0], steps + 1
        if at.source is not None:
            raise ValueError(f"{where}: {placed.card} at {placed.x},{placed.y} is not built from the starting pair")
    if net.width > ZONE or net.height > ZONE:
        raise ValueError(f"{where} is larger than {ZONE} x {ZONE} (rule 9)")
    if reaches_goal(net.hearts, net.diamonds):
        raise ValueError(f"{where} already holds 7 of one red suit and 3 of the other: the game would be over "
                         "(rule 24)")
    return tuple(cards)
