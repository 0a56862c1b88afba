"""Card-cassonne's state (:class:`CardcassonneState`): the whole game as one immutable value, with the lookups
its board implies computed once per core.

Rule numbers refer to the numbered rules of the game's rules page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...cards import Card
from ...frozen import evolve
from .board import Cell, Event, Table, placed


@dataclass(frozen=True)
class CardcassonneState:
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
    events: tuple[Event, ...] = field(default=(), compare=False)
    """What the last action did (public): the log entry is made of these."""
    memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    """Values derived from the fields above, computed once per core (never part of its identity)."""

    @property
    def table(self) -> Table:
        """Lookups derived from the board (built card by card the first time they are needed)."""
        table: Table | None = self.memo.get("table")
        if table is None:
            table = Table({}, {}, {})
            for x, y, card in self.board:
                table = placed(table, self.alike, x, y, card)
            self.memo["table"] = table
        return table

    @property
    def token_cells(self) -> dict[Cell, int]:
        return {(x, y): owner for x, y, owner in self.tokens}

    @property
    def scorable(self) -> list[Cell]:
        """Rule 15: every partially complete area holding a token, named by its first token cell."""
        found: list[Cell] | None = self.memo.get("scorable")
        if found is None:
            areas, seen, found = self.table.areas, set(), []
            for x, y, _ in self.tokens:
                area = areas[(x, y)]
                if area.cells in seen:
                    continue
                seen.add(area.cells)
                if area.partial:
                    found.append((x, y))
            self.memo["scorable"] = found
        return found


def evolve_core(core: CardcassonneState, **changes: Any) -> CardcassonneState:
    """:func:`pyengine.frozen.evolve` with a fresh memo that keeps the board-derived table when the board
    is unchanged."""
    new = evolve(core, **changes)
    memo = core.memo
    new.__dict__["memo"] = {} if "board" in changes or "table" not in memo else {"table": memo["table"]}
    return new
