"""The rules of Carbon City Zero: setup, the legal actions, applying them, scores and the computer's
evaluation. Rule numbers are those of the rules page; the state and its counting are in
:mod:`.state`, the card table in :mod:`.cards`, the words in :mod:`.words`, the view in :mod:`.view`, the
positions in :mod:`.position`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from ...core import Action, GameInfo, Option, OptionValue, Rules
from ...frozen import evolve
from ...rng import Rng
from ...words import Entry
from . import position as _position
from . import view as _view
from . import words as _words
from .cards import (
    CARBON_MAX,
    CARBON_START,
    CARDS,
    HAND,
    MARKET,
    RIVALRY_CARBON_START,
    RIVALRY_ROUND_LIMIT,
    TABLE,
    CardType,
)
from .notation import BUYS, END_TURN, NOTATION, Buy, EndTurn, Use, use
from .state import (
    COST,
    CarbonCityZeroState,
    Deck,
    MarketRefill,
    Played,
    cost_of,
    deck_count,
    draw_cards,
    global_effects,
    hand_size,
    has_global,
    income,
    owned_carbon,
    refill,
    turn_carbon,
)


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


class CarbonCityZeroRules(Rules):
    """Carbon City Zero's rules: the contract, with the words, views and positions of :mod:`.words`,
    :mod:`.view` and :mod:`.position`."""

    notation = NOTATION
    positions = {**_view.POSITIONS, **_position.LESSON_POSITIONS}

    info = GameInfo(
        id="carbon-city-zero",
        title="Carbon City Zero",
        blurb="Cooperative deck-building: buy green projects and bring the city's carbon to zero before time runs out.",
        min_players=1,
        max_players=4,
        rules_version="2",
        cooperative=True,
        loads_positions=True,
        options=(
            Option("rounds", 9, (9, 10, 8), "Round counter", "Rounds to reach zero: 10 easy, 9 standard, 8 hard.",
                   labels=("9 rounds (standard)", "10 rounds (easier)", "8 rounds (harder)")),
            Option(
                "variant",
                "cooperative",
                ("cooperative", "rivalry"),
                "Variant",
                "Cooperative (everyone wins or loses together) or Friendly Rivalry (first to 0 wins; 2-4 players).",
                labels=("Cooperative", "Friendly Rivalry"),
            ),
        ),
        source="https://wearepossible.org/cczwe-rules-faq",
        score_unit="carbon cut",
        max_actions=_max_actions,
        allowed_players=_allowed_players,
        competitive_variant=lambda options: options.get("variant") == "rivalry",
    )

    # -- setup ---------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> CarbonCityZeroState:
        rivalry = options.get("variant", "cooperative") == "rivalry"
        rounds = options.get("rounds", 9)
        assert isinstance(rounds, int)
        # Rule 3: market cards, snags and the Global set of the variant, shuffled.
        pool = TABLE.market_cards + TABLE.snags + (TABLE.globals_rivalry if rivalry else TABLE.globals_cooperative)
        market_deck, rng = rng.shuffled(sorted(pool))
        m = MarketRefill([], market_deck, (), (), [], rng)
        # Rule 3: five market cards face up, even when Global Opportunities turns up during the deal
        # (its sixth card comes with the first refill).
        refill(m, -1, MARKET)
        # Rule 3: a snag dealt at setup goes to the discard pile.
        discard = m.discard + tuple(m.snags)
        rng = m.rng
        decks = []
        carbon = RIVALRY_CARBON_START if rivalry else 0
        for _ in range(deck_count(players)):
            draw, rng = rng.shuffled(list(TABLE.start_deck))  # rule 2
            decks.append(Deck(draw[HAND:], 0, draw[:HAND], (), carbon))
        first = decks[0]
        decks[0] = evolve(first, hand=())
        return CarbonCityZeroState(
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
    def current_player(self, core: CarbonCityZeroState) -> int | None:
        if core.result:
            return None
        return 0 if core.players == 1 else core.active

    def legal_actions(self, core: CarbonCityZeroState) -> list[Action]:
        if core.result:
            return []
        actions: list[Action] = list(self._uses(core)) if not core.buying else []
        left = income(core) - core.spent
        cut = core.rivalry and "cost-1" in global_effects(core.global_area)
        seen: set[str] = set()
        for name in core.market:
            if name not in seen:
                seen.add(name)
                cost = COST[name]
                if cut and cost > 1:
                    cost -= 1
                if cost <= left:
                    actions.append(BUYS[name])
        if left > 0 and not core.rivalry:
            actions += self._gifts(core, left)
        actions.append(END_TURN)
        return actions

    def _uses(self, core: CarbonCityZeroState) -> list[Use]:
        """Rules 6 and 16: the specials and links usable now."""
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
        seen: set[Played] = set()
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
                actions.append(use(i, name, "link"))
        return actions

    def _special_choices(self, core: CarbonCityZeroState, deck: Deck, i: int, card: CardType) -> list[Use]:
        name, special = card.name, card.special
        if special == "draw":
            return [use(i, name, "special")] if deck.draw or deck.recycle else []
        if special == "topdeck-next":
            return [use(i, name, "special")]
        if special == "factories-zero":
            return [] if core.factories_zero else [use(i, name, "special")]
        if special == "discard-in-play":
            out: list[Use] = []
            seen: set[Played] = set()
            for j, other in enumerate(core.in_play):
                if j != i and other not in seen:  # identical cards are one choice
                    seen.add(other)
                    out.append(use(i, name, "special", other[0], j))
            return out
        if special == "discard-market":
            return [use(i, name, "special", n) for n in dict.fromkeys(core.market)]
        if special == "search-deck":
            pile = deck.draw or deck.recycle
            return [use(i, name, "special", n) for n in sorted(set(pile))]
        # search-global
        found = {n for n in core.market_deck if CARDS[n].sector in ("global", "rivalry-global")}
        return [use(i, name, "special", n) for n in sorted(found - set(core.global_area))]

    def _gifts(self, core: CarbonCityZeroState, left: int) -> list[EndTurn]:
        """Global Funding (rule 25): with unspent income, a Budget in play may go to another player's hand."""
        if left <= 0 or core.rivalry or "funding-gift" not in global_effects(core.global_area):
            return []
        if not any(s[0] == "Budget" for s in core.in_play):
            return []
        solo = core.players == 1
        return [EndTurn(d, solo) for d in range(len(core.decks)) if d != core.active]

    # -- applying ------------------------------------------------------------------------------
    def apply(self, core: CarbonCityZeroState, action: Action) -> CarbonCityZeroState:
        if isinstance(action, Buy):
            return self._buy(core, action.name)
        if isinstance(action, Use):
            return self._use(core, action)
        assert isinstance(action, EndTurn)
        return self._end_turn(core, action.gift)

    def _use(self, core: CarbonCityZeroState, action: Use) -> CarbonCityZeroState:
        slots = list(core.in_play)
        i = action.index
        name, special_used, link_used = slots[i]
        card = CARDS[name]
        if action.ability == "link":
            slots[i] = (name, special_used, True)
            if card.link == "factories-zero":
                return evolve(core, in_play=tuple(slots), factories_zero=True)
            return evolve(core, in_play=tuple(slots), link_bonus=core.link_bonus + card.link_bonus)
        slots[i] = (name, True, link_used)
        special = card.special
        if special == "draw":
            deck, taken, rng = draw_cards(core.decks[core.active], card.draws, core.rng)
            slots += [(n, False, False) for n in taken]
            return evolve(core, in_play=tuple(slots), decks=self._with_deck(core, deck), rng=rng)
        if special == "topdeck-next":
            return evolve(core, in_play=tuple(slots), topdeck=core.topdeck + 1)
        if special == "factories-zero":
            return evolve(core, in_play=tuple(slots), factories_zero=True)
        if special == "discard-in-play":
            gone = slots.pop(action.target_index)
            return evolve(core, in_play=tuple(slots), discard=core.discard + (gone[0],))
        if special == "discard-market":
            market = list(core.market)
            hole = market.index(action.target)
            market.pop(hole)
            m = MarketRefill(market, core.market_deck, core.discard + (action.target,), core.global_area, [], core.rng)
            refill(m, hole)
            return self._after_refill(evolve(core, in_play=tuple(slots)), m)
        if special == "search-deck":
            deck = core.decks[core.active]
            draw, recycle = deck.draw, deck.recycle
            if not draw:
                draw, recycle = recycle, ()
            pile = list(draw)
            pile.remove(action.target)
            slots.append((action.target, False, False))
            new_draw, rng = core.rng.shuffled(sorted(pile))
            deck = evolve(deck, draw=new_draw, recycle=recycle, known_top=0)
            return evolve(core, in_play=tuple(slots), decks=self._with_deck(core, deck), rng=rng)
        # search-global: put the Global in the Global area, shuffle the market deck.
        rest = list(core.market_deck)
        rest.remove(action.target)
        market_deck, rng = core.rng.shuffled(sorted(rest))
        m = MarketRefill(list(core.market), market_deck, core.discard, core.global_area + (action.target,), [], rng)
        refill(m, -1)  # Global Opportunities (rule 25): the marketplace grows at once
        return self._after_refill(evolve(core, in_play=tuple(slots)), m)

    def _with_deck(self, core: CarbonCityZeroState, deck: Deck, index: int | None = None) -> tuple[Deck, ...]:
        decks = list(core.decks)
        decks[core.active if index is None else index] = deck
        return tuple(decks)

    def _after_refill(self, core: CarbonCityZeroState, m: MarketRefill) -> CarbonCityZeroState:
        """Rule 24: snags revealed by a refill go onto the playing deck's recycle pile."""
        decks = core.decks
        if m.snags:
            deck = core.decks[core.active]
            decks = self._with_deck(core, evolve(deck, recycle=deck.recycle + tuple(m.snags)))
        return evolve(
            core, market=tuple(m.market), market_deck=m.deck, discard=m.discard, global_area=m.global_area,
            decks=decks, rng=m.rng,
        )

    def _buy(self, core: CarbonCityZeroState, name: str) -> CarbonCityZeroState:
        """Rule 8: pay, put the card on the recycle pile (or on top of the draw deck after a
        topdeck-next special, rule 20), refill the marketplace at once."""
        deck = core.decks[core.active]
        topdeck = core.topdeck
        if topdeck > 0:
            deck = evolve(deck, draw=(name,) + deck.draw, known_top=deck.known_top + 1)
            topdeck -= 1
        else:
            deck = evolve(deck, recycle=deck.recycle + (name,))
        market = list(core.market)
        hole = market.index(name)
        market.pop(hole)
        m = MarketRefill(market, core.market_deck, core.discard, core.global_area, [], core.rng)
        refill(m, hole)
        core = evolve(
            core,
            decks=self._with_deck(core, deck),
            buying=True,
            spent=core.spent + cost_of(core, name),
            topdeck=topdeck,
        )
        return self._after_refill(core, m)

    def _end_turn(self, core: CarbonCityZeroState, gift: int) -> CarbonCityZeroState:
        """Rule 9 (carbon), rules 10-11 (recycle, draw), rule 13 (round counter) and the end rules 12-15, 28."""
        change = turn_carbon(core)
        decks = list(core.decks)
        active = core.active
        carbon, rounds_left, ender, result = core.carbon, core.rounds_left, core.ender, ""
        if core.rivalry:
            mine = max(0, min(CARBON_MAX, decks[active].carbon + change))
            decks[active] = evolve(decks[active], carbon=mine)
            if mine == 0 and ender < 0:
                ender = active  # the others still take this round's turns
        else:
            carbon = max(0, min(CARBON_MAX, carbon + change))
            if carbon == 0:  # rule 12: everyone wins at once
                return evolve(core, carbon=0, result="won", winners=tuple(range(core.players)))
            if carbon == CARBON_MAX:  # rule 14: the round counter moves one extra space
                rounds_left -= 1  # at 0 time is up (rule 15), once this turn's cards are recycled
        rng = _recycle_and_draw(core, decks, gift)
        # Rule 13: after the last deck's turn the round is over.
        nxt = active + 1
        round_ = core.round
        winners: tuple[int, ...] = ()
        if nxt == len(decks):
            nxt = 0
            round_ += 1
            if core.rivalry:
                if ender >= 0 or round_ > RIVALRY_ROUND_LIMIT:
                    result = "over"
                    winners = self._rivalry_winners(evolve(core, decks=tuple(decks), in_play=()))
            else:
                rounds_left -= 1
        if not core.rivalry and rounds_left <= 0:
            result = "lost"  # rule 15: time's up, at the end of a round or mid-round through rule 14
        if result:
            # The game is over: the turn's cards are recycled as at any turn's end, and the round
            # number stays that of the last round played (the round in which time ran out).
            return evolve(
                core, decks=tuple(decks), in_play=(), buying=False, spent=0, link_bonus=0, factories_zero=False,
                topdeck=0, carbon=carbon, rounds_left=max(0, rounds_left), round=core.round, ender=ender,
                result=result, winners=winners, rng=rng,
            )
        hand = decks[nxt].hand
        decks[nxt] = evolve(decks[nxt], hand=())  # rule 5: the next player plays every card in hand
        return evolve(
            core, decks=tuple(decks), active=nxt, in_play=tuple((n, False, False) for n in hand), buying=False, spent=0,
            link_bonus=0, factories_zero=False, topdeck=0, carbon=carbon, rounds_left=rounds_left, round=round_,
            ender=ender, result="", winners=(), rng=rng,
        )

    def _rivalry_winners(self, core: CarbonCityZeroState) -> tuple[int, ...]:
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
    def scores(self, core: CarbonCityZeroState) -> list[int | float]:
        """Cooperative: 50 minus the carbon level for everyone; Friendly Rivalry: 40 minus your marker."""
        if core.rivalry:
            return [RIVALRY_CARBON_START - d.carbon for d in core.decks]
        return [CARBON_START - core.carbon] * core.players

    def winners(self, core: CarbonCityZeroState) -> list[int]:
        return list(core.winners)

    def evaluate(self, core: CarbonCityZeroState) -> list[float] | None:
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

    def rollout_action(self, core: CarbonCityZeroState, rnd: random.Random) -> Action:
        """Quick playouts, mostly a sensible team: use what is in play, then buy the card that cuts most carbon
        for its income, and only then give the rest away or end the turn. One move in seven is random."""
        actions = self.legal_actions(core)
        if len(actions) == 1 or rnd.random() < 0.15:
            return rnd.choice(actions)
        uses = [a for a in actions if isinstance(a, Use)]
        if uses:
            return rnd.choice(uses)
        best: Action | None = None
        best_key = -1e9
        for action in actions:
            if isinstance(action, Buy):
                card = CARDS[action.name]
                key = -card.carbon + 0.5 * card.income + rnd.random()
                if key > best_key:
                    best, best_key = action, key
        return best if best is not None else rnd.choice(actions)

    def search_actions(self, core: CarbonCityZeroState) -> list[Action]:
        """The computer never ends a turn while a card that cuts carbon is affordable (nor gives a Budget away,
        which leaves the income unspent too): it buys that card, or what it judges a better use of the income."""
        actions = self.legal_actions(core)
        if any(isinstance(a, Buy) and CARDS[a.name].carbon < 0 for a in actions):
            return [a for a in actions if not isinstance(a, EndTurn)]
        return actions

    def sample_hidden(self, core: CarbonCityZeroState, seat: int | None, rng: Rng) -> CarbonCityZeroState:
        """Re-deal the unseen orders: each draw deck below its known top cards, and the market deck."""
        decks = []
        for d in core.decks:
            hidden = sorted(d.draw[d.known_top :])
            shuffled, rng = rng.shuffled(hidden)
            decks.append(evolve(d, draw=d.draw[: d.known_top] + shuffled))
        market_deck, rng = rng.shuffled(sorted(core.market_deck))
        own, rng = rng.split()
        return evolve(core, decks=tuple(decks), market_deck=market_deck, rng=own)

    def open_information(self, options: Mapping[str, OptionValue]) -> bool:
        """Every hand is open; only the order of the decks is hidden."""
        return True

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> CarbonCityZeroState:
        return _position.load(players, options, position)

    def write_position(self, core: CarbonCityZeroState) -> dict[str, Any] | None:
        return _position.write(core)

    # -- information: the view and the log's words have their own modules ------------------------
    def facts(self, core: CarbonCityZeroState, action: Action) -> dict[str, Any]:
        return _view.facts(core, action)

    def view(self, core: CarbonCityZeroState, seat: int | None) -> dict[str, Any]:
        usable = {(a.index, a.ability) for a in self._uses(core)} if not core.result and not core.buying else set()
        return _view.view(core, seat, usable)

    def describe(self, before: CarbonCityZeroState, action: Action, after: CarbonCityZeroState) -> Entry:
        return _words.describe(before, action, after)

    def why_illegal(self, core: CarbonCityZeroState, action: Action) -> str:
        return _words.why_illegal(core, action)



