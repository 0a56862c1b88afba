"""Turning projected scores into the search's values (for the games' ``evaluate`` hooks)."""

from __future__ import annotations

import math


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
