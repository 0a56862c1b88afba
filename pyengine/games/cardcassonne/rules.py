"""Card-cassonne's rules: setup, the legal actions, their effects, scores, evaluation and hidden cards.

Rule numbers refer to the numbered rules of the game's rules page.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from ...cards import standard_deck
from ...core import Action, GameInfo, NamedPosition, Option, OptionValue, Rules
from ...estimate import chances
from ...rng import Rng
from ...words import Entry
from . import judgement as _judgement
from . import position as _position
from . import view as _view
from . import words as _words
from .board import (
    COMPLETION_BONUS,
    DECK_SIZE,
    END_BONUS,
    FACE_RANKS,
    HAND_SIZE,
    VALUE,
    Area,
    Cell,
    Event,
    allowed_players,
    area_value,
    around,
    auto_removed,
    card_key,
    cell_text,
    draws_problem,
    placed,
    variants,
)
from .notation import DONE, MADE_PLAYS, NO_TOKEN, NOTATION, TOKEN, Play, ScoreArea, TokenChoice, play
from .state import CardcassonneState, evolve_core


class CardcassonneRules(Rules):
    """Card-cassonne's rules: the contract, with the words, views and positions of :mod:`.words`, :mod:`.view`
    and :mod:`.position`."""

    info = GameInfo(
        id="cardcassonne",
        title="Card-cassonne",
        blurb="Build an open table of cards, claim same-suit areas with tokens and score them as they close.",
        min_players=2,
        max_players=4,
        rules_version="2",
        cooperative=False,
        loads_positions=True,
        options=(
            Option(
                "same_suit",
                "same-as-played",
                ("same-as-played", "neighbours-alike"),
                "Same-suit placement",
                "Rule 8: a card may touch several cards if they all share the played card's suit, "
                "or (the other reading) if they simply all share one suit.",
                labels=("Neighbours of the played card's suit", "Neighbours all of one suit"),
            ),
            Option(
                "end",
                "play-out-hands",
                ("play-out-hands", "stop-when-deck-empty"),
                "Game end",
                "Play out the hands once the draw pile is empty, or stop as soon as it is empty.",
                labels=("Play out the hands", "Stop when the draw pile is empty"),
            ),
            Option(
                "removed",
                "auto",
                ("auto", *range(1, 52)),
                "Cards removed",
                "Cards set aside unseen at the start (by the player count: 11 for 2 or 4 players, 13 for 3); "
                "the draw pile must divide equally among the players.",
                labels=("By the player count", *(str(n) for n in range(1, 52))),
            ),
            Option("tokens", 7, (7, 3, 4, 5, 6, 8, 9, 10), "Tokens per player", "Fewer tokens make a harder game."),
        ),
        source="https://jergames.blogspot.com/2009/03/wielding-decks-7-card-cassonne.html",
        # At most 103 turns (every card but the start card); each turn has a play, at most one token
        # decision and at most one 'done'; each 'score' returns at least one token and a token is placed
        # at most once per turn, so scoring actions number at most the turns too.
        max_actions=lambda players: 4 * (DECK_SIZE - 1),
        allowed_players=allowed_players,
    )
    notation = NOTATION
    positions: Mapping[str, NamedPosition] = {**_view.POSITIONS, **_position.LESSON_POSITIONS}
    ai_tuning = {
        "normal": {"iterations": 720, "root_width": 8, "prior": 10.0, "paired": True,
                   "from_players": {3: {"iterations": 300, "paired": False, "prior": 2.0}, 4: {"exploration": 0.4}}},
        "hard": {"root_width": 8, "prior": 2.0, "paired": True, "from_players": {3: {"paired": False}}},
    }
    """Measured against the rule-based player and normal (docs/benchmarks.md): dozens of placements leave too few
    iterations each, so the root weighs the best few by the judgement's plans (:func:`pyengine.planning.plan_turn`),
    the best favoured while visits are few. At two players each is tried on the same deals as the others
    (``paired``: what the next cards bring would otherwise drown the differences between placements); from three
    players up, where two rivals move before the seat's next turn, normal did better unpaired; at four players it
    also explores less (0.4, as Carbles does from three players up), where the seats' chances lie closer. At two
    players normal searches 720 iterations (90 deals of its 8 placements) rather than the level's 300: its
    decisions took about a third of normal's time in the browser, and it beat the counting player more often
    so; from three players up (unpaired, and slower a decision) it keeps the level's 300. Hard weighs the best 8
    too, on about 187 deals each (1,500 iterations): with 16 it added placements the judgement ranks lower on no
    more deals each than normal's, and beat the counting player less often. At two players normal's choice weighs
    the judgement's ranking five times as much as the other levels' (a prior of 10: the best plan's lead is 0.11 of a
    win at its 90 deals): its search leaves the judgement's best plan only for a clearly better one, as the
    differences its 90 deals show between close placements are mostly the deals' own (26 games of 40 against the
    rule-based player so, 21.5 with a prior of 2). From three players up, unpaired, the bias steers where the visits
    go rather than only the choice, and stays 2 as measured."""

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> CardcassonneState:
        """Rules 1, 3-5: shuffle two decks, turn up the start card, remove R unseen, deal 3 each."""
        removed_option = options.get("removed", "auto")
        removed = auto_removed(players) if removed_option == "auto" else int(removed_option)
        problem = draws_problem(players, removed)
        if problem:
            raise ValueError(problem)
        cards, rng = rng.shuffled(sorted(standard_deck() * 2, key=card_key))
        hands = tuple(
            tuple(sorted(cards[1 + removed + HAND_SIZE * s : 1 + removed + HAND_SIZE * (s + 1)], key=card_key))
            for s in range(players)
        )
        first, rng = rng.below(players)
        tokens = int(options.get("tokens", 7))
        alike, play_out = variants(options)
        return CardcassonneState(
            players=players,
            alike=alike,
            play_out=play_out,
            board=((0, 0, cards[0]),),
            tokens=(),
            tokens_left=(tokens,) * players,
            points=(0,) * players,
            hands=hands,
            deck=cards[1 + removed + HAND_SIZE * players :],
            removed=cards[1 : 1 + removed],
            turn=first,
            phase="play",
        )

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> CardcassonneState:
        """A core from a position (``board``, ``hands``, optional ``deck``, ``removed``, ``tokens``,
        ``tokens_left``, ``scores``, ``turn``), every field checked: see :func:`.position.load` for the format,
        the card set (two decks, each card in exactly one zone) and the refusals."""
        return _position.load(players, options, position)

    def write_position(self, core: CardcassonneState) -> dict[str, Any] | None:
        return _position.write(core)

    # -- the decision ------------------------------------------------------------------------------
    def current_player(self, core: CardcassonneState) -> int | None:
        return None if core.phase == "over" else core.turn

    def legal_actions(self, core: CardcassonneState) -> list[Action]:
        if core.phase == "play":
            return cast("list[Action]", self.plays(core))
        if core.phase == "token":
            return [TOKEN, NO_TOKEN]
        if core.phase == "score":
            areas = core.table.areas
            return [*(ScoreArea(areas[cell].suit, *cell) for cell in core.scorable), DONE]
        return []

    def plays(self, core: CardcassonneState) -> list[Play]:
        """Rules 7-9: every distinct hand card at every frontier cell that accepts it."""
        frontier = core.table.frontier
        hand = core.hands[core.turn]
        plays: list[Play] = []
        for i, card in enumerate(hand):
            if i and hand[i - 1] == card:
                continue
            made = MADE_PLAYS.setdefault(card, {}).get
            suit, value = card.suit, VALUE[card.rank]
            plays += [
                made(cell) or play(card, *cell)
                for cell, (rule_suit, lo, hi) in frontier.items()
                if suit == rule_suit or lo <= value <= hi
            ]
        return plays

    # -- moves ------------------------------------------------------------------------------------
    def apply(self, core: CardcassonneState, action: Action) -> CardcassonneState:
        seat = core.turn
        if isinstance(action, Play):
            return self._apply_play(core, action)
        if isinstance(action, TokenChoice):
            if not action.place:
                return self._resolve(evolve_core(core, events=((f"{{{seat}:places}} no token", {}),)))
            x, y, card = core.board[-1]
            left = list(core.tokens_left)
            left[seat] -= 1
            event: Event = (
                f"{{{seat}:places}} a token on {card} at {x},{y}",
                {"card": str(card), "cell": [x, y]},
            )
            return self._resolve(
                evolve_core(
                    core,
                    tokens=tuple(sorted((*core.tokens, (x, y, seat)))),
                    tokens_left=tuple(left),
                    events=(event,),
                )
            )
        if isinstance(action, ScoreArea):
            scored, event = _score_area(core, (action.x, action.y))
            after = evolve_core(core, **scored, events=(event,))
            return after if after.scorable else self._end_turn(after, list(after.events))
        return self._end_turn(core, [(f"{{{seat}:scores}} no more areas", {})])

    def _apply_play(self, core: CardcassonneState, action: Play) -> CardcassonneState:
        """Rule 6, step (a), then step (b) when a token is allowed (rule 12), else straight to scoring."""
        seat, card, x, y = core.turn, action.card, action.x, action.y
        hand = list(core.hands[seat])
        hand.remove(card)
        hands = list(core.hands)
        hands[seat] = tuple(hand)
        table = placed(core.table, core.alike, x, y, card)
        event: Event = (f"{{{seat}:plays}} {card} at {x},{y}", {"card": str(card), "cell": [x, y]})
        after = evolve_core(core, board=(*core.board, (x, y, card)), hands=tuple(hands), events=(event,))
        after.memo["table"] = table
        if core.tokens_left[seat] > 0:
            cells = table.areas[(x, y)].cells
            if not any(cell in cells for cell in core.token_cells):
                return evolve_core(after, phase="token")
        return self._resolve(after)

    def _resolve(self, core: CardcassonneState) -> CardcassonneState:
        """Rule 6, step (c): +3 per area the placement completed (rule 14), complete areas with tokens scored
        (rule 15), then the player's optional choices, if any."""
        events = list(core.events)
        areas = core.table.areas
        x, y, _ = core.board[-1]
        completed: list[Area] = []
        for cell in ((x, y), *around(x, y)):
            area = areas.get(cell)
            if area is not None and area.complete and area not in completed:
                completed.append(area)
        seat = core.turn
        if completed:
            points = list(core.points)
            bonus = COMPLETION_BONUS * len(completed)
            points[seat] += bonus
            plural = "s" if len(completed) > 1 else ""
            events.append((f"{{{seat}:completes}} {len(completed)} area{plural}: +{bonus}",
                           {"completed": len(completed), "bonus": bonus}))
            core = evolve_core(core, points=tuple(points))
            token_cells = core.token_cells
            for area in completed:
                anchor = min((c for c in area.cells if c in token_cells), default=None)
                if anchor is not None:
                    scored, event = _score_area(core, anchor)
                    core = evolve_core(core, **scored)
                    events.append(event)
        if core.scorable:
            return evolve_core(core, phase="score", events=tuple(events))
        return self._end_turn(core, events)

    def _end_turn(self, core: CardcassonneState, events: list[Event]) -> CardcassonneState:
        """Rule 6, step (d): draw if the pile has cards; then the end check (rule 17) or the next player."""
        seat = core.turn
        hands, deck = core.hands, core.deck
        if deck:
            hands = tuple(
                tuple(sorted((*hand, deck[0]), key=card_key)) if s == seat else hand for s, hand in enumerate(hands)
            )
            deck = deck[1:]
            events.append((f"{{{seat}:draws}} a card", {"drew": True}))
        over = not any(hands) if core.play_out else not deck
        if not over:
            return evolve_core(
                core, hands=hands, deck=deck, turn=(seat + 1) % core.players, phase="play", events=tuple(events)
            )
        points = list(core.points)
        bonus = [0] * core.players
        at = core.table.at
        for x, y, owner in core.tokens:
            if at[(x, y)].rank in FACE_RANKS:
                bonus[owner] += END_BONUS
                points[owner] += END_BONUS
        lines = ", ".join(f"{{{s}}} +{b}" for s, b in enumerate(bonus) if b) or "none"
        events.append((f"game over; face-card bonus: {lines}", {"over": True, "end_bonus": bonus}))
        return evolve_core(core, hands=hands, deck=deck, points=tuple(points), phase="over", events=tuple(events))

    # -- results ---------------------------------------------------------------------------------------
    def scores(self, core: CardcassonneState) -> list[int | float]:
        return list(core.points)

    def winners(self, core: CardcassonneState) -> list[int]:
        """Rule 18: most points wins; ties are shared."""
        if core.phase != "over":
            return []
        best = max(core.points)
        return [s for s, p in enumerate(core.points) if p == best]

    def evaluate(self, core: CardcassonneState) -> list[float] | None:
        """Each seat's worth by the game's judgement (:func:`judgement.worths`: points banked, tokens by how close
        their areas are to closing, tokens in reserve, the largest unclaimed area to the seat that plays next),
        through :func:`chances`; the search's cut-off judges as the rule-based player does."""
        if core.phase == "over":
            won = self.winners(core)
            return [1.0 if s in won else 0.0 for s in range(core.players)]
        spread = 5.0 + 0.15 * (sum(len(h) for h in core.hands) + len(core.deck))
        return chances(_judgement.worths_of(core), spread)

    def judgement(self, core: CardcassonneState, seat: int) -> float:
        """The seat's lead as its view shows it, tokens valued by how close their areas are to closing
        (:func:`judgement.value`, read from the core's public facts without drawing the view)."""
        return _judgement.value_of(core, seat)

    def rollout_action(self, core: CardcassonneState, rnd: random.Random) -> Action:
        """Quick playouts: place a token when allowed, score the scorable areas where the player's tokens gain at
        least as much as the others' (else stop scoring), play a random card."""
        if core.phase == "token":
            return TOKEN if rnd.random() < 0.85 else NO_TOKEN
        if core.phase == "score":
            seat, areas = core.turn, core.table.areas
            for x, y in core.scorable:
                cells = areas[(x, y)].cells
                owners = [owner for tx, ty, owner in core.tokens if (tx, ty) in cells]
                mine = owners.count(seat)
                if mine and 2 * mine >= len(owners):
                    return ScoreArea(areas[(x, y)].suit, x, y)
            return DONE
        # a random card at a random open cell that takes it, without listing every play (rules 7-9)
        hand, frontier = core.hands[core.turn], core.table.frontier
        open_cells = list(frontier)
        for _ in range(12):
            card = hand[rnd.randrange(len(hand))]
            cell = open_cells[rnd.randrange(len(open_cells))]
            rule_suit, lo, hi = frontier[cell]
            if card.suit == rule_suit or lo <= VALUE[card.rank] <= hi:
                return play(card, *cell)
        return rnd.choice(self.plays(core))

    def sample_hidden(self, core: CardcassonneState, seat: int | None, rng: Rng) -> CardcassonneState:
        """Re-deal every card ``seat`` cannot see: other hands, the draw pile and the removed cards."""
        unseen = [c for s, hand in enumerate(core.hands) if s != seat for c in hand]
        unseen += [*core.deck, *core.removed]
        cards, _ = rng.shuffled(sorted(unseen, key=card_key))
        hands = []
        used = 0
        for s, hand in enumerate(core.hands):
            if s == seat:
                hands.append(hand)
            else:
                hands.append(tuple(sorted(cards[used : used + len(hand)], key=card_key)))
                used += len(hand)
        deck = cards[used : used + len(core.deck)]
        return evolve_core(core, hands=tuple(hands), deck=deck, removed=cards[used + len(core.deck) :])

    # -- words and views (see words.py and view.py) -------------------------------------------------------
    def describe(self, before: CardcassonneState, action: Action, after: CardcassonneState) -> Entry:
        return _words.describe(before, action, after)

    def why_illegal(self, core: CardcassonneState, action: Action) -> str:
        if action in self.legal_actions(core):
            return f"write it as {str(action)!r}"
        return _words.why_illegal(core, action)

    def facts(self, core: CardcassonneState, action: Action) -> dict[str, Any]:
        return _view.facts(core, action)

    def view(self, core: CardcassonneState, seat: int | None) -> dict[str, Any]:
        return _view.view(core, seat)



def _score_area(core: CardcassonneState, anchor: Cell) -> tuple[dict[str, Any], Event]:
    """Rule 16: each token in the area earns its owner the area's value; all its tokens go home."""
    area = core.table.areas[anchor]
    cells = area.cells
    value = area_value(len(cells))
    points, left = list(core.points), list(core.tokens_left)
    gained = [0] * core.players
    kept, gains = [], []
    for x, y, owner in core.tokens:
        if (x, y) in cells:
            points[owner] += value
            gained[owner] += value
            left[owner] += 1
            gains.append(f"{{{owner}}} +{value}")
        else:
            kept.append((x, y, owner))
    size = len(cells)
    text = (
        f"{{{core.turn}:scores}} the {area.suit} area at {cell_text(anchor)} ({size} card{'s' if size != 1 else ''}): "
        + ", ".join(gains)
    )
    scored = {
        "suit": area.suit,
        "cell": list(anchor),
        "cells": [list(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))],
        "value": value,
        "points": gained,
    }
    return {"points": tuple(points), "tokens_left": tuple(left), "tokens": tuple(kept)}, (text, {"scored": [scored]})
