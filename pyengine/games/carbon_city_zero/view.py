"""What a seat sees of Carbon City Zero (everything but the order of the face-down piles), the facts
the page needs to place each legal action, and the named positions.

Hands are open and every deck's contents are public (rule 2 and the site's choices), so every
seat sees the same view; only the order of the draw decks (below cards known to be on top, rule 20)
and of the market deck is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import Action, NamedPosition
from .cards import CARBON_MAX, CARDS
from .notation import NOTATION, Buy, Use
from .state import CarbonCityZeroState, canonical, cost_of, hand_size, income, owned_carbon, turn_carbon

POSITIONS: Mapping[str, NamedPosition] = {}
"""Named positions (none yet: the rules page has no figures)."""

CARD_VIEW: dict[str, dict[str, Any]] = {
    c.name: {
        "sector": c.sector,
        "cost": c.cost,
        "income": c.income,
        "carbon": c.carbon,
        "special": c.special_text,
        "link": c.link_text,
        "effect": c.effect,
    }
    for c in CARDS.values()
}
"""Every card's printed values, by name (the same in every view)."""


def view(core: CarbonCityZeroState, seat: int | None, usable: set[tuple[int, str]]) -> dict[str, Any]:
    """The view of any seat: ``usable`` holds (place in play, "special" / "link") of the abilities usable now."""
    solo = core.players == 1
    decks = _decks_view(core)
    draw_counts = [0] * core.players
    for i, d in enumerate(core.decks):
        draw_counts[0 if solo else i] += len(d.draw)
    in_play = []
    for i, (name, special_used, link_used) in enumerate(core.in_play):
        first = canonical(core.in_play, i)
        in_play.append(
            {
                "index": i + 1,
                "name": name,
                "special_used": special_used,
                "link_used": link_used,
                "special_usable": (first, "special") in usable,
                "link_usable": (first, "link") in usable,
            }
        )
    total = income(core)
    return {
        "variant": "rivalry" if core.rivalry else "cooperative",
        "solo": solo,
        "carbon": core.carbon,
        "carbon_max": CARBON_MAX,
        "rounds_left": core.rounds_left,
        "round": core.round,
        "result": core.result,
        "ender": core.ender,
        "playing_deck": core.active,
        "decks": decks,
        "draw_counts": draw_counts,
        "in_play": in_play,
        "income": total,
        "spent": core.spent,
        "income_left": total - core.spent,
        "buying": core.buying,
        "link_bonus": core.link_bonus,
        "factories_zero": core.factories_zero,
        "topdeck": core.topdeck,
        "turn_carbon": turn_carbon(core),
        "hand_size": hand_size(core),
        "market": [[n, cost_of(core, n)] for n in core.market],
        "market_deck_count": len(core.market_deck),
        "discard": list(core.discard),
        "global_area": list(core.global_area),
        "cards": CARD_VIEW,
    }


def _decks_view(core: CarbonCityZeroState) -> list[dict[str, Any]]:
    """Each deck as every seat sees it: its owner, hand, the draw pile's cards by name (not their order), the
    cards known on top, the recycle pile and its carbon."""
    solo = core.players == 1
    decks = []
    for i, d in enumerate(core.decks):
        counts: dict[str, int] = {}
        for name in d.draw:
            counts[name] = counts.get(name, 0) + 1
        decks.append(
            {
                "owner": 0 if solo else i,
                "hand": list(d.hand),
                "draw_cards": [[n, counts[n]] for n in sorted(counts)],
                "known_top": list(d.draw[: d.known_top]),
                "recycle": list(d.recycle),
                "carbon": d.carbon if core.rivalry else None,
                "owned_carbon": owned_carbon(core, i),
            }
        )
    return decks


def facts(core: CarbonCityZeroState, action: Action) -> dict[str, Any]:
    """The notation's facts, plus where the action is clicked: ``in_play`` (the places in play of the
    identical cards whose ability it is; identical cards are one choice), ``target_in_play`` (the places
    of a discard-in-play target and its identical cards), ``cost`` (of a purchase)."""
    out = NOTATION.facts(action)
    if isinstance(action, Use):
        slots = core.in_play
        mine = slots[action.index]
        out["ability"] = action.ability
        out["in_play"] = [k for k, slot in enumerate(slots) if slot == mine]
        if action.choice == "discard-in-play":
            other = slots[action.target_index]
            out["target_in_play"] = [k for k, slot in enumerate(slots) if slot == other and k != action.index]
    elif isinstance(action, Buy):
        out["cost"] = cost_of(core, action.name)
    return out
