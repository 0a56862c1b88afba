"""100 Silver Bars in words: the public log (``describe``), why an action is refused (``why_illegal``) and a
legal move said as a suggestion (``move_words``).

Vaults are named by where they stand in a row: "your leftmost vault", "Computer 2's middle vault".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ...core import Action
from ...words import Entry, listed
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

OPPONENTS = "your opponent's"
ON_THEIR_SIDE = frozenset({"rubble", "steal"})
"""Moves whose vault is the opponent's."""
MOVE_NAME = {"play": "silver", "miner": "a miner", "rubble": "rubble", "shovel": "a shovel", "lock": "a lock",
              "steal": "a thief", "place": "stolen silver"}
"""What a move puts on a vault, named in a refusal."""


VAULT_PLACES = ("leftmost", "second", "middle", "fourth", "rightmost")
"""Each vault by where it stands in its row (vault 0 is on the left)."""


def vault_words(vault: int, whose: str = "the") -> str:
    """A vault in words: ``the middle vault``, with ``whose`` (``your``, ``{1:poss}``) before it."""
    place = VAULT_PLACES[vault] if 0 <= vault < len(VAULT_PLACES) else "missing"
    return f"{whose} {place} vault"


def card_words(card: object, role: str) -> str:
    """A card with the role it plays: ``silver 6♣``, ``miner 8♡``, ``rubble K♣``."""
    return f"{role} {card}"


def describe(before: SilverBarsState, act: Action, after: SilverBarsState) -> Entry:
    """The public log entry of ``act``: its words (seats as placeholders) and facts, with the round's end."""
    action = cast(Act, act)
    seat = before.turn
    other = 1 - seat
    who, them, their = f"{{{seat}}}", f"{{{other}:poss}}", f"{{{seat}:their}}"

    def does(verb: str) -> str:
        return f"{who} {{{seat}:{verb}}}"

    move = action.move
    i = action.vault
    facts: dict[str, Any] = {"kind": move}
    if i >= 0:
        facts.update(vault=i, side=other if move in ON_THEIR_SIDE else seat)
    draws = f" and {{{seat}:draws}}"
    if move == "clear":
        line = f"{does('spends')} the turn clearing the worker's strike"
        facts["card"] = str(STRIKE)
    elif move == "lock":
        line = f"{does('locks')} {vault_words(i, their)}"
    elif move == "steal":
        carry = after.pending.carry if after.pending else None
        line = f"{does('steals')} {carry} from {vault_words(i, them)}"
        facts["card"] = str(carry)
    elif move == "place":
        carry = before.pending.carry if before.pending else None
        line = f"{does('places')} the stolen {carry} in {vault_words(i, their)}{draws}"
        facts["card"] = str(carry)
    else:
        line = _card_words(before, action, after, facts, does) + ("" if move in THIEVES else draws)
    if after.round != before.round or after.over:
        line += _round_end(after, facts)
    return Entry(seat, line, facts)


def _card_words(before: SilverBarsState, action: Act, after: SilverBarsState, facts: dict[str, Any],
                does: Any) -> str:
    """The words of a card played or discarded from the hand (without the draw), adding its facts."""
    seat, move, i = before.turn, action.move, action.vault
    other = 1 - seat
    them, their = f"{{{other}:poss}}", f"{{{seat}:their}}"
    card, _ = take_card(before.hands[seat], action.tok or move)
    facts["card"] = str(card)
    if move == "discard":
        return f"{does('discards')} {card}"
    if move == "play":
        return f"{does('puts')} {card_words(card, 'silver')} in {vault_words(i, their)}"
    if move == "miner":
        return f"{does('puts')} {card_words(card, 'miner')} on {vault_words(i, their)}"
    if move == "rubble":
        return f"{does('drops')} {card_words(card, 'rubble')} into {vault_words(i, them)}"
    if move == "shovel":
        facts["removed"] = str(before.vaults[seat][i].rubble)
        return f"{does('shovels')} the rubble out of {vault_words(i, their)}"
    if move == "strike":
        struck = [str(w.cards[-1]) for w in before.vaults[other]
                  if not w.locked and w.cards and w.cards[-1].rank in MINER_RANKS]
        facts.update(side=other, struck=struck)
        gone = f", sending the {'miner' if len(struck) == 1 else 'miners'} {listed(struck)} away," if struck else ""
        return f"{does('calls')} a worker's strike on {{{other}}}{gone}"
    line = f"{does('plays')} a {NAME[move]}"
    pending = after.pending
    if pending is not None and pending.carry is not None:
        line += f", stealing {pending.carry} from {vault_words(pending.source, them)}"
        facts.update(stolen=str(pending.carry), vault=pending.source, side=other)
    return line


