"""Computer players, generic over the engine contract.

- ``random``: a uniformly random legal action.
- ``easy`` / ``normal`` / ``hard``: information-set Monte Carlo tree search (single observer).
  Every iteration re-deals what the bot's seat cannot see (``sample_hidden``), walks the
  shared tree by UCB over the actions the game's ``search_actions`` hook weighs in that deal (the
  legal ones less any dominated move; new branches in the order the game's ``rollout_action``
  hook prefers), plays a short rollout with that hook and scores it with the
  game's ``evaluate`` hook (or its scores). The bot therefore decides only from its own seat's
  view: the real hidden cards never reach the search.

Where a game ranks its moves, a level with a root width weighs only the best-ranked few of a wide choice at the
root, and a level with a ``prior`` tries them best first and favours them while their visits are few (progressive
bias). A game ranks by its ``rank_actions``, else by its judgement (``Rules.judgement``, the same function its
rule-based yardstick plays by), each move played through the rest of the seat's turn (:func:`plan_turn`). A level
that pairs them (``paired``) plays every one of those moves on each re-deal, and chooses by value.
A game may tune a level's settings for itself (its rules' ``ai_tuning``, by level name), each measured.

A level is its iteration budget, so it plays as strongly on a slow machine as on a fast one, and
a decision is reproducible: the same bot seed and the same state give the same choice. The time
cap is a safety net only, several times a decision's expected time, and it counts thinking time
alone: the time the page spends between two slices of :meth:`Bot.think` is not counted.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from .core import Action, Core, Rules, State
from .planning import plan_turn
from .rng import Rng


@dataclass(frozen=True)
class Level:
    """A search budget: iterations, rollout depth and a safety cap on thinking seconds (None: no cap).

    The iterations define the level; the cap only stops a search that runs far longer than expected
    (a very slow machine), so it sits at several times a decision's usual thinking time."""

    iterations: int
    rollout_depth: int
    max_seconds: float | None
    exploration: float = 0.8
    root_width: int | None = None
    """At most this many actions weighed at the root, the best of the game's ranking (its ``rank_actions``, else
    its judgement's plans, :func:`plan_turn`); None weighs them all, as does a game that does not rank."""
    prior: float = 0.0
    """Progressive bias at the root: a root action's ranking (1 for the best, 0 for the last weighed) times this,
    shrinking as its visits grow, is added to its value; untried root actions are tried best-ranked first."""
    paired: bool = False
    """Compare the root's ranked actions on the same deals (common random numbers): each round re-deals the hidden
    cards once and plays every ranked action on that deal, each from the same rollout generator, so a lucky deal
    lifts them all alike and what is left is the difference the move makes. The choice is then the best mean value
    (plus ``prior``'s bias), not the most visited. Only where the level ranks (a root width or a prior)."""
    label: str = ""
    help: str = ""
    name: str = ""
    """The level's name in :data:`LEVELS`: a game's rules tune a level by it (``Rules.ai_tuning``)."""

    def for_rules(self, rules: Rules, players: int | None = None) -> Level:
        """This level as it plays the game of ``rules`` with ``players`` seats: its settings with those the game
        tunes for it (and, under ``from_players``, those it tunes from that many players up)."""
        tuned = rules.ai_tuning.get(self.name) if self.name else None
        if not tuned:
            return self
        settings = {key: value for key, value in tuned.items() if key != "from_players"}
        for least, more in sorted(tuned.get("from_players", {}).items()):
            if players is not None and players >= least:
                settings.update(more)
        return replace(self, **settings)


LEVELS: Mapping[str, Level] = {
    "easy": Level(iterations=40, rollout_depth=8, max_seconds=1.0, label="Easy",
                  help="A friendly opponent: it looks only a little ahead.", name="easy"),
    "normal": Level(iterations=300, rollout_depth=16, max_seconds=3.0, label="Normal",
                    help="Plays well and decides in under a second.", name="normal"),
    "hard": Level(iterations=1500, rollout_depth=24, max_seconds=15.0, label="Hard",
                  help="Thinks longer (a few seconds a move) and plays its best.", name="hard"),
}
"""The lobby's three levels (the site reads them through :func:`levels_json`)."""

