"""Carbondale's rules: setup, legal actions, apply, scores and the AI's hooks, over the state of :mod:`.state`
(what a network implies is in :mod:`.network`).

Rule numbers ("rule 18") are those of the game's rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...cards import Card, sort_cards
from ...core import Action, GameInfo, Option, OptionValue, Rules
from ...estimate import seen
from ...frozen import evolve
from ...notation import Notation
from ...rng import Rng
from ...words import Entry
from . import judgement as _judgement
from . import position as _position
from . import view as _view
from . import words as _words
from .network import (
    Placed,
    build_limit,
    can_challenge,
    can_defend,
    earns_bonus,
    network,
    reaches_goal,
)
from .notation import (
    DECLINE,
    DIRECTIONS,
    DRAW_PILE,
    END_TURN,
    NOTATION,
    STEP,
    Build,
    Claim,
    Contribute,
    Decline,
    Defend,
    Discard,
    DrawPile,
    EndTurn,
    TakeStock,
)
from .state import (
    ACT,
    ACTIONS_PER_TURN,
    BONUS_HAND_SIZE,
    CLAIM_ATTEMPTS,
    CONTRIBUTE,
    DECK,
    DEFEND,
    DISCARD,
    DRAW,
    HAND_SIZE,
    OVER,
    ROUND_LIMIT,
    SEGMENTS,
    STALEMATE_ROUNDS,
    STARTING_PAIRS,
    CarbondaleState,
    Challenge,
    _knowing,
    _with,
    _without,
    can_draw_pile,
    distinct,
    minus,
    scores,
)


class CarbondaleRules(Rules):
    """Carbondale's rules: the contract, with the words, views and positions of :mod:`.words`, :mod:`.view` and
    :mod:`.position`."""

    info = GameInfo(
        id="carbondale",
        title="Carbondale",
        blurb="Build a town of clubs and spades that wins 7 hearts and 3 diamonds (or the reverse), "
        "and co-opt your rivals' loose cards.",
        min_players=2,
        max_players=4,
        rules_version="2",
        cooperative=False,
        loads_positions=True,
        options=(
            Option(
                "any_black_to_red",
                False,
                (False, True),
                "Any black builds any red",
                "Off: clubs build hearts and spades build diamonds (the build table). "
                "On: either black suit builds either red suit, as the original's worked example does.",
            ),
        ),
        source="https://carbondale.network/",
        max_actions=lambda players: ROUND_LIMIT * players * ACTIONS_PER_TURN,
    )
    notation: Notation = NOTATION
    positions = {**_view.POSITIONS, **_position.LESSON_POSITIONS}

    # -- setup ---------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> CarbondaleState:
        """Rules 2-4: starting pairs, three shuffled segments, four cards each, a random first player."""
        pool = list(DECK * players)
        networks = []
        for _ in range(players):
            pair, rng = rng.choice(STARTING_PAIRS)
            for card in pair:
                pool.remove(card)
            networks.append((Placed(pair[0], 0, 0), Placed(pair[1], 1, 0)))
        segments = []
        for low, high in SEGMENTS:
            segment, rng = rng.shuffled([c for c in pool if low <= c.rank <= high])
            segments.append(segment)
        pile = segments[0]
        hands = []
        for _ in range(players):
            hands.append(tuple(sorted(pile[-HAND_SIZE:])))
            pile = pile[:-HAND_SIZE]
        first, rng = rng.below(players)
        return CarbondaleState(
            players=players,
            any_black_to_red=bool(options.get("any_black_to_red", False)),
            networks=tuple(networks),
            hands=tuple(hands),
            pile=pile,
            spares=(segments[1], segments[2]),
            stock=(),
            fresh=(),
            discards=(),
            current=first,
            phase=ACT,
            rng=rng,
        )

    # -- whose decision --------------------------------------------------------------------
    def current_player(self, core: CarbondaleState) -> int | None:
        if core.phase == OVER:
            return None
        if core.phase == DEFEND and core.pending is not None:
            return core.pending.owner
        return core.current

    # -- legal actions ---------------------------------------------------------------------
    def legal_actions(self, core: CarbondaleState) -> list[Action]:
        phase = core.phase
        if phase == OVER:
            return []
        if phase == DEFEND:
            return self._defences(core)
        hand = core.hands[core.current]
        cards = distinct(hand)
        if phase == CONTRIBUTE:
            return [Contribute(card) for card in cards]
        actions: list[Action] = []
        if phase == ACT:
            if core.claims < CLAIM_ATTEMPTS and not core.claimed:
                actions.extend(self._claims(core, cards))
            if len(hand) >= 2:  # rule 14: a card must be left to contribute
                actions.extend(self._builds(core, cards))
        if phase in (ACT, DISCARD):
            for card in cards:
                actions.append(Discard(card, True))
                actions.append(Discard(card, False))
        actions.extend(self._draws(core, hand))
        return actions

    def _defences(self, core: CarbondaleState) -> list[Action]:
        """Rule 20: any card of the challenge card's colour and at least its rank, or decline."""
        pending = core.pending
        assert pending is not None
        options: list[Action] = [
            Defend(card) for card in distinct(core.hands[pending.owner]) if can_defend(pending.card, card)
        ]
        options.append(DECLINE)
        return options

    def _claims(self, core: CarbondaleState, cards: tuple[Card, ...]) -> list[Action]:
        """Rule 19: every vulnerable opponent card with every challenge card that beats it by two."""
        actions: list[Action] = []
        for step in range(1, core.players):
            owner = (core.current + step) % core.players
            for placed in network(core.networks[owner]).vulnerable:
                for card in cards:
                    if can_challenge(placed.card, card):
                        actions.append(Claim(placed.card, placed.x, placed.y, owner, card))
        return actions

    def _builds(self, core: CarbondaleState, cards: tuple[Card, ...]) -> list[Action]:
        """Rules 6-10: each hand card into each cell next to a black card that the table allows."""
        net = network(core.networks[core.current])
        cells = net.cells
        variant = core.any_black_to_red
        actions: list[Action] = []
        for src in net.cards:
            source = src.card
            if not source.is_black:
                continue
            for name, dx, dy in DIRECTIONS:
                x, y = src.x + dx, src.y + dy
                here = cells.get((x, y))
                if here is None:
                    if not net.fits(x, y):
                        continue
                    black_ok = True
                elif len(here) == 1 and here[0].card.is_red:
                    black_ok = False
                else:
                    continue
                for card in cards:
                    if card.is_black and not black_ok:
                        continue
                    limit = build_limit(source, card, variant)
                    if limit is not None and card.rank <= limit:
                        actions.append(Build(card, x, y, name, source))
        return actions

    def _draws(self, core: CarbondaleState, hand: tuple[Card, ...]) -> list[Action]:
        """Rule 16: draw from the pile or any stock card not put down this turn; end when done."""
        if len(hand) >= core.draw_to:
            return [END_TURN]
        actions: list[Action] = []
        if core.pile or core.spares or len(core.stock) > len(core.fresh) or len(core.discards) > len(core.buried):
            actions.append(DRAW_PILE)  # as can_draw_pile(core), inline: every draw decision comes here
        if core.stock:
            takable = minus(core.stock, core.fresh) if core.fresh else core.stock
            actions.extend(TakeStock(card) for card in distinct(takable))
        if not actions:
            actions.append(END_TURN)
        return actions

    # -- applying --------------------------------------------------------------------------
    def apply(self, core: CarbondaleState, action: Action) -> CarbondaleState:
        after = self._apply(core, action)
        if isinstance(action, TakeStock):
            return _knowing(after, core.current, action.card)
        if isinstance(action, Decline) and core.pending is not None:
            return _knowing(after, core.current, core.pending.target)
        if core.known and after.known and after.hands != core.hands:
            return _knowing(after)
        return after

    def _apply(self, core: CarbondaleState, action: Action) -> CarbondaleState:
        seat = core.current
        hands = list(core.hands)
        if isinstance(action, (Claim, Defend, Decline)):
            return self._challenge(core, action)
        if isinstance(action, Discard):
            return self._discard(core, action)
        if isinstance(action, DrawPile):
            if not core.pile:
                core = self._reform(core)
            hands[seat] = _with(hands[seat], core.pile[-1])
            return self._after_draw(evolve(core, hands=tuple(hands), pile=core.pile[:-1], phase=DRAW))
        if isinstance(action, TakeStock):
            hands[seat] = _with(hands[seat], action.card)
            return self._after_draw(
                evolve(core, hands=tuple(hands), stock=_without(core.stock, action.card), phase=DRAW)
            )
        if isinstance(action, Build):
            dx, dy = STEP[action.direction]
            placed = Placed(action.card, action.x, action.y, (action.x - dx, action.y - dy))
            networks = list(core.networks)
            networks[seat] = networks[seat] + (placed,)
            hands[seat] = _without(hands[seat], action.card)
            core = evolve(
                core,
                networks=tuple(networks),
                hands=tuple(hands),
                built=True,
                draw_to=BONUS_HAND_SIZE if earns_bonus(action.source, action.card) else HAND_SIZE,
                phase=CONTRIBUTE,
            )
            net = network(networks[seat])
            if action.card.is_red and reaches_goal(net.hearts, net.diamonds):
                return evolve(core, phase=OVER, winners=(seat,), ending="goal")  # rule 24
            return core
        if isinstance(action, Contribute):
            hands[seat] = _without(hands[seat], action.card)
            core = evolve(
                core,
                hands=tuple(hands),
                stock=_with(core.stock, action.card),
                fresh=_with(core.fresh, action.card),
                phase=DRAW,
            )
            return self._after_draw(core)
        if isinstance(action, EndTurn):
            return self._end_turn(core)
        raise TypeError(f"not a Carbondale action: {action!r}")

    @staticmethod
    def _challenge(core: CarbondaleState, action: Claim | Defend | Decline) -> CarbondaleState:
        """A claim (rule 19), a defence (rule 21) or a declined defence (rule 22)."""
        seat = core.current
        hands = list(core.hands)
        if isinstance(action, Claim):
            hands[seat] = _without(hands[seat], action.challenge)
            challenge = Challenge(seat, action.owner, action.x, action.y, action.target, action.challenge)
            return evolve(core, hands=tuple(hands), pending=challenge, phase=DEFEND, claims=core.claims + 1)
        if isinstance(action, Defend):
            pending = core.pending
            assert pending is not None
            # rule 21: the claim fails; both cards go face down
            hands[pending.owner] = _without(hands[pending.owner], action.card)
            return evolve(
                core,
                hands=tuple(hands),
                discards=_with(core.discards, pending.card, action.card),
                buried=_with(core.buried, pending.card),
                pending=None,
                phase=ACT,
            )
        pending = core.pending
        assert pending is not None
        # rule 22: the target moves to the challenger's hand, the challenge card goes face down
        networks = list(core.networks)
        networks[pending.owner] = tuple(
            p for p in networks[pending.owner] if not (p.x == pending.x and p.y == pending.y)
        )
        hands[seat] = _with(hands[seat], pending.target)
        return evolve(
            core,
            networks=tuple(networks),
            hands=tuple(hands),
            discards=_with(core.discards, pending.card),
            buried=_with(core.buried, pending.card),
            pending=None,
            phase=ACT,
            claimed=True,
        )

    @staticmethod
    def _discard(core: CarbondaleState, action: Discard) -> CarbondaleState:
        """A discard: face up onto the stock, or face down (rule 15)."""
        hands = list(core.hands)
        hands[core.current] = _without(hands[core.current], action.card)
        if action.face_up:
            return evolve(
                core,
                hands=tuple(hands),
                stock=_with(core.stock, action.card),
                fresh=_with(core.fresh, action.card),
                phase=DISCARD,
            )
        return evolve(
            core,
            hands=tuple(hands),
            discards=_with(core.discards, action.card),
            buried=_with(core.buried, action.card),
            phase=DISCARD,
        )

    @staticmethod
    def _reform(core: CarbondaleState) -> CarbondaleState:
        """Rule 17: the next spare pile, the stock and the face-down discards, shuffled together, except the
        cards the current player put down this turn: they stay where they are (rule 16)."""
        stock = minus(core.stock, core.fresh) if core.fresh else core.stock
        discards = minus(core.discards, core.buried) if core.buried else core.discards
        cards = (core.spares[0] if core.spares else ()) + stock + discards
        pile, rng = core.rng.shuffled(sorted(cards))
        return evolve(
            core,
            pile=pile,
            spares=core.spares[1:],
            stock=core.fresh,
            discards=core.buried,
            rng=rng,
            last_spare_in=core.last_spare_in or len(core.spares) == 1,
        )

    def _after_draw(self, core: CarbondaleState) -> CarbondaleState:
        """The turn ends by itself once the hand is full or nothing can be drawn."""
        if len(core.hands[core.current]) >= core.draw_to or not can_draw_pile(core):
            return self._end_turn(core)
        return core

    def _end_turn(self, core: CarbondaleState) -> CarbondaleState:
        """Pass the turn on; rule 25's stalemate guard and rule 26's round limit end the game."""
        idle = core.idle
        if not core.spares and not core.last_spare_in:
            idle = 0 if core.built else idle + 1
        turns = core.turns + 1
        core = evolve(
            core,
            current=(core.current + 1) % core.players,
            phase=ACT,
            claims=0,
            claimed=False,
            built=False,
            draw_to=HAND_SIZE,
            fresh=(),
            buried=(),
            last_spare_in=False,
            idle=idle,
            turns=turns,
        )
        if idle >= STALEMATE_ROUNDS * core.players:
            return self._finish(core, "stalemate")
        if turns >= ROUND_LIMIT * core.players:
            return self._finish(core, "limit")
        return core

    @staticmethod
    def _finish(core: CarbondaleState, ending: str) -> CarbondaleState:
        """Rule 27: the best progress wins, ties shared."""
        progress = [network(n).progress for n in core.networks]
        best = max(progress)
        winners = tuple(seat for seat, value in enumerate(progress) if value == best)
        return evolve(core, phase=OVER, winners=winners, ending=ending)

    # -- results -----------------------------------------------------------------------------
    def scores(self, core: CarbondaleState) -> list[int | float]:
        return scores(core)

    def winners(self, core: CarbondaleState) -> list[int]:
        return list(core.winners)

    def evaluate(self, core: CarbondaleState) -> list[float]:
        """Progress toward 7 + 3 plus a little for the black cards that can still build, as shares of 1."""
        if core.phase == OVER:
            return [1.0 if seat in core.winners else 0.0 for seat in range(core.players)]
        weights = []
        for cards in core.networks:
            net = network(cards)
            blacks = sum(1 for p in cards if p.card.is_black)
            strength = 1.0 + net.progress + 0.15 * min(blacks, 12) - 0.2 * len(net.vulnerable)
            weights.append(max(strength, 0.5) ** 3)
        total = sum(weights)
        return [w / total for w in weights]

    def judgement(self, core: CarbondaleState, seat: int) -> float:
        """Network progress, room to build, the hand's use and what the stock offers the rivals, as the
        seat's view shows them (:func:`judgement.value`)."""
        return _judgement.value(seen(self, core, seat), seat)

    def rollout_action(self, core: CarbondaleState, rnd: random.Random) -> Action:
        """Quick playouts: build when possible (red cards first, they win), claim often; else at random."""
        actions = self.legal_actions(core)
        if len(actions) == 1 or rnd.random() < 0.2:
            return rnd.choice(actions)
        builds = [a for a in actions if isinstance(a, Build)]
        if builds:
            red = [a for a in builds if a.card.is_red]
            return rnd.choice(red or builds)
        claims = [a for a in actions if isinstance(a, Claim)]
        if claims and rnd.random() < 0.5:
            return rnd.choice(claims)
        return rnd.choice(actions)

    def sample_hidden(self, core: CarbondaleState, seat: int | None, rng: Rng) -> CarbondaleState:
        """Re-deal every unseen card: other hands, the draw pile and the face-down discards share one
        pool; each spare pile (whose cards are known, rule 3) is only re-shuffled. A card a hand is publicly
        known to hold (``known``) stays in it. As many of the new discards as the current player put face
        down this turn count as theirs (``buried``)."""
        known = core.known or tuple(() for _ in core.hands)
        unseen: list[Card] = []
        for other, hand in enumerate(core.hands):
            if other != seat:
                unseen.extend(minus(hand, known[other]) if known[other] else hand)
        unseen.extend(core.pile)
        unseen.extend(core.discards)
        dealt, rng = rng.shuffled(sort_cards(unseen))
        hands = list(core.hands)
        at = 0
        for other, hand in enumerate(core.hands):
            if other != seat:
                size = len(hand) - len(known[other])
                hands[other] = _with(known[other], *dealt[at : at + size])
                at += size
        pile = dealt[at : at + len(core.pile)]
        at += len(core.pile)
        discards = tuple(sort_cards(dealt[at:]))
        # this turn's face-down cards are as unknown as the rest, but stay a part of the discards (rule 17)
        buried = tuple(sort_cards(dealt[at : at + len(core.buried)])) if core.buried else ()
        spares = []
        for spare in core.spares:
            shuffled, rng = rng.shuffled(sort_cards(spare))
            spares.append(shuffled)
        own, rng = rng.split()
        return evolve(
            core, hands=tuple(hands), pile=pile, discards=discards, buried=buried, spares=tuple(spares), rng=own
        )

    # -- the table's part (see view.py, words.py and position.py) ------------------------------------
    def view(self, core: CarbondaleState, seat: int | None) -> dict[str, Any]:
        return _view.view(core, seat)

    def describe(self, before: CarbondaleState, action: Action, after: CarbondaleState) -> Entry:
        return _words.describe(before, action, after)

    def why_illegal(self, core: CarbondaleState, action: Action) -> str:
        return _words.why_illegal(core, action)

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> CarbondaleState:
        """A core from a position (the rules page's "Position format"; see :func:`.position.load`), refused
        with a ``ValueError`` unless the game could go on from it."""
        core = _position.load(players, options, position)
        if not self.legal_actions(core) or len(self.scores(core)) != core.players:
            raise ValueError("position: the game could not go on from it")
        return core

    def write_position(self, core: CarbondaleState) -> dict[str, Any] | None:
        return _position.write(core)
