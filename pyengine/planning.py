"""The turn planner: each of a seat's moves judged through the rest of its turn.

It sits below the games and the computer players alike: a game's own AI hooks may plan with it (100 Silver Bars
ranks its plays by it), and :mod:`pyengine.ai` ranks a search's root moves by it. It uses only the contract's
rules and a game's ``judgement`` hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from .core import Action, Core, Rules


def plan_turn(
    rules: Rules, core: Core, seat: int, bias: Callable[[Action], float] | None = None, budget: int = 3000,
) -> list[tuple[float, Action]]:
    """Every legal action of ``seat`` with the game's judgement (``Rules.judgement``) of the best way to finish the
    turn after it, best first (ties in the legal order).

    A line ends when another seat decides or the game ends; past ``budget`` positions a line is judged where it
    stands. ``bias`` adds to a first action's value (what the card it spends was worth in hand). Called on a
    re-dealt core, it sees only the seat's view."""
    seen: dict[Core, float] = {}
    count = 0

    def judged(node: Core) -> float:
        return cast(float, rules.judgement(node, seat))

    def best(node: Core) -> float:
        nonlocal count
        if rules.current_player(node) != seat:
            return judged(node)
        if node in seen:
            return seen[node]
        count += 1
        if count > budget:
            result = judged(node)
        else:
            result = max(best(rules.apply(node, a)) for a in rules.legal_actions(node))
        seen[node] = result
        return result

    scored = [(best(rules.apply(core, a)) + (bias(a) if bias else 0.0), i, a)
              for i, a in enumerate(rules.legal_actions(core))]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(value, action) for value, _, action in scored]
