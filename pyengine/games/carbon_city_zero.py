"""Carbon City Zero (World Edition): a cooperative deck-building game about a carbon neutral city.

Rule numbers refer to the project's spec (``shared/rules/carbon-city-zero.md``) and to the
rules page ``web/rules/carbon-city-zero.html``. The card table is data
(``carbon_city_zero_cards.json``, a reconstruction) loaded and checked by :func:`load_table`.

Model:
- ``players`` seats; solo (1 player) controls two decks that alternate turns (variant Solo).
- A turn: the active deck's hand is in play from the start of the turn (rule 4 i); the player
  uses specials and links in any order, then buys one card at a time, then ends the turn, which
  adjusts carbon (rule 4 v), recycles (rule 6) and draws the next hand (rule 6).
- Hands are open (every card in hand is played at once anyway); a draw deck's contents are
  public, its order hidden (except cards known to be put on top); the market deck's order is hidden.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

from ..core import Action, GameInfo, Option, OptionValue, Rules, register
from ..rng import Rng

__all__ = ["RULES", "CardType", "CardTable", "load_table", "validate_table", "Core"]

# --------------------------------------------------------------------------------------------
# The card table (data)
# --------------------------------------------------------------------------------------------

SECTORS = ("start", "domestic", "government", "industry", "snag", "global", "rivalry-global")
"""Card sectors: start cards, the three market sectors, snags and the two Global sets."""
MARKET_SECTORS = ("domestic", "government", "industry")
SPECIALS = ("discard-in-play", "discard-market", "topdeck-next", "factories-zero", "search-deck", "search-global")
"""Special rule kinds besides ``draw N`` (spec: "Special rule kinds")."""
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


def _bad(name: object, field: str, problem: str) -> ValueError:
    return ValueError(f"card table: card {name!r}, field {field!r}: {problem}")


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
        if not isinstance(row, Mapping):
            raise ValueError(f"card table: card number {number} is not an object")
        name = row.get("name")
        if not isinstance(name, str) or not name.strip() or name != name.strip() or "#" in name:
            raise _bad(name if name is not None else f"number {number}", "name", "must be a non-empty name without '#'")
        if name in cards:
            raise _bad(name, "name", "appears twice")
        for field in CARD_FIELDS:
            if field not in row:
                raise _bad(name, field, "is missing")
        unknown = sorted(set(row) - set(CARD_FIELDS))
        if unknown:
            raise _bad(name, unknown[0], "is not a card field")
        sector = row["sector"]
        if sector not in SECTORS:
            raise _bad(name, "sector", f"must be one of {', '.join(SECTORS)}; got {sector!r}")
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
        special_raw = row["special"]
        special, draws = "", 0
        if special_raw is not None:
            if sector in ("snag", "global", "rivalry-global"):
                raise _bad(name, "special", f"a {sector} card has no special rule (use 'effect')")
            if not isinstance(special_raw, str):
                raise _bad(name, "special", f"must be null or text; got {special_raw!r}")
            words = special_raw.split()
            if len(words) == 2 and words[0] == "draw" and words[1].isdigit() and 1 <= int(words[1]) <= 3:
                special, draws = "draw", int(words[1])
            elif special_raw in SPECIALS:
                special = special_raw
            else:
                allowed = "draw N (N 1-3), " + ", ".join(SPECIALS)
                raise _bad(name, "special", f"must be one of {allowed}; got {special_raw!r}")
        link_raw = row["link"]
        link, bonus = "", 0
        if link_raw is not None:
            if sector not in MARKET_SECTORS:
                raise _bad(name, "link", f"a {sector} card has no link ability")
            if link_raw == "factories-zero":
                link = "factories-zero"
            elif isinstance(link_raw, str) and re.fullmatch(r"-[1-9][0-9]?", link_raw):
                link, bonus = "carbon", int(link_raw)
            else:
                allowed = "null, '-K' (K a positive number) or 'factories-zero'"
                raise _bad(name, "link", f"must be {allowed}; got {link_raw!r}")
        effect = row["effect"]
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
        cards[name] = CardType(
            name, sector, numbers["cost"], numbers["income"], numbers["carbon"], copies,
            special, draws, link, bonus, effect or "",
        )
    start = data.get("start_deck")
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
    """The packaged card table (``carbon_city_zero_cards.json``)."""
    text = resources.files(__package__ or "pyengine.games").joinpath("carbon_city_zero_cards.json").read_text("utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"card table: not valid JSON: {exc}") from None
    return validate_table(data)


TABLE = load_table()
CARDS = TABLE.cards

# --------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------

T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these frozen dataclasses, without re-running ``__init__`` (speed)."""
    new = object.__new__(type(obj))
    fields = dict(obj.__dict__)
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    return new

Slot = tuple[str, bool, bool]
"""A card in play: (name, special used, link used)."""


