"""100 Silver Bars: two small mines fill five vaults each with silver and lock them (spec: rules/silver-bars.md).

Suits do not matter, so actions name cards by rank or role (``play 6 v3``, ``miner 9 v2``,
``rubble v4``, ``shovel v1``, ``lo-thief``, ``hi-thief``, ``strike``, ``discard 7``, ``lock v5``,
``clear strike``) and a thief's follow-ups are ``steal vN`` (a tie among the opponent's vaults)
and ``place vN`` (where the stolen silver goes). Vaults are numbered 1-5 in notation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from ..cards import JOKER, Card
from ..core import Action, GameInfo, Option, OptionValue, Rules, register
from ..rng import Rng

VAULTS = 5
HAND = 7
LOCKS = 5
TARGET = 100
MAX_ROUNDS = 20
"""Site guard (not in the original): after this many rounds the higher total wins, a tie is shared."""

SILVER_RANKS = frozenset({1, 2, 3, 4, 6})
MINER_RANKS = frozenset({7, 8, 9, 10})
STRIKE = Card(12, "♠")
PLAIN_SUITS = ("♣", "♢", "♡")

_RANK_TOKEN = {1: "A", 2: "2", 3: "3", 4: "4", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "lo-thief", 13: "rubble", 0: "hi-thief"}
_SILVER_TOKENS = {"A": 1, "2": 2, "3": 3, "4": 4, "6": 6}
_MINER_TOKENS = {"7": 7, "8": 8, "9": 9, "10": 10}
_ROLE_TOKENS = ("rubble", "shovel", "lo-thief", "hi-thief", "strike")
_ACTION_HELP = (
    "actions look like: play 6 v3, miner 9 v2, rubble v4, shovel v1, lo-thief, hi-thief, strike, "
    "discard 7, discard shovel, lock v5, clear strike, steal v2, place v3"
)


def token(card: Card) -> str:
    """The rank/role name of a card in action notation (suits do not matter)."""
    if card.rank == 12:
        return "strike" if card.suit == "♠" else "shovel"
    return _RANK_TOKEN[card.rank]


def role_name(tok: str) -> str:
    """A card's role in words, for messages."""
    if tok in _SILVER_TOKENS:
        return f"a silver {tok}"
    if tok in _MINER_TOKENS:
        return f"a miner {tok}"
    return {"rubble": "a rubble card", "shovel": "a shovel", "lo-thief": "a lo thief", "hi-thief": "a hi thief",
            "strike": "a worker's strike"}.get(tok, tok)


def deck(strikes: int) -> tuple[Card, ...]:
    """The cards shuffled each round: two decks less the locks and the set-aside J♠ J♠ and one joker (spec table)."""
    cards: list[Card] = []
    for _ in range(2):
        for suit in ("♣", "♢", "♡", "♠"):
            cards.extend(Card(r, suit) for r in (1, 2, 3, 4, 6, 7, 8, 9, 10))
        for suit in PLAIN_SUITS:
            cards.extend((Card(11, suit), Card(12, suit), Card(13, suit)))
    cards.extend((JOKER,) * 3)
    cards.extend((STRIKE,) * strikes)
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Vault:
    """One vault: its stack bottom to top, rubble lying in it, and whether it is locked."""

    cards: tuple[Card, ...] = ()
    rubble: Card | None = None
    locked: bool = False

    @property
    def empty(self) -> bool:
        """Rule 4/6: empty means no cards and no rubble."""
        return not self.cards and self.rubble is None

    @property
    def silver_on_top(self) -> bool:
        return bool(self.cards) and self.cards[-1].rank in SILVER_RANKS

    def takes_silver(self, value: int) -> bool:
        """Rule 4: unlocked, and empty or a miner on top whose silver underneath is lower than ``value``."""
        if self.locked or self.rubble is not None:
            return False
        if not self.cards:
            return True
        return self.cards[-1].rank in MINER_RANKS and self.cards[-2].rank < value

    @property
    def silver(self) -> int:
        """Sum of the silver values in the stack (rule 12)."""
        return sum(c.rank for c in self.cards if c.rank in SILVER_RANKS)


