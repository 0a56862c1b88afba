"""The words of Carbles: the log entry of each action, why an action is not allowed now, and a legal move said as a
suggestion (``move_words``). Marbles are named by their place in their owner's row ("your second marble"),
spaces by the numbers drawn around the track, and goal slots from 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...words import Entry, listed, ordinal
from .board import LOT, MARBLES, SECTOR
from .notation import Back, Burn, Marble, Move, Out, Pass, Play, Swap, rank_text
from .state import MOVE_OUT, STEPS, CarblesState, deck_cap, legal, marble_index, owner_for, target
from .view import marble_pair, place

NUMBERS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
)  # fmt: skip
RANK_WORDS = {"A": "an ace", "8": "an 8", "J": "a jack", "Q": "a queen", "K": "a king", "Jk": "a joker"}


def rank_words(rank: str) -> str:
    """A card of a rank (as the notation writes it) with its article: ``an ace``, ``a 5``, ``a joker``."""
    return RANK_WORDS.get(rank, f"a {rank}")


def steps_words(steps: int) -> str:
    """``one step``, ``five steps``."""
    word = NUMBERS[steps] if 0 <= steps < len(NUMBERS) else str(steps)
    return f"{word} step" if steps == 1 else f"{word} steps"


def marble_words(p: int, i: int, whose: str = "") -> str:
    """Player ``p``'s marble ``i`` (both from 0): ``{2:poss} first marble``, or ``whose`` before it."""
    return f"{whose or f'{{{p}:poss}}'} {ordinal(i)} marble"


def whose(m: int, actor: int) -> str:
    """A marble in the log: ``{2:their} second marble`` for the actor's own, ``{1:poss} first marble`` for another
    seat's."""
    p, i = divmod(m, MARBLES)
    return marble_words(p, i, f"{{{p}:their}}" if p == actor else "")


def owned(m: int) -> str:
    """A marble with its owner always named: ``{0:poss} second marble`` ("your second marble")."""
    p, i = divmod(m, MARBLES)
    return marble_words(p, i)


def where(loc: int, players: int) -> str:
    size = SECTOR * players
    if loc == LOT:
        return "the lot"
    if loc >= size:
        return f"goal slot {(loc - size) % MARBLES + 1}"
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
    a_card = rank_words(card)
    if isinstance(action, Burn):
        line = f"{me} cannot move and {{{actor}:burns}} {action.card}"
    elif isinstance(action, Pass):
        line = f"{plays} a joker and {{{actor}:does}} nothing"
    elif isinstance(action, Out):
        m, dest = target(before, action)
        if not moved:
            line = f"{plays} {a_card}: {whose(before.marbles.index(dest), actor)} stays on its home, space {dest}"
        else:
            line = f"{plays} {a_card}: {whose(m, actor)} moves out onto its home, space {dest}"
    elif isinstance(action, Swap):
        m, dest = target(before, action)
        other = marble_index(action.other, actor)
        line = (
            f"{plays} a jack: {{{actor}:swaps}} {whose(m, actor)}, on {where(before.marbles[m], n)}, "
            f"with {whose(other, actor)}, on {where(dest, n)}"
        )
    else:
        m = marble_index(action.marble, actor)
        back = " back" if isinstance(action, Back) else ""
        line = (
            f"{plays} {a_card}: {whose(m, actor)} goes {steps_words(action.steps)}{back}, "
            f"{route(before.marbles[m], after.marbles[m], n)}"
        )
        if isinstance(action, Move) and action.rank == 7:
            facts["left"] = after.seven_left
            if after.seven_left and not after.over:
                line += f", with {after.seven_left} of the 7 left"
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
    """Why a well-written ``action`` is not allowed now, in words."""
    actor = core.turn
    choices = legal(core)
    if core.seven_left:
        return _why_not_seven_part(core, action, choices)
    hand = core.hands[actor]
    if isinstance(action, Burn):
        if action.card not in hand:
            return f"you do not hold {action.card}"
        return "a card can be played, so you may not burn one: you burn a card only when nothing can move"
    name = rank_words(rank_text(action.rank)).split(" ", 1)[1]
    if not any(c.rank == action.rank for c in hand):
        return f"you hold no {name}"
    mine = [a for a in choices if not isinstance(a, Burn) and a.rank == action.rank]
    if not mine:
        instead = "burn a card" if isinstance(choices[0], Burn) else "play another card"
        return f"your {name} cannot move any marble now: {instead}"
    can = f"your {name} can {_can(core, mine)}"
    if isinstance(action, Out) and action.rank not in MOVE_OUT:
        return "only an ace, a king or a joker brings a marble out"
    if isinstance(action, (Move, Back, Swap)):
        problem = _marble_problem(core, action.marble)
        if problem:
            return f"{problem}; {can}"
        if isinstance(action, Move) and action.rank in STEPS and action.steps != STEPS[action.rank]:
            return f"{rank_words(rank_text(action.rank))} moves exactly {steps_words(STEPS[action.rank])}"
        if isinstance(action, Move) and action.rank == 4:
            return f"a 4 moves backward; {can}"
        if isinstance(action, Back) and action.rank != 4:
            return "only a 4 moves backward"
        if isinstance(action, Swap) and action.rank != 11:
            return "only a jack swaps"
    return f"that move is not possible now; {can}"