@dataclass(frozen=True)
class Deck:
    """One player's cards outside play. ``draw[0]`` is the top card of the draw deck."""

    draw: tuple[str, ...]
    known_top: int
    """How many top cards of the draw deck everyone knows (purchases put on top)."""
    hand: tuple[str, ...]
    recycle: tuple[str, ...]
    carbon: int
    """Friendly Rivalry: this player's carbon marker (unused in the cooperative game)."""


@dataclass(frozen=True)
class Core:
    players: int
    rivalry: bool
    decks: tuple[Deck, ...]
    active: int
    in_play: tuple[Slot, ...]
    buying: bool
    """True once the first card is bought: specials and links are over (rule 4)."""
    spent: int
    link_bonus: int
    factories_zero: bool
    topdeck: int
    market: tuple[str, ...]
    market_deck: tuple[str, ...]
    discard: tuple[str, ...]
    global_area: tuple[str, ...]
    carbon: int
    rounds_left: int
    round: int
    ender: int
    """Friendly Rivalry: the first deck that reached 0 (the round is finished), else -1."""
    result: str
    """"" while playing; "won", "lost" (cooperative) or "over" (Friendly Rivalry)."""
    winners: tuple[int, ...]
    rng: Rng


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Use:
    """Use the special rule or the link of card ``index`` in play (with a target if needed)."""

    index: int
    name: str
    kind: str
    """"special" or "link"."""
    target: str = ""
    target_index: int = -1

    def __str__(self) -> str:
        text = f"use {self.name} #{self.index + 1} {self.kind}"
        if self.kind == "link" or not self.target:
            return text
        special = CARDS[self.name].special
        if special == "discard-in-play":
            return f"{text}: discard {self.target} #{self.target_index + 1}"
        if special == "discard-market":
            return f"{text}: discard {self.target} from the market"
        if special == "search-deck":
            return f"{text}: take {self.target} from the deck"
        return f"{text}: reveal {self.target}"


@dataclass(frozen=True)
class Buy:
    """Buy the first marketplace card of this name."""

    name: str

    def __str__(self) -> str:
        return f"buy {self.name}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn; with Global Funding, first give a Budget in play to deck ``gift``."""

    gift: int = -1
    solo: bool = False

    def __str__(self) -> str:
        if self.gift < 0:
            return "end turn"
        who = "deck" if self.solo else "player"
        return f"give Budget to {who} {self.gift + 1} and end turn"


Move = Use | Buy | EndTurn
"""This game's actions."""

_BUYS = {name: Buy(name) for name in CARDS}
_END_TURN = EndTurn()
_USES: dict[tuple[int, str, str, str, int], Use] = {}


def _use(index: int, name: str, kind: str, target: str = "", target_index: int = -1) -> Use:
    """The (shared) action value: actions are immutable, so equal ones are made once."""
    key = (index, name, kind, target, target_index)
    found = _USES.get(key)
    if found is None:
        found = _USES[key] = Use(index, name, kind, target, target_index)
    return found

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def deck_count(players: int) -> int:
    """Solo plays two decks (variant Solo); otherwise one deck per player."""
    return 2 if players == 1 else players


_EFFECTS: dict[tuple[str, ...], frozenset[str]] = {}


def global_effects(global_area: tuple[str, ...]) -> frozenset[str]:
    """The effects of the Global area (memoized: there are few Global areas)."""
    found = _EFFECTS.get(global_area)
    if found is None:
        found = _EFFECTS[global_area] = frozenset(CARDS[n].effect for n in global_area)
    return found


def has_global(core: Core, effect: str) -> bool:
    return effect in global_effects(core.global_area)


_COST = {n: c.cost for n, c in CARDS.items()}
_INCOME = {n: c.income for n, c in CARDS.items()}


def cost_of(core: Core, name: str) -> int:
    """The price now: Increased Funding takes 1 off every cost above 1 (never below 1)."""
    cost = _COST[name]
    if cost > 1 and core.rivalry and "cost-1" in global_effects(core.global_area):
        return cost - 1
    return cost


def income(core: Core) -> int:
    """Rule 4 iii: the total income of the cards in play."""
    return sum([_INCOME[s[0]] for s in core.in_play])


def turn_carbon(core: Core) -> int:
    """Rule 4 v: the carbon of the cards in play plus link bonuses (factories-zero applied)."""
    total = core.link_bonus
    zero = core.factories_zero
    for slot in core.in_play:
        card = CARDS[slot[0]]
        if zero and card.sector == "industry" and card.carbon > 0:
            continue
        total += card.carbon
    return total


def market_size(global_area: tuple[str, ...]) -> int:
    return MARKET + 1 if "market-6" in global_effects(global_area) else MARKET


def hand_size(core: Core) -> int:
    """Rule 6 with the Globals (draw 6) and Poor Communication (one fewer)."""
    size = HAND + (1 if has_global(core, "draw-6") else 0)
    if any(CARDS[s[0]].effect == "draw-4" for s in core.in_play):
        size -= 1
    return size


