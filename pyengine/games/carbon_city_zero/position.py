"""Carbon City Zero positions: a turn of the cooperative game described field by field (the rules page's
"Position format"), and the named positions of the game's lesson.

Rule numbers are those of the game's rules page, ``web/rules/carbon-city-zero.html``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...core import NamedPosition, OptionValue
from ...notation import quote
from ...reading import is_int, is_list, shown
from ...rng import Rng
from .cards import CARBON_MAX, CARBON_START, CARDS, HAND, MARKET, MARKET_SECTORS, TABLE
from .state import CarbonCityZeroState, Deck, deck_count, market_size

FIELDS = ("in_play", "draw", "recycle", "market", "global_area", "discard", "others", "carbon", "rounds_left", "seed")
"""Every field a position may have; only ``in_play`` is required."""
SEED_LIMIT = 2**63


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> CarbonCityZeroState:
    """The core of ``position``, or a short ``ValueError`` naming the first field that is wrong.

    ``{"in_play": [card, ...], "draw"?: [card, ...], "recycle"?: [card, ...], "market"?: [card, ...],
    "global_area"?: [card, ...], "discard"?: [card, ...], "others"?: [{"hand", "draw", "recycle"}, ...],
    "carbon"?: 1..65, "rounds_left"?: 1..10, "seed"?: int}``, cards by name. The first player's turn has begun:
    ``in_play`` is their hand, played (rule 5). ``draw`` (top first) and ``recycle`` are their other cards;
    without ``draw``, the start cards not in play are shuffled into it. ``others`` gives every other deck's hand,
    draw deck and recycle pile; without it every other deck is a start deck, shuffled, with 5 cards in hand.
    ``market`` holds the marketplace's cards (default: dealt from the market deck), ``discard`` the market's
    discard pile; every card not named is in the market deck, shuffled by the seed. The cooperative game only.
    """
    _check_fields(options, position)
    pool = Counter(TABLE.market_cards + TABLE.snags + TABLE.globals_cooperative)
    starts = Counter(TABLE.start_deck)
    in_play = _names(position.get("in_play"), "in_play", pool, starts, 20)
    if not in_play:
        raise ValueError("position field 'in_play' must name at least one card")
    recycle = _names(position.get("recycle", []), "recycle", pool, starts, 60)
    if "draw" in position:
        draw = _names(position["draw"], "draw", pool, starts, 60)
        rng = Rng.from_seed(_seed(position))
    else:
        draw, rng = Rng.from_seed(_seed(position)).shuffled(sorted(starts.elements()))
    global_area = _names(position.get("global_area", []), "global_area", pool, Counter(), 3, ("global",))
    market = _names(position.get("market", []), "market", pool, Counter(), market_size(global_area), MARKET_SECTORS)
    discard = _names(position.get("discard", []), "discard", pool, Counter(), 60)
    others = _others(position.get("others"), deck_count(players) - 1, pool)
    market, market_deck, rng = _deal_market(market, pool, rng)
    decks = [Deck(tuple(draw), 0, (), tuple(recycle), 0)]
    if others is not None:
        decks += others
    for _ in range(deck_count(players) - len(decks)):
        cards, rng = rng.shuffled(list(TABLE.start_deck))
        decks.append(Deck(cards[HAND:], 0, cards[:HAND], (), 0))
    rounds = _whole(position.get("rounds_left", options.get("rounds", 9)), "rounds_left", 1, 10)
    return CarbonCityZeroState(
        players=players,
        rivalry=False,
        decks=tuple(decks),
        active=0,
        in_play=tuple((n, False, False) for n in in_play),
        buying=False,
        spent=0,
        link_bonus=0,
        factories_zero=False,
        topdeck=0,
        market=tuple(market),
        market_deck=market_deck,
        discard=discard,
        global_area=tuple(global_area),
        carbon=_whole(position.get("carbon", CARBON_START), "carbon", 1, CARBON_MAX),
        rounds_left=rounds,
        round=1,
        ender=-1,
        result="",
        winners=(),
        rng=rng,
    )


def write(core: CarbonCityZeroState) -> dict[str, Any] | None:
    """The description :func:`load` reads back to ``core`` as every seat sees it: the format describes the first
    player's turn of the first round, begun, in the cooperative game, so None for every other state."""
    first = core.decks[0]
    if (core.rivalry or core.active or core.round != 1 or core.buying or core.spent or core.link_bonus
            or core.factories_zero or core.topdeck or core.ender != -1 or core.result or not core.in_play
            or any(used or special for _, used, special in core.in_play) or first.hand
            or any(deck.carbon or deck.known_top for deck in core.decks)):
        return None
    return {
        "in_play": [name for name, _, _ in core.in_play],
        "draw": list(first.draw),
        "recycle": list(first.recycle),
        "market": list(core.market),
        "global_area": list(core.global_area),
        "discard": list(core.discard),
        "others": [{"hand": list(d.hand), "draw": list(d.draw), "recycle": list(d.recycle)} for d in core.decks[1:]],
        "carbon": core.carbon,
        "rounds_left": core.rounds_left,
    }


