"""A second yardstick for 100 Silver Bars and Card-cassonne: a cheap player who counts what is still to come.

It is written apart from the games' judgement (``judgement.py``), which the project's rule-based player and the
computer's search share, so it measures the search against a way of playing the project did not choose. One ply, no
search: it decides from its own seat's view (``Rules.view``), the moves' ``facts`` and, in Card-cassonne, the turn
played through with ``apply`` (the seat's own cards only; nothing hidden is read).

- **Card-cassonne.** It plans the whole turn (card, token, scoring) as one choice and judges where the turn ends:
  points banked, plus for each token on the table 0.8 x its area's value x min(1, the area's cards / its open cells),
  plus 1.5 for a token on a face card (the end bonus), plus one point a token still in hand while more than 12 cards
  lie in the draw pile (0.2 after). It takes the line with the best margin over the best other player.
- **100 Silver Bars.** It values a play by the silver it banks or takes now; locks late (a short draw pile or a rival
  with four locks) or a vault with a 6 on top, and its fifth lock only when the locked silver then leads; plays a
  thief on the richest target, strikes when the rival has miners on top, drops rubble into an empty rival vault,
  shovels its own rubble first and discards the card it would miss least.

    python tests/bench/strength.py --level counting --against rulebased --game cardcassonne --players 2 --games 40
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

# -- Card-cassonne --------------------------------------------------------------------------------------------------
FACE_CARDS = ("J", "Q", "K", "A")


def cassonne_worth(rules: Rules, core: Core, seat: int) -> float:
    """The seat's margin over the best other seat: points, tokens on the table by their areas' expected completion,
    the face-card bonus, tokens in hand while many cards remain."""
    points = [float(p) for p in rules.scores(core)]
    if rules.current_player(core) is None:
        return points[seat] - max(p for s, p in enumerate(points) if s != seat)
    view = rules.view(core, None)
    face = {(g["x"], g["y"]) for g in view["grid"] if g["card"][:-1] in FACE_CARDS}
    for area in view["areas"]:
        completion = min(1.0, area["size"] / area["open"]) if area["open"] else 1.0
        for x, y, owner in area["tokens"]:
            points[owner] += 0.8 * area["value"] * completion + (1.5 if (x, y) in face else 0.0)
    in_hand = 1.0 if view["draw_count"] > 12 else 0.2
    for s, left in enumerate(view["tokens_left"]):
        points[s] += in_hand * left
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def cassonne_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The first move of the turn's best line (card, token and scoring together), judged where the turn ends."""
    memo: dict[Core, float] = {}

    def best(node: Core) -> float:
        if rules.current_player(node) != seat:
            return cassonne_worth(rules, node, seat)
        if node not in memo:
            memo[node] = max(best(rules.apply(node, a)) for a in rules.legal_actions(node))
        return memo[node]

    actions = rules.legal_actions(core)
    values = [best(rules.apply(core, a)) for a in actions]
    return actions[values.index(max(values))]


# -- 100 Silver Bars ------------------------------------------------------------------------------------------------
BARS = {"A": 1, "2": 2, "3": 3, "4": 4, "6": 6}
KEEP = {"rubble": 2.0, "shovel": 1.0, "lo-thief": 3.0, "hi-thief": 4.0, "strike": 3.0}
"""What a special card is worth keeping (silver is worth its bars, a miner one)."""


def _bars(vault: View) -> int:
    return sum(BARS.get(card[:-1], 0) for card, role in zip(vault["cards"], vault["roles"], strict=True)
               if role == "silver")


def _top(vault: View) -> str | None:
    return vault["roles"][-1] if vault["roles"] else None


def _top_bar(vault: View) -> int:
    """The value of the silver on top of a vault (0 when something else lies on top)."""
    return BARS.get(vault["cards"][-1][:-1], 0) if _top(vault) == "silver" else 0


