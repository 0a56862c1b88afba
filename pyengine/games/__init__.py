"""The games, one module (or package) each; each registers its rules with :func:`pyengine.core.register`.

:data:`GAME_MODULES` is the one list of games: adding a game means adding its module and
naming it here (the site's registry, ``web/cardtable_web/registry.py``, adds its renderer).
"""

from __future__ import annotations

import importlib

GAME_MODULES = ("carbondale", "silver_bars", "carbles", "cardcassonne", "carbon_city_zero")
"""The game modules in the order the lobby lists them (the order of the original rules documents)."""


def load_all() -> None:
    """Import every game module (each registers itself)."""
    for module in GAME_MODULES:
        importlib.import_module(f"{__name__}.{module}")
