"""Card-cassonne in words: the log entry of an action, why an action is not legal now, and a legal move said as a
suggestion (``move_words``). A place on the table is named by a card beside it ("below the 3♣"), never by its
grid cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...core import Action
from ...words import Entry, listed
from .board import VALUE, Cell, accepts, around
from .notation import NOTATION, Play, ScoreArea, TokenChoice
from .state import CardcassonneState


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
        phrases.append(_phrase(seat, text, told, before, after))
        for key, value in told.items():
            if key == "scored":
                facts.setdefault("scored", []).extend(value)
            else:
                facts[key] = value
    return Entry(seat, f"{{{seat}}} " + "; ".join(phrases), facts)


def _phrase(seat: int, text: str, told: Mapping[str, Any], before: CardcassonneState,
            after: CardcassonneState) -> str:
    """One event of a turn in words, from its facts (the rules' own text where it names no place or number)."""
    if "cell" in told and "card" in told:
        if before.phase == "play":
            return f"{{{seat}:plays}} {told['card']} {place_words(before.table.at, tuple(told['cell']))}"
        return f"{{{seat}:places}} a token on {told['card']}"
    if "completed" in told:
        count = told["completed"]
        return f"{{{seat}:completes}} {count} area{'s' if count != 1 else ''} for {told['bonus']} bonus points"
    if "scored" in told:
        area = told["scored"][0]
        size = len(area["cells"])
        gains = [f"{{{s}}} {{{s}:gets}} {p}" for s, p in enumerate(area["points"]) if p]
        return (f"{{{seat}:scores}} the {area['suit']} area of the {after.table.at[tuple(area['cell'])]}, {size} "
                f"card{'s' if size != 1 else ''}: " + listed(gains))
    if "over" in told:
        bonus = [f"{{{s}}} {{{s}:gets}} {b}" for s, b in enumerate(told["end_bonus"]) if b]
        return f"the game is over; face-card bonus: {listed(bonus)}" if bonus else "the game is over"
    return text


SIDES = ((-1, 0, "to the right of"), (1, 0, "to the left of"), (0, -1, "below"), (0, 1, "above"))
"""Where a cell is beside a neighbour (dx, dy from the cell to the neighbour; the grid's y grows downward)."""


def place_words(at: Mapping[Cell, Card | str], cell: Cell) -> str:
    """A cell named by a card beside it: ``below the 3♣``; ``away from every card`` with none (``in the middle
    of the table`` on an empty table)."""
    x, y = cell
    for dx, dy, side in SIDES:
        card = at.get((x + dx, y + dy))
        if card is not None:
            return f"{side} the {card}"
    return "away from every card" if at else "in the middle of the table"


def why_illegal(core: CardcassonneState, action: Action) -> str:
    """Why a well-written action that is not legal now is refused (the game is not over)."""
    if isinstance(action, Play):
        return _why_not_play(core, action)
    if isinstance(action, TokenChoice):
        if core.phase == "play":
            return "a token goes only on the card just played: play a card first"
        return "the token step is over: score areas or finish your turn"
    if isinstance(action, ScoreArea):
        return _why_not_score(core, action.suit, (action.x, action.y))
    if core.phase == "play":
        return "play a card first: there is no passing"
    return "decide on the token first: place one or not"


def _why_not_play(core: CardcassonneState, action: Play) -> str:
    card, cell = action.card, (action.x, action.y)
    if core.phase == "token":
        return "you have played your card: now place a token on it, or not"
    if core.phase == "score":
        return "you have played your card: now score areas or finish your turn"
    if card.is_joker:
        return "Card-cassonne uses no jokers"
    if card not in core.hands[core.turn]:
        return f"{card} is not in your hand"
    table = core.table
    at = table.at
    if cell in at:
        return f"that place already holds the {at[cell]}"
    if cell not in table.frontier:
        return "that place touches no card: a card must touch a card on the table above, below or beside it"
    if accepts(table.frontier[cell], card):
        return f"the {card} may go there: choose it in your hand first"
    neighbours = [at[n] for n in around(*cell) if n in at]
    values = [VALUE[c.rank] for c in neighbours]
    same = "cards of one suit" if core.alike else f"only {card.suit} cards"
    low, high = min(values), max(values)
    between = f"a value of {low}" if low == high else f"a value from {low} to {high}"
    return (
        f"there the {card} would touch {listed([str(c) for c in neighbours])}: it must touch {same} "
        f"or have {between}"
    )


def _why_not_score(core: CardcassonneState, suit: str, cell: Cell) -> str:
    if core.phase == "play":
        return "areas are scored after you play a card"
    if core.phase == "token":
        return "decide on the token first: place one or not"
    at = core.table.at
    if cell not in at:
        return "there is no card there"
    area = core.table.areas[cell]
    card = at[cell]
    if suit != card.suit:
        return f"that card is the {card}, a {card.suit} card"
    holders = sorted(c for c in area.cells if c in core.token_cells)
    if not holders:
        return f"the {suit} area of the {card} holds no token"
    if not area.partial:
        return (
            f"the {suit} area of the {card} has {len(area.open)} open places for {len(area.cells)} cards: "
            "it is not partially complete"
        )
    return f"score that area by the card with its first token, the {at[holders[0]]}"


def move_words(facts: Mapping[str, Any], at: Mapping[Cell, Card | str]) -> str:
    """A legal move said to the player who may make it, from its facts and the cards on the table by cell:
    ``play the 7♡ below the 3♣``."""
    kind = facts["kind"]
    if kind == "play":
        return f"play the {facts['card']} {place_words(at, (facts['x'], facts['y']))}"
    if kind == "score":
        return f"score the {facts['suit']} area of the {facts['card']}"
    said = {"token": "place a token on the card you just played", "no-token": "place no token",
            "done": "score no more areas and finish your turn"}
    return said.get(kind, str(kind))
