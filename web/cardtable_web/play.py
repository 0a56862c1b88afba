"""A game in play at the table: the mode the table holds from a game's start to the lobby (or a replay).

:class:`PlayMode` is given its game (a :class:`~cardtable_web.session.Session`), the table's :class:`Computer` for
the computer seats, and, only for a game with seats on other devices, those seats (:class:`OtherSeats`, which
:class:`cardtable_web.remote_host.Hosting` is). A game on one device never runs remote code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from . import address, drawing, selection
from .computer import Computer
from .effects import Click, Decided, Effect, Elsewhere, Fit, SetAddress, Share, TableScreen, Tick
from .feed import Ask, SeatFeed, sentence
from .keeping import game_key
from .misclick import NOT_PLAYED_YET, Holding, policy, shows_a_card
from .registry import site_game
from .session import Hint, Session

if TYPE_CHECKING:
    from .controller import TableController

Effects = list[Effect]
NO_TAKE_BACK = "Nothing to take back: never past another player's decision or a card seen for the first time"
PLEASE_WAIT = "Please wait: the computer is playing."


class OtherSeats(Protocol):
    """The seats of a game played on other devices, as the game in play uses them."""

    def feed(self, session: Session) -> Effects:
        """Each connected guest's table (sent before this device redraws its own)."""

    def seats(self) -> Effects:
        """The host's panel of remote seats, after the table."""

    def ask(self) -> Ask | None:
        """A take-back waiting for agreement."""

    def status_html(self, session: Session) -> str:
        """Who is at the table."""

    def control(self, session: Session, name: str) -> Effects | None:
        """The host's take-back and its answers (None: not one of them)."""

    def keep(self, session: Session) -> None:
        """Remember the remote seats of the kept game."""


