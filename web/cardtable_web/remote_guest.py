"""A guest's table in a game played on separate devices: the host's messages in, the seat's table drawn; a click on
a move becomes a message to the host, whose engine decides.

The guest never holds the game: only its seat's view, the public log and the table's public facts
(:mod:`cardtable_web.remote`). Once the game is over the host sends its record, and the guest's page keeps it with
its statistics and can replay it, as the host's does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyengine
from pyengine.core import replay as replay_record

from . import drawing, link_store, selection
from .effects import Click, Effect, Fit, TableScreen, Tick, Wire
from .feed import Ask, sentence
from .html import esc
from .link_waiting import WaitingMode, waiting_view
from .misclick import NOT_PLAYED_YET, Holding, policy
from .remote import HOST_KINDS, Refused, connected_words, message, read_message
from .session import Session
from .setup import Seat, Setup

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]


class GuestSeat:
    """What the guest's page knows of the game: the latest table message from the host."""

    def __init__(self, seat: int, game: str) -> None:
        self.seat = seat
        self.game = game
        self.table: dict[str, Any] | None = None
        self.log: list[str] = []
        """The public log as said for this seat (each table message brings the lines this page lacks)."""
        self.selection: selection.Selection | None = None
        self.message = "Connected: waiting for the host's table…"

    @property
    def view(self) -> dict[str, Any]:
        return self.table["view"] if self.table else {}

    @property
    def names(self) -> list[str]:
        """The seats' names (as the host names them; this seat's own is "You" on this page's table)."""
        return list((self.table or {}).get("names") or self.view.get("names") or [])

    @property
    def ask(self) -> Ask | None:
        """A take-back waiting for agreement, as the host's feed tells it."""
        ask = (self.table or {}).get("ask")
        if not isinstance(ask, dict) or not isinstance(ask.get("seat"), int):
            return None
        return Ask(ask["seat"], tuple(s for s in ask.get("agreed", []) if isinstance(s, int)))


