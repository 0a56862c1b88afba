"""The words of Carbon City Zero: the public log entry of each action, why an action is not legal now, and a legal
move said as a suggestion (``move_words``).

Seats are placeholders (``{0}``, ``{0:buys}``) resolved by :func:`pyengine.words.say`; in solo the
one player's two decks are named "Deck 1" and "Deck 2". Cards in play are named by their names, never by their
places in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import Action
from ...words import Entry, listed, plain
from .cards import CARBON_MAX, CARDS, CardType
from .notation import TARGET_CHOICES, Buy, EndTurn, Use
from .state import CarbonCityZeroState, canonical, cost_of, has_global, income, turn_carbon


def _who(core: CarbonCityZeroState, deck: int) -> str:
    """The deck's owner as a placeholder, or the deck's name in solo."""
    return f"Deck {deck + 1}" if core.players == 1 else f"{{{deck}}}"


def _verb(core: CarbonCityZeroState, deck: int, verb: str) -> str:
    """A verb that agrees with :func:`_who` ("you buy", "Computer 2 buys", "Deck 1 buys")."""
    return verb if core.players == 1 else f"{{{deck}:{verb}}}"


def _seat(core: CarbonCityZeroState) -> int:
    return 0 if core.players == 1 else core.active


def describe(before: CarbonCityZeroState, action: Action, after: CarbonCityZeroState) -> Entry:
    """The log entry: who did what, the cards bought or played and the carbon change (all public)."""
    deck = before.active
    who = _who(before, deck)
    facts: dict[str, Any] = {"deck": deck}
    if isinstance(action, Use):
        card = CARDS[action.name]
        facts |= {"card": action.name, "place": action.index}
        if action.ability == "link":
            facts |= {"kind": "link", "link": card.link_text}
            if card.link == "carbon":
                facts["carbon"] = card.link_bonus
            text = f"{who} {_verb(before, deck, 'uses')} the link of {plain(action.name)}: {link_words(card)}"
            return Entry(_seat(before), text, facts)
        facts |= {"kind": "special", "special": card.special_text}
        text = f"{who} {_verb(before, deck, 'uses')} the special rule of {plain(action.name)}"
        if card.special in ("draw", "search-deck"):
            new = [s[0] for s in after.in_play[len(before.in_play) :]]
            facts["into_play"] = new
            text += ", " + (f"putting {plain(listed(new))} into play" if new else "with no card left to draw")
        elif action.target:
            facts["target"] = action.target
            text += ", " + SPECIAL_DONE[card.special].format(plain(action.target))
        else:
            text += ": " + special_words(card)
        return Entry(_seat(before), text + _revealed(before, after, facts), facts)
    if isinstance(action, Buy):
        cost = cost_of(before, action.name)
        facts |= {"kind": "buy", "card": action.name, "cost": cost}
        text = f"{who} {_verb(before, deck, 'buys')} {plain(action.name)} for {cost}"
        return Entry(_seat(before), text + _revealed(before, after, facts), facts)
    assert isinstance(action, EndTurn)
    change = turn_carbon(before)
    facts |= {"kind": "end-turn", "played": [s[0] for s in before.in_play], "carbon": change}
    text = f"{who} {_verb(before, deck, 'ends')} the turn"
    if action.gift >= 0:
        facts |= {"kind": "gift", "gift": action.gift}
        text = (
            f"{who} {_verb(before, deck, 'gives')} a Budget to {_who(before, action.gift)} through Global Funding "
            f"and {_verb(before, deck, 'ends')} the turn"
        )
    now = after.decks[deck].carbon if before.rivalry else after.carbon
    facts["now"] = now
    text += ": " + carbon_words(change, now)
    text += _end_words(before, after, facts)
    return Entry(_seat(before), text, facts)


def _end_words(before: CarbonCityZeroState, after: CarbonCityZeroState, facts: dict[str, Any]) -> str:
    """What follows a turn's end in its log entry: the game's result (with ``result`` and ``winners`` in
    ``facts``), else the rounds left when the counter moved (``rounds_left``)."""
    text = ""
    if after.result:
        facts |= {"result": after.result, "winners": list(after.winners)}
    if after.result == "won":
        text += ". Carbon zero: everyone wins!"
    elif after.result == "lost":
        text += ". Time's up: the city did not reach zero."
    elif after.result == "over":
        winners = after.winners
        if len(winners) == 1:
            text += f". The game is over: {{{winners[0]}}} {{{winners[0]}:wins}}."
        else:
            text += ". The game is over: " + ", ".join(f"{{{w}}}" for w in winners) + " win."
    elif not before.rivalry and after.rounds_left < before.rounds_left:
        facts["rounds_left"] = after.rounds_left
        if after.carbon == CARBON_MAX:
            text += ", and at 65 the round counter moves an extra space"
        left = after.rounds_left
        text += f"; {left} round{'s' if left != 1 else ''} left"
    return text


def _revealed(before: CarbonCityZeroState, after: CarbonCityZeroState, facts: dict[str, Any]) -> str:
    """What a market refill revealed (snags and Globals are public), in words and in ``facts``."""
    notes = []
    new_globals = [g for g in after.global_area if g not in before.global_area]
    if new_globals:
        facts["globals"] = new_globals
        notes.append(plain(listed(new_globals)) + f" {'joins' if len(new_globals) == 1 else 'join'} the Global area")
    bd, ad = before.decks[before.active], after.decks[before.active]
    snags = []
    if ad.recycle[: len(bd.recycle)] == bd.recycle:
        snags = [n for n in ad.recycle[len(bd.recycle) :] if CARDS[n].sector == "snag"]
    if snags:
        facts["snags"] = snags
        said = "the snag {} goes" if len(snags) == 1 else "the snags {} go"
        notes.append(said.format(plain(listed(snags))) + " to the recycle pile")
    return "; " + "; ".join(notes) if notes else ""


SPECIAL_DONE = {
    "discard-in-play": "discarding {} from play", "discard-market": "discarding {} from the marketplace",
    "search-deck": "putting {} from the deck into play", "search-global": "revealing the Global card {}",
}
"""A special that names a card, done (``{}`` stands for the card)."""
SPECIAL_WORDS = {
    "discard-in-play": "discard another card in play", "discard-market": "discard a marketplace card",
    "topdeck-next": "the next card bought goes on top of the draw deck",
    "factories-zero": "factories count no carbon this turn",
    "search-deck": "put any card of the draw deck into play", "search-global": "reveal a Global card",
}
"""What each kind of special rule does, in words."""


def special_words(card: CardType) -> str:
    """What a card's special rule does: ``draw 2 cards into play``, ``discard a marketplace card``."""
    if card.special == "draw":
        return f"draw {card.draws} {'card' if card.draws == 1 else 'cards'} into play"
    return SPECIAL_WORDS.get(card.special, "nothing")


