"""100 Silver Bars positions: a match's table described field by field (the rules page's "Position format"), and
the named positions of the game's lesson.

Rule numbers are those of the game's rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...core import NamedPosition, OptionValue
from ...notation import quote
from ...reading import is_int, is_list, shown
from ...rng import Rng
from .state import HAND, LOCKS, MINER_RANKS, SILVER_RANKS, TARGET, VAULTS, SilverBarsState, Vault, deck

FIELDS = ("vaults", "hands", "discard", "turn", "totals", "round", "strike", "seed")
"""Every field a position may have; only ``hands`` is required."""
VAULT_FIELDS = ("cards", "rubble", "locked")
SEED_LIMIT = 2**63


def load(players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> SilverBarsState:
    """The core of ``position``, or a short ``ValueError`` naming the first field that is wrong.

    ``{"hands": [[card, ...], [card, ...]], "vaults"?: [[vault x 5], [vault x 5]], "discard"?: [card, ...],
    "turn"?: seat, "totals"?: [points, points], "round"?: n, "strike"?: [bool, bool], "seed"?: int}``. A vault
    is a list of cards, bottom first, or ``{"cards": [...], "rubble"?: card, "locked"?: true}``; its stack
    obeys rules 4-6 and 10. Hands hold at most 7 cards. Every card of the round's deck not named is in the draw
    pile, shuffled by the seed. The player to move (``turn``, default 0) dealt no card: the other seat dealt.
    """
    unknown = sorted(str(key) for key in position if key not in FIELDS)
    if unknown:
        raise ValueError(
            f"position field {quote(unknown[0])} is not part of a 100 Silver Bars position "
            f"(fields: {', '.join(FIELDS)})"
        )
    strikes = int(options.get("strikes", 2))
    pool = Counter(deck(strikes))
    hands = tuple(
        _cards(hand, f"position field 'hands', hand {seat + 1}", pool, HAND)
        for seat, hand in enumerate(_pair(position.get("hands"), "hands"))
    )
    empty = [seat for seat, hand in enumerate(hands) if not hand]
    if empty:  # a player with no card has no move once their locks are placed
        raise ValueError(f"position field 'hands', hand {empty[0] + 1}: a hand holds at least one card")
    vaults = tuple(_row(row, seat, pool) for seat, row in enumerate(_pair(position.get("vaults", [[], []]), "vaults")))
    discard = _cards(position.get("discard", []), "position field 'discard'", pool, len(deck(strikes)))
    turn = _number(position.get("turn", 0), "turn", 1)
    totals = tuple(_number(t, "totals", TARGET - 1) for t in _pair(position.get("totals", [0, 0]), "totals"))
    match_round = _number(position.get("round", 1), "round", 19, 1)
    strike = _pair(position.get("strike", [False, False]), "strike")
    if not all(isinstance(s, bool) for s in strike):
        raise ValueError("position field 'strike' must be two of true or false")
    seed = position.get("seed", 0)
    if not is_int(seed) or not -SEED_LIMIT < seed < SEED_LIMIT:
        raise ValueError(f"position field 'seed' must be a whole number below 2**63 in size; got {shown(seed)}")
    draw, rng = Rng.from_seed(seed).shuffled(sorted(pool.elements()))
    if not draw:
        raise ValueError("position: no card is left for the draw pile")
    return SilverBarsState(
        rng=rng,
        placeable=options.get("thief", "lowest-overall") == "lowest-placeable",
        strikes=strikes,
        round=match_round,
        dealer=1 - turn,
        turn=turn,
        hands=(hands[0], hands[1]),
        draw=tuple(draw),
        discard=discard,
        vaults=(vaults[0], vaults[1]),
        strike=(strike[0], strike[1]),
        pending=None,
        totals=(totals[0], totals[1]),
        last=None,
        over=False,
    )


def write(core: SilverBarsState) -> dict[str, Any] | None:
    """The description :func:`load` reads back to ``core`` as every seat sees it; None while a thief's steal is
    pending, once a round's result is shown or the match is over, and where a card is out of play (the format
    puts every card it does not name in the draw pile)."""
    if core.pending is not None or core.last is not None or core.over or core.dealer != 1 - core.turn:
        return None
    position: dict[str, Any] = {
        "hands": [[str(card) for card in hand] for hand in core.hands],
        "vaults": [[_vault_json(vault) for vault in row] for row in core.vaults],
        "discard": [str(card) for card in core.discard],
        "turn": core.turn,
        "totals": list(core.totals),
        "round": core.round,
        "strike": list(core.strike),
    }
    named = Counter(c for hand in core.hands for c in hand) + Counter(core.discard) + Counter(
        c for row in core.vaults for v in row for c in (*v.cards, *([v.rubble] if v.rubble else [])))
    if Counter(deck(core.strikes)) - named != Counter(core.draw) or not core.draw:
        return None
    return position


def _vault_json(vault: Vault) -> list[str] | dict[str, Any]:
    cards = [str(card) for card in vault.cards]
    if vault.rubble is None and not vault.locked:
        return cards
    return {"cards": cards, **({"rubble": str(vault.rubble)} if vault.rubble else {}),
            **({"locked": True} if vault.locked else {})}


def _pair(value: object, name: str) -> list[Any]:
    if not is_list(value) or len(value) != 2:
        raise ValueError(f"position field {quote(name)} must be a list of two, one for each player")
    return list(value)


def _number(value: object, name: str, most: int, least: int = 0) -> int:
    if not is_int(value) or not least <= value <= most:
        raise ValueError(
            f"position field {quote(name)} must be a whole number from {least} to {most}; got {shown(value)}"
        )
    return value


def _card(text: object, where: str, pool: Counter[Card]) -> Card:
    """One card, taken out of the cards not yet named (``pool``)."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: a card is written as text, like 6♡ or Jk; got {shown(text)}")
    try:
        card = Card.parse(text)
    except ValueError:
        raise ValueError(f"{where}: {quote(text)} is not a card (write it like 6♡, 10♣ or Jk)") from None
    if not pool[card]:
        raise ValueError(f"{where}: no {card} is left (the locks and the cards set aside are not in play)")
    pool[card] -= 1
    return card


