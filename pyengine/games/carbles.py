"""Carbles: cards move marbles round a ring of 18 spaces per player into four goal spaces.

Rule numbers refer to the project's spec (``rules/carbles.md``), which follows the engine of the
public web version (carbles.net). Locations are small integers:

- ``LOT`` (-1): in its owner's lot;
- ``0 .. 18N-1``: a track space (player p's home is 18p, its goal entry 18p-2);
- ``18N + 4p + k``: slot k (0-3) of player p's goal (only p's own marbles ever go there).

Marble ``4p + i`` is player p's marble ``m{i+1}``; marbles keep their number for the whole game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card, standard_deck
from ..core import Action, GameInfo, Option, OptionValue, Rules, register
from ..rng import Rng

SECTOR = 18
"""Track spaces per player (rule 2)."""
MARBLES = 4
"""Marbles per player (rule 1), and goal spaces per player (rule 3)."""
LOT = -1
HAND_SIZE = 5
"""Largest hand (rule 17)."""
DECK: tuple[Card, ...] = standard_deck(jokers=2) + standard_deck(jokers=2)
"""Two 52-card decks and 4 jokers: 108 cards (rule 8)."""
DECK_SIZE = len(DECK)

STEPS: Mapping[int, int] = {1: 1, 2: 2, 3: 3, 5: 5, 6: 6, 8: 8, 9: 9, 10: 10, 11: 11, 12: 12, 13: 13}
"""Direct moves by rank (rule 10): the ace 1, the jack 11, the queen 12, the king 13."""
MOVE_OUT = frozenset({0, 1, 13})
"""Joker (rank 0), ace and king move a marble out (rule 9)."""
RANK_TEXT = {0: "Jk", 1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_BY_TEXT = {**{v: k for k, v in RANK_TEXT.items()}, **{str(n): n for n in range(2, 11)}}
MOVES_PER_DECK = DECK_SIZE + 8 * 6
"""Most actions one deck can give: 108 cards, and each of its eight 7s takes up to 6 more actions."""


def deck_cap(players: int) -> int:
    """Termination guard (not in the original): the game ends when this deck runs out.

    A marble travels 18N-2 spaces, so a game needs about N*N/10 decks when played well; random
    play needs several times that. Then the side with the most marbles in goal wins.
    """
    return 12 + players * players


def rank_text(rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank))


@dataclass(frozen=True)
class Play:
    """One action: its notation plus what it does (``kind`` is out, move, back, swap, seven, pass or burn)."""

    text: str
    kind: str
    rank: int = -1
    marble: int = -1
    dest: int = LOT
    other: int = -1
    burn: Card | None = None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Carbles:
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


# ----------------------------------------------------------------------------------- the board


def home(p: int) -> int:
    """H(p) = 18p (rule 2)."""
    return SECTOR * p


def entry(p: int, players: int) -> int:
    """E(p) = 18p - 2 mod 18N (rule 3)."""
    return (SECTOR * p - 2) % (SECTOR * players)


def goal(p: int, slot: int, players: int) -> int:
    return SECTOR * players + MARBLES * p + slot


def occupancy(marbles: tuple[int, ...]) -> dict[int, int]:
    """Which marble is on each occupied location."""
    occ = dict(zip(marbles, range(len(marbles)), strict=True))
    occ.pop(LOT, None)
    return occ


def home_blocked(space: int, occ: Mapping[int, int]) -> bool:
    """Rule 5: a home holding its owner's marble cannot be entered, forward or back."""
    if space % SECTOR:
        return False
    there = occ.get(space)
    return there is not None and there // MARBLES == space // SECTOR


def forward(loc: int, owner: int, occ: Mapping[int, int], players: int) -> list[int]:
    """Where one forward step can take ``owner``'s marble from ``loc`` (rules 4-6)."""
    size = SECTOR * players
    if loc >= size:
        slot = (loc - size) % MARBLES
        return [loc + 1] if slot < MARBLES - 1 and loc + 1 not in occ else []
    nxt = loc + 1 if loc + 1 < size else 0
    out = [] if home_blocked(nxt, occ) else [nxt]
    if loc == entry(owner, players):
        g0 = goal(owner, 0, players)
        if g0 not in occ:
            out.append(g0)
    return out