class GuestMode:
    """The table of a guest's page: the host's messages in, the seat's feed drawn, clicks sent to the host. It has
    no game of its own, so no computer, no pace, no suggestion and no "Play again"."""

    def __init__(self, table: TableController, build: str, seat: int, game: str) -> None:
        self.table = table
        self.build = build
        self.guest = GuestSeat(int(seat), str(game))
        self.finished: Session | None = None
        """The whole game, from the record the host sends once it is over (for the replay and the statistics)."""
        self.gone = False
        self.holding = Holding()
        """A move the host said would show a card, held on this page (:mod:`cardtable_web.misclick`)."""
        self.held_words = ""
        self.links: dict[str, Any] | None = None
        """The game's table name and this seat's key, once the host sent them: the game may go on by links."""

    # -- the host's messages ------------------------------------------------------------------------------------
    def receive(self, text: str) -> Effects:
        """A message from the host; one this page cannot read is said, and changes nothing."""
        guest = self.guest
        try:
            fields = read_message(str(text), self.build, HOST_KINDS)
        except Refused as exc:
            guest.message = sentence(f"The host sent a message this page cannot read: {exc}")
            return self.table.refresh()
        if fields["kind"] == "refused":
            guest.message = str(fields.get("reason", ""))[:300]
        elif fields["kind"] == "seat-given":
            self.gone = True
            guest.message = "The host gave your seat to the computer. Thank you for playing!"
        elif fields["kind"] == "held":
            return self.hold(fields)
        else:
            self.take_table(fields)
        return self.table.refresh()

    def take_table(self, fields: dict[str, Any]) -> None:
        guest = self.guest
        moved = guest.table is None or guest.table.get("moves") != fields.get("moves")
        start = fields.get("log_start")
        lines = fields.get("log")
        if isinstance(start, int) and 0 <= start <= len(guest.log) and isinstance(lines, list):
            guest.log = guest.log[:start] + [str(line) for line in lines]
        view = fields.get("view")
        if isinstance(view, dict) and isinstance(view.get("recent"), dict):  # JSON wrote its seats as text
            view["recent"] = {int(seat): turn for seat, turn in view["recent"].items() if str(seat).isdigit()}
        guest.table = fields
        if moved:
            guest.selection = None
            guest.message = ""
            self.drop_held()
        if fields.get("note"):
            guest.message = str(fields["note"])
        record = fields.get("record")
        if record is not None and self.finished is None:
            self.finish(record, fields)
        self.keep_links()

    def keep_links(self) -> None:
        """The seat's key, sent by the host over the connection, kept with the game in this browser (and the
        lobby's rows), with where the game stands: the position played live (a turn link of an earlier one is old),
        the seat's own view and log (its table while it waits for a link), and whether it plays live now. When the
        connection closes, the game goes on by links, and this browser opens them."""
        links = (self.guest.table or {}).get("links")
        if not (isinstance(links, dict) and isinstance(links.get("table"), str) and isinstance(links.get("key"), str)):
            return
        self.links = links
        guest, over = self.guest, bool(self.guest.view.get("over"))
        seats = [str(where) for where in (guest.table or {}).get("seats", [])]
        link_store.hold(self.table.keeper, links["table"], {
            "seat": guest.seat, "key": links["key"], "game": guest.game, "title": pyengine.GAMES[guest.game].title,
            "names": guest.names, "host": seats.index("host") if "host" in seats else 0,
            "turn": int((guest.table or {}).get("moves", 0)), "packed": "", "reply": None,
            "log": guest.log[-link_store.MAX_LOG:], "updated": int(self.table.keeper.clock() * 1000), "over": over,
            "waiting": "" if over else "others", "headline": str((guest.table or {}).get("headline", "")),
            "view": {**guest.view, "moves": {}}, "live": not self.gone,
        })

    def finish(self, record: dict[str, Any], fields: dict[str, Any]) -> None:
        """The host's record of the finished game: kept in this browser's history and statistics."""
        try:
            state = replay_record(record)
        except ValueError as exc:
            self.guest.message = f"The finished game could not be kept here: {exc}"
            return
        seats = [Seat(where == "computer") for where in fields.get("seats", [])]
        if len(seats) != state.players:
            return
        setup = Setup(state.game, state.players, int(record.get("seed", 0)), seats, dict(state.options))
        session = Session(setup, state)
        session.names = list(self.guest.names) or session.names
        session.table = f"remote-{setup.seed}"
        self.finished = session
        self.table.keeper.finish(session, str(fields.get("headline", "")))

    def closed(self) -> Effects:
        """The connection to the host closed: the table is redrawn at once as the seat's table by links, waiting for
        the host's link (when the host sent the seat's key), with nothing on it that plays."""
        if self.gone or self.finished is not None:
            self.gone = True
            if self.links is not None:
                self.keep_links()
            return self.table.refresh()
        self.gone = True
        self.drop_held()
        self.guest.selection = None
        self.guest.message = (
            "The connection to the host closed. Ask the host for a new invitation to take your seat again."
        )
        if self.links is None:
            return self.table.refresh()
        self.keep_links()
        name = str(self.links["table"])
        held = link_store.held_games(self.table.keeper).get(name)
        view = waiting_view(held) if held is not None else None
        if held is None or view is None:
            return self.table.refresh()
        said = self.guest.message = "The connection to the host closed: the game goes on by links."
        return self.table.show(WaitingMode(self.table, name, held, view, said))

    def left(self) -> None:
        """This page's connection closed with the table (the page left it): the game is no longer live here."""
        if not self.gone:
            self.gone = True
            self.keep_links()

    def host_name(self) -> str:
        seats = [str(where) for where in (self.guest.table or {}).get("seats", [])]
        names = self.guest.names
        at = seats.index("host") if "host" in seats else -1
        return str(names[at]) if 0 <= at < len(names) else "the host"

    # -- clicks ------------------------------------------------------------------------------------------------
    def click(self, click: Click) -> Effects:
        """A click on the guest's table; any click but a held move's second tap (or the zoom) drops the held move."""
        guest = self.guest
        if self.holding.held is not None and click.action is None and click.ui != "zoom-fit":
            self.drop_held()
            if click.ui == "undo" or click.ui is None and click.select is None and click.attempt is None:
                return self.refresh()
        if click.ui is not None:
            return self.control(click.ui)
        if click.action is not None:
            return self.act(click.action)
        if click.select is not None:
            try:
                chosen = selection.decode(click.select)
            except ValueError:
                return []
            guest.selection = selection.toggled(guest.selection, chosen)
            return self.refresh()
        if click.attempt is not None:
            guest.message = "Nothing to play there."
            return self.refresh()
        return []

    def act(self, text: str) -> Effects:
        """A move of this seat: sent to the host, whose table message shows it played (or its reason). A first tap
        asks the host to hold the move if it would show a card; a held move's second tap (or its time up) plays it."""
        guest = self.guest
        held = self.holding.held
        self.drop_held()
        if self.gone or guest.table is None:
            return []
        if text not in guest.view.get("moves", {}):
            guest.message = (
                "It is not your turn."
                if guest.view.get("current_player") != guest.seat
                else ("That move is not possible now.")
            )
            return self.refresh()
        guest.message = ""
        confirmed = held is not None and held.action == text
        sent = self.send("act", action=text, moves=guest.table.get("moves"), hold=not confirmed)
        return [sent, *self.refresh()] if held is not None else [sent]

    def hold(self, fields: dict[str, Any]) -> Effects:
        """The host holds the move this page sent, since it would show a card: highlighted here, with what to do to
        play it, by this player's setting (a second tap, or its time up unless another tap drops it)."""
        guest, action = self.guest, fields.get("action")
        if guest.table is None or fields.get("moves") != guest.table.get("moves") or action not in guest.view.get(
                "moves", {}):
            return []  # the table moved on since: nothing to hold
        move = drawing.move_sentence(guest.game, guest.view, str(action))
        self.held_words, timer = self.holding.hold(self.table.keeper, str(action), move)
        return self.refresh() + timer

    def drop_held(self) -> None:
        self.holding.held = None
        self.held_words = ""

    def tick(self, tick: Tick) -> Effects:
        """A held move's time is up (the ``window`` setting): it is played."""
        due = self.holding.due(tick)
        return [] if due is None else self.act(due)

    def control(self, name: str) -> Effects:
        if name == "undo":
            return [self.send("take-back")]
        if name in ("remote-agree", "remote-refuse"):
            return [self.send("agree", yes=name == "remote-agree")]
        if name == "replay" and self.finished is not None:
            return self.table.begin_replay(self.finished)
        if name == "zoom-fit":
            return [Fit()]
        return []

    def send(self, kind: str, **fields: Any) -> Wire:
        return Wire("send-host", {"text": message(kind, self.build, **fields)})

    def cancel(self) -> Effects:
        """Escape: drop the held move, or the chosen card."""
        if self.holding.held is not None:
            self.drop_held()
            return self.refresh()
        if self.guest.selection is None:
            return []
        self.guest.selection = None
        return self.refresh()

    # -- what the guest's table shows --------------------------------------------------------------------------
    def refresh(self) -> Effects:
        return [self.screen()]

    def screen(self) -> TableScreen:
        guest = self.guest
        table = guest.table or {}
        view = guest.view
        over = bool(view.get("over"))
        board = (
            drawing.render_view(guest.game, view, guest.selection)
            if view
            else ('<p class="remote-waiting">Waiting for the host\'s table…</p>')
        )
        can_undo = bool(table.get("can_take_back")) and not self.gone
        undo_reason = ("Ask the others to agree to take back your last move" if can_undo
                       else "Nothing to take back now")
        held = self.holding.held
        if held is not None:
            can_undo, undo_reason = True, NOT_PLAYED_YET
        return TableScreen(
            title=pyengine.GAMES[guest.game].title, game=guest.game, status_html=self.status_html(), banner="",
            pace=0, board_html=board, zoomable=bool(view), moves=int(table.get("moves", 0)), message=guest.message,
            advice=self.held_words, hint=None if held is None else ("data-action", held.action),
            suggest_shown=False, suggest_enabled=False, log_key=(id(self), 0), log_lines=tuple(guest.log), over=over,
            undo_enabled=can_undo, undo_reason=undo_reason, marker="over" if over else "ready" if view else "thinking",
            misclick=policy(self.table.keeper), held=held is not None,
        )

    def status_html(self) -> str:
        """The headline, the scores, who is at the table and a take-back waiting for this seat's answer."""
        guest = self.guest
        table = guest.table
        if table is None:
            return '<p class="headline">Connected to the host.</p>'
        view = guest.view
        scores = drawing.scores_html(guest.game, list(view.get("scores", [])), view.get("current_player"),
                                     list(view.get("names", [])))
        seats = [str(s) for s in table.get("seats", [])]
        names = guest.names
        words = connected_words(names, seats, guest.seat) if len(seats) == len(names) else ""
        return (
            f'<p class="headline">{esc(str(table.get("headline", "")))}</p>{scores}'
            f'<p class="remote-seats" data-remote-seats>{esc(words)}</p>'
            + drawing.ask_html(guest.ask, guest.seat, names)
        )