def _cards(value: object, where: str, pool: Counter[Card], most: int) -> tuple[Card, ...]:
    if not is_list(value) or len(value) > most:
        raise ValueError(f"{where} must be a list of at most {most} cards")
    return tuple(_card(text, where, pool) for text in value)


def _row(value: object, seat: int, pool: Counter[Card]) -> tuple[Vault, ...]:
    """A player's five vaults (missing ones empty), each checked against rules 4-6 and 10."""
    where = f"position field 'vaults', player {seat + 1}"
    if not is_list(value) or len(value) > VAULTS:
        raise ValueError(f"{where} must be a list of at most {VAULTS} vaults")
    row = tuple(_vault(raw, f"{where}, vault {i + 1}", pool) for i, raw in enumerate(value))
    row += (Vault(),) * (VAULTS - len(row))
    if sum(v.locked for v in row) > LOCKS:
        raise ValueError(f"{where}: at most {LOCKS} vaults are locked")
    return row


def _vault(raw: object, where: str, pool: Counter[Card]) -> Vault:
    fields: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {"cards": raw}
    extra = sorted(str(key) for key in fields if key not in VAULT_FIELDS)
    if extra:
        raise ValueError(f"{where}: {quote(extra[0])} is not a field of a vault (fields: {', '.join(VAULT_FIELDS)})")
    cards = _cards(fields.get("cards", []), where, pool, 20)
    for i, card in enumerate(cards):  # rules 4 and 5: silver, then a miner on it, then higher silver
        wanted = SILVER_RANKS if i % 2 == 0 else MINER_RANKS
        if card.rank not in wanted or (i % 2 == 0 and i and card.rank <= cards[i - 2].rank):
            raise ValueError(f"{where}: {card} cannot lie there (silver, a miner on it, higher silver on that)")
    rubble = fields.get("rubble")
    rubble_card = None if rubble is None else _card(rubble, where, pool)
    if rubble_card is not None and (rubble_card.rank != 13 or cards):
        raise ValueError(f"{where}: rubble is a king, and lies only in an empty vault (rule 6)")
    locked = fields.get("locked", False)
    if not isinstance(locked, bool) or locked and (not cards or cards[-1].rank not in SILVER_RANKS):
        raise ValueError(f"{where}: only a vault with silver on top can be locked (rule 10)")
    return Vault(cards, rubble_card, locked)


