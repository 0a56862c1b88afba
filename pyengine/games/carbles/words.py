"""The words of Carbles: the log entry of each action and why an action is not allowed now."""

from __future__ import annotations

from typing import Any

from ...words import Entry
from .board import LOT, MARBLES, SECTOR
from .notation import Back, Burn, Marble, Move, Out, Pass, Play, Swap, rank_text
from .state import MOVE_OUT, STEPS, CarblesState, deck_cap, legal, marble_index, owner_for, target
from .view import marble_pair, place

NUMBERS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
)  # fmt: skip


def steps_words(steps: int) -> str:
    """``one step``, ``five steps``."""
    word = NUMBERS[steps] if 0 <= steps < len(NUMBERS) else str(steps)
    return f"{word} step" if steps == 1 else f"{word} steps"


def whose(m: int, actor: int) -> str:
    """A marble in the log: ``marble 2`` for the actor's own, ``{2:poss} marble 1`` for another seat's."""
    p, i = divmod(m, MARBLES)
    return f"marble {i + 1}" if p == actor else f"{{{p}:poss}} marble {i + 1}"


def owned(m: int) -> str:
    """A marble with its owner always named: ``{0:poss} marble 2`` ("your marble 2")."""
    p, i = divmod(m, MARBLES)
    return f"{{{p}:poss}} marble {i + 1}"


def where(loc: int, players: int) -> str:
    size = SECTOR * players
    if loc == LOT:
        return "the lot"
    if loc >= size:
        return f"goal slot {(loc - size) % MARBLES}"
    return f"space {loc}"


def route(start: int, end: int, players: int) -> str:
    """``from space 24 to 26``, ``from space 104 to goal slot 2``."""
    first, last = where(start, players), where(end, players)
    noun = first.rsplit(" ", 1)[0]
    if last.startswith(noun + " "):
        last = last[len(noun) + 1 :]
    return f"from {first} to {last}"