EMPTY_ROW = (Vault(),) * VAULTS


@dataclass(frozen=True, slots=True)
class Pending:
    """A thief in progress: the tied opponent vaults to choose from, then the stolen silver to place."""

    thief: str
    choices: tuple[int, ...] = ()
    carry: Card | None = None
    source: int = -1


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How the last round ended (public): its number, points per seat, the reason and the final vaults."""

    number: int
    points: tuple[int, int]
    reason: str
    vaults: tuple[tuple[Vault, ...], tuple[Vault, ...]]


@dataclass(frozen=True, slots=True)
class SilverCore:
    rng: Rng
    placeable: bool
    strikes: int
    round: int
    dealer: int
    turn: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    draw: tuple[Card, ...]
    """The draw pile; its top is the last card."""
    discard: tuple[Card, ...]
    """The discard pile, face up; its top is the last card."""
    vaults: tuple[tuple[Vault, ...], tuple[Vault, ...]]
    strike: tuple[bool, bool]
    """Rule 9: a strike lies in front of this seat."""
    pending: Pending | None
    totals: tuple[int, int]
    last: RoundResult | None
    over: bool


@dataclass(frozen=True, slots=True)
class Act:
    """One action; ``tok`` is a card's rank/role name, ``vault`` 0-4 (shown 1-5)."""

    kind: str
    tok: str = ""
    vault: int = -1

    def __str__(self) -> str:
        k = self.kind
        if k == "play" or k == "miner":
            return f"{k} {self.tok} v{self.vault + 1}"
        if k == "discard":
            return f"discard {self.tok}"
        if k in ("rubble", "shovel", "lock", "steal", "place"):
            return f"{k} v{self.vault + 1}"
        if k == "clear":
            return "clear strike"
        return k


CLEAR = Act("clear")


def _pair(seq: Any, seat: int, value: Any) -> Any:
    return (value, seq[1]) if seat == 0 else (seq[0], value)


def _take(hand: tuple[Card, ...], tok: str) -> tuple[Card, tuple[Card, ...]]:
    """The first card of ``hand`` named ``tok`` and the hand without it."""
    for i, card in enumerate(hand):
        if token(card) == tok:
            return card, hand[:i] + hand[i + 1:]
    raise KeyError(tok)


