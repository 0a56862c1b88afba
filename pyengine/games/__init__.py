"""The games, one module (or package) each; each registers its rules with :func:`pyengine.core.register`.

:data:`GAME_MODULES` is the one list of games: adding a game means adding its module and
naming it here (the site's registry, ``web/cardtable_web/registry.py``, adds its renderer).
A game's module is imported only when the game is first needed, so a page that plays one
game imports one engine.
"""

from __future__ import annotations

import importlib

GAME_MODULES = {
    "carbondale": "carbondale",
    "silver-bars": "silver_bars",
    "carbles": "carbles",
    "cardcassonne": "cardcassonne",
    "carbon-city-zero": "carbon_city_zero",
}
"""Each game's id and its module, in the order the lobby lists them (the order of the original rules documents)."""


def load(game_id: str) -> None:
    """Import one game's module (it registers itself)."""
    importlib.import_module(f"{__name__}.{GAME_MODULES[game_id]}")


def load_all() -> None:
    """Import every game module."""
    for game_id in GAME_MODULES:
        load(game_id)
