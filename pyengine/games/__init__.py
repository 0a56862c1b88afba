"""The games, one package each; each registers its rules with :func:`pyengine.core.register`.

Every game package is built one way (``docs/adding-a-game.md``): :data:`PACKAGE_MODULES` in it, the
``<Game>Rules`` class of its ``rules`` module registered as its ``RULES``, over its ``<Game>State``.
:data:`GAME_MODULES` is the one list of games: adding a game means adding its package and naming it
here (the site's registry, ``web/cardtable_web/registry.py``, adds its renderer). A game's package is
imported only when the game is first needed, so a page that plays one game imports one engine.
"""

from __future__ import annotations

import importlib
import pkgutil

GAME_MODULES = {
    "carbondale": "carbondale",
    "silver-bars": "silver_bars",
    "carbles": "carbles",
    "cardcassonne": "cardcassonne",
    "carbon-city-zero": "carbon_city_zero",
}
"""Each game's id and its package, in the order the lobby lists them (the order of the original rules documents)."""

PACKAGE_MODULES = ("rules", "notation", "words", "view", "position", "state", "lessons")
"""The modules every game package has: its rules class, its actions' notation, its log entries and refusals, a
seat's view (with the facts of an action and the named positions), a state from a described position (and the
position written back), its ``<Game>State`` with the mechanics the rules read, and its lesson."""

JUDGEMENT = "judgement"
"""The module of a game's judgement (``Rules.judgement``: how good a position looks from one seat's view, which the
rule-based yardstick plays by and the search ranks its root by). A game without one says so in its package:
``JUDGEMENT = None`` beside a docstring saying why."""

COMMAND_LINE = ("pyengine.__main__", "pyengine.simulate")
"""The engine's modules that only the command line imports (never a page)."""


def load(game_id: str) -> None:
    """Import one game's package (it registers itself)."""
    importlib.import_module(f"{__name__}.{GAME_MODULES[game_id]}")


def preload() -> list[str]:
    """Every engine module a page may import, by name, sorted: the modules found by walking the ``pyengine``
    package (each game's package and modules among them, so a new game needs no list), less
    :data:`COMMAND_LINE`. The build's snapshot (``snapshot.mjs``) imports them ahead of time."""
    import pyengine

    found = {"pyengine"}
    for module in pkgutil.walk_packages(pyengine.__path__, "pyengine."):
        found.add(module.name)
    return sorted(found - set(COMMAND_LINE))