def describe(before: CarblesState, action: Play, after: CarblesState) -> Entry:
    """The public log entry of ``action``: words with seat placeholders, and what moved where."""
    n = before.players
    actor = before.turn
    me = f"{{{actor}}}"
    plays = f"{me} {{{actor}:plays}}"
    card = rank_text(action.rank)
    kind = "burn" if isinstance(action, Burn) else "pass" if isinstance(action, Pass) else type(action).__name__.lower()
    facts: dict[str, Any] = {"kind": kind, "card": str(action.card) if isinstance(action, Burn) else card}
    moved = [m for m in range(MARBLES * n) if before.marbles[m] != after.marbles[m] and after.marbles[m] != LOT]
    facts["moved"] = [
        {"marble": marble_pair(m), "from": place(before.marbles[m], m // MARBLES, n),
         "to": place(after.marbles[m], m // MARBLES, n)}
        for m in moved
    ]
    if isinstance(action, Burn):
        line = f"{me} cannot move and {{{actor}:burns}} {action.card}"
    elif isinstance(action, Pass):
        line = f"{plays} a joker and {{{actor}:does}} nothing"
    elif isinstance(action, Out):
        m, dest = target(before, action)
        if not moved:
            line = f"{plays} {card}: {owned(before.marbles.index(dest))} stays on its home, space {dest}"
        else:
            line = f"{plays} {card}: {whose(m, actor)} moves out onto its home, space {dest}"
    elif isinstance(action, Swap):
        m, dest = target(before, action)
        other = marble_index(action.other, actor)
        line = (
            f"{plays} J: swaps {whose(m, actor)} ({where(before.marbles[m], n)}) "
            f"with {whose(other, actor)} ({where(dest, n)})"
        )
    else:
        m = marble_index(action.marble, actor)
        back = " back" if isinstance(action, Back) else ""
        line = (
            f"{plays} {card}: {whose(m, actor)} {steps_words(action.steps)}{back}, "
            f"{route(before.marbles[m], after.marbles[m], n)}"
        )
        if isinstance(action, Move) and action.rank == 7:
            facts["left"] = after.seven_left
            if after.seven_left and not after.over:
                line += f" ({after.seven_left} of the 7 left)"
    killed = [m for m in range(MARBLES * n) if before.marbles[m] != LOT and after.marbles[m] == LOT]
    if killed:
        line += "; kills " + ", ".join(owned(m) for m in killed)
        facts["killed"] = [marble_pair(m) for m in killed]
    line += _after_words(before, after, facts)
    return Entry(actor, line, facts)


def _after_words(before: CarblesState, after: CarblesState, facts: dict[str, Any]) -> str:
    """What follows an action in its log entry: the game's end (with ``winners`` in ``facts``), or a new hand or
    deck (``new_hand``); else nothing."""
    line = ""
    if after.over:
        if after.capped:
            line += f"; the deck limit ({deck_cap(after.players)} decks) is reached"
        if len(after.winners) > 1:
            line += "; " + " and ".join(f"{{{p}}}" for p in after.winners) + " win"
        elif after.winners:
            line += f"; {{{after.winners[0]}}} {{{after.winners[0]}:wins}}"
        else:
            line += "; nobody wins"
        facts["winners"] = list(after.winners)
    elif after.hand_number != before.hand_number or after.decks != before.decks:
        if after.decks != before.decks:
            line += f"; a fresh deck: {{{after.dealer}}} {{{after.dealer}:deals}}"
        line += f"; a new hand of {len(after.hands[0])} cards each, {{{after.starter}}} {{{after.starter}:starts}}"
        facts["new_hand"] = True
    return line


# ----------------------------------------------------------------------------------- refusals


def why_illegal(core: CarblesState, action: Play) -> str:
    """Why a well-written ``action`` is not allowed now, citing the rules page."""
    actor = core.turn
    choices = legal(core)
    if core.seven_left:
        return _why_not_seven_part(core, action, choices)
    hand = core.hands[actor]
    if isinstance(action, Burn):
        if action.card not in hand:
            return f"you do not hold {action.card}"
        return "a card can be played, so burning is not allowed (rule 15: you burn only when nothing can move)"
    name = rank_text(action.rank)
    if not any(c.rank == action.rank for c in hand):
        return f"you hold no {name}"
    mine = [a for a in choices if not isinstance(a, Burn) and a.rank == action.rank]
    if not mine:
        instead = "burn a card (rule 15)" if isinstance(choices[0], Burn) else "play another card"
        return f"your {name} cannot move any marble now; {instead}"
    can = f"your {name} can: " + ", ".join(str(a) for a in mine[:12]) + (", ..." if len(mine) > 12 else "")
    if isinstance(action, Out) and action.rank not in MOVE_OUT:
        return "only an ace, a king or a joker moves a marble out (rule 9)"
    if isinstance(action, (Move, Back, Swap)):
        problem = _marble_problem(core, action.marble, name)
        if problem:
            return f"{problem}; {can}"
        if isinstance(action, Move) and action.rank in STEPS and action.steps != STEPS[action.rank]:
            return f"a {name} moves exactly {STEPS[action.rank]} spaces (rule 10)"
        if isinstance(action, Move) and action.rank == 4:
            return f"a 4 moves backward (rule 11); {can}"
        if isinstance(action, Back) and action.rank != 4:
            return "only a 4 moves backward (rule 11)"
        if isinstance(action, Swap) and action.rank != 11:
            return "only a jack swaps (rule 13)"
    return f"{action} is not possible now; {can}"


def _marble_problem(core: CarblesState, marble: Marble, name: str) -> str | None:
    """What is wrong with the marble an action names (None: nothing)."""
    actor = core.turn
    if marble.player is not None and not 0 <= marble.player < core.players or not 0 <= marble.number < MARBLES:
        return f"{marble} names no marble (marbles are m1-m4, other players' like P2m3)"
    m = marble_index(marble, actor)
    owner = owner_for(core, actor)
    if m // MARBLES != owner:
        return "you move only " + ("your" if owner == actor else "your partner's") + " marbles (rules 10, 22)"
    if core.marbles[m] == LOT:
        return f"{marble} is in the lot (rule 9: it must move out first)"
    return None


def _why_not_seven_part(core: CarblesState, action: Play, choices: list[Play]) -> str:
    """Rule 12: a 7 in progress is finished before anything else."""
    possible = ", ".join(str(a) for a in choices)
    if not isinstance(action, Move) or action.rank != 7:
        return f"finish the 7 first: {core.seven_left} step(s) left, e.g. {choices[0]} (rule 12)"
    problem = _marble_problem(core, action.marble, "7")
    if problem:
        return f"{problem}; the 7 steps possible are {possible}"
    if marble_index(action.marble, core.turn) in core.seven_moved:
        return f"{action.marble} has already moved in this 7 (rule 12)"
    if action.steps > core.seven_left:
        return f"only {core.seven_left} step(s) of the 7 are left (rule 12)"
    return f"{action} cannot be done now: the 7 steps possible are {possible}"
