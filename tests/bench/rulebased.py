"""A rule-based player per competitive game: the yardstick of issue 29, a thoughtful casual player.

It decides from its own seat's view only. Each decision re-deals what the seat cannot see
(``State.sample_hidden``), plays every option through the rest of its own turn on that deal
(:func:`plan_turn`: the Card-cassonne placement with its token and scoring, every part of a Carbles 7, a
Silver Bars thief with its target and placement; in Carbondale a build with its contribution, while claims,
defences, discards and draws follow rules of thumb) and judges where each line ends by what the seat's view
(``Rules.view(core, seat)``) shows: what is banked and what is still to come, in the tactics a casual player
knows (each game's ``*_value`` below).

It speaks only the engine contract: ``legal_actions``, ``apply``, ``current_player``, ``view``, ``facts`` and
``sample_hidden`` of the game's rules, and the view's keys. Nothing here imports a game's internals.

    from tests.bench.rulebased import RuleBasedBot
    bot = RuleBasedBot("carbles", seed=1); action = bot.choose(state)

Measured with ``tests/bench/strength.py --level rulebased --against greedy`` (or ``random``), and as the
yardstick ``--against rulebased``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pyengine.ai import Bot  # noqa: E402
from pyengine.core import Action, Core, Rules, State  # noqa: E402

View = dict[str, Any]
Value = Callable[[View, int], float]


def seat_view(rules: Rules, core: Core, seat: int) -> View:
    """``State.view(seat)`` without its ``moves`` (the shared keys the game's own view leaves to the wrapper)."""
    scores = rules.scores(core)
    current = rules.current_player(core)
    view: View = {"players": len(scores), "seat": seat, "current_player": current, "over": current is None,
                  "scores": scores, "winners": rules.winners(core) if current is None else []}
    view.update(rules.view(core, seat))
    return view


# -- the whole turn -----------------------------------------------------------------------------------------------
def plan_turn(
    rules: Rules, core: Core, seat: int, value: Value, ends_turn: Callable[[View], bool] | None = None,
    bias: Callable[[dict[str, Any], View], float] | None = None, budget: int = 3000,
) -> list[tuple[float, Action]]:
    """Every legal action with the value of the best way to finish the turn after it, best first.

    A line ends when another seat decides, the game ends or ``ends_turn`` says so; its value is ``value`` of
    the seat's view there. ``bias`` adds to a root action's value from its facts (the card it spends). Past
    ``budget`` positions a line is judged where it stands."""
    seen: dict[Any, float] = {}
    count = 0

    def best(node: Core) -> float:
        nonlocal count
        if rules.current_player(node) != seat:
            return value(seat_view(rules, node, seat), seat)
        view = seat_view(rules, node, seat)
        if ends_turn is not None and ends_turn(view):
            return value(view, seat)
        if node in seen:
            return seen[node]
        count += 1
        if count > budget:
            result = value(view, seat)
        else:
            result = max(best(rules.apply(node, a)) for a in rules.legal_actions(node))
        seen[node] = result
        return result

    before = seat_view(rules, core, seat)
    scored = []
    for action in rules.legal_actions(core):
        extra = bias(rules.facts(core, action), before) if bias else 0.0
        scored.append((best(rules.apply(core, action)) + extra, action))
    scored.sort(key=lambda pair: -pair[0])
    return scored


def lead(values: list[float], seat: int) -> float:
    """The seat's value minus the best other seat's."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


# -- Card-cassonne --------------------------------------------------------------------------------------------------
FACES = "JQKA"


def cardcassonne_value(view: View, seat: int) -> float:
    """Points, plus what the tokens on the table should still bring, plus the tokens in reserve.

    A token is worth its area's value times how close the area is to closing (its cards against its open cells;
    a partially complete area can be scored at once), plus a share of the 3-point end bonus on a face card that
    grows as the game nears its end. A token in reserve is worth more while many cards remain."""
    players = view["players"]
    remaining = view["draw_count"] + sum(view["hand_counts"])
    total = 104 - view["removed"] - 1
    left = remaining / max(total, 1)
    worth = [float(p) for p in view["scores"]]
    faces = {(g["x"], g["y"]): g["card"][:-1] in FACES for g in view["grid"]}
    for area in view["areas"]:
        if not area["tokens"]:
            continue
        size, open_cells = area["size"], area["open"]
        closeness = 0.95 if area["partial"] else size / (size + open_cells)
        for x, y, owner in area["tokens"]:
            worth[owner] += area["value"] * closeness
            if faces.get((x, y)):
                worth[owner] += 3 * (1 - left) * (1 - closeness) + 0.5
    for s in range(players):
        worth[s] += view["tokens_left"][s] * (0.5 + 2.5 * left)
    return lead(worth, seat)


def cardcassonne_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The placement, token and scoring together that leave the best value at the end of the turn."""
    return plan_turn(rules, core, seat, cardcassonne_value)[0][1]