def draw_cards(deck: Deck, count: int, rng: Rng) -> tuple[Deck, tuple[str, ...], Rng]:
    """Rule 6: draw ``count`` cards, shuffling the recycle pile into a new deck when it runs out."""
    draw, recycle, known = deck.draw, deck.recycle, deck.known_top
    taken: tuple[str, ...] = ()
    while count > 0:
        if not draw:
            if not recycle:
                break
            draw, rng = rng.shuffled(sorted(recycle))
            recycle, known = (), 0
        take = draw[:count]
        taken += take
        draw = draw[count:]
        known = max(0, known - len(take))
        count -= len(take)
    return replace(deck, draw=draw, recycle=recycle, known_top=known), taken, rng


@dataclass
class _Market:
    """Scratch space for a market refill (rule 8)."""

    market: list[str]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    global_area: tuple[str, ...]
    snags: list[str]
    rng: Rng


def refill(m: _Market, hole: int) -> None:
    """Rule 8: fill the marketplace; snags go to ``m.snags``, Globals to the Global area (a duplicate
    name to the discard pile); an empty market deck is the shuffled discard pile. ``hole``: where the
    first new card goes. Stops when both piles are exhausted (or after one reshuffle that found
    nothing to place, a guard against a discard pile of duplicate Globals only)."""
    reshuffled = False
    while len(m.market) < market_size(m.global_area):
        if not m.deck:
            if not m.discard or reshuffled:
                return
            m.deck, m.rng = m.rng.shuffled(sorted(m.discard))
            m.discard = ()
            reshuffled = True
        name, m.deck = m.deck[0], m.deck[1:]
        sector = CARDS[name].sector
        if sector == "snag":
            m.snags.append(name)
        elif sector in ("global", "rivalry-global"):
            if name in m.global_area:
                m.discard += (name,)
            else:
                m.global_area += (name,)
        else:
            if 0 <= hole <= len(m.market):
                m.market.insert(hole, name)
                hole = -1
            else:
                m.market.append(name)
            reshuffled = False


def owned_carbon(core: Core, deck: int) -> int:
    """Friendly Rivalry tie-break: the total carbon of every card a player owns."""
    d = core.decks[deck]
    names = d.draw + d.hand + d.recycle + (tuple(s[0] for s in core.in_play) if deck == core.active else ())
    return sum(CARDS[n].carbon for n in names)


def _canonical(slots: tuple[Slot, ...], index: int) -> int:
    """The first slot identical to ``slots[index]`` (identical cards are one choice)."""
    return slots.index(slots[index])


# --------------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------------


def _allowed_players(players: int, options: Mapping[str, OptionValue]) -> str | None:
    if options.get("variant") == "rivalry" and players < 2:
        return "the Friendly Rivalry variant needs 2 to 4 players (solo plays the cooperative game)"
    return None


def _max_actions(players: int) -> int:
    """A true bound: per turn at most two uses per card in play (every card of the game), one buy
    per point of income plus one per card costing 0 (discarded start cards come back through the
    discard pile), and the end of the turn; turns are bounded by
    the round counter (10 at most) or the Friendly Rivalry round guard."""
    cards = len(TABLE.market_cards) + len(TABLE.snags) + deck_count(players) * len(TABLE.start_deck)
    max_income = sum(max(0, CARDS[n].income) for n in TABLE.market_cards) + deck_count(players) * sum(
        max(0, CARDS[n].income) for n in TABLE.start_deck
    )
    free = sum(1 for n in TABLE.market_cards + TABLE.start_deck * deck_count(players) if CARDS[n].cost == 0)
    per_turn = 2 * cards + max_income + free + 1
    rounds = max(10, RIVALRY_ROUND_LIMIT)
    return per_turn * rounds * deck_count(players)


