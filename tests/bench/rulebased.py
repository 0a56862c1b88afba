"""A rule-based player per competitive game: the playing-strength yardstick, a thoughtful casual player.

It decides from its own seat's view only. Each decision re-deals what the seat cannot see
(``State.sample_hidden``), plays every option through the rest of its own turn on that deal
(:func:`plan_turn`: the Card-cassonne placement with its token and scoring, every part of a Carbles 7, a
Silver Bars thief with its target and placement; in Carbondale a build with its contribution, while claims,
defences, discards and draws follow rules of thumb) and judges where each line ends by what the seat's view
(``Rules.view(core, seat)``) shows: what is banked and what is still to come, in the tactics a casual player
knows. That judgement is the game's own (``Rules.judgement``, one ``judgement.py`` per game package), the one the
computer's search weighs its root's moves by; the turn's lines are :func:`pyengine.ai.plan_turn`.

It speaks only the engine contract: ``legal_actions``, ``apply``, ``current_player``, ``view``, ``facts``,
``judgement`` and ``sample_hidden`` of the game's rules, the view's keys, and the judgement modules' helpers for
the rules of thumb (what a Silver Bars card is worth in hand, what a card is worth to a Carbondale network).

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
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pyengine.ai import Bot, plan_turn  # noqa: E402
from pyengine.core import Action, Core, Rules, State  # noqa: E402
from pyengine.estimate import seen  # noqa: E402
from pyengine.games.carbondale import judgement as carbondale  # noqa: E402
from pyengine.games.silver_bars import judgement as silver  # noqa: E402

View = dict[str, Any]


def cardcassonne_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The placement, token and scoring together that leave the best judgement at the end of the turn."""
    return plan_turn(rules, core, seat)[0][1]


def carbles_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The card (every part of a 7 played out) that leaves the best judgement; a burn gives up the least useful
    card (the judgement counts the cards kept)."""
    return plan_turn(rules, core, seat)[0][1]


# -- 100 Silver Bars ------------------------------------------------------------------------------------------------
def silver_choose(rules: Rules, core: Core, seat: int) -> Action:
    """The play (a thief played through to its target and placement) that leaves the best judgement, less what
    the card was worth in hand; locks late or full, a 6-topped vault early, the fifth only when ahead; strikes
    when the rival has miners on top (the game's :func:`judgement.plan_bias`)."""
    return plan_turn(rules, core, seat, silver.plan_bias(rules, core, seat))[0][1]


# -- Carbondale -----------------------------------------------------------------------------------------------------
RED = carbondale.RED


def _carbondale_defend(view: View, actions: list[Action], facts: list[dict[str, Any]], use: Any) -> Action:
    """Defends with the cheapest card unless defending costs more than the challenged card is worth."""
    pending = view["pending"]
    target = pending["target"] if isinstance(pending, dict) else None
    net = view["networks"][view["seat"]]
    loss = 4.0
    if target and target[-1] in RED:
        h, d = net["hearts"] - (target[-1] == "♡"), net["diamonds"] - (target[-1] == "♢")
        loss = 10.0 * (net["progress"] - carbondale.progress(h, d)) + 2.0
    defences = [(use(f["card"]), a) for a, f in zip(actions, facts, strict=True) if f["kind"] == "defend"]
    if defences:
        cost, action = min(defences, key=lambda pair: pair[0])
        if cost <= loss:
            return action
    return next(a for a, f in zip(actions, facts, strict=True) if f["kind"] == "decline")


def _carbondale_claim(view: View, actions: list[Action], facts: list[dict[str, Any]], use: Any) -> Action | None:
    """The claim where the owner loses most, when it is worth it."""
    nets = view["networks"]
    claims = []
    for action, f in zip(actions, facts, strict=True):
        if f["kind"] != "claim":
            continue
        owner = nets[f["owner"]]
        target = f["target"]
        if target[-1] in RED:
            h = owner["hearts"] - (target[-1] == "♡")
            d = owner["diamonds"] - (target[-1] == "♢")
            loss = 10.0 * (owner["progress"] - carbondale.progress(h, d))
        else:
            loss = 1.0
        gain = use(target) + 0.25 * carbondale.rank(f["challenge"]) - use(f["challenge"])
        claims.append((loss + gain, action))
    if claims:
        worth, action = max(claims, key=lambda pair: pair[0])
        if worth >= 8.0:
            return action
    return None


def carbondale_choose(rules: Rules, core: Core, seat: int) -> Action:
    """Claims where the owner loses most, builds the card that adds most (its contribution chosen with it),
    defends unless defending costs more, takes a useful stock card over the pile, throws away dead cards."""
    view = seen(rules, core, seat)
    zone, any_red = view["zone"], view["any_black_to_red"]
    mine = view["networks"][seat]
    actions = rules.legal_actions(core)
    facts = [rules.facts(core, a) for a in actions]
    kinds = {f["kind"] for f in facts}

    def use(card: str) -> float:
        return carbondale.use(card, mine, zone, any_red)

    if view["phase"] == "defend":
        return _carbondale_defend(view, actions, facts, use)
    if view["phase"] == "act":
        claim = _carbondale_claim(view, actions, facts, use)
        if claim is not None:
            return claim
    if view["phase"] in ("act", "contribute") and kinds & {"build", "contribute"}:
        builds = [a for a, f in zip(actions, facts, strict=True) if f["kind"] in ("build", "contribute")]
        scored = [(_carbondale_line(rules, rules.apply(core, action), seat), action) for action in builds]
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
    """The judgement after a build, with its best contribution (the game may be won before one is due)."""
    judged = rules.judgement
    if rules.current_player(core) != seat or seen(rules, core, seat)["phase"] != "contribute":
        return cast(float, judged(core, seat))
    return max(cast(float, judged(rules.apply(core, a), seat)) for a in rules.legal_actions(core))


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
