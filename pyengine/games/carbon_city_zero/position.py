"""Carbon City Zero positions: none can be described yet (the rules page has no figures), so every description
is refused in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import OptionValue
from .state import CarbonCityZeroState


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> CarbonCityZeroState:
    """Refuse ``position``: Carbon City Zero has no position format yet (a game starts from its deal)."""
    raise ValueError("Carbon City Zero has no loadable positions: a game starts from its deal")