def _recycle_and_draw(core: CarbonCityZeroState, decks: list[Deck], gift: int) -> Rng:
    """Rules 10-11 at a turn's end, on ``decks`` in place: the cards played go to the active deck's recycle pile
    (but a Budget given away under Global Funding goes to that deck's hand), then the active deck draws a new
    hand. The generator after the draw."""
    active = core.active
    played = [s[0] for s in core.in_play]
    if gift >= 0:
        played.remove("Budget")
        decks[gift] = evolve(decks[gift], hand=decks[gift].hand + ("Budget",))
    deck = evolve(decks[active], recycle=decks[active].recycle + tuple(played))
    deck, taken, rng = draw_cards(deck, hand_size(core), core.rng)
    decks[active] = evolve(deck, hand=deck.hand + taken)
    return rng

EVAL_SCALE = 11.0
"""Carbon points per step of the evaluation's logistic curve."""
EVAL_OFFSET = 17.0
"""The projected carbon at which the chance is even (fitted on simulated games: the projection is cautious)."""
EVAL_CARBON_PER_COIN = 0.4
"""Projected carbon saved per turn-card for each coin spent (market average, links included)."""
EVAL_COST = 4.0
"""Projected average price of a purchase."""


def _deck_stats(core: CarbonCityZeroState, i: int) -> tuple[float, float, float]:
    """(cards owned, total carbon per appearance, total income) of deck ``i`` (cards in play included)."""
    d = core.decks[i]
    names = d.draw + d.hand + d.recycle + (tuple(s[0] for s in core.in_play) if i == core.active else ())
    carbon = income_ = 0.0
    for n in names:
        card = CARDS[n]
        carbon += card.carbon + card.link_bonus * 0.5 - card.draws * 0.4
        income_ += card.income
    return float(max(1, len(names))), carbon, income_


def _projected_carbon(core: CarbonCityZeroState) -> float:
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
            carbon, turns = float(CARBON_MAX), turns - n  # rule 14: an extra round lost
    if carbon <= 0:
        return carbon - 3.0 * max(0, turns)  # won early: the more turns to spare the better
    return carbon


def _rivalry_turns(core: CarbonCityZeroState, i: int, pending: int) -> float:
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
