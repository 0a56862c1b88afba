"""The one table of per-game test settings: what the tests, the browser tests and the benchmarks need to know of a
game beyond its registration (``pyengine.GAMES`` and the site's ``SITE_GAMES``).

Every test and benchmark that goes through the games reads :data:`GAME_IDS` (the registry, in the lobby's order)
and, for what only a person who knows the game can say, :func:`settings`. ``tests/test_game_packages.py`` fails for
a registered game without an entry here; a field left out takes its default, drawn from the game's player counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyengine

GAME_IDS: list[str] = list(pyengine.GAMES)
"""Every registered game, in the lobby's order."""


@dataclass(frozen=True)
class GameTests:
    """One game's test settings (the game's own knowledge; nothing here repeats the registry)."""

    hand: str
    """The CSS selector of the human's hand on the table (the browser's layout test)."""
    refusal: tuple[dict[str, object], str]
    """An attempt (by its facts) that is refused at the start of a two-seat game against the computer, and a few
    words of the reason the engine gives ("" when any reason will do)."""
    choose_first: str | None = None
    """The hand's cards to choose before the table shows where they go (None: the hand's moves are its own)."""
    end_turn: str | None = None
    """The control that ends a turn, where a game has one."""
    hand_cards: str | None = None
    """The hand's cards, when they are not ``choose_first``'s (each must lie between the screen's sides)."""
    counts: tuple[int, ...] = ()
    """The player counts the wide tests play (default: the fewest, two, and the most the game takes)."""
    bench_counts: tuple[int, ...] = ()
    """The table sizes the engine benchmark measures (default: ``counts``)."""
    strength_counts: tuple[int, ...] = ()
    """The table sizes the strength benchmark measures by default (default: the fewest and the next)."""
    controller: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Whole games through the controller: (players, the computer's seats) (default: two seats, one computer)."""
    seed: int = 3
    solo_link: bool = False
    """Whether :meth:`link` opens a game played alone rather than one against the computer."""
    """A deal of a two-seat game against the computer (seat 1) that the browser tests open."""
    glance_seed: int | None = 1
    """A deal where the computer (seat 0, easy) moves before the human (seat 1), for the browser's glance test of
    the computer's outlined last move; None for a game that marks it otherwise (said where it is set)."""
    crowded: int | None = 4
    """The larger table the layout test also opens (default 4 seats, or the most the game takes when fewer; None
    where the game's own layout test opens a larger one)."""
    overlap: tuple[int, int] = (2, 30)
    """The overlap test's table: (players, moves played before it is looked at)."""
    keys: tuple[int, int] = (3, 4)
    """The keyboard test's game: (seed, moves left before the end when the keys take over)."""
    revealed: frozenset[str] = field(default_factory=frozenset)
    """Move kinds whose rules show a card from a hand to everyone (besides the card a move plays face up)."""
    quick_start: bool = True
    """Whether the rule-based player plays the start of a browser test's game (it answers in milliseconds); where
    it weighs every way through a turn, a second a move late in a game, random moves play it instead."""

    def players(self, game: str) -> tuple[int, ...]:
        """The player counts the wide tests play."""
        info = pyengine.GAMES[game]
        return self.counts or tuple(sorted({info.min_players, min(max(2, info.min_players), info.max_players),
                                            info.max_players}))

    def two(self, game: str) -> int:
        """The smallest table of two or more seats the game takes (its fewest when it takes no more)."""
        info = pyengine.GAMES[game]
        return min(max(2, info.min_players), info.max_players)

    def link_players(self, game: str) -> int:
        """The seats of :meth:`link`'s game."""
        return 1 if self.solo_link and pyengine.GAMES[game].min_players == 1 else self.two(game)

    def link(self, game: str) -> str:
        """The lobby's query of a game against the computer: every seat but the first a computer."""
        players = self.link_players(game)
        bots = ",".join(str(seat) for seat in range(1, players))
        return f"players={players}&seed={self.seed}" + (f"&bots={bots}" if bots else "")

    def crowded_players(self, game: str) -> int | None:
        """The larger table of the layout test, when it is larger than :meth:`link_players`'s."""
        if self.crowded is None:
            return None
        players = min(self.crowded, pyengine.GAMES[game].max_players)
        return players if players > self.link_players(game) else None

    def games(self, game: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The controller's whole games."""
        return self.controller or ((self.two(game), (1,)),)


SETTINGS: dict[str, GameTests] = {
    "carbondale": GameTests(
        hand=".cb-hand", choose_first=".cb-hand [data-select]", end_turn=".cb-buttons [data-action]",
        refusal=({"kind": "contribute", "card": "5♣"}, "contribute"),
        counts=(2, 3, 4), bench_counts=(2, 4), strength_counts=(2, 3),
        controller=((2, (1,)), (3, (1, 2))), seed=3, glance_seed=1, overlap=(2, 40),
        revealed=frozenset({"claim", "defend"}),
    ),
    "silver-bars": GameTests(
        hand=".sb-hand", choose_first=".sb-hand [data-select]",
        refusal=({"kind": "lock", "vault": 0, "side": 0}, "your leftmost vault"),
        counts=(2,), strength_counts=(2,), controller=((2, (1,)), (2, ())), seed=7, glance_seed=3, keys=(3, 4),
    ),
    "carbles": GameTests(
        hand=".cbl-hand-area", choose_first=".cbl-hand-area [data-select]",
        refusal=({"kind": "burn", "card": "9♠"}, ""),
        counts=(1, 2, 4, 12), bench_counts=(2, 6, 12), strength_counts=(2, 4),
        controller=((2, (1,)), (3, (1, 2))), seed=4, overlap=(4, 30), keys=(2, 6),
        glance_seed=None,  # its moves are drawn as each marble's path (tests/test_renderers.py), not outlined
        crowded=None,  # e2e/test_layout.py opens twelve players
    ),
    "cardcassonne": GameTests(
        hand=".cc-hand", choose_first=".cc-hand [data-select]",
        refusal=({"kind": "play", "card": "HAND", "x": 40, "y": 40}, "touches no card"),
        counts=(2, 3, 4), bench_counts=(2, 4), strength_counts=(2, 3),
        controller=((2, (1,)), (3, (2,))), seed=2, glance_seed=2, keys=(3, 4), quick_start=False,
    ),
    "carbon-city-zero": GameTests(
        hand=".ccz-in-play", end_turn=".ccz-end", hand_cards=".ccz-in-play .ccz-card",
        refusal=({"kind": "buy", "name": "Nowhere Card"}, "no card called"),
        counts=(1, 2, 4), bench_counts=(1, 4), strength_counts=(1, 2),
        controller=((1, ()), (2, (1,))), seed=5, solo_link=True, glance_seed=1, overlap=(2, 20), keys=(3, 4),
    ),
}
"""Each registered game's test settings, by id."""


def settings(game: str) -> GameTests:
    """A game's test settings; an AssertionError that says what to add for a game the table lacks."""
    found = SETTINGS.get(game)
    assert found is not None, (
        f"{game} has no test settings: add an entry to SETTINGS in tests/games.py (docs/adding-a-game.md)"
    )
    return found
