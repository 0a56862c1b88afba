"""What goes into the page's controllers and what comes out: events (facts that happened) and effects (what a
host must do). Plain values, so a controller runs and is tested under CPython; the table page's adapter
(:mod:`cardtable_web.shell`) and the embed's (:mod:`cardtable_web.embed_page`) run the effects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# -- events ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Click:
    """A click (or Enter / Space) on a choice of the table: which of its ``data-*`` attributes it carries.

    ``ui`` a control (``take-device``, ``undo``, ``suggest``, a replay control...), ``action`` an action's
    text, ``select`` a selection (a card before its target), ``attempt`` the facts (JSON) of a move that
    plays nothing now; ``number`` the ``data-step`` or ``data-seat`` of a replay control. All None: a click
    on nothing that plays (it ends a suggestion or a refusal's reason).
    """

    ui: str | None = None
    action: str | None = None
    select: str | None = None
    attempt: str | None = None
    number: int = 0


@dataclass(frozen=True)
class ThinkTask:
    """A computer's decision to make: by a seat (``kind="move"``) or a suggestion for a human (``"hint"``).

    The host waits ``pause`` seconds, asks the computer's worker when ``request`` is given (JSON for
    :meth:`pyengine.thinker.Thinker.decide`), else runs ``bot.think(state)`` in short slices, and answers
    with :class:`Decided`. ``state`` is what the bot may look at: the real state for its own seat (the
    bot sees only that seat's view), or the deciding human's view re-dealt for a suggestion.
    """

    generation: int
    kind: str
    seat: int
    pause: float
    bot: Any
    state: Any
    request: str | None = None
    moves: int = 0
    """How many moves the game had when the task was asked (a suggestion for an older position is dropped)."""
    step: bool = False
    """A further step of a computer's turn, or a forced move: its pause is the pace's shorter one."""


@dataclass(frozen=True)
class Decided:
    """A :class:`ThinkTask`'s answer: the action's text (None when the worker could not give one) and how."""

    task: ThinkTask
    action: str | None
    iterations: int = 0
    seconds: float = 0.0
    where: str = "page"


@dataclass(frozen=True)
class Tick:
    """A timer set by :class:`After` went off (the replay's next step)."""

    generation: int
    name: str


# -- effects ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableScreen:
    """Everything the table shows for a game in play, drawn in one go."""

    title: str
    game: str
    status_html: str
    banner: str
    pace: int
    board_html: str
    zoomable: bool
    moves: int
    message: str
    advice: str
    hint: tuple[str, str] | None
    """The suggested choice to highlight: its attribute (``data-action`` or ``data-select``) and value."""
    suggest_shown: bool
    suggest_enabled: bool
    log_key: tuple[int, int]
    """Which log is shown (a new game or a take-back starts it again): the page then draws it whole."""
    log_lines: tuple[str, ...]
    over: bool
    undo_enabled: bool
    undo_reason: str
    marker: str
    """The page's state for tests and the styles: ``ready``, ``thinking`` or ``over``."""
    misclick: str = "confirm"
    """How a move that would show a card waits (:mod:`cardtable_web.misclick`): the table's setting shows it."""
    held: bool = False
    """Whether the hinted move is held for its second tap (its words are then said next to it)."""


@dataclass(frozen=True)
class ReplayScreen:
    """The replay viewer: the caption and scores, the controls with the board, the log with the current move."""

    title: str
    game: str
    status_html: str
    board_html: str
    log_html: str
    moves: int
    index: int
    marker: str


@dataclass(frozen=True)
class ShowLobby:
    """Back to the lobby (it lists the kept games again)."""


@dataclass(frozen=True)
class LobbyError:
    """One message in the lobby, with a bug report to copy when something unexpected happened."""

    text: str
    report: dict[str, Any] | None = None
    trouble: bool = False


@dataclass(frozen=True)
class FillLobby:
    """The lobby set to the settings an address asked for (the lobby's own JSON form), and what is wrong."""

    settings: dict[str, Any]
    error: str | None = None


@dataclass(frozen=True)
class SetAddress:
    """The page's address fragment: ``push`` a new history entry or ``replace`` the current one; an empty
    fragment is the lobby's address."""

    fragment: str
    how: str = "replace"


@dataclass(frozen=True)
class Think:
    """Make a computer's decision (see :class:`ThinkTask`)."""

    task: ThinkTask


@dataclass(frozen=True)
class WarmWorker:
    """Start the computer's worker in the background (a game with a computer that thinks there began)."""


@dataclass(frozen=True)
class After:
    """Send ``Tick(generation, name)`` after ``seconds``."""

    seconds: float
    tick: Tick


@dataclass(frozen=True)
class Share:
    """Open the share dialog on a game's full address (``fragment``), with what sharing it means."""

    note: str
    fragment: str


@dataclass(frozen=True)
class Elsewhere:
    """Show (or hide) the notice that another tab moved this game on, with "Load the newer position"."""

    shown: bool


@dataclass(frozen=True)
class Fit:
    """Zoom the board to fit its width (only the page can measure it)."""


@dataclass(frozen=True)
class FrameScreen:
    """An embed's whole content (its headline and scores with ``controls``, and the board) and its state."""

    html: str
    marker: str
    game: str


@dataclass(frozen=True)
class Post:
    """An embed's event for the host page (see :mod:`cardtable_web.embed`)."""

    event: dict[str, Any]


@dataclass(frozen=True)
class Wire:
    """An effect for the page's connection code (``web/remote.js``) when playing on separate devices: a command
    and its data, JSON-safe."""

    command: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"command": self.command, **self.data}, ensure_ascii=False)


Effect = (
    TableScreen | ReplayScreen | ShowLobby | LobbyError | FillLobby | SetAddress | Think | WarmWorker | After | Share
    | Elsewhere | Fit | FrameScreen | Post | Wire
)