def _whose(core: CarblesState, p: int) -> str:
    """Whose marbles, said to the player to move: ``your``, ``your partner's``, ``that player's``."""
    if p == core.turn:
        return "your"
    return "your partner's" if p == owner_for(core, core.turn) else "that player's"


def _mine(core: CarblesState, m: int) -> str:
    """A marble named to the player to move: ``your second marble``, ``your partner's first marble``."""
    p, i = divmod(m, MARBLES)
    return marble_words(p, i, _whose(core, p))


def _can(core: CarblesState, actions: Sequence[Play]) -> str:
    """What these actions of one card do, in words: ``move your second or fourth marble``."""
    marbles: dict[int, set[int]] = {}
    outs = []
    for a in actions:
        if isinstance(a, Out):
            outs.append("bring your partner's marble out" if a.partner else "bring a marble out")
        elif isinstance(a, (Move, Back, Swap)):
            p, i = divmod(marble_index(a.marble, core.turn), MARBLES)
            marbles.setdefault(p, set()).add(i)
    moves = [f"{_whose(core, p)} {listed([ordinal(i) for i in sorted(numbers)], 'or')} "
             "marble" for p, numbers in marbles.items()]
    phrases = list(dict.fromkeys(outs)) + ([f"move {listed(moves, 'or')}"] if moves else [])
    return listed(phrases, "or")


def _marble_problem(core: CarblesState, marble: Marble) -> str | None:
    """What is wrong with the marble an action names (None: nothing)."""
    actor = core.turn
    if marble.player is not None and not 0 <= marble.player < core.players or not 0 <= marble.number < MARBLES:
        return "there is no such marble"
    m = marble_index(marble, actor)
    owner = owner_for(core, actor)
    if m // MARBLES != owner:
        return "you move only " + ("your" if owner == actor else "your partner's") + " marbles"
    if core.marbles[m] == LOT:
        return f"{_mine(core, m)} is in the lot: it must come out first"
    return None


def _why_not_seven_part(core: CarblesState, action: Play, choices: list[Play]) -> str:
    """A 7 in progress is finished before anything else."""
    left = steps_words(core.seven_left)
    rest = f"the rest of the 7 can {_can(core, choices)}"
    if not isinstance(action, Move) or action.rank != 7:
        return f"finish the 7 first: {left} {'is' if core.seven_left == 1 else 'are'} left to move"
    problem = _marble_problem(core, action.marble)
    if problem:
        return f"{problem}; {rest}"
    if marble_index(action.marble, core.turn) in core.seven_moved:
        return f"{_mine(core, marble_index(action.marble, core.turn))} has already moved in this 7"
    if action.steps > core.seven_left:
        return f"only {left} of the 7 {'is' if core.seven_left == 1 else 'are'} left"
    return f"that step is not possible now; {rest}"


def move_words(facts: Mapping[str, Any]) -> str:
    """A legal move said to the player who may make it, from its facts (seats as placeholders):
    ``play a 5 to move {0:poss} first marble five steps, to space 12``."""
    kind = facts["kind"]
    card = rank_words(str(facts.get("card", "")))
    if kind == "burn":
        return f"burn your {facts['card']}: no card can move a marble"
    if kind == "pass":
        return "play your joker and do nothing"
    marble = marble_words(*facts["marble"])
    if kind in ("out", "partner_out"):
        return f"play {card} to bring {marble} out onto its home"
    if kind == "swap":
        return f"play {card} to swap {marble} with {marble_words(*facts['with'])}"
    steps = facts.get("steps")
    to = facts["to"]
    there = f"space {to['track']}" if "track" in to else f"goal slot {to['goal'][1] + 1}"
    if kind == "back":
        return f"play {card} to move {marble} four steps back, to {there}"
    return f"play {card} to move {marble} {steps_words(int(steps or 0))}, to {there}"
