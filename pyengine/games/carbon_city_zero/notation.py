"""The actions of Carbon City Zero and their notation: each kind is written and read by one form.

- ``use <card> #<n> special`` / ``use <card> #<n> link``: an ability of the n-th card in play
  (rules 6, 16); a special that needs a choice names it after a colon (rules 18, 19, 22, 23):
  ``...: discard <card> #<m>``, ``...: discard <card> from the market``,
  ``...: take <card> from the deck``, ``...: reveal <card>``;
- ``buy <card>`` (rule 8);
- ``end turn``, or with Global Funding ``give Budget to player <n> and end turn``
  (``deck <n>`` in solo; rule 25).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...notation import Form, Notation, Slot, one_based
from .cards import CARDS

NAME = Slot(r"[^#:\s](?:[^#:]*[^#:\s])?", str, str, "Bike Lanes")
"""A card's name as written (any name reads; the rules say whether there is such a card)."""
PLACE = one_based(3)
"""A card's place in play, 0-based in the action, written from 1."""


class _Written:
    """``str(action)`` is its notation, written once per value (the values are shared, so this is a cache)."""

    def __str__(self) -> str:
        text: str | None = self.__dict__.get("_text")
        if text is None:
            text = NOTATION.write(self)
            object.__setattr__(self, "_text", text)
        return text


@dataclass(frozen=True)
class Use(_Written):
    """Use the special rule or the link (``ability``) of card ``index`` in play, with a target if needed."""

    index: int
    name: str
    ability: str
    """"special" or "link"."""
    target: str = ""
    target_index: int = -1
    """discard-in-play: the target's place in play."""
    choice: str = ""
    """The special's kind when it names a target (discard-in-play, discard-market, search-deck,
    search-global), else ""."""



@dataclass(frozen=True)
class Buy(_Written):
    """Buy the first marketplace card of this name."""

    name: str



@dataclass(frozen=True)
class EndTurn(_Written):
    """End the turn; with Global Funding, first give a Budget in play to deck ``gift``."""

    gift: int = -1
    solo: bool = False



Move = Use | Buy | EndTurn
"""This game's actions."""

_USE = "use {name} #{index} special"
NOTATION = Notation(
    Form("special", Use, _USE, name=NAME, index=PLACE, ability="special", choice=""),
    Form("link", Use, "use {name} #{index} link", name=NAME, index=PLACE, ability="link", choice=""),
    Form(
        "discard-in-play", Use, _USE + ": discard {target} #{target_index}",
        name=NAME, index=PLACE, target=NAME, target_index=PLACE, ability="special", choice="discard-in-play",
    ),
    Form(
        "discard-market", Use, _USE + ": discard {target} from the market",
        name=NAME, index=PLACE, target=NAME, ability="special", choice="discard-market",
    ),
    Form(
        "search-deck", Use, _USE + ": take {target} from the deck",
        name=NAME, index=PLACE, target=NAME, ability="special", choice="search-deck",
    ),
    Form(
        "search-global", Use, _USE + ": reveal {target}",
        name=NAME, index=PLACE, target=NAME, ability="special", choice="search-global",
    ),
    Form("buy", Buy, "buy {name}", name=NAME),
    Form("end-turn", EndTurn, "end turn", gift=-1),
    Form("gift", EndTurn, "give Budget to player {gift} and end turn", gift=PLACE, solo=False),
    Form("gift-deck", EndTurn, "give Budget to deck {gift} and end turn", gift=PLACE, solo=True),
)

TARGET_CHOICES = ("discard-in-play", "discard-market", "search-deck", "search-global")
"""The specials whose use names a target."""

BUYS = {name: Buy(name) for name in CARDS}
END_TURN = EndTurn()
_USES: dict[tuple[int, str, str, str, int], Use] = {}


def use(index: int, name: str, ability: str, target: str = "", target_index: int = -1) -> Use:
    """The (shared) action value: actions are immutable, so equal ones are made once."""
    key = (index, name, ability, target, target_index)
    found = _USES.get(key)
    if found is None:
        choice = CARDS[name].special if target else ""
        found = _USES[key] = Use(index, name, ability, target, target_index, choice)
    return found
