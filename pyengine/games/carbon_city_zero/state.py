"""The state of a game of Carbon City Zero and the counting every part of the engine shares.

Model:
- ``players`` seats; solo (1 player) controls two decks that take turns one after the other (rule 27).
- A turn: the playing deck's hand is in play from the start of the turn (rule 5); the player
  uses specials and links in any order (rule 6), then buys one card at a time (rule 8), then ends
  the turn, which moves the carbon (rule 9), recycles (rule 10) and draws the next hand (rule 11).
- Hands are open (every card in hand is played at once anyway); a draw deck's contents are
  public, its order hidden (except cards known to be put on top); the market deck's order is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...frozen import evolve
from ...rng import Rng
from .cards import CARDS, HAND, MARKET

Played = tuple[str, bool, bool]
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
class CarbonCityZeroState:
    players: int
    rivalry: bool
    decks: tuple[Deck, ...]
    active: int
    in_play: tuple[Played, ...]
    buying: bool
    """True once the first card is bought: specials and links are over (rule 8)."""
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


def deck_count(players: int) -> int:
    """Solo plays two decks (rule 27); otherwise one deck per player."""
    return 2 if players == 1 else players


_EFFECTS: dict[tuple[str, ...], frozenset[str]] = {}


def global_effects(global_area: tuple[str, ...]) -> frozenset[str]:
    """The effects of the Global area (memoized: there are few Global areas)."""
    found = _EFFECTS.get(global_area)
    if found is None:
        found = _EFFECTS[global_area] = frozenset(CARDS[n].effect for n in global_area)
    return found


def has_global(core: CarbonCityZeroState, effect: str) -> bool:
    return effect in global_effects(core.global_area)


COST = {n: c.cost for n, c in CARDS.items()}
_INCOME = {n: c.income for n, c in CARDS.items()}


def cost_of(core: CarbonCityZeroState, name: str) -> int:
    """The price now: Increased Funding (rule 28) takes 1 off every cost above 1 (never below 1)."""
    cost = COST[name]
    if cost > 1 and core.rivalry and "cost-1" in global_effects(core.global_area):
        return cost - 1
    return cost


def income(core: CarbonCityZeroState) -> int:
    """Rule 7: the total income of the cards in play."""
    return sum([_INCOME[s[0]] for s in core.in_play])


def turn_carbon(core: CarbonCityZeroState) -> int:
    """Rule 9: the carbon of the cards in play plus link bonuses (factories-zero applied, rules 16 and 21)."""
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


def hand_size(core: CarbonCityZeroState) -> int:
    """Rule 11 with the Globals (draw 6, rule 25) and Poor Communication (one fewer, rule 24)."""
    size = HAND + (1 if has_global(core, "draw-6") else 0)
    if any(CARDS[s[0]].effect == "draw-4" for s in core.in_play):
        size -= 1
    return size


def draw_cards(deck: Deck, count: int, rng: Rng) -> tuple[Deck, tuple[str, ...], Rng]:
    """Rule 11: draw ``count`` cards, shuffling the recycle pile into a new deck when it runs out."""
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
    return evolve(deck, draw=draw, recycle=recycle, known_top=known), taken, rng


@dataclass
class MarketRefill:
    """Scratch space for a market refill (rules 8, 24-26)."""

    market: list[str]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    global_area: tuple[str, ...]
    snags: list[str]
    rng: Rng


def refill(m: MarketRefill, hole: int, size: int | None = None) -> None:
    """Rules 8 and 24-26: fill the marketplace; snags go to ``m.snags``, Globals to the Global area (a duplicate
    name to the discard pile); an empty market deck is the shuffled discard pile. ``hole``: where the
    first new card goes; ``size``: the marketplace to fill (default: 5, or 6 with Global Opportunities;
    the opening deal fills five, rule 3). Stops when both piles are exhausted (or after one reshuffle
    that found nothing to place, a guard against a discard pile of duplicate Globals only)."""
    reshuffled = False
    while len(m.market) < (market_size(m.global_area) if size is None else size):
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


def owned_carbon(core: CarbonCityZeroState, deck: int) -> int:
    """Friendly Rivalry tie-break (rule 28): the total carbon of every card a player owns."""
    d = core.decks[deck]
    names = d.draw + d.hand + d.recycle + (tuple(s[0] for s in core.in_play) if deck == core.active else ())
    return sum(CARDS[n].carbon for n in names)


def canonical(slots: tuple[Played, ...], index: int) -> int:
    """The first slot identical to ``slots[index]`` (identical cards are one choice)."""
    return slots.index(slots[index])

