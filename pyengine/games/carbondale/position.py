"""Carbondale positions: a state built from a described table (the rules page's "Position format"), checked
field by field and against the rules a network obeys.

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
from .network import ZONE, Network, Placed, reaches_goal
from .state import (
    ACT,
    BONUS_HAND_SIZE,
    DECK,
    HAND_SIZE,
    SEGMENTS,
    STARTING_PAIRS,
    CarbondaleState,
    parse_card,
)

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


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> CarbondaleState:
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
    current = position.get("current", 0)
    if not is_int(current) or not 0 <= current < players:
        raise ValueError(f"position field 'current' must be a seat 0..{players - 1}; got {_shown(current)}")
    pool = Counter(DECK * players)
    networks = _networks(position, players, pool)
    stock_raw = position.get("stock", [])
    if not isinstance(stock_raw, list) or len(stock_raw) > len(DECK) * players:
        raise ValueError("position field 'stock' must be a list of cards")
    stock = tuple(sorted(parse_card(c, "position field 'stock'") for c in stock_raw))
    _take(pool, stock, "position field 'stock'", players)
    given_hands = _hands(position, players, pool)
    # spare piles whose ranks are already built are taken as used (part of the draw pile now)
    ranks_built = {p.card.rank for net in networks for p in net}
    inferred = max((i for i, (low, _) in enumerate(SEGMENTS) if any(r >= low for r in ranks_built)), default=0)
    last_used = position.get("spares_used", inferred)
    if not is_int(last_used) or not 0 <= last_used <= 2:
        raise ValueError(f"position field 'spares_used' must be 0, 1 or 2; got {_shown(last_used)}")
    hands, pile, spares, rng = _deal(sorted(pool.elements()), given_hands, last_used, Rng.from_seed(seed))
    core = CarbondaleState(
        players=players,
        any_black_to_red=bool(options.get("any_black_to_red", False)),
        networks=networks,
        hands=hands,
        pile=pile,
        spares=spares,
        stock=stock,
        fresh=(),
        discards=(),
        current=current,
        phase=ACT,
        rng=rng,
    )
    _check_cards(core)
    return core


def _take(pool: Counter[Card], cards: tuple[Card, ...], where: str, players: int) -> None:
    """Take ``cards`` out of the cards not yet placed (``pool``); a ``ValueError`` for a card none is left of."""
    for card in cards:
        if not pool[card]:
            raise ValueError(f"{where}: no {card} is left (the game has {players} of each card)")
        pool[card] -= 1


def write(core: CarbondaleState) -> dict[str, Any] | None:
    """The description :func:`load` reads back to ``core`` as every seat sees it: the format describes a turn of the
    first round at its start, nothing discarded, so None for every other state."""
    if (core.phase != ACT or core.fresh or core.discards or core.buried or core.claims or core.claimed
            or core.pending is not None or core.built or core.draw_to != HAND_SIZE or core.idle
            or core.last_spare_in or core.turns or core.winners):
        return None
    return {
        "networks": [[_entry_json(placed) for placed in network] for network in core.networks],
        "hands": [[str(card) for card in hand] for hand in core.hands],
        "stock": [str(card) for card in core.stock],
        "current": core.current,
        "spares_used": 2 - len(core.spares),
    }


def _entry_json(placed: Placed) -> dict[str, Any]:
    where: dict[str, Any] = {"start": True} if placed.source is None else {"from": list(placed.source)}
    return {"card": str(placed.card), "x": placed.x, "y": placed.y, **where}


def _networks(position: Mapping[str, Any], players: int, pool: Counter[Card]) -> tuple[tuple[Placed, ...], ...]:
    """Every seat's network (the starting pair where left out), its cards taken from ``pool``."""
    raw_networks = position.get("networks", [])
    if not isinstance(raw_networks, list) or len(raw_networks) > players:
        raise ValueError(f"position field 'networks' must be a list of at most {players} networks")
    networks: list[tuple[Placed, ...]] = []
    for seat in range(players):
        raw = raw_networks[seat] if seat < len(raw_networks) else None
        where = f"position field 'networks', network {seat + 1}"
        cards = DEFAULT_NETWORK if raw is None else _load_network(raw, where)
        _take(pool, tuple(p.card for p in cards), where, players)
        networks.append(cards)
    return tuple(networks)


def _hands(position: Mapping[str, Any], players: int, pool: Counter[Card]) -> list[tuple[Card, ...] | None]:
    """The hands the position gives (None for a hand to deal), their cards taken from ``pool``."""
    given_hands: list[tuple[Card, ...] | None] = [None] * players
    hands_raw = position.get("hands")
    if hands_raw is None:
        return given_hands
    if not isinstance(hands_raw, list) or len(hands_raw) != players:
        raise ValueError(f"position field 'hands' must be a list of {players} hands")
    for seat, hand in enumerate(hands_raw):
        where = f"position field 'hands', hand {seat + 1}"
        if not isinstance(hand, list) or len(hand) > BONUS_HAND_SIZE:
            raise ValueError(f"{where} must be a list of at most {BONUS_HAND_SIZE} cards")
        cards_in_hand = tuple(sorted(parse_card(c, where) for c in hand))
        _take(pool, cards_in_hand, where, players)
        given_hands[seat] = cards_in_hand
    return given_hands


