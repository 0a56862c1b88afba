"""Carbles positions: a core built from a described table, checked field by field.

The rules page's "Position format" section describes the same format for readers; rule numbers are those of the
rules page. Every refusal is a short ``ValueError`` that names the field and quotes at most a short prefix of what
was given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...core import NamedPosition, OptionValue
from ...frozen import evolve
from ...notation import quote
from ...reading import is_int, is_list, shown
from ...rng import Rng
from .board import LOT, MARBLES, SECTOR, finished, goal
from .state import DECK, DECK_SIZE, HAND_SIZE, CarblesState, deal, sides, start

FIELDS = ("marbles", "turn", "seed", "hands", "deck", "discards")
"""Every key a position may have; all are optional."""
CARD_FIELDS = ("hands", "deck", "discards")
"""The card zones: when any is given, ``hands`` is required and the cards are not dealt from the seed."""
SEED_LIMIT = 2**63
"""A position's seed lies strictly between ``-SEED_LIMIT`` and ``SEED_LIMIT``."""
ALL_CARDS: Counter[Card] = Counter(DECK)
"""Rule 8: the 108 cards of the deck in play (two 52-card decks and 4 jokers): each card twice, the joker 4 times."""
MAX_PLACE = 8
"""A place is at most this long (``t215`` is the longest there is)."""


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> CarblesState:
    """The core of ``position``, or a short ``ValueError`` naming the first field that is wrong.

    A position is an object with these fields, all optional (see the rules page, "Position format"):

    - ``marbles``: at most one list per player (player 1 first), each of at most 4 places for that player's
      marbles 1-4: ``"lot"``, ``"t<space>"`` (a ring space 0..18N-1) or ``"g<slot>"`` (slot 0-3 of the player's
      own goal). Players and marbles left out are in their lot. No two marbles share a ring space or a goal slot
      (rules 2, 3), and the game must not be won already (rules 20, 21). Default: every marble in its lot.
    - ``turn``: the player to move, a seat from 0 (default 0). That player starts the current hand (rule 19).
    - ``seed``: a whole number (default 0) that shuffles every deck opened later, and the cards dealt or left in
      the draw pile when the position does not list them.
    - ``hands``: one list of at most 5 cards per player (rule 17). Without it (and without ``deck`` and
      ``discards``) a hand of 5 cards each is dealt from a deck shuffled by the seed, as at the start of a game.
    - ``deck``: the draw pile, the next card first. Default: every card not named elsewhere, shuffled by the seed.
    - ``discards``: the discard pile (rule 16), the top card last. Default: empty.

    The card set of a legal position is the one deck in play, whatever the player count: two 52-card decks and 4
    jokers, 108 cards (rule 8), so each card exists twice and the joker four times. Every one of them lies in
    exactly one zone: a hand, the draw pile or the discard pile. A card named more often is refused; ``deck``,
    when given, must hold exactly the cards no other field names.

    Play must be able to go on to the end (legal actions exist until the game is over): each player plays one
    card per turn, so going round from the player to move, who must hold a card, each hand has as many cards as
    the one before it or one fewer, and the last at most one fewer than the first (all hands empty at once
    start the next deal, rule 17).
    """
    unknown = sorted((key for key in position if key not in FIELDS), key=str)
    if unknown:
        raise ValueError(
            f"position field {quote(unknown[0])} is not part of a Carbles position (fields: {', '.join(FIELDS)})"
        )
    seed = position.get("seed", 0)
    if not is_int(seed) or not -SEED_LIMIT < seed < SEED_LIMIT:
        raise ValueError(f"position field 'seed' must be a whole number below 2**63 in size; got {shown(seed)}")
    turn = position.get("turn", 0)
    if not is_int(turn) or not 0 <= turn < players:
        raise ValueError(f"position field 'turn' must be a seat 0..{players - 1}; got {shown(turn)}")
    core = start(players, options, Rng.from_seed(seed))
    marbles = _marbles(position.get("marbles", []), players)
    _not_won(core, marbles)
    if not any(field in position for field in CARD_FIELDS):
        core = deal(core)
        return evolve(core, marbles=marbles, turn=turn, starter=turn, dealer=(turn - 1) % players)
    return _with_cards(core, position, marbles, turn)


