"""100 Silver Bars positions: none can be described yet (the rules page has no figures), so every description
is refused in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import OptionValue
from .state import SilverBarsState


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> SilverBarsState:
    """Refuse ``position``: 100 Silver Bars has no position format yet (a match starts from its deal)."""
    raise ValueError("100 Silver Bars has no loadable positions: a match starts from its deal")