def _others(value: object, count: int, pool: Counter[str]) -> list[Deck] | None:
    """The other decks a position gives (each its hand, draw deck and recycle pile, its cards taken from its own
    start deck or ``pool``), or None to deal them."""
    if value is None:
        return None
    if not is_list(value) or len(value) != count:
        raise ValueError(f"position field 'others' must be a list of {count} decks, one for each other deck")
    decks = []
    for number, raw in enumerate(value, 2):
        where = f"others, deck {number}"
        if not isinstance(raw, Mapping) or set(raw) - {"hand", "draw", "recycle"}:
            raise ValueError(f"position field {quote(where)} must be an object of hand, draw and recycle")
        starts = Counter(TABLE.start_deck)
        hand = _names(raw.get("hand", []), f"{where}, hand", pool, starts, 20)
        draw = _names(raw.get("draw", []), f"{where}, draw", pool, starts, 60)
        recycle = _names(raw.get("recycle", []), f"{where}, recycle", pool, starts, 60)
        decks.append(Deck(draw, 0, hand, recycle, 0))
    return decks


def _check_fields(options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> None:
    """A position is of the cooperative game, and has only the fields of the format."""
    if options.get("variant", "cooperative") != "cooperative":
        raise ValueError("a Carbon City Zero position is a cooperative game")
    unknown = sorted(str(key) for key in position if key not in FIELDS)
    if unknown:
        raise ValueError(
            f"position field {quote(unknown[0])} is not part of a Carbon City Zero position "
            f"(fields: {', '.join(FIELDS)})"
        )


def _deal_market(market: tuple[str, ...], pool: Counter[str], rng: Rng) -> tuple[tuple[str, ...], tuple[str, ...], Rng]:
    """The cards not named shuffled into the market deck, and the marketplace filled from it (rule 3: its snags
    and Globals stay in the deck). (market, market deck, rng)."""
    market_deck, rng = rng.shuffled(sorted(pool.elements()))
    while len(market) < MARKET:
        pick = next(i for i, n in enumerate(market_deck) if CARDS[n].sector in MARKET_SECTORS)
        market += (market_deck[pick],)
        market_deck = market_deck[:pick] + market_deck[pick + 1 :]
    return market, tuple(market_deck), rng


def _seed(position: Mapping[str, Any]) -> int:
    seed = position.get("seed", 0)
    if not is_int(seed) or not -SEED_LIMIT < seed < SEED_LIMIT:
        raise ValueError(f"position field 'seed' must be a whole number below 2**63 in size; got {shown(seed)}")
    return seed


def _whole(value: object, name: str, least: int, most: int) -> int:
    if not is_int(value) or not least <= value <= most:
        raise ValueError(
            f"position field {quote(name)} must be a whole number from {least} to {most}; got {shown(value)}"
        )
    return value


def _names(
    value: object, name: str, pool: Counter[str], starts: Counter[str], most: int, sectors: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """Cards named in a field, each taken out of the start cards (``starts``) or the others (``pool``)."""
    if not is_list(value) or len(value) > most:
        raise ValueError(f"position field {quote(name)} must be a list of at most {most} cards")
    taken: list[str] = []
    for card in value:
        if not isinstance(card, str) or card not in CARDS:
            raise ValueError(f"position field {quote(name)}: {quote(card)} is not a card of the game")
        if sectors and CARDS[card].sector not in sectors:
            raise ValueError(f"position field {quote(name)}: {card} cannot lie there")
        source = starts if starts[card] else pool
        if not source[card]:
            raise ValueError(
                f"position field {quote(name)}: no {card} is left (the game has "
                f"{TABLE.start_deck.count(card) or CARDS[card].copies} of it)"
            )
        source[card] -= 1
        taken.append(card)
    return tuple(taken)


def _lesson(title: str, in_play: list[str], market: list[str], **more: Any) -> NamedPosition:
    """A position of the lesson: two players, the learner's turn begun."""
    return NamedPosition(title, 2, {"in_play": in_play, "market": market, "seed": 1, **more})


_MARKET = ["Bike Lanes", "Car Share", "Small Factory", "Wind Power", "Hydropower"]
LESSON_POSITIONS = {
    "lesson-buy": _lesson(
        "Lesson: buy a card", ["Budget", "Budget", "Budget", "Poor Housing Stock", "Poor Transport"], _MARKET
    ),
    "lesson-end-turn": _lesson(
        "Lesson: end the turn",
        ["Budget", "Public Awareness", "Bike Lanes", "Poor Transport", "Budget"],
        _MARKET,
        recycle=["Car Share"],
        rounds_left=8,
    ),
    "lesson-special": _lesson(
        "Lesson: a card's special rule", ["Retrofit Buildings", "Budget", "Budget", "Poor Transport", "Budget"], _MARKET
    ),
    "lesson-link": _lesson(
        "Lesson: a link", ["Public Awareness", "Car Share", "Budget", "Budget", "Poor Housing Stock"], _MARKET
    ),
    "lesson-discard": _lesson(
        "Lesson: discard a card in play",
        ["Hydropower", "Poor Transport", "Budget", "Budget", "Budget"],
        ["Bike Lanes", "Car Share", "Small Factory", "Wind Power", "Public Awareness"],
    ),
    "lesson-win": _lesson(
        "Lesson: carbon down to zero",
        ["Public Awareness", "Bike Lanes", "Budget", "Budget", "Budget"],
        _MARKET,
        carbon=4,
        rounds_left=2,
    ),
}
"""The positions of the game's lesson (``lessons.py``): two players, the learner's turn begun."""