class CarbonCityZero(Rules):
    info = GameInfo(
        id="carbon-city-zero",
        title="Carbon City Zero",
        blurb="Cooperative deck-building: buy green projects and bring the city's carbon to zero before time runs out.",
        min_players=1,
        max_players=4,
        rules_version="1",
        cooperative=True,
        options=(
            Option("rounds", 9, (9, 10, 8), "Round counter", "Rounds to reach zero: 10 easy, 9 standard, 8 hard."),
            Option(
                "variant",
                "cooperative",
                ("cooperative", "rivalry"),
                "Variant",
                "Cooperative (everyone wins or loses together) or Friendly Rivalry (first to 0 wins; 2-4 players).",
            ),
        ),
        source="https://wearepossible.org/cczwe-rules-faq",
        score_unit="carbon cut",
        max_actions=_max_actions,
        allowed_players=_allowed_players,
        competitive_variant=lambda options: options.get("variant") == "rivalry",
    )

    # -- setup ---------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> Core:
        rivalry = options.get("variant", "cooperative") == "rivalry"
        rounds = options.get("rounds", 9)
        assert isinstance(rounds, int)
        # Rule 3: market cards, snags and the Global set of the variant, shuffled.
        pool = TABLE.market_cards + TABLE.snags + (TABLE.globals_rivalry if rivalry else TABLE.globals_cooperative)
        market_deck, rng = rng.shuffled(sorted(pool))
        m = _Market([], market_deck, (), (), [], rng)
        refill(m, -1)
        # Rule 3 [I]: a snag dealt at setup goes to the discard pile.
        discard = m.discard + tuple(m.snags)
        rng = m.rng
        decks = []
        carbon = RIVALRY_CARBON_START if rivalry else 0
        for _ in range(deck_count(players)):
            draw, rng = rng.shuffled(list(TABLE.start_deck))  # rule 2
            decks.append(Deck(draw[HAND:], 0, draw[:HAND], (), carbon))
        first = decks[0]
        decks[0] = replace(first, hand=())
        return Core(
            players=players,
            rivalry=rivalry,
            decks=tuple(decks),
            active=0,
            in_play=tuple((n, False, False) for n in first.hand),
            buying=False,
            spent=0,
            link_bonus=0,
            factories_zero=False,
            topdeck=0,
            market=tuple(m.market),
            market_deck=m.deck,
            discard=discard,
            global_area=m.global_area,
            carbon=CARBON_START,
            rounds_left=rounds,
            round=1,
            ender=-1,
            result="",
            winners=(),
            rng=rng,
        )

    # -- decisions ---------------------------------------------------------------------------
    def current_player(self, core: Core) -> int | None:
        if core.result:
            return None
        return 0 if core.players == 1 else core.active

    def legal_actions(self, core: Core) -> list[Action]:
        if core.result:
            return []
        actions: list[Action] = list(self._uses(core)) if not core.buying else []
        left = income(core) - core.spent
        cut = core.rivalry and "cost-1" in global_effects(core.global_area)
        seen: set[str] = set()
        for name in core.market:
            if name not in seen:
                seen.add(name)
                cost = _COST[name]
                if cut and cost > 1:
                    cost -= 1
                if cost <= left:
                    actions.append(_BUYS[name])
        if left > 0 and not core.rivalry:
            actions += self._gifts(core, left)
        actions.append(_END_TURN)
        return actions

    def _uses(self, core: Core) -> list[Use]:
        """Rule 4 ii and rule 5: the specials and links usable now."""
        slots = core.in_play
        deck = core.decks[core.active]
        no_links = False
        sectors: dict[str, int] = {}
        for slot in slots:
            card = CARDS[slot[0]]
            sectors[card.sector] = sectors.get(card.sector, 0) + 1
            if card.effect == "no-links":
                no_links = True
        actions: list[Use] = []
        seen: set[Slot] = set()
        for i, slot in enumerate(slots):
            if slot in seen:
                continue  # an identical card earlier in play offers the same choices
            seen.add(slot)
            name, special_used, link_used = slot
            card = CARDS[name]
            if card.special and not special_used:
                actions += self._special_choices(core, deck, i, card)
            if (
                card.link
                and not link_used
                and not no_links
                and sectors[card.sector] >= 2
                and not (card.link == "factories-zero" and core.factories_zero)
            ):
                actions.append(_use(i, name, "link"))
        return actions

    def _special_choices(self, core: Core, deck: Deck, i: int, card: CardType) -> list[Use]:
        name, special = card.name, card.special
        if special == "draw":
            return [_use(i, name, "special")] if deck.draw or deck.recycle else []
        if special == "topdeck-next":
            return [_use(i, name, "special")]
        if special == "factories-zero":
            return [] if core.factories_zero else [_use(i, name, "special")]
        if special == "discard-in-play":
            out: list[Use] = []
            seen: set[Slot] = set()
            for j, other in enumerate(core.in_play):
                if j != i and other not in seen:  # identical cards are one choice
                    seen.add(other)
                    out.append(_use(i, name, "special", other[0], j))
            return out
        if special == "discard-market":
            return [_use(i, name, "special", n) for n in dict.fromkeys(core.market)]
        if special == "search-deck":
            pile = deck.draw or deck.recycle
            return [_use(i, name, "special", n) for n in sorted(set(pile))]
        # search-global
        found = {n for n in core.market_deck if CARDS[n].sector in ("global", "rivalry-global")}
        return [_use(i, name, "special", n) for n in sorted(found - set(core.global_area))]

    def _gifts(self, core: Core, left: int) -> list[EndTurn]:
        """Global Funding [S]: with unspent income, a Budget in play may go to another player's hand."""
        if left <= 0 or core.rivalry or "funding-gift" not in global_effects(core.global_area):
            return []
        if not any(s[0] == "Budget" for s in core.in_play):
            return []
        solo = core.players == 1
        return [EndTurn(d, solo) for d in range(len(core.decks)) if d != core.active]

    # -- applying ------------------------------------------------------------------------------
    def apply(self, core: Core, action: Action) -> Core:
        if isinstance(action, Buy):
            return self._buy(core, action.name)
        if isinstance(action, Use):
            return self._use(core, action)
        assert isinstance(action, EndTurn)
        return self._end_turn(core, action.gift)

    def _use(self, core: Core, action: Use) -> Core:
        slots = list(core.in_play)
        i = action.index
        name, special_used, link_used = slots[i]
        card = CARDS[name]
        if action.kind == "link":
            slots[i] = (name, special_used, True)
            if card.link == "factories-zero":
                return replace(core, in_play=tuple(slots), factories_zero=True)
            return replace(core, in_play=tuple(slots), link_bonus=core.link_bonus + card.link_bonus)
        slots[i] = (name, True, link_used)
        special = card.special
        if special == "draw":
            deck, taken, rng = draw_cards(core.decks[core.active], card.draws, core.rng)
            slots += [(n, False, False) for n in taken]
            return replace(core, in_play=tuple(slots), decks=self._with_deck(core, deck), rng=rng)
        if special == "topdeck-next":
            return replace(core, in_play=tuple(slots), topdeck=core.topdeck + 1)
        if special == "factories-zero":
            return replace(core, in_play=tuple(slots), factories_zero=True)
        if special == "discard-in-play":
            gone = slots.pop(action.target_index)
            return replace(core, in_play=tuple(slots), discard=core.discard + (gone[0],))
        if special == "discard-market":
            market = list(core.market)
            hole = market.index(action.target)
            market.pop(hole)
            m = _Market(market, core.market_deck, core.discard + (action.target,), core.global_area, [], core.rng)
            refill(m, hole)
            return self._after_refill(replace(core, in_play=tuple(slots)), m)
        if special == "search-deck":
            deck = core.decks[core.active]
            draw, recycle = deck.draw, deck.recycle
            if not draw:
                draw, recycle = recycle, ()
            pile = list(draw)
            pile.remove(action.target)
            slots.append((action.target, False, False))
            new_draw, rng = core.rng.shuffled(sorted(pile))
            deck = replace(deck, draw=new_draw, recycle=recycle, known_top=0)
            return replace(core, in_play=tuple(slots), decks=self._with_deck(core, deck), rng=rng)
        # search-global: put the Global in the Global area, shuffle the market deck.
        rest = list(core.market_deck)
        rest.remove(action.target)
        market_deck, rng = core.rng.shuffled(sorted(rest))
        m = _Market(list(core.market), market_deck, core.discard, core.global_area + (action.target,), [], rng)
        refill(m, -1)  # Global Opportunities: the marketplace grows at once
        return self._after_refill(replace(core, in_play=tuple(slots)), m)

    def _with_deck(self, core: Core, deck: Deck, index: int | None = None) -> tuple[Deck, ...]:
        decks = list(core.decks)
        decks[core.active if index is None else index] = deck
        return tuple(decks)

    def _after_refill(self, core: Core, m: _Market) -> Core:
        """Rule 8: snags revealed by a refill go onto the active player's recycle pile."""
        decks = core.decks
        if m.snags:
            deck = core.decks[core.active]
            decks = self._with_deck(core, replace(deck, recycle=deck.recycle + tuple(m.snags)))
        return replace(
            core, market=tuple(m.market), market_deck=m.deck, discard=m.discard, global_area=m.global_area,
            decks=decks, rng=m.rng,
        )

    def _buy(self, core: Core, name: str) -> Core:
        """Rule 4 iv: pay, put the card on the recycle pile (or on top of the draw deck after a
        topdeck-next special), refill the marketplace at once."""
        deck = core.decks[core.active]
        topdeck = core.topdeck
        if topdeck > 0:
            deck = replace(deck, draw=(name,) + deck.draw, known_top=deck.known_top + 1)
            topdeck -= 1
        else:
            deck = replace(deck, recycle=deck.recycle + (name,))
        market = list(core.market)
        hole = market.index(name)
        market.pop(hole)
        m = _Market(market, core.market_deck, core.discard, core.global_area, [], core.rng)
        refill(m, hole)
        core = replace(
            core,
            decks=self._with_deck(core, deck),
            buying=True,
            spent=core.spent + cost_of(core, name),
            topdeck=topdeck,
        )
        return self._after_refill(core, m)

    def _end_turn(self, core: Core, gift: int) -> Core:
        """Rule 4 v (carbon), rule 6 (recycle, draw), rule 7 (round counter) and the end rules."""
        change = turn_carbon(core)
        decks = list(core.decks)
        active = core.active
        carbon, rounds_left, ender, result = core.carbon, core.rounds_left, core.ender, ""
        if core.rivalry:
            mine = max(0, min(CARBON_MAX, decks[active].carbon + change))
            decks[active] = replace(decks[active], carbon=mine)
            if mine == 0 and ender < 0:
                ender = active  # the others still take this round's turns
        else:
            carbon = max(0, min(CARBON_MAX, carbon + change))
            if carbon == 0:  # rule 4 v: everyone wins at once
                return replace(core, carbon=0, result="won", winners=tuple(range(core.players)))
            if carbon == CARBON_MAX:  # rule 4 v: the round counter moves one extra space
                rounds_left -= 1
                if rounds_left <= 0:
                    return replace(core, carbon=carbon, rounds_left=0, result="lost")
        # Rule 6: recycle, except a Budget given away under Global Funding.
        played = [s[0] for s in core.in_play]
        if gift >= 0:
            played.remove("Budget")
            decks[gift] = replace(decks[gift], hand=decks[gift].hand + ("Budget",))
        deck = replace(decks[active], recycle=decks[active].recycle + tuple(played))
        size = hand_size(core)
        deck, taken, rng = draw_cards(deck, size, core.rng)
        decks[active] = replace(deck, hand=deck.hand + taken)
        # Rule 7: after the last deck's turn the round is over.
        nxt = active + 1
        round_ = core.round
        winners: tuple[int, ...] = ()
        if nxt == len(decks):
            nxt = 0
            round_ += 1
            if core.rivalry:
                if ender >= 0 or round_ > RIVALRY_ROUND_LIMIT:
                    result = "over"
                    winners = self._rivalry_winners(replace(core, decks=tuple(decks), in_play=()))
            else:
                rounds_left -= 1
                if rounds_left <= 0:
                    result = "lost"
        if result:
            return replace(
                core, decks=tuple(decks), in_play=(), buying=False, spent=0, link_bonus=0, factories_zero=False,
                topdeck=0, carbon=carbon, rounds_left=max(0, rounds_left), ender=ender, result=result,
                winners=winners, rng=rng,
            )
        hand = decks[nxt].hand
        decks[nxt] = replace(decks[nxt], hand=())  # rule 4 i: the next player plays every card in hand
        return Core(
            players=core.players,
            rivalry=core.rivalry,
            decks=tuple(decks),
            active=nxt,
            in_play=tuple((n, False, False) for n in hand),
            buying=False,
            spent=0,
            link_bonus=0,
            factories_zero=False,
            topdeck=0,
            market=core.market,
            market_deck=core.market_deck,
            discard=core.discard,
            global_area=core.global_area,
            carbon=carbon,
            rounds_left=rounds_left,
            round=round_,
            ender=ender,
            result="",
            winners=(),
            rng=rng,
        )

    def _rivalry_winners(self, core: Core) -> tuple[int, ...]:
        """Friendly Rivalry: the players at 0 win; several: the lowest carbon over all cards they own.
        Guard (after the round limit, nobody at 0): the lowest carbon marker, then the same tie-break."""
        best = min(d.carbon for d in core.decks)
        leaders = [i for i, d in enumerate(core.decks) if d.carbon == best]
        if len(leaders) == 1:
            return tuple(leaders)
        owned = {i: owned_carbon(core, i) for i in leaders}
        low = min(owned.values())
        return tuple(i for i in leaders if owned[i] == low)

    # -- results ------------------------------------------------------------------------------
    def scores(self, core: Core) -> list[int | float]:
        """Cooperative: 50 minus the carbon level for everyone; Friendly Rivalry: 40 minus your marker."""
        if core.rivalry:
            return [RIVALRY_CARBON_START - d.carbon for d in core.decks]
        return [CARBON_START - core.carbon] * core.players

    def winners(self, core: Core) -> list[int]:
        return list(core.winners)

    def evaluate(self, core: Core) -> list[float] | None:
        """A projection of the turns left (each deck's carbon per turn from its cards, improving
        with what its income buys, the 65 cap included); the chance falls with the projected carbon."""
        if core.result:
            return [1.0 if i in core.winners else 0.0 for i in range(core.players)]
        if core.rivalry:
            pending = turn_carbon(core)
            turns = [_rivalry_turns(core, i, pending if i == core.active else 0) for i in range(len(core.decks))]
            fastest = min(turns)
            weights = [0.5 ** (t - fastest) for t in turns]
            total = sum(weights)
            return [w / total for w in weights]
        margin = _projected_carbon(core)
        chance = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (margin - EVAL_OFFSET) / EVAL_SCALE))))
        return [chance] * core.players

    # -- information -----------------------------------------------------------------------------
    def view(self, core: Core, seat: int | None) -> dict[str, Any]:
        solo = core.players == 1
        decks = []
        for i, d in enumerate(core.decks):
            counts: dict[str, int] = {}
            for name in d.draw:
                counts[name] = counts.get(name, 0) + 1
            decks.append(
                {
                    "owner": 0 if solo else i,
                    "hand": list(d.hand),
                    "draw_count": len(d.draw),
                    "draw_cards": [[n, counts[n]] for n in sorted(counts)],
                    "known_top": list(d.draw[: d.known_top]),
                    "recycle": list(d.recycle),
                    "carbon": d.carbon if core.rivalry else None,
                    "owned_carbon": owned_carbon(core, i),
                }
            )
        in_play = []
        usable = {(a.index, a.kind) for a in self._uses(core)} if not core.result and not core.buying else set()
        for i, (name, special_used, link_used) in enumerate(core.in_play):
            in_play.append(
                {
                    "index": i + 1,
                    "name": name,
                    "special_used": special_used,
                    "link_used": link_used,
                    "special_usable": (_canonical(core.in_play, i), "special") in usable,
                    "link_usable": (_canonical(core.in_play, i), "link") in usable,
                }
            )
        total = income(core)
        return {
            "variant": "rivalry" if core.rivalry else "cooperative",
            "solo": solo,
            "carbon": core.carbon,
            "carbon_max": CARBON_MAX,
            "rounds_left": core.rounds_left,
            "round": core.round,
            "result": core.result,
            "ender": core.ender,
            "active": core.active,
            "decks": decks,
            "in_play": in_play,
            "income": total,
            "spent": core.spent,
            "income_left": total - core.spent,
            "buying": core.buying,
            "link_bonus": core.link_bonus,
            "factories_zero": core.factories_zero,
            "topdeck": core.topdeck,
            "turn_carbon": turn_carbon(core),
            "hand_size": hand_size(core),
            "market": [[n, cost_of(core, n)] for n in core.market],
            "market_deck_count": len(core.market_deck),
            "discard": list(core.discard),
            "global_area": list(core.global_area),
            "cards": _CARD_VIEW,
        }

    def sample_hidden(self, core: Core, seat: int | None, rng: Rng) -> Core:
        """Re-deal the unseen orders: each draw deck below its known top cards, and the market deck."""
        decks = []
        for d in core.decks:
            hidden = sorted(d.draw[d.known_top :])
            shuffled, rng = rng.shuffled(hidden)
            decks.append(replace(d, draw=d.draw[: d.known_top] + shuffled))
        market_deck, rng = rng.shuffled(sorted(core.market_deck))
        own, rng = rng.split()
        return replace(core, decks=tuple(decks), market_deck=market_deck, rng=own)

    def describe(self, before: Core, action: Action, after: Core) -> str:
        who = f"Deck {before.active + 1}" if before.players == 1 else f"Player {before.active + 1}"
        if isinstance(action, Buy):
            line = f"{who} buys {action.name} for {cost_of(before, action.name)}"
            return line + _revealed(before, after)
        if isinstance(action, Use):
            card = CARDS[action.name]
            if action.kind == "link":
                return f"{who} uses the link of {action.name} ({card.link_text})"
            line = f"{who} uses the special rule of {action.name} ({card.special_text})"
            if card.special in ("draw", "search-deck"):
                new = [s[0] for s in after.in_play[len(before.in_play) :]]
                line += ": " + (", ".join(new) + " into play" if new else "no card left to draw")
            elif action.target:
                line += f": {action.target}"
            return line + _revealed(before, after)
        assert isinstance(action, EndTurn)
        line = f"{who} ends the turn"
        if action.gift >= 0:
            to = f"Deck {action.gift + 1}" if before.players == 1 else f"Player {action.gift + 1}"
            line = f"{who} gives a Budget to {to} (Global Funding) and ends the turn"
        change = turn_carbon(before)
        if before.rivalry:
            line += f": carbon {change:+d}, now {after.decks[before.active].carbon}"
        else:
            line += f": carbon {change:+d}, now {after.carbon}"
        if after.result == "won":
            line += ". Carbon zero: everyone wins!"
        elif after.result == "lost":
            line += ". Time's up: the city did not reach zero."
        elif after.result == "over":
            names = ", ".join(f"Player {w + 1}" for w in after.winners)
            line += f". The game is over: {names} {'wins' if len(after.winners) == 1 else 'win'}."
        elif not before.rivalry and after.rounds_left < before.rounds_left:
            if after.carbon == CARBON_MAX:
                line += " (at 65 the round counter moves an extra space)"
            left = after.rounds_left
            line += f"; {left} round{'s' if left != 1 else ''} left"
        return line

    def why_illegal(self, core: Core, text: str) -> str:
        if core.result:
            return "the game is over"
        words = text.split()
        if not words:
            return "an empty action; actions look like 'use Bike Lanes #2 special', 'buy Car Share', 'end turn'"
        if words[0] == "buy":
            name = text[4:].strip()
            if name not in CARDS:
                return f"there is no card called {name!r}"
            if name not in core.market:
                return f"{name} is not in the marketplace"
            left = income(core) - core.spent
            return f"{name} costs {cost_of(core, name)} and you have {left} income left"
        if words[0] == "use":
            return self._why_use(core, text)
        if words[0] == "give":
            if core.rivalry or not has_global(core, "funding-gift"):
                return "only Global Funding lets you give a Budget away, and it is not in the Global area"
            if income(core) - core.spent <= 0:
                return "Global Funding's gift needs unspent income"
            if not any(s[0] == "Budget" for s in core.in_play):
                return "you have no Budget in play to give"
            return "give a Budget to another player, e.g. 'give Budget to player 2 and end turn'"
        return (
            f"unknown action {text!r}; actions look like 'use Bike Lanes #2 special', 'use Bike Lanes #2 link', "
            "'buy Car Share', 'end turn'"
        )

    def _why_use(self, core: Core, text: str) -> str:
        head, _, _target = text[4:].partition(":")
        parts = head.rsplit(" ", 2)
        if len(parts) != 3 or not parts[1].startswith("#") or parts[2] not in ("special", "link"):
            return "write a use as 'use <card> #<n> special' or 'use <card> #<n> link'"
        name, number, kind = parts
        if not number[1:].isdigit() or not 1 <= int(number[1:]) <= len(core.in_play):
            return f"there is no card {number} in play"
        slot = core.in_play[int(number[1:]) - 1]
        if slot[0] != name:
            return f"card {number} in play is {slot[0]}, not {name}"
        if core.buying:
            return "specials and links come before buying (rule 4): you have already bought a card"
        card = CARDS[name]
        if kind == "special":
            if not card.special:
                return f"{name} has no special rule"
            if slot[1]:
                return f"the special rule of {name} has already been used"
            return f"the special rule of {name} ({card.special_text}) cannot be used like that now"
        if not card.link:
            return f"{name} has no link ability"
        if slot[2]:
            return f"the link of {name} has already been used"
        if any(CARDS[s[0]].effect == "no-links" for s in core.in_play):
            return "Local Opposition: no links this turn"
        if sum(1 for s in core.in_play if CARDS[s[0]].sector == card.sector) < 2:
            return f"a link needs another {card.sector} card in play (rule 5)"
        return f"the link of {name} would change nothing now"