def destinations(loc: int, owner: int, steps: int, occ: Mapping[int, int], players: int) -> list[int]:
    """Every end of exactly ``steps`` (at most 13) forward steps; one per distinct path (rule 10).

    The same as taking :func:`forward` step by step, computed directly: within 13 steps a path
    meets at most one home and at most one goal entry, and no home lies between a marble and
    its goal entry that close (entries are two spaces before homes).
    """
    size = SECTOR * players
    if loc >= size:  # in the goal: only further in, over empty slots
        slot = (loc - size) % MARBLES
        if slot + steps >= MARBLES or any(loc + s in occ for s in range(1, steps + 1)):
            return []
        return [loc + steps]
    out = []
    to_home = SECTOR - loc % SECTOR
    if to_home > steps or not home_blocked((loc + to_home) % size, occ):
        out.append((loc + steps) % size)
    to_entry = (entry(owner, players) - loc) % size
    inside = steps - to_entry - 1  # the goal slot reached by turning in at the entry
    if 0 <= inside < MARBLES:
        first = goal(owner, 0, players)
        if not any(first + s in occ for s in range(inside + 1)):
            out.append(first + inside)
    return out


def back_destination(loc: int, occ: Mapping[int, int], players: int) -> int | None:
    """Where a 4 takes a track marble: 4 steps back, never into a goal (rules 7, 11)."""
    size = SECTOR * players
    for _ in range(4):
        loc = loc - 1 if loc else size - 1
        if home_blocked(loc, occ):
            return None
    return loc


def in_goal(marbles: tuple[int, ...], p: int, players: int) -> int:
    size = SECTOR * players
    return sum(1 for loc in marbles[MARBLES * p : MARBLES * p + MARBLES] if loc >= size)


def finished(marbles: tuple[int, ...], p: int, players: int) -> bool:
    return in_goal(marbles, p, players) == MARBLES


