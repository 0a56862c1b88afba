"""Carbondale in words: the public log (``describe``), why an action is refused (``why_illegal``) and a legal
move said as a suggestion (``move_words``).

A card in a network is named by its card and, for a build, the black card it is built from ("A♢ north of A♠"):
never by its grid cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...core import Action
from ...words import Entry
from .network import build_limit, can_defend, network
from .notation import STEP, Build, Claim, Contribute, Decline, Defend, Discard, DrawPile, EndTurn, TakeStock
from .state import (
    ACT,
    CLAIM_ATTEMPTS,
    CONTRIBUTE,
    DEFEND,
    DISCARD,
    OVER,
    ROUND_LIMIT,
    CarbondaleState,
    scores,
)

ENDINGS = {
    "goal": "{w} {w:wins} with 7 of one red suit and 3 of the other!",
    "stalemate": "Three rounds without a build: the game ends; best progress: {w}",
    "limit": f"The {ROUND_LIMIT}-round limit is reached; best progress: {{w}}",
}
"""How the game ended (``{w}`` stands for the winners)."""


def _cards_of(action: Action) -> tuple[Card, ...]:
    return tuple(getattr(action, name) for name in ("card", "target", "challenge", "source") if hasattr(action, name))


# -- the log -----------------------------------------------------------------------------

def describe(before: CarbondaleState, action: Action, after: CarbondaleState) -> Entry:
    """The public log entry of ``action``: its words (seats as placeholders) and facts, with the ending once over."""
    seat = before.pending.owner if before.phase == DEFEND and before.pending is not None else before.current
    if isinstance(action, (Claim, Defend, Decline)):
        text, facts = _challenge_words(before, action, seat)
    else:
        text, facts = _turn_words(before, action, after, seat)
    if after.phase == OVER:
        winners = " and ".join(f"{{{w}}}" for w in after.winners)
        verb = f"{{{after.winners[0]}:wins}}" if len(after.winners) == 1 else "win"
        ending = ENDINGS[after.ending].replace("{w:wins}", verb).replace("{w}", winners)
        text += f". {ending}"
        facts |= {"ending": after.ending, "winners": list(after.winners), "scores": scores(after)}
    return Entry(seat, text, facts)


def _challenge_words(before: CarbondaleState, action: Action, seat: int) -> tuple[str, dict[str, Any]]:
    """The words and facts of a claim, a defence or a declined defence (rules 19 and 20)."""
    who = f"{{{seat}}}"
    facts: dict[str, Any]
    if isinstance(action, Claim):
        text = (
            f"{who} {{{seat}:challenges}} for the {action.target} in {{{action.owner}:poss}} network "
            f"with {action.challenge}"
        )
        facts = {"kind": "claim", "owner": action.owner, "target": action.target.text, "x": action.x,
                 "y": action.y, "challenge": action.challenge.text}
    elif isinstance(action, Defend):
        text = f"{who} {{{seat}:defends}} with {action.card}; the claim fails and both cards go face down"
        pending = before.pending
        facts = {"kind": "defend", "card": action.card.text,
                 "challenge": pending.card.text if pending else None}
    elif isinstance(action, Decline):
        pending = before.pending
        assert pending is not None
        taker = before.current
        text = f"{who} {{{seat}:does}} not defend; {{{taker}}} {{{taker}:takes}} {pending.target}"
        facts = {"kind": "decline", "owner": pending.owner, "taker": taker, "target": pending.target.text,
                 "x": pending.x, "y": pending.y, "challenge": pending.card.text}
    return text, facts


def _turn_words(
    before: CarbondaleState, action: Action, after: CarbondaleState, seat: int
) -> tuple[str, dict[str, Any]]:
    """The words and facts of a build, a contribution, a discard, a draw, a take from the stock or a turn's end."""
    who = f"{{{seat}}}"
    facts: dict[str, Any]
    if isinstance(action, Build):
        text = f"{who} {{{seat}:builds}} {action.card} {action.direction} of {{{seat}:their}} {action.source}"
        bonus = after.draw_to > before.draw_to
        if bonus:
            text += ", which earns an extra card at the draw"
        dx, dy = STEP[action.direction]
        facts = {"kind": "build", "card": action.card.text, "x": action.x, "y": action.y,
                 "direction": action.direction, "source": action.source.text,
                 "from": [action.x - dx, action.y - dy], "bonus": bonus}
    elif isinstance(action, Contribute):
        text = f"{who} {{{seat}:contributes}} {action.card} to the communal stock"
        facts = {"kind": "contribute", "card": action.card.text}
    elif isinstance(action, Discard):
        if action.face_up:
            text = f"{who} {{{seat}:discards}} {action.card} face up"
            facts = {"kind": "discard", "card": action.card.text, "face_up": True}
        else:
            text = f"{who} {{{seat}:discards}} a card face down"
            facts = {"kind": "discard", "face_up": False}  # the card stays hidden
    elif isinstance(action, DrawPile):
        reformed = not before.pile
        if reformed:
            used = " the next spare pile," if before.spares else ""
            kept = " (not the cards put down this turn)" if before.fresh or before.buried else ""
            text = (
                f"The draw pile is re-formed from{used} the stock and the face-down discards{kept}; "
                f"{who} {{{seat}:draws}}"
            )
        else:
            text = f"{who} {{{seat}:draws}} from the pile"
        facts = {"kind": "draw", "reformed": reformed}
    elif isinstance(action, TakeStock):
        text = f"{who} {{{seat}:takes}} {action.card} from the communal stock"
        facts = {"kind": "take", "card": action.card.text}
    else:
        assert isinstance(action, EndTurn)
        text = f"{who} {{{seat}:ends}} the turn"
        facts = {"kind": "end"}
    return text, facts