# -- Carbles --------------------------------------------------------------------------------------------------------
KEEP_FOR_LOT = {"A": 6.0, "K": 6.0, "Jk": 6.0}
CARD_USE = {"7": 3.0, "4": 2.0, "J": 2.0, "A": 1.5, "K": 1.5, "Jk": 1.0}


def _carbles_rank(card: str) -> str:
    return card if card == "Jk" else card[:-1]


def _reach(ahead: int) -> float:
    """The chance that a rival holds a card moving one marble exactly ``ahead`` spaces forward (a 7 reaches any
    distance up to 7; no card moves exactly 4 forward)."""
    if not 1 <= ahead <= 13:
        return 0.0
    single = 0.0 if ahead == 4 else 0.3
    return single + (0.15 if ahead <= 7 else 0.0)


def carbles_value(view: View, seat: int) -> float:
    """Marble progress (out of the lot, spaces run, a goal slot worth most), less the risk to own marbles, plus
    the cards kept in hand.

    An own marble that an opponent's marble reaches with one card (1 to 13 behind it, or 4 ahead) may be lost;
    one on an opponent's home while that opponent has marbles in the lot is at greater risk. A, K and jokers are
    kept while own marbles wait in the lot."""
    size, homes, players = view["track_size"], view["homes"], view["players"]
    places = view["marbles"]
    ring: dict[int, int] = {}  # space -> owner
    for p in range(players):
        for place in places[p]:
            if "track" in place:
                ring[place["track"]] = p
    lots = view["lots"]
    worth = []
    for p in range(players):
        total = 0.0
        goal = {place["goal"][1] for place in places[p] if "goal" in place}
        for place in places[p]:
            if "goal" in place:  # deeper is better: a marble short of an empty slot blocks the way in
                slot = place["goal"][1]
                total += size + 20 + 6 * slot - 5 * sum(1 for deeper in range(slot + 1, 4) if deeper not in goal)
            elif "track" in place:
                space = place["track"]
                run = 1 + (space - homes[p]) % size
                marble = 10 + run
                risk = 0.0
                if space != homes[p]:  # a marble on its own home cannot be killed (rule 8)
                    for q in range(players):
                        if q != p and space == homes[q] and lots[q] > 0:
                            risk = max(risk, 0.5)  # an A, K or joker brings the owner out onto it
                    for other, q in ring.items():
                        if q != p:
                            risk = max(risk, _reach((space - other) % size), 0.3 * ((other - space) % size == 4))
                weight = 1.0 if p == seat else 0.3  # the seat's own marbles face the next turns first
                total += marble * (1 - risk * weight)
        worth.append(total)
    teams = view.get("teams")
    if teams:  # partners: a side's marbles together
        side = next(i for i, team in enumerate(teams) if seat in team)
        value = lead([sum(worth[m] for m in team) for team in teams], side)
    else:
        value = lead(worth, seat)
    waiting = lots[seat] > 0
    for card in view["hand"] or []:
        rank = _carbles_rank(card)
        value += KEEP_FOR_LOT[rank] if waiting and rank in KEEP_FOR_LOT else CARD_USE.get(rank, 1.0)
    return value


def carbles_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The card (every part of a 7 played out) that leaves the best value; a burn gives up the least useful card."""
    return plan_turn(rules, core, seat, carbles_value)[0][1]


# -- 100 Silver Bars ------------------------------------------------------------------------------------------------
SILVER = {"A": 1, "2": 2, "3": 3, "4": 4, "6": 6}
MINERS = {"7", "8", "9", "10"}


def _vault_silver(vault: dict[str, Any]) -> int:
    """The silver in a vault, every bar counted (a locked vault scores them all)."""
    cards = zip(vault["cards"], vault["roles"], strict=True)
    return sum(SILVER.get(card[:-1], 0) for card, role in cards if role == "silver")


def _lockable(view: View, side: int) -> int:
    """How many of ``side``'s vaults could be locked now (unlocked, silver on top)."""
    return sum(1 for v in view["vaults"][side] if not v["locked"] and v["roles"] and v["roles"][-1] == "silver")


