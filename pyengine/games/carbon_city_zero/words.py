"""The words of Carbon City Zero: the public log entry of each action and why an action is not legal now.

Seats are placeholders (``{0}``, ``{0:buys}``) resolved by :func:`pyengine.words.say`; in solo the
one player's two decks are named "Deck 1" and "Deck 2" (rule 27).
"""

from __future__ import annotations

from typing import Any

from ...core import Action
from ...words import Entry, plain
from .cards import CARBON_MAX, CARDS
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
            text = f"{who} {_verb(before, deck, 'uses')} the link of {plain(action.name)} ({plain(card.link_text)})"
            return Entry(_seat(before), text, facts)
        facts |= {"kind": "special", "special": card.special_text}
        text = f"{who} {_verb(before, deck, 'uses')} the special rule of {plain(action.name)} ({card.special_text})"
        if card.special in ("draw", "search-deck"):
            new = [s[0] for s in after.in_play[len(before.in_play) :]]
            facts["into_play"] = new
            text += ": " + (plain(", ".join(new)) + " into play" if new else "no card left to draw")
        elif action.target:
            facts["target"] = action.target
            text += f": {plain(action.target)}"
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
            f"{who} {_verb(before, deck, 'gives')} a Budget to {_who(before, action.gift)} (Global Funding) "
            f"and {_verb(before, deck, 'ends')} the turn"
        )
    now = after.decks[deck].carbon if before.rivalry else after.carbon
    facts["now"] = now
    text += f": carbon {change:+d}, now {now}"
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
            text += " (at 65 the round counter moves an extra space)"
        left = after.rounds_left
        text += f"; {left} round{'s' if left != 1 else ''} left"
    return text


def _revealed(before: CarbonCityZeroState, after: CarbonCityZeroState, facts: dict[str, Any]) -> str:
    """What a market refill revealed (snags and Globals are public, rules 24-25), in words and in ``facts``."""
    notes = []
    new_globals = [g for g in after.global_area if g not in before.global_area]
    if new_globals:
        facts["globals"] = new_globals
        notes.append("Global area: " + plain(", ".join(new_globals)))
    bd, ad = before.decks[before.active], after.decks[before.active]
    snags = []
    if ad.recycle[: len(bd.recycle)] == bd.recycle:
        snags = [n for n in ad.recycle[len(bd.recycle) :] if CARDS[n].sector == "snag"]
    if snags:
        facts["snags"] = snags
        notes.append("snag to the recycle pile: " + plain(", ".join(snags)))
    return "; " + "; ".join(notes) if notes else ""


def why_illegal(core: CarbonCityZeroState, action: Action) -> str:
    """Why a well-written action is not legal now (the game is not over), citing the rules page."""
    if isinstance(action, Use):
        return _why_use(core, action)
    if isinstance(action, EndTurn):
        return _why_gift(core, action)
    assert isinstance(action, Buy)
    name = action.name
    if name not in CARDS:
        return f"there is no card called {name!r}"
    if name not in core.market:
        return f"{name} is not in the marketplace"
    left = income(core) - core.spent
    return f"{name} costs {cost_of(core, name)} and you have {left} income left (rule 8)"


def _why_gift(core: CarbonCityZeroState, action: EndTurn) -> str:
    if core.rivalry or not has_global(core, "funding-gift"):
        return "only Global Funding lets you give a Budget away (rule 25), and it is not in the Global area"
    solo = core.players == 1
    if action.solo != solo:
        return "in solo the Budget goes to your other deck: 'give Budget to deck N and end turn'" if solo else (
            "give the Budget to a player: 'give Budget to player N and end turn'"
        )
    if not 0 <= action.gift < len(core.decks):
        return f"there is no {'deck' if solo else 'player'} {action.gift + 1}"
    if action.gift == core.active:
        return "the Budget goes to another player's hand, not your own (rule 25)"
    if income(core) - core.spent <= 0:
        return "Global Funding's gift needs unspent income (rule 25)"
    return "you have no Budget in play to give (rule 25)"


def _why_use(core: CarbonCityZeroState, action: Use) -> str:
    number = f"#{action.index + 1}"
    if action.name not in CARDS:
        return f"there is no card called {action.name!r}"
    if not 0 <= action.index < len(core.in_play):
        return f"there is no card {number} in play"
    slot = core.in_play[action.index]
    if slot[0] != action.name:
        return f"card {number} in play is {slot[0]}, not {action.name}"
    if core.buying:
        return "specials and links come before buying (rule 8): you have already bought a card"
    first = canonical(core.in_play, action.index)
    if first != action.index:
        return f"identical cards in play are one choice: write #{first + 1}"
    card = CARDS[action.name]
    if action.ability == "special":
        if not card.special:
            return f"{action.name} has no special rule"
        if slot[1]:
            return f"the special rule of {action.name} has already been used (rule 6)"
        if action.choice != (card.special if action.choice else ""):
            return f"the special rule of {action.name} is {card.special_text} (rules 17-23)"
        return _why_target(core, action, card.special_text)
    if not card.link:
        return f"{action.name} has no link ability"
    if slot[2]:
        return f"the link of {action.name} has already been used (rule 16)"
    if any(CARDS[s[0]].effect == "no-links" for s in core.in_play):
        return "Local Opposition: no links this turn (rule 24)"
    if sum(1 for s in core.in_play if CARDS[s[0]].sector == card.sector) < 2:
        return f"a link needs another {card.sector} card in play (rule 16)"
    return f"the link of {action.name} would change nothing now (factories already count 0)"


def _why_target(core: CarbonCityZeroState, action: Use, special: str) -> str:
    """A special's choice that is not on offer (or a choice missing or given where none is asked)."""
    choice, target = action.choice, action.target
    if not choice and CARDS[action.name].special in TARGET_CHOICES:
        return f"the special rule of {action.name} ({special}) needs a choice, e.g. '{_example(action)}'"
    if choice == "discard-in-play":
        if not 0 <= action.target_index < len(core.in_play) or action.target_index == action.index:
            return f"discard another of your cards in play, not #{action.target_index + 1} (rule 18)"
        if core.in_play[action.target_index][0] != target:
            return f"card #{action.target_index + 1} in play is {core.in_play[action.target_index][0]}, not {target}"
        return f"identical cards in play are one choice: discard the first {target} other than #{action.index + 1}"
    if choice == "discard-market" and target not in core.market:
        return f"{target} is not in the marketplace (rule 19)"
    if choice == "search-deck":
        return f"there is no {target} in your draw deck (rule 22)"
    if choice == "search-global":
        if target in core.global_area:
            return f"{target} is already in the Global area (rule 23)"
        return f"there is no Global card {target} in the market deck (rule 23)"
    if CARDS[action.name].special == "draw":
        return f"the special rule of {action.name} ({special}) has no card left to draw (rule 17)"
    return f"the special rule of {action.name} ({special}) would change nothing now"


def _example(action: Use) -> str:
    head = f"use {action.name} #{action.index + 1} special"
    special = CARDS[action.name].special
    if special == "discard-in-play":
        return head + ": discard <card> #<n>"
    if special == "discard-market":
        return head + ": discard <card> from the market"
    if special == "search-deck":
        return head + ": take <card> from the deck"
    return head + ": reveal <card>"