# -- refusals ------------------------------------------------------------------------------

RANKS = {1: "an ace", 8: "an 8"}


def rank_words(rank: int) -> str:
    """A rank with its article: ``an ace``, ``a 5``, ``an 8``."""
    return RANKS.get(rank, f"a {rank}")


def why_illegal(core: CarbondaleState, action: Action) -> str:
    """Why a well-written action is not legal now (the game is not over), in words."""
    for card in _cards_of(action):
        if not 1 <= card.rank <= 10:
            return f"{card} is not a Carbondale card: only aces to 10s are played"
    hand = core.hands[core.current]
    if core.phase == DEFEND:
        pending = core.pending
        assert pending is not None
        if isinstance(action, Defend):
            if action.card not in core.hands[pending.owner]:
                return f"you have no {action.card} in hand"
            if not can_defend(pending.card, action.card):
                return (
                    f"a defence against the {pending.card} needs a {pending.card.colour} card "
                    f"of {rank_words(pending.card.rank)} or higher"
                )
        return "the challenge must first be answered: defend with a card or let the card go"
    if isinstance(action, Defend | Decline):
        return "there is no challenge to answer"
    if core.phase == CONTRIBUTE and not isinstance(action, Contribute):
        return "after a build you must contribute a card from your hand to the communal stock"
    if isinstance(action, Contribute):
        if core.phase != CONTRIBUTE:
            return "you contribute a card only right after a build"
        return f"you have no {action.card} in hand"
    if isinstance(action, Claim):
        return _why_claim(core, action)
    if isinstance(action, Build):
        return _why_build(core, action)
    if isinstance(action, Discard):
        if core.phase not in (ACT, DISCARD):
            return "you may discard only instead of building, and before drawing"
        return f"you have no {action.card} in hand"
    if isinstance(action, EndTurn):
        return f"you must first draw up to {core.draw_to} cards"
    if len(hand) >= core.draw_to:
        return f"you draw nothing: your hand already holds {len(hand)} cards"
    if isinstance(action, DrawPile):
        if core.fresh or core.buried:
            return (
                "the draw pile is empty and there is nothing to re-form it from: the cards you put down "
                "this turn stay out of it"
            )
        return "the draw pile is empty and there is nothing to re-form it from"
    assert isinstance(action, TakeStock)
    if action.card not in core.stock:
        return f"there is no {action.card} in the communal stock"
    return f"you put that {action.card} down this turn, so you may not draw it back"


def _why_claim(core: CarbondaleState, action: Claim) -> str:
    target, x, y, owner = action.target, action.x, action.y, action.owner
    if core.phase != ACT:
        return "claims come first in a turn, before building, discarding or drawing"
    if core.claimed:
        return "you already claimed a card this turn; a second attempt follows only a failed one"
    if core.claims >= CLAIM_ATTEMPTS:
        return "you have already made two claim attempts this turn"
    if not 0 <= owner < core.players or owner == core.current:
        return "you may claim only from an opponent's network"
    net = network(core.networks[owner])
    here = [p for p in net.cells.get((x, y), ()) if p.card == target]
    if not here:
        return f"that network has no {target} there"
    if not net.is_vulnerable(here[0]):
        reason = (
            "a starting card"
            if here[0].start
            else ("sharing its place with another red card" if target.is_red else "something is built from it")
        )
        return f"that {target} is not vulnerable: it is {reason}"
    if action.challenge not in core.hands[core.current]:
        return f"you have no {action.challenge} in hand"
    return f"to claim the {target} you need a {target.colour} card of {rank_words(target.rank + 2)} or higher"


def _why_build(core: CarbondaleState, action: Build) -> str:
    card, x, y, source = action.card, action.x, action.y, action.source
    if core.phase != ACT:
        return "you may build only once a turn, instead of discarding and before drawing"
    hand = core.hands[core.current]
    if card not in hand:
        return f"you have no {card} in hand"
    if len(hand) < 2:
        return "a build needs another card left in your hand to contribute to the stock"
    dx, dy = STEP[action.direction]
    net = network(core.networks[core.current])
    src = net.cells.get((x - dx, y - dy), ())
    if not src or src[0].card != source:
        return f"your network has no {source} there to build from"
    if not source.is_black:
        return "red cards are never built from: build from a black card"
    problem = net.room_for(card, x, y)
    if problem:
        return problem
    limit = build_limit(source, card, core.any_black_to_red)
    if limit is None:
        return f"a {card.suit} card cannot be built from a {source.suit} card"
    return f"from the {source} you may build a {card.suit} card only up to {rank_words(limit)}"


def move_words(facts: Mapping[str, Any]) -> str:
    """A legal move said to the player who may make it, from its facts (seats as placeholders):
    ``build the 5♣ north of your 4♣``, ``claim the 3♡ in {1:poss} network with your 5♡``."""
    kind = facts["kind"]
    card = facts.get("card", "")
    if kind == "build":
        return f"build the {card} {facts['direction']} of your {facts['source']}"
    if kind == "claim":
        return (f"claim the {facts['target']} in {{{facts['owner']}:poss}} network "
                f"with your {facts['challenge']}")
    if kind == "discard":
        return f"discard the {card} face {'up to the communal stock' if facts['face_up'] else 'down'}"
    said = {"contribute": f"contribute the {card} to the communal stock", "take": f"take the {card} from the stock",
            "defend": f"defend with your {card}", "decline": "let the claimed card go",
            "draw": "draw from the pile", "end": "end your turn"}
    return said.get(kind, str(kind))