def link_words(card: CardType) -> str:
    """What a card's link does: ``1 carbon less this turn``, ``factories count no carbon this turn``."""
    if card.link == "carbon":
        return f"{abs(card.link_bonus)} carbon less this turn"
    return SPECIAL_WORDS.get(card.link, "nothing")


def carbon_words(change: int, now: int) -> str:
    """A turn's carbon change: ``carbon rises by 3 to 59``, ``carbon falls by 2 to 57``, ``carbon stays at 57``."""
    if change > 0:
        return f"carbon rises by {change} to {now}"
    if change < 0:
        return f"carbon falls by {-change} to {now}"
    return f"carbon stays at {now}"


def why_illegal(core: CarbonCityZeroState, action: Action) -> str:
    """Why a well-written action is not legal now (the game is not over), in words."""
    if isinstance(action, Use):
        return _why_use(core, action)
    if isinstance(action, EndTurn):
        return _why_gift(core, action)
    assert isinstance(action, Buy)
    name = action.name
    if name not in CARDS:
        return f"there is no card called {name}"
    if name not in core.market:
        return f"{name} is not in the marketplace"
    left = income(core) - core.spent
    return f"{name} costs {cost_of(core, name)} and you have {left} income left"


def _why_gift(core: CarbonCityZeroState, action: EndTurn) -> str:
    if core.rivalry or not has_global(core, "funding-gift"):
        return "only Global Funding lets you give a Budget away, and it is not in the Global area"
    solo = core.players == 1
    if action.solo != solo:
        return "in solo the Budget goes to your other deck" if solo else "give the Budget to another player"
    if not 0 <= action.gift < len(core.decks):
        return f"there is no such {'deck' if solo else 'player'}"
    if action.gift == core.active:
        return "the Budget goes to another player's hand, not your own"
    if income(core) - core.spent <= 0:
        return "Global Funding's gift needs unspent income"
    return "you have no Budget in play to give"


