"""The site's one list of games: each game's renderer, stylesheet and rules page.

A game plugs into the site here and nowhere else (its engine is listed in
``pyengine.games.GAME_MODULES``). The generic tests check that this list and the
engine's registry name the same games and that every file named here exists.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pyengine.core import rules_for


@dataclass(frozen=True)
class SiteGame:
    """How the site shows one game."""

    id: str
    renderer: str
    """The renderer module under ``cardtable_web.renderers``: ``render(view, selection) -> str``."""
    stylesheet: str
    """The game's stylesheet, relative to the site's root."""
    rules_page: str
    """The game's rules page (an HTML fragment), relative to the site's root."""
    picture: str
    """The named position the lobby shows as the game's picture (:mod:`cardtable_web.pictures`)."""
    def open_information(self, options: Mapping[str, Any]) -> bool:
        """Whether nothing that matters is hidden with these options, so an address can be passed between
        players: the game's rules say (``Rules.open_information``)."""
        return rules_for(self.id).open_information(options)

    def render_module(self) -> ModuleType:
        return importlib.import_module(f"cardtable_web.renderers.{self.renderer}")


def _game(game_id: str, renderer: str, picture: str) -> SiteGame:
    return SiteGame(game_id, renderer, f"web/styles/{game_id}.css", f"web/rules/{game_id}.html", picture)


SITE_GAMES: dict[str, SiteGame] = {
    game.id: game
    for game in (
        _game("carbondale", "carbondale", "figure-1"),
        _game("silver-bars", "silver_bars", "lesson-thief"),
        _game("carbles", "carbles", "board"),
        _game("cardcassonne", "cardcassonne", "figure-1"),
        _game("carbon-city-zero", "carbon_city_zero", "lesson-buy"),
    )
}


def site_game(game_id: str) -> SiteGame:
    """The site's entry for a game; ``ValueError`` naming the games there are."""
    if game_id not in SITE_GAMES:
        raise ValueError(f"unknown game {game_id!r}; the games are: {', '.join(SITE_GAMES)}")
    return SITE_GAMES[game_id]


def renderer_for(game_id: str) -> ModuleType:
    """The renderer module of a game."""
    return site_game(game_id).render_module()
