"""One renderer per game: ``render(view, legal, selection) -> str`` (HTML).

- ``view`` is ``State.view(seat)`` for the seat on screen (plus ``names``: a display
  name per seat), so a renderer can never show what that seat may not see.
- ``legal`` is the legal action texts when that seat decides now, else ``[]``.
- ``selection`` is the token of the last clicked ``data-select`` element (or None).

Every element that performs an action carries ``data-action="<action text>"``; an
element that only narrows the choice (a card in hand before its target) carries
``data-select="<token>"``. Every legal action is reachable by clicking.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def renderer_for(game_id: str) -> ModuleType:
    """The renderer module of a game (module name: the id with ``-`` as ``_``)."""
    return importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")