def _why_use(core: CarbonCityZeroState, action: Use) -> str:
    if action.name not in CARDS:
        return f"there is no card called {action.name}"
    if not 0 <= action.index < len(core.in_play):
        return f"there is no such {action.name} in play"
    slot = core.in_play[action.index]
    if slot[0] != action.name:
        return f"that card in play is {slot[0]}, not {action.name}"
    if core.buying:
        return "specials and links come before buying, and you have already bought a card"
    first = canonical(core.in_play, action.index)
    if first != action.index:
        return f"identical cards in play are one choice: use the first {action.name}"
    card = CARDS[action.name]
    if action.ability == "special":
        if not card.special:
            return f"{action.name} has no special rule"
        if slot[1]:
            return f"the special rule of {action.name} has already been used"
        if action.choice != (card.special if action.choice else ""):
            return f"the special rule of {action.name} is: {special_words(card)}"
        return _why_target(core, action, special_words(card))
    if not card.link:
        return f"{action.name} has no link ability"
    if slot[2]:
        return f"the link of {action.name} has already been used"
    if any(CARDS[s[0]].effect == "no-links" for s in core.in_play):
        return "Local Opposition: no links this turn"
    if sum(1 for s in core.in_play if CARDS[s[0]].sector == card.sector) < 2:
        return f"a link needs another {card.sector} card in play"
    return f"the link of {action.name} would change nothing now: factories already count no carbon"


def _why_target(core: CarbonCityZeroState, action: Use, special: str) -> str:
    """A special's choice that is not on offer (or a choice missing or given where none is asked)."""
    choice, target = action.choice, action.target
    if not choice and CARDS[action.name].special in TARGET_CHOICES:
        return f"the special rule of {action.name} needs a card to be chosen: {special}"
    if choice == "discard-in-play":
        if not 0 <= action.target_index < len(core.in_play) or action.target_index == action.index:
            return f"discard another of your cards in play, not {action.name} itself"
        if core.in_play[action.target_index][0] != target:
            return f"that card in play is {core.in_play[action.target_index][0]}, not {target}"
        return f"identical cards in play are one choice: discard the first {target}"
    if choice == "discard-market" and target not in core.market:
        return f"{target} is not in the marketplace"
    if choice == "search-deck":
        return f"there is no {target} in your draw deck"
    if choice == "search-global":
        if target in core.global_area:
            return f"{target} is already in the Global area"
        return f"there is no Global card {target} in the market deck"
    if CARDS[action.name].special == "draw":
        return f"the special rule of {action.name} has no card left to draw"
    return f"the special rule of {action.name} would change nothing now"


def move_words(facts: Mapping[str, Any]) -> str:
    """A legal move said to the player who may make it, from its facts (seats as placeholders): ``buy Bike Lanes
    for 2``, ``use the special rule of Stock Exchange to discard Car Share from the marketplace``."""
    kind = facts["kind"]
    name = plain(facts.get("name", ""))
    if kind == "buy":
        return f"buy {name} for {facts['cost']}"
    if kind == "end-turn":
        return "end your turn"
    if kind == "gift":
        return f"give a Budget to {{{facts['gift']}}} and end your turn"
    if kind == "gift-deck":
        return f"give a Budget to Deck {facts['gift'] + 1} and end your turn"
    if kind == "link":
        return f"use the link of {name}"
    target = plain(facts.get("target", ""))
    if kind in SPECIAL_DONE:
        return f"use the special rule of {name}, " + SPECIAL_DONE[kind].format(target)
    return f"use the special rule of {name}"