DEFAULT_LEVEL = "normal"

BOT_NAMES = ("random", *LEVELS)


class Bot:
    """A computer player: ``choose(state)`` returns one of ``state.legal_actions()``.

    The page drives :meth:`think` in slices and reads ``decision`` and ``iterations_done``.
    """

    name = "bot"
    iterations_done = 0
    """How many search iterations the last decision used (1 for a bot that does not search)."""

    def choose(self, state: State) -> Action:
        for _ in self.think(state):
            pass
        return self.decision

    def think(self, state: State) -> Generator[int, None, None]:
        """Decide in slices: yields progress (iterations so far); the result is ``self.decision``."""
        raise NotImplementedError

    decision: Action = None


class RandomBot(Bot):
    """Plays a uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(f"random-bot:{seed}")

    def think(self, state: State) -> Generator[int, None, None]:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is nothing to choose")
        self.decision = self.random.choice(actions)
        self.iterations_done = 1
        yield 1


class _Node:
    __slots__ = ("player", "visits", "total", "available", "children")

    def __init__(self, player: int | None) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[Action, _Node] = {}


def outcome(rules: Rules, core: Core, players: int) -> list[float]:
    """Each seat's value of a position in [0, 1]: the result when over, else the game's estimate."""
    if rules.current_player(core) is None:
        winners = rules.winners(core)
        if not winners:
            return [0.0] * players
        share = 1.0 if len(winners) == players else 1.0 / len(winners)
        return [share if seat in winners else 0.0 for seat in range(players)]
    estimate = rules.evaluate(core)
    if estimate is not None:
        return estimate
    scores = rules.scores(core)
    low, high = min(scores), max(scores)
    if high == low:
        return [0.5] * players
    return [0.2 + 0.6 * (s - low) / (high - low) for s in scores]


def _select(node: _Node, actions: list[Action], level: Level, bias: dict[Action, float] | None) -> Action:
    """The child to follow, every one tried already: UCB over ``actions``, plus the root's progressive bias."""
    best_value = -1.0
    chosen = actions[0]
    for action in actions:
        child = node.children[action]
        value = child.total / child.visits + level.exploration * math.sqrt(math.log(child.available) / child.visits)
        if bias is not None:
            value += level.prior * bias.get(action, 0.0) / (child.visits + 1)
        if value > best_value:
            best_value, chosen = value, action
    return chosen