def _deal(
    left: list[Card], given_hands: list[tuple[Card, ...] | None], last_used: int, rng: Rng
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[tuple[Card, ...], ...], Rng]:
    """The cards ``left`` shuffled into segments (rule 3): those up to spare pile ``last_used`` make the draw
    pile, the rest stay spare piles; missing hands are dealt from the draw pile. (hands, pile, spares, rng)."""
    segments: list[tuple[Card, ...]] = []
    for low, high in SEGMENTS:
        segment, rng = rng.shuffled([c for c in left if low <= c.rank <= high])
        segments.append(segment)
    pile, rng = rng.shuffled([c for segment in segments[: last_used + 1] for c in segment])
    hands: list[tuple[Card, ...]] = []
    for hand in given_hands:
        if hand is None:
            if len(pile) < HAND_SIZE:
                raise ValueError("position field 'hands': the draw pile is too small to deal the missing hands")
            hand = tuple(sorted(pile[-HAND_SIZE:]))
            pile = pile[:-HAND_SIZE]
        hands.append(hand)
    return tuple(hands), tuple(pile), tuple(segments[last_used + 1 :]), rng


def _check_cards(core: CarbondaleState) -> None:
    """The loaded core holds every card of the game's decks exactly once."""
    zones = [p.card for net in core.networks for p in net] + [c for hand in core.hands for c in hand]
    zones += [*core.pile, *core.stock, *core.discards, *(c for spare in core.spares for c in spare)]
    if Counter(zones) != Counter(DECK * core.players):
        raise ValueError("position: the cards are not those of the game's decks, each exactly once")


def _load_network(raw: object, where: str) -> tuple[Placed, ...]:
    """A network from its position description, checked against rules 2 and 6-9 (not the build table, rule 10):
    one starting pair side by side, every other card next to the black card it was built from, every card
    traced back to the starting pair, cells holding one black or up to two red cards, within 5 x 5."""
    if not isinstance(raw, list) or len(raw) > 2 * ZONE * ZONE:
        raise ValueError(f"{where} must be a list of at most {2 * ZONE * ZONE} cards")
    cards = [_load_entry(entry, where) for entry in raw]
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


def _load_entry(entry: object, where: str) -> Placed:
    """One card of a network's description: its card, cell, and either ``start`` or the cell it was built
    ``from`` (next to it, rule 7)."""
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
    return Placed(card, x, y, source)


def _placed(card: str, x: int, y: int, source: tuple[int, int] | None = None) -> dict[str, Any]:
    """One card of a described network: a starting card, or one built from the cell ``source``."""
    if source is None:
        return {"card": card, "x": x, "y": y, "start": True}
    return {"card": card, "x": x, "y": y, "from": list(source)}


_START = [_placed("A♠", 0, 0), _placed("2♣", 1, 0)]
_THEIRS = [_placed("A♣", 0, 0), _placed("2♠", 1, 0), _placed("3♣", 0, 1, (0, 0))]
_GROWN = [*_START, _placed("3♣", 2, 0, (1, 0)), _placed("4♣", 3, 0, (2, 0)), _placed("5♣", 4, 0, (3, 0)),
          _placed("2♡", 1, 1, (1, 0)), _placed("A♡", 1, 1, (1, 0)), _placed("3♡", 2, 1, (2, 0)),
          _placed("2♡", 2, 1, (2, 0)), _placed("4♡", 3, 1, (3, 0)), _placed("5♡", 4, 1, (4, 0)),
          _placed("A♢", 0, 1, (0, 0)), _placed("A♢", 0, 1, (0, 0)), _placed("2♠", 0, -1, (0, 0)),
          _placed("2♢", 0, -2, (0, -1))]
"""A network one heart short of winning: six hearts and three diamonds."""
_COMPUTER_HAND = ["6♡", "7♡", "8♢", "10♠"]


def _lesson(title: str, mine: list[dict[str, Any]], hand: list[str], **more: Any) -> NamedPosition:
    """A two-player position of the lesson: the learner (player 1) to move."""
    return NamedPosition(title, 2, {"networks": [mine, _THEIRS], "hands": [hand, _COMPUTER_HAND], "seed": 1,
                                    **more})


LESSON_POSITIONS = {
    "lesson-build": _lesson("Lesson: build a black card", _START, ["4♣", "4♠", "9♢", "10♢"]),
    "lesson-red": _lesson("Lesson: build a red card", _START, ["2♡", "3♡", "9♢", "10♠"]),
    "lesson-discard": _lesson("Lesson: discard and draw", _START, ["9♢", "10♢", "8♡", "9♠"], stock=["3♣"]),
    "lesson-claim": _lesson("Lesson: claim a card", _START, ["5♣", "9♢", "10♢", "8♡"]),
    "lesson-defend": NamedPosition(
        "Lesson: defend a card", 2,
        {"networks": [_THEIRS, _START], "hands": [["7♠", "9♢", "10♢", "8♡"], ["5♣", *_COMPUTER_HAND[:3]]],
         "current": 1, "seed": 1},
    ),
    "lesson-win": _lesson("Lesson: seven hearts and three diamonds", _GROWN, ["3♡", "9♢", "10♢", "8♠"]),
}
"""The positions of the game's lesson (``lessons.py``): two players, the learner to move (in ``lesson-defend``, the
computer, whose claim the learner answers)."""
