"""A guest's table in a game played at your own pace: a turn link opened, the seat's whole turn played on its
position, and the reply link for the host.

The guest's page never holds the game: only the seat's turn (:mod:`cardtable_web.links`), whose position shows the
seat its own view and nothing else. This browser keeps each game it plays by links (:mod:`cardtable_web.link_store`):
the seat and its key, the latest turn link's payload, the reply made to it, the log as far as it was told, and whose
turn it waits for since when; so an old link opened again says the game moved on and shows the latest turn held
here, and a turn already played shows its reply again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyengine
from pyengine.words import say

from . import drawing, selection
from .effects import Click, Effect, Fit, LobbyError, TableScreen, Tick, Wire
from .html import esc
from .link_store import MAX_LOG, held_games, hold, host_name
from .link_waiting import WaitingMode, waiting_view
from .links import BROKEN, GuestTurn, LinkRefused, Turn, pack, read_turn, unpack
from .remote_guest import GuestMode

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]
REPLAY_TURN = "Play this turn again from its start (before you send your link)"
OLD = "This link is old: the game has moved on since."
OLD_LIVE = f"{OLD} You play it live now."


def live_here(controller: TableController, table: str, said: str = f"{OLD_LIVE} Here is your live table.") -> (
        Effects | None):
    """The live table of a game this page plays live now, saying ``said`` (a turn link of it is old: its reply
    would be refused); None when this page does not play that game live."""
    mode = controller.mode
    if not isinstance(mode, GuestMode) or mode.gone or (mode.links or {}).get("table") != table:
        return None
    mode.guest.message = said
    return mode.refresh()


def latest_live(controller: TableController, table: str, held: dict[str, Any], said: str = "") -> Effects:
    """A game this browser played live, with no turn link of its position yet: its live table, or the seat's
    table waiting for the host's link (what this browser holds of it), saying ``said``."""
    live = live_here(controller, table, said)
    if live is not None:
        return live
    if held.get("live"):
        elsewhere = "You play this game live in another tab of this browser: go on there."
        return [LobbyError(f"{OLD} {elsewhere}" if said else elsewhere)]
    view = waiting_view(held)
    if view is None:
        return [LobbyError(f"{said} {host_name(held)} sends you a link when it is your turn.".strip())]
    return controller.show(WaitingMode(controller, table, held, view, said))


def open_turn(controller: TableController, table: str, seat: int, packed: str, key: str = "") -> Effects:
    """A turn link opened (and unsealed) on this page: its table shown, or one sentence saying why not. ``key`` is
    the invitation's (a later link's key is the one this browser holds)."""
    keeper = controller.keeper
    try:
        turn = read_turn(unpack(packed))
        if (turn.table, turn.seat) != (table, seat):
            raise LinkRefused(BROKEN)
    except LinkRefused as exc:
        return [LobbyError(str(exc))]
    held = held_games(keeper).get(table)
    if held is not None and held["seat"] != seat:
        return [LobbyError("This device plays another seat of this game: this link is for another player.")]
    title = pyengine.GAMES[turn.game].title
    host = turn.host_name
    note = (f"{host} invites you to play {title} at your own pace. {host}'s device deals and judges the game, so it "
            f"goes on only as long as {host} keeps it." if key and held is None else "")
    message = ""
    if held is not None and held.get("live"):  # this browser plays the game live (in another tab: see live_here)
        return latest_live(controller, table, held, OLD_LIVE)
    if held is not None and turn.turn < held["turn"] and not held["packed"]:  # the game went on live since
        return latest_live(controller, table, held, f"{OLD} Here is the latest position this device holds.")
    if held is not None and turn.turn < held["turn"]:
        packed = held["packed"]
        turn = read_turn(unpack(packed))
        message = (f"{OLD} Here is the latest turn this device holds."
                   if not turn.over else "This link is old: the game is over. Here is how it ended.")
    mode = LinkGuestMode(controller, turn, packed, key or (held or {}).get("key", ""), held, note)
    mode.message = message
    return controller.show(mode)