class PlayMode:
    """A game in play on this device: clicks, the computer's turns, take-backs, suggestions, keeping."""

    def __init__(self, table: TableController, session: Session, others: OtherSeats | None = None) -> None:
        self.table = table
        self.session = session
        self.others = others
        self.computer: Computer = table.computer
        self.last_kept: str | None = None
        """What this tab kept last (:attr:`Kept.token`): from there it may go anywhere (on, or back)."""
        self.elsewhere = False
        """True once another tab moved this game on: this tab keeps nothing more until it loads the newer one."""
        self.holding = Holding()
        """A move that would show a card, chosen but not played yet (:mod:`cardtable_web.misclick`)."""

    # -- after every change ---------------------------------------------------------------------------------
    def refresh(self) -> Effects:
        """After any change: the guests' tables, this table drawn, the game kept, a computer seat asked."""
        session = self.session
        effects = self.others.feed(session) if self.others is not None else []
        effects += [self.screen(), *self.keep()]
        think = self.computer.start_turn(session)
        effects += [think] if think is not None else []
        return effects + (self.others.seats() if self.others is not None else [])

    def screen(self) -> TableScreen:
        """What the table shows now (the shown seat's feed only)."""
        session = self.session
        feed = session.feed()
        over = session.state.is_terminal()
        handover = session.needs_handover()
        can_undo = not over and self.computer.may_take_back() and session.can_take_back()
        undo_reason = "Take back your last move" if can_undo else NO_TAKE_BACK
        if self.holding.held is not None:
            can_undo, undo_reason = True, NOT_PLAYED_YET
        status = drawing.status_html(feed, session.setup.game)
        if self.others is not None:
            ask = self.others.ask()
            status += self.others.status_html(session) + drawing.ask_html(ask, session.you, session.names)
            can_undo = can_undo and ask is None
            undo_reason = "Ask the others to agree to take back your last move" if can_undo else undo_reason
        return TableScreen(
            title=session.info.title, game=session.setup.game, status_html=status,
            banner=drawing.banner(session, drawing.turn_start(session)), pace=session.setup.delay,
            board_html=drawing.handover_html(session) if handover else self.board(feed),
            zoomable=not handover, moves=session.state.played, message=session.message, advice=session.advice,
            hint=session.hint_target(), suggest_shown=session.decides_now() and not over,
            suggest_enabled=not self.computer.suggesting, log_key=(id(session), session.trail.resets),
            log_lines=feed.log, over=over, undo_enabled=can_undo, undo_reason=undo_reason,
            marker="over" if over else "thinking" if session.computer_to_move() else "ready",
            misclick=policy(self.table.keeper), held=self.holding.held is not None,
        )

    def board(self, feed: SeatFeed) -> str:
        return drawing.render_view(self.session.setup.game, feed.view, self.session.selection)

    def keep(self) -> Effects:
        """The game written into the address (sealed) and kept in the browser (a finished one in the history)."""
        session, keeper = self.session, self.table.keeper
        self.table.address = address.sealed(session)
        effects: Effects = [SetAddress(self.table.address, "replace")]
        if self.others is not None:
            self.others.keep(session)
        if self.elsewhere:
            return effects
        if session.state.is_terminal():
            kept = keeper.finish(session, session.feed().headline)
        else:
            kept = keeper.keep(session, last_kept=self.last_kept)
            if kept.ok:
                self.last_kept = kept.token
        if kept.conflict:
            self.elsewhere = True
            effects.append(Elsewhere(True))
        elif kept.message and not session.message:
            session.message = kept.message
        return effects

    def storage_changed(self) -> Effects:
        """Another tab changed the kept games: if it moved this game on, offer to load the newer position."""
        if self.elsewhere or not self.table.keeper.moved_elsewhere(self.session, self.last_kept):
            return []
        self.elsewhere = True
        return [Elsewhere(True)]

    def load_newer(self) -> Effects:
        """Load the position another tab kept of this game."""
        self.elsewhere = False
        try:
            newer = self.table.keeper.load(game_key(self.session))
        except ValueError:  # no longer kept (finished or discarded there): this position stays
            return [Elsewhere(False)]
        return self.table.begin(newer, history="replace")

    # -- input ------------------------------------------------------------------------------------------------
    def click(self, click: Click) -> Effects:
        """A click on the table (see :class:`~cardtable_web.effects.Click`); any click but a held move's second tap
        (or a control that changes nothing) drops the held move."""
        session = self.session
        if self.holding.held is not None and click.action is None and click.ui not in ("zoom-fit", "share"):
            self.drop_held()
            if click.ui == "undo" or click.ui is None and click.select is None and click.attempt is None:
                return self.refresh()
        if click.ui is not None:
            return self.control(click.ui)
        if click.action is not None:
            return self.act(click.action)
        if click.select is not None:
            try:
                session.select(selection.decode(click.select))
            except ValueError:  # not a selection this site wrote: nothing to choose
                return []
            return self.refresh()
        if click.attempt is not None:
            session.why_not(click.attempt)
            session.advice = session.advice or "Nothing to play there."
            return self.refresh()
        if session.advice and not self.computer.suggesting:  # any click ends a suggestion or a refusal's reason
            session.clear_advice()
            return self.refresh()
        return []

    def act(self, text: str) -> Effects:
        """A human plays the action ``text`` (a refusal is said in the message); a move that would show a card is
        held first (:mod:`cardtable_web.misclick`), and played by its second tap or when its time is up."""
        session = self.session
        held, self.holding.held = self.holding.held, None
        if held is not None:
            session.clear_advice()
        if self.computer.busy or session.computer_to_move():
            session.message = PLEASE_WAIT
            return self.refresh()
        if (held is None or held.action != text) and session.decides_now() and shows_a_card(session, text):
            return self.hold(text)
        try:
            session.act(text)
        except ValueError as exc:  # IllegalAction is a ValueError
            session.message = str(exc)
        return self.refresh()

    def hold(self, text: str) -> Effects:
        """Hold a move that would show a card: it is highlighted, with what to do to play it (every move stays on
        offer, so another tap chooses another move)."""
        session = self.session
        move = drawing.move_sentence(session.setup.game, session.screen_view(), text)
        words, timer = self.holding.hold(self.table.keeper, text, move)  # the chosen card stays chosen
        session.message = ""
        session.hint = Hint(text, None, words)
        session.advice = words
        return self.refresh() + timer

    def drop_held(self) -> None:
        """The held move is not played: the player chooses again."""
        self.holding.held = None
        self.session.clear_advice()

    def tick(self, tick: Tick) -> Effects:
        """A held move's time is up (the ``window`` policy): it is played."""
        due = self.holding.due(tick)
        return [] if due is None else self.act(due)

    def control(self, name: str) -> Effects:
        """One of the table's controls (``data-ui``)."""
        session = self.session
        if self.others is not None:
            answered = self.others.control(session, name)
            if answered is not None:
                return answered
        if name == "suggest":
            return self.suggest()
        if name == "load-newer":
            return self.load_newer()
        if name == "replay":
            return self.table.begin_replay(session)
        if name == "share":
            return [Share(share_note(session), address.encode(session))]
        if name == "zoom-fit":
            return [Fit()]
        session.clear_advice()
        if name == "take-device":
            session.take_device()
        elif name == "undo":
            self.take_back()
        return self.refresh()

    def take_back(self) -> None:
        session = self.session
        if not self.computer.may_take_back():
            session.message = PLEASE_WAIT
            return
        try:
            session.take_back()
        except ValueError as exc:  # a refused take-back says why (the button stays tappable for that)
            session.message = sentence(str(exc))
            return
        if self.computer.busy:  # the computer had not replied yet: its pending reply is dropped
            self.computer.stop()

    def cancel(self) -> Effects:
        """Escape at the table: drop the held move, or the chosen card (or other selection)."""
        if self.holding.held is not None:
            self.drop_held()
            return self.refresh()
        if self.session.selection is None:
            return []
        self.session.selection = None
        return self.refresh()

    def set_pace(self, delay: int) -> Effects:
        """The computer's pause before each move, changed at the table (kept in the game's address)."""
        if not 0 <= int(delay) <= 10_000:
            return []
        self.session.setup.delay = int(delay)
        return self.keep()

    # -- the computer ---------------------------------------------------------------------------------------------
    def decided(self, answer: Decided) -> Effects:
        """A computer's decision arrived (a move for its seat, or a suggestion for the human)."""
        if answer.task.kind == "hint":
            return self.suggested(answer)
        session, computer = self.session, self.computer
        if not computer.usable(answer, session):
            return [computer.retry_here(answer.task, session)]
        session.computer_move(answer.action)
        if not computer.played(answer, session):
            return self.refresh()
        drawn: Effects = [self.screen()] if computer.redraw_now(session) else []
        return drawn + self.keep() + [computer.think(session)]

    def suggest(self) -> Effects:
        """Ask the computer (normal level, from the human's own view, re-dealt) for a move to suggest."""
        session = self.session
        think = self.computer.suggest(session)
        if think is None:
            return []
        session.advice = "Looking for a move…"
        session.hint = None
        return [self.screen(), think]

    def suggested(self, answer: Decided) -> Effects:
        session = self.session
        self.computer.suggesting = False
        if session.state.played != answer.task.moves:
            return self.refresh()
        if answer.action is None or answer.action not in session.state.legal_texts():
            session.advice = "No suggestion this time: try again."
        else:
            session.hint = drawing.hint_of(session, answer.action)
            session.advice = session.hint.words
        return self.refresh()


def share_note(session: Session) -> str:
    """What sharing the game's address means for its hidden cards."""
    if site_game(session.setup.game).open_information(session.state.options):
        return ("Everything in this game is open, so two players can play at a distance: send the address "
                "after each move, and the other player opens it and plays on.")
    return ("This address contains the whole deal: anyone who decodes it can see every hand. It is for "
            "resuming on another device or showing a finished game, not for playing a hidden-hand game "
            "at a distance. A game opened from it does not count in the statistics.")
