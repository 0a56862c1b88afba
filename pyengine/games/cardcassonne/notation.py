"""Card-cassonne's actions and their notation (rule 6: a turn is a short sequence of actions by one player).

Play a card at a cell (``7♡ @ 2,-1``); then, only when a token is allowed, ``token`` or ``no token``;
then, only when some partially complete area holds tokens, ``score ♡ area at 2,-1`` for each area the
player chooses and ``done``. Complete areas and the +3 bonus are scored, and the card drawn, automatically.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import SUITS, Card
from ...notation import CARD, INT, Form, Notation, words


@dataclass(frozen=True)
class Play:
    """Rule 6, step (a): play ``card`` from hand at cell x,y."""

    card: Card
    x: int
    y: int
    text: str = field(init=False, compare=False, repr=False)
    """The notation, made once: a late turn lists hundreds of plays."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", PLAY.write(self))

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return hash(self.text)


@dataclass(frozen=True)
class TokenChoice:
    """Rule 6, step (b): put a token on the card just played, or not."""

    place: bool

    def __str__(self) -> str:
        return NOTATION.write(self)


@dataclass(frozen=True)
class ScoreArea:
    """Rule 6, step (c): score the partially complete area holding the token at x,y (its first token cell)."""

    suit: str
    x: int
    y: int

    def __str__(self) -> str:
        return NOTATION.write(self)


@dataclass(frozen=True)
class Done:
    """Rule 6, step (c): score no more areas; the card is drawn and the turn passes."""

    def __str__(self) -> str:
        return NOTATION.write(self)


PLAY = Form("play", Play, "{card} @ {x},{y}", card=CARD, x=INT, y=INT, example="7♡ @ 2,-1")
NOTATION = Notation(
    PLAY,
    Form("token", TokenChoice, "token", place=True),
    Form("no-token", TokenChoice, "no token", place=False),
    Form(
        "score",
        ScoreArea,
        "score {suit} area at {x},{y}",
        suit=words(*SUITS),
        x=INT,
        y=INT,
        example="score ♡ area at 2,-1",
    ),
    Form("done", Done, "done"),
)
"""Every action kind, written and read by one template each."""

TOKEN, NO_TOKEN, DONE = TokenChoice(True), TokenChoice(False), Done()

MADE_PLAYS: dict[Card, dict[tuple[int, int], Play]] = {}
"""Play actions are made once and reused: a late turn offers hundreds of them."""


def play(card: Card, x: int, y: int) -> Play:
    """The one Play value of ``card`` at x,y."""
    table = MADE_PLAYS.setdefault(card, {})
    action = table.get((x, y))
    if action is None:
        action = table[(x, y)] = Play(card, x, y)
    return action
