"""Card-cassonne: lay cards on an open table, claim same-suit areas with tokens and score them.

Spec: /work/shared/rules/cardcassonne.md (rule numbers below refer to it). Cells are written
``x,y``: x counts columns to the right, y counts rows downwards; the start card lies at 0,0.

A turn is a short sequence of actions by the same player: play a card at a cell
(``7♡ @ 2,-1``); then, only when a token is allowed, ``token`` or ``no token``; then,
only when some partially complete area holds tokens, ``score ♡ area at 2,-1`` for each
area the player chooses and ``done``. Complete areas and the +3 bonus are scored, and the
card drawn, automatically.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from ..cards import SUITS, Card, standard_deck
from ..core import Action, GameInfo, Option, OptionValue, Rules, register
from ..rng import Rng

Cell = tuple[int, int]
Rule8 = tuple[str, int, int]
"""What an empty cell accepts (rule 8): a card of this suit, or one valued lo..hi."""

VALUE = {1: 14, **{rank: rank for rank in range(2, 14)}}
"""Rule 2: 2-10 at face value, J 11, Q 12, K 13, A 14."""
FACE_RANKS = frozenset({11, 12, 13, 1})
"""Rule 17: tokens on J, Q, K and A earn the end bonus."""
DECK_SIZE = 104
HAND_SIZE = 3
END_BONUS = 3
COMPLETION_BONUS = 3
ANY_CARD: Rule8 = ("", 0, 99)
SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}


def card_key(card: Card) -> tuple[int, int]:
    """Hand order: by value (ace high), then suit."""
    return VALUE[card.rank], SUIT_ORDER[card.suit]


def auto_removed(players: int) -> int:
    """Rule 4: the smallest R in 11..13 that leaves every player the same number of draws."""
    for removed in (11, 12, 13):
        if draws_problem(players, removed) is None:
            return removed
    raise AssertionError("11..13 always contains a fitting value for 2-4 players")


def draws_problem(players: int, removed: int) -> str | None:
    """Rule 4: why removing ``removed`` cards gives unequal draws (None when it does not)."""
    pile = DECK_SIZE - 1 - removed - HAND_SIZE * players
    if pile < 0:
        return f"removed {removed} is too many: {players} players need {DECK_SIZE - 1 - HAND_SIZE * players} cards"
    if pile % players:
        fits = [r for r in range(1, 52) if (DECK_SIZE - 1 - r - HAND_SIZE * players) % players == 0]
        near = sorted(fits, key=lambda r: (abs(r - removed), r))[:2]
        return (
            f"removed {removed} leaves a draw pile of {pile} cards, which {players} players cannot share "
            f"equally (rule 4); try removed {' or '.join(str(r) for r in sorted(near))}"
        )
    return None


def _allowed_players(players: int, options: Mapping[str, OptionValue]) -> str | None:
    removed = options.get("removed", "auto")
    if isinstance(removed, int):
        return draws_problem(players, removed)
    return None


def _variants(options: Mapping[str, OptionValue]) -> tuple[bool, bool]:
    """The core's flags (alike, play_out) for the named rule variants of rules 8 and 17."""
    return (
        options.get("same_suit", "same-as-played") == "neighbours-alike",
        options.get("end", "play-out-hands") == "play-out-hands",
    )


def around(x: int, y: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The four orthogonal neighbours of a cell."""
    return (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)


def area_value(size: int) -> int:
    """Rule 16: 1 point per card up to 2 cards, else 2 points per card."""
    return size if size <= 2 else 2 * size


# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """Step (a): play ``card`` from hand at cell x,y."""

    card: Card
    x: int
    y: int
    text: str = field(init=False, compare=False, repr=False)
    """The notation, made once: a late turn lists hundreds of plays."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.card} @ {self.x},{self.y}")

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return hash(self.text)


@dataclass(frozen=True)
class TokenChoice:
    """Step (b): put a token on the card just played, or not."""

    place: bool

    def __str__(self) -> str:
        return "token" if self.place else "no token"


@dataclass(frozen=True)
class ScoreArea:
    """Step (c): score the partially complete area holding the token at x,y (its first token cell)."""

    suit: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"score {self.suit} area at {self.x},{self.y}"