def _miss(token: str, view: View, seat: int) -> float:
    """How much the seat would miss a card in hand."""
    mine = view["vaults"][seat]
    if token in BARS:
        return BARS[token]
    if token == "shovel":
        return 3.0 if any(v["rubble"] for v in mine) else 0.5
    if token in KEEP:
        return KEEP[token]
    return 1.5 if any(_top(v) == "silver" and not v["locked"] for v in mine) else 0.5


def _lock(vault: View, view: View, seat: int) -> float | None:
    """A lock's value, or None when the lock is not due: late, or a 6 on top; the fifth only when ahead."""
    rival = 1 - seat
    late = view["draw_count"] <= 15 or view["locks_left"][rival] <= 1
    if not (late or _top_bar(vault) == 6):
        return None
    if view["locks_left"][seat] == 1:
        mine = view["scores"][seat] + view["round_scores"][seat] + _bars(vault)
        theirs = view["scores"][rival] + view["round_scores"][rival]
        if mine <= theirs:
            return None
    return 20.0 + _bars(vault)


def _silver_value(action: Action, facts: View, view: View, seat: int) -> float | None:
    """What one move is worth to the counting player (None: never this move)."""
    kind, mine, theirs = facts["kind"], view["vaults"][seat], view["vaults"][1 - seat]
    vault = facts.get("vault")
    if kind in ("clear", "steal", "place"):
        target = (theirs if kind == "steal" else mine)[vault] if vault is not None else None
        return float(_bars(target)) if target is not None else 0.0  # the richest target, the richest vault
    if kind == "shovel":
        return 50.0
    if kind == "lock":
        return _lock(mine[vault], view, seat)
    if kind == "play":  # silver banked now, best on a vault that already holds some
        return BARS[facts["token"]] + 0.1 * _bars(mine[vault])
    if kind in ("lo-thief", "hi-thief"):
        tops = [_top_bar(v) for v in theirs if not v["locked"] and _top_bar(v)]
        return 2.0 * (min(tops) if kind == "lo-thief" else max(tops)) if tops else None
    if kind == "strike":
        miners = sum(1 for v in theirs if not v["locked"] and _top(v) == "miner")
        return 4.0 * miners if miners else None
    if kind == "rubble":
        return 3.0
    if kind == "miner":  # opens a vault to richer silver; useless on a 6
        top = _top_bar(mine[vault])
        return 1.5 - 0.25 * top if top < 6 else None
    if kind == "discard":
        return -_miss(facts["token"], view, seat)
    return 0.0


def silver_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The move the counting player values most (the first of equals in the legal order)."""
    view = rules.view(core, seat)
    view["scores"] = list(rules.scores(core))
    best: tuple[float, Action] | None = None
    for action in rules.legal_actions(core):
        worth = _silver_value(action, rules.facts(core, action), view, seat)
        if worth is not None and (best is None or worth > best[0]):
            best = (worth, action)
    return best[1] if best is not None else rules.legal_actions(core)[0]


# -- the player -----------------------------------------------------------------------------------------------------
CHOOSERS: dict[str, Callable[[Rules, Core, int], Action]] = {
    "cardcassonne": cassonne_choose,
    "silver-bars": silver_choose,
}
"""The games the counting player plays."""


class CountingBot(Bot):
    """The counting player: its game's rule on its own seat's view (a re-deal of what it cannot see, never read)."""

    name = "counting"

    def __init__(self, game: str, seed: int = 0) -> None:
        if game not in CHOOSERS:
            raise ValueError(f"no counting player for {game}; there is one for {', '.join(CHOOSERS)}")
        self.choose_on = CHOOSERS[game]
        self.random = random.Random(f"counting:{seed}")

    def think(self, state: State) -> Generator[int, None, None]:
        seat = state.current_player
        assert seat is not None
        legal = {str(a): a for a in state.legal_actions()}
        if len(legal) == 1:
            self.decision = next(iter(legal.values()))
        else:
            world = state.sample_hidden(seat, self.random.getrandbits(62))
            chosen = str(self.choose_on(world.rules, world.core, seat))
            self.decision = legal.get(chosen, next(iter(legal.values())))
        self.iterations_done = 1
        yield 1
