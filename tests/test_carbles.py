"""Golden scenarios for Carbles (rule numbers in the docstrings are those of the rules page)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

import pyengine
from pyengine import IllegalAction, Rng, State, UnreadableAction
from pyengine.cards import Card
from pyengine.core import named_position
from pyengine.games import carbles as cb
from pyengine.games.carbles import LOT, RULES
from pyengine.games.carbles.position import FIELDS
from pyengine.words import seat_names

GID = "carbles"


def G(p: int, slot: int, players: int) -> int:
    """Player p's goal slot as a location."""
    return 18 * players + 4 * p + slot


def position(
    players: int,
    marbles: dict[tuple[int, int], int],
    hands: dict[int, list[str]],
    turn: int = 0,
    partners: bool = False,
    open_hands: bool = False,
    seed: int = 1,
) -> State:
    """A set-up game with the marbles and hands replaced (every other marble in its lot)."""
    options = {"partners": partners, "open_hands": open_hands}
    state = pyengine.new_game(GID, players, seed, options)
    board = [LOT] * (4 * players)
    for (p, i), loc in marbles.items():
        board[4 * p + i] = loc
    cards = tuple(tuple(sorted(Card.parse(c) for c in hands.get(p, ["2♣"]))) for p in range(players))
    core = replace(state.core, marbles=tuple(board), hands=cards, turn=turn, starter=turn)
    return State(RULES, players, state.options, seed, core)


def where(state: State, p: int, i: int) -> int:
    return int(state.core.marbles[4 * p + i])


def last_line(state: State, you: int | None = None) -> str:
    """The last log entry in words, for the default seat names."""
    return state.log(last=1)[-1].say(seat_names(state.players), you)


def texts(state: State, prefix: str = "") -> list[str]:
    return [t for t in state.legal_texts() if t.startswith(prefix)]


# ------------------------------------------------------------------------------ the board


def test_six_player_board_matches_the_seed_unrolled_board() -> None:
    """Rules 2-3: 108 spaces, home 0 for player 1, goal entry E(0) = 106, F03 is player 0's slot 3."""
    state = pyengine.new_game(GID, 6, 3)
    view = state.view(None)
    assert view["track_size"] == 108
    assert view["homes"] == [0, 18, 36, 54, 72, 90]
    assert view["entries"] == [106, 16, 34, 52, 70, 88]
    assert cb.entry(0, 6) == 106
    # a marble in player 0's slot 3 (the seed's F03) shows in player 0's row, in slot 3 of player 0's goal
    s = position(6, {(0, 0): G(0, 3, 6)}, {0: ["2♣"]})
    assert s.view(0)["marbles"][0][:2] == [{"goal": [0, 3]}, {"lot": 0}]