@dataclass(frozen=True)
class Done:
    """Step (c): score no more areas; the card is drawn and the turn passes."""

    def __str__(self) -> str:
        return "done"


TOKEN, NO_TOKEN, DONE = TokenChoice(True), TokenChoice(False), Done()

_PLAYS: dict[Card, dict[Cell, Play]] = {}
"""Play actions are made once and reused: a late turn offers hundreds of them."""


def _play(card: Card, cell: Cell) -> Play:
    table = _PLAYS.setdefault(card, {})
    action = table.get(cell)
    if action is None:
        action = table[cell] = Play(card, cell[0], cell[1])
    return action


# -- the core ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardcassonneCore:
    """The whole game. ``board`` lists (x, y, card) in play order; board[0] is the start card."""

    players: int
    alike: bool
    """Rule 8 variant: True when 'touches only cards of one suit' means any one suit (neighbours-alike)."""
    play_out: bool
    """Rule 17 variant: True to play out the hands once the draw pile is empty."""
    board: tuple[tuple[int, int, Card], ...]
    tokens: tuple[tuple[int, int, int], ...]
    """(x, y, owner) of every token on the table, sorted by cell."""
    tokens_left: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    removed: tuple[Card, ...]
    turn: int
    phase: str
    events: tuple[str, ...] = field(default=(), compare=False)
    """What the last action did (public): the log line is made of these."""
    memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    """Values derived from the fields above, computed once per core (never part of its identity)."""

    @property
    def table(self) -> Table:
        """Lookups derived from the board (built card by card the first time they are needed)."""
        table: Table | None = self.memo.get("table")
        if table is None:
            table = Table({}, {}, {})
            for x, y, card in self.board:
                table = _placed(table, self.alike, x, y, card)
            self.memo["table"] = table
        return table

    @property
    def token_cells(self) -> dict[Cell, int]:
        return {(x, y): owner for x, y, owner in self.tokens}

    @property
    def scorable(self) -> list[ScoreArea]:
        """Rule 15: every partially complete area holding a token (one entry per area, named by its
        first token cell)."""
        found: list[ScoreArea] | None = self.memo.get("scorable")
        if found is None:
            areas, seen, found = self.table.areas, set(), []
            for x, y, _ in self.tokens:
                area = areas[(x, y)]
                if area.cells in seen:
                    continue
                seen.add(area.cells)
                if area.partial:
                    found.append(ScoreArea(area.suit, x, y))
            self.memo["scorable"] = found
        return found


class Area(NamedTuple):
    """Rules 10-11: a maximal orthogonally connected group of cards of one suit, and its open cells."""

    suit: str
    cells: frozenset[Cell]
    open: frozenset[Cell]

    @property
    def complete(self) -> bool:
        return not self.open

    @property
    def partial(self) -> bool:
        """Partially complete: L <= number of cards (complete areas count too)."""
        return len(self.open) <= len(self.cells)


class Table(NamedTuple):
    """What the board implies, kept up to date card by card (never changed once built)."""

    at: dict[Cell, Card]
    """The card on each occupied cell."""
    frontier: dict[Cell, Rule8]
    """Each empty cell touching a card (rule 7) with what it accepts (rule 8), in order of appearance."""
    areas: dict[Cell, Area]
    """The area of each occupied cell."""


def _placed(table: Table, alike: bool, x: int, y: int, card: Card) -> Table:
    """The table after ``card`` lands on x,y (the given table is not changed)."""
    cell = (x, y)
    at = dict(table.at)
    at[cell] = card
    frontier = dict(table.frontier)
    frontier.pop(cell, None)
    areas = dict(table.areas)
    suit = card.suit
    cells, open_cells = {cell}, set()
    for n in around(x, y):
        other = at.get(n)
        if other is None:
            open_cells.add(n)
            frontier[n] = _rule8(at, n, alike)
        elif other.suit == suit:
            area = areas[n]
            cells |= area.cells
            open_cells |= area.open
        else:  # the filled cell closes one side of a neighbouring area of another suit
            area = areas[n]
            if cell in area.open:
                closed = area._replace(open=area.open - {cell})
                for c in area.cells:
                    areas[c] = closed
    open_cells.discard(cell)
    merged = Area(suit, frozenset(cells), frozenset(open_cells))
    for c in cells:
        areas[c] = merged
    return Table(at, frontier, areas)