def silver_value(view: View, seat: int) -> float:
    """Silver banked and locked, plus unlocked silver at a discount (more when a miner covers it, since it needs
    a richer bar before it can be locked, and more as the draw pile runs out), plus a miner on top (it lets a
    richer bar follow); rubble on one's vault and a strike in front of one cost."""
    left = min(1.0, view["draw_count"] / 30)
    worth = []
    for side in range(2):
        total = float(view["scores"][side]) + view["round_scores"][side]
        for vault in view["vaults"][side]:
            if vault["locked"]:
                continue
            roles = vault["roles"]
            covered = bool(roles) and roles[-1] == "miner"
            total += _vault_silver(vault) * (0.35 if covered else 0.7) * (0.5 + 0.5 * left)
            if covered and vault["silver"] < 6:
                total += 1.0 * left
            if vault["rubble"]:
                total -= 2.0 * left
        if view["strike"][side]:
            total -= 2.5
        worth.append(total)
    return float(worth[seat] - worth[1 - seat])


def silver_hold(token: str, view: View, seat: int) -> float:
    """What a card in hand is worth keeping (the least of these is the one to discard)."""
    mine = view["vaults"][seat]
    if token in SILVER:
        return 0.5 * SILVER[token]
    if token in MINERS:
        return 1.2 if any(v["roles"] and v["roles"][-1] == "silver" and not v["locked"] for v in mine) else 0.6
    if token == "shovel":
        return 1.0 if any(v["rubble"] for v in mine) else 0.2
    return {"rubble": 1.5, "lo-thief": 2.0, "hi-thief": 3.0, "strike": 2.5}.get(token, 1.0)


def _silver_urgent(view: View, seat: int) -> bool:
    """Late: the draw pile runs low, or the rival has no more locks left to place than the seat has vaults to
    lock before the rival's fifth lock ends the round."""
    return bool(view["draw_count"] <= 14 or view["locks_left"][1 - seat] - 1 <= _lockable(view, seat))


def _silver_lock(facts: dict[str, Any], view: View, seat: int) -> float | None:
    """A lock's bias, or None when it is no lock to place now: lock late or full, a 6-topped vault early; the
    fifth lock only when ahead (or when the rival could end the round first)."""
    vault = view["vaults"][seat][facts["vault"]]
    silver = _vault_silver(vault)
    urgent = _silver_urgent(view, seat)
    if not (vault["silver"] == 6 or silver >= 10 or urgent):
        return None
    if view["locks_left"][seat] == 1:
        mine = view["scores"][seat] + view["round_scores"][seat] + silver
        theirs = view["scores"][1 - seat] + view["round_scores"][1 - seat] + 0.5 * sum(
            _vault_silver(v) for v in view["vaults"][1 - seat] if not v["locked"])
        rival_ends = view["locks_left"][1 - seat] == 1 and _lockable(view, 1 - seat) > 0
        if mine <= theirs and not rival_ends and view["draw_count"] > 14:
            return None
    return 3.0 if urgent else 0.0


def silver_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The play (a thief played through to its target and placement) that leaves the best value, less what the
    card was worth in hand; locks by :func:`_silver_lock`, strikes when the rival has miners on top."""
    def bias(facts: dict[str, Any], view: View) -> float:
        kind = facts["kind"]
        if kind == "lock":
            lock = _silver_lock(facts, view, seat)
            return -1000.0 if lock is None else lock
        token = facts.get("token")
        if token is None:
            return 0.0
        if kind == "strike" and not any(
                v["roles"] and v["roles"][-1] == "miner" and not v["locked"] for v in view["vaults"][1 - seat]):
            return -silver_hold(token, view, seat) - 2.0  # nothing to hit: keep it for a better moment
        return -silver_hold(token, view, seat)

    return plan_turn(rules, core, seat, silver_value, bias=bias)[0][1]


# -- Carbondale -----------------------------------------------------------------------------------------------------
BLACK, RED = "♣♠", "♡♢"
BUILDS = {("♣", "♣"): 2, ("♠", "♠"): 2, ("♣", "♠"): 1, ("♠", "♣"): 1, ("♣", "♡"): 0, ("♠", "♢"): 0}
"""Rule 10: (source suit, new suit) -> how far above the source's rank the new card may go."""


def _rank(card: str) -> int:
    return 1 if card[:-1] == "A" else int(card[:-1])