def write(core: CarblesState) -> dict[str, Any] | None:
    """The description :func:`load` reads back to ``core`` exactly (its generator as the seed): the format
    describes the first hand of the first deck at its start, so None for every other state."""
    players = core.players
    if (core.over or core.seven_left or core.decks != 1 or core.hand_number != 1 or core.turns
            or core.starter != core.turn or core.dealer != (core.turn - 1) % players):
        return None
    return {
        "marbles": [[_place_text(core.marbles[MARBLES * p + i], p, players) for i in range(MARBLES)]
                    for p in range(players)],
        "turn": core.turn,
        "seed": core.rng.to_seed(),
        "hands": [[str(card) for card in hand] for hand in core.hands],
        "deck": [str(card) for card in core.deck],
        "discards": [str(card) for card in core.discards],
    }


def _place_text(loc: int, p: int, players: int) -> str:
    """A marble's place as a position writes it: ``lot``, ``t<space>`` or ``g<slot>``."""
    if loc == LOT:
        return "lot"
    for slot in range(MARBLES):
        if loc == goal(p, slot, players):
            return f"g{slot}"
    return f"t{loc}"


def _with_cards(core: CarblesState, position: Mapping[str, Any], marbles: tuple[int, ...], turn: int) -> CarblesState:
    """``core`` with the position's marbles and its cards (``hands``, ``discards``, ``deck``, every card in
    exactly one zone), the hand started by the player to move."""
    players = core.players
    pool = Counter(ALL_CARDS)
    if "hands" not in position:
        raise ValueError("position field 'hands' is missing: a position that lists cards needs one hand per player")
    hands = _hands(position["hands"], players, pool)
    discards = _cards(position.get("discards", []), "position field 'discards'", pool)
    rng = core.rng
    if "deck" in position:
        deck = _cards(position["deck"], "position field 'deck'", pool)
        missing = sum(pool.values())
        if missing:
            raise ValueError(
                f"position field 'deck': {missing} of the {DECK_SIZE} cards are in no zone "
                "(leave 'deck' out to take every card not named elsewhere as the draw pile)"
            )
    else:
        deck, rng = rng.shuffled(sorted(pool.elements()))
    problem = _stuck([len(hand) for hand in hands], turn)
    if problem is not None:
        raise ValueError(problem)
    return evolve(
        core,
        marbles=marbles,
        hands=hands,
        deck=deck,
        discards=discards,
        dealer=(turn - 1) % players,
        hand_number=1,
        starter=turn,
        turn=turn,
        decks=1,
        rng=rng,
    )


# -- the fields ---------------------------------------------------------------------------------------------


def _marbles(raw: object, players: int) -> tuple[int, ...]:
    where = "position field 'marbles'"
    if not is_list(raw) or len(raw) > players:
        raise ValueError(f"{where} must be a list of at most {players} lists, one per player; got {shown(raw)}")
    marbles = [LOT] * (MARBLES * players)
    taken: dict[int, str] = {}
    for p, row in enumerate(raw):
        here = f"{where}, player {p + 1}"
        if not is_list(row) or len(row) > MARBLES:
            raise ValueError(f"{here} must be a list of at most {MARBLES} places; got {shown(row)}")
        for i, text in enumerate(row):
            loc = _place(text, p, players, f"{here}, marble {i + 1}")
            if loc != LOT:
                if loc in taken:
                    raise ValueError(f"{here}, marble {i + 1}: two marbles on {text} (one marble per space or slot)")
                taken[loc] = str(text)
            marbles[MARBLES * p + i] = loc
    return tuple(marbles)


def _place(text: object, p: int, players: int, where: str) -> int:
    """A location from a place: ``lot``, ``t<space>`` or ``g<slot>`` (player ``p``'s goal)."""
    size = SECTOR * players
    if isinstance(text, str) and len(text) <= MAX_PLACE:
        number = text[1:]
        canonical = number.isascii() and number.isdigit() and str(int(number)) == number
        if text == "lot":
            return LOT
        if text[:1] == "t" and canonical and int(number) < size:
            return int(number)
        if text[:1] == "g" and canonical and int(number) < MARBLES:
            return goal(p, int(number), players)
    raise ValueError(f"{where} must be lot, t0..t{size - 1} or g0..g{MARBLES - 1}; got {shown(text)}")


def _not_won(core: CarblesState, marbles: tuple[int, ...]) -> None:
    """Rules 20, 21: a position is of a game still being played, so no side has finished."""
    n = core.players
    for team in sides(core):
        if all(finished(marbles, p, n) for p in team):
            who = " and ".join(f"player {p + 1}" for p in team)
            raise ValueError(
                f"position field 'marbles': {who} already {'has' if len(team) == 1 else 'have'} every marble in "
                "goal, so the game would be over (rules 20, 21)"
            )


