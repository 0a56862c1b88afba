"""Carbondale: grow a network of clubs and spades that wins hearts and diamonds.

Clause numbers ("rule 16") refer to the project's spec, shared/rules/carbondale.md; the
players' version is web/rules/carbondale.html. Choices where the spec leaves room:

- rule 3: the ace always lies west of the 2 (a mirror image changes nothing, so no choice is asked);
- face-down discards are unseen by everyone, challenge and defending cards included;
- rule 27 (stalemate guard) plus a hard limit of ``ROUND_LIMIT`` rounds, so every game ends.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..core import Action, GameInfo, Option, OptionValue, Rules, register
from ..rng import Rng

HAND_SIZE = 4
"""Rule 25: draw until the hand holds four cards."""
BONUS_HAND_SIZE = 5
"""Rule 23: one extra card after a one-step club or spade climb."""
ZONE = 5
"""Rule 11: a network fits in 5 columns x 5 rows."""
CLAIM_ATTEMPTS = 2
"""Rule 14a: at most two claim attempts a turn."""
GOAL_MAIN, GOAL_SIDE = 7, 3
"""Rule 26: seven of one red suit and three of the other."""
STALEMATE_ROUNDS = 3
"""Rule 27: three full rounds without a build once both spare piles are used."""
ROUND_LIMIT = 100
"""Rule 27 (this site's addition): the game ends after 100 rounds whatever happens."""
ACTIONS_PER_TURN = 15
"""A turn has at most 4 claim actions, 5 discards then 4 draws (or build, contribute and 5 draws), an end: 14."""

DIRECTIONS = (("north", 0, 1), ("east", 1, 0), ("south", 0, -1), ("west", -1, 0))
STEP = {name: (dx, dy) for name, dx, dy in DIRECTIONS}

ACT, DEFEND, CONTRIBUTE, DISCARD, DRAW, OVER = "act", "defend", "contribute", "discard", "draw", "over"

CLUBS, DIAMONDS, HEARTS, SPADES = "♣", "♢", "♡", "♠"


DECK = tuple(Card(rank, suit) for suit in (CLUBS, DIAMONDS, HEARTS, SPADES) for rank in range(1, 11))
"""Rule 1: one deck per player without jokers and without J, Q, K (ace = 1, rule 2)."""

NAME = {card: str(card) for card in DECK}
"""Card notation, precomputed (the log is rebuilt often)."""
PLAYER = tuple(f"Player {seat + 1}" for seat in range(4))

STARTING_PAIRS = ((Card(1, SPADES), Card(2, CLUBS)), (Card(1, CLUBS), Card(2, SPADES)))
"""Rule 3: each player gets A♠ + 2♣ or A♣ + 2♠ (ace first: it lies west)."""

SEGMENTS = ((1, 4), (5, 7), (8, 10))
"""Rule 4: the draw pile (A-4) and the two spare piles (5-7, then 8-10)."""


# -- values ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A card in a network at cell (x, y) (x grows east, y north), built from the black card at ``source``.

    ``source`` is None for a starting card (rule 3).
    """

    card: Card
    x: int
    y: int
    source: tuple[int, int] | None = None

    @property
    def start(self) -> bool:
        return self.source is None

    @property
    def direction(self) -> str | None:
        """The way it was built: ``north`` if it lies north of its source."""
        if self.source is None:
            return None
        step = (self.x - self.source[0], self.y - self.source[1])
        for name, dx, dy in DIRECTIONS:
            if (dx, dy) == step:
                return name
        return None


@dataclass(frozen=True)
class Challenge:
    """A pending claim (rule 17): ``challenger`` shows ``card`` for ``target`` at (x, y) in ``owner``'s network."""

    challenger: int
    owner: int
    x: int
    y: int
    target: Card
    card: Card


@dataclass(frozen=True)
class CarbondaleCore:
    players: int
    any_black_to_red: bool
    networks: tuple[tuple[Placed, ...], ...]
    hands: tuple[tuple[Card, ...], ...]
    """Each hand sorted."""
    pile: tuple[Card, ...]
    """The draw pile; its top is the last card."""
    spares: tuple[tuple[Card, ...], ...]
    """The unused spare piles, next one first (rule 4)."""
    stock: tuple[Card, ...]
    """The communal stock, face up, sorted (rule 6)."""
    fresh: tuple[Card, ...]
    """Stock cards the current player put down this turn (may not be drawn back, rule 25), sorted."""
    discards: tuple[Card, ...]
    """The face-down discards, sorted (nobody tracks them)."""
    current: int
    phase: str
    rng: Rng
    claims: int = 0
    claimed: bool = False
    pending: Challenge | None = None
    built: bool = False
    draw_to: int = HAND_SIZE
    idle: int = 0
    """Turns ended in a row without a build since both spare piles were used (rule 27)."""
    turns: int = 0
    winners: tuple[int, ...] = ()
    ending: str = ""


_CORE_FIELDS = frozenset(f.name for f in fields(CarbondaleCore))


def _evolve(core: CarbondaleCore, **changes: Any) -> CarbondaleCore:
    """``dataclasses.replace`` without its per-call introspection (the hot path of every move)."""
    assert changes.keys() <= _CORE_FIELDS, f"not core fields: {set(changes) - _CORE_FIELDS}"
    new = object.__new__(CarbondaleCore)
    new.__dict__.update(core.__dict__)
    new.__dict__.update(changes)
    return new


# -- actions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """Rule 17: challenge for the vulnerable ``target`` at (x, y) of ``owner`` with ``challenge``."""

    owner: int
    x: int
    y: int
    target: Card
    challenge: Card

    def __str__(self) -> str:
        return f"claim {NAME[self.target]} at {self.x},{self.y} from P{self.owner + 1} with {NAME[self.challenge]}"


@dataclass(frozen=True)
class Defend:
    """Rule 18: the owner answers the challenge with ``card``."""

    card: Card

    def __str__(self) -> str:
        return f"defend with {NAME[self.card]}"


@dataclass(frozen=True)
class Decline:
    """Rule 20: the owner lets the claimed card go."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True)
class Build:
    """Rule 22: place ``card`` at (x, y), ``direction`` of the black ``source`` card it is built from."""

    card: Card
    x: int
    y: int
    direction: str
    source: Card

    def __str__(self) -> str:
        return f"build {NAME[self.card]} at {self.x},{self.y} {self.direction} of {NAME[self.source]}"


@dataclass(frozen=True)
class Contribute:
    """Rule 22: the card given to the communal stock after a build."""

    card: Card

    def __str__(self) -> str:
        return f"contribute {NAME[self.card]}"


@dataclass(frozen=True)
class Discard:
    """Rule 24: discard ``card`` face up (to the stock) or face down."""

    card: Card
    face_up: bool

    def __str__(self) -> str:
        return f"discard {NAME[self.card]} face {'up' if self.face_up else 'down'}"


@dataclass(frozen=True)
class DrawPile:
    """Rule 25: draw the top card of the draw pile (re-forming it first if it is empty)."""

    def __str__(self) -> str:
        return "draw from pile"


@dataclass(frozen=True)
class TakeStock:
    """Rule 25: draw ``card`` from the communal stock."""

    card: Card

    def __str__(self) -> str:
        return f"take {NAME[self.card]} from stock"


@dataclass(frozen=True)
class EndTurn:
    """End the turn when no (more) drawing is needed or possible."""

    def __str__(self) -> str:
        return "end turn"


Move = Claim | Defend | Decline | Build | Contribute | Discard | DrawPile | TakeStock | EndTurn
"""Every Carbondale action."""

DECLINE, DRAW_PILE, END_TURN = Decline(), DrawPile(), EndTurn()


# -- card rules ------------------------------------------------------------------------


def build_limit(source: Card, card: Card, any_black_to_red: bool = False) -> int | None:
    """The highest rank of ``card``'s suit that may be built from ``source`` (the build table), or None.

    ♣->♣ and ♠->♠: N+2; ♣->♠ and ♠->♣: N+1; ♣->♡ and ♠->♢: N (rule 13: any black to any red
    with the ``any_black_to_red`` variant). Only black cards are sources (rule 9).
    """
    if not source.is_black:
        return None
    if card.suit == source.suit:
        return source.rank + 2
    if card.is_black:
        return source.rank + 1
    if any_black_to_red or (source.suit, card.suit) in ((CLUBS, HEARTS), (SPADES, DIAMONDS)):
        return source.rank
    return None


def earns_bonus(source: Card, card: Card) -> bool:
    """Rule 23: a ♣->♣ or ♠->♠ build of rank at most N+1 earns an extra card."""
    return source.is_black and card.suit == source.suit and card.rank <= source.rank + 1


def can_challenge(target: Card, challenge: Card) -> bool:
    """Rule 17: same colour, at least two ranks higher."""
    return challenge.is_red == target.is_red and challenge.rank >= target.rank + 2


def can_defend(challenge: Card, defence: Card) -> bool:
    """Rule 18: same colour as the challenge card, rank at least as high."""
    return defence.is_red == challenge.is_red and defence.rank >= challenge.rank


def progress_of(hearts: int, diamonds: int) -> int:
    """Rule 27: progress toward 7 + 3, from 0 to 10."""
    return max(min(hearts, GOAL_MAIN) + min(diamonds, GOAL_SIDE), min(diamonds, GOAL_MAIN) + min(hearts, GOAL_SIDE))


def reaches_goal(hearts: int, diamonds: int) -> bool:
    """Rule 26: at least 7 ♡ and 3 ♢, or 7 ♢ and 3 ♡."""
    return (hearts >= GOAL_MAIN and diamonds >= GOAL_SIDE) or (diamonds >= GOAL_MAIN and hearts >= GOAL_SIDE)


class Network:
    """What a network's cards imply: cells, bounding box, red counts and vulnerable cards (rule 16)."""

    __slots__ = ("cards", "cells", "min_x", "max_x", "min_y", "max_y", "hearts", "diamonds", "vulnerable")

    def __init__(self, cards: tuple[Placed, ...]) -> None:
        self.cards = cards
        cells: dict[tuple[int, int], tuple[Placed, ...]] = {}
        sources: set[tuple[int, int]] = set()
        hearts = diamonds = 0
        for placed in cards:
            cells[(placed.x, placed.y)] = cells.get((placed.x, placed.y), ()) + (placed,)
            if placed.source is not None:
                sources.add(placed.source)
            if placed.card.suit == HEARTS:
                hearts += 1
            elif placed.card.suit == DIAMONDS:
                diamonds += 1
        self.cells = cells
        xs = [x for x, _ in cells] or [0]
        ys = [y for _, y in cells] or [0]
        self.min_x, self.max_x, self.min_y, self.max_y = min(xs), max(xs), min(ys), max(ys)
        self.hearts, self.diamonds = hearts, diamonds
        # rule 16: safe if a starting card, built upon, or a red sharing its cell with another red
        self.vulnerable = tuple(
            p
            for p in cards
            if p.source is not None
            and not (p.card.is_black and (p.x, p.y) in sources)
            and not (p.card.is_red and len(cells[(p.x, p.y)]) == 2)
        )

    @property
    def width(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def height(self) -> int:
        return self.max_y - self.min_y + 1

    @property
    def progress(self) -> int:
        return progress_of(self.hearts, self.diamonds)

    def is_vulnerable(self, placed: Placed) -> bool:
        return placed in self.vulnerable

    def fits(self, x: int, y: int) -> bool:
        """Rule 11: would a card in cell (x, y) keep the network within 5 x 5?"""
        return max(self.max_x, x) - min(self.min_x, x) < ZONE and max(self.max_y, y) - min(self.min_y, y) < ZONE

    def room_for(self, card: Card, x: int, y: int) -> str | None:
        """Why ``card`` cannot go into cell (x, y) by rules 10-11, else None."""
        here = self.cells.get((x, y), ())
        if not here:
            if not self.fits(x, y):
                return f"cell {x},{y} would make the network wider or taller than {ZONE} (rule 11)"
            return None
        if here[0].card.is_black:
            return f"cell {x},{y} already holds the black {here[0].card}"
        if len(here) >= 2:
            return f"cell {x},{y} already holds two red cards"
        if card.is_black:
            return f"a black card goes only into an empty cell; {x},{y} holds {here[0].card}"
        return None


@lru_cache(maxsize=8192)
def network(cards: tuple[Placed, ...]) -> Network:
    """The (cached) analysis of a network."""
    return Network(cards)


# -- multisets of cards ------------------------------------------------------------------


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with(cards: tuple[Card, ...], *more: Card) -> tuple[Card, ...]:
    out = list(cards)
    for card in more:
        insort(out, card)
    return tuple(out)


def _distinct(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(cards))


def _minus(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    out = list(cards)
    for card in taken:
        out.remove(card)
    return tuple(out)


def _parse_card(text: str) -> Card:
    card = Card.parse(text)
    if not 1 <= card.rank <= 10:
        raise ValueError(f"{text!r} is not a Carbondale card (ace to 10 only, rule 1)")
    return card


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


# -- the rules ---------------------------------------------------------------------------


class CarbondaleRules(Rules):
    info = GameInfo(
        id="carbondale",
        title="Carbondale",
        blurb="Build a town of clubs and spades that wins 7 hearts and 3 diamonds (or the reverse), "
        "and co-opt your rivals' loose cards.",
        min_players=2,
        max_players=4,
        rules_version="1",
        cooperative=False,
        options=(
            Option(
                "any_black_to_red",
                False,
                (False, True),
                "Any black builds any red",
                "Off: clubs build hearts and spades build diamonds (the build table). "
                "On: either black suit builds either red suit, as the original's worked example does.",
            ),
        ),
        source="https://carbondale.network/",
        max_actions=lambda players: ROUND_LIMIT * players * ACTIONS_PER_TURN,
    )

    # -- setup ---------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> CarbondaleCore:
        """Rules 3-7: starting pairs, three shuffled segments, four cards each, a random first player."""
        pool = list(DECK * players)
        networks = []
        for _ in range(players):
            pair, rng = rng.choice(STARTING_PAIRS)
            for card in pair:
                pool.remove(card)
            networks.append((Placed(pair[0], 0, 0), Placed(pair[1], 1, 0)))
        segments = []
        for low, high in SEGMENTS:
            segment, rng = rng.shuffled([c for c in pool if low <= c.rank <= high])
            segments.append(segment)
        pile = segments[0]
        hands = []
        for _ in range(players):
            hands.append(tuple(sorted(pile[-HAND_SIZE:])))
            pile = pile[:-HAND_SIZE]
        first, rng = rng.below(players)
        return CarbondaleCore(
            players=players,
            any_black_to_red=bool(options.get("any_black_to_red", False)),
            networks=tuple(networks),
            hands=tuple(hands),
            pile=pile,
            spares=(segments[1], segments[2]),
            stock=(),
            fresh=(),
            discards=(),
            current=first,
            phase=ACT,
            rng=rng,
        )

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
                cards = self._load_network(raw, seat)
            for placed in cards:
                take(placed.card, f"network {seat + 1}")
            networks.append(cards)
        hands_raw = position.get("hands")
        stock_raw = position.get("stock", [])
        if not isinstance(stock_raw, list):
            raise ValueError("position field 'stock' must be a list of cards")
        stock = tuple(sorted(_parse_card(str(c)) for c in stock_raw))
        for card in stock:
            take(card, "stock")
        given_hands: list[tuple[Card, ...] | None] = [None] * players
        if hands_raw is not None:
            if not isinstance(hands_raw, list) or len(hands_raw) != players:
                raise ValueError(f"position field 'hands' must be a list of {players} hands")
            for seat, hand in enumerate(hands_raw):
                if not isinstance(hand, list):
                    raise ValueError(f"position hand {seat + 1} must be a list of cards")
                given_hands[seat] = tuple(sorted(_parse_card(str(c)) for c in hand))
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

    @staticmethod
    def _load_network(raw: object, seat: int) -> tuple[Placed, ...]:
        """A network from its position description, checked against rules 8-11 (not the rank table)."""
        if not isinstance(raw, list):
            raise ValueError(f"position network {seat + 1} must be a list of cards")
        cards: list[Placed] = []
        for entry in raw:
            if not isinstance(entry, Mapping) or "card" not in entry:
                raise ValueError(f"position network {seat + 1}: each entry needs 'card', 'x' and 'y'")
            card = _parse_card(str(entry["card"]))
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
                    raise ValueError(f"position network {seat + 1}: {card} is not next to its source (rule 9)")
            cards.append(Placed(card, x, y, source))
        net = Network(tuple(cards))
        for placed in cards:
            here = net.cells[(placed.x, placed.y)]
            if len(here) > 2 or (len(here) == 2 and not all(p.card.is_red for p in here)):
                raise ValueError(f"position network {seat + 1}: cell {placed.x},{placed.y} breaks rule 8")
            if placed.source is not None:
                src_cards = net.cells.get(placed.source, ())
                if len(src_cards) != 1 or not src_cards[0].card.is_black:
                    raise ValueError(f"position network {seat + 1}: {placed.card} must be built from a black card")
        if net.width > ZONE or net.height > ZONE:
            raise ValueError(f"position network {seat + 1} is larger than {ZONE} x {ZONE} (rule 11)")
        return tuple(cards)

    # -- whose decision --------------------------------------------------------------------
    def current_player(self, core: CarbondaleCore) -> int | None:
        if core.phase == OVER:
            return None
        if core.phase == DEFEND and core.pending is not None:
            return core.pending.owner
        return core.current

    # -- legal actions ---------------------------------------------------------------------
    def legal_actions(self, core: CarbondaleCore) -> list[Action]:
        phase = core.phase
        if phase == OVER:
            return []
        if phase == DEFEND:
            return self._defences(core)
        hand = core.hands[core.current]
        distinct = _distinct(hand)
        if phase == CONTRIBUTE:
            return [Contribute(card) for card in distinct]
        actions: list[Action] = []
        if phase == ACT:
            if core.claims < CLAIM_ATTEMPTS and not core.claimed:
                actions.extend(self._claims(core, distinct))
            if len(hand) >= 2:  # rule 22: a card must be left to contribute
                actions.extend(self._builds(core, distinct))
        if phase in (ACT, DISCARD):
            for card in distinct:
                actions.append(Discard(card, True))
                actions.append(Discard(card, False))
        actions.extend(self._draws(core, hand))
        return actions

    def _defences(self, core: CarbondaleCore) -> list[Action]:
        """Rule 18: any card of the challenge card's colour and at least its rank, or decline."""
        pending = core.pending
        assert pending is not None
        options: list[Action] = [
            Defend(card) for card in _distinct(core.hands[pending.owner]) if can_defend(pending.card, card)
        ]
        options.append(DECLINE)
        return options

    def _claims(self, core: CarbondaleCore, distinct: tuple[Card, ...]) -> list[Action]:
        """Rule 17: every vulnerable opponent card with every challenge card that beats it by two."""
        actions: list[Action] = []
        for step in range(1, core.players):
            owner = (core.current + step) % core.players
            for placed in network(core.networks[owner]).vulnerable:
                for card in distinct:
                    if can_challenge(placed.card, card):
                        actions.append(Claim(owner, placed.x, placed.y, placed.card, card))
        return actions

    def _builds(self, core: CarbondaleCore, distinct: tuple[Card, ...]) -> list[Action]:
        """Rules 9-13: each hand card into each cell next to a black card that the table allows."""
        net = network(core.networks[core.current])
        cells = net.cells
        variant = core.any_black_to_red
        actions: list[Action] = []
        for src in net.cards:
            source = src.card
            if not source.is_black:
                continue
            for name, dx, dy in DIRECTIONS:
                x, y = src.x + dx, src.y + dy
                here = cells.get((x, y))
                if here is None:
                    if not net.fits(x, y):
                        continue
                    black_ok = True
                elif len(here) == 1 and here[0].card.is_red:
                    black_ok = False
                else:
                    continue
                for card in distinct:
                    if card.is_black and not black_ok:
                        continue
                    limit = build_limit(source, card, variant)
                    if limit is not None and card.rank <= limit:
                        actions.append(Build(card, x, y, name, source))
        return actions

    def _draws(self, core: CarbondaleCore, hand: tuple[Card, ...]) -> list[Action]:
        """Rule 25: draw from the pile or any stock card not put down this turn; end when done."""
        if len(hand) >= core.draw_to:
            return [END_TURN]
        actions: list[Action] = []
        if core.pile or core.spares or core.stock or core.discards:
            actions.append(DRAW_PILE)
        if core.stock:
            takable = _minus(core.stock, core.fresh) if core.fresh else core.stock
            actions.extend(TakeStock(card) for card in _distinct(takable))
        if not actions:
            actions.append(END_TURN)
        return actions

    # -- applying --------------------------------------------------------------------------
    def apply(self, core: CarbondaleCore, action: Action) -> CarbondaleCore:
        seat = core.current
        hands = list(core.hands)
        if isinstance(action, Claim):
            hands[seat] = _without(hands[seat], action.challenge)
            challenge = Challenge(seat, action.owner, action.x, action.y, action.target, action.challenge)
            return _evolve(core, hands=tuple(hands), pending=challenge, phase=DEFEND, claims=core.claims + 1)
        if isinstance(action, Defend):
            pending = core.pending
            assert pending is not None
            # rule 19: the claim fails; both cards go face down
            hands[pending.owner] = _without(hands[pending.owner], action.card)
            return _evolve(
                core,
                hands=tuple(hands),
                discards=_with(core.discards, pending.card, action.card),
                pending=None,
                phase=ACT,
            )
        if isinstance(action, Decline):
            pending = core.pending
            assert pending is not None
            # rule 20: the target moves to the challenger's hand, the challenge card goes face down
            networks = list(core.networks)
            networks[pending.owner] = tuple(
                p for p in networks[pending.owner] if not (p.x == pending.x and p.y == pending.y)
            )
            hands[seat] = _with(hands[seat], pending.target)
            return _evolve(
                core,
                networks=tuple(networks),
                hands=tuple(hands),
                discards=_with(core.discards, pending.card),
                pending=None,
                phase=ACT,
                claimed=True,
            )
        if isinstance(action, Build):
            dx, dy = STEP[action.direction]
            placed = Placed(action.card, action.x, action.y, (action.x - dx, action.y - dy))
            networks = list(core.networks)
            networks[seat] = networks[seat] + (placed,)
            hands[seat] = _without(hands[seat], action.card)
            core = _evolve(
                core,
                networks=tuple(networks),
                hands=tuple(hands),
                built=True,
                draw_to=BONUS_HAND_SIZE if earns_bonus(action.source, action.card) else HAND_SIZE,
                phase=CONTRIBUTE,
            )
            net = network(networks[seat])
            if action.card.is_red and reaches_goal(net.hearts, net.diamonds):
                return _evolve(core, phase=OVER, winners=(seat,), ending="goal")  # rule 26
            return core
        if isinstance(action, Contribute):
            hands[seat] = _without(hands[seat], action.card)
            core = _evolve(
                core,
                hands=tuple(hands),
                stock=_with(core.stock, action.card),
                fresh=_with(core.fresh, action.card),
                phase=DRAW,
            )
            return self._after_draw(core)
        if isinstance(action, Discard):
            hands[seat] = _without(hands[seat], action.card)
            if action.face_up:
                return _evolve(
                    core,
                    hands=tuple(hands),
                    stock=_with(core.stock, action.card),
                    fresh=_with(core.fresh, action.card),
                    phase=DISCARD,
                )
            return _evolve(core, hands=tuple(hands), discards=_with(core.discards, action.card), phase=DISCARD)
        if isinstance(action, DrawPile):
            if not core.pile:
                core = self._reform(core)
            hands[seat] = _with(hands[seat], core.pile[-1])
            return self._after_draw(_evolve(core, hands=tuple(hands), pile=core.pile[:-1], phase=DRAW))
        if isinstance(action, TakeStock):
            hands[seat] = _with(hands[seat], action.card)
            return self._after_draw(
                _evolve(core, hands=tuple(hands), stock=_without(core.stock, action.card), phase=DRAW)
            )
        if isinstance(action, EndTurn):
            return self._end_turn(core)
        raise TypeError(f"not a Carbondale action: {action!r}")

    @staticmethod
    def _reform(core: CarbondaleCore) -> CarbondaleCore:
        """Rule 25: the next spare pile, the stock and the face-down discards, shuffled together."""
        cards = (core.spares[0] if core.spares else ()) + core.stock + core.discards
        pile, rng = core.rng.shuffled(sorted(cards))
        return _evolve(core, pile=pile, spares=core.spares[1:], stock=(), fresh=(), discards=(), rng=rng)

    def _after_draw(self, core: CarbondaleCore) -> CarbondaleCore:
        """The turn ends by itself once the hand is full or nothing can be drawn."""
        if len(core.hands[core.current]) >= core.draw_to:
            return self._end_turn(core)
        if core.pile or core.spares or core.stock or core.discards:
            return core
        return self._end_turn(core)

    def _end_turn(self, core: CarbondaleCore) -> CarbondaleCore:
        """Pass the turn on; rule 27's stalemate guard and the round limit end the game."""
        idle = core.idle
        if not core.spares:
            idle = 0 if core.built else idle + 1
        turns = core.turns + 1
        core = _evolve(
            core,
            current=(core.current + 1) % core.players,
            phase=ACT,
            claims=0,
            claimed=False,
            built=False,
            draw_to=HAND_SIZE,
            fresh=(),
            idle=idle,
            turns=turns,
        )
        if idle >= STALEMATE_ROUNDS * core.players:
            return self._finish(core, "stalemate")
        if turns >= ROUND_LIMIT * core.players:
            return self._finish(core, "limit")
        return core

    @staticmethod
    def _finish(core: CarbondaleCore, ending: str) -> CarbondaleCore:
        """Rule 27: the best progress wins, ties shared."""
        progress = [network(n).progress for n in core.networks]
        best = max(progress)
        winners = tuple(seat for seat, value in enumerate(progress) if value == best)
        return _evolve(core, phase=OVER, winners=winners, ending=ending)

    # -- explaining ------------------------------------------------------------------------
    _PATTERNS = (
        ("claim", re.compile(r"^claim (\S+) at (-?\d+),(-?\d+) from P(\d+) with (\S+)$")),
        ("defend", re.compile(r"^defend with (\S+)$")),
        ("decline", re.compile(r"^decline$")),
        ("build", re.compile(r"^build (\S+) at (-?\d+),(-?\d+) (north|east|south|west) of (\S+)$")),
        ("contribute", re.compile(r"^contribute (\S+)$")),
        ("discard", re.compile(r"^discard (\S+) face (up|down)$")),
        ("draw", re.compile(r"^draw from pile$")),
        ("take", re.compile(r"^take (\S+) from stock$")),
        ("end", re.compile(r"^end turn$")),
    )

    EXAMPLES = (
        "'claim 5♠ at -2,1 from P2 with 7♣', 'defend with 9♣', 'decline', 'build 4♠ at 0,-1 south of 2♠', "
        "'contribute 7♣', 'discard 7♣ face up', 'discard 7♣ face down', 'draw from pile', "
        "'take 5♣ from stock', 'end turn'"
    )

    def why_illegal(self, core: CarbondaleCore, text: str) -> str:
        if core.phase == OVER:
            return "the game is over"
        for kind, pattern in self._PATTERNS:
            match = pattern.match(text)
            if match:
                try:
                    return self._why(core, kind, match.groups())
                except ValueError as exc:
                    return str(exc)
        return f"unknown action {text!r}; actions look like {self.EXAMPLES}"

    def _why(self, core: CarbondaleCore, kind: str, groups: tuple[str, ...]) -> str:
        seat = core.current
        hand = core.hands[seat]
        if core.phase == DEFEND:
            pending = core.pending
            assert pending is not None
            if kind == "defend":
                card = _parse_card(groups[0])
                if card not in core.hands[pending.owner]:
                    return f"{_player(pending.owner)} has no {card} in hand"
                if not can_defend(pending.card, card):
                    return (
                        f"a defence against {pending.card} needs a {pending.card.colour} card "
                        f"of rank {pending.card.rank} or higher (rule 18)"
                    )
            return f"{_player(pending.owner)} must first answer the challenge: defend with a card or decline"
        if kind in ("defend", "decline"):
            return "there is no challenge to answer"
        if core.phase == CONTRIBUTE and kind != "contribute":
            return "after a build you must contribute a card from your hand to the communal stock (rule 22)"
        if kind == "contribute":
            if core.phase != CONTRIBUTE:
                return "you contribute a card only right after a build (rule 22)"
            return f"you have no {_parse_card(groups[0])} in hand"
        if kind == "claim":
            return self._why_claim(core, groups)
        if kind == "build":
            return self._why_build(core, groups)
        if kind == "discard":
            if core.phase not in (ACT, DISCARD):
                return "you may discard only instead of building, before drawing (rule 24)"
            return f"you have no {_parse_card(groups[0])} in hand"
        need = len(hand) < core.draw_to
        if kind == "end":
            return f"you must first draw up to {core.draw_to} cards (rule 25)"
        if not need:
            return f"you draw nothing: your hand already holds {len(hand)} cards (rule 25)"
        if kind == "draw":
            return "the draw pile is empty and there is nothing to re-form it from (rule 25)"
        card = _parse_card(groups[0])
        if card not in core.stock:
            return f"there is no {card} in the communal stock"
        return f"you put that {card} down this turn, so you may not draw it back (rule 25)"

    def _why_claim(self, core: CarbondaleCore, groups: tuple[str, ...]) -> str:
        target, x, y, owner, challenge = (
            _parse_card(groups[0]),
            int(groups[1]),
            int(groups[2]),
            int(groups[3]) - 1,
            _parse_card(groups[4]),
        )
        if core.phase != ACT:
            return "claims come first in a turn, before building, discarding or drawing (rule 14)"
        if core.claimed:
            return "you already claimed a card this turn; a second attempt follows only a failed one (rule 14)"
        if core.claims >= CLAIM_ATTEMPTS:
            return "you have already made two claim attempts this turn (rule 14)"
        if not 0 <= owner < core.players or owner == core.current:
            return f"P{owner + 1} is not one of your opponents"
        net = network(core.networks[owner])
        here = [p for p in net.cells.get((x, y), ()) if p.card == target]
        if not here:
            return f"there is no {target} at {x},{y} in P{owner + 1}'s network"
        if not net.is_vulnerable(here[0]):
            reason = (
                "a starting card"
                if here[0].start
                else ("sharing its cell with another red card" if target.is_red else "something is built from it")
            )
            return f"{target} at {x},{y} is not vulnerable: it is {reason} (rule 16)"
        if challenge not in core.hands[core.current]:
            return f"you have no {challenge} in hand"
        return f"to claim a {target} you need a {target.colour} card of rank {target.rank + 2} or higher (rule 17)"

    def _why_build(self, core: CarbondaleCore, groups: tuple[str, ...]) -> str:
        card, x, y, direction, source = (
            _parse_card(groups[0]),
            int(groups[1]),
            int(groups[2]),
            groups[3],
            _parse_card(groups[4]),
        )
        if core.phase != ACT:
            return "you may build only once a turn, instead of discarding and before drawing (rule 14)"
        hand = core.hands[core.current]
        if card not in hand:
            return f"you have no {card} in hand"
        if len(hand) < 2:
            return "a build needs another card left in hand to contribute to the stock (rule 22)"
        dx, dy = STEP[direction]
        sx, sy = x - dx, y - dy
        net = network(core.networks[core.current])
        src = net.cells.get((sx, sy), ())
        if not src or src[0].card != source:
            return f"there is no {source} at {sx},{sy} in your network to build from"
        if not source.is_black:
            return "red cards are never built from; build from a black card (rule 9)"
        problem = net.room_for(card, x, y)
        if problem:
            return problem
        limit = build_limit(source, card, core.any_black_to_red)
        if limit is None:
            return f"{source.suit} -> {card.suit} is not in the build table (rule 13)"
        return f"from {source} you may build {card.suit} only up to rank {limit} (build table)"

    def describe(self, before: CarbondaleCore, action: Action, after: CarbondaleCore) -> str:
        seat = before.pending.owner if before.phase == DEFEND and before.pending is not None else before.current
        who = PLAYER[seat]
        kind = type(action)
        if kind is Claim:
            assert isinstance(action, Claim)
            line = (
                f"{who} challenges for {NAME[action.target]} at {action.x},{action.y} in "
                f"{PLAYER[action.owner]}'s network with {NAME[action.challenge]}"
            )
        elif kind is Defend:
            assert isinstance(action, Defend)
            line = f"{who} defends with {NAME[action.card]}; the claim fails and both cards go face down"
        elif kind is Decline:
            target = NAME[before.pending.target] if before.pending else "the card"
            line = f"{who} does not defend; {PLAYER[before.current]} takes {target}"
        elif kind is Build:
            assert isinstance(action, Build)
            line = (
                f"{who} builds {NAME[action.card]} at {action.x},{action.y}, "
                f"{action.direction} of {NAME[action.source]}"
            )
            if after.draw_to == BONUS_HAND_SIZE:
                line += " (an extra card at the draw)"
        elif kind is Contribute:
            assert isinstance(action, Contribute)
            line = f"{who} contributes {NAME[action.card]} to the communal stock"
        elif kind is Discard:
            assert isinstance(action, Discard)
            line = (
                f"{who} discards {NAME[action.card]} face up" if action.face_up else f"{who} discards a card face down"
            )
        elif kind is DrawPile:
            line = f"{who} draws from the pile"
            if not before.pile:
                used = " the next spare pile," if before.spares else ""
                line = f"The draw pile is re-formed from{used} the stock and the face-down discards; {who} draws"
        elif kind is TakeStock:
            assert isinstance(action, TakeStock)
            line = f"{who} takes {NAME[action.card]} from the communal stock"
        else:
            line = f"{who} ends the turn"
        if after.phase == OVER:
            names = " and ".join(PLAYER[w] for w in after.winners)
            if after.ending == "goal":
                line += f". {names} wins with 7 of one red suit and 3 of the other!"
            elif after.ending == "stalemate":
                line += f". Three rounds without a build: the game ends; best progress: {names}"
            else:
                line += f". The {ROUND_LIMIT}-round limit is reached; best progress: {names}"
        return line

    # -- results and views -----------------------------------------------------------------
    def scores(self, core: CarbondaleCore) -> list[int | float]:
        return [network(n).progress for n in core.networks]

    def winners(self, core: CarbondaleCore) -> list[int]:
        return list(core.winners)

    def evaluate(self, core: CarbondaleCore) -> list[float]:
        """Progress toward 7 + 3 plus a little for the black cards that can still build, as shares of 1."""
        if core.phase == OVER:
            return [1.0 if seat in core.winners else 0.0 for seat in range(core.players)]
        weights = []
        for cards in core.networks:
            net = network(cards)
            blacks = sum(1 for p in cards if p.card.is_black)
            strength = 1.0 + net.progress + 0.15 * min(blacks, 12) - 0.2 * len(net.vulnerable)
            weights.append(max(strength, 0.5) ** 3)
        total = sum(weights)
        return [w / total for w in weights]

    def view(self, core: CarbondaleCore, seat: int | None) -> dict[str, Any]:
        networks = []
        for cards in core.networks:
            net = network(cards)
            cells = []
            for (x, y), here in sorted(net.cells.items()):
                cells.append(
                    {
                        "x": x,
                        "y": y,
                        "cards": [
                            {
                                "card": str(p.card),
                                "from": list(p.source) if p.source is not None else None,
                                "dir": p.direction,
                                "start": p.start,
                                "vulnerable": net.is_vulnerable(p),
                            }
                            for p in here
                        ],
                    }
                )
            networks.append(
                {
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
            )
        fresh_left = list(core.fresh)
        stock = []
        for card in core.stock:
            is_fresh = card in fresh_left
            if is_fresh:
                fresh_left.remove(card)
            stock.append({"card": str(card), "fresh": is_fresh})
        pending = core.pending
        return {
            "networks": networks,
            "hand": [str(c) for c in core.hands[seat]] if seat is not None else None,
            "hand_counts": [len(h) for h in core.hands],
            "stock": stock,
            "pile": len(core.pile),
            "spares": [len(s) for s in core.spares],
            "spares_used": 2 - len(core.spares),
            "discards": len(core.discards),
            "turn": core.current,
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
                "target": str(pending.target),
                "challenge": str(pending.card),
            },
            "any_black_to_red": core.any_black_to_red,
            "idle_turns": core.idle,
            "stalemate_turns": STALEMATE_ROUNDS * core.players,
            "turn_number": core.turns + 1,
            "turn_limit": ROUND_LIMIT * core.players,
            "ending": core.ending,
        }

    def sample_hidden(self, core: CarbondaleCore, seat: int | None, rng: Rng) -> CarbondaleCore:
        """Re-deal every unseen card: other hands, the draw pile and the face-down discards share one
        pool; each spare pile (whose cards are known, rule 4) is only re-shuffled."""
        unseen: list[Card] = []
        for other, hand in enumerate(core.hands):
            if other != seat:
                unseen.extend(hand)
        unseen.extend(core.pile)
        unseen.extend(core.discards)
        dealt, rng = rng.shuffled(sorted(unseen))
        hands = list(core.hands)
        at = 0
        for other, hand in enumerate(core.hands):
            if other != seat:
                hands[other] = tuple(sorted(dealt[at : at + len(hand)]))
                at += len(hand)
        pile = dealt[at : at + len(core.pile)]
        at += len(core.pile)
        discards = tuple(sorted(dealt[at:]))
        spares = []
        for spare in core.spares:
            shuffled, rng = rng.shuffled(sorted(spare))
            spares.append(shuffled)
        own, rng = rng.split()
        return _evolve(core, hands=tuple(hands), pile=pile, discards=discards, spares=tuple(spares), rng=own)


RULES = register(CarbondaleRules())

POSITIONS: dict[str, dict[str, Any]] = {
    "figure-1": {
        # The seed's Figure 1, reconstructed (spec, "Scenario"); legal under any_black_to_red.
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
    }
}
"""Positions the rules page shows live (``load_position``)."""
