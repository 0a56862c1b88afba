"""Take-backs: how far a player may go back, by one policy for every game.

A take-back returns a human to their own previous decision. It may never let anyone see
something hidden and then choose again, so it stops at:

- another human's decision (nobody's choice is undone for them);
- any action that showed a watched seat something it could not know before: a card it drew,
  a deal, a card turned over, a card played from a hand it could not see. With several humans
  every seat is watched; against computers only, the human is (the computers' replies may be
  rewound when they showed the human nothing).

Whether an action showed seat ``s`` something is decided from the engine's contract alone:
the action is applied to several re-deals of the position that look the same to ``s``
(``sample_hidden``). If it is not legal in one of them, it depended on a card ``s`` could not
see; if ``s``'s view afterwards differs between them, ``s`` learnt something by chance (re-deals
also replace the state's generator, so a shuffle counts too). The re-deals use fixed seeds, so
the answer is the same every time.

States are immutable, so both answers are kept for the states asked about last (:class:`_Recent`): a
table asks whether Take back is possible at every redraw, and a redraw of the same state (a card chosen, a
suggestion shown) then costs nothing; after a move, only the steps not seen before are replayed.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Hashable, Iterable
from typing import Any, Generic, TypeVar

from .core import Action, RefusedAction, State
from .rng import Rng

SAMPLES = 8
"""Re-deals per action when looking for a reveal (fixed seeds: the answer is reproducible)."""

T = TypeVar("T")


class _Recent(Generic[T]):
    """The answers about the ``size`` states asked about last, by the state's identity (a state compares by its
    core, and two equal cores may have different histories). Each entry keeps its state, so an identity is
    never reused while its answer is kept."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.answers: OrderedDict[tuple[int, Hashable], tuple[State, T]] = OrderedDict()

    def get(self, state: State, question: Hashable) -> tuple[bool, T | None]:
        found = self.answers.get((id(state), question))
        if found is None or found[0] is not state:
            return False, None
        self.answers.move_to_end((id(state), question))
        return True, found[1]

    def put(self, state: State, question: Hashable, answer: T) -> T:
        self.answers[(id(state), question)] = (state, answer)
        while len(self.answers) > self.size:
            self.answers.popitem(last=False)
        return answer

    def clear(self) -> None:
        self.answers.clear()


_POINTS: _Recent[State | None] = _Recent(32)
"""take_back_point's answers: (state, human, computers) -> the point."""
_REVEALS: _Recent[bool] = _Recent(512)
"""Whether an action showed a seat something: (the state before, the action, the seat) -> yes or no."""


def _seen(state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` sees of ``state``, leaving out the facts of its moves (they follow from the rest)."""
    return state.view(seat, moves=False)


def revealed_to(before: State, action: Action, seats: Iterable[int]) -> set[int]:
    """The seats among ``seats`` that ``action``, played in ``before``, showed something they could not know."""
    text = str(action)
    found: set[int] = set()
    for seat in seats:
        known, shown = _REVEALS.get(before, (text, seat))
        if not known:
            shown = _REVEALS.put(before, (text, seat), _shows(before, text, seat))
        if shown:
            found.add(seat)
    return found


def _shows(before: State, text: str, seat: int) -> bool:
    """Whether the action ``text``, played in ``before``, showed ``seat`` something it could not know."""
    outcome = _seen(before.apply(text), seat)
    for sample_seed in range(SAMPLES):
        sample = before.sample_hidden(seat, Rng.from_seed(1_000_003 * (sample_seed + 1)))
        try:
            if _seen(sample.apply(text), seat) != outcome:
                return True
        except RefusedAction:  # the action needed a card this seat could not see
            return True
    return False


def take_back_point(state: State, human: int, computers: Collection[int]) -> State | None:
    """The state a take-back returns ``human`` to (their latest decision it may undo), or None.

    ``computers`` are the computer seats; every other seat is a human. The answer is kept for the states
    asked about last (states are immutable): asking again about the same state replays nothing.
    """
    question = (human, frozenset(computers))
    known, point = _POINTS.get(state, question)
    if known:
        return point
    return _POINTS.put(state, question, _take_back_point(state, human, question[1]))


def _take_back_point(state: State, human: int, computers: Collection[int]) -> State | None:
    steps = state.history()
    humans = [s for s in range(state.players) if s not in computers]
    watched = range(state.players) if len(humans) > 1 else [human]
    for index in range(len(steps) - 1, -1, -1):
        before, action = steps[index]
        actor = before.current_player
        if actor != human and actor not in computers:
            return None  # another human's decision
        if revealed_to(before, action, watched):
            return None  # something hidden became visible by chance
        if actor == human:
            return before
    return None


def take_back(state: State, human: int, computers: Collection[int]) -> State:
    """The state after taking back ``human``'s latest decision; ``ValueError`` saying why not."""
    point = take_back_point(state, human, computers)
    if point is None:
        raise ValueError(
            "nothing to take back: a take-back never goes past another player's decision or a card "
            "you saw for the first time (drawn, dealt, turned over or played from a hidden hand)"
        )
    return point
