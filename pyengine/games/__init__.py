"""One module per game. Each registers its rules with :func:`pyengine.core.register` on import.

Modules are discovered, so adding a game means adding its module here and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> None:
    """Import every game module in this package (each registers itself)."""
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        if not module.startswith("_"):
            importlib.import_module(f"{__name__}.{module}")