def _hands(raw: object, players: int, pool: Counter[Card]) -> tuple[tuple[Card, ...], ...]:
    where = "position field 'hands'"
    if not is_list(raw) or len(raw) != players:
        raise ValueError(f"{where} must be a list of {players} hands, one per player; got {shown(raw)}")
    hands = []
    for p, hand in enumerate(raw):
        here = f"{where}, player {p + 1}"
        if is_list(hand) and len(hand) > HAND_SIZE:
            raise ValueError(f"{here} holds {len(hand)} cards; a hand has at most {HAND_SIZE} (rule 17)")
        hands.append(tuple(sorted(_cards(hand, here, pool))))
    return tuple(hands)


def _cards(raw: object, where: str, pool: Counter[Card]) -> tuple[Card, ...]:
    if not is_list(raw):
        raise ValueError(f"{where} must be a list of cards; got {shown(raw)}")
    if len(raw) > DECK_SIZE:
        raise ValueError(f"{where} lists {len(raw)} cards; the game has {DECK_SIZE}")
    return tuple(_take(card, where, pool) for card in raw)


def _take(text: object, where: str, pool: Counter[Card]) -> Card:
    """The card written ``text``, taken from the cards not yet placed in any zone."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: a card is text, rank then suit, like 7♡ or 10♣, or Jk; got {shown(text)}")
    try:
        card = Card.parse(text) if len(text) <= 8 else None
    except ValueError:
        card = None
    if card is None:
        raise ValueError(f"{where}: {quote(text)} is not a card (like 7♡, 10♣ or Jk)")
    if not pool[card]:
        each = "four jokers" if card.is_joker else "two of each card"
        raise ValueError(f"{where}: one {card} too many; the 108 cards hold {each}, each in one place only (rule 8)")
    pool[card] -= 1
    return card


def _stuck(sizes: list[int], turn: int) -> str | None:
    """Why play would reach a player with an empty hand before the next deal, or None.

    Going round from ``turn``, each player plays one card per turn (a 7's parts are one turn), and the next hand
    is dealt only when every hand is empty (rule 17).
    """
    players = len(sizes)
    order = [sizes[(turn + k) % players] for k in range(players)]
    first = order[0]
    fits = first >= 1 and all(a >= b for a, b in zip(order, order[1:], strict=False)) and order[-1] >= first - 1
    if fits:
        return None
    return (
        f"position field 'hands': going round from the player to move (player {turn + 1}), who must hold a card, "
        "each hand must hold as many cards as the one before or one fewer, the last at most one fewer than the "
        f"first, or play would reach an empty hand; got hands of {', '.join(map(str, sizes))} cards"
    )


def _lesson(title: str, marbles: list[list[str]], hands: list[list[str]]) -> NamedPosition:
    """A two-player position of the lesson: the learner (player 1) to move, both hands listed."""
    return NamedPosition(title, 2, {"marbles": marbles, "hands": hands, "turn": 0, "seed": 1})


LESSON_POSITIONS = {
    "lesson-out": _lesson("Lesson: bring a marble out", [[], ["t20"]], [["K♣", "5♡"], ["6♣", "3♣"]]),
    "lesson-move": _lesson("Lesson: move forward", [["t0"], ["t20"]], [["8♣", "3♡"], ["6♣", "3♣"]]),
    "lesson-knock-out": _lesson("Lesson: knock out a marble", [["t4"], ["t9"]], [["5♡", "2♣"], ["6♣", "3♣"]]),
    "lesson-blocked": _lesson("Lesson: a marble on its home blocks", [["t12"], ["t18"]], [["8♣", "3♡"], ["6♣", "3♣"]]),
    "lesson-four": _lesson("Lesson: the 4 goes back", [["t0"], ["t20"]], [["4♠", "9♣"], ["6♣", "3♣"]]),
    "lesson-goal": _lesson("Lesson: into the goal", [["t32"], ["t20"]], [["5♣", "2♡"], ["6♣", "3♣"]]),
    "lesson-seven": _lesson("Lesson: split a 7", [["t3", "t8"], ["t20"]], [["7♠", "2♣"], ["5♡", "3♣"]]),
    "lesson-jack": _lesson("Lesson: swap with a jack", [["t5"], ["t30"]], [["J♣", "2♡"], ["6♣", "3♣"]]),
    "lesson-burn": _lesson("Lesson: burn a card", [[], ["t20"]], [["5♡", "9♣"], ["6♣", "3♣"]]),
    "lesson-win": _lesson(
        "Lesson: the last marble home", [["t33", "g1", "g2", "g3"], ["t20"]], [["2♣", "3♡"], ["6♣", "3♣"]]
    ),
}
"""The positions of the game's lesson (``lessons.py``): two players, the learner to move."""