class LinkGuestMode:
    """The table of a guest's page in a game played by links: its turn's position drawn, clicks played on it, and
    the reply link once the turn pauses. It has no game of its own, so no computer, no pace and no suggestion."""

    def __init__(self, table: TableController, turn: Turn, packed: str, key: str, held: dict[str, Any] | None,
                 note: str = "") -> None:
        self.table = table
        self.turn = turn
        self.packed = packed
        """The turn link's payload, kept as the latest turn this browser holds."""
        self.key = key
        self.guest = GuestTurn(turn)
        self.selection: selection.Selection | None = None
        self.message = ""
        """A refusal, or a sentence about the link (said at once)."""
        self.note = note
        """A sentence for the panel of links (the invitation's)."""
        self.log = merged_log(held, turn)
        if held is not None and held["turn"] == turn.turn and held["reply"]:
            self.replay_reply(held["reply"])
        self.hold()

    def replay_reply(self, actions: list[str]) -> None:
        """The moves of the reply made to this turn before, played again (the turn stays paused)."""
        try:
            for text in actions:
                self.guest.play(str(text))
        except ValueError:
            self.guest = GuestTurn(self.turn)
            return
        self.guest.revealed = self.guest.revealed or not self.guest.paused

    # -- kept in this browser ---------------------------------------------------------------------------------------
    def hold(self) -> None:
        turn, guest = self.turn, self.guest
        view = turn.state.view(None)
        waiting = "" if turn.over else ("you" if guest.decides else
                                        turn.host_name if guest.paused and guest.actions else "others")
        hold(self.table.keeper, turn.table, {
            "seat": turn.seat, "key": self.key, "game": turn.game, "title": pyengine.GAMES[turn.game].title,
            "names": list(turn.names), "host": turn.host, "turn": turn.turn, "packed": self.packed,
            "reply": list(guest.actions) if guest.paused and guest.actions else None, "log": self.log[-MAX_LOG:],
            "updated": int(self.table.keeper.clock() * 1000), "over": turn.over, "waiting": waiting,
            "headline": turn.headline, "round": view.get("round"),
        })

    # -- clicks -----------------------------------------------------------------------------------------------------
    def click(self, click: Click) -> Effects:
        if click.ui is not None:
            return self.control(click.ui)
        if click.action is not None:
            return self.act(click.action)
        if click.select is not None:
            try:
                chosen = selection.decode(click.select)
            except ValueError:
                return []
            self.selection = selection.toggled(self.selection, chosen)
            return self.refresh()
        if click.attempt is not None:
            self.message = "Nothing to play there."
            return self.refresh()
        return []

    def act(self, text: str) -> Effects:
        """A move of this seat, played on the turn's position; once the turn pauses, its reply link is made."""
        try:
            self.guest.play(text)
        except ValueError as exc:
            self.message = str(exc)[:1].upper() + str(exc)[1:] + "."
            return self.refresh()
        self.selection = None
        self.message = self.note = ""
        self.hold()
        return self.refresh()

    def tick(self, tick: Tick) -> Effects:
        """A turn by links holds no move on a timer: nothing leaves this page until the player sends the reply, and
        the whole turn can be played again from its start before that."""
        return []

    def control(self, name: str) -> Effects:
        if name == "undo" and self.guest.actions:
            self.guest = GuestTurn(self.turn)
            self.selection = None
            self.message = ""
            self.hold()
            return self.refresh()
        if name == "zoom-fit":
            return [Fit()]
        return []

    def cancel(self) -> Effects:
        if self.selection is None:
            return []
        self.selection = None
        return self.refresh()

    # -- what the table shows ---------------------------------------------------------------------------------------
    def refresh(self) -> Effects:
        effects: Effects = [self.screen()]
        if self.guest.paused and self.guest.actions:
            effects.append(self.reply_link())
        return effects + [Wire("link-guest", {"table": self.turn.table, "waiting": self.waiting_words(),
                                              "state": self.state()})]

    def state(self) -> str:
        """Where the guest's turn stands: it ``decides``, made its ``reply``, is ``waiting`` or the game is ``over``."""
        guest = self.guest
        if self.turn.over:
            return "over"
        return "decides" if guest.decides else "reply" if guest.actions else "waiting"

    def reply_link(self) -> Wire:
        turn = self.turn
        return Wire("link", {
            "to": "host", "table": turn.table, "seat": turn.seat, "name": turn.host_name, "key": self.key,
            "packed": pack(self.guest.reply()), "turn": turn.turn, "title": pyengine.GAMES[turn.game].title,
            "words": self.reply_words(),
        })

    def waiting_words(self) -> str:
        """What the panel of links says (empty while it shows the reply link: :meth:`reply_words` says it)."""
        turn, guest = self.turn, self.guest
        host = turn.host_name
        if turn.over:
            said = "This game is over."
        elif guest.decides:
            said = f"Your turn: play it, and a link for {host} appears here."
        elif guest.paused and guest.actions:
            return ""
        else:
            said = f"Not your turn yet: {host} sends you a link when it is."
        return f"{self.note} {said}" if self.note else said

    def reply_words(self) -> str:
        """What the panel says above the reply link (the move that showed a card, in words: the table still shows
        the position before it, since only the host's device deals that card)."""
        host, guest = self.turn.host_name, self.guest
        if not guest.revealed:
            return f"Your turn is done: send {host} this link."
        view = guest.shown.view(guest.seat) | {"names": self.turn.shown_names()}
        said = drawing.move_sentence(self.turn.game, view, guest.actions[-1]) if guest.actions[-1] in view[
            "moves"] else ""
        moved = f"Your move: {said[:1].lower()}{said[1:]} " if said else ""
        return (f"{moved}The card it shows is dealt on {host}'s device: send {host} this link, and their answer "
                "shows it to you.")

    def board_view(self) -> dict[str, Any]:
        guest = self.guest
        view = guest.shown.view(guest.seat, moves=guest.decides)
        view["names"] = self.turn.shown_names()
        view["you"] = guest.seat
        view["recent"] = guest.recent()
        return view

    def screen(self) -> TableScreen:
        turn, guest = self.turn, self.guest
        view = self.board_view()
        over = turn.over
        lines = self.log + [say(entry.text, list(turn.names), turn.seat) for entry in guest.said]
        return TableScreen(
            title=pyengine.GAMES[turn.game].title, game=turn.game, status_html=self.status_html(view), banner="",
            pace=0, board_html=drawing.render_view(turn.game, view, self.selection), zoomable=True,
            moves=turn.turn + len(guest.actions), message=self.message, advice="", hint=None, suggest_shown=False,
            suggest_enabled=False, log_key=(id(self), 0), log_lines=tuple(lines), over=over,
            undo_enabled=bool(guest.actions), undo_reason=REPLAY_TURN if guest.actions else "Nothing to play again",
            marker="over" if over else "ready",
        )

    def headline(self) -> str:
        guest = self.guest
        if guest.decides:
            return "Your turn"
        if guest.paused and guest.actions:
            return f"Send your link to {self.turn.host_name}"
        return self.turn.headline

    def status_html(self, view: dict[str, Any]) -> str:
        scores = drawing.scores_html(self.turn.game, list(view.get("scores", [])), view.get("current_player"),
                                     list(view.get("names", [])))
        return f'<p class="headline">{esc(self.headline())}</p>{scores}'


def merged_log(held: dict[str, Any] | None, turn: Turn) -> list[str]:
    """The log this browser was told, with the turn's lines from where they begin (the lines before them, when
    this browser missed a link, are left out)."""
    earlier = [str(line) for line in (held or {}).get("log", [])]
    if len(earlier) < turn.log_start:
        return list(turn.log)
    return earlier[: turn.log_start] + list(turn.log)

