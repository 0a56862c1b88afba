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

load_all()

GAMES: Mapping[str, GameInfo] = MappingProxyType({gid: rules.info for gid, rules in core._REGISTRY.items()})
"""The registered games keyed by id, each with its metadata (title, players, options, rules version)."""
