"""What a seat, or an onlooker, is told of a move: the one rule for anything about a move that leaves the engine.

Everyone is told the move's public log entry: who moved, its words (seat placeholders, see
:mod:`pyengine.words`) and its public facts, which every game writes to reveal nothing hidden
(:meth:`pyengine.core.Rules.describe`). The mover alone is also told the action itself and its full facts
(its own cards: a card discarded face down is the mover's to know, nobody else's). The page's log, an embed's
events and a message to another device are all made from :func:`told`.
"""

from __future__ import annotations

from typing import Any

from .core import State


def told(after: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: an onlooker) is told of the move that made ``after``.

    ``{"seat": the mover, "text": the log entry with placeholders, "facts": its public facts}``, and for the
    mover ``"action"`` (the action's text) and ``"own_facts"`` (what the action does, as the mover's view
    offered it). ``ValueError`` at the start of a game (no move yet).
    """
    before = after.history_parent()
    entry = after.entry()
    if before is None or entry is None:
        raise ValueError("no move has been played yet")
    mover = before.current_player
    told_now: dict[str, Any] = {"seat": mover, "text": entry.text, "facts": dict(entry.facts)}
    if seat is not None and seat == mover:
        steps = after.steps_since(before)
        assert steps is not None and len(steps) == 1
        action = steps[0][1]
        told_now["action"] = before.rules.notation.write(action)
        told_now["own_facts"] = before.rules.facts(before.core, action)
    return told_now
