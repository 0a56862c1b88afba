"""100 Silver Bars' rules: setup, legal actions, apply, results, evaluate, the rollout and sample_hidden, over
the state of :mod:`.state`.

Rule numbers ("rule 8") are those of the game's rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from ...cards import Card, sort_cards
from ...core import Action, GameInfo, Option, OptionValue, Rules
from ...estimate import chances, seen
from ...frozen import evolve
from ...planning import plan_turn
from ...rng import Rng
from ...words import Entry
from . import judgement as _judgement
from . import position as _position
from . import view as _view
from . import words as _words
from .notation import NOTATION, SILVER_RANKS_BY_TOKEN, Act
from .state import (
    EMPTY_ROW,
    LOCKS,
    MAX_ROUNDS,
    MINER_RANKS,
    SILVER_RANKS,
    STRIKE,
    TARGET,
    Pending,
    RoundResult,
    SilverBarsState,
    Vault,
    added,
    deal_round,
    legal,
    paired,
    round_points,
    take_card,
    thief_target,
    winners,
)


class SilverBarsRules(Rules):
    """100 Silver Bars' rules: the contract, with the words, views and positions of :mod:`.words`, :mod:`.view`
    and :mod:`.position`."""

    info = GameInfo(
        id="silver-bars",
        title="100 Silver Bars",
        blurb="Two rival mines fill five vaults with silver, dig deeper with miners, steal and lock: first to 100.",
        min_players=2,
        max_players=2,
        rules_version="2",
        cooperative=False,
        loads_positions=True,
        options=(
            Option("thief", "lowest-overall", ("lowest-overall", "lowest-placeable"), "Thief target",
                   "A lo thief takes the lowest silver on top of the opponent's vaults (a hi thief the highest). "
                   "Either it aims at that silver and fails when you cannot place it, or it aims at the lowest "
                   "(highest) silver you can place.",
                   labels=("Lowest silver, even if it cannot be placed", "Lowest silver you can place")),
            Option("strikes", 2, (2, 1), "Worker's strikes", "How many Q♠ strike cards are in the deck.",
                   labels=("Two", "One")),
        ),
        source="http://www.bgdf.com/forum/game-creation/playtesting/playtesters-wanted-light-two-player-card-game",
        # Per round: at most 81 drawing turns, 9 lock turns, 2 strike clearings and 2 follow-ups for each of
        # the 9 thieves; the match lasts at most MAX_ROUNDS rounds.
        max_actions=lambda players: (81 + 9 + 2 + 18) * MAX_ROUNDS,
    )
    notation = NOTATION
    positions = {**_view.POSITIONS, **_position.LESSON_POSITIONS}
    ai_tuning = {"normal": {"iterations": 450}}
    """Measured against the counting player (docs/benchmarks.md): normal searches 450 iterations rather than the
    level's 300. With 300 it won 65% of 40 games against that player, with 450 75% on the same deals; its decisions
    took 365 ms (median) in the browser with 300, within normal's 600 ms with half as many again. Hard keeps the
    level's 1,500: with 2,400 it won 60% of 40 games against normal, where 1,500 won 62.5%."""

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> SilverBarsState:
        """Rule 1: a random first dealer; 7 cards each; the non-dealer starts."""
        strikes = int(options.get("strikes", 2))
        dealer, rng = rng.below(2)
        hands, draw, rng = deal_round(rng, strikes, dealer)
        return SilverBarsState(
            rng=rng, placeable=options.get("thief", "lowest-overall") == "lowest-placeable", strikes=strikes,
            round=1, dealer=dealer, turn=1 - dealer, hands=hands, draw=draw, discard=(),
            vaults=(EMPTY_ROW, EMPTY_ROW), strike=(False, False), pending=None, totals=(0, 0), last=None,
            over=False,
        )

    def current_player(self, core: SilverBarsState) -> int | None:
        return None if core.over else core.turn

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, core: SilverBarsState) -> list[Action]:
        return legal(core)

    # -- apply ---------------------------------------------------------------------------------
    def apply(self, core: SilverBarsState, act: Action) -> SilverBarsState:
        action = cast(Act, act)
        seat = core.turn
        other = 1 - seat
        move = action.move
        i = action.vault
        if move == "clear":  # rule 3: the whole turn, no draw
            return evolve(core, strike=paired(core.strike, seat, False), discard=core.discard + (STRIKE,), turn=other)
        if move == "lock":  # rules 2, 10: no draw
            row = list(core.vaults[seat])
            v = row[i]
            row[i] = Vault(v.cards, v.rubble, True)
            vaults = paired(core.vaults, seat, tuple(row))
            if sum(w.locked for w in row) == LOCKS:
                return self._end_round(evolve(core, vaults=vaults), "fifth lock")  # rule 11: at once
            return evolve(core, vaults=vaults, turn=other)
        if move == "steal":
            return self._steal(core, seat, i)
        if move == "place":
            pending = core.pending
            assert pending is not None and pending.carry is not None
            row = list(core.vaults[seat])
            v = row[i]
            row[i] = Vault(v.cards + (pending.carry,), v.rubble, v.locked)
            return self._draw_and_pass(core, seat, core.hands[seat], vaults=paired(core.vaults, seat, tuple(row)),
                                       pending=None)
        card, hand = take_card(core.hands[seat], action.tok or move)
        if move == "discard":  # rule 2
            return self._draw_and_pass(core, seat, hand, discard=core.discard + (card,))
        if move == "play" or move == "miner":  # rules 4, 5
            row = list(core.vaults[seat])
            v = row[i]
            row[i] = Vault(v.cards + (card,), v.rubble, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=paired(core.vaults, seat, tuple(row)))
        if move == "rubble":  # rule 6
            row = list(core.vaults[other])
            v = row[i]
            row[i] = Vault(v.cards, card, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=paired(core.vaults, other, tuple(row)))
        if move == "shovel":  # rule 7: rubble and shovel both discarded
            row = list(core.vaults[seat])
            v = row[i]
            assert v.rubble is not None
            row[i] = Vault(v.cards, None, v.locked)
            return self._draw_and_pass(core, seat, hand, vaults=paired(core.vaults, seat, tuple(row)),
                                       discard=core.discard + (v.rubble, card))
        if move == "strike":
            return self._strike(core, seat, hand)
        # rule 8: a thief; the player draws once the stolen silver is placed
        target = thief_target(core, seat, move == "lo-thief")
        assert target is not None
        core = evolve(core, hands=paired(core.hands, seat, hand), discard=core.discard + (card,),
                      pending=Pending(move, target[1]))
        if len(target[1]) == 1:
            return self._steal(core, seat, target[1][0])
        return core

    def _strike(self, core: SilverBarsState, seat: int, hand: tuple[Card, ...]) -> SilverBarsState:
        """Rule 9: miners on top of the opponent's unlocked vaults are discarded; the strike lies in front of them."""
        other = 1 - seat
        row = list(core.vaults[other])
        struck: list[Card] = []
        for j, v in enumerate(row):
            if not v.locked and v.cards and v.cards[-1].rank in MINER_RANKS:
                struck.append(v.cards[-1])
                row[j] = Vault(v.cards[:-1], v.rubble, v.locked)
        return self._draw_and_pass(core, seat, hand, vaults=paired(core.vaults, other, tuple(row)),
                                   discard=core.discard + tuple(struck), strike=paired(core.strike, other, True))

    def _steal(self, core: SilverBarsState, seat: int, vault: int) -> SilverBarsState:
        """Rule 8: lift the silver off the opponent's vault (it falls back to its previous top card)."""
        pending = core.pending
        assert pending is not None
        other = 1 - seat
        row = list(core.vaults[other])
        v = row[vault]
        row[vault] = Vault(v.cards[:-1], v.rubble, v.locked)
        return evolve(core, vaults=paired(core.vaults, other, tuple(row)),
                      pending=Pending(pending.thief, (), v.cards[-1], vault))

    def _draw_and_pass(
        self, core: SilverBarsState, seat: int, hand: tuple[Card, ...], **changes: Any
    ) -> SilverBarsState:
        """Rule 2: draw one; rule 11: the turn that empties the draw pile ends the round."""
        draw = core.draw
        hands = paired(core.hands, seat, added(hand, draw[-1]))
        if len(draw) == 1:
            return self._end_round(evolve(core, hands=hands, draw=draw[:-1], **changes), "draw pile empty")
        return evolve(core, hands=hands, draw=draw[:-1], turn=1 - seat, **changes)

    def _end_round(self, core: SilverBarsState, reason: str) -> SilverBarsState:
        """Rules 12-14: score, then finish the match or deal the next round (dealer alternates)."""
        points = (round_points(core.vaults[0]), round_points(core.vaults[1]))
        totals = (core.totals[0] + points[0], core.totals[1] + points[1])
        last = RoundResult(core.round, points, reason, core.vaults)
        core = evolve(core, totals=totals, last=last, pending=None)
        done = (max(totals) >= TARGET and totals[0] != totals[1]) or core.round >= MAX_ROUNDS
        if done:
            return evolve(core, over=True)
        dealer = 1 - core.dealer
        hands, draw, rng = deal_round(core.rng, core.strikes, dealer)
        return evolve(core, rng=rng, round=core.round + 1, dealer=dealer, turn=1 - dealer, hands=hands, draw=draw,
                      discard=(), vaults=(EMPTY_ROW, EMPTY_ROW), strike=(False, False))

    # -- results -------------------------------------------------------------------------------
    def scores(self, core: SilverBarsState) -> list[int | float]:
        return list(core.totals)

    def winners(self, core: SilverBarsState) -> list[int]:
        return winners(core)

    def evaluate(self, core: SilverBarsState) -> list[float] | None:
        """Match totals plus this round's projected points, through :func:`chances`.

        Only locked silver scores (rule 12), and the round ends at once on a fifth lock (rule 11): a race. Each
        seat needs a turn per lock, and two for a vault that still wants silver; the other seat's finish (with
        some slack: it also plays cards) and the draw pile bound the turns a seat has left. In those turns it
        locks its richest silver-topped vaults first; the rest count little, and spare turns let vaults grow."""
        if core.over:
            won = self.winners(core)
            return [1.0 / len(won) if s in won else 0.0 for s in (0, 1)]
        finish = []
        for seat in (0, 1):
            vaults = core.vaults[seat]
            locks_left = LOCKS - sum(v.locked for v in vaults)
            lockable = sum(1 for v in vaults if not v.locked and v.silver_on_top)
            finish.append(locks_left + max(0, locks_left - lockable))
        pile_turns = len(core.draw) / 2.0 + 1.0
        projected = []
        for seat in (0, 1):
            other = 1 - seat
            rush = finish[other] + 0.5 * max(0, finish[other] - 1)
            turns = min(pile_turns, rush if core.turn == seat else rush - 1.0)
            vaults = core.vaults[seat]
            locks_left = LOCKS - sum(v.locked for v in vaults)
            points = float(core.totals[seat])
            ready = sorted((v.silver for v in vaults if not v.locked and v.silver_on_top), reverse=True)
            slots = max(0.0, min(turns, float(locks_left)))
            for rank, silver in enumerate(ready):
                share = min(1.0, max(0.0, slots - rank))  # the part of a turn left for this lock
                points += silver * (0.92 * share + 0.25 * (1.0 - share))
            spare = max(0.0, turns - len(ready))
            for v in vaults:
                if v.locked:
                    points += v.silver
                    continue
                top = max((c.rank for c in v.cards if c.rank in SILVER_RANKS), default=0)
                potential = sum(r for r in SILVER_RANKS if r > top)
                if not v.silver_on_top and potential:  # a miner or an empty vault waiting for silver
                    points += v.silver * 0.6 * min(1.0, spare / 3.0)
                points += 0.5 * min(0.6, spare / 30.0) * potential
            projected.append(points)
        return chances(projected, 15.0)

    def judgement(self, core: SilverBarsState, seat: int) -> float:
        """Silver banked, locked and still in the vaults, rubble and strikes, as the seat's view shows them
        (:func:`judgement.value`)."""
        return _judgement.value(seen(self, core, seat), seat)

    def rollout_action(self, core: SilverBarsState, rnd: random.Random) -> Action:
        """Quick playouts, mostly a sensible player: play cards rather than discard (high silver first), steal,
        lock a vault at once when it cannot grow (a 6 on top) or the round is near its end, and otherwise lock
        rather than add a miner or discard, as a player racing to the fifth lock does (rule 11; playouts that
        hardly locked before the end made the search blind to that race). One move in five is random."""
        actions = cast(list[Act], legal(core))
        if len(actions) == 1 or rnd.random() < 0.2:
            return rnd.choice(actions)
        vaults = core.vaults[core.turn]
        late = len(core.draw) < 16 or sum(v.locked for v in core.vaults[1 - core.turn]) >= LOCKS - 2
        best, best_key = actions[0], -1e9
        for act in actions:
            move = act.move
            if move == "play":
                key = 3.0 + SILVER_RANKS_BY_TOKEN.get(act.tok, 0) / 2.0
            elif move == "lock":
                vault = vaults[act.vault]
                key = 5.0 + vault.silver / 4.0 if late or vault.cards[-1].rank == 6 else 2.5 + vault.silver / 10.0
            elif move in ("lo-thief", "hi-thief", "shovel"):
                key = 4.0
            elif move == "discard":
                key = 0.0
            else:
                key = 2.0
            key += rnd.random()
            if key > best_key:
                best, best_key = act, key
        return best

    def rank_actions(self, core: SilverBarsState, actions: list[Action]) -> list[Action] | None:
        """The mover's actions best first as the rule-based player weighs them: each played through the rest of the
        turn and judged (:func:`judgement.value`), with what its card was worth in hand and whether a lock is due
        (:func:`judgement.plan_bias`)."""
        seat = self.current_player(core)
        if seat is None:
            return None
        weighed = set(actions)
        plans = plan_turn(self, core, seat, _judgement.plan_bias(self, core, seat))
        return [action for _, action in plans if action in weighed]

    def sample_hidden(self, core: SilverBarsState, seat: int | None, rng: Rng) -> SilverBarsState:
        """Re-deal the unseen cards (other hands and the draw pile) in the same sizes."""
        fresh, rng = rng.split()
        hidden_seats = [s for s in (0, 1) if s != seat]
        unseen = sort_cards([c for s in hidden_seats for c in core.hands[s]] + list(core.draw))
        cards, rng = rng.shuffled(unseen)
        hands = list(core.hands)
        at = 0
        for s in hidden_seats:
            n = len(core.hands[s])
            hands[s] = tuple(sort_cards(cards[at:at + n]))
            at += n
        return evolve(core, rng=fresh, hands=(hands[0], hands[1]), draw=tuple(cards[at:]))

    # -- the table's part (see words.py, view.py and position.py) -------------------------------------
    def attempt(self, core: SilverBarsState, facts: Mapping[str, Any]) -> Action:
        return _view.attempt(core, facts)

    def facts(self, core: SilverBarsState, act: Action) -> dict[str, Any]:
        return _view.facts(core, act)

    def view(self, core: SilverBarsState, seat: int | None) -> dict[str, Any]:
        return _view.view(core, seat)

    def describe(self, before: SilverBarsState, act: Action, after: SilverBarsState) -> Entry:
        return _words.describe(before, act, after)

    def why_illegal(self, core: SilverBarsState, act: Action) -> str:
        return _words.why_illegal(core, act)

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> SilverBarsState:
        return _position.load(players, options, position)

    def write_position(self, core: SilverBarsState) -> dict[str, Any] | None:
        return _position.write(core)