def _rule8(at: dict[Cell, Card], cell: Cell, alike: bool) -> Rule8:
    """Rule 8 for an empty cell: one neighbour takes any card; neighbours all of one suit take that suit
    (any card under neighbours-alike); and any card valued between the neighbours' lowest and highest."""
    cards = [card for n in around(*cell) if (card := at.get(n)) is not None]
    if len(cards) == 1:
        return ANY_CARD
    values = [VALUE[card.rank] for card in cards]
    suit = cards[0].suit
    if all(card.suit == suit for card in cards):
        return ANY_CARD if alike else (suit, min(values), max(values))
    return "", min(values), max(values)


def accepts(rule: Rule8, card: Card) -> bool:
    """Whether a cell with this rule 8 summary takes ``card`` (``_plays`` inlines the same test)."""
    return card.suit == rule[0] or rule[1] <= VALUE[card.rank] <= rule[2]


def _evolve(core: CardcassonneCore, **changes: Any) -> CardcassonneCore:
    """``dataclasses.replace`` for the hot path: a copy with ``changes`` and a fresh memo that keeps the
    board-derived table when the board is unchanged (replace() itself is several times slower)."""
    new = object.__new__(CardcassonneCore)
    fields = new.__dict__
    fields.update(core.__dict__)
    fields.update(changes)
    fields["memo"] = {} if "board" in changes or "table" not in core.memo else {"table": core.memo["table"]}
    return new


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


# -- the rules ---------------------------------------------------------------------------------