def partner(p: int, players: int) -> int:
    """Rule 21."""
    return (p + players // 2) % players


def owner_for(core: Carbles, p: int, marbles: tuple[int, ...] | None = None) -> int:
    """Whose marbles ``p`` plays: their own, or the partner's once finished (rules 22, 23)."""
    if core.partners and finished(core.marbles if marbles is None else marbles, p, core.players):
        return partner(p, core.players)
    return p


def label(m: int, actor: int) -> str:
    """``m2`` for the actor's own marble, ``P3m1`` for another player's (players counted from 1)."""
    p, i = divmod(m, MARBLES)
    return f"m{i + 1}" if p == actor else f"P{p + 1}m{i + 1}"


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
    core: Carbles,
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


def seven_actions(core: Carbles, actor: int, left: int, moved: tuple[int, ...]) -> list[Play]:
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
                where = " goal" if dest >= size else ""
                actions.append(Play(f"7 {label(m, actor)} +{steps}{where}", "seven", 7, m, dest))
    return actions


# ----------------------------------------------------------------------------------- cards


def card_actions(core: Carbles, actor: int, rank: int, occ: Mapping[int, int]) -> list[Play]:
    """Every action of a card of ``rank`` for ``actor`` (rules 9-14, 22); ``occ`` is the board's occupancy."""
    n = core.players
    size = SECTOR * n
    owner = owner_for(core, actor)
    marbles = core.marbles
    own = range(MARBLES * owner, MARBLES * owner + MARBLES)
    name = rank_text(rank)
    actions: list[Play] = []
    if rank in MOVE_OUT and LOT in marbles[MARBLES * owner : MARBLES * owner + MARBLES]:
        text = f"{name} out" if owner == actor else f"{name} partner out"
        actions.append(Play(text, "out", rank, marbles.index(LOT, MARBLES * owner), home(owner)))
    if rank == 0 and core.partners and owner == actor:
        mate = partner(actor, n)
        if LOT in marbles[MARBLES * mate : MARBLES * mate + MARBLES]:
            actions.append(Play("Jk partner out", "out", 0, marbles.index(LOT, MARBLES * mate), home(mate)))
    if rank in STEPS:
        steps = STEPS[rank]
        for m in own:
            if marbles[m] == LOT:
                continue
            for dest in sorted(destinations(marbles[m], owner, steps, occ, n)):
                where = " goal" if dest >= size else ""
                actions.append(Play(f"{name} {label(m, actor)} +{steps}{where}", "move", rank, m, dest))
    elif rank == 4:
        for m in own:
            if 0 <= marbles[m] < size:
                back = back_destination(marbles[m], occ, n)
                if back is not None:
                    actions.append(Play(f"4 {label(m, actor)} -4", "back", 4, m, back))
    elif rank == 7:
        actions.extend(seven_actions(core, actor, 7, ()))
    if rank == 11:  # rule 13: the swap
        for m in own:
            if not 0 <= marbles[m] < size:
                continue
            for other in range(MARBLES * n):
                p = other // MARBLES
                if p != owner and 0 <= marbles[other] < size and marbles[other] != home(p):
                    text = f"J swap {label(m, actor)} {label(other, actor)}"
                    actions.append(Play(text, "swap", 11, m, marbles[other], other))
    if rank == 0:
        actions.append(Play("Jk pass", "pass", 0))
    return actions


def legal(core: Carbles) -> list[Play]:
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
    return [Play(f"burn {c}", "burn", c.rank, burn=c) for c in sorted(set(hand))]


# ----------------------------------------------------------------------------------- dealing


def deal(core: Carbles) -> Carbles:
    """Deal the next hand (rules 17-19), opening a fresh deck when fewer than 4N cards remain.

    If the deck cap is reached instead, the game ends (the guard of :func:`deck_cap`).
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
    return replace(
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


def sides(core: Carbles) -> list[tuple[int, ...]]:
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


def end_by_cap(core: Carbles) -> Carbles:
    """The deck cap is reached: most marbles in goal wins, ties broken by progress; alone, nobody wins."""
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
    return replace(core, over=True, capped=True, winners=winners, hands=tuple(() for _ in core.hands))


def won(core: Carbles, marbles: tuple[int, ...], actor: int) -> tuple[int, ...]:
    """Rules 20-21: the actor finished (without partners), or the actor's team both finished.

    Only the actor's own or partner's marbles enter a goal on the actor's turn, so no other side can win then.
    """
    n = core.players
    team = tuple(sorted({actor, partner(actor, n)})) if core.partners else (actor,)
    if all(finished(marbles, p, n) for p in team):
        return team
    return ()


# ----------------------------------------------------------------------------------- the rules

ACTION_HELP = (
    "actions look like 'A out', 'K m2 +13', '5 m1 +5 goal', '4 m3 -4', '7 m1 +3', "
    "'J swap m2 P3m1', 'Jk pass', 'burn 9♠'"
)
MARBLE_RE = r"(?:P(\d+))?m(\d+)"
PATTERNS = {
    "out": re.compile(r"^(\S+) (partner )?out$"),
    "move": re.compile(rf"^(\S+) {MARBLE_RE} \+(\d+)( goal)?$"),
    "back": re.compile(rf"^(\S+) {MARBLE_RE} -(\d+)$"),
    "swap": re.compile(rf"^(\S+) swap {MARBLE_RE} {MARBLE_RE}$"),
    "pass": re.compile(r"^(\S+) pass$"),
}


class CarblesRules(Rules):
    info = GameInfo(
        id="carbles",
        title="Carbles",
        blurb="Race your four marbles round the track and into your goal, moved by the cards you hold.",
        min_players=1,
        max_players=12,
        rules_version="1",
        cooperative=False,
        options=(
            Option(
                "partners", False, (False, True), "Partners", "Teams of two sitting opposite (even player counts only)."
            ),
            Option("open_hands", False, (False, True), "Open hands", "Every hand is visible to every player."),
        ),
        source="https://carbles.net/rules.shtml",
        max_actions=lambda players: deck_cap(players) * MOVES_PER_DECK,
        allowed_players=lambda players, options: (
            f"a partner game needs an even number of players; got {players}"
            if options.get("partners") and players % 2
            else None
        ),
    )

    # -- setting up and moving ---------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> Carbles:
        core = Carbles(
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
        return deal(core)

    def load_position(self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]) -> Carbles:
        """A core from ``{"marbles": [[place, ...] per player], "turn"?: seat, "seed"?: int}``.

        A place is ``lot``, ``t<space>`` or ``g<slot>`` (the player's own goal); missing players and
        marbles stay in the lot. Hands are dealt from the seed as usual.
        """
        seed = position.get("seed", 0)
        turn = position.get("turn", 0)
        if not isinstance(seed, int) or not isinstance(turn, int) or not 0 <= turn < players:
            raise ValueError(f"position fields 'seed' and 'turn' must be integers (turn 0..{players - 1})")
        rows = position.get("marbles", [])
        if not isinstance(rows, list) or len(rows) > players:
            raise ValueError(f"position field 'marbles' must list at most {players} players' marbles")
        size = SECTOR * players
        marbles = [LOT] * (MARBLES * players)
        for p, row in enumerate(rows):
            if not isinstance(row, list) or len(row) > MARBLES:
                raise ValueError(f"position: player {p + 1} has at most {MARBLES} marbles")
            for i, place in enumerate(row):
                text = str(place)
                if text == "lot":
                    continue
                if re.fullmatch(r"t\d+", text) and int(text[1:]) < size:
                    loc = int(text[1:])
                elif re.fullmatch(r"g[0-3]", text):
                    loc = goal(p, int(text[1:]), players)
                else:
                    raise ValueError(f"position: {text!r} is not lot, t0..t{size - 1} or g0..g3")
                if loc in marbles:
                    raise ValueError(f"position: two marbles on {text}")
                marbles[MARBLES * p + i] = loc
        core = self.setup(players, options, Rng.from_seed(seed))
        return replace(core, marbles=tuple(marbles), turn=turn, starter=turn)

    def current_player(self, core: Carbles) -> int | None:
        return None if core.over else core.turn

    def legal_actions(self, core: Carbles) -> list[Action]:
        return list(legal(core))

    def apply(self, core: Carbles, action: Action) -> Carbles:
        assert isinstance(action, Play)
        actor = core.turn
        hands, discards = core.hands, core.discards
        if not core.seven_left:  # a card leaves the hand (rule 16): the first one of that rank
            hand = core.hands[actor]
            card = action.burn if action.burn is not None else next(c for c in hand if c.rank == action.rank)
            i = hand.index(card)
            hands = hands[:actor] + (hand[:i] + hand[i + 1 :],) + hands[actor + 1 :]
            discards = discards + (card,)
        marbles = list(core.marbles)
        occ = occupancy(core.marbles) if action.kind in ("out", "move", "back") else {}
        seven_left = 0
        seven_moved: tuple[int, ...] = ()
        if action.kind == "out" and marbles[action.marble] == LOT:
            # rule 9: a marble on that home is killed, except the owner's own (nothing changes then)
            there = occ.get(action.dest, -1)
            if there < 0 or there // MARBLES != action.marble // MARBLES:
                kill(marbles, occ, action.dest, action.marble)
                marbles[action.marble] = action.dest
        elif action.kind in ("move", "back"):
            kill(marbles, occ, action.dest, action.marble)
            marbles[action.marble] = action.dest
        elif action.kind == "swap":
            marbles[action.marble], marbles[action.other] = marbles[action.other], marbles[action.marble]
        elif action.kind == "seven":
            left = core.seven_left or 7
            parts = seven_parts(core.marbles, occupancy(core.marbles), action.marble, left, core.players)
            for steps, dest, board, _ in parts:
                if dest == action.dest:
                    marbles = list(board)
                    seven_left = left - steps
                    break
            seven_moved = tuple(sorted(core.seven_moved + (action.marble,))) if seven_left else ()
        moved = tuple(marbles)
        winners = won(core, moved, actor)
        ends_turn = not seven_left or bool(winners)
        after = replace(
            core,
            marbles=moved,
            hands=hands,
            discards=discards,
            seven_left=seven_left,
            seven_moved=seven_moved,
            winners=winners,
            over=bool(winners),
            turns=core.turns + ends_turn,
            turn=(actor + 1) % core.players if ends_turn and not winners else actor,
        )
        if ends_turn and not winners and not any(hands):
            after = deal(after)
        return after

    # -- results -------------------------------------------------------------------------------
    def scores(self, core: Carbles) -> list[int | float]:
        return [in_goal(core.marbles, p, core.players) for p in range(core.players)]

    def winners(self, core: Carbles) -> list[int]:
        return list(core.winners)

    def evaluate(self, core: Carbles) -> list[float] | None:
        n = core.players
        if core.over:
            return [1.0 if p in core.winners else 0.0 for p in range(n)]
        weight = {p: (1 + progress(core.marbles, p, n)) ** 2 for p in range(n)}
        teams = sides(core)
        team_weight = {t: sum(weight[p] for p in t) for t in teams}
        total = sum(team_weight.values())
        chance = [0.0] * n
        for t in teams:
            for p in t:
                chance[p] = team_weight[t] / total
        return chance

    # -- what players see ------------------------------------------------------------------
    def view(self, core: Carbles, seat: int | None) -> dict[str, Any]:
        n = core.players
        size = SECTOR * n

        def where(loc: int) -> str:
            if loc == LOT:
                return "lot"
            if loc >= size:
                return f"g{(loc - size) % MARBLES}"
            return f"t{loc}"

        view: dict[str, Any] = {
            "track_size": size,
            "sector": SECTOR,
            "homes": [home(p) for p in range(n)],
            "entries": [entry(p, n) for p in range(n)],
            "marbles": [[where(loc) for loc in core.marbles[MARBLES * p : MARBLES * p + MARBLES]] for p in range(n)],
            "lots": [core.marbles[MARBLES * p : MARBLES * p + MARBLES].count(LOT) for p in range(n)],
            "in_goal": [in_goal(core.marbles, p, n) for p in range(n)],
            "hand": [str(c) for c in core.hands[seat]] if seat is not None else None,
            "hands": [[str(c) for c in h] for h in core.hands] if core.open_hands else None,
            "hand_counts": [len(h) for h in core.hands],
            "deck_count": len(core.deck),
            "discards": [str(c) for c in core.discards],
            "decks_opened": core.decks,
            "deck_cap": deck_cap(n),
            "dealer": core.dealer,
            "starter": core.starter,
            "hand_number": core.hand_number,
            "turn_count": core.turns,
            "seven": (
                {"player": core.turn, "left": core.seven_left, "moved": [label(m, core.turn) for m in core.seven_moved]}
                if core.seven_left
                else None
            ),
            "finished": [p for p in range(n) if finished(core.marbles, p, n)],
            "partners": core.partners,
            "open_hands": core.open_hands,
            "teams": [list(t) for t in sides(core)] if core.partners else None,
            "plays_for": [owner_for(core, p) for p in range(n)],
            "capped": core.capped,
            "moves": None,
        }
        if seat is not None and not core.over and seat == core.turn:
            moves: dict[str, Any] = {}
            for action in legal(core):
                mover = [action.marble // MARBLES, action.marble % MARBLES] if action.marble >= 0 else None
                moves[action.text] = {
                    "card": str(action.burn) if action.burn is not None else rank_text(action.rank),
                    "kind": action.kind,
                    "marble": mover,
                    "from": where(core.marbles[action.marble]) if action.marble >= 0 else None,
                    "to": where(action.dest) if action.kind not in ("pass", "burn") else None,
                    "to_player": (action.dest - size) // MARBLES if action.dest >= size else None,
                    "with": [action.other // MARBLES, action.other % MARBLES] if action.other >= 0 else None,
                }
            view["moves"] = moves
        return view

    def sample_hidden(self, core: Carbles, seat: int | None, rng: Rng) -> Carbles:
        hidden = [] if core.open_hands else [p for p in range(core.players) if p != seat]
        pool = sorted(list(core.deck) + [c for p in hidden for c in core.hands[p]])
        cards, rng = rng.shuffled(pool)
        deck, rest = cards[: len(core.deck)], cards[len(core.deck) :]
        hands = list(core.hands)
        for p in hidden:
            size = len(hands[p])
            hands[p], rest = tuple(sorted(rest[:size])), rest[size:]
        own_rng, _ = rng.split()
        return replace(core, deck=deck, hands=tuple(hands), rng=own_rng)

    # -- words ---------------------------------------------------------------------------------
    def describe(self, before: Carbles, action: Action, after: Carbles) -> str:
        assert isinstance(action, Play)
        n = before.players
        actor = before.turn
        who = f"Player {actor + 1}"
        size = SECTOR * n

        def place(loc: int) -> str:
            if loc == LOT:
                return "the lot"
            if loc >= size:
                return f"goal slot {(loc - size) % MARBLES}"
            return f"space {loc}"

        def marble(m: int) -> str:
            p, i = divmod(m, MARBLES)
            return f"m{i + 1}" if p == actor else f"Player {p + 1}'s m{i + 1}"

        card = rank_text(action.rank)
        if action.kind == "burn":
            line = f"{who} cannot move and burns {action.burn}"
        elif action.kind == "pass":
            line = f"{who} plays a joker and does nothing"
        elif action.kind == "out":
            if after.marbles[action.marble] == LOT:
                line = f"{who} plays {card}: the marble on home {action.dest} stays (moving out changes nothing)"
            else:
                line = f"{who} plays {card}: {marble(action.marble)} moves out onto home {action.dest}"
        elif action.kind == "swap":
            line = (
                f"{who} plays J: swaps {marble(action.marble)} ({place(before.marbles[action.marble])}) "
                f"with {marble(action.other)} ({place(before.marbles[action.other])})"
            )
        else:
            steps = (before.seven_left or 7) - after.seven_left if action.kind == "seven" else None
            amount = "-4" if action.kind == "back" else f"+{steps if steps is not None else STEPS[action.rank]}"
            line = (
                f"{who} plays {card}: {marble(action.marble)} {amount} from "
                f"{place(before.marbles[action.marble])} to {place(action.dest)}"
            )
            if action.kind == "seven" and after.seven_left and not after.over:
                line += f" ({after.seven_left} of the 7 left)"
        killed = [
            m
            for m in range(MARBLES * n)
            if before.marbles[m] != LOT and after.marbles[m] == LOT and action.kind != "burn"
        ]
        if killed and not after.capped:
            line += "; kills " + ", ".join(marble(m) for m in killed)
        if after.over:
            if after.capped:
                line += f"; the deck limit ({deck_cap(n)} decks) is reached"
            if after.winners:
                line += "; " + " and ".join(f"Player {p + 1}" for p in after.winners)
                line += " win" if len(after.winners) > 1 else " wins"
            else:
                line += "; nobody wins"
        elif after.hand_number != before.hand_number or after.decks != before.decks:
            if after.decks != before.decks:
                line += f"; a fresh deck: Player {after.dealer + 1} deals"
            size_dealt = len(after.hands[0])
            line += f"; a new hand of {size_dealt} cards each, Player {after.starter + 1} starts"
        return line

    def why_illegal(self, core: Carbles, text: str) -> str:
        if core.over:
            return "the game is over"
        actor = core.turn
        if core.seven_left:
            steps = legal(core)
            if not text.startswith("7 "):
                return f"finish the 7 first: {core.seven_left} step(s) left, e.g. {steps[0].text!r}"
            match = PATTERNS["move"].match(text)
            if match:
                marble = self._marble(core, actor, match.group(2), match.group(3))
                if marble is None:
                    return f"{text!r} names no marble; marbles are m1-m4, other players' like P2m3"
                if marble in core.seven_moved:
                    return f"{label(marble, actor)} has already moved in this 7"
                if int(match.group(4)) > core.seven_left:
                    return f"only {core.seven_left} step(s) of the 7 are left"
            return f"{text!r} cannot be done now: the 7 steps possible are " + ", ".join(a.text for a in steps)
        hand = core.hands[actor]
        if text.startswith("burn "):
            try:
                card = Card.parse(text[5:])
            except ValueError:
                return f"{text[5:]!r} is not a card"
            if card not in hand:
                return f"you do not hold {card}"
            return "a card can be played, so burning is not allowed (you burn only when nothing can move)"
        token = text.split(" ", 1)[0]
        if token not in RANK_BY_TEXT:
            return f"unknown action {text!r}; {ACTION_HELP}"
        rank = RANK_BY_TEXT[token]
        if not any(c.rank == rank for c in hand):
            return f"you hold no {token}"
        actions = legal(core)
        mine = [a for a in actions if a.rank == rank and a.kind != "burn"]
        if not mine:
            return f"your {token} cannot move any marble now; " + (
                "burn a card" if actions[0].kind == "burn" else "play another card"
            )
        options = ", ".join(a.text for a in mine[:12]) + (", ..." if len(mine) > 12 else "")
        for kind, pattern in PATTERNS.items():
            match = pattern.match(text)
            if not match:
                continue
            if kind in ("move", "back", "swap"):
                marble = self._marble(core, actor, match.group(2), match.group(3))
                if marble is None:
                    return f"{text!r} names no marble; marbles are m1-m4, other players' like P2m3"
                owner = owner_for(core, actor)
                if marble // MARBLES != owner:
                    whose = "your" if owner == actor else "your partner's"
                    return f"you move only {whose} marbles; your {token} can: {options}"
                if core.marbles[marble] == LOT:
                    return f"{label(marble, actor)} is in the lot; your {token} can: {options}"
                if kind == "move" and rank in STEPS and int(match.group(4)) != STEPS[rank]:
                    return f"a {token} moves exactly {STEPS[rank]} spaces"
                if kind == "back" and rank != 4:
                    return "only a 4 moves backward"
                if kind == "swap" and rank != 11:
                    return "only a jack swaps"
            if kind == "out" and rank not in MOVE_OUT:
                return "only an ace, a king or a joker moves a marble out"
            return f"{text!r} is not possible now; your {token} can: {options}"
        return f"unknown action {text!r}; {ACTION_HELP}"

    @staticmethod
    def _marble(core: Carbles, actor: int, player: str | None, number: str) -> int | None:
        p = int(player) - 1 if player else actor
        i = int(number) - 1
        if not (0 <= p < core.players and 0 <= i < MARBLES):
            return None
        return MARBLES * p + i


POSITIONS: Mapping[str, Mapping[str, Any]] = {
    "board": {
        "marbles": [
            ["lot", "lot", "t104", "g3"],
            ["t18", "t10", "lot", "lot"],
            [],
            ["t40", "lot", "lot", "lot"],
            ["t60", "t75", "lot", "lot"],
            ["t99", "lot", "lot", "lot"],
        ],
    },
}
"""Positions shown on the rules page (six players, like the original's unrolled board)."""

RULES = register(CarblesRules())
