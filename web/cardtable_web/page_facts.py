"""What the lobby's script (``web/boot.js``) reads before Python starts, written into the page by the build
(``build.py``): the games and the computer's levels (as ``python -m pyengine games --json`` gives them), each game's
lesson length, and the keys under which the site's storage keeps its entries. Each fact has its home in Python; the
script reads it from the page and never writes it again.

``python -m cardtable_web.page_facts`` prints it as JSON (the build runs it with ``web/`` on the path).
"""

from __future__ import annotations

import json
from typing import Any

import pyengine
from pyengine.ai import levels_json
from pyengine.lessons import lesson_for

from .keeping import HISTORY_KEY, LOBBY_KEY, SAVES_KEY
from .lesson import LESSONS_KEY
from .link_store import LINKS_LOBBY_KEY

STORAGE_KEYS = {"saves": SAVES_KEY, "history": HISTORY_KEY, "lobby": LOBBY_KEY, "lessons": LESSONS_KEY,
                "links": LINKS_LOBBY_KEY}
"""The storage entries the lobby reads before Python is ready, by what they hold."""


def page_facts() -> dict[str, Any]:
    """The lobby's data: ``games`` (each game's description, its ``default_players`` among it, plus
    ``lesson_steps``), ``levels`` and ``storage`` (:data:`STORAGE_KEYS`)."""
    games = [{**info.to_json(), "lesson_steps": len(lesson_for(game).steps)} for game, info in pyengine.GAMES.items()]
    return {"games": games, "levels": levels_json(), "storage": dict(STORAGE_KEYS)}


if __name__ == "__main__":
    print(json.dumps(page_facts(), ensure_ascii=False))