def test_every_player_count_deals_and_plays() -> None:
    for n in range(1, 13):
        state = pyengine.new_game(GID, n, n)
        assert state.view(None)["track_size"] == 18 * n
        assert all(len(h) == min(5, 108 // n) for h in state.core.hands)
        assert state.legal_texts()


def test_partners_need_an_even_number_of_players() -> None:
    with pytest.raises(ValueError, match="even number of players"):
        pyengine.new_game(GID, 5, 1, {"partners": True})
    assert pyengine.new_game(GID, 6, 1, {"partners": True}).view(None)["teams"] == [[0, 3], [1, 4], [2, 5]]


# ------------------------------------------------------------------------------ moving out


def test_move_out_puts_a_marble_on_home_and_kills_a_stranger_there() -> None:
    """Rule 9."""
    s = position(6, {(3, 1): 0}, {0: ["A♠", "2♣"]})
    assert texts(s, "A") == ["A out"]
    after = s.apply("A out")
    assert where(after, 0, 0) == 0
    assert where(after, 3, 1) == LOT
    assert "kills Player 4's second marble" in last_line(after)
    assert after.log()[-1].facts["killed"] == [[3, 1]]


def test_move_out_onto_your_own_marble_is_legal_and_changes_nothing() -> None:
    """Rule 9: the own marble on home stays, the card is spent."""
    s = position(6, {(0, 0): 0}, {0: ["K♠"], 1: ["2♣"]})
    assert "K out" in s.legal_texts()
    after = s.apply("K out")
    assert after.core.marbles == s.core.marbles
    assert after.core.hands[0] == ()
    assert after.current_player == 1


def test_joker_moves_out_or_passes_so_it_never_burns() -> None:
    """Rule 14: a hand with a joker never burns."""
    s = position(4, {(0, i): G(0, i, 4) for i in range(3)} | {(0, 3): G(0, 3, 4)}, {0: ["Jk", "4♠"]})
    assert s.legal_texts() == ["Jk pass"]
    s = position(4, {}, {0: ["Jk"]})
    assert s.legal_texts() == ["Jk out", "Jk pass"]
    s = position(4, {}, {0: ["Jk"]}, partners=True)
    assert s.legal_texts() == ["Jk out", "Jk partner out", "Jk pass"]
    after = s.apply("Jk partner out")
    assert where(after, 2, 0) == 36


# ------------------------------------------------------------------------------ direct moves


def test_direct_move_jumps_and_kills_on_the_landing_space_even_your_own() -> None:
    """Rule 10: jumped marbles are unaffected; the landed-on marble dies, own marbles too."""
    s = position(6, {(0, 0): 20, (0, 1): 33, (1, 0): 25, (2, 0): 28}, {0: ["K♠", "8♡"]})
    after = s.apply("8 m1 +8")
    assert where(after, 0, 0) == 28
    assert where(after, 2, 0) == LOT  # landed on
    assert where(after, 1, 0) == 25  # jumped
    after = s.apply("K m1 +13")
    assert where(after, 0, 0) == 33 and where(after, 0, 1) == LOT


def test_each_distinct_path_is_a_distinct_action() -> None:
    """Rules 4, 10: from before the entry a 5 may turn into the goal or go on round."""
    s = position(6, {(0, 0): 104}, {0: ["5♠"]})
    assert texts(s, "5") == ["5 m1 +5", "5 m1 +5 goal"]
    assert where(s.apply("5 m1 +5"), 0, 0) == 1
    assert where(s.apply("5 m1 +5 goal"), 0, 0) == G(0, 2, 6)
    # too far for the goal: only the track
    assert texts(position(6, {(0, 0): 104}, {0: ["9♠"]}), "9") == ["9 m1 +9"]
    # only the owner may enter: player 2's marble passes player 1's goal entry
    assert texts(position(6, {(1, 0): 104}, {1: ["5♠"]}, turn=1), "5") == ["5 m1 +5"]


def test_goal_marbles_move_only_inward_and_are_never_jumped() -> None:
    """Rules 4, 6: the goal is four slots deep; a goal marble blocks those behind it."""
    s = position(6, {(0, 0): G(0, 0, 6), (0, 1): G(0, 2, 6), (0, 2): 105}, {0: ["A♠", "2♠", "3♠"]})
    legal = s.legal_texts()
    assert "A m1 +1 goal" in legal  # G0 -> G1
    assert "2 m1 +2 goal" not in legal  # would jump G2
    assert "A m2 +1 goal" in legal  # G2 -> G3
    assert "2 m2 +2 goal" not in legal  # past G3
    assert "2 m3 +2 goal" not in legal  # 105 -> 106 -> G0 is occupied
    assert "2 m3 +2" in legal  # 105 -> 107
    assert "3 m3 +3" in legal


def test_a_marble_on_its_own_home_blocks_every_mover() -> None:
    """Rule 5: nobody (the owner included) may step onto an occupied own home, forward or back."""
    s = position(6, {(0, 0): 15, (1, 0): 18, (1, 1): 12, (2, 0): 20}, {0: ["5♠", "2♣"], 1: ["8♠"]})
    assert "5 m1 +5" not in s.legal_texts()
    assert "2 m1 +2" in s.legal_texts()  # 16, 17: stops short of the home
    # player 2's m2 has passed its goal entry and is stuck behind its own m1 on home
    assert texts(position(6, {(1, 0): 18, (1, 1): 17}, {1: ["8♠"]}, turn=1), "8") == ["8 m1 +8"]
    back = position(6, {(1, 0): 18, (0, 0): 20}, {0: ["4♠"]})
    assert texts(back, "4") == []
    # a stranger on someone's home is jumped or killed as usual
    s = position(6, {(0, 0): 15, (2, 0): 18}, {0: ["3♠", "5♠"]})
    assert where(s.apply("3 m1 +3"), 2, 0) == LOT
    assert where(s.apply("5 m1 +5"), 2, 0) == 18


# ------------------------------------------------------------------------------ the 4


def test_the_4_backs_past_home_then_enters_the_goal_on_a_later_move() -> None:
    """Rules 7, 11: a 4 from home goes back past the entry; a 3 later turns into the goal."""
    s = position(6, {(0, 0): 0}, {0: ["4♠", "3♡"], 1: ["2♣"]})
    assert texts(s, "4") == ["4 m1 -4"]
    s = s.apply("4 m1 -4")
    assert where(s, 0, 0) == 104
    core = replace(s.core, turn=0)  # skip the other players' turns
    s = State(RULES, 6, s.options, 1, core)
    assert "3 m1 +3 goal" in s.legal_texts()
    assert where(s.apply("3 m1 +3 goal"), 0, 0) == G(0, 0, 6)


def test_the_4_kills_on_landing_and_never_backs_into_or_out_of_a_goal() -> None:
    s = position(6, {(0, 0): 30, (3, 0): 26, (0, 1): G(0, 1, 6)}, {0: ["4♠"]})
    assert texts(s, "4") == ["4 m1 -4"]
    assert where(s.apply("4 m1 -4"), 3, 0) == LOT


# ------------------------------------------------------------------------------ the 7


def seven_sequences(state: State) -> list[tuple[str, ...]]:
    """Every complete 7 from ``state`` as its sequence of step actions."""
    player = state.current_player
    done: list[tuple[str, ...]] = []

    def walk(s: State, path: tuple[str, ...]) -> None:
        steps = [t for t in s.legal_texts() if t.startswith("7 ")]
        if s.current_player != player or not steps:
            done.append(path)
            return
        for t in steps:
            walk(s.apply(t), path + (t,))

    for t in texts(state, "7 "):
        after = state.apply(t)
        if after.core.seven_left == 0:
            done.append((t,))
        else:
            walk(after, (t,))
    return done


def test_every_7_split_of_a_small_position() -> None:
    """Rule 12. Two players; m1 on 3, m2 on 32 (entry 34), a stranger on 5.

    m2 alone: 11 parts (k=1, 2: one path; k=3..6: track or goal; k=7: track only, onto m1).
    First steps: m1 +1..+7 and m2's 11 parts = 18. Complete splits: m1 alone, m2 alone,
    m1 k then m2 7-k (1+1+2+2+2+2 = 10) and m2 then m1 (10): 22.
    """
    s = position(2, {(0, 0): 3, (0, 1): 32, (1, 0): 5}, {0: ["7♠"], 1: ["2♣"]})
    assert len(texts(s, "7 ")) == 18
    sequences = seven_sequences(s)
    assert len(sequences) == 22
    assert len(set(sequences)) == 22
    assert ("7 m1 +7",) in sequences and ("7 m2 +7",) in sequences
    assert ("7 m2 +3 goal", "7 m1 +4") in sequences


def test_the_7_kills_on_every_step_and_a_killed_marble_cannot_move() -> None:
    """Rule 12: passing over a marble kills it; own marbles too."""
    s = position(2, {(0, 0): 3, (0, 1): 5, (0, 2): 20, (1, 0): 4}, {0: ["7♠"], 1: ["2♣"]})
    s = s.apply("7 m1 +3")
    assert where(s, 1, 0) == LOT and where(s, 0, 1) == LOT and where(s, 0, 0) == 6
    assert s.current_player == 0
    assert s.view(0)["seven"] == {"player": 0, "left": 4, "moved": [[0, 0]]}
    assert s.legal_texts() == ["7 m3 +4"]
    s = s.apply("7 m3 +4")
    assert s.current_player == 1 and s.view(None)["seven"] is None


def test_the_7_needs_all_seven_steps() -> None:
    """Rule 12: a lone marble must take all 7; a split that cannot be completed is not offered."""
    s = position(2, {(0, 0): 3}, {0: ["7♠"]})
    assert texts(s, "7") == ["7 m1 +7"]
    # a marble 2 steps from its last free goal slot cannot finish with a 7 (without partners)
    s = position(2, {(0, 0): G(0, 1, 2), (0, 1): G(0, 2, 2), (0, 2): G(0, 3, 2), (0, 3): 33}, {0: ["7♠", "2♣"]})
    assert texts(s, "7") == ["7 m4 +7"]
    with pytest.raises(IllegalAction, match=r"your 7 can move your fourth marble$"):
        s.apply("7 m4 +2 goal")


def test_a_7_finishes_the_player_then_helps_the_partner() -> None:
    """Rule 23: 2 steps finish player 1, the other 5 go to the partner (player 3)."""
    n = 4
    marbles = {(0, i): G(0, i + 1, n) for i in range(3)} | {(0, 3): 69, (2, 0): 40}
    s = position(n, marbles, {0: ["7♠", "2♣"], 1: ["2♣"]}, partners=True)
    assert "7 m4 +2 goal" in s.legal_texts()
    s = s.apply("7 m4 +2 goal")
    assert s.view(None)["finished"] == [0]
    assert s.legal_texts() == ["7 P3m1 +5"]
    s = s.apply("7 P3m1 +5")
    assert where(s, 2, 0) == 45 and s.current_player == 1
    # without partners the same 7 cannot finish the player
    solo = position(n, marbles, {0: ["7♠", "2♣"]})
    assert "7 m4 +2 goal" not in solo.legal_texts()


# ------------------------------------------------------------------------------ the jack


def test_jack_swaps_within_its_limits() -> None:
    """Rule 13: own track marble (own home included) with a stranger's track marble off its own home."""
    n = 6
    marbles = {
        (0, 0): 0,  # on own home: may swap
        (0, 1): G(0, 0, n),  # goal: never
        (0, 2): 50,
        (1, 0): 18,  # on its own home: protected
        (2, 0): 54,  # on player 4's home, not its own: fair game
        (3, 0): G(3, 1, n),  # in a goal: never
        (4, 0): 80,
    }
    s = position(n, marbles, {0: ["J♠"]})
    swaps = texts(s, "J swap")
    assert swaps == [
        "J swap m1 P3m1",
        "J swap m1 P5m1",
        "J swap m3 P3m1",
        "J swap m3 P5m1",
    ]
    after = s.apply("J swap m3 P5m1")
    assert where(after, 0, 2) == 80 and where(after, 4, 0) == 50
    assert sum(1 for loc in after.core.marbles if loc == LOT) == sum(1 for loc in s.core.marbles if loc == LOT)
    assert "J m3 +11" in s.legal_texts()
    # alone there is nobody to swap with
    assert texts(position(1, {(0, 0): 5, (0, 1): 9}, {0: ["J♠"]}), "J swap") == []


# ------------------------------------------------------------------------------ burning


def test_burn_only_when_nothing_is_legal() -> None:
    """Rule 15: all marbles in the lot and no A, K or joker: burn any card (identical cards share one)."""
    s = position(3, {}, {0: ["2♠", "9♣", "9♣", "Q♡"], 1: ["2♣"]})
    assert s.legal_texts() == ["burn 2♠", "burn 9♣", "burn Q♡"]
    after = s.apply("burn 9♣")
    assert after.core.hands[0] == tuple(sorted(Card.parse(c) for c in ["2♠", "9♣", "Q♡"]))
    assert after.core.marbles == s.core.marbles
    assert after.view(None)["discards"][-1] == "9♣"
    assert "burns 9♣" in last_line(after) and "You cannot move and burn 9♣" == last_line(after, 0)
    playable = position(3, {}, {0: ["2♠", "A♣"]})
    assert not texts(playable, "burn")
    with pytest.raises(IllegalAction, match="you may not burn one"):
        playable.apply("burn 2♠")


# ------------------------------------------------------------------------------ dealing


def deal_sequence(players: int, hands: int) -> list[tuple[int, int, int, int]]:
    """(cards each, deck left, dealer, starter) for the first ``hands`` hands."""
    core = RULES.setup(players, {"partners": False, "open_hands": False}, Rng.from_seed(4))
    out = []
    for _ in range(hands):
        out.append((len(core.hands[0]), len(core.deck), core.dealer, core.starter))
        assert all(len(h) == len(core.hands[0]) for h in core.hands)
        core = cb.deal(replace(core, hands=tuple(() for _ in core.hands)))
    return out


def test_hand_sizes_and_starters_per_player_count() -> None:
    """Rules 17-19: min(5, cards left // N) each; a fresh deck under 4N cards; starters rotate."""
    assert deal_sequence(12, 4) == [(5, 48, 0, 1), (4, 0, 0, 2), (5, 48, 1, 2), (4, 0, 1, 3)]
    assert deal_sequence(6, 5) == [(5, 78, 0, 1), (5, 48, 0, 2), (5, 18, 0, 3), (5, 78, 1, 2), (5, 48, 1, 3)]
    two = deal_sequence(2, 12)
    assert [h[0] for h in two] == [5] * 10 + [4, 5]
    assert two[10] == (4, 0, 0, 1) and two[11] == (5, 98, 1, 0)
    one = deal_sequence(1, 23)
    assert [h[0] for h in one] == [5] * 23
    assert one[20] == (5, 3, 0, 0) and one[21] == (5, 103, 0, 0)


def test_a_new_hand_is_dealt_when_all_hands_are_empty() -> None:
    s = position(2, {(0, 0): 3, (1, 0): 20}, {0: ["2♠"], 1: ["3♠"]})
    s = s.apply("2 m1 +2")
    assert s.current_player == 1
    s = s.apply("3 m1 +3")
    assert all(len(h) == 5 for h in s.core.hands)
    assert s.current_player == s.core.starter
    assert "new hand of 5 cards" in last_line(s)


# ------------------------------------------------------------------------------ winning


def test_the_first_player_with_a_full_goal_wins() -> None:
    """Rule 20."""
    n = 3
    marbles = {(0, 0): G(0, 3, n), (0, 1): G(0, 2, n), (0, 2): G(0, 1, n), (0, 3): 50}
    s = position(n, marbles, {0: ["3♠", "5♠"], 1: ["2♣"]})
    s = s.apply("3 m4 +3 goal")
    assert s.is_terminal() and s.winners() == [0]
    assert s.scores() == [4, 0, 0]
    assert last_line(s).endswith("Player 1 wins") and last_line(s, 0).endswith("you win")


def test_a_partner_game_is_won_by_a_team() -> None:
    """Rules 21-22: a finished player plays for the partner; both finished wins."""
    n = 4
    marbles = {(0, i): G(0, i, n) for i in range(4)}
    marbles |= {(2, 0): G(2, 3, n), (2, 1): G(2, 2, n), (2, 2): G(2, 1, n)}
    s = position(n, marbles, {0: ["A♠", "K♡"], 1: ["2♣"], 2: ["5♣"], 3: ["2♣"]}, partners=True)
    assert s.view(None)["plays_for"] == [2, 1, 2, 3]
    assert s.legal_texts() == ["A partner out", "K partner out"]
    s = s.apply("A partner out")
    assert where(s, 2, 3) == 36
    # walk player 3's last marble to just before its entry, then finish it with a card played by player 1
    core = replace(s.core, marbles=s.core.marbles[:11] + (32,) + s.core.marbles[12:], turn=0)
    s = State(RULES, n, s.options, 1, core)
    assert "K P3m4 +3 goal" not in s.legal_texts()
    core = replace(core, hands=((Card.parse("3♠"),),) + core.hands[1:])
    s = State(RULES, n, s.options, 1, core)
    assert s.legal_texts() == ["3 P3m4 +3", "3 P3m4 +3 goal"]
    s = s.apply("3 P3m4 +3 goal")
    assert s.is_terminal() and s.winners() == [0, 2]


def test_the_deck_cap_ends_the_game_with_the_most_marbles_in_goal() -> None:
    """Termination guard: when the last allowed deck runs out, most marbles in goal wins."""
    n = 3
    s = position(n, {(1, 0): G(1, 0, n), (2, 0): 10}, {0: ["2♣"]})
    core = replace(s.core, hands=((Card.parse("2♣"),), (), ()), deck=(), decks=cb.deck_cap(n))
    s = State(RULES, n, s.options, 1, core).apply("burn 2♣")
    assert s.is_terminal() and s.winners() == [1]
    assert "deck limit" in last_line(s)
    assert RULES.info.max_actions(n) == cb.deck_cap(n) * cb.MOVES_PER_DECK


def test_solitaire_runs_to_the_end() -> None:
    state = pyengine.new_game(GID, 1, 7)
    rnd = random.Random(7)
    while not state.is_terminal():
        state = state.apply(rnd.choice(state.legal_actions()))
    assert state.winners() == [0] and state.scores() == [4]


# ------------------------------------------------------------------------------ information


def test_views_hide_other_hands_unless_open() -> None:
    closed = pyengine.new_game(GID, 4, 2)
    view = closed.view(1)
    assert view["hand"] == [str(c) for c in closed.core.hands[1]]
    assert view["hands"] is None and view["hand_counts"] == [5, 5, 5, 5]
    assert closed.view(None)["hand"] is None
    assert "deck" not in closed.view(None) and closed.view(None)["draw_count"] == 88
    opened = pyengine.new_game(GID, 4, 2, {"open_hands": True})
    assert opened.view(3)["hands"] == [[str(c) for c in h] for h in opened.core.hands]
    sample = opened.sample_hidden(3, 5)
    assert sample.core.hands == opened.core.hands and sample.core.deck != opened.core.deck


def test_sample_hidden_keeps_the_own_hand_and_the_sizes() -> None:
    state = pyengine.new_game(GID, 5, 9)
    sample = state.sample_hidden(2, 11)
    assert sample.core.hands[2] == state.core.hands[2]
    assert [len(h) for h in sample.core.hands] == [len(h) for h in state.core.hands]
    assert sorted(sample.core.deck + sum(sample.core.hands, ())) == sorted(state.core.deck + sum(state.core.hands, ()))
    assert sample.view(2) == state.view(2)


def test_fast_destinations_match_single_steps() -> None:
    """The direct-move shortcut agrees with taking one step at a time (rules 4-6)."""
    rnd = random.Random(3)
    for _ in range(3000):
        n = rnd.randint(1, 12)
        size = 18 * n
        locations = [rnd.choice([LOT, LOT, rnd.randrange(size), size + rnd.randrange(4 * n)]) for _ in range(4 * n)]
        marbles = tuple(loc if loc < size or (loc - size) // 4 == m // 4 else LOT for m, loc in enumerate(locations))
        occ = cb.occupancy(marbles)
        marbles = tuple(loc if occ.get(loc) == m else LOT for m, loc in enumerate(marbles))
        occ = cb.occupancy(marbles)
        for m, loc in enumerate(marbles):
            if loc == LOT:
                continue
            for steps in (1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 13):
                slow = [loc]
                for _ in range(steps):
                    slow = [nxt for here in slow for nxt in cb.forward(here, m // 4, occ, n)]
                assert sorted(cb.destinations(loc, m // 4, steps, occ, n)) == sorted(slow)


def test_why_illegal_speaks_the_games_words() -> None:
    s = position(6, {(0, 0): 20}, {0: ["K♠", "5♣"]})
    with pytest.raises(IllegalAction, match="you hold no queen"):
        s.apply("Q m1 +12")
    with pytest.raises(IllegalAction, match="exactly thirteen steps"):
        s.apply("K m1 +12")
    with pytest.raises(IllegalAction, match="your second marble is in the lot"):
        s.apply("5 m2 +5")
    with pytest.raises(UnreadableAction, match="actions look like"):
        s.apply("dance")
    with pytest.raises(IllegalAction, match="no such marble"):
        s.apply("K P9m1 +13")
    with pytest.raises(IllegalAction, match="only a jack swaps"):
        s.apply("K swap m1 P2m1")
    with pytest.raises(IllegalAction, match="only an ace, a king or a joker"):
        s.apply("5 out")
    with pytest.raises(IllegalAction, match="only a 4 moves backward"):
        s.apply("5 m1 -5")


def test_descriptions_name_the_move() -> None:
    s = position(6, {(0, 0): 20, (2, 0): 25}, {0: ["5♠"], 1: ["2♣"]})
    after = s.apply("5 m1 +5")
    [entry] = after.log()
    assert entry.seat == 0
    assert (
        entry.say(seat_names(6))
        == "Player 1 plays a 5: their first marble goes five steps, from space 20 to 25; kills Player 3's first marble"
    )
    assert (
        entry.say(seat_names(6), 0)
        == "You play a 5: your first marble goes five steps, from space 20 to 25; kills Player 3's first marble"
    )
    assert entry.facts == {
        "kind": "move",
        "card": "5",
        "moved": [{"marble": [0, 0], "from": {"track": 20}, "to": {"track": 25}}],
        "killed": [[2, 0]],
    }
    # another player's marble is named with its owner, in words
    s = position(6, {(0, 0): 50, (4, 0): 80}, {0: ["J♠"], 1: ["2♣"]})
    line = s.apply("J swap m1 P5m1").log()[-1].say(seat_names(6), 4)
    assert line == "Player 1 plays a jack: swaps their first marble, on space 50, with your first marble, on space 80"


def test_facts_place_each_move() -> None:
    """The deciding seat's moves say which marble goes where (the page reads nothing else)."""
    s = position(6, {(0, 0): 104, (0, 1): 20}, {0: ["5♠", "A♣", "4♡"]})
    moves = s.view(0)["moves"]
    assert moves["5 m1 +5 goal"] == {
        "kind": "move_goal",
        "card": "5",
        "marble": [0, 0],
        "from": {"track": 104},
        "to": {"goal": [0, 2]},
        "steps": 5,
    }
    assert moves["A out"] == {"kind": "out", "card": "A", "marble": [0, 2], "from": {"lot": 0}, "to": {"track": 0}}
    assert moves["4 m2 -4"] == {
        "kind": "back", "card": "4", "marble": [0, 1], "from": {"track": 20}, "to": {"track": 16}
    }
    assert "moves" not in RULES.view(s.core, 0)


# ------------------------------------------------------------------------------ the renderer


def render(state: State, seat: int | None, selection: str | None = None) -> str:
    from cardtable_web.drawing import render_state

    return render_state(state, seat, selection)


def reachable(state: State, seat: int) -> set[str]:
    """Every action text offered within 3 data-select clicks."""
    found: set[str] = set()
    seen: set[str | None] = set()
    frontier: list[str | None] = [None]
    for _ in range(4):
        nxt: list[str | None] = []
        for selection in frontier:
            if selection in seen:
                continue
            seen.add(selection)
            page = render(state, seat, selection)
            found.update(unescape(a) for a in re.findall(r'data-action="([^"]*)"', page))
            nxt.extend(unescape(t) for t in re.findall(r'data-select="([^"]*)"', page))
        frontier = nxt
    return found


def unescape(text: str) -> str:
    import html

    return html.unescape(text)


@pytest.mark.parametrize("players", [1, 2, 6, 12])
def test_renderer_reaches_every_legal_action_and_nothing_else(players: int) -> None:
    rnd = random.Random(players)
    state = pyengine.new_game(GID, players, players, {"open_hands": players == 6})
    for step in range(120):
        if state.is_terminal():
            break
        if step % 6 == 0:
            seat = state.current_player
            assert seat is not None
            offered = reachable(state, seat)
            assert offered == set(state.legal_texts())
            other = render(state, (seat + 1) % players if players > 1 else None)
            assert "data-action" not in other
        state = state.apply(rnd.choice(state.legal_actions()))


def test_renderer_shows_one_of_two_cards_of_a_rank_chosen() -> None:
    """A card is chosen by its rank: of two 5s in a hand, choosing one shows that one chosen, not both."""
    s = position(2, {(0, 0): 3}, {0: ["5♠", "5♡", "2♣"], 1: ["2♠"]})
    tags = re.findall(r'<button [^>]*data-card="5[♠♡]"[^>]*>', render(s, 0))
    token = unescape(re.search(r'data-select="([^"]*)"', tags[0]).group(1))  # type: ignore[union-attr]
    chosen = re.findall(r'<button [^>]*data-card="5[♠♡]"[^>]*>', render(s, 0, token))
    assert len(chosen) == 2
    assert ["selected" in tag.split('class="')[1].split('"')[0].split() for tag in chosen] == [True, False]


def test_renderer_shows_the_7_in_progress_and_burns() -> None:
    s = position(2, {(0, 0): 3, (0, 1): 5, (0, 2): 20, (1, 0): 4}, {0: ["7♠"], 1: ["2♣"]}).apply("7 m1 +3")
    page = render(s, 0)
    assert "4</b> step(s) left" in page
    offered = reachable(s, 0)
    assert offered == {"7 m3 +4"}
    burn = position(3, {}, {0: ["2♠", "9♣"], 1: ["2♣"]})
    page = render(burn, 0)
    assert 'data-action="burn 2♠"' in page and "pick a card to burn" in page
    playable = render(position(3, {}, {0: ["2♠", "A♣"]}), 0)
    assert "burn" not in playable


def test_renderer_names_every_marble_not_only_by_colour() -> None:
    s = position(12, {(10, 2): 5}, {0: ["2♠"]})
    page = render(s, None)
    marble = '<g class="cbl-marble seat-10" data-marble="10.2" data-piece="marble 10.2">'
    assert marble + "<title>Player 11&#x27;s marble 3</title>" in page
    assert page.count('class="cbl-marble ') == 12 * 4


def test_the_rules_page_example() -> None:
    """The example position of the rules page says what its text says."""
    state = named_position(GID, "board")
    core = state.core

    def options(turn: int, cards: list[str]) -> list[str]:
        hands = tuple(tuple(sorted(Card.parse(c) for c in cards)) if p == turn else h for p, h in enumerate(core.hands))
        return State(RULES, 6, state.options, 0, replace(core, turn=turn, hands=hands)).legal_texts()

    assert [t for t in options(0, ["5♠"]) if "m3" in t] == ["5 m3 +5", "5 m3 +5 goal"]
    second = options(1, ["7♠", "8♠", "10♠", "Q♠"])
    assert "8 m2 +8 goal" in second and "8 m2 +8" not in second and "10 m2 +10 goal" in second
    assert "Q m2 +12" not in second and "Q m2 +12 goal" not in second
    swaps = [t for t in options(0, ["J♠"]) if "swap" in t]
    assert "J swap m3 P5m1" in swaps and not any("P2m1" in t for t in swaps)


# ------------------------------------------------------------------------------ positions (hostile input)


def load(players: int, description: dict[str, object], **options: object) -> State:
    return pyengine.new_game(GID, players, 0, options or None, description)


def refusal(players: int, description: dict[str, object], **options: object) -> str:
    with pytest.raises(ValueError) as caught:
        load(players, description, **options)
    message = str(caught.value)
    assert len(message) < 400, message
    return message


def without(cards: list[str]) -> list[str]:
    """The 108 cards less ``cards`` (each removed once), as texts."""
    rest = [str(c) for c in cb.DECK]
    for text in cards:
        rest.remove(text)
    return rest


def test_every_named_position_loads_with_its_seat_to_move_able_to_act() -> None:
    for name in cb.POSITIONS:
        state = named_position(GID, name)
        assert state.legal_actions() and not state.is_terminal()
        assert len(state.core.hands[0]) + len(state.core.deck) + len(state.core.discards) <= 108


@pytest.mark.parametrize(
    "description,words",
    [
        ({"bogus": [1] * 1000}, "'bogus' is not part"),
        ({"x" * 10_000: 1}, "'xxxxxxxxxx"),
        ({"turn": True}, "'turn' must be a seat 0..3; got True"),
        ({"turn": 0.5}, "'turn'"),
        ({"turn": 4}, "'turn' must be a seat 0..3; got 4"),
        ({"seed": "7" * 1000}, "'seed'"),
        ({"seed": False}, "'seed'"),
        ({"seed": 2**70}, "'seed'"),
        ({"marbles": "t3"}, "'marbles' must be a list"),
        ({"marbles": [[]] * 5}, "'marbles' must be a list of at most 4 lists"),
        ({"marbles": [["t1"] * 5]}, "player 1 must be a list of at most 4 places"),
        ({"marbles": [["t72"]]}, "marble 1 must be lot, t0..t71 or g0..g3; got 't72'"),
        ({"marbles": [["g4"]]}, "g0..g3; got 'g4'"),
        ({"marbles": [["t03"]]}, "got 't03'"),
        ({"marbles": [[3]]}, "got 3"),
        ({"marbles": [["x" * 500]]}, "got 'xxxxx"),
        ({"marbles": [["t5"], ["lot", "t5"]]}, "player 2, marble 2: two marbles on t5"),
        ({"marbles": [["g1", "g1"]]}, "two marbles on g1"),
        ({"marbles": [["g0", "g1", "g2", "g3"]]}, "player 1 already has every marble in goal"),
    ],
)
def test_bad_positions_are_refused_naming_the_field(description: dict[str, object], words: str) -> None:
    """Unknown keys, types (no bools or floats for whole numbers), seats and places out of range, two marbles
    on one space (rules 2, 3), a game already won (rule 20)."""
    message = refusal(4, description)
    assert words in message and "position field" in message
    assert "x" * 100 not in message and "7" * 100 not in message


def test_a_partner_position_is_refused_only_when_both_partners_have_finished() -> None:
    """Rule 21: one finished partner plays on for the other; both finished is a won game."""
    goal = ["g0", "g1", "g2", "g3"]
    state = load(4, {"marbles": [goal, ["t20"], [], []]}, partners=True)
    assert state.legal_actions() and state.core.marbles[:4] == tuple(G(0, i, 4) for i in range(4))
    assert "player 1 and player 3 already have" in refusal(4, {"marbles": [goal, [], goal, []]}, partners=True)
    assert "already has every marble" in refusal(1, {"marbles": [goal]})


@pytest.mark.parametrize(
    "description,words",
    [
        ({"deck": []}, "'hands' is missing"),
        ({"hands": [["2♣"]] * 3}, "'hands' must be a list of 4 hands"),
        ({"hands": "2♣"}, "'hands' must be a list of 4 hands"),
        ({"hands": [["2♣"] * 6, [], [], []]}, "player 1 holds 6 cards; a hand has at most 5 (rule 17)"),
        ({"hands": [["7♡", "7♡", "7♡"], [], [], []]}, "one 7♡ too many"),
        ({"hands": [["Jk"] * 5, [], [], []]}, "one Jk too many; the 108 cards hold four jokers"),
        ({"hands": [["7♡"], ["7♡"], [], []], "discards": ["7♡"]}, "'discards': one 7♡ too many"),
        ({"hands": [["2♣"], [], [], []], "deck": ["2♣", "2♣"]}, "'deck': one 2♣ too many"),
        ({"hands": [["2♣"], [], [], []], "deck": ["3♣"]}, "'deck': 106 of the 108 cards are in no zone"),
        ({"hands": [["1♣"], [], [], []]}, "'1♣' is not a card"),
        ({"hands": [["x" * 300], [], [], []]}, "'xxxxx"),
        ({"hands": [[7], [], [], []]}, "a card is text"),
        ({"hands": [[None], [], [], []]}, "got None"),
        ({"discards": {"7♡": 1}, "hands": [[], [], [], []]}, "'discards' must be a list of cards; got an object"),
        ({"hands": [[], [], [], []]}, "who must hold a card"),
        ({"hands": [["2♣"], ["2♣", "3♣"], [], []]}, "got hands of 1, 2, 0, 0 cards"),
        ({"hands": [["2♣", "3♣", "4♣"], ["2♣"], [], []]}, "'hands'"),
        ({"hands": [["2♣"], [], [], ["2♣"]], "turn": 1}, "player 2"),
    ],
)
def test_bad_card_zones_are_refused_naming_the_field(description: dict[str, object], words: str) -> None:
    """Rule 8: each of the 108 cards exactly once across hands, draw pile and discards; hands of at most 5
    (rule 17) that let play go round until the next deal."""
    message = refusal(4, description)
    assert words in message and "position field" in message, message
    assert "x" * 100 not in message


def test_listed_cards_are_conserved_and_play_goes_round_to_the_next_deal() -> None:
    """Rules 8, 16-19: hands, draw pile and discards hold the 108 cards; the next hand comes when all are empty."""
    hands = [["7♠", "2♣"], ["5♡", "K♣"], ["9♢"]]
    named = [c for hand in hands for c in hand] + ["K♣"]
    deck = without(named)
    state = load(3, {"marbles": [["t3"], ["t20"], []], "hands": hands, "discards": ["K♣"], "deck": deck})
    core = state.core
    assert core.deck == tuple(Card.parse(c) for c in deck) and core.discards == (Card.parse("K♣"),)
    assert list(core.hands[1]) == sorted(Card.parse(c) for c in hands[1]) and state.current_player == 0
    assert core.starter == 0 and core.dealer == 2 and core.decks == 1
    # hands of 2, 2, 1 read round from player 1 are fine; from player 2 (2, 1, 2) or player 3 (1, 2, 2) not
    for turn in (1, 2):
        assert "going round from the player to move" in refusal(3, {"hands": hands, "turn": turn})
    rnd = random.Random(1)
    for _ in range(5):  # everybody plays out, then the next hand is dealt from the listed draw pile
        state = state.apply(rnd.choice(state.legal_texts()))
        while state.core.seven_left:
            state = state.apply(rnd.choice(state.legal_texts()))
    assert state.core.deck == tuple(Card.parse(c) for c in deck[15:]) and state.core.starter == 1
    total = Counter(state.core.deck) + Counter(state.core.discards) + Counter(c for h in state.core.hands for c in h)
    assert total == Counter(cb.DECK)


def test_an_unlisted_draw_pile_is_the_rest_shuffled_by_the_seed() -> None:
    description = {"hands": [["7♠"], []], "discards": ["2♣"], "seed": 5}
    first, again = load(2, description), load(2, description)
    assert first.core.deck == again.core.deck and len(first.core.deck) == 106
    assert Counter(first.core.deck) == Counter(Card.parse(c) for c in without(["7♠", "2♣"]))
    assert load(2, {**description, "seed": 6}).core.deck != first.core.deck


def test_a_bad_position_in_a_record_is_refused_naming_the_field() -> None:
    described: dict[str, object] = {"marbles": [["t3"], ["t20"]], "hands": [["7♠"], []]}
    record = load(2, described).record()
    changes: list[tuple[dict[str, object], str]] = [
        ({"turn": 7}, "'turn'"),
        ({"marbles": [["t3"], ["t3"]]}, "two marbles on t3"),
        ({"hands": [["7♠", "7♠", "7♠"], []]}, "one 7♠ too many"),
    ]
    for change, words in changes:
        bad = {**record, "position": {**described, **change}}
        for text in (None, json.dumps(bad)):
            with pytest.raises(ValueError) as caught:
                pyengine.replay(bad) if text is None else pyengine.from_json(text)
            assert "record field 'position'" in str(caught.value) and words in str(caught.value)


def test_the_rules_page_documents_the_position_format_and_its_example_loads() -> None:
    page = (Path(__file__).resolve().parents[1] / "web" / "rules" / "carbles.html").read_text("utf-8")
    section = page[page.index('id="position-format"') :]
    for name in FIELDS:
        assert f"<code>{name}</code>" in section, name
    for number in re.findall(r"rules? (\d+)", section):
        assert f'id="r{number}"' in page, number
    example = json.loads(re.search(r"<pre>(.*?)</pre>", section, re.S).group(1))  # type: ignore[union-attr]
    assert example == cb.POSITIONS["seven"].position  # shown as a live figure under the example
    state = pyengine.new_game(GID, 2, 0, None, example)
    assert state.current_player == 0 and len(state.core.deck) == 104 and state.core.discards == (Card.parse("K♣"),)
    assert "7 m1 +3" in state.legal_texts()
    assert state.apply("7 m1 +3").legal_texts() == ["7 m2 +4"]
