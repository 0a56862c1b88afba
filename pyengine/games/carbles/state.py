"""Carbles' state (:class:`CarblesState`) and its mechanics: the deck, dealing, the legal plays and where each
leads, the 7 split, progress and the end.

Rule numbers are those of the game's rules page. Locations and marbles are numbered as :mod:`.board` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...cards import Card, standard_deck
from ...core import OptionValue
from ...frozen import evolve
from ...rng import Rng
from .board import (
    LOT,
    MARBLES,
    SECTOR,
    back_destination,
    destinations,
    finished,
    forward,
    home,
    in_goal,
    landing,
    occupancy,
    partner,
)
from .notation import Back, Burn, Marble, Move, Out, Pass, Play, Swap

MAX_PLAYERS = 12
HAND_SIZE = 5
"""Largest hand (rule 17)."""
DECK: tuple[Card, ...] = standard_deck(jokers=2) + standard_deck(jokers=2)
"""Two 52-card decks and 4 jokers: 108 cards (rule 8)."""
DECK_SIZE = len(DECK)

STEPS: Mapping[int, int] = {1: 1, 2: 2, 3: 3, 5: 5, 6: 6, 8: 8, 9: 9, 10: 10, 11: 11, 12: 12, 13: 13}
"""Direct moves by rank (rule 10): the ace 1, the jack 11, the queen 12, the king 13."""
MOVE_OUT = frozenset({0, 1, 13})
"""Joker (rank 0), ace and king move a marble out (rule 9)."""
MOVES_PER_DECK = DECK_SIZE + 8 * 6
"""Most actions one deck can give: 108 cards, and each of its eight 7s takes up to 6 more actions."""


def deck_cap(players: int) -> int:
    """Termination guard (rule 24): the game ends when this deck runs out.

    A marble travels 18N-2 spaces, so a game needs about N*N/10 decks when played well; random
    play needs several times that. Then the side with the most marbles in goal wins.
    """
    return 12 + players * players


@dataclass(frozen=True)
class CarblesState:
    """The whole game: board, cards, turn and the 7 being split."""

    players: int
    partners: bool
    open_hands: bool
    marbles: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    discards: tuple[Card, ...]
    dealer: int
    hand_number: int
    """Hands dealt from the current deck so far (rule 19's k of the current hand plus one)."""
    starter: int
    turn: int
    decks: int
    """Decks opened so far (the guard of :func:`deck_cap`)."""
    turns: int
    seven_left: int
    """Steps of a 7 still to spend (0: no 7 in progress); the same player moves until 0 (rule 12)."""
    seven_moved: tuple[int, ...]
    winners: tuple[int, ...]
    over: bool
    capped: bool
    rng: Rng


# ------------------------------------------------------------------------------------- marbles


def owner_for(core: CarblesState, p: int, marbles: tuple[int, ...] | None = None) -> int:
    """Whose marbles ``p`` plays: their own, or the partner's once finished (rules 22, 23)."""
    if core.partners and finished(core.marbles if marbles is None else marbles, p, core.players):
        return partner(p, core.players)
    return p


_OWN = tuple(Marble(None, i) for i in range(MARBLES))
_THEIRS: dict[int, Marble] = {}


def ref(m: int, actor: int) -> Marble:
    """How ``actor`` names marble ``m``: ``m2`` for their own, ``P3m1`` for another player's."""
    p, i = divmod(m, MARBLES)
    if p == actor:
        return _OWN[i]
    found = _THEIRS.get(m)
    if found is None:
        found = _THEIRS[m] = Marble(p, i)
    return found


_MOVES: dict[tuple[int, int, int, bool], Move] = {}
_SWAPS: dict[tuple[int, int], Swap] = {}


def code(m: int, actor: int) -> int:
    """Marble ``m`` as ``actor`` names it, as one number: -1..-4 for their own, else ``m``."""
    p, i = divmod(m, MARBLES)
    return -1 - i if p == actor else m


def move(rank: int, m: int, actor: int, steps: int, into_goal: bool) -> Move:
    """The move of marble ``m`` (the same value every time: its text is written once)."""
    key = (rank, code(m, actor), steps, into_goal)
    found = _MOVES.get(key)
    if found is None:
        found = _MOVES[key] = Move(rank, ref(m, actor), steps, into_goal)
    return found


def swap(m: int, other: int, actor: int) -> Swap:
    """The jack's swap of marbles ``m`` and ``other`` (the same value every time)."""
    key = (code(m, actor), code(other, actor))
    found = _SWAPS.get(key)
    if found is None:
        found = _SWAPS[key] = Swap(11, ref(m, actor), ref(other, actor))
    return found


_BACKS = {
    (m, own): Back(4, Marble(None if own else m // MARBLES, m % MARBLES), 4)
    for m in range(MARBLES * MAX_PLAYERS)
    for own in (True, False)
}
OUTS = {(rank, mate): Out(rank, mate) for rank in MOVE_OUT for mate in (False, True)}
PASS = Pass()
BURNS = {card: Burn(card) for card in DECK}


def move_back(m: int, actor: int) -> Back:
    return _BACKS[m, m // MARBLES == actor]


def marble_index(marble: Marble, actor: int) -> int:
    """The marble a reference names, seen from ``actor``."""
    return MARBLES * (actor if marble.player is None else marble.player) + marble.number


def kill(marbles: list[int], occ: Mapping[int, int], dest: int, mover: int) -> int:
    """Send the marble on ``dest`` (if any, and not the mover) back to its lot; return it or -1."""
    victim = occ.get(dest, -1)
    if victim >= 0 and victim != mover:
        marbles[victim] = LOT
        return victim
    return -1


# ----------------------------------------------------------------------------------- the 7


Part = tuple[int, int, tuple[int, ...], dict[int, int]]
"""One marble's share of a 7: steps, destination, the board after and its occupancy."""


def seven_parts(marbles: tuple[int, ...], occ: dict[int, int], m: int, most: int, players: int) -> list[Part]:
    """Every move of marble ``m`` by 1..``most`` single steps, each step killing (rule 12).

    ``occ`` is the occupancy of ``marbles``. Returns one part per distinct path.
    """
    owner = m // MARBLES
    found: list[Part] = []
    stack = [(marbles, occ, 0)]
    while stack:
        board, occ, done = stack.pop()
        for nxt in forward(board[m], owner, occ, players):
            after = list(board)
            kill(after, occ, nxt, m)
            now = dict(occ)
            del now[board[m]]
            now[nxt] = m
            after[m] = nxt
            moved = tuple(after)
            found.append((done + 1, nxt, moved, now))
            if done + 1 < most:
                stack.append((moved, now, done + 1))
    return found


def seven_can_finish(
    core: CarblesState,
    marbles: tuple[int, ...],
    occ: dict[int, int],
    actor: int,
    left: int,
    moved: tuple[int, ...],
    memo: dict[tuple[tuple[int, ...], int, tuple[int, ...]], bool],
) -> bool:
    """Can ``left`` more steps be spent on marbles not yet moved in this 7 (rule 12)?"""
    if left == 0:
        return True
    key = (marbles, left, moved)
    known = memo.get(key)
    if known is not None:
        return known
    owner = owner_for(core, actor, marbles)  # rule 23: the partner's once the actor is finished
    result = False
    for m in range(MARBLES * owner, MARBLES * owner + MARBLES):
        if m in moved or marbles[m] == LOT:
            continue
        # the longest parts first: one marble taking every step left ends the search soonest
        rest = tuple(sorted(moved + (m,)))
        for steps, _, after, after_occ in reversed(seven_parts(marbles, occ, m, left, core.players)):
            if seven_can_finish(core, after, after_occ, actor, left - steps, rest, memo):
                result = True
                break
        if result:
            break
    memo[key] = result
    return result


def seven_actions(core: CarblesState, actor: int, left: int, moved: tuple[int, ...]) -> list[Play]:
    """The next part of a 7: a marble and a step count, kept only if the rest can still be spent."""
    memo: dict[tuple[tuple[int, ...], int, tuple[int, ...]], bool] = {}
    owner = owner_for(core, actor)
    size = SECTOR * core.players
    actions: list[Play] = []
    occ = occupancy(core.marbles)
    for m in range(MARBLES * owner, MARBLES * owner + MARBLES):
        if m in moved or core.marbles[m] == LOT:
            continue
        parts = sorted(seven_parts(core.marbles, occ, m, left, core.players), key=lambda part: (part[0], part[1]))
        rest = tuple(sorted(moved + (m,)))
        for steps, dest, after, after_occ in parts:
            if seven_can_finish(core, after, after_occ, actor, left - steps, rest, memo):
                actions.append(move(7, m, actor, steps, dest >= size))
    return actions


def seven_part(core: CarblesState, m: int, steps: int, into_goal: bool) -> Part:
    """The part of the 7 in progress (or a new 7) that moves marble ``m`` ``steps`` (into the goal or not)."""
    size = SECTOR * core.players
    for part in seven_parts(core.marbles, occupancy(core.marbles), m, core.seven_left or 7, core.players):
        if part[0] == steps and (part[1] >= size) == into_goal:
            return part
    raise ValueError(f"marble {m} cannot take {steps} steps of the 7")


# ----------------------------------------------------------------------------------- cards


def card_actions(core: CarblesState, actor: int, rank: int, occ: Mapping[int, int]) -> list[Play]:
    """Every action of a card of ``rank`` for ``actor`` (rules 9-14, 22); ``occ`` is the board's occupancy."""
    n = core.players
    size = SECTOR * n
    owner = owner_for(core, actor)
    marbles = core.marbles
    own = range(MARBLES * owner, MARBLES * owner + MARBLES)
    actions: list[Play] = []
    if rank in MOVE_OUT and LOT in marbles[MARBLES * owner : MARBLES * owner + MARBLES]:
        actions.append(OUTS[rank, owner != actor])
    if rank == 0 and core.partners and owner == actor:
        mate = partner(actor, n)
        if LOT in marbles[MARBLES * mate : MARBLES * mate + MARBLES]:
            actions.append(OUTS[0, True])
    if rank in STEPS:
        steps = STEPS[rank]
        for m in own:
            if marbles[m] == LOT:
                continue
            for dest in sorted(destinations(marbles[m], owner, steps, occ, n)):
                actions.append(move(rank, m, actor, steps, dest >= size))
    elif rank == 4:
        for m in own:
            if 0 <= marbles[m] < size and back_destination(marbles[m], occ, n) is not None:
                actions.append(move_back(m, actor))
    elif rank == 7:
        actions.extend(seven_actions(core, actor, 7, ()))
    if rank == 11:  # rule 13: the swap
        for m in own:
            if not 0 <= marbles[m] < size:
                continue
            for other in range(MARBLES * n):
                p = other // MARBLES
                if p != owner and 0 <= marbles[other] < size and marbles[other] != home(p):
                    actions.append(swap(m, other, actor))
    if rank == 0:
        actions.append(PASS)
    return actions


def legal(core: CarblesState) -> list[Play]:
    if core.over:
        return []
    actor = core.turn
    if core.seven_left:
        return seven_actions(core, actor, core.seven_left, core.seven_moved)
    hand = core.hands[actor]
    actions: list[Play] = []
    occ = occupancy(core.marbles)
    for rank in sorted({c.rank for c in hand}):
        actions.extend(card_actions(core, actor, rank, occ))
    if actions:
        return actions
    # rule 15: nothing can be played, so a card is burned (one action per distinct card)
    return [BURNS[c] for c in sorted(set(hand))]


def target(core: CarblesState, action: Play) -> tuple[int, int]:
    """The marble a legal action moves and where it lands (a swap: where the other marble stands)."""
    actor = core.turn
    n = core.players
    if isinstance(action, Out):
        owner = partner(actor, n) if action.partner else actor
        return core.marbles.index(LOT, MARBLES * owner), home(owner)
    if isinstance(action, Move):
        m = marble_index(action.marble, actor)
        return m, landing(core.marbles[m], m // MARBLES, action.steps, action.goal, n)
    if isinstance(action, Back):
        m = marble_index(action.marble, actor)
        back = back_destination(core.marbles[m], occupancy(core.marbles), n)
        assert back is not None
        return m, back
    if isinstance(action, Swap):
        return marble_index(action.marble, actor), core.marbles[marble_index(action.other, actor)]
    raise ValueError(f"{action} moves no marble")


# ----------------------------------------------------------------------------------- dealing


def deal(core: CarblesState) -> CarblesState:
    """Deal the next hand (rules 17-19), opening a fresh deck when fewer than 4N cards remain.

    If the deck cap is reached instead, the game ends (rule 24).
    """
    n = core.players
    deck, discards, dealer, number = core.deck, core.discards, core.dealer, core.hand_number
    decks, rng = core.decks, core.rng
    if len(deck) < MARBLES * n:
        if decks >= deck_cap(n):
            return end_by_cap(core)
        deck, rng = rng.shuffled(DECK)
        discards, dealer, number, decks = (), (dealer + 1) % n, 0, decks + 1
    size = min(HAND_SIZE, len(deck) // n)
    first = (dealer + 1) % n
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(first + i) % n].append(deck[i])
    starter = (dealer + 1 + number) % n
    return evolve(
        core,
        hands=tuple(tuple(sorted(h)) for h in hands),
        deck=deck[size * n :],
        discards=discards,
        dealer=dealer,
        hand_number=number + 1,
        starter=starter,
        turn=starter,
        decks=decks,
        rng=rng,
    )


def sides(core: CarblesState) -> list[tuple[int, ...]]:
    """The competing sides: teams with partners, else single players."""
    n = core.players
    if core.partners:
        return [(p, partner(p, n)) for p in range(n // 2)]
    return [(p,) for p in range(n)]


def progress(marbles: tuple[int, ...], p: int, players: int) -> int:
    """How far p's marbles have come: track spaces beyond home, a goal counts as a full lap."""
    size = SECTOR * players
    total = 0
    for loc in marbles[MARBLES * p : MARBLES * p + MARBLES]:
        if loc >= size:
            total += size + (loc - size) % MARBLES
        elif loc >= 0:
            total += 1 + (loc - home(p)) % size
    return total


def progress_of(loc: int, m: int, players: int) -> int:
    """How far marble ``m`` standing on ``loc`` has come (as :func:`progress` counts it)."""
    size = SECTOR * players
    if loc >= size:
        return size + (loc - size) % MARBLES
    return 1 + (loc - home(m // MARBLES)) % size if loc >= 0 else 0


def end_by_cap(core: CarblesState) -> CarblesState:
    """Rule 24: most marbles in goal wins, ties broken by progress; alone, nobody wins."""
    teams = sides(core)
    winners: tuple[int, ...] = ()
    if len(teams) > 1:
        n = core.players

        def strength(team: tuple[int, ...]) -> tuple[int, int]:
            return (
                sum(in_goal(core.marbles, p, n) for p in team),
                sum(progress(core.marbles, p, n) for p in team),
            )

        best = max(strength(t) for t in teams)
        winners = tuple(sorted(p for t in teams if strength(t) == best for p in t))
    return evolve(core, over=True, capped=True, winners=winners, hands=tuple(() for _ in core.hands))


def won(core: CarblesState, marbles: tuple[int, ...], actor: int) -> tuple[int, ...]:
    """Rules 20-21: the actor finished (without partners), or the actor's team both finished.

    Only the actor's own or partner's marbles enter a goal on the actor's turn, so no other side can win then.
    """
    n = core.players
    team = tuple(sorted({actor, partner(actor, n)})) if core.partners else (actor,)
    if all(finished(marbles, p, n) for p in team):
        return team
    return ()


def start(players: int, options: Mapping[str, OptionValue], rng: Rng) -> CarblesState:
    """The table before the first deal: every marble in its lot, no cards dealt, player 1 to deal (rule 19)."""
    return CarblesState(
        players=players,
        partners=bool(options.get("partners", False)),
        open_hands=bool(options.get("open_hands", False)),
        marbles=(LOT,) * (MARBLES * players),
        hands=tuple(() for _ in range(players)),
        deck=(),
        discards=(),
        dealer=players - 1,  # opening the first deck passes the deal to player 0 (rule 19)
        hand_number=0,
        starter=0,
        turn=0,
        decks=0,
        turns=0,
        seven_left=0,
        seven_moved=(),
        winners=(),
        over=False,
        capped=False,
        rng=rng,
    )