class SearchBot(Bot):
    """Determinized (information-set) Monte Carlo tree search from the bot's own seat."""

    def __init__(self, level: Level, seed: int = 0, name: str = "search") -> None:
        self.level = level
        self.seed = seed
        self.name = name
        self.iterations_done = 0

    def think(self, state: State) -> Generator[int, None, None]:
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over: there is nothing to choose")
        legal = state.legal_actions()
        if len(legal) == 1:
            self.decision = legal[0]
            yield 0
            return
        rules, players = state.rules, state.players
        level = self.level.for_rules(rules, players)
        # Seeded by the bot's seed and what the seat sees of the game's progress.
        rnd = random.Random(f"search:{self.seed}:{state.played}:{seat}")
        root = _Node(None)
        priors = self._priors(state, seat, level)
        paired = list(priors) if level.paired and priors else []  # the ranked actions, best first
        thinking = 0.0  # seconds spent in this generator, not in the page between two slices
        resumed = time.perf_counter()
        done = reported = 0
        while done < level.iterations:
            core = rules.sample_hidden(state.core, seat, Rng.from_seed(rnd.getrandbits(62)))
            if paired:
                rollouts = rnd.getrandbits(62)
                for action in paired:
                    self._iterate(rules, core, players, root, random.Random(rollouts), level, {action: 1.0})
                done += len(paired)
            else:
                self._iterate(rules, core, players, root, rnd, level, priors)
                done += 1
            if done - reported >= 8:
                reported = done
                thinking += time.perf_counter() - resumed
                if level.max_seconds is not None and thinking > level.max_seconds:
                    break
                yield done
                resumed = time.perf_counter()
        self.iterations_done = done
        self.decision = self._best(root, legal, level, priors if paired else None)
        yield done

    @staticmethod
    def _best(root: _Node, legal: list[Action], level: Level, ranks: dict[Action, float] | None) -> Action:
        """The root's most visited legal action (then the best valued); with the ``ranks`` of a paired root (every
        ranked action visited alike), the best valued plus the level's progressive bias."""
        by_text = {str(a): a for a in legal}
        scored: list[tuple[float, float, str]] = []
        for action, child in root.children.items():
            if str(action) not in by_text:
                continue
            mean = child.total / max(child.visits, 1)
            if ranks is None:
                scored.append((child.visits, mean, str(action)))
            else:
                scored.append((mean + level.prior * ranks.get(action, 0.0) / (child.visits + 1), child.visits,
                               str(action)))
        return by_text[max(scored)[2]]

    def _priors(self, state: State, seat: int, level: Level) -> dict[Action, float] | None:
        """The root's actions and their ranking in [0, 1] (best first) when the level ranks (a root width or a
        prior) and the game does, else None (every action weighed alike).

        The ranking is the game's ``rank_actions``, else its judgement of each action's best way through the
        seat's turn (:func:`plan_turn`). It looks at a re-dealt core (from a generator of its own,
        so the search's draws are the same with or without it): it sees only the seat's view."""
        width, rules = level.root_width, state.rules
        if width is None and not level.prior:
            return None
        rnd = random.Random(f"rank:{self.seed}:{state.played}:{seat}")
        world = rules.sample_hidden(state.core, seat, Rng.from_seed(rnd.getrandbits(62)))
        actions = rules.search_actions(world)
        if len(actions) <= 1 or (not level.prior and len(actions) <= cast(int, width)):
            return None
        ranked = rules.rank_actions(world, actions)
        if ranked is None and rules.judgement(world, seat) is not None:
            weighed = set(actions)
            ranked = [action for _, action in plan_turn(rules, world, seat) if action in weighed]
        if ranked is None:
            return None
        ranked = ranked[:width]
        return {action: 1.0 - i / max(len(ranked) - 1, 1) for i, action in enumerate(ranked)}

    def _iterate(
        self,
        rules: Rules,
        core: Core,
        players: int,
        root: _Node,
        rnd: random.Random,
        level: Level,
        priors: dict[Action, float] | None,
    ) -> None:
        """One iteration from ``root`` on the re-dealt ``core``; at the root only the ranked actions of ``priors``
        (when not None), biased by their ranking."""
        node = root
        path: list[_Node] = []
        while True:
            player = rules.current_player(core)
            if player is None:
                break
            actions = rules.search_actions(core)
            bias = priors if node is root else None
            if bias is not None:
                actions = [a for a in actions if a in bias] or actions
            untried = [a for a in actions if a not in node.children]
            for action in actions:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                if bias is not None:
                    action = max(untried, key=lambda a: bias.get(a, 0.0))
                else:
                    action = rules.rollout_action(core, rnd)
                    if action not in untried:  # the policy's choice is tried already (or left out): another one
                        action = rnd.choice(untried)
                child = _Node(player)
                child.available = 1
                node.children[action] = child
                core = rules.apply(core, action)
                path.append(child)
                break
            chosen = _select(node, actions, level, bias)
            node = node.children[chosen]
            core = rules.apply(core, chosen)
            path.append(node)
        for _ in range(level.rollout_depth):
            if rules.current_player(core) is None:
                break
            core = rules.apply(core, rules.rollout_action(core, rnd))
        values = outcome(rules, core, players)
        for child in path:
            child.visits += 1
            if child.player is not None:
                child.total += values[child.player]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A computer player by name: ``random``, ``easy``, ``normal`` or ``hard``."""
    if name == "random":
        return RandomBot(seed)
    if name in LEVELS:
        return SearchBot(LEVELS[name], seed, name)
    raise ValueError(f"unknown computer player {name!r}; the players are: {', '.join(BOT_NAMES)}")


def levels_json() -> list[dict[str, Any]]:
    """The levels for the lobby: name, label and help, in order (the default is marked)."""
    return [
        {"name": name, "label": level.label, "help": level.help, "default": name == DEFAULT_LEVEL}
        for name, level in LEVELS.items()
    ]