ROUND_ENDS = {"fifth lock": "a fifth lock is placed", "draw pile empty": "the draw pile is empty"}
"""Why a round ended, in words, by the reason the rules record."""


def _round_end(after: SilverBarsState, facts: dict[str, Any]) -> str:
    """The words that end a round's last log entry (its points, the totals, then the match's end or the next
    deal), adding ``round_end`` (and ``winners``) to ``facts``."""
    last = after.last
    assert last is not None
    a, b = last.points
    why = ROUND_ENDS.get(last.reason, last.reason)
    line = (f". Round {last.number} ends, as {why}: {{0}} {{0:scores}} {a} and {{1}} {{1:scores}} {b}, "
            f"for totals of {after.totals[0]} and {after.totals[1]}")
    facts["round_end"] = {"round": last.number, "reason": last.reason, "points": [a, b],
                          "totals": list(after.totals)}
    if after.over:
        won = winners(after)
        line += ". The match is shared" if len(won) == 2 else f". {{{won[0]}}} {{{won[0]}:wins}} the match"
        facts["winners"] = won
    else:
        line += f". {{{after.dealer}}} {{{after.dealer}:deals}} round {after.round}"
    return line


def why_illegal(core: SilverBarsState, act: Action) -> str:
    """Why a well-written action is not legal now (the game is not over), in words."""
    action = cast(Act, act)
    seat = core.turn
    move = action.move
    i = action.vault
    if i >= VAULTS or (i < 0 and move in ("play", "miner", "rubble", "shovel", "lock", "steal", "place")):
        return "there is no such vault: each player has five"
    if core.strike[seat]:
        return "a worker's strike lies in front of you: this turn you can only clear it away"
    if move == "clear":
        return "there is no strike in front of you to clear"
    pending = core.pending
    if pending is not None:
        thief = NAME[pending.thief]
        if pending.carry is None:
            return f"your {thief} must first choose which of the tied vaults to rob: {_vaults_of(core)}"
        if move == "place":
            return f"the stolen {pending.carry} does not fit in {vault_words(i, 'your')}: {_no_silver(core, i)}"
        return f"the stolen {pending.carry} must be placed in one of your vaults now: {_vaults_of(core)}"
    if move in ("steal", "place"):
        return "only a thief you have just played steals"
    if move == "lock":
        return _why_not_lock(core, i)
    return _why_not_card(core, action)


def _vaults_of(core: SilverBarsState) -> str:
    """The vaults the thief's next step may choose, in words."""
    actions = [cast(Act, a) for a in legal(core)]
    whose = "your" if actions and actions[0].move == "place" else "your opponent's"
    return f"{whose} {listed([VAULT_PLACES[a.vault] for a in actions], 'or')} vault"


def _why_not_lock(core: SilverBarsState, i: int) -> str:
    mine = core.vaults[core.turn]
    v = mine[i]
    vault = vault_words(i, "your")
    if sum(w.locked for w in mine) >= LOCKS:
        return "you have no locks left"
    if v.locked:
        return f"{vault} is already locked"
    if v.rubble is not None:
        return f"{vault} holds rubble, and a lock goes only on silver"
    if not v.cards:
        return f"{vault} is empty, and a lock goes only on silver"
    return f"{vault} has a miner on top, and a lock goes only on silver"