def _revealed(before: Core, after: Core) -> str:
    """What a market refill revealed (snags and Globals are public)."""
    notes = []
    new_globals = [g for g in after.global_area if g not in before.global_area]
    if new_globals:
        notes.append("Global area: " + ", ".join(new_globals))
    bd, ad = before.decks[before.active], after.decks[before.active]
    snags = []
    if ad.recycle[: len(bd.recycle)] == bd.recycle:
        snags = [n for n in ad.recycle[len(bd.recycle) :] if CARDS[n].sector == "snag"]
    if snags:
        notes.append("snag to the recycle pile: " + ", ".join(snags))
    return "; " + "; ".join(notes) if notes else ""


EVAL_SCALE = 11.0
"""Carbon points per step of the evaluation's logistic curve."""
EVAL_OFFSET = 17.0
"""The projected carbon at which the chance is even (fitted on simulated games: the projection is cautious)."""
EVAL_CARBON_PER_COIN = 0.4
"""Projected carbon saved per turn-card for each coin spent (market average, links included)."""
EVAL_COST = 4.0
"""Projected average price of a purchase."""


def _deck_stats(core: Core, i: int) -> tuple[float, float, float]:
    """(cards owned, total carbon per appearance, total income) of deck ``i`` (cards in play included)."""
    d = core.decks[i]
    names = d.draw + d.hand + d.recycle + (tuple(s[0] for s in core.in_play) if i == core.active else ())
    carbon = income_ = 0.0
    for n in names:
        card = CARDS[n]
        carbon += card.carbon + card.link_bonus * 0.5 - card.draws * 0.4
        income_ += card.income
    return float(max(1, len(names))), carbon, income_


