"""100 Silver Bars in words: the public log (``describe``) and why an action is refused (``why_illegal``).

Rule numbers are those of the game's rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

from typing import Any, cast

from ...core import Action
from ...words import Entry
from .notation import (
    MINER_TOKENS,
    RANK_TOKEN,
    ROLE,
    SILVER_RANKS_BY_TOKEN,
    SILVER_TOKENS,
    THIEVES,
    Act,
    token,
)
from .state import LOCKS, MINER_RANKS, SILVER_RANKS, STRIKE, VAULTS, SilverBarsState, legal, take_card, winners

NAME = {
    **{t: f"{ROLE[t]} {t}" for t in SILVER_TOKENS + MINER_TOKENS},
    "rubble": "rubble", "shovel": "shovel", "lo-thief": "lo thief", "hi-thief": "hi thief",
    "strike": "worker's strike",
}
"""A card's name in sentences by its token ("silver 6", "hi thief", "worker's strike")."""

ON_THEIR_SIDE = frozenset({"rubble", "steal"})
"""Moves whose vault is the opponent's."""
MOVE_NAME = {"play": "silver", "miner": "a miner", "rubble": "rubble", "shovel": "a shovel", "lock": "a lock",
              "steal": "a thief steals from", "place": "stolen silver"}
"""What a move puts on a vault, named in a refusal."""


def describe(before: SilverBarsState, act: Action, after: SilverBarsState) -> Entry:
    """The public log entry of ``act``: its words (seats as placeholders) and facts, with the round's end."""
    action = cast(Act, act)
    seat = before.turn
    other = 1 - seat
    who, them = f"{{{seat}}}", f"{{{other}:poss}}"

    def does(verb: str) -> str:
        return f"{who} {{{seat}:{verb}}}"

    move = action.move
    i = action.vault
    v = i + 1
    facts: dict[str, Any] = {"kind": move}
    if i >= 0:
        facts.update(vault=i, side=other if move in ON_THEIR_SIDE else seat)
    draws = f" and {{{seat}:draws}}"
    if move == "clear":
        line = f"{does('spends')} the turn clearing the worker's strike"
        facts["card"] = str(STRIKE)
    elif move == "lock":
        line = f"{does('locks')} vault {v}"
    elif move == "steal":
        carry = after.pending.carry if after.pending else None
        line = f"{does('steals')} {carry} from {them} vault {v}"
        facts["card"] = str(carry)
    elif move == "place":
        carry = before.pending.carry if before.pending else None
        line = f"{does('places')} the stolen {carry} in vault {v}{draws}"
        facts["card"] = str(carry)
    else:
        card, _ = take_card(before.hands[seat], action.tok or move)
        facts["card"] = str(card)
        if move == "discard":
            line = f"{does('discards')} {card}{draws}"
        elif move == "play":
            line = f"{does('puts')} silver {card} in vault {v}{draws}"
        elif move == "miner":
            line = f"{does('puts')} miner {card} on vault {v}{draws}"
        elif move == "rubble":
            line = f"{does('drops')} rubble {card} into {them} vault {v}{draws}"
        elif move == "shovel":
            rubble = before.vaults[seat][i].rubble
            line = f"{does('shovels')} the rubble out of vault {v}{draws}"
            facts["removed"] = str(rubble)
        elif move == "strike":
            struck = [str(w.cards[-1]) for w in before.vaults[other]
                      if not w.locked and w.cards and w.cards[-1].rank in MINER_RANKS]
            gone = f" (miners {', '.join(struck)} discarded)" if struck else ""
            line = f"{does('calls')} a worker's strike on {{{other}}}{gone}{draws}"
            facts.update(side=other, struck=struck)
        else:
            line = f"{does('plays')} a {NAME[move]}"
            pending = after.pending
            if pending is not None and pending.carry is not None:
                line += f", stealing {pending.carry} from {them} vault {pending.source + 1}"
                facts.update(stolen=str(pending.carry), vault=pending.source, side=other)
    if after.round != before.round or after.over:
        line += _round_end(after, facts)
    return Entry(seat, line, facts)