def _why_not_card(core: SilverBarsState, action: Act) -> str:
    """Why a card of the hand cannot be played so."""
    seat, move, i = core.turn, action.move, action.vault
    tok = action.tok or move
    if move == "play" and tok in MINER_TOKENS:
        return f"a {tok} is a miner: it goes on top of the silver in one of your vaults"
    if move == "miner" and tok in SILVER_TOKENS:
        return f"{'an' if tok == 'A' else 'a'} {tok} is silver: it goes into an empty vault or onto a miner"
    if all(token(c) != tok for c in core.hands[seat]):
        return f"you hold no {NAME[tok]}"
    mine, theirs = core.vaults[seat], core.vaults[1 - seat]
    if move == "play":
        return _no_silver(core, i, SILVER_RANKS_BY_TOKEN[tok])
    if move == "miner":
        if mine[i].locked:
            return f"{vault_words(i, 'your')} is locked"
        return f"a miner goes only onto silver, and {vault_words(i, 'your')} has no silver on top"
    if move == "rubble":
        if theirs[i].locked:
            return f"{vault_words(i, OPPONENTS)} is locked"
        return f"rubble goes only into an empty vault of your opponent's, and {vault_words(i, 'their')} is not empty"
    if move == "shovel":
        return f"there is no rubble in {vault_words(i, 'your')} to remove"
    if move in THIEVES:
        if not any(not w.locked and w.silver_on_top for w in theirs):
            return "no unlocked vault of your opponent's has silver on top: the thief has nothing to steal"
        return "the silver this thief would steal cannot be placed in any of your vaults"
    return "that card cannot be played now"


def _no_silver(core: SilverBarsState, i: int, value: int | None = None) -> str:
    """Why vault ``i`` of the player to move does not take silver (worth ``value``, else the stolen bar)."""
    pending = core.pending
    if value is None:
        value = pending.carry.rank if pending is not None and pending.carry is not None else 0
    v = core.vaults[core.turn][i]
    vault = vault_words(i, "your")
    if v.locked:
        return f"{vault} is locked"
    if v.rubble is not None:
        return f"{vault} holds rubble: shovel it out first"
    if not v.cards:
        return f"{vault} is empty and takes silver now"
    if v.cards[-1].rank in SILVER_RANKS:
        return f"silver never goes straight onto silver: put a miner on {vault} first"
    under = token(v.cards[-2])
    new = RANK_TOKEN[value]
    return (f"the silver under the miner in {vault} is {_a(under)}, and the new silver must be higher "
            f"than that, not {_a(new)}")


def _a(tok: str) -> str:
    """A silver rank with its article: ``an A``, ``a 6``."""
    return f"{'an' if tok in ('A', '8') else 'a'} {tok}"


def move_words(facts: Mapping[str, Any]) -> str:
    """A legal move said to the player who may make it, from its facts: ``put your silver 6 in your middle vault``
    (seats as placeholders: the vault's side is ``{side:poss}``)."""
    kind = facts["kind"]
    tok = facts.get("token", "")
    name = NAME.get(tok, tok)
    vault = vault_words(facts["vault"], f"{{{facts['side']}:poss}}") if "vault" in facts else ""
    said = {
        "play": f"put your {name} in {vault}", "miner": f"put your {name} on {vault}",
        "rubble": f"drop rubble into {vault}", "shovel": f"shovel the rubble out of {vault}",
        "lo-thief": "play your lo thief", "hi-thief": "play your hi thief", "strike": "call a worker's strike",
        "discard": f"discard your {name}", "lock": f"lock {vault}", "clear": "clear away the worker's strike",
        "steal": f"steal from {vault}", "place": f"place the stolen silver in {vault}",
    }
    return said.get(kind, str(kind))
