"""Turning projected scores into the search's values (for the games' ``evaluate`` hooks), and what a seat sees
as its game's judgement reads it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Core, Rules


def chances(projected: list[float], spread: float, slope: float = 0.25) -> list[float]:
    """Each seat's value in [0, 1] from projected scores.

    Mostly a softmax over the projections at ``spread`` points (the chance of finishing first), plus a
    ``slope`` share of a much flatter curve of each seat's lead over the best other seat: a large lead
    or deficit never saturates, so the search still prefers gaining points when the game looks decided.
    """
    top = max(projected)
    weights = [math.exp((p - top) / spread) for p in projected]
    total = sum(weights)
    values = []
    for seat, (p, w) in enumerate(zip(projected, weights, strict=True)):
        best_other = max(q for s, q in enumerate(projected) if s != seat) if len(projected) > 1 else p
        flat = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (best_other - p) / (4.0 * spread)))))
        values.append((1.0 - slope) * w / total + slope * flat)
    return values


def seen(rules: Rules, core: Core, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees of ``core`` (None: the public view) as a judgement reads it: ``State.view(seat)`` less its
    moves (the shared keys players, seat, current_player, over, scores and winners, then the game's own view)."""
    scores = rules.scores(core)
    current = rules.current_player(core)
    view: dict[str, Any] = {"players": len(scores), "seat": seat, "current_player": current,
                            "over": current is None, "scores": scores,
                            "winners": rules.winners(core) if current is None else []}
    view.update(rules.view(core, seat))
    return view


def lead(values: list[float], seat: int) -> float:
    """The seat's value minus the best other seat's (its value alone when no other seat has one)."""
    return values[seat] - max((v for s, v in enumerate(values) if s != seat), default=0.0)
