"""Carbles' board: a ring of 18 spaces per player, each player's home and goal entry on it, and four goal
slots per player.

Rule numbers are those of the game's rules page. Locations are small integers:

- ``LOT`` (-1): in its owner's lot;
- ``0 .. 18N-1``: a track space (player p's home is 18p, its goal entry 18p-2);
- ``18N + 4p + k``: slot k (0-3) of player p's goal (only p's own marbles ever go there).

Marble ``4p + i`` is player p's marble ``m{i+1}``; marbles keep their number for the whole game.
"""

from __future__ import annotations

from collections.abc import Mapping

SECTOR = 18
"""Track spaces per player (rule 2)."""
MARBLES = 4
"""Marbles per player (rule 1), and goal spaces per player (rule 3)."""
LOT = -1


# ----------------------------------------------------------------------------------- the board


def home(p: int) -> int:
    """H(p) = 18p (rule 2)."""
    return SECTOR * p


def entry(p: int, players: int) -> int:
    """E(p) = 18p - 2 mod 18N (rule 3)."""
    return (SECTOR * p - 2) % (SECTOR * players)


def goal(p: int, slot: int, players: int) -> int:
    return SECTOR * players + MARBLES * p + slot


def occupancy(marbles: tuple[int, ...]) -> dict[int, int]:
    """Which marble is on each occupied location."""
    occ = dict(zip(marbles, range(len(marbles)), strict=True))
    occ.pop(LOT, None)
    return occ


def home_blocked(space: int, occ: Mapping[int, int]) -> bool:
    """Rule 5: a home holding its owner's marble cannot be entered, forward or back."""
    if space % SECTOR:
        return False
    there = occ.get(space)
    return there is not None and there // MARBLES == space // SECTOR


def forward(loc: int, owner: int, occ: Mapping[int, int], players: int) -> list[int]:
    """Where one forward step can take ``owner``'s marble from ``loc`` (rules 4-6)."""
    size = SECTOR * players
    if loc >= size:
        slot = (loc - size) % MARBLES
        return [loc + 1] if slot < MARBLES - 1 and loc + 1 not in occ else []
    nxt = loc + 1 if loc + 1 < size else 0
    out = [] if home_blocked(nxt, occ) else [nxt]
    if loc == entry(owner, players):
        g0 = goal(owner, 0, players)
        if g0 not in occ:
            out.append(g0)
    return out


def destinations(loc: int, owner: int, steps: int, occ: Mapping[int, int], players: int) -> list[int]:
    """Every end of exactly ``steps`` (at most 13) forward steps; one per distinct path (rule 10).

    The same as taking :func:`forward` step by step, computed directly: within 13 steps a path
    meets at most one home and at most one goal entry, and no home lies between a marble and
    its goal entry that close (entries are two spaces before homes).
    """
    size = SECTOR * players
    if loc >= size:  # in the goal: only further in, over empty slots
        slot = (loc - size) % MARBLES
        if slot + steps >= MARBLES or any(loc + s in occ for s in range(1, steps + 1)):
            return []
        return [loc + steps]
    out = []
    to_home = SECTOR - loc % SECTOR
    if to_home > steps or not home_blocked((loc + to_home) % size, occ):
        out.append((loc + steps) % size)
    to_entry = (entry(owner, players) - loc) % size
    inside = steps - to_entry - 1  # the goal slot reached by turning in at the entry
    if 0 <= inside < MARBLES:
        first = goal(owner, 0, players)
        if not any(first + s in occ for s in range(inside + 1)):
            out.append(first + inside)
    return out


def landing(loc: int, owner: int, steps: int, into_goal: bool, players: int) -> int:
    """Where ``steps`` forward steps from ``loc`` end, on round the ring or into the goal (legal moves only)."""
    size = SECTOR * players
    if loc >= size:
        return loc + steps
    if into_goal:
        return goal(owner, 0, players) + steps - (entry(owner, players) - loc) % size - 1
    return (loc + steps) % size


def back_destination(loc: int, occ: Mapping[int, int], players: int) -> int | None:
    """Where a 4 takes a track marble: 4 steps back, never into a goal (rules 7, 11)."""
    size = SECTOR * players
    for _ in range(4):
        loc = loc - 1 if loc else size - 1
        if home_blocked(loc, occ):
            return None
    return loc


def in_goal(marbles: tuple[int, ...], p: int, players: int) -> int:
    """How many of player ``p``'s marbles are in their goal (goal places come after the track's)."""
    size = SECTOR * players
    return len([loc for loc in marbles[MARBLES * p : MARBLES * p + MARBLES] if loc >= size])


def finished(marbles: tuple[int, ...], p: int, players: int) -> bool:
    """Rule 20: all of player ``p``'s marbles are in their goal."""
    return min(marbles[MARBLES * p : MARBLES * p + MARBLES]) >= SECTOR * players


def partner(p: int, players: int) -> int:
    """Rule 21."""
    return (p + players // 2) % players