def _add(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(sorted(hand + (card,)))


def thief_target(core: SilverCore, seat: int, lo: bool) -> tuple[int, tuple[int, ...]] | None:
    """Rule 8: the value a thief would steal and the tied opponent vaults holding it, or None if unplayable."""
    mine = core.vaults[seat]
    found: dict[int, list[int]] = {}
    for i, v in enumerate(core.vaults[1 - seat]):
        if not v.locked and v.cards and v.cards[-1].rank in SILVER_RANKS:
            found.setdefault(v.cards[-1].rank, []).append(i)
    if not found:
        return None
    values = sorted(found)
    if core.placeable:  # option thief=lowest-placeable: only silver that could be placed counts
        values = [x for x in values if any(w.takes_silver(x) for w in mine)]
        if not values:
            return None
    value = values[0] if lo else values[-1]
    if not any(w.takes_silver(value) for w in mine):
        return None
    return value, tuple(found[value])


def round_points(vaults: tuple[Vault, ...]) -> int:
    """Rule 12: every silver card in a locked vault counts; unlocked vaults score nothing."""
    return sum(v.silver for v in vaults if v.locked)


Hands = tuple[tuple[Card, ...], tuple[Card, ...]]


def _deal(rng: Rng, strikes: int, dealer: int) -> tuple[Hands, tuple[Card, ...], Rng]:
    cards, rng = rng.shuffled(deck(strikes))
    first = tuple(sorted(cards[:HAND]))
    second = tuple(sorted(cards[HAND:2 * HAND]))
    hands = (second, first) if dealer == 0 else (first, second)  # the non-dealer is dealt first
    return hands, cards[2 * HAND:], rng


class SilverBarsRules(Rules):
    info = GameInfo(
        id="silver-bars",
        title="100 Silver Bars",
        blurb="Two rival mines fill five vaults with silver, dig deeper with miners, steal and lock: first to 100.",
        min_players=2,
        max_players=2,
        rules_version="1",
        cooperative=False,
        options=(
            Option("thief", "lowest-overall", ("lowest-overall", "lowest-placeable"), "Thief target",
                   "lowest-overall: a thief aims at the lowest (hi: highest) silver on top and fails if it cannot be "
                   "placed; lowest-placeable: it aims at the lowest (highest) silver it can place."),
            Option("strikes", 2, (2, 1), "Worker's strikes", "How many Q♠ strike cards are in the deck."),
        ),
        source="http://www.bgdf.com/forum/game-creation/playtesting/playtesters-wanted-light-two-player-card-game",
        # Per round: at most 81 drawing turns, 9 lock turns, 2 strike clearings and 2 follow-ups for each of
        # the 9 thieves; the match lasts at most MAX_ROUNDS rounds.
        max_actions=lambda players: (81 + 9 + 2 + 18) * MAX_ROUNDS,
    )

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> SilverCore:
        """Rule 1: a random first dealer; 7 cards each; the non-dealer starts."""
        strikes = int(options.get("strikes", 2))
        dealer, rng = rng.below(2)
        hands, draw, rng = _deal(rng, strikes, dealer)
        return SilverCore(
            rng=rng, placeable=options.get("thief", "lowest-overall") == "lowest-placeable", strikes=strikes,
            round=1, dealer=dealer, turn=1 - dealer, hands=hands, draw=draw, discard=(),
            vaults=(EMPTY_ROW, EMPTY_ROW), strike=(False, False), pending=None, totals=(0, 0), last=None,
            over=False,
        )

    def current_player(self, core: SilverCore) -> int | None:
        return None if core.over else core.turn

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, core: SilverCore) -> list[Action]:
        if core.over:
            return []
        seat = core.turn
        if core.strike[seat]:
            return [CLEAR]  # rule 3
        mine = core.vaults[seat]
        pending = core.pending
        if pending is not None:
            if pending.carry is None:
                return [Act("steal", vault=i) for i in pending.choices]
            value = pending.carry.rank
            return [Act("place", vault=i) for i, v in enumerate(mine) if v.takes_silver(value)]
        theirs = core.vaults[1 - seat]
        plays: list[Action] = []
        discards: list[Action] = []
        seen: set[str] = set()
        for card in core.hands[seat]:
            tok = token(card)
            if tok in seen:
                continue
            seen.add(tok)
            discards.append(Act("discard", tok))  # rule 2b: any card may be discarded
            rank = card.rank
            if rank in SILVER_RANKS:
                plays.extend(Act("play", tok, i) for i, v in enumerate(mine) if v.takes_silver(rank))
            elif rank in MINER_RANKS:
                plays.extend(Act("miner", tok, i) for i, v in enumerate(mine) if not v.locked and v.silver_on_top)
            elif tok == "rubble":
                plays.extend(Act("rubble", vault=i) for i, v in enumerate(theirs) if v.empty and not v.locked)
            elif tok == "shovel":
                plays.extend(Act("shovel", vault=i) for i, v in enumerate(mine) if v.rubble is not None)
            elif tok == "strike":
                plays.append(Act("strike"))
            elif thief_target(core, seat, tok == "lo-thief") is not None:
                plays.append(Act(tok))
        locks: list[Action] = []
        if sum(v.locked for v in mine) < LOCKS:  # rule 10
            locks = [Act("lock", vault=i) for i, v in enumerate(mine) if not v.locked and v.silver_on_top]
        return plays + discards + locks

    # -- apply ---------------------------------------------------------------------------------
    def apply(self, core: SilverCore, act: Action) -> SilverCore:
        action = cast(Act, act)
        seat = core.turn
        other = 1 - seat
        kind = action.kind
        i = action.vault
        if kind == "clear":  # rule 3: the whole turn, no draw
            return replace(core, strike=_pair(core.strike, seat, False), discard=core.discard + (STRIKE,), turn=other)
        if kind == "lock":  # rule 10, rule 2c: no draw
            row = list(core.vaults[seat])
            v = row[i]
            row[i] = Vault(v.cards, v.rubble, True)
            vaults = _pair(core.vaults, seat, tuple(row))
            if sum(w.locked for w in row) == LOCKS:
                return self._end_round(replace(core, vaults=vaults), "fifth lock")  # rule 11: at once
            return replace(core, vaults=vaults, turn=other)
        if kind == "steal":
            return self._steal(core, seat, i)
        if kind == "place":
            pending = core.pending
            assert pending is not None and pending.carry is not None
            row = list(core.vaults[seat])
            v = row[i]
            row[i] = Vault(v.cards + (pending.carry,), v.rubble, v.locked)
            return self._draw_and_pass(core, seat, core.hands[seat], vaults=_pair(core.vaults, seat, tuple(row)),
                                       pending=None)
        card, hand = _take(core.hands[seat], action.tok or kind)
        if kind == "discard":  # rule 2b
            return self._draw_and_pass(core, seat, hand, discard=core.discard + (card,))
        if kind == "play" or kind == "miner":  # rules 4, 5
            row = list(core.vaults[seat])
            v = row[i]
            row[i] = Vault(v.cards + (card,), v.rubble, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=_pair(core.vaults, seat, tuple(row)))
        if kind == "rubble":  # rule 6
            row = list(core.vaults[other])
            v = row[i]
            row[i] = Vault(v.cards, card, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=_pair(core.vaults, other, tuple(row)))
        if kind == "shovel":  # rule 7: rubble and shovel both discarded
            row = list(core.vaults[seat])
            v = row[i]
            assert v.rubble is not None
            row[i] = Vault(v.cards, None, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=_pair(core.vaults, seat, tuple(row)),
                                       discard=core.discard + (v.rubble, card))
        if kind == "strike":  # rule 9: miners on top of unlocked vaults are discarded; the strike lies in front
            row = list(core.vaults[other])
            struck: list[Card] = []
            for j, v in enumerate(row):
                if not v.locked and v.cards and v.cards[-1].rank in MINER_RANKS:
                    struck.append(v.cards[-1])
                    row[j] = Vault(v.cards[:-1], v.rubble, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=_pair(core.vaults, other, tuple(row)),
                                       discard=core.discard + tuple(struck), strike=_pair(core.strike, other, True))
        # rule 8: a thief; the player draws once the stolen silver is placed
        target = thief_target(core, seat, kind == "lo-thief")
        assert target is not None
        core = replace(core, hands=_pair(core.hands, seat, hand), discard=core.discard + (card,),
                       pending=Pending(kind, target[1]))
        if len(target[1]) == 1:
            return self._steal(core, seat, target[1][0])
        return core

    def _steal(self, core: SilverCore, seat: int, vault: int) -> SilverCore:
        """Rule 8: lift the silver off the opponent's vault (it falls back to its previous top card)."""
        pending = core.pending
        assert pending is not None
        other = 1 - seat
        row = list(core.vaults[other])
        v = row[vault]
        row[vault] = Vault(v.cards[:-1], v.rubble, v.locked)
        return replace(core, vaults=_pair(core.vaults, other, tuple(row)),
                       pending=Pending(pending.thief, (), v.cards[-1], vault))

    def _draw_and_pass(self, core: SilverCore, seat: int, hand: tuple[Card, ...], **changes: Any) -> SilverCore:
        """Rule 2: draw one; rule 11: the turn that empties the draw pile ends the round."""
        draw = core.draw
        hands = _pair(core.hands, seat, _add(hand, draw[-1]))
        if len(draw) == 1:
            return self._end_round(replace(core, hands=hands, draw=draw[:-1], **changes), "draw pile empty")
        return replace(core, hands=hands, draw=draw[:-1], turn=1 - seat, **changes)

    def _end_round(self, core: SilverCore, reason: str) -> SilverCore:
        """Rules 12-14: score, then finish the match or deal the next round (dealer alternates)."""
        points = (round_points(core.vaults[0]), round_points(core.vaults[1]))
        totals = (core.totals[0] + points[0], core.totals[1] + points[1])
        last = RoundResult(core.round, points, reason, core.vaults)
        core = replace(core, totals=totals, last=last, pending=None)
        done = (max(totals) >= TARGET and totals[0] != totals[1]) or core.round >= MAX_ROUNDS
        if done:
            return replace(core, over=True)
        dealer = 1 - core.dealer
        hands, draw, rng = _deal(core.rng, core.strikes, dealer)
        return replace(core, rng=rng, round=core.round + 1, dealer=dealer, turn=1 - dealer, hands=hands, draw=draw,
                       discard=(), vaults=(EMPTY_ROW, EMPTY_ROW), strike=(False, False))

    # -- results -------------------------------------------------------------------------------
    def scores(self, core: SilverCore) -> list[int | float]:
        return list(core.totals)

    def winners(self, core: SilverCore) -> list[int]:
        if not core.over:
            return []
        best = max(core.totals)
        return [seat for seat in (0, 1) if core.totals[seat] == best]

    def evaluate(self, core: SilverCore) -> list[float] | None:
        """Match totals plus this round's locked silver and a share of the unlocked silver, through a logistic."""
        if core.over:
            won = self.winners(core)
            return [1.0 / len(won) if s in won else 0.0 for s in (0, 1)]
        projected = []
        for seat in (0, 1):
            locked = unlocked = 0
            for v in core.vaults[seat]:
                if v.locked:
                    locked += v.silver
                else:
                    unlocked += v.silver
            projected.append(core.totals[seat] + locked + 0.45 * unlocked)
        lead = projected[0] - projected[1]
        p0 = 1.0 / (1.0 + math.exp(-lead / 18.0))
        return [p0, 1.0 - p0]

    # -- information ---------------------------------------------------------------------------
    def view(self, core: SilverCore, seat: int | None) -> dict[str, Any]:
        pending = core.pending
        last = core.last
        return {
            "round": core.round,
            "max_rounds": MAX_ROUNDS,
            "target": TARGET,
            "dealer": core.dealer,
            "turn": None if core.over else core.turn,
            "match": list(core.totals),
            "round_scores": [round_points(core.vaults[s]) for s in (0, 1)],
            "vaults": [_vaults_json(core.vaults[s]) for s in (0, 1)],
            "locks_left": [LOCKS - sum(v.locked for v in core.vaults[s]) for s in (0, 1)],
            "strike": list(core.strike),
            "draw_count": len(core.draw),
            "discard": [str(c) for c in core.discard],
            "discard_count": len(core.discard),
            "discard_top": str(core.discard[-1]) if core.discard else None,
            "hand_counts": [len(h) for h in core.hands],
            "hand": [str(c) for c in core.hands[seat]] if seat is not None else None,
            "pending": None if pending is None else {
                "thief": pending.thief,
                "choices": [i + 1 for i in pending.choices],
                "carry": None if pending.carry is None else str(pending.carry),
                "from": None if pending.source < 0 else pending.source + 1,
            },
            "last_round": None if last is None else {
                "round": last.number,
                "points": list(last.points),
                "reason": last.reason,
                "vaults": [_vaults_json(last.vaults[s]) for s in (0, 1)],
            },
        }

    def sample_hidden(self, core: SilverCore, seat: int | None, rng: Rng) -> SilverCore:
        """Re-deal the unseen cards (other hands and the draw pile) in the same sizes."""
        fresh, rng = rng.split()
        hidden_seats = [s for s in (0, 1) if s != seat]
        unseen = sorted([c for s in hidden_seats for c in core.hands[s]] + list(core.draw))
        cards, rng = rng.shuffled(unseen)
        hands = list(core.hands)
        at = 0
        for s in hidden_seats:
            n = len(core.hands[s])
            hands[s] = tuple(sorted(cards[at:at + n]))
            at += n
        return replace(core, rng=fresh, hands=(hands[0], hands[1]), draw=tuple(cards[at:]))

    def describe(self, before: SilverCore, act: Action, after: SilverCore) -> str:
        action = cast(Act, act)
        seat = before.turn
        who = f"Player {seat + 1}"
        them = f"Player {2 - seat}"
        kind = action.kind
        v = action.vault + 1
        if kind == "clear":
            line = f"{who} spends the turn clearing the worker's strike"
        elif kind == "lock":
            line = f"{who} locks vault {v}"
        elif kind == "steal":
            carry = after.pending.carry if after.pending else None
            line = f"{who} steals {carry} from {them}'s vault {v}"
        elif kind == "place":
            carry = before.pending.carry if before.pending else None
            line = f"{who} places the stolen {carry} in vault {v} and draws"
        else:
            card, _ = _take(before.hands[seat], action.tok or kind)
            if kind == "discard":
                line = f"{who} discards {card} and draws"
            elif kind == "play":
                line = f"{who} puts silver {card} in vault {v} and draws"
            elif kind == "miner":
                line = f"{who} puts miner {card} on vault {v} and draws"
            elif kind == "rubble":
                line = f"{who} drops rubble {card} into {them}'s vault {v} and draws"
            elif kind == "shovel":
                line = f"{who} shovels the rubble out of vault {v} and draws"
            elif kind == "strike":
                struck = [str(w.cards[-1]) for w in before.vaults[1 - seat]
                          if not w.locked and w.cards and w.cards[-1].rank in MINER_RANKS]
                gone = f" (miners {', '.join(struck)} discarded)" if struck else ""
                line = f"{who} calls a worker's strike on {them}{gone} and draws"
            else:
                name = "lo thief" if kind == "lo-thief" else "hi thief"
                line = f"{who} plays a {name}"
                pending = after.pending
                if pending is not None and pending.carry is not None:
                    line += f", stealing {pending.carry} from {them}'s vault {pending.source + 1}"
        if after.round != before.round or after.over:
            last = after.last
            assert last is not None
            a, b = last.points
            line += (f". Round {last.number} ends ({last.reason}): Player 1 scores {a}, Player 2 scores {b}; "
                     f"totals {after.totals[0]} to {after.totals[1]}")
            if after.over:
                won = self.winners(after)
                line += ". Shared win" if len(won) == 2 else f". Player {won[0] + 1} wins the match"
            else:
                line += f". Player {after.dealer + 1} deals round {after.round}"
        return line

    def why_illegal(self, core: SilverCore, text: str) -> str:
        if core.over:
            return "the game is over"
        seat = core.turn
        words = text.split()
        if core.strike[seat]:
            return "a worker's strike lies in front of you: this turn you can only clear it (clear strike, rule 3)"
        pending = core.pending
        if pending is not None:
            if pending.carry is None:
                options = ", ".join(f"steal v{i + 1}" for i in pending.choices)
                return f"your thief must first choose among the tied vaults: {options}"
            return (f"the stolen {pending.carry} must be placed in one of your vaults now (rule 8): "
                    + ", ".join(str(a) for a in self.legal_actions(core)))
        if not words:
            return f"no action given; {_ACTION_HELP}"
        head = words[0]
        vault: int | None = None
        if words[-1].startswith("v") and words[-1][1:].isdigit():
            vault = int(words[-1][1:]) - 1
            if not 0 <= vault < VAULTS:
                return f"there is no vault {vault + 1}; vaults are v1 to v5"
            words = words[:-1]
        mine = core.vaults[seat]
        theirs = core.vaults[1 - seat]
        hand_tokens = {token(c) for c in core.hands[seat]}
        if head == "clear":
            return "there is no strike in front of you to clear"
        if head in ("steal", "place"):
            return f"'{head}' only follows a thief you have just played"
        if head == "lock":
            if vault is None:
                return "say which vault to lock, like: lock v2"
            if sum(w.locked for w in mine) >= LOCKS:
                return "you have no locks left"
            v = mine[vault]
            if v.locked:
                return f"vault {vault + 1} is already locked"
            if v.rubble is not None:
                return f"vault {vault + 1} holds rubble; a lock goes only on silver (rule 10)"
            if not v.cards:
                return f"vault {vault + 1} is empty; a lock goes only on silver (rule 10)"
            return f"vault {vault + 1} has a miner on top; a lock goes only on silver (rule 10)"
        if head == "discard":
            tok = " ".join(words[1:])
            if tok not in _SILVER_TOKENS and tok not in _MINER_TOKENS and tok not in _ROLE_TOKENS:
                return f"unknown card {tok!r}; name it by rank or role (A, 2, 3, 4, 6, 7-10, rubble, shovel, " \
                       "lo-thief, hi-thief, strike)"
            return f"you hold no {tok}"
        kinds = {"play": None, "miner": None, "rubble": "rubble", "shovel": "shovel", "lo-thief": "lo-thief",
                 "hi-thief": "hi-thief", "strike": "strike"}
        if head not in kinds:
            return f"unknown action {text!r}; {_ACTION_HELP}"
        tok = kinds[head] or (words[1] if len(words) > 1 else "")
        if head == "play" and tok not in _SILVER_TOKENS:
            if tok in _MINER_TOKENS:
                return f"{tok} is a miner: write miner {tok} v1..v5"
            return "play names a silver card (A, 2, 3, 4 or 6) and a vault, like: play 6 v3"
        if head == "miner" and tok not in _MINER_TOKENS:
            return "miner names a miner card (7, 8, 9 or 10) and a vault, like: miner 9 v2"
        if tok not in hand_tokens:
            return f"you hold no {tok}"
        if head in ("play", "miner", "rubble", "shovel") and vault is None:
            return f"say which vault, like: {head} {'' if kinds[head] else tok + ' '}v1"
        assert vault is not None or head in ("lo-thief", "hi-thief", "strike")
        if head == "play":
            assert vault is not None
            v = mine[vault]
            value = _SILVER_TOKENS[tok]
            if v.locked:
                return f"vault {vault + 1} is locked"
            if v.rubble is not None:
                return f"vault {vault + 1} holds rubble; shovel it out first (rule 6)"
            if v.cards[-1].rank in SILVER_RANKS:
                return f"silver never goes straight onto silver: put a miner on vault {vault + 1} first (rule 4)"
            return (f"the silver under the miner in vault {vault + 1} is {token(v.cards[-2])}; "
                    f"a {tok} must be higher (rule 4)") if v.cards[-2].rank >= value else "not legal now"
        if head == "miner":
            assert vault is not None
            v = mine[vault]
            if v.locked:
                return f"vault {vault + 1} is locked"
            return f"a miner goes only onto silver, and vault {vault + 1} has no silver on top (rule 5)"
        if head == "rubble":
            assert vault is not None
            v = theirs[vault]
            if v.locked:
                return f"the opponent's vault {vault + 1} is locked"
            return f"rubble goes only into an opponent's empty vault; their vault {vault + 1} is not empty (rule 6)"
        if head == "shovel":
            return f"there is no rubble in your vault {vault + 1 if vault is not None else ''} to remove (rule 7)"
        if head in ("lo-thief", "hi-thief"):
            if not any(not w.locked and w.silver_on_top for w in theirs):
                return "no unlocked opponent vault has silver on top: the thief has nothing to steal (rule 8)"
            return "the silver this thief would steal cannot be placed in any of your vaults (rule 8)"
        return f"{text!r} is not a legal action now; {_ACTION_HELP}"


def _vaults_json(row: tuple[Vault, ...]) -> list[dict[str, Any]]:
    return [
        {"cards": [str(c) for c in v.cards], "rubble": None if v.rubble is None else str(v.rubble), "locked": v.locked,
         "silver": v.silver}
        for v in row
    ]


RULES = register(SilverBarsRules())