def _round_end(after: SilverBarsState, facts: dict[str, Any]) -> str:
    """The words that end a round's last log entry (its points, the totals, then the match's end or the next
    deal), adding ``round_end`` (and ``winners``) to ``facts``."""
    last = after.last
    assert last is not None
    a, b = last.points
    line = (f". Round {last.number} ends ({last.reason}): {{0}} {{0:scores}} {a}, {{1}} {{1:scores}} {b}; "
            f"totals {after.totals[0]} to {after.totals[1]}")
    facts["round_end"] = {"round": last.number, "reason": last.reason, "points": [a, b],
                          "totals": list(after.totals)}
    if after.over:
        won = winners(after)
        line += ". Shared win" if len(won) == 2 else f". {{{won[0]}}} {{{won[0]}:wins}} the match"
        facts["winners"] = won
    else:
        line += f". {{{after.dealer}}} {{{after.dealer}:deals}} round {after.round}"
    return line


def why_illegal(core: SilverBarsState, act: Action) -> str:
    action = cast(Act, act)
    seat = core.turn
    move = action.move
    i = action.vault
    n = i + 1
    if i >= VAULTS or (i < 0 and move in ("play", "miner", "rubble", "shovel", "lock", "steal", "place")):
        return f"there is no vault {n}; vaults are v1 to v5"
    if core.strike[seat]:
        return "a worker's strike lies in front of you: this turn you can only clear it (clear strike, rule 3)"
    if move == "clear":
        return "there is no strike in front of you to clear (rule 3)"
    pending = core.pending
    if pending is not None:
        options = ", ".join(str(a) for a in legal(core))
        thief = NAME[pending.thief]
        if pending.carry is None:
            return f"your {thief} must first choose which of the tied vaults to rob (rule 8): {options}"
        if move == "place":
            return f"the stolen {pending.carry} does not fit in vault {n}: {_no_silver(core, i)}"
        return f"the stolen {pending.carry} must be placed in one of your vaults now (rule 8): {options}"
    if move in ("steal", "place"):
        return f"{move} only follows a thief you have just played (rule 8)"
    mine = core.vaults[seat]
    theirs = core.vaults[1 - seat]
    if move == "lock":
        v = mine[i]
        if sum(w.locked for w in mine) >= LOCKS:
            return "you have no locks left (rule 10)"
        if v.locked:
            return f"vault {n} is already locked"
        if v.rubble is not None:
            return f"vault {n} holds rubble; a lock goes only on silver (rule 10)"
        if not v.cards:
            return f"vault {n} is empty; a lock goes only on silver (rule 10)"
        return f"vault {n} has a miner on top; a lock goes only on silver (rule 10)"
    tok = action.tok or move
    if move == "play" and tok in MINER_TOKENS:
        return f"{tok} is a miner: write miner {tok} v1..v5 (rule 5)"
    if move == "miner" and tok in SILVER_TOKENS:
        return f"{tok} is silver: write play {tok} v1..v5 (rule 4)"
    if all(token(c) != tok for c in core.hands[seat]):
        return f"you hold no {NAME[tok]}"
    if move == "play":
        return _no_silver(core, i, SILVER_RANKS_BY_TOKEN[tok])
    if move == "miner":
        if mine[i].locked:
            return f"vault {n} is locked"
        return f"a miner goes only onto silver, and vault {n} has no silver on top (rule 5)"
    if move == "rubble":
        if theirs[i].locked:
            return f"the opponent's vault {n} is locked"
        return f"rubble goes only into an opponent's empty vault; their vault {n} is not empty (rule 6)"
    if move == "shovel":
        return f"there is no rubble in your vault {n} to remove (rule 7)"
    if move in THIEVES:
        if not any(not w.locked and w.silver_on_top for w in theirs):
            return "no unlocked opponent vault has silver on top: the thief has nothing to steal (rule 8)"
        return "the silver this thief would steal cannot be placed in any of your vaults (rule 8)"
    return f"{action} is not a legal action now"


def _no_silver(core: SilverBarsState, i: int, value: int | None = None) -> str:
    """Why vault ``i`` of the player to move does not take silver (worth ``value``, else the stolen bar)."""
    pending = core.pending
    if value is None:
        value = pending.carry.rank if pending is not None and pending.carry is not None else 0
    v = core.vaults[core.turn][i]
    n = i + 1
    if v.locked:
        return f"vault {n} is locked"
    if v.rubble is not None:
        return f"vault {n} holds rubble; shovel it out first (rules 6, 7)"
    if not v.cards:
        return f"vault {n} is empty and takes silver now"
    if v.cards[-1].rank in SILVER_RANKS:
        return f"silver never goes straight onto silver: put a miner on vault {n} first (rule 4)"
    under = token(v.cards[-2])
    return f"the silver under the miner in vault {n} is {under}; a {RANK_TOKEN[value]} must be higher (rule 4)"