def _lesson(title: str, hands: list[list[str]], vaults: list[list[Any]], **more: Any) -> NamedPosition:
    """A position of the lesson: the learner (player 1) to move."""
    return NamedPosition(title, 2, {"hands": hands, "vaults": vaults, "seed": 1, **more})


_LOCKED = {"cards": ["4♣", "8♡", "6♡"], "locked": True}
"""The learner's first vault once locked in the lesson's fourth step."""
_THEIRS = [["3♣", "8♣"], ["2♡"], [], [], []]
"""The computer's vaults in most steps: silver with a miner on it, a lone silver, three empty vaults."""
LESSON_POSITIONS = {
    "lesson-silver": _lesson(
        "Lesson: silver into a vault",
        [["4♣", "8♡", "9♣", "J♣", "K♡", "10♢", "7♣"], ["2♣", "3♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[], _THEIRS],
    ),
    "lesson-miner": _lesson(
        "Lesson: a miner on silver",
        [["8♡", "9♣", "J♣", "K♡", "10♢", "7♣", "A♣"], ["2♣", "3♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[["4♣"]], _THEIRS],
    ),
    "lesson-deeper": _lesson(
        "Lesson: higher silver on a miner",
        [["6♡", "2♢", "9♣", "J♣", "K♡", "10♢", "7♣"], ["2♣", "3♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[["4♣", "8♡"]], _THEIRS],
    ),
    "lesson-lock": _lesson(
        "Lesson: lock a vault",
        [["2♢", "9♣", "J♣", "K♡", "10♢", "7♣", "A♣"], ["2♣", "3♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[["4♣", "8♡", "6♡"], ["3♢"]], _THEIRS],
    ),
    "lesson-thief": _lesson(
        "Lesson: a thief",
        [["J♣", "9♣", "K♡", "10♢", "7♣", "A♣", "8♠"], ["2♣", "3♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[["4♣", "8♡"], ["A♠", "7♢"]], [["3♣", "8♣"], ["2♡"], ["6♠"], [], []]],
    ),
    # rubble and the strike go on with the vaults of the steps before: the first locked, the stolen 2 in the third
    "lesson-rubble": _lesson(
        "Lesson: rubble and a shovel",
        [["K♡", "Q♢", "9♣", "10♢", "7♣", "A♣", "8♠"], ["2♣", "4♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[_LOCKED, ["3♢"], ["2♡"], {"rubble": "K♣"}], [["3♣", "8♣"], [], ["3♡"], [], []]],
    ),
    "lesson-strike": _lesson(
        "Lesson: a worker's strike",
        [["Q♠", "9♣", "10♢", "7♣", "A♣", "8♠", "J♣"], ["2♣", "4♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]],
        [[_LOCKED, ["3♢"], ["2♡"]], [["3♣", "8♣"], ["A♡", "9♢"], ["3♡"], [], []]],
    ),
    "lesson-discard": _lesson(
        "Lesson: discard and draw",
        [["9♣", "10♢", "7♣", "8♠", "9♡", "10♠", "7♡"], ["2♣", "3♡", "7♢", "8♢", "9♢", "10♣", "Q♣"]],
        [[], _THEIRS],
    ),
    "lesson-win": _lesson(
        "Lesson: the fifth lock wins",
        [["9♣", "10♢", "7♣", "8♠", "9♡", "10♠", "A♣"], ["2♣", "3♡", "7♢", "8♢", "9♢", "10♣", "Q♣"]],
        [
            [
                {"cards": ["6♣"], "locked": True},
                {"cards": ["6♡"], "locked": True},
                {"cards": ["4♡"], "locked": True},
                {"cards": ["4♢"], "locked": True},
                ["4♠", "7♡", "6♠"],
            ],
            _THEIRS,
        ],
        totals=[70, 55],
        round=3,
    ),
}
"""The positions of the game's lesson (``lessons.py``): the learner to move against the computer."""
