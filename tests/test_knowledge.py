"""Re-deals keep public knowledge: a card every seat saw go into a hand stays in that hand in every re-deal."""

from __future__ import annotations

import random
from collections import Counter

import pyengine
from pyengine import Rng
from pyengine.games.carbondale.notation import TakeStock


def test_carbondale_a_card_taken_from_the_stock_stays_in_the_takers_hand() -> None:
    checked = 0
    for seed in range(40):
        rnd = random.Random(seed)
        state = pyengine.new_game("carbondale", 3, seed)
        for _ in range(400):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            takes = [a for a in actions if isinstance(a, TakeStock)]
            action = rnd.choice(takes) if takes and rnd.random() < 0.7 else rnd.choice(actions)
            state = state.apply(action)
            known = state.core.known
            for taker, cards in enumerate(known):
                assert not Counter(cards) - Counter(state.core.hands[taker]), "a known card is in the hand"
                for seat in range(3):
                    if seat == taker or not cards:
                        continue
                    world = state.sample_hidden(seat, Rng.from_seed(checked))
                    assert not Counter(cards) - Counter(world.core.hands[taker])
                    assert world.view(seat) == state.view(seat)
                    checked += 1
        if checked > 60:
            break
    assert checked > 30
