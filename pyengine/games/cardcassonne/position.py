"""Card-cassonne positions: a core built from a described table, checked field by field.

The rules page's "Position format" section describes the same format for readers. Rule numbers refer to the
numbered rules of the game's rules page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...cards import Card, standard_deck
from ...core import NamedPosition, OptionValue
from ...notation import quote
from ...reading import is_int, is_list, shown
from .board import DECK_SIZE, auto_removed, card_key, cell_text, variants
from .state import CardcassonneState

FIELDS = ("board", "hands", "deck", "removed", "tokens", "tokens_left", "scores", "turn")
"""Every key a position may have (``board`` and ``hands`` are required)."""
MAX_COORDINATE = 60
"""Cells of a position lie within -60..60 in both directions."""
MAX_SCORE = 9_999
"""A score in a position is a whole number of points from 0 to this."""
ALL_CARDS: Counter[Card] = Counter(standard_deck() * 2)
"""Rule 1: two 52-card decks, no jokers; each card twice."""


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> CardcassonneState:
    """The core of ``position``, or a short ``ValueError`` naming the first field that is wrong.

    A position is an object with these fields (see the rules page, "Position format"):

    - ``board`` (required): ``[[x, y, card], ...]`` in play order, the first being the start card; whole-number
      cells within -60..60, no cell twice. The cards need not touch (a position may show any layout).
    - ``hands`` (required): one list of cards per seat (any order; kept sorted).
    - ``deck``: the draw pile, next card first (default empty).
    - ``removed``: the cards set aside unseen (rule 4).
    - ``tokens``: ``[[x, y, owner], ...]``, each on an occupied cell, at most one per cell, ``owner`` a seat;
      never on a complete area (it would have been scored at once, rule 15).
    - ``tokens_left``: each seat's tokens in supply (default: the ``tokens`` option less that seat's tokens on
      the table); with those on the table a seat has at most the ``tokens`` option.
    - ``scores``: each seat's points, 0..9999 (default all 0).
    - ``turn``: the seat to play, 0-based (default 0). The position starts at that seat's play step.

    The card set of a legal position is the game's whole set, as in setup: two 52-card decks without jokers
    (104 cards, each card twice). Every one of those cards lies in exactly one zone: the board, a hand, the draw
    pile or the removed cards. ``removed``, when given, must hold exactly the cards named nowhere else; when
    left out, every card not named elsewhere is taken as removed. So no card may be named more often than
    twice across the zones, and no card outside the two decks at all.

    The game must be able to go on until it is over (the contract: legal actions exist until the end): the
    seat to play, and every seat whose turn comes before the end (rule 17, or the ``end`` option), must hold a
    card then. A card can always be placed somewhere (rule 9), so hand sizes alone decide this.
    """
    _only_fields(position)
    pool = Counter(ALL_CARDS)
    board = _board(position, pool)
    hands = _hands(position, players, pool)
    deck = _cards(position.get("deck", []), "position field 'deck'", pool)
    removed = _removed(position, pool)
    tokens, left = _token_counts(position, players, board, int(options.get("tokens", 7)))
    points = _counts(position.get("scores", [0] * players), "scores", players, MAX_SCORE)
    turn = position.get("turn", 0)
    if not is_int(turn) or not 0 <= turn < players:
        raise ValueError(f"position field 'turn' must be a seat 0..{players - 1}; got {shown(turn)}")
    alike, play_out = variants(options)
    core = CardcassonneState(
        players=players,
        alike=alike,
        play_out=play_out,
        board=board,
        tokens=tokens,
        tokens_left=left,
        points=points,
        hands=hands,
        deck=deck,
        removed=removed,
        turn=turn,
        phase="play",
    )
    _no_token_on_a_complete_area(core)
    problem = _stuck_seat([len(hand) for hand in hands], len(deck), turn, play_out)
    if problem is not None:
        raise ValueError(problem)
    return core


def write(core: CardcassonneState) -> dict[str, Any] | None:
    """The description :func:`load` reads back to ``core``, every zone named; None after a card is played and
    before its token is decided (a position starts at a seat's play step) and once the game is over."""
    if core.phase != "play" or not any(core.hands):
        return None
    cards = [[str(card) for card in hand] for hand in core.hands]
    return {
        "board": [[x, y, str(card)] for x, y, card in core.board],
        "hands": cards,
        "deck": [str(card) for card in core.deck],
        "removed": [str(card) for card in core.removed],
        "tokens": [[x, y, owner] for x, y, owner in core.tokens],
        "tokens_left": list(core.tokens_left),
        "scores": list(core.points),
        "turn": core.turn,
    }


def _only_fields(position: Mapping[str, Any]) -> None:
    """A ``ValueError`` naming a field that is not part of a position."""
    unknown = sorted((key for key in position if key not in FIELDS), key=lambda key: str(key))
    if unknown:
        raise ValueError(
            f"position field {quote(unknown[0])} is not part of a Card-cassonne position "
            f"(fields: {', '.join(FIELDS)})"
        )


def _removed(position: Mapping[str, Any], pool: Counter[Card]) -> tuple[Card, ...]:
    """The removed cards: as given (exactly the cards named nowhere else), else every card left in ``pool``."""
    if "removed" in position:
        removed = _cards(position["removed"], "position field 'removed'", pool)
        missing = sum(pool.values())
        if missing:
            raise ValueError(
                f"position field 'removed': {missing} of the {DECK_SIZE} cards are in no zone "
                "(leave 'removed' out to take every card not named elsewhere as removed)"
            )
    else:
        removed = tuple(sorted(pool.elements(), key=card_key))
    return removed


def _token_counts(
    position: Mapping[str, Any], players: int, board: tuple[tuple[int, int, Card], ...], supply: int
) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    """The tokens on the table and each seat's tokens left, a seat's both together at most ``supply``."""
    tokens = _tokens(position, players, board)
    on_table = [sum(1 for *_, owner in tokens if owner == seat) for seat in range(players)]
    for seat, count in enumerate(on_table):
        if count > supply:
            raise ValueError(f"position field 'tokens': seat {seat} has {count} tokens on the table; "
                             f"each player has {supply}")
    left = _counts(
        position.get("tokens_left", [supply - count for count in on_table]), "tokens_left", players, supply
    )
    for seat in range(players):
        if left[seat] + on_table[seat] > supply:
            raise ValueError(
                f"position field 'tokens_left': seat {seat} would have {left[seat] + on_table[seat]} tokens "
                f"counting its {on_table[seat]} on the table; each player has {supply}"
            )
    return tokens, left


def _no_token_on_a_complete_area(core: CardcassonneState) -> None:
    """A ``ValueError`` for a token on a complete area (it would have been scored at once, rule 15)."""
    areas = core.table.areas
    for x, y, _ in core.tokens:
        if areas[(x, y)].complete:
            raise ValueError(
                f"position field 'tokens': the token at {x},{y} sits on a complete area, which is scored "
                "at once (rule 15)"
            )


# -- the fields ---------------------------------------------------------------------------------------------


def _board(position: Mapping[str, Any], pool: Counter[Card]) -> tuple[tuple[int, int, Card], ...]:
    where = "position field 'board'"
    if "board" not in position:
        raise ValueError(f"{where} is missing: a position needs the cards on the table, start card first")
    raw = position["board"]
    if not is_list(raw) or not 1 <= len(raw) <= DECK_SIZE:
        raise ValueError(f"{where} must be a list of 1 to {DECK_SIZE} [x, y, card] entries")
    board: list[tuple[int, int, Card]] = []
    seen: set[tuple[int, int]] = set()
    for i, entry in enumerate(raw):
        here = f"{where}, entry {i + 1}"
        if not is_list(entry) or len(entry) != 3:
            raise ValueError(f"{here} must be [x, y, card]")
        x, y = _cell(entry[0], entry[1], here)
        if (x, y) in seen:
            raise ValueError(f"{here}: two cards lie on cell {x},{y}")
        seen.add((x, y))
        board.append((x, y, _take(entry[2], here, pool)))
    return tuple(board)


def _hands(position: Mapping[str, Any], players: int, pool: Counter[Card]) -> tuple[tuple[Card, ...], ...]:
    where = "position field 'hands'"
    if "hands" not in position:
        raise ValueError(f"{where} is missing: a position needs one hand per player")
    raw = position["hands"]
    if not is_list(raw) or len(raw) != players:
        raise ValueError(f"{where} must be a list of {players} hands, one per player")
    return tuple(
        tuple(sorted(_cards(hand, f"{where}, hand {seat + 1}", pool), key=card_key)) for seat, hand in enumerate(raw)
    )


def _cards(raw: object, where: str, pool: Counter[Card]) -> tuple[Card, ...]:
    if not is_list(raw):
        raise ValueError(f"{where} must be a list of cards; got {shown(raw)}")
    if len(raw) > DECK_SIZE:
        raise ValueError(f"{where} lists {len(raw)} cards; the game has {DECK_SIZE}")
    return tuple(_take(card, where, pool) for card in raw)


def _take(text: object, where: str, pool: Counter[Card]) -> Card:
    """The card written ``text``, taken from the cards not yet placed in any zone."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: a card is text, rank then suit, like 7♡ or 10♣; got {shown(text)}")
    try:
        card = Card.parse(text) if len(text) <= 8 else None
    except ValueError:
        card = None
    if card is None or card not in ALL_CARDS:
        raise ValueError(f"{where}: {quote(text)} is not a card of the game (two decks, no jokers: like 7♡ or 10♣)")
    if not pool[card]:
        raise ValueError(f"{where}: a third {card}; the game has two of each card, each in one place only")
    pool[card] -= 1
    return card


def _cell(x: object, y: object, where: str) -> tuple[int, int]:
    for name, value in (("x", x), ("y", y)):
        if not is_int(value) or abs(value) > MAX_COORDINATE:
            raise ValueError(
                f"{where}: {name} must be a whole number from {-MAX_COORDINATE} to {MAX_COORDINATE}; "
                f"got {shown(value)}"
            )
    assert is_int(x) and is_int(y)
    return x, y


def _tokens(
    position: Mapping[str, Any], players: int, board: tuple[tuple[int, int, Card], ...]
) -> tuple[tuple[int, int, int], ...]:
    where = "position field 'tokens'"
    raw = position.get("tokens", [])
    occupied = {(x, y) for x, y, _ in board}
    if not is_list(raw) or len(raw) > len(board):
        raise ValueError(f"{where} must be a list of [x, y, owner] entries, at most one per card")
    tokens: dict[tuple[int, int], int] = {}
    for i, entry in enumerate(raw):
        here = f"{where}, entry {i + 1}"
        if not is_list(entry) or len(entry) != 3:
            raise ValueError(f"{here} must be [x, y, owner]")
        cell = _cell(entry[0], entry[1], here)
        owner = entry[2]
        if not is_int(owner) or not 0 <= owner < players:
            raise ValueError(f"{here}: the owner must be a seat 0..{players - 1}; got {shown(owner)}")
        if cell not in occupied:
            raise ValueError(f"{here}: no card lies on cell {cell_text(cell)}")
        if cell in tokens:
            raise ValueError(f"{here}: two tokens on cell {cell_text(cell)}")
        tokens[cell] = owner
    return tuple(sorted((x, y, owner) for (x, y), owner in tokens.items()))


def _counts(raw: object, name: str, players: int, most: int) -> tuple[int, ...]:
    """One whole number 0..``most`` per seat."""
    where = f"position field {name!r}"
    if not is_list(raw) or len(raw) != players:
        raise ValueError(f"{where} must be a list of {players} whole numbers, one per player; got {shown(raw)}")
    for seat, value in enumerate(raw):
        if not is_int(value) or not 0 <= value <= most:
            raise ValueError(f"{where}: seat {seat} must have 0 to {most}; got {shown(value)}")
    return tuple(raw)


def _stuck_seat(hand_sizes: list[int], deck: int, turn: int, play_out: bool) -> str | None:
    """Why play would reach a seat with an empty hand before the game is over (rules 6 and 17), or None.

    Only the numbers of cards matter: every hand card can be placed somewhere (rule 9).
    """
    hands, players, first, pile = list(hand_sizes), len(hand_sizes), True, deck
    while True:
        if not hands[turn]:
            when = "to play now" if first else "on a later turn"
            return (
                f"position field 'hands': seat {turn} would have no card {when}, yet the game is not over "
                f"(hands of {', '.join(map(str, hand_sizes))} cards, {pile} in the draw pile)"
            )
        hands[turn] -= 1
        if deck:
            hands[turn] += 1
            deck -= 1
        if (not any(hands)) if play_out else not deck:
            return None
        turn, first = (turn + 1) % players, False


_DECK = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"]
"""The top of the lessons' draw pile (the cards the learner draws next)."""
_COMPUTER_HAND = ["3♢", "4♢", "10♠"]
_SET_ASIDE = auto_removed(2)
"""The cards set aside unseen at the start of a two-player game (rule 4): the lessons set aside as many."""


def _lesson(title: str, board: list[list[Any]], hand: list[str], **more: Any) -> NamedPosition:
    """A two-player position of the lesson: the learner (player 1) to play, the draw pile as a real game of two
    would have it (``_DECK`` on top of every card named nowhere else, but ``_SET_ASIDE`` of them)."""
    named = Counter(Card.parse(str(cell[2])) for cell in board)
    named.update(Card.parse(text) for text in [*hand, *_COMPUTER_HAND, *_DECK])
    rest = sorted((ALL_CARDS - named).elements(), key=card_key)
    deck = [*_DECK, *(str(card) for card in rest[_SET_ASIDE:])]
    return NamedPosition(title, 2, {"board": board, "hands": [hand, _COMPUTER_HAND], "deck": deck, **more})


LESSON_POSITIONS = {
    "lesson-place": _lesson("Lesson: play a card", [[0, 0, "5♡"]], ["6♡", "9♣", "K♠"]),
    "lesson-between": _lesson("Lesson: a card between two others", [[0, 0, "3♣"], [2, 0, "9♢"]],
                              ["6♠", "K♠", "2♡"]),
    "lesson-token": _lesson("Lesson: place a token", [[0, 0, "5♡"], [1, 0, "7♡"]], ["6♡", "9♣", "K♠"]),
    "lesson-complete": _lesson("Lesson: complete an area",
                               [[0, 0, "5♡"], [1, 0, "8♠"], [0, 1, "3♣"], [0, -1, "5♣"]], ["9♢", "2♠", "J♣"],
                               tokens=[[0, 0, 0]]),
    # the rules page's figure 1 (a partially complete hearts area with the learner's token) in a game going on
    "lesson-partial": _lesson("Lesson: score a partly complete area",
                              [[0, 0, "5♡"], [1, 0, "7♡"], [0, -1, "5♣"], [1, -1, "6♠"], [-1, 0, "9♢"],
                               [2, 0, "8♠"], [0, 1, "3♣"]], ["2♣", "9♣", "K♠"],
                              tokens=[[0, 0, 0], [2, 0, 1]], tokens_left=[6, 6]),
}
"""The positions of the game's lesson (``lessons.py``), besides the rules page's ``figure-1``."""
