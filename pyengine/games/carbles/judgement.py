"""Carbles' judgement: how good a position looks from one seat's view. One function, shared by the computer's
search (``CarblesRules.judgement``) and the rule-based yardstick (``tests/bench/rulebased.py``)."""

from __future__ import annotations

from typing import Any

from ...estimate import lead

KEEP_FOR_LOT = {"A": 6.0, "K": 6.0, "Jk": 6.0}
"""A card that brings a marble out, worth keeping while own marbles wait in the lot."""
CARD_USE = {"7": 3.0, "4": 2.0, "J": 2.0, "A": 1.5, "K": 1.5, "Jk": 1.0}
"""What a card in hand is worth otherwise (any other rank 1)."""


def rank(card: str) -> str:
    """A card's rank (``Jk`` for a joker)."""
    return card if card == "Jk" else card[:-1]


def reach(ahead: int) -> float:
    """The chance that a rival holds a card moving one marble exactly ``ahead`` spaces forward (a 7 reaches any
    distance up to 7; no card moves exactly 4 forward)."""
    if not 1 <= ahead <= 13:
        return 0.0
    single = 0.0 if ahead == 4 else 0.3
    return single + (0.15 if ahead <= 7 else 0.0)


def _ring(view: dict[str, Any]) -> dict[int, int]:
    """Each occupied track space and its marble's owner."""
    ring: dict[int, int] = {}
    for p, places in enumerate(view["marbles"]):
        for place in places:
            if "track" in place:
                ring[place["track"]] = p
    return ring


def _risk(view: dict[str, Any], ring: dict[int, int], p: int, space: int) -> float:
    """How likely player ``p``'s marble on ``space`` is lost before it moves: reached by a rival's marble with one
    card, or sitting on a rival's home while that rival has marbles in the lot (a marble on its own home is safe,
    rule 8)."""
    size, homes, lots = view["track_size"], view["homes"], view["lots"]
    if space == homes[p]:
        return 0.0
    risk = 0.0
    for q in range(view["players"]):
        if q != p and space == homes[q] and lots[q] > 0:
            risk = max(risk, 0.5)  # an A, K or joker brings the owner out onto it
    for other, q in ring.items():
        if q != p:
            risk = max(risk, reach((space - other) % size), 0.3 * ((other - space) % size == 4))
    return risk


def _worth(view: dict[str, Any], ring: dict[int, int], p: int, seat: int) -> float:
    """Player ``p``'s marbles: out of the lot, spaces run, a goal slot worth most (deeper is better), less risk."""
    size, homes = view["track_size"], view["homes"]
    places = view["marbles"][p]
    goal = {place["goal"][1] for place in places if "goal" in place}
    total = 0.0
    for place in places:
        if "goal" in place:  # a marble short of an empty slot blocks the way in
            slot = place["goal"][1]
            total += size + 20 + 6 * slot - 5 * sum(1 for deeper in range(slot + 1, 4) if deeper not in goal)
        elif "track" in place:
            space = place["track"]
            marble = 11 + (space - homes[p]) % size
            weight = 1.0 if p == seat else 0.3  # the seat's own marbles face the next turns first
            total += marble * (1 - _risk(view, ring, p, space) * weight)
    return total


def value(view: dict[str, Any], seat: int) -> float:
    """Marble progress against the best other side (partners together), less the risk to own marbles, plus the
    cards kept in hand: A, K and jokers are kept while own marbles wait in the lot."""
    ring = _ring(view)
    worth = [_worth(view, ring, p, seat) for p in range(view["players"])]
    teams = view.get("teams")
    if teams:  # partners: a side's marbles together
        side = next(i for i, team in enumerate(teams) if seat in team)
        result = lead([sum(worth[m] for m in team) for team in teams], side)
    else:
        result = lead(worth, seat)
    waiting = view["lots"][seat] > 0
    for card in view["hand"] or []:
        r = rank(card)
        result += KEEP_FOR_LOT[r] if waiting and r in KEEP_FOR_LOT else CARD_USE.get(r, 1.0)
    return result