class CardcassonneRules(Rules):
    info = GameInfo(
        id="cardcassonne",
        title="Card-cassonne",
        blurb="Build an open table of cards, claim same-suit areas with tokens and score them as they close.",
        min_players=2,
        max_players=4,
        rules_version="1",
        cooperative=False,
        options=(
            Option(
                "same_suit",
                "same-as-played",
                ("same-as-played", "neighbours-alike"),
                "Same-suit placement",
                "Rule 8: a card may touch several cards if they all share the played card's suit "
                "(same-as-played) or simply all share one suit (neighbours-alike).",
            ),
            Option(
                "end",
                "play-out-hands",
                ("play-out-hands", "stop-when-deck-empty"),
                "Game end",
                "Play out the hands once the draw pile is empty, or stop as soon as it is empty.",
            ),
            Option(
                "removed",
                "auto",
                ("auto", *range(1, 52)),
                "Cards removed",
                "Cards set aside unseen at the start (auto: 11 for 2 or 4 players, 13 for 3); "
                "the draw pile must divide equally among the players.",
            ),
            Option("tokens", 7, (7, 3, 4, 5, 6, 8, 9, 10), "Tokens per player", "Fewer tokens make a harder game."),
        ),
        source="https://jergames.blogspot.com/2009/03/wielding-decks-7-card-cassonne.html",
        # At most 103 turns (every card but the start card); each turn has a play, at most one token
        # decision and at most one 'done'; each 'score' returns at least one token and a token is placed
        # at most once per turn, so scoring actions number at most the turns too.
        max_actions=lambda players: 4 * (DECK_SIZE - 1),
        allowed_players=_allowed_players,
    )

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> CardcassonneCore:
        """Rules 1, 3-5: shuffle two decks, turn up the start card, remove R unseen, deal 3 each."""
        removed_option = options.get("removed", "auto")
        removed = auto_removed(players) if removed_option == "auto" else int(removed_option)
        problem = draws_problem(players, removed)
        if problem:
            raise ValueError(problem)
        cards, rng = rng.shuffled(sorted(standard_deck() * 2, key=card_key))
        hands = tuple(
            tuple(sorted(cards[1 + removed + HAND_SIZE * s : 1 + removed + HAND_SIZE * (s + 1)], key=card_key))
            for s in range(players)
        )
        first, rng = rng.below(players)
        tokens = int(options.get("tokens", 7))
        alike, play_out = _variants(options)
        return CardcassonneCore(
            players=players,
            alike=alike,
            play_out=play_out,
            board=((0, 0, cards[0]),),
            tokens=(),
            tokens_left=(tokens,) * players,
            points=(0,) * players,
            hands=hands,
            deck=cards[1 + removed + HAND_SIZE * players :],
            removed=cards[1 : 1 + removed],
            turn=first,
            phase="play",
        )

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> CardcassonneCore:
        """A position: ``board`` [[x, y, "7♡"], ...] (first: the start card), ``hands`` [["2♣", ...], ...],
        optional ``deck``, ``tokens`` [[x, y, owner], ...], ``tokens_left``, ``scores``, ``turn``."""
        try:
            board = tuple((int(x), int(y), Card.parse(str(c))) for x, y, c in position["board"])
            hands = tuple(tuple(sorted((Card.parse(str(c)) for c in h), key=card_key)) for h in position["hands"])
            deck = tuple(Card.parse(str(c)) for c in position.get("deck", ()))
            tokens = tuple(sorted((int(x), int(y), int(o)) for x, y, o in position.get("tokens", ())))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad cardcassonne position: {exc}") from None
        if len(hands) != players or not board:
            raise ValueError("a position needs a board with a start card and one hand per player")
        if len({(x, y) for x, y, _ in board}) != len(board):
            raise ValueError("two cards of the position share a cell")
        default_left = int(options.get("tokens", 7))
        left = tuple(int(n) for n in position.get("tokens_left", [default_left] * players))
        points = tuple(int(n) for n in position.get("scores", [0] * players))
        alike, play_out = _variants(options)
        core = CardcassonneCore(
            players=players,
            alike=alike,
            play_out=play_out,
            board=board,
            tokens=tokens,
            tokens_left=left,
            points=points,
            hands=hands,
            deck=deck,
            removed=(),
            turn=int(position.get("turn", 0)) % players,
            phase="play",
        )
        if any((x, y) not in core.table.at for x, y, _ in tokens):
            raise ValueError("a token of the position lies on an empty cell")
        return core

    # -- the decision ------------------------------------------------------------------------------
    def current_player(self, core: CardcassonneCore) -> int | None:
        return None if core.phase == "over" else core.turn

    def legal_actions(self, core: CardcassonneCore) -> list[Action]:
        if core.phase == "play":
            return cast("list[Action]", self._plays(core))
        if core.phase == "token":
            return [TOKEN, NO_TOKEN]
        if core.phase == "score":
            return [*core.scorable, DONE]
        return []

    def _plays(self, core: CardcassonneCore) -> list[Play]:
        """Rules 7-9: every distinct hand card at every frontier cell that accepts it."""
        frontier = core.table.frontier
        hand = core.hands[core.turn]
        plays: list[Play] = []
        for i, card in enumerate(hand):
            if i and hand[i - 1] == card:
                continue
            made = _PLAYS.setdefault(card, {}).get
            suit, value = card.suit, VALUE[card.rank]
            plays += [
                made(cell) or _play(card, cell)
                for cell, (rule_suit, lo, hi) in frontier.items()
                if suit == rule_suit or lo <= value <= hi
            ]
        return plays

    # -- moves ------------------------------------------------------------------------------------
    def apply(self, core: CardcassonneCore, action: Action) -> CardcassonneCore:
        if isinstance(action, Play):
            return self._apply_play(core, action)
        if isinstance(action, TokenChoice):
            if not action.place:
                return self._resolve(_evolve(core, events=("places no token",)))
            x, y, _ = core.board[-1]
            seat = core.turn
            left = list(core.tokens_left)
            left[seat] -= 1
            placed = _evolve(
                core,
                tokens=tuple(sorted((*core.tokens, (x, y, seat)))),
                tokens_left=tuple(left),
                events=(f"places a token on {core.board[-1][2]} at {x},{y}",),
            )
            return self._resolve(placed)
        if isinstance(action, ScoreArea):
            scored, line = _score_area(core, (action.x, action.y))
            after = _evolve(core, **scored, events=(f"scores {line}",))
            return after if after.scorable else self._end_turn(after, list(after.events))
        return self._end_turn(_evolve(core, events=("scores no more areas",)), ["scores no more areas"])

    def _apply_play(self, core: CardcassonneCore, action: Play) -> CardcassonneCore:
        """Step (a), then step (b) when a token is allowed (rule 12), else straight to scoring."""
        seat, card, x, y = core.turn, action.card, action.x, action.y
        hand = list(core.hands[seat])
        hand.remove(card)
        hands = list(core.hands)
        hands[seat] = tuple(hand)
        table = _placed(core.table, core.alike, x, y, card)
        after = _evolve(
            core, board=(*core.board, (x, y, card)), hands=tuple(hands), events=(f"plays {card} at {x},{y}",)
        )
        after.memo["table"] = table
        if core.tokens_left[seat] > 0:
            cells = table.areas[(x, y)].cells
            if not any(cell in cells for cell in core.token_cells):
                return _evolve(after, phase="token")
        return self._resolve(after)

    def _resolve(self, core: CardcassonneCore) -> CardcassonneCore:
        """Step (c): +3 per area the placement completed (rule 14), complete areas with tokens scored
        (rule 15), then the player's optional choices, if any."""
        events = list(core.events)
        areas = core.table.areas
        x, y, _ = core.board[-1]
        completed: list[Area] = []
        for cell in ((x, y), *around(x, y)):
            area = areas.get(cell)
            if area is not None and area.complete and area not in completed:
                completed.append(area)
        if completed:
            points = list(core.points)
            points[core.turn] += COMPLETION_BONUS * len(completed)
            plural = "s" if len(completed) > 1 else ""
            events.append(f"completes {len(completed)} area{plural}: +{COMPLETION_BONUS * len(completed)}")
            core = _evolve(core, points=tuple(points))
            token_cells = core.token_cells
            for area in completed:
                anchor = min((c for c in area.cells if c in token_cells), default=None)
                if anchor is not None:
                    scored, line = _score_area(core, anchor)
                    core = _evolve(core, **scored)
                    events.append(f"scores {line}")
        core = _evolve(core, events=tuple(events))
        if core.scorable:
            return _evolve(core, phase="score")
        return self._end_turn(core, events)

    def _end_turn(self, core: CardcassonneCore, events: list[str]) -> CardcassonneCore:
        """Step (d): draw if the pile has cards; then the end check (rule 17) or the next player."""
        seat = core.turn
        hands, deck = core.hands, core.deck
        if deck:
            hands = tuple(
                tuple(sorted((*hand, deck[0]), key=card_key)) if s == seat else hand for s, hand in enumerate(hands)
            )
            deck = deck[1:]
            events.append("draws a card")
        over = not any(hands) if core.play_out else not deck
        if not over:
            return _evolve(
                core, hands=hands, deck=deck, turn=(seat + 1) % core.players, phase="play", events=tuple(events)
            )
        points = list(core.points)
        bonus = [0] * core.players
        at = core.table.at
        for x, y, owner in core.tokens:
            if at[(x, y)].rank in FACE_RANKS:
                bonus[owner] += END_BONUS
                points[owner] += END_BONUS
        lines = [f"{_player(s)} +{b}" for s, b in enumerate(bonus) if b]
        events.append("game over; face-card bonus: " + (", ".join(lines) if lines else "none"))
        return _evolve(core, hands=hands, deck=deck, points=tuple(points), phase="over", events=tuple(events))

    # -- explanations --------------------------------------------------------------------------------
    def why_illegal(self, core: CardcassonneCore, text: str) -> str:
        if core.phase == "over":
            return "the game is over"
        play = re.fullmatch(r"(\S+)\s*@\s*(-?\d+)\s*,\s*(-?\d+)", text)
        score = re.fullmatch(r"score\s+(\S+)\s+area\s+at\s+(-?\d+)\s*,\s*(-?\d+)", text)
        if play:
            return self._why_not_play(core, play.group(1), (int(play.group(2)), int(play.group(3))))
        if text in ("token", "no token"):
            if core.phase == "play":
                return "a token goes only on the card just played: play a card first (rule 12)"
            return "the token step is over: score areas or say 'done'"
        if score:
            return self._why_not_score(core, score.group(1), (int(score.group(2)), int(score.group(3))))
        if text == "done":
            if core.phase == "play":
                return "play a card first: there is no passing (rule 9)"
            return "decide on the token first: 'token' or 'no token'"
        return (
            f"unknown action {text!r}; actions look like '7♡ @ 2,-1', 'token', 'no token', "
            "'score ♡ area at 2,-1' or 'done'"
        )

    def _why_not_play(self, core: CardcassonneCore, card_text: str, cell: Cell) -> str:
        if core.phase == "token":
            return "you have played your card: now 'token' or 'no token'"
        if core.phase == "score":
            return "you have played your card: now score areas or say 'done'"
        try:
            card = Card.parse(card_text)
        except ValueError as exc:
            return str(exc)
        if card.is_joker:
            return "Card-cassonne uses no jokers"
        if str(card) != card_text:
            return f"write the card as {card}: '{card} @ {_cell(cell)}'"
        if card not in core.hands[core.turn]:
            return f"{card} is not in your hand"
        at = core.table.at
        if cell in at:
            return f"{_cell(cell)} already holds {at[cell]}"
        if cell not in core.table.frontier:
            return f"{_cell(cell)} touches no card: a card must touch a card on the table orthogonally (rule 7)"
        if accepts(core.table.frontier[cell], card):
            return f"write it as '{card} @ {_cell(cell)}'"
        neighbours = [at[n] for n in around(*cell) if n in at]
        values = [VALUE[c.rank] for c in neighbours]
        same = "cards of one suit" if core.alike else f"only {card.suit} cards"
        return (
            f"{card} at {_cell(cell)} touches {' '.join(str(c) for c in neighbours)}: it must touch {same} "
            f"or have a value from {min(values)} to {max(values)} (rule 8)"
        )

    def _why_not_score(self, core: CardcassonneCore, suit: str, cell: Cell) -> str:
        if core.phase == "play":
            return "areas are scored after you play a card (step c)"
        if core.phase == "token":
            return "decide on the token first: 'token' or 'no token'"
        at = core.table.at
        if cell not in at:
            return f"there is no card at {_cell(cell)}"
        area = core.table.areas[cell]
        card = at[cell]
        if suit != card.suit:
            return f"the card at {_cell(cell)} is {card}, a {card.suit} card"
        holders = sorted(c for c in area.cells if c in core.token_cells)
        if not holders:
            return f"the {suit} area at {_cell(cell)} holds no token"
        if not area.partial:
            return (
                f"the {suit} area at {_cell(cell)} has {len(area.open)} open cells for {len(area.cells)} cards: "
                "it is not partially complete (rule 11)"
            )
        return f"name that area by its first token: 'score {suit} area at {_cell(holders[0])}'"

    # -- results ---------------------------------------------------------------------------------------
    def scores(self, core: CardcassonneCore) -> list[int | float]:
        return list(core.points)

    def winners(self, core: CardcassonneCore) -> list[int]:
        """Rule 18: most points wins; ties are shared."""
        if core.phase != "over":
            return []
        best = max(core.points)
        return [s for s, p in enumerate(core.points) if p == best]

    def describe(self, before: CardcassonneCore, action: Action, after: CardcassonneCore) -> str:
        return f"{_player(before.turn)} " + "; ".join(after.events or (str(action),))

    def evaluate(self, core: CardcassonneCore) -> list[float] | None:
        """Scores plus token potential: each token on the table is worth its area's value, discounted by
        how open the area is, plus half the face-card bonus; a token in hand is worth a little."""
        if core.phase == "over":
            won = self.winners(core)
            return [1.0 if s in won else 0.0 for s in range(core.players)]
        estimate = [float(p) for p in core.points]
        at, areas = core.table.at, core.table.areas
        for x, y, owner in core.tokens:
            area = areas[(x, y)]
            worth = area_value(len(area.cells)) * min(1.0, len(area.cells) / max(len(area.open), 1))
            estimate[owner] += worth + (END_BONUS / 2 if at[(x, y)].rank in FACE_RANKS else 0.0)
        left = sum(len(h) for h in core.hands) + len(core.deck)
        for s in range(core.players):
            estimate[s] += core.tokens_left[s] * min(3.0, left / (2 * core.players))
        spread = 4.0 + 0.25 * left
        top = max(estimate)
        weights = [math.exp((e - top) / spread) for e in estimate]
        total = sum(weights)
        return [w / total for w in weights]

    # -- information ---------------------------------------------------------------------------------
    def view(self, core: CardcassonneCore, seat: int | None) -> dict[str, Any]:
        table = core.table
        token_cells = core.token_cells
        area_index: dict[Cell, int] = {}
        areas: list[dict[str, Any]] = []
        for x, y, _ in core.board:
            if (x, y) in area_index:
                continue
            area = table.areas[(x, y)]
            for c in area.cells:
                area_index[c] = len(areas)
            areas.append(
                {
                    "suit": area.suit,
                    "cells": [list(c) for c in sorted(area.cells, key=lambda c: (c[1], c[0]))],
                    "tokens": [[c[0], c[1], token_cells[c]] for c in sorted(area.cells) if c in token_cells],
                    "size": len(area.cells),
                    "open": len(area.open),
                    "complete": area.complete,
                    "partial": area.partial,
                    "value": area_value(len(area.cells)),
                }
            )
        legal_scores = core.scorable if core.phase == "score" else []
        view: dict[str, Any] = {
            "phase": core.phase,
            "turn": core.turn,
            "grid": [
                {"x": x, "y": y, "card": str(card), "token": token_cells.get((x, y)), "area": area_index[(x, y)]}
                for x, y, card in core.board
            ],
            "last": list(core.board[-1][:2]) if len(core.board) > 1 else None,
            "areas": areas,
            "tokens_left": list(core.tokens_left),
            "draw_pile": len(core.deck),
            "removed": len(core.removed),
            "hand_counts": [len(h) for h in core.hands],
            "hand": None,
            "targets": {},
            "scorable": [{"action": str(a), "area": area_index[(a.x, a.y)]} for a in legal_scores],
            "same_suit": "neighbours-alike" if core.alike else "same-as-played",
            "end": "play-out-hands" if core.play_out else "stop-when-deck-empty",
        }
        if seat is not None:
            view["hand"] = [str(c) for c in core.hands[seat]]
            if core.phase == "play" and seat == core.turn:
                targets: dict[str, list[list[int]]] = {}
                for action in self._plays(core):
                    targets.setdefault(str(action.card), []).append([action.x, action.y])
                view["targets"] = targets
        return view

    def sample_hidden(self, core: CardcassonneCore, seat: int | None, rng: Rng) -> CardcassonneCore:
        """Re-deal every card ``seat`` cannot see: other hands, the draw pile and the removed cards."""
        unseen = [c for s, hand in enumerate(core.hands) if s != seat for c in hand]
        unseen += [*core.deck, *core.removed]
        cards, _ = rng.shuffled(sorted(unseen, key=card_key))
        hands = []
        used = 0
        for s, hand in enumerate(core.hands):
            if s == seat:
                hands.append(hand)
            else:
                hands.append(tuple(sorted(cards[used : used + len(hand)], key=card_key)))
                used += len(hand)
        deck = cards[used : used + len(core.deck)]
        return _evolve(core, hands=tuple(hands), deck=deck, removed=cards[used + len(core.deck) :])


