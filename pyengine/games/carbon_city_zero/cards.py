"""The card table of Carbon City Zero: data (``cards.json``, a reconstruction) loaded and checked here.

:func:`validate_table` names the card and field that is wrong; :data:`TABLE` and :data:`CARDS` are
the packaged table. Rule numbers are those of the rules page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

SECTORS = ("start", "domestic", "government", "industry", "snag", "global", "rivalry-global")
"""Card sectors: start cards, the three market sectors, snags and the two Global sets."""
MARKET_SECTORS = ("domestic", "government", "industry")
SPECIALS = ("discard-in-play", "discard-market", "topdeck-next", "factories-zero", "search-deck", "search-global")
"""Special rule kinds besides ``draw N`` (rules 17-23)."""
SNAG_EFFECTS = ("no-links", "draw-4")
GLOBAL_EFFECTS = ("draw-6", "market-6", "funding-gift", "cost-1")
CARD_FIELDS = ("name", "sector", "cost", "income", "carbon", "copies", "special", "link", "effect")

CARBON_START = 50
CARBON_MAX = 65
RIVALRY_CARBON_START = 40
RIVALRY_ROUND_LIMIT = 40
"""Termination guard (not in the rules): a Friendly Rivalry game ends after this many rounds."""
HAND = 5
MARKET = 5


@dataclass(frozen=True)
class CardType:
    """One card of the table: cost, income and carbon, its special rule and link ability."""

    name: str
    sector: str
    cost: int
    income: int
    carbon: int
    copies: int
    special: str
    """"" (none), ``draw``, or one of :data:`SPECIALS`."""
    draws: int
    """N of ``draw N``."""
    link: str
    """"" (none), ``carbon`` (link -K) or ``factories-zero``."""
    link_bonus: int
    """-K of a ``link -K`` ability (negative: carbon goes down)."""
    effect: str
    """Snag or Global effect: one of :data:`SNAG_EFFECTS` / :data:`GLOBAL_EFFECTS`, else ""."""

    @property
    def special_text(self) -> str:
        if self.special == "draw":
            return f"draw {self.draws}"
        return self.special

    @property
    def link_text(self) -> str:
        if self.link == "carbon":
            return f"{self.link_bonus:+d} carbon"
        return self.link


@dataclass(frozen=True)
class CardTable:
    """The validated card table."""

    cards: Mapping[str, CardType]
    start_deck: tuple[str, ...]
    market_cards: tuple[str, ...]
    snags: tuple[str, ...]
    globals_cooperative: tuple[str, ...]
    globals_rivalry: tuple[str, ...]
    note: str


def _is_link_bonus(text: object) -> bool:
    """``-K`` with K a positive number of one or two digits (a link's carbon bonus)."""
    return (
        isinstance(text, str) and 2 <= len(text) <= 3 and text[0] == "-" and text[1:].isdigit() and text[1] != "0"
    )


def _bad(name: object, field: str, problem: str) -> ValueError:
    return ValueError(f"card table: card {name!r}, field {field!r}: {problem}")


def _card_name(row: Mapping[str, object], number: int, cards: Mapping[str, CardType]) -> str:
    """The card's name: non-empty, without '#', not a name the table has already."""
    name = row.get("name")
    if not isinstance(name, str) or not name.strip() or name != name.strip() or "#" in name:
        raise _bad(name if name is not None else f"number {number}", "name", "must be a non-empty name without '#'")
    if name in cards:
        raise _bad(name, "name", "appears twice")
    return name


def _card_fields(name: str, row: Mapping[str, object]) -> str:
    """The card's sector, once every field of :data:`CARD_FIELDS` is there and no other."""
    for field in CARD_FIELDS:
        if field not in row:
            raise _bad(name, field, "is missing")
    unknown = sorted(set(row) - set(CARD_FIELDS))
    if unknown:
        raise _bad(name, unknown[0], "is not a card field")
    sector = row["sector"]
    if not isinstance(sector, str) or sector not in SECTORS:
        raise _bad(name, "sector", f"must be one of {', '.join(SECTORS)}; got {sector!r}")
    return sector


def _card_numbers(name: str, row: Mapping[str, object], sector: str) -> dict[str, int]:
    """Cost, income, carbon and copies: integers within their ranges for the card's sector."""
    numbers: dict[str, int] = {}
    for field in ("cost", "income", "carbon", "copies"):
        value = row[field]
        if not isinstance(value, int) or isinstance(value, bool):
            raise _bad(name, field, f"must be an integer; got {value!r}")
        numbers[field] = value
    if not 0 <= numbers["cost"] <= 20:
        raise _bad(name, "cost", f"must be 0 to 20; got {numbers['cost']}")
    if not -10 <= numbers["income"] <= 10:
        raise _bad(name, "income", f"must be -10 to 10; got {numbers['income']}")
    if not -20 <= numbers["carbon"] <= 20:
        raise _bad(name, "carbon", f"must be -20 to 20; got {numbers['carbon']}")
    copies = numbers["copies"]
    if sector == "start":
        if copies != 0:
            raise _bad(name, "copies", "a start card is not in the market deck: copies must be 0")
    elif not 1 <= copies <= 10:
        raise _bad(name, "copies", f"must be 1 to 10; got {copies}")
    if sector in MARKET_SECTORS and numbers["cost"] < 1:
        raise _bad(name, "cost", "a market card costs at least 1")
    return numbers


def _card_special(name: str, special_raw: object, sector: str) -> tuple[str, int]:
    """The special rule and N of ``draw N`` (``("", 0)`` for none)."""
    if special_raw is None:
        return "", 0
    if sector in ("snag", "global", "rivalry-global"):
        raise _bad(name, "special", f"a {sector} card has no special rule (use 'effect')")
    if not isinstance(special_raw, str):
        raise _bad(name, "special", f"must be null or text; got {special_raw!r}")
    words = special_raw.split()
    if len(words) == 2 and words[0] == "draw" and words[1].isdigit() and 1 <= int(words[1]) <= 3:
        return "draw", int(words[1])
    if special_raw in SPECIALS:
        return special_raw, 0
    allowed = "draw N (N 1-3), " + ", ".join(SPECIALS)
    raise _bad(name, "special", f"must be one of {allowed}; got {special_raw!r}")


def _card_link(name: str, link_raw: object, sector: str) -> tuple[str, int]:
    """The link ability and its carbon bonus (``("", 0)`` for none)."""
    if link_raw is None:
        return "", 0
    if sector not in MARKET_SECTORS:
        raise _bad(name, "link", f"a {sector} card has no link ability")
    if link_raw == "factories-zero":
        return "factories-zero", 0
    if isinstance(link_raw, str) and _is_link_bonus(link_raw):
        return "carbon", int(link_raw)
    allowed = "null, '-K' (K a positive number) or 'factories-zero'"
    raise _bad(name, "link", f"must be {allowed}; got {link_raw!r}")


def _card_effect(name: str, effect: object, sector: str, numbers: Mapping[str, int]) -> str:
    """A snag's or Global card's effect ("" for none); such cards cost nothing."""
    if sector == "snag":
        if effect is not None and effect not in SNAG_EFFECTS:
            raise _bad(name, "effect", f"a snag's effect must be null or one of {', '.join(SNAG_EFFECTS)}")
        if numbers["cost"] != 0:
            raise _bad(name, "cost", "a snag costs 0")
    elif sector in ("global", "rivalry-global"):
        if effect not in GLOBAL_EFFECTS:
            raise _bad(name, "effect", f"a Global card's effect must be one of {', '.join(GLOBAL_EFFECTS)}")
        if numbers["income"] or numbers["carbon"] or numbers["cost"]:
            raise _bad(name, "carbon", "a Global card has cost, income and carbon 0")
    elif effect is not None:
        raise _bad(name, "effect", f"only snags and Global cards have an effect; a {sector} card has none")
    return effect if isinstance(effect, str) else ""


def _card(number: int, row: object, cards: Mapping[str, CardType]) -> CardType:
    """Card ``number`` of the table's ``cards`` list, checked field by field."""
    if not isinstance(row, Mapping):
        raise ValueError(f"card table: card number {number} is not an object")
    name = _card_name(row, number, cards)
    sector = _card_fields(name, row)
    numbers = _card_numbers(name, row, sector)
    special, draws = _card_special(name, row["special"], sector)
    link, bonus = _card_link(name, row["link"], sector)
    effect = _card_effect(name, row["effect"], sector, numbers)
    return CardType(
        name, sector, numbers["cost"], numbers["income"], numbers["carbon"], numbers["copies"],
        special, draws, link, bonus, effect,
    )


def _start_deck(start: object, cards: Mapping[str, CardType]) -> list[str]:
    """The start deck from ``start_deck`` (start card names to counts); it holds every start card and Budget."""
    if not isinstance(start, Mapping) or not start:
        raise ValueError("card table: field 'start_deck' must map start card names to counts")
    start_deck: list[str] = []
    for name, count in start.items():
        if name not in cards:
            raise _bad(name, "start_deck", "is not a card of the table")
        if cards[name].sector != "start":
            raise _bad(name, "sector", "a start_deck card must have sector 'start'")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
            raise _bad(name, "start_deck", f"count must be 1 to 20; got {count!r}")
        start_deck += [name] * count
    if len(start_deck) < HAND:
        raise ValueError(f"card table: field 'start_deck' must hold at least {HAND} cards")
    for card in cards.values():
        if card.sector == "start" and card.name not in start:
            raise _bad(card.name, "start_deck", "a start card must be in the start deck")
    if cards.get("Budget") is None or cards["Budget"].sector != "start":
        raise _bad("Budget", "name", "the table needs the start card Budget (Global Funding gives it)")
    return start_deck


def validate_table(data: object) -> CardTable:
    """The card table from its JSON data; ``ValueError`` naming the card and field that is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("card table: the table must be an object with 'start_deck' and 'cards'")
    extra = sorted(set(data) - {"note", "start_deck", "cards"})
    if extra:
        raise ValueError(f"card table: unknown top-level field {extra[0]!r}")
    rows = data.get("cards")
    if not isinstance(rows, list) or not rows:
        raise ValueError("card table: field 'cards' must be a non-empty list of cards")
    cards: dict[str, CardType] = {}
    for number, row in enumerate(rows):
        card = _card(number, row, cards)
        cards[card.name] = card
    start_deck = _start_deck(data.get("start_deck"), cards)

    def copies_of(sectors: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(n for c in cards.values() if c.sector in sectors for n in [c.name] * c.copies))

    market = copies_of(MARKET_SECTORS)
    if len(market) < 2 * MARKET:
        raise ValueError(f"card table: the market needs at least {2 * MARKET} cards; got {len(market)}")
    for sector in ("global", "rivalry-global"):
        effects = [c.effect for c in cards.values() if c.sector == sector]
        if len(set(effects)) != len(effects):
            raise _bad(sector, "effect", "two Global cards of one set share an effect")
    note = data.get("note", "")
    return CardTable(
        cards, tuple(start_deck), market, copies_of(("snag",)), copies_of(("global",)),
        copies_of(("rivalry-global",)), note if isinstance(note, str) else "",
    )


def load_table() -> CardTable:
    """The packaged card table (``cards.json`` beside this module)."""
    text = resources.files(__package__ or __name__).joinpath("cards.json").read_text("utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"card table: not valid JSON: {exc}") from None
    return validate_table(data)


TABLE = load_table()
CARDS = TABLE.cards
