"""Carbles' rules: the contract (setting up, legal actions, their effect, the results and the AI's hooks),
over the state and mechanics of :mod:`.state`.

Rule numbers are those of the game's rules page.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from ...cards import sort_cards
from ...core import Action, GameInfo, Option, OptionValue, Rules
from ...estimate import seen
from ...frozen import evolve
from ...rng import Rng
from ...words import Entry
from . import judgement as _judgement
from . import position as _position
from . import view as _view
from . import words as _words
from .board import MARBLES, in_goal, occupancy, partner
from .notation import NOTATION, Back, Burn, Move, Out, Pass, Play, Swap
from .state import (
    MAX_PLAYERS,
    MOVES_PER_DECK,
    CarblesState,
    deal,
    deck_cap,
    kill,
    legal,
    marble_index,
    progress,
    progress_of,
    seven_part,
    sides,
    start,
    target,
    won,
)


class CarblesRules(Rules):
    """The rules of Carbles: the contract, with the views, facts, words and positions of :mod:`.view`,
    :mod:`.words` and :mod:`.position`."""

    info = GameInfo(
        id="carbles",
        title="Carbles",
        blurb="Race your four marbles round the track and into your goal, moved by the cards you hold.",
        min_players=1,
        max_players=MAX_PLAYERS,
        rules_version="2",
        cooperative=False,
        loads_positions=True,
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
    notation = NOTATION
    positions = {**_view.POSITIONS, **_position.LESSON_POSITIONS}
    ai_tuning = {
        "normal": {"prior": 2.0, "from_players": {3: {"exploration": 0.4}}},
        "hard": {"exploration": 0.4, "prior": 2.0},
    }
    """Measured against normal and the rule-based player (docs/benchmarks.md): a position's values lie close
    together, so hard's search explores less, and so does normal's from three players up, where each seat's share
    lies closer still (at two players normal played better exploring as much as before). The root tries each move
    in the order of the judgement's plans (:func:`pyengine.planning.plan_turn`), favouring the best while its visits
    are few (without it, normal's choice was in 5 of 36 positions one the judgement put 18 to 29 points below its
    best)."""

    def open_information(self, options: Mapping[str, OptionValue]) -> bool:
        """Open hands hide nothing that matters (the deck's order is the only secret)."""
        return options.get("open_hands") is True

    # -- setting up and moving ---------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> CarblesState:
        return deal(start(players, options, rng))

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> CarblesState:
        """A core from a position (``marbles``, ``turn``, ``seed``, ``hands``, ``deck``, ``discards``): see
        :func:`.position.load` and the rules page's "Position format"; anything invalid is a short ``ValueError``."""
        return _position.load(players, options, position)

    def write_position(self, core: CarblesState) -> dict[str, Any] | None:
        return _position.write(core)

    def current_player(self, core: CarblesState) -> int | None:
        return None if core.over else core.turn

    def legal_actions(self, core: CarblesState) -> list[Action]:
        return list(legal(core))

    def apply(self, core: CarblesState, action: Action) -> CarblesState:
        assert isinstance(action, Play)
        actor = core.turn
        hands, discards = core.hands, core.discards
        if not core.seven_left:  # a card leaves the hand (rule 16): the first one of that rank
            hand = core.hands[actor]
            card = action.card if isinstance(action, Burn) else next(c for c in hand if c.rank == action.rank)
            i = hand.index(card)
            hands = hands[:actor] + (hand[:i] + hand[i + 1 :],) + hands[actor + 1 :]
            discards = discards + (card,)
        marbles = list(core.marbles)
        seven_left = 0
        seven_moved: tuple[int, ...] = ()
        if isinstance(action, Move) and action.rank == 7:
            m = marble_index(action.marble, actor)
            steps, _, board, _ = seven_part(core, m, action.steps, action.goal)
            marbles = list(board)
            seven_left = (core.seven_left or 7) - steps
            seven_moved = tuple(sorted(core.seven_moved + (m,))) if seven_left else ()
        elif isinstance(action, Swap):
            m, _ = target(core, action)
            other = marble_index(action.other, actor)
            marbles[m], marbles[other] = marbles[other], marbles[m]
        elif isinstance(action, (Out, Move, Back)):
            m, dest = target(core, action)
            occ = occupancy(core.marbles)
            there = occ.get(dest, -1)
            # rule 9: moving out onto one's own marble on home changes nothing
            if not isinstance(action, Out) or there < 0 or there // MARBLES != m // MARBLES:
                kill(marbles, occ, dest, m)
                marbles[m] = dest
        moved = tuple(marbles)
        winners = won(core, moved, actor)
        ends_turn = not seven_left or bool(winners)
        after = evolve(
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
    def scores(self, core: CarblesState) -> list[int | float]:
        return [in_goal(core.marbles, p, core.players) for p in range(core.players)]

    def winners(self, core: CarblesState) -> list[int]:
        return list(core.winners)

    def evaluate(self, core: CarblesState) -> list[float] | None:
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

    def judgement(self, core: CarblesState, seat: int) -> float:
        """Marble progress, goal slots, risk to own marbles and the cards kept, as the seat's view shows
        them (:func:`judgement.value`)."""
        return _judgement.value(seen(self, core, seat), seat)

    def rollout_action(self, core: CarblesState, rnd: random.Random) -> Action:
        """Quick playouts, mostly greedy: knock out an opponent's marble, reach the goal, bring a marble out,
        go far; never knock out one's own side. One move in four is random."""
        actions = self.legal_actions(core)
        if len(actions) == 1 or rnd.random() < 0.25:
            return rnd.choice(actions)
        actor, n = core.turn, core.players
        mine = {actor, partner(actor, n)} if core.partners else {actor}
        occ = occupancy(core.marbles)
        best, best_key = actions[0], -1e9
        for action in actions:
            if isinstance(action, (Burn, Pass)):
                key = 0.0
            else:
                m, dest = target(core, cast(Play, action))
                victim = occ.get(dest, -1)
                key = 0.0
                if victim >= 0 and victim != m and not isinstance(action, Swap):
                    key += -20.0 if victim // MARBLES in mine else 20.0 + progress_of(core.marbles[victim], victim, n)
                if isinstance(action, Out):
                    key += 8.0
                elif isinstance(action, Move):
                    key += action.steps * 0.5 + (10.0 if action.goal else 0.0)
            key += rnd.random()
            if key > best_key:
                best, best_key = action, key
        return best

    def sample_hidden(self, core: CarblesState, seat: int | None, rng: Rng) -> CarblesState:
        hidden = [] if core.open_hands else [p for p in range(core.players) if p != seat]
        pool = sort_cards(list(core.deck) + [c for p in hidden for c in core.hands[p]])
        cards, rng = rng.shuffled(pool)
        deck, rest = cards[: len(core.deck)], cards[len(core.deck) :]
        hands = list(core.hands)
        for p in hidden:
            size = len(hands[p])
            hands[p], rest = tuple(sort_cards(rest[:size])), rest[size:]
        own_rng, _ = rng.split()
        return evolve(core, deck=deck, hands=tuple(hands), rng=own_rng)

    # -- the table's part (see view.py and words.py) -------------------------------------------------------
    def view(self, core: CarblesState, seat: int | None) -> dict[str, Any]:
        return _view.view(core, seat)

    def facts(self, core: CarblesState, action: Action) -> dict[str, Any]:
        assert isinstance(action, Play)
        return _view.facts(core, action)

    def attempt(self, core: CarblesState, facts: Mapping[str, Any]) -> Action:
        return _view.attempt(core, facts)

    def describe(self, before: CarblesState, action: Action, after: CarblesState) -> Entry:
        assert isinstance(action, Play)
        return _words.describe(before, action, after)

    def why_illegal(self, core: CarblesState, action: Action) -> str:
        assert isinstance(action, Play)
        return _words.why_illegal(core, action)
