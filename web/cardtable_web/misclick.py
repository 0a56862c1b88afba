"""A misclick is undone before it shows a card: a move that would draw or reveal one is held first.

A take-back never goes past a card seen for the first time (:mod:`pyengine.takeback`), so a move that draws a card,
turns one over or plays one from a hidden hand could not be taken back once played. The table holds such a move
instead of playing it, and the player chooses how in the settings (kept in this browser):

* ``confirm`` (the default, as on a touch screen's card table): the move waits for a second tap on it;
* ``window``: the move is played after :data:`UNDO_SECONDS`, unless Take back (or a tap elsewhere) drops it first.

While a move is held, the table offers every move as before, the held one highlighted: a tap on another move
chooses that one instead (held in turn when it too would show a card).

A move that shows nothing new is played at once: Take back returns from it as before.

A guest on another device holds its moves the same way: its first tap on a move asks the host to play it only if it
shows no card (:func:`shows_a_card_to`, every seat watched); the host answers ``held`` otherwise, and the guest's page
holds it by the guest's own setting (:class:`cardtable_web.remote_guest.GuestMode`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pyengine import State
from pyengine.takeback import revealed_to

from .effects import After, Tick
from .keeping import Keeper
from .session import Session

MISCLICK_KEY = "cardtable.misclick"
"""The player's choice, one of :data:`POLICIES` (kept in the browser's storage)."""
CONFIRM = "confirm"
WINDOW = "window"
POLICIES = (CONFIRM, WINDOW)
DEFAULT_POLICY = CONFIRM
UNDO_SECONDS = 3.0
"""How long a held move waits before it is played, with the ``window`` policy."""
NOT_PLAYED_YET = "Choose again: the move you tapped is not played yet"
"""What Take back does while a move is held (it drops the held move)."""


@dataclass(frozen=True)
class Held:
    """A move chosen but not played yet, because it would show a card: its action text and its hold's number
    (the timer of an older hold is ignored)."""

    action: str
    number: int


class Holding:
    """The move a table holds (at most one), each hold numbered so that the timer of an older one is ignored: the
    host's table and a guest's page hold moves alike."""

    def __init__(self) -> None:
        self.held: Held | None = None
        self.count = 0

    def hold(self, keeper: Keeper, action: str, move: str) -> tuple[str, list[After]]:
        """Hold ``action`` (``move``: it in words) by the player's setting: what the table says of it, and the
        timer that plays it (none with the ``confirm`` setting)."""
        chosen = policy(keeper)
        self.count += 1
        self.held = Held(action, self.count)
        timer = [After(UNDO_SECONDS, Tick(self.count, "play-held"))] if chosen == WINDOW else []
        return held_words(chosen, move), timer

    def due(self, tick: Tick) -> str | None:
        """The held move whose time is up, when ``tick`` is its timer's (None for an older hold's timer)."""
        held = self.held
        return held.action if held is not None and tick.generation == held.number else None


def policy(keeper: Keeper) -> str:
    """The player's choice of how a move that shows a card waits (:data:`DEFAULT_POLICY` until they choose)."""
    chosen = keeper.read(MISCLICK_KEY, str, DEFAULT_POLICY, set_aside=False)
    return chosen if chosen in POLICIES else DEFAULT_POLICY


def choose_policy(keeper: Keeper, chosen: str) -> bool:
    """Keep the player's choice; False for a choice that is not one of :data:`POLICIES`."""
    if chosen not in POLICIES:
        return False
    keeper.write(MISCLICK_KEY, chosen)
    return True


def shows_a_card(session: Session, text: str) -> bool:
    """Whether the legal move ``text``, played now, would show a watched seat something it could not know (a card
    drawn, dealt, turned over or played from a hidden hand): the seats a take-back watches, every seat when several
    people play, else the one person at the screen."""
    state = session.state
    seat = state.current_player
    if seat is None:
        return False
    return shows_a_card_to(state, text, range(state.players) if len(session.humans) > 1 else [seat])


def shows_a_card_to(state: State, text: str, watched: Iterable[int]) -> bool:
    """Whether the legal move ``text``, played in ``state``, would show one of the ``watched`` seats something it
    could not know (False for a move that is not legal now)."""
    if text not in state.legal_texts():
        return False
    return bool(revealed_to(state, state.parse_action(text), watched))


def held_words(policy_name: str, move: str) -> str:
    """What the table says of a held move (``move``: the move in words)."""
    if policy_name == WINDOW:
        return (f"{move} It shows a card, so it is played in {UNDO_SECONDS:.0f} seconds: Take back, or tap "
                "elsewhere, to choose again.")
    return f"{move} It shows a card: tap it again to play it, or choose another move."
