"""The table of Card-cassonne: values, cells and areas, and what a board of cards implies (rules 7-11).

Cells are written ``x,y``: x counts columns to the right, y counts rows downwards; the start card lies
at 0,0. Rule numbers refer to the numbered rules of the game's rules page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...cards import SUITS, Card
from ...core import OptionValue

Cell = tuple[int, int]
Rule8 = tuple[str, int, int]
"""What an empty cell accepts (rule 8): a card of this suit, or one valued lo..hi."""
Event = tuple[str, Mapping[str, Any]]
"""One thing an action did: a phrase of the log (with seat placeholders) and its public facts."""

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


def allowed_players(players: int, options: Mapping[str, OptionValue]) -> str | None:
    removed = options.get("removed", "auto")
    if isinstance(removed, int):
        return draws_problem(players, removed)
    return None


def variants(options: Mapping[str, OptionValue]) -> tuple[bool, bool]:
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


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


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


def placed(table: Table, alike: bool, x: int, y: int, card: Card) -> Table:
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
    """Whether a cell with this rule 8 summary takes ``card`` (the rules' ``plays`` inline the same test)."""
    return card.suit == rule[0] or rule[1] <= VALUE[card.rank] <= rule[2]
