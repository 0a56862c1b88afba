"""One door per seat: everything a seat receives, made by one function (:func:`feed_for`).

The local screen, a remote guest, an embed and a lesson all draw what :func:`feed_for` gives for their seat: the
seat's own view (its legal moves only when it is offered to act), the public log said for the person at that
screen, each seat's latest turn, the headline and a take-back waiting for agreement. Hidden cards reach a seat
only through ``State.view(seat)``, here and nowhere else, so the check that nothing hidden leaves the engine runs
on this one function (``tests/test_feed.py``, for every game). Pure: no DOM, no HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyengine
from pyengine.words import say

from .trail import Trail


@dataclass(frozen=True)
class Ask:
    """A take-back waiting for the other players' agreement: who asked, and who agreed so far."""

    seat: int
    agreed: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatFeed:
    """Everything one seat receives after a change (JSON-safe but for ``ask``)."""

    seat: int | None
    """Whose view it is (None: the public view)."""
    you: int | None
    """The seat of the person at the screen, whom the words call "you" (None: nobody, or several people)."""
    view: dict[str, Any]
    """The seat's view, with ``names``, ``you`` and ``recent`` (each seat's latest turn)."""
    log: tuple[str, ...]
    """The public log, each entry said for ``you``."""
    headline: str
    moves: int
    """How many moves the game has had."""
    ask: Ask | None = None


def feed_for(state: pyengine.State, names: list[str], computers: set[int], seat: int | None, you: int | None,
             trail: Trail, *, offer: bool = True, shown_names: list[str] | None = None,
             ask: Ask | None = None) -> SeatFeed:
    """What ``seat`` receives: its view (its moves only when ``offer``), the public log said for ``you`` (kept in
    ``trail``, which must say for ``you``), each seat's latest turn, the headline and a waiting take-back. The view
    names the seats by ``shown_names`` (default: ``names``); ``computers`` are the seats the computer plays."""
    trail.follow(state)
    view = state.view(seat)
    if not offer:
        view["moves"] = {}
    view["names"] = list(shown_names if shown_names is not None else names)
    view["you"] = you
    view["recent"] = trail.recent
    return SeatFeed(seat, you, view, tuple(trail.said), headline(state, names, computers, you), state.played, ask)


def names_for(names: list[str], you: int | None) -> list[str]:
    """The seats' names as one device's screen shows them: its own player's seat is "You"."""
    return [("You" if seat == you else name) for seat, name in enumerate(names)]


def headline(state: pyengine.State, names: list[str], computers: set[int], you: int | None) -> str:
    """Whose turn it is, or how the game ended, said for the player at ``you``."""
    outcome = state.outcome()
    if outcome is not None:
        return say(outcome.words(), names, you)
    current = state.current_player
    assert current is not None
    if current == you:
        return "Your turn"
    if current in computers:
        return say(f"{{{current}}} is thinking…", names, you)
    return say(f"{{{current}}} to play", names, you)


def sentence(text: str) -> str:
    """A reason or a phrase as a sentence: its first letter capitalised, a full stop at its end."""
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."
