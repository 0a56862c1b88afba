"""What Carbles players see: the view of a seat, the facts of each legal action (and the action an attempt's
facts describe), the named positions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import Action, NamedPosition
from .board import LOT, MARBLES, SECTOR, entry, finished, home, in_goal
from .notation import NOTATION, Burn, Marble, Move, Pass, Play, Swap, rank_text
from .state import CarblesState, deck_cap, marble_index, owner_for, sides, target

Place = dict[str, Any]
"""A place as the view gives it, a value with one key: ``{"track": space}``, ``{"goal": [player, slot]}`` (a slot
of that player's goal) or ``{"lot": player}`` (that player's lot); spaces, players and slots from 0."""


def place(loc: int, owner: int, players: int) -> Place:
    """Where a marble of ``owner`` at location ``loc`` is, as the view gives it (see :data:`Place`)."""
    size = SECTOR * players
    if loc == LOT:
        return {"lot": owner}
    if loc >= size:
        return {"goal": list(divmod(loc - size, MARBLES))}
    return {"track": loc}


def marble_pair(m: int) -> list[int]:
    """A marble as ``[player, marble]``, both from 0."""
    return [m // MARBLES, m % MARBLES]


def view(core: CarblesState, seat: int | None) -> dict[str, Any]:
    n = core.players
    size = SECTOR * n
    return {
        "track_size": size,
        "sector": SECTOR,
        "homes": [home(p) for p in range(n)],
        "entries": [entry(p, n) for p in range(n)],
        "marbles": [[place(loc, p, n) for loc in core.marbles[MARBLES * p : MARBLES * p + MARBLES]] for p in range(n)],
        "lots": [core.marbles[MARBLES * p : MARBLES * p + MARBLES].count(LOT) for p in range(n)],
        "in_goal": [in_goal(core.marbles, p, n) for p in range(n)],
        "hand": [str(c) for c in core.hands[seat]] if seat is not None else None,
        "hands": [[str(c) for c in h] for h in core.hands] if core.open_hands else None,
        "hand_counts": [len(h) for h in core.hands],
        "draw_count": len(core.deck),
        "discard_count": len(core.discards),
        "discard_top": str(core.discards[-1]) if core.discards else None,
        "discards": [str(c) for c in core.discards],
        "decks_opened": core.decks,
        "deck_cap": deck_cap(n),
        "dealer": core.dealer,
        "starter": core.starter,
        "hand_number": core.hand_number,
        "turn_count": core.turns,
        "seven": (
            {"player": core.turn, "left": core.seven_left, "moved": [marble_pair(m) for m in core.seven_moved]}
            if core.seven_left
            else None
        ),
        "finished": [p for p in range(n) if finished(core.marbles, p, n)],
        "partners": core.partners,
        "open_hands": core.open_hands,
        "teams": [list(t) for t in sides(core)] if core.partners else None,
        "plays_for": [owner_for(core, p) for p in range(n)],
        "capped": core.capped,
    }


def facts(core: CarblesState, action: Play) -> dict[str, Any]:
    """The kind, the card and, for a marble's move, the marble (``[player, marble]``) with where it goes.

    ``from`` and ``to`` are places (:data:`Place`) as in the view's ``marbles`` (a goal slot is in the moving
    marble's own goal); a swap names the ``with`` marble, whose place is ``to``.
    """
    out: dict[str, Any] = {"kind": NOTATION.form_of(action).kind}
    if isinstance(action, Burn):
        out["card"] = str(action.card)
        return out
    out["card"] = rank_text(action.rank)
    if isinstance(action, Pass):
        return out
    m, dest = target(core, action)
    n = core.players
    out["marble"] = marble_pair(m)
    out["from"] = place(core.marbles[m], m // MARBLES, n)
    out["to"] = place(dest, m // MARBLES, n)
    if isinstance(action, Move):
        out["steps"] = action.steps
    elif isinstance(action, Swap):
        out["with"] = marble_pair(marble_index(action.other, core.turn))
    return out



def attempt(core: CarblesState, facts: Mapping[str, Any]) -> Action:
    """The action of an attempt given by the facts :func:`facts` makes: the ``card`` (its rank), the
    ``marble`` and the ``with`` marble as ``[player, marble]`` pairs, the ``steps``."""
    fields = dict(facts)
    if facts.get("kind") != "burn" and "card" in facts:
        fields["rank"] = facts["card"]
    for key, name in (("marble", "marble"), ("with", "other")):
        if key in facts:
            pair = facts[key]
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in pair)):
                said = repr(pair)[:40]
                raise ValueError(f"{key!r} of a move cannot be {said}: it is a [player, marble] pair")
            fields[name] = str(Marble(None if pair[0] == core.turn else pair[0], pair[1]))
    if facts.get("kind") == "back" and "steps" not in fields:
        fields["steps"] = 4
    return NOTATION.from_facts(fields)

POSITIONS = {
    "board": NamedPosition(
        "Six players, some marbles out",
        6,
        {
            "marbles": [
                ["lot", "lot", "t104", "g3"],
                ["t18", "t10", "lot", "lot"],
                [],
                ["t40", "lot", "lot", "lot"],
                ["t60", "t75", "lot", "lot"],
                ["t99", "lot", "lot", "lot"],
            ],
        },
    ),
    "seven": NamedPosition(
        "Two players, a 7 to split",
        2,
        {
            "marbles": [["t3", "t8"], ["t20"]],
            "hands": [["7♠", "2♣"], ["5♡"]],
            "discards": ["K♣"],
            "turn": 0,
            "seed": 1,
        },
    ),
}
"""Positions shown on the rules page: the board (six players, like the original's unrolled board) and the
example of the position format (cards listed, a 7 to split)."""
