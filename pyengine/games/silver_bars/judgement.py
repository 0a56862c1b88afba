"""100 Silver Bars' judgement: how good a position looks from one seat's view, and what a card in hand is worth
keeping. Shared by the computer's search (``SilverBarsRules.judgement``) and the rule-based yardstick
(``tests/bench/rulebased.py``)."""

from __future__ import annotations

from typing import Any

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


def value(view: dict[str, Any], seat: int) -> float:
    """Silver banked and locked, plus unlocked silver at a discount (more when a miner covers it, since it needs
    a richer bar before it can be locked, and more as the draw pile runs out), plus a miner on top (it lets a
    richer bar follow); rubble on one's vault and a strike in front of one cost."""
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
