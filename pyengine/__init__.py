"""Card Table's rules engines: pure Python, no dependencies, no I/O.

The contract every game implements is in :mod:`pyengine.core`; the games are in
:mod:`pyengine.games`, one module each; the computer players are in :mod:`pyengine.ai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import core
from .core import GameInfo, IllegalAction, Option, Rules, State, from_json, new_game, replay
from .games import load_all
from .rng import Rng

__all__ = [
    "GAMES",
    "GameInfo",
    "IllegalAction",
    "Option",
    "Rng",
    "Rules",
    "State",
    "from_json",
    "new_game",
    "replay",
]

GAME_ORDER = ("carbondale", "silver-bars", "carbles", "cardcassonne", "carbon-city-zero")
"""The order games are listed in (the order of the seed documents)."""

load_all()


def _games() -> Mapping[str, GameInfo]:
    found = {gid: rules.info for gid, rules in core._REGISTRY.items()}
    order = {gid: i for i, gid in enumerate(GAME_ORDER)}
    return MappingProxyType(dict(sorted(found.items(), key=lambda kv: (order.get(kv[0], 99), kv[0]))))


GAMES: Mapping[str, GameInfo] = _games()
"""The registered games keyed by id, each with its metadata (title, players, options, rules version)."""
