"""Card Table's rules engines: pure Python, no dependencies, no I/O.

The contract every game implements is in :mod:`pyengine.core`; the games are in :mod:`pyengine.games`, one
package each, built one way (``docs/adding-a-game.md``); the computer players are in :mod:`pyengine.ai`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from . import core
from .core import (
    GameInfo,
    IllegalAction,
    Option,
    Outcome,
    RefusedAction,
    Rules,
    State,
    UnreadableAction,
    from_json,
    new_game,
    replay,
)
from .games import GAME_MODULES
from .rng import Rng

__all__ = [
    "GAMES",
    "GameInfo",
    "IllegalAction",
    "Outcome",
    "RefusedAction",
    "UnreadableAction",
    "Option",
    "Rng",
    "Rules",
    "State",
    "from_json",
    "new_game",
    "replay",
]



class _Games(Mapping[str, GameInfo]):
    """The games by id, in the lobby's order; a game's engine is imported when its metadata is first read."""

    def __getitem__(self, game_id: str) -> GameInfo:
        if game_id not in GAME_MODULES:
            raise KeyError(game_id)
        return core.rules_for(game_id).info

    def __contains__(self, game_id: object) -> bool:
        return game_id in GAME_MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(GAME_MODULES)

    def __len__(self) -> int:
        return len(GAME_MODULES)


GAMES: Mapping[str, GameInfo] = _Games()
"""The games keyed by id, each with its metadata (title, players, options, rules version)."""
