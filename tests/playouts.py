"""Random playouts used by the generic tests (not a test module)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pyengine
from pyengine import State


def player_counts(game_id: str) -> list[int]:
    info = pyengine.GAMES[game_id]
    counts = list(range(info.min_players, info.max_players + 1))
    if len(counts) > 4:  # the first two, one between and the last are enough per run (the soak plays them all)
        counts = sorted({counts[0], counts[1], counts[len(counts) // 2], counts[-1]})
    return counts


def valid_options(game_id: str, players: int, rnd: random.Random) -> dict[str, object]:
    """A random choice of option values that the game accepts for this player count."""
    info = pyengine.GAMES[game_id]
    for _ in range(50):
        options = {o.name: rnd.choice(o.choices) for o in info.options}
        if info.allowed_players(players, options) is None:
            return options
    return {}


def playout(state: State, rnd: random.Random, limit: int) -> Iterator[State]:
    """Yield every state of a random playout from ``state`` (at most ``limit`` actions)."""
    yield state
    for _ in range(limit):
        actions = state.legal_actions()
        if not actions:
            return
        state = state.apply(rnd.choice(actions))
        yield state


def play_on(state: State, rnd: random.Random, limit: int) -> State:
    """The state after at most ``limit`` random actions from ``state``."""
    *_, last = playout(state, rnd, limit)
    return last