def carbondale_progress(hearts: int, diamonds: int) -> int:
    """Rule 27: the larger of hearts up to 7 plus diamonds up to 3, and the other way round."""
    return max(min(hearts, 7) + min(diamonds, 3), min(diamonds, 7) + min(hearts, 3))


def _wanted(net: View, suit: str) -> bool:
    """Whether one more card of this red suit raises the network's progress."""
    h, d = net["hearts"], net["diamonds"]
    now = carbondale_progress(h, d)
    return carbondale_progress(h + (suit == "♡"), d + (suit == "♢")) > now


def _sources(net: View, zone: int, any_red: bool) -> list[tuple[str, bool, bool]]:
    """Each black card of the network with (card, room for a black card, room for a red card) next to it."""
    cells = {(c["x"], c["y"]): c["cards"] for c in net["cells"]}
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    found = []
    for (x, y), cards in cells.items():
        card = cards[0]["card"]
        if card[-1] not in BLACK:
            continue
        black = red = False
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            here = cells.get((x + dx, y + dy))
            if here is None:
                nx, ny = x + dx, y + dy
                fits = (max(xs + [nx]) - min(xs + [nx]) < zone) and (max(ys + [ny]) - min(ys + [ny]) < zone)
                black = black or fits
                red = red or fits
            elif len(here) == 1 and here[0]["card"][-1] in RED:
                red = True
        found.append((card, black, red))
    return found


def _limit(source: str, card: str, any_red: bool) -> int | None:
    step = BUILDS.get((source[-1], card[-1]))
    if step is None and any_red and card[-1] in RED:
        step = 0
    return None if step is None else _rank(source) + step


def carbondale_use(card: str, net: View, zone: int, any_red: bool) -> float:
    """How useful a card is to a network: a red card that raises its progress and can be built now is worth
    most, a black card that can be built a little, anything else little."""
    buildable = False
    for source, black, red in _sources(net, zone, any_red):
        limit = _limit(source, card, any_red)
        room = red if card[-1] in RED else black
        if limit is not None and room and _rank(card) <= limit:
            buildable = True
            break
    if card[-1] in RED:
        if not _wanted(net, card[-1]):
            return 0.1
        return 3.0 if buildable else 0.9
    return (1.0 + 0.1 * _rank(card)) if buildable else 0.3 + 0.05 * _rank(card)


def carbondale_network(net: View, zone: int, any_red: bool) -> float:
    """Progress, then sources with room to build from, less the red cards a rival could claim."""
    value = 10.0 * net["progress"]
    for source, black, red in _sources(net, zone, any_red):
        if red:
            value += 0.8 + 0.1 * _rank(source)
        if black:
            value += 0.4 + 0.05 * _rank(source)
    for cell in net["cells"]:
        for placed in cell["cards"]:
            if placed["vulnerable"] and placed["card"][-1] in RED:
                value -= 2.0 + max(0, 6 - _rank(placed["card"])) * 0.3
    return float(value)


def carbondale_value(view: View, seat: int) -> float:
    """The seat's network and hand against the best rival's network, less what the stock offers the rivals."""
    zone, any_red = view["zone"], view["any_black_to_red"]
    nets = view["networks"]
    if view["over"]:
        return 1000.0 if seat in view["winners"] else -1000.0
    mine = carbondale_network(nets[seat], zone, any_red)
    mine += sum(carbondale_use(card, nets[seat], zone, any_red) for card in view["hand"] or [])
    if view["draw_to"] > 4 and view["current_player"] == seat:
        mine += 2.5  # the bonus card of rule 11
    others = [s for s in range(view["players"]) if s != seat]
    best = max(carbondale_network(nets[s], zone, any_red) for s in others)
    gift = sum(max(carbondale_use(c["card"], nets[s], zone, any_red) for s in others) for c in view["stock"])
    return mine - best - 0.5 * gift