def _score_area(core: CardcassonneCore, anchor: Cell) -> tuple[dict[str, Any], str]:
    """Rule 16: each token in the area earns its owner the area's value; all its tokens go home."""
    area = core.table.areas[anchor]
    cells = area.cells
    value = area_value(len(cells))
    points, left = list(core.points), list(core.tokens_left)
    kept, gains = [], []
    for x, y, owner in core.tokens:
        if (x, y) in cells:
            points[owner] += value
            left[owner] += 1
            gains.append(f"{_player(owner)} +{value}")
        else:
            kept.append((x, y, owner))
    line = f"the {area.suit} area at {_cell(anchor)} ({len(cells)} card{'s' if len(cells) != 1 else ''}): " + ", ".join(
        gains
    )
    return {"points": tuple(points), "tokens_left": tuple(left), "tokens": tuple(kept)}, line


POSITIONS: dict[str, dict[str, Any]] = {
    # Rules page figure: a 2-card hearts area with Player 1's token and one open cell (1,1): L = 1,
    # partially complete, worth 2; Player 2's lone 8♠ has 3 open cells.
    "figure-1": {
        "board": [
            [0, 0, "5♡"],
            [1, 0, "7♡"],
            [0, -1, "5♣"],
            [1, -1, "6♠"],
            [-1, 0, "9♢"],
            [2, 0, "8♠"],
            [0, 1, "3♣"],
        ],
        "hands": [["2♣"], ["3♢"]],
        "tokens": [[0, 0, 0], [2, 0, 1]],
        "tokens_left": [6, 6],
    },
}
"""Named positions (shown live on the rules page)."""

RULES = register(CardcassonneRules())
