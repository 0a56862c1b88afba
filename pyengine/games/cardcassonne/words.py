"""Card-cassonne in words: the log entry of an action and why an action is not legal now.

Rule numbers refer to the numbered rules of the game's rules page.
"""

from __future__ import annotations

from typing import Any

from ...core import Action
from ...words import Entry
from .board import VALUE, CardcassonneState, Cell, accepts, around, cell_text
from .notation import NOTATION, Play, ScoreArea, TokenChoice


def describe(before: CardcassonneState, action: Action, after: CardcassonneState) -> Entry:
    """One entry: who acted, what the action did (``; ``-joined phrases) and its public facts.

    Facts: ``kind``; a placement's ``card`` and ``cell``; ``completed`` areas and their ``bonus``;
    ``scored`` areas (``suit``, anchor ``cell``, ``cells``, ``value``, ``points`` gained per seat);
    ``drew``; at the end ``over`` and the face-card ``end_bonus`` per seat.
    """
    seat = before.turn
    facts: dict[str, Any] = {"kind": NOTATION.form_of(action).kind}
    phrases = []
    for text, told in after.events:
        phrases.append(text)
        for key, value in told.items():
            if key == "scored":
                facts.setdefault("scored", []).extend(value)
            else:
                facts[key] = value
    return Entry(seat, f"{{{seat}}} " + "; ".join(phrases), facts)


def why_illegal(core: CardcassonneState, action: Action) -> str:
    """Why a well-written action that is not legal now is refused (the game is not over)."""
    if isinstance(action, Play):
        return _why_not_play(core, action)
    if isinstance(action, TokenChoice):
        if core.phase == "play":
            return "a token goes only on the card just played: play a card first (rule 12)"
        return "the token step is over: score areas or say 'done'"
    if isinstance(action, ScoreArea):
        return _why_not_score(core, action.suit, (action.x, action.y))
    if core.phase == "play":
        return "play a card first: there is no passing (rule 9)"
    return "decide on the token first: 'token' or 'no token'"


def _why_not_play(core: CardcassonneState, action: Play) -> str:
    card, cell = action.card, (action.x, action.y)
    if core.phase == "token":
        return "you have played your card: now 'token' or 'no token'"
    if core.phase == "score":
        return "you have played your card: now score areas or say 'done'"
    if card.is_joker:
        return "Card-cassonne uses no jokers (rule 1)"
    if card not in core.hands[core.turn]:
        return f"{card} is not in your hand"
    table = core.table
    at = table.at
    if cell in at:
        return f"{cell_text(cell)} already holds {at[cell]}"
    if cell not in table.frontier:
        return f"{cell_text(cell)} touches no card: a card must touch a card on the table orthogonally (rule 7)"
    if accepts(table.frontier[cell], card):
        return f"write it as '{card} @ {cell_text(cell)}'"
    neighbours = [at[n] for n in around(*cell) if n in at]
    values = [VALUE[c.rank] for c in neighbours]
    same = "cards of one suit" if core.alike else f"only {card.suit} cards"
    return (
        f"{card} at {cell_text(cell)} touches {' '.join(str(c) for c in neighbours)}: it must touch {same} "
        f"or have a value from {min(values)} to {max(values)} (rule 8)"
    )


def _why_not_score(core: CardcassonneState, suit: str, cell: Cell) -> str:
    if core.phase == "play":
        return "areas are scored after you play a card (rule 6, step c)"
    if core.phase == "token":
        return "decide on the token first: 'token' or 'no token'"
    at = core.table.at
    if cell not in at:
        return f"there is no card at {cell_text(cell)}"
    area = core.table.areas[cell]
    card = at[cell]
    if suit != card.suit:
        return f"the card at {cell_text(cell)} is {card}, a {card.suit} card"
    holders = sorted(c for c in area.cells if c in core.token_cells)
    if not holders:
        return f"the {suit} area at {cell_text(cell)} holds no token (rule 15)"
    if not area.partial:
        return (
            f"the {suit} area at {cell_text(cell)} has {len(area.open)} open cells for {len(area.cells)} cards: "
            "it is not partially complete (rule 11)"
        )
    return f"name that area by its first token: 'score {suit} area at {cell_text(holders[0])}'"
