"""Carbles actions: one value type per kind of play, and the notation that writes and reads them.

Texts look like ``A out``, ``A partner out``, ``K m2 +13``, ``5 m1 +5 goal``, ``4 m3 -4``,
``7 m1 +3`` (one part of a 7), ``J swap m2 P3m1``, ``Jk pass`` and ``burn 9♠``. A marble is
named from the mover's side: ``m2`` is the mover's own marble 2, ``P3m1`` marble 1 of player 3
(players and marbles counted from 1 in texts, from 0 in values and facts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...cards import Card
from ...notation import CARD, Form, Notation, Slot, whole

RANK_TEXT = {0: "Jk", 1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_BY_TEXT = {**{v: k for k, v in RANK_TEXT.items()}, **{str(n): n for n in range(2, 11)}}


def rank_text(rank: int) -> str:
    """How a rank is written: ``Jk``, ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
    return RANK_TEXT.get(rank, str(rank))


class Written:
    """An action whose text is written once per value (the rules hand out the same values again and again)."""

    def __str__(self) -> str:
        known = self.__dict__.get("_text")
        if known is None:
            known = self.__dict__["_text"] = NOTATION.write(self)
        return str(known)


@dataclass(frozen=True)
class Marble:
    """A marble as a text names it: ``player`` None for the mover's own, ``number`` from 0."""

    player: int | None
    number: int

    def __str__(self) -> str:
        own = f"m{self.number + 1}"
        return own if self.player is None else f"P{self.player + 1}{own}"


def read_marble(text: str) -> Marble:
    player, _, number = text.partition("m")
    return Marble(int(player[1:]) - 1 if player else None, int(number) - 1)


@dataclass(frozen=True)
class Out(Written):
    """Move a marble from the lot onto its home: the mover's own, or the partner's (rule 9)."""

    rank: int
    partner: bool


@dataclass(frozen=True)
class Move(Written):
    """Move one marble ``steps`` forward, on round the ring or into its goal (rule 10); a 7 in parts (rule 12)."""

    rank: int
    marble: Marble
    steps: int
    goal: bool


@dataclass(frozen=True)
class Back(Written):
    """Move one marble on the ring ``steps`` backward (rule 11)."""

    rank: int
    marble: Marble
    steps: int


@dataclass(frozen=True)
class Swap(Written):
    """The jack's swap of an own marble with another player's (rule 13)."""

    rank: int
    marble: Marble
    other: Marble


@dataclass(frozen=True)
class Pass(Written):
    """A joker played to do nothing (rule 14)."""

    rank: ClassVar[int] = 0


@dataclass(frozen=True)
class Burn(Written):
    """A card discarded because no card can be played (rule 15)."""

    card: Card

    @property
    def rank(self) -> int:
        return self.card.rank


Play = Out | Move | Back | Swap | Pass | Burn
"""Any Carbles action."""

RANK = Slot(r"Jk|10|[2-9AJQK]", RANK_BY_TEXT.__getitem__, rank_text, "K", rank_text)
MARBLE = Slot(r"(?:P\d{1,2})?m\d{1,2}", read_marble, str, "m1", str)
STEPS = whole(2)

NOTATION = Notation(
    Form("out", Out, "{rank} out", rank=RANK, partner=False, example="A out"),
    Form("partner_out", Out, "{rank} partner out", rank=RANK, partner=True, example="A partner out"),
    Form(
        "move", Move, "{rank} {marble} +{steps}", rank=RANK, marble=MARBLE, steps=STEPS, goal=False, example="K m2 +13"
    ),
    Form(
        "move_goal",
        Move,
        "{rank} {marble} +{steps} goal",
        rank=RANK,
        marble=MARBLE,
        steps=STEPS,
        goal=True,
        example="5 m1 +5 goal",
    ),
    Form("back", Back, "{rank} {marble} -{steps}", rank=RANK, marble=MARBLE, steps=STEPS, example="4 m3 -4"),
    Form(
        "swap", Swap, "{rank} swap {marble} {other}", rank=RANK, marble=MARBLE, other=MARBLE, example="J swap m2 P3m1"
    ),
    Form("pass", Pass, "Jk pass"),
    Form("burn", Burn, "burn {card}", card=CARD, example="burn 9♠"),
)
"""Every kind of Carbles action, each written and read by one form."""