def carbondale_choose(rules: Rules, core: Core, seat: int) -> Action:
    """Claims where the owner loses most, builds the card that adds most (its contribution chosen with it),
    defends unless defending costs more, takes a useful stock card over the pile, throws away dead cards."""
    view = seat_view(rules, core, seat)
    zone, any_red = view["zone"], view["any_black_to_red"]
    nets = view["networks"]
    mine = nets[seat]
    actions = rules.legal_actions(core)
    facts = [rules.facts(core, a) for a in actions]
    kinds = {f["kind"] for f in facts}

    def use(card: str) -> float:
        return carbondale_use(card, mine, zone, any_red)

    if view["phase"] == "defend":
        pending = view["pending"]
        target = pending["target"] if isinstance(pending, dict) else None
        net = mine
        loss = 4.0
        if target and target[-1] in RED:
            h, d = net["hearts"] - (target[-1] == "♡"), net["diamonds"] - (target[-1] == "♢")
            loss = 10.0 * (net["progress"] - carbondale_progress(h, d)) + 2.0
        defences = [(use(f["card"]), a) for a, f in zip(actions, facts, strict=True) if f["kind"] == "defend"]
        if defences:
            cost, action = min(defences, key=lambda pair: pair[0])
            if cost <= loss:
                return action
        return next(a for a, f in zip(actions, facts, strict=True) if f["kind"] == "decline")

    if view["phase"] == "act":
        claims = []
        for action, f in zip(actions, facts, strict=True):
            if f["kind"] != "claim":
                continue
            owner = nets[f["owner"]]
            target = f["target"]
            if target[-1] in RED:
                h = owner["hearts"] - (target[-1] == "♡")
                d = owner["diamonds"] - (target[-1] == "♢")
                loss = 10.0 * (owner["progress"] - carbondale_progress(h, d))
            else:
                loss = 1.0
            gain = use(target) + 0.25 * _rank(f["challenge"]) - use(f["challenge"])
            claims.append((loss + gain, action))
        if claims:
            worth, action = max(claims, key=lambda pair: pair[0])
            if worth >= 8.0:
                return action
    if view["phase"] in ("act", "contribute") and kinds & {"build", "contribute"}:
        builds = [a for a, f in zip(actions, facts, strict=True) if f["kind"] in ("build", "contribute")]
        scored = []
        for action in builds:
            after = rules.apply(core, action)
            scored.append((_carbondale_line(rules, after, seat), action))
        return max(scored, key=lambda pair: pair[0])[1]  # a build is the only way forward: build every turn
    if "discard" in kinds:  # no build this turn: throw away what cannot be built now, for fresh cards
        dead = [(use(f["card"]), a) for a, f in zip(actions, facts, strict=True)
                if f["kind"] == "discard" and not f["face_up"] and use(f["card"]) < 1.0]
        if dead:
            return min(dead, key=lambda pair: pair[0])[1]
    takes = [(use(f["card"]), a) for a, f in zip(actions, facts, strict=True) if f["kind"] == "take"]
    if takes:
        worth, action = max(takes, key=lambda pair: pair[0])
        if worth >= 1.0:
            return action
    for action, f in zip(actions, facts, strict=True):
        if f["kind"] == "draw":
            return action
    return next(a for a, f in zip(actions, facts, strict=True) if f["kind"] == "end")


def _carbondale_line(rules: Rules, core: Core, seat: int) -> float:
    """The value after a build, with its best contribution (the game may be won before one is due)."""
    if rules.current_player(core) != seat:
        return carbondale_value(seat_view(rules, core, seat), seat)
    view = seat_view(rules, core, seat)
    if view["phase"] != "contribute":
        return carbondale_value(view, seat)
    return max(carbondale_value(seat_view(rules, rules.apply(core, a), seat), seat) for a in rules.legal_actions(core))


# -- the player -----------------------------------------------------------------------------------------------------
CHOOSERS: dict[str, Callable[[Rules, Core, int], Action]] = {
    "cardcassonne": cardcassonne_choose,
    "carbles": carbles_choose,
    "silver-bars": silver_choose,
    "carbondale": carbondale_choose,
}
"""Per competitive game: the rule-based choice on a re-dealt core (only the seat's view is real)."""


class RuleBasedBot(Bot):
    """The rule-based player: its game's tactic on a re-deal of what its seat cannot see."""

    name = "rulebased"

    def __init__(self, game: str, seed: int = 0) -> None:
        if game not in CHOOSERS:
            raise ValueError(f"no rule-based player for {game}; there is one for {', '.join(CHOOSERS)}")
        self.choose_on = CHOOSERS[game]
        self.random = random.Random(f"rulebased:{seed}")

    def think(self, state: State) -> Generator[int, None, None]:
        seat = state.current_player
        assert seat is not None
        legal = {str(a): a for a in state.legal_actions()}
        if len(legal) == 1:
            self.decision = next(iter(legal.values()))
        else:
            world = state.sample_hidden(seat, self.random.getrandbits(62))
            chosen = str(self.choose_on(world.rules, world.core, seat))
            # the seat's own options are the same in the deal and the game; a stray one falls back to the first
            self.decision = legal.get(chosen, next(iter(legal.values())))
        self.iterations_done = 1
        yield 1
