"""What each seat sees of a 100 Silver Bars game, and the facts of each action (with the action an attempt's
facts describe); the game has no named positions.

Rule numbers are those of the game's rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ...core import Action, IllegalAction, NamedPosition
from .notation import NOTATION, ROLE, Act, token
from .state import LOCKS, MAX_ROUNDS, TARGET, SilverBarsState, Vault, round_points
from .words import MOVE_NAME, NAME, ON_THEIR_SIDE

POSITIONS: Mapping[str, NamedPosition] = {}
"""Named positions (none yet: the rules page has no figures)."""


def view(core: SilverBarsState, seat: int | None) -> dict[str, Any]:
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


def attempt(core: SilverBarsState, facts: Mapping[str, Any]) -> Action:
    """The action of an attempt given by the facts :func:`facts` makes (the card's ``token``, the vault's
    ``side``); a vault on the wrong side is refused with the reason."""
    fields = dict(facts)
    if "token" in facts:
        fields["tok"] = facts["token"]
    action = cast(Act, NOTATION.from_facts(fields))
    side = facts.get("side")
    if side is not None and action.vault >= 0:
        theirs = action.move in ON_THEIR_SIDE
        if side != (1 - core.turn if theirs else core.turn):
            whose = "your opponent's" if theirs else "your own"
            raise IllegalAction(f"{MOVE_NAME.get(action.move, action.move)} goes on {whose} vaults")
    return action

def facts(core: SilverBarsState, act: Action) -> dict[str, Any]:
    """The move, the card's ``token`` and ``role`` (for card moves), the ``vault`` and its ``side`` (a seat)."""
    action = cast(Act, act)
    move = action.move
    out: dict[str, Any] = {"kind": move}
    tok = action.tok or (move if move in ROLE else "")
    if tok:
        out["token"] = tok
        out["role"] = ROLE[tok]
    if action.vault >= 0:
        out["vault"] = action.vault
        out["side"] = 1 - core.turn if move in ON_THEIR_SIDE else core.turn
    return out


def _role_json(tok: str) -> dict[str, str]:
    """A hand card's token (as in the moves' facts), role word and name."""
    return {"token": tok, "role": ROLE[tok], "name": NAME[tok]}


def _vaults_json(row: tuple[Vault, ...]) -> list[dict[str, Any]]:
    return [
        {"cards": [str(c) for c in v.cards], "roles": [ROLE[token(c)] for c in v.cards],
         "rubble": None if v.rubble is None else str(v.rubble), "locked": v.locked, "silver": v.silver}
        for v in row
    ]
