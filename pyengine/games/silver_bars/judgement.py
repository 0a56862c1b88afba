"""100 Silver Bars' judgement: how good a position looks from one seat's view, and what a card in hand is worth
keeping. Shared by the computer's search (``SilverBarsRules.judgement``) and the rule-based yardstick
(``tests/bench/rulebased.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import Action, Core, Rules
from ...estimate import seen

SILVER = {"A": 1, "2": 2, "3": 3, "4": 4, "6": 6}
"""Bars of silver per rank."""
MINERS = {"7", "8", "9", "10"}


def vault_silver(vault: dict[str, Any]) -> int:
    """The silver in a vault, every bar counted (a locked vault scores them all)."""
    cards = zip(vault["cards"], vault["roles"], strict=True)
    return sum(SILVER.get(card[:-1], 0) for card, role in cards if role == "silver")


def lockable(view: dict[str, Any], side: int) -> int:
    """How many of ``side``'s vaults could be locked now (unlocked, silver on top)."""
    return sum(1 for v in view["vaults"][side] if not v["locked"] and v["roles"] and v["roles"][-1] == "silver")


def worths(view: dict[str, Any]) -> list[float]:
    """Each side's silver banked and locked, plus unlocked silver at a discount (more when a miner covers it, since
    it needs a richer bar before it can be locked, and more as the draw pile runs out), plus a miner on top (it lets
    a richer bar follow); rubble on one's vault and a strike in front of one cost."""
    left = min(1.0, view["draw_count"] / 30)
    worth = []
    for side in range(2):
        total = float(view["scores"][side]) + view["round_scores"][side]
        for vault in view["vaults"][side]:
            if vault["locked"]:
                continue
            roles = vault["roles"]
            covered = bool(roles) and roles[-1] == "miner"
            total += vault_silver(vault) * (0.35 if covered else 0.7) * (0.5 + 0.5 * left)
            if covered and vault["silver"] < 6:
                total += 1.0 * left
            if vault["rubble"]:
                total -= 2.0 * left
        if view["strike"][side]:
            total -= 2.5
        worth.append(total)
    return worth


def value(view: dict[str, Any], seat: int) -> float:
    """The seat's :func:`worths` against the other side's."""
    worth = worths(view)
    return float(worth[seat] - worth[1 - seat])


def hold(token: str, view: dict[str, Any], seat: int) -> float:
    """What a card in hand is worth keeping (the least of these is the one to discard)."""
    mine = view["vaults"][seat]
    if token in SILVER:
        return 0.5 * SILVER[token]
    if token in MINERS:
        return 1.2 if any(v["roles"] and v["roles"][-1] == "silver" and not v["locked"] for v in mine) else 0.6
    if token == "shovel":
        return 1.0 if any(v["rubble"] for v in mine) else 0.2
    return {"rubble": 1.5, "lo-thief": 2.0, "hi-thief": 3.0, "strike": 2.5}.get(token, 1.0)


def urgent(view: dict[str, Any], seat: int) -> bool:
    """Late: the draw pile runs low, or the rival has no more locks left to place than the seat has vaults to
    lock before the rival's fifth lock ends the round."""
    return bool(view["draw_count"] <= 14 or view["locks_left"][1 - seat] - 1 <= lockable(view, seat))


def lock_bias(facts: dict[str, Any], view: dict[str, Any], seat: int) -> float | None:
    """A lock's bias, or None when it is no lock to place now: lock late or full, a 6-topped vault early; the
    fifth lock only when ahead (or when the rival could end the round first)."""
    vault = view["vaults"][seat][facts["vault"]]
    bars = vault_silver(vault)
    late = urgent(view, seat)
    if not (vault["silver"] == 6 or bars >= 10 or late):
        return None
    if view["locks_left"][seat] == 1:
        mine = view["scores"][seat] + view["round_scores"][seat] + bars
        theirs = view["scores"][1 - seat] + view["round_scores"][1 - seat] + 0.5 * sum(
            vault_silver(v) for v in view["vaults"][1 - seat] if not v["locked"])
        rival_ends = view["locks_left"][1 - seat] == 1 and lockable(view, 1 - seat) > 0
        if mine <= theirs and not rival_ends and view["draw_count"] > 14:
            return None
    return 3.0 if late else 0.0


def plan_bias(rules: Rules, core: Core, seat: int) -> Callable[[Action], float]:
    """What a first action of the seat's turn is worth beside the judgement of where its turn ends: a lock by
    :func:`lock_bias` (never one that is not due), any other card less what it was worth in hand (:func:`hold`), a
    strike less more when the rival has no miner on top to hit. The rule-based player adds it to its plans."""
    view = seen(rules, core, seat)

    def bias(action: Action) -> float:
        facts = rules.facts(core, action)
        kind = facts["kind"]
        if kind == "lock":
            lock = lock_bias(facts, view, seat)
            return -1000.0 if lock is None else lock
        token = facts.get("token")
        if token is None:
            return 0.0
        if kind == "strike" and not any(
                v["roles"] and v["roles"][-1] == "miner" and not v["locked"] for v in view["vaults"][1 - seat]):
            return -hold(token, view, seat) - 2.0  # nothing to hit: keep it for a better moment
        return -hold(token, view, seat)

    return bias