def _projected_carbon(core: Core) -> float:
    """The cooperative carbon level projected to the end of the round counter (below 0: a margin)."""
    n = len(core.decks)
    stats = [list(_deck_stats(core, i)) for i in range(n)]
    size = HAND + (1 if has_global(core, "draw-6") else 0)
    carbon = float(core.carbon + turn_carbon(core))
    turns = core.rounds_left * n - core.active - 1
    if carbon >= CARBON_MAX:
        carbon, turns = float(CARBON_MAX), turns - n
    deck = core.active
    while turns > 0 and carbon > 0:
        deck = (deck + 1) % n
        count, total, money = stats[deck]
        carbon += size * total / count
        spend = max(0.0, size * money / count)
        stats[deck] = [count + spend / EVAL_COST, total - EVAL_CARBON_PER_COIN * spend, money]
        turns -= 1
        if carbon >= CARBON_MAX:
            carbon, turns = float(CARBON_MAX), turns - n  # rule 4 v: an extra round lost
    if carbon <= 0:
        return carbon - 3.0 * max(0, turns)  # won early: the more turns to spare the better
    return carbon


def _rivalry_turns(core: Core, i: int, pending: int) -> float:
    """Friendly Rivalry: the projected number of own turns for player ``i`` to reach 0."""
    count, total, money = _deck_stats(core, i)
    carbon = float(core.decks[i].carbon + pending)
    for turn in range(30):
        if carbon <= 0:
            return float(turn)
        carbon = min(float(CARBON_MAX), carbon + HAND * total / count)
        spend = max(0.0, HAND * money / count)
        count, total = count + spend / EVAL_COST, total - EVAL_CARBON_PER_COIN * spend
    return 30.0 + carbon / 10.0


_CARD_VIEW: dict[str, dict[str, Any]] = {
    c.name: {
        "sector": c.sector,
        "cost": c.cost,
        "income": c.income,
        "carbon": c.carbon,
        "special": c.special_text,
        "link": c.link_text,
        "effect": c.effect,
    }
    for c in CARDS.values()
}

RULES = register(CarbonCityZero())
