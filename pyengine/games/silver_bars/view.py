"""What each seat sees of a 100 Silver Bars game.

Rule numbers are those of the game's rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

from typing import Any

from .actions import ROLE, token
from .rules import LOCKS, MAX_ROUNDS, TARGET, SilverCore, Vault, round_points
from .words import NAME, SilverBarsWords


class SilverBars(SilverBarsWords):
    """100 Silver Bars as the site plays it: the rules, their words and the view."""

    # -- the view ----------------------------------------------------------------------------------
    def view(self, core: SilverCore, seat: int | None) -> dict[str, Any]:
        pending = core.pending
        last = core.last
        hand = core.hands[seat] if seat is not None else None
        return {
            "round": core.round,
            "max_rounds": MAX_ROUNDS,
            "target": TARGET,
            "dealer": core.dealer,
            "match": list(core.totals),
            "round_scores": [round_points(core.vaults[s]) for s in (0, 1)],
            "vaults": [_vaults_json(core.vaults[s]) for s in (0, 1)],
            "locks_left": [LOCKS - sum(v.locked for v in core.vaults[s]) for s in (0, 1)],
            "strike": list(core.strike),
            "draw_count": len(core.draw),
            "discard": [str(c) for c in core.discard],
            "discard_count": len(core.discard),
            "discard_top": str(core.discard[-1]) if core.discard else None,
            "hand_counts": [len(h) for h in core.hands],
            "hand": None if hand is None else [str(c) for c in hand],
            "hand_roles": None if hand is None else [_role_json(token(c)) for c in hand],
            "pending": None if pending is None else {
                "thief": pending.thief,
                "thief_name": NAME[pending.thief],
                "choices": list(pending.choices),
                "carry": None if pending.carry is None else str(pending.carry),
                "from": None if pending.source < 0 else pending.source,
            },
            "last_round": None if last is None else {
                "round": last.number,
                "points": list(last.points),
                "reason": last.reason,
                "vaults": [_vaults_json(last.vaults[s]) for s in (0, 1)],
            },
        }


def _role_json(tok: str) -> dict[str, str]:
    """A hand card's token (as in the moves' facts), role word and name."""
    return {"token": tok, "role": ROLE[tok], "name": NAME[tok]}


def _vaults_json(row: tuple[Vault, ...]) -> list[dict[str, Any]]:
    return [
        {"cards": [str(c) for c in v.cards], "roles": [ROLE[token(c)] for c in v.cards],
         "rubble": None if v.rubble is None else str(v.rubble), "locked": v.locked, "silver": v.silver}
        for v in row
    ]
