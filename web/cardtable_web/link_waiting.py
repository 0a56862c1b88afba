"""A guest's table between links, in a game it played live: its connection to the host closed, and no turn link of
the position it left has come yet.

The page shows what this browser holds of the game (:mod:`cardtable_web.link_store`): the seat's own view as the
host last sent it live, the public log as far as it was told, and whose link it waits for. Nothing on it plays (the
host's device alone deals and judges): the seat's next turn comes as a link from the host, which opens here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyengine

from . import drawing
from .effects import Click, Effect, Fit, TableScreen, Tick, Wire
from .html import esc
from .link_store import host_name

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]


def waiting_view(held: dict[str, Any]) -> dict[str, Any] | None:
    """The seat's view kept with a held game, with nothing to play on it (None when this browser kept none)."""
    view = held.get("view")
    if not isinstance(view, dict) or not isinstance(view.get("names"), list):
        return None
    recent = view.get("recent")
    recent = {int(seat): turn for seat, turn in recent.items() if str(seat).isdigit()} if isinstance(
        recent, dict) else {}  # JSON wrote its seats as text
    return {**view, "moves": {}, "recent": recent, "you": held["seat"]}


class WaitingMode:
    """The table of a guest's page waiting for the host's next link (see the module's docstring)."""

    def __init__(self, table: TableController, name: str, held: dict[str, Any], view: dict[str, Any],
                 message: str = "") -> None:
        self.table = table
        self.name = name
        """The game's table name."""
        self.held = held
        self.view = view
        self.message = message

    @property
    def host(self) -> str:
        return host_name(self.held)

    def click(self, click: Click) -> Effects:
        return [Fit()] if click.ui == "zoom-fit" else []

    def cancel(self) -> Effects:
        return []

    def tick(self, tick: Tick) -> Effects:
        return []

    def refresh(self) -> Effects:
        over = bool(self.held.get("over"))
        words = "This game is over." if over else (
            f"The game goes on by links: {self.host} sends you a link when it is your turn. Open it in this browser. "
            f"To play live again, ask {self.host} for a new invitation.")
        return [self.screen(), Wire("link-guest", {"table": self.name, "waiting": words,
                                                   "state": "over" if over else "waiting"})]

    def screen(self) -> TableScreen:
        held, view = self.held, self.view
        game = str(held["game"])
        over = bool(held.get("over"))
        headline = str(held.get("headline", "")) if over else f"Waiting for {self.host}'s link"
        scores = drawing.scores_html(game, list(view.get("scores", [])), view.get("current_player"),
                                     list(view.get("names", [])))
        return TableScreen(
            title=pyengine.GAMES[game].title, game=game, status_html=f'<p class="headline">{esc(headline)}</p>{scores}',
            banner="", pace=0, board_html=drawing.render_view(game, view), zoomable=True,
            moves=int(held.get("turn", 0)), message=self.message, advice="", hint=None, suggest_shown=False,
            suggest_enabled=False, log_key=(id(self), 0), log_lines=tuple(str(line) for line in held.get("log", [])),
            over=over, undo_enabled=False, undo_reason="Nothing to take back: the game goes on by links",
            marker="over" if over else "ready",
        )
