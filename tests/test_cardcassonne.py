"""Card-cassonne golden scenarios (rule numbers from the game's rules page), hidden information and the renderer.

Cells are x,y with y growing downwards; positions are built with the game's ``load_position``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cardtable_web.drawing import render_state
from cardtable_web.html import esc, selecting

import pyengine
from pyengine import IllegalAction, Rng, State, UnreadableAction
from pyengine.cards import Card
from pyengine.core import check_setup, named_position
from pyengine.games.cardcassonne import RULES, area_value, auto_removed
from pyengine.games.cardcassonne.position import FIELDS
from pyengine.words import seat_names
from tests.playouts import playout

FILLER = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "2♠", "3♠", "4♠"]


def fillers(used: list[str], count: int) -> list[str]:
    """``count`` filler cards that keep every card within its two copies, given the cards ``used``."""
    seen = Counter(used)
    found: list[str] = []
    for card in FILLER * 2:
        if len(found) < count and seen[card] < 2:
            seen[card] += 1
            found.append(card)
    return found


def position(
    board: list[tuple[int, int, str]],
    hands: list[list[str]],
    *,
    tokens: Sequence[tuple[int, int, int]] = (),
    deck: list[str] | None = None,
    options: dict[str, Any] | None = None,
    tokens_left: list[int] | None = None,
    scores: list[int] | None = None,
    turn: int = 0,
) -> State:
    """A state from a table and hands. A position must let play go round until every card is played, so every
    hand shorter than the longest is padded with filler cards to its size, and the draw pile (unless given) holds
    one filler card per player."""
    players = len(hands)
    checked = check_setup(RULES, players, options or {})
    used = [c for *_, c in board] + [c for h in hands for c in h] + (deck or [])
    longest = max(len(h) for h in hands)
    padded = []
    for hand in hands:
        extra = fillers(used, longest - len(hand))
        used += extra
        padded.append([*hand, *extra])
    spec: dict[str, Any] = {
        "board": [list(b) for b in board],
        "hands": padded,
        "deck": fillers(used, players) if deck is None else deck,
        "tokens": [list(t) for t in tokens],
        "turn": turn,
    }
    if tokens_left is not None:
        spec["tokens_left"] = tokens_left
    if scores is not None:
        spec["scores"] = scores
    return State(RULES, players, checked, 0, RULES.load_position(players, checked, spec))


def area(state: State, x: int, y: int) -> dict[str, Any]:
    view = state.view(None)
    for entry in view["grid"]:
        if (entry["x"], entry["y"]) == (x, y):
            return view["areas"][entry["area"]]  # type: ignore[no-any-return]
    raise AssertionError(f"no card at {x},{y}")


def plays(state: State) -> set[str]:
    return {t for t, facts in state.view(state.current_player)["moves"].items() if facts["kind"] == "play"}


def last_line(state: State) -> str:
    """The last log entry in words, as a table of unnamed seats shows it to an onlooker."""
    return state.log(last=1)[0].say(seat_names(state.players))


# -- placement (rules 7-9) ------------------------------------------------------------------------


def test_a_card_touching_a_single_card_may_be_of_any_suit_and_value() -> None:
    state = position([(0, 0, "5♣")], [["K♡"], ["2♠"]])
    assert plays(state) == {"K♡ @ 0,-1", "K♡ @ 1,0", "K♡ @ 0,1", "K♡ @ -1,0"}


def test_a_card_must_touch_a_card_and_go_on_an_empty_cell() -> None:
    state = position([(0, 0, "5♣")], [["K♡"], ["2♠"]])
    with pytest.raises(IllegalAction, match="touches no card"):
        state.apply("K♡ @ 1,1")
    with pytest.raises(IllegalAction, match="already holds the 5♣"):
        state.apply("K♡ @ 0,0")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("Q♡ @ 1,0")
    with pytest.raises(UnreadableAction, match="actions look like"):
        state.apply("KH @ 1,0")
    with pytest.raises(IllegalAction, match="write it as 'K♡ @ 1,0'"):
        state.apply("K♡ @ 1,-0")


# 5♡ and 9♡ with a gap at 1,0 between them: the gap touches two hearts.
HEARTS_GAP = [(0, 0, "5♡"), (0, 1, "3♠"), (1, 1, "4♠"), (2, 1, "6♠"), (2, 0, "9♡")]


def test_a_card_touching_only_cards_of_its_own_suit_may_have_any_value() -> None:
    # 1,0 touches 5♡, 4♡ and 9♡: all hearts, values 4..9.
    state = position([(0, 0, "5♡"), (0, 1, "7♡"), (1, 1, "4♡"), (2, 1, "6♡"), (2, 0, "9♡")], [["K♡", "K♣"], ["2♠"]])
    assert "K♡ @ 1,0" in plays(state)
    assert "K♣ @ 1,0" not in plays(state)
    with pytest.raises(IllegalAction, match=r"must touch only ♣ cards or have a value from 4 to 9$"):
        state.apply("K♣ @ 1,0")
    # with mixed suits around it the same K♡ is out of range
    assert "K♡ @ 1,0" not in plays(position(HEARTS_GAP, [["K♡"], ["2♠"]]))


def test_a_card_between_the_lowest_and_highest_neighbour_may_go_anywhere() -> None:
    state = position(HEARTS_GAP, [["4♣", "9♢", "7♠", "3♢", "10♡"], ["2♠"]])
    legal = plays(state)
    # 1,0 touches 5♡, 9♡ and 4♠: values 4..9, both ends included.
    assert {"4♣ @ 1,0", "9♢ @ 1,0", "7♠ @ 1,0"} <= legal
    assert "3♢ @ 1,0" not in legal and "10♡ @ 1,0" not in legal


def test_aces_are_high_for_the_value_range() -> None:
    state = position([(0, 0, "J♣"), (1, 1, "2♢"), (2, 0, "K♠"), (1, -1, "3♢")], [["A♡", "Q♡", "2♡"], ["2♠"]])
    # 1,0 touches J♣, K♠, 2♢ and 3♢: values 2..13, and an ace counts 14.
    legal = plays(state)
    assert "Q♡ @ 1,0" in legal and "2♡ @ 1,0" in legal
    assert "A♡ @ 1,0" not in legal
    # between 10♣ and A♠ (10..14) a king fits, a two does not
    high = plays(position([(0, 0, "10♣"), (2, 0, "A♠")], [["K♡", "2♡"], ["2♠"]]))
    assert "K♡ @ 1,0" in high and "2♡ @ 1,0" not in high


def test_neighbours_alike_lets_any_card_join_cards_of_one_suit() -> None:
    board = [(0, 0, "5♡"), (0, 1, "7♡"), (1, 1, "4♡"), (2, 1, "6♡"), (2, 0, "9♡")]
    default = position(board, [["K♣"], ["2♠"]])
    alike = position(board, [["K♣"], ["2♠"]], options={"same_suit": "neighbours-alike"})
    assert "K♣ @ 1,0" not in plays(default)
    assert "K♣ @ 1,0" in plays(alike)


def test_there_is_always_a_legal_play() -> None:
    rnd = random.Random(3)
    for state in playout(pyengine.new_game("cardcassonne", 3, 11), rnd, 500):
        if state.core.phase == "play":
            assert plays(state)
    assert state.is_terminal()


# -- areas (rules 10-11) -------------------------------------------------------------------------


def test_areas_are_maximal_same_suit_groups_and_count_open_cells_not_edges() -> None:
    # An L of hearts: 0,1 touches two of its cards but counts once.
    state = position([(0, 0, "5♡"), (1, 0, "6♡"), (1, 1, "7♡"), (2, 0, "8♣")], [["2♠"], ["3♠"]])
    hearts = area(state, 0, 0)
    assert hearts["size"] == 3 and hearts["suit"] == "♡"
    # open: 0,-1 1,-1 -1,0 0,1 1,2 2,1 = 6
    assert hearts["open"] == 6 and not hearts["partial"] and not hearts["complete"]
    assert area(state, 2, 0)["size"] == 1


def test_an_area_becomes_partially_complete_then_complete_and_a_token_scores_with_it() -> None:
    # 5♡ with seat 0's token at 0,0; 5♣ above, 6♠ right: open cells 0,1 and -1,0 (L=2 > 1 card).
    state = position(
        [(0, 0, "5♡"), (0, -1, "5♣"), (1, 0, "6♠")],
        [["5♢", "2♣"], ["9♣", "3♢"]],
        tokens=[(0, 0, 0)],
        tokens_left=[6, 7],
    )
    assert area(state, 0, 0)["partial"] is False
    state = state.apply("5♢ @ -1,0")
    assert area(state, 0, 0)["open"] == 1 and area(state, 0, 0)["partial"]
    assert state.legal_texts() == ["token", "no token"]
    state = state.apply("no token")
    assert state.legal_texts() == ["score ♡ area at 0,0", "done"]
    state = state.apply("done")  # keep the token for later
    assert state.core.tokens == ((0, 0, 0),) and state.scores() == [0, 0]
    # Player 2 fills the last open cell: the area is complete, scored at once (+1 to its owner)
    # and the token goes home; player 2 earns +3 for completing it.
    state = state.apply("9♣ @ 0,1")
    assert area(state, 0, 0)["complete"]
    assert state.legal_texts() == ["token", "no token"]
    state = state.apply("no token")
    assert state.scores() == [1, 3]
    assert state.core.tokens == () and state.core.tokens_left == (7, 7)
    assert "scores the ♡ area of the 5♡, 1 card: Player 1 gets 1" in last_line(state)
    entry = state.log()[-1]
    assert entry.seat == 1 and entry.facts["kind"] == "no-token"
    assert entry.facts["scored"] == [{"suit": "♡", "cell": [0, 0], "cells": [[0, 0]], "value": 1, "points": [1, 0]}]
    assert entry.facts["completed"] == 1 and entry.facts["bonus"] == 3
    assert state.log()[-2].facts == {"kind": "play", "card": "9♣", "cell": [0, 1]}


def test_a_merge_brings_two_tokens_into_one_area_and_no_token_may_join_it() -> None:
    board = [(0, 0, "3♡"), (0, 1, "4♣"), (1, 1, "6♣"), (2, 1, "7♣"), (2, 0, "5♡")]
    state = position(board, [["4♡", "2♠"], ["9♣", "3♢"]], tokens=[(0, 0, 0), (2, 0, 1)], tokens_left=[6, 6])
    state = state.apply("4♡ @ 1,0")
    merged = area(state, 1, 0)
    assert merged["size"] == 3 and merged["tokens"] == [[0, 0, 0], [2, 0, 1]]
    # rule 12: the area already holds tokens, so there is no token step; it is not partially complete (L=5)
    assert state.core.phase == "play" and state.current_player == 1


def test_two_tokens_of_one_player_score_double() -> None:
    # Two hearts areas, each with a seat-0 token, merged into 3 cards that are partially complete.
    board = [
        (0, 0, "3♡"), (0, 1, "4♣"), (1, 1, "6♣"), (2, 1, "7♣"), (2, 0, "5♡"),
        (-1, 0, "2♠"), (3, 0, "8♠"), (0, -1, "9♠"), (2, -1, "10♠"),
    ]  # fmt: skip
    state = position(board, [["4♡", "2♣"], ["9♣", "3♢"]], tokens=[(0, 0, 0), (2, 0, 0)], tokens_left=[5, 7])
    state = state.apply("4♡ @ 1,0")
    assert area(state, 1, 0)["open"] == 1  # only 1,-1
    assert state.legal_texts() == ["score ♡ area at 0,0", "done"]
    state = state.apply("score ♡ area at 0,0")
    assert state.scores() == [12, 0]  # 3 cards: 6 points per token, two tokens
    assert state.core.tokens_left == (7, 7) and state.core.tokens == ()
    assert state.current_player == 1  # nothing left to score: the turn passed


def test_area_values_are_one_per_card_up_to_two_cards_then_two_per_card() -> None:
    assert [area_value(n) for n in (1, 2, 3, 4, 7)] == [1, 2, 6, 8, 14]
    # A 2-card area scored for 2 points; 1-card and 3-card cases are scored in the tests above.
    board = [(0, 0, "5♡"), (1, 0, "6♡"), (0, -1, "2♠"), (1, -1, "3♠"), (-1, 0, "4♠")]
    state = position(board, [["7♣", "2♣"], ["9♣", "3♢"]], tokens=[(1, 0, 1)], tokens_left=[7, 6])
    state = state.apply("7♣ @ 2,0")  # open cells left: 0,1 and 1,1 (L=2 <= 2 cards)
    state = state.apply("no token")
    state = state.apply("score ♡ area at 1,0")  # an opponent's area may be scored too
    assert state.scores() == [0, 2]


def test_completing_two_areas_at_once_earns_three_each_without_tokens() -> None:
    board = [
        (0, 0, "5♡"), (0, -1, "2♣"), (0, 1, "3♢"), (-1, 0, "4♣"),
        (2, 0, "9♠"), (2, -1, "2♢"), (2, 1, "3♣"), (3, 0, "4♢"),
    ]  # fmt: skip
    state = position(board, [["7♣", "2♣"], ["9♣", "3♢"]])
    state = state.apply("7♣ @ 1,0")
    assert area(state, 0, 0)["complete"] and area(state, 2, 0)["complete"]
    state = state.apply("no token")
    assert state.scores() == [6, 0]
    assert "completes 2 areas for 6 bonus points" in last_line(state)
    # seen by the player who acted, the verbs agree with "you"
    assert state.log()[-1].say(seat_names(2), 0).startswith(
        "You place no token; complete 2 areas for 6 bonus points; draw a card")


def test_a_token_can_be_placed_scored_and_returned_in_one_turn() -> None:
    board = [(0, -1, "2♣"), (1, 0, "3♢"), (0, 1, "4♣"), (-1, 0, "9♢")]
    state = position(board, [["5♡", "2♣"], ["9♣", "3♢"]], tokens_left=[7, 7])
    state = state.apply("5♡ @ 0,0")  # values 2..9: fills a hole, completing its own 1-card area
    state = state.apply("token")
    assert state.scores() == [3 + 1, 0]
    assert state.core.tokens == () and state.core.tokens_left == (7, 7)


def test_no_token_step_without_tokens_in_supply() -> None:
    state = position([(0, 0, "5♣")], [["K♡", "2♣"], ["2♠", "3♠"]], tokens_left=[0, 7])
    state = state.apply("K♡ @ 1,0")
    assert state.current_player == 1
    with pytest.raises(IllegalAction, match="play a card first"):
        state.apply("token")


def test_why_illegal_speaks_of_steps_and_areas() -> None:
    state = position([(0, 0, "5♡"), (1, 0, "6♠")], [["2♢", "3♣"], ["9♣", "3♢"]], tokens=[(0, 0, 1)])
    state = state.apply("2♢ @ 0,1")
    with pytest.raises(IllegalAction, match="now place a token on it, or not"):
        state.apply("3♣ @ 0,2")
    with pytest.raises(UnreadableAction, match="actions look like"):
        state.apply("pass")
    with pytest.raises(IllegalAction, match="decide on the token first"):
        state.apply("done")
    state = state.apply("no token")
    # the hearts area has L=2 (0,-1 and -1,0) for 1 card: not partially complete, so no scoring step
    assert state.current_player == 1
    with pytest.raises(IllegalAction, match="after you play a card"):
        state.apply("score ♡ area at 0,0")


# -- end of game (rules 17-18) and equal draws (rule 4) ------------------------------------------


def test_end_bonus_for_tokens_on_face_cards() -> None:
    board = [(0, 0, "K♡"), (1, 0, "2♣"), (2, 0, "A♢"), (3, 0, "5♡"), (4, 0, "J♠")]
    tokens = [(0, 0, 0), (2, 0, 1), (3, 0, 1), (4, 0, 0)]
    state = position(board, [["9♣"], ["8♣"]], deck=[], tokens=tokens, tokens_left=[0, 0], scores=[10, 11])
    state = state.apply("9♣ @ 0,1")
    state = state.apply("8♣ @ 4,1")
    assert state.is_terminal()
    # seat 0: K♡ and J♠ -> +6; seat 1: A♢ -> +3 (5♡ earns nothing)
    assert state.scores() == [16, 14]
    assert state.winners() == [0]
    assert "face-card bonus: Player 1 gets 6 and Player 2 gets 3" in last_line(state)
    assert state.log()[-1].facts["end_bonus"] == [6, 3]
    assert state.log()[-1].say(seat_names(2), 1).endswith("face-card bonus: Player 1 gets 6 and you get 3")


@pytest.mark.parametrize("players,removed,turns", [(2, 11, 46), (3, 13, 30), (4, 11, 23)])
def test_every_player_draws_and_plays_equally(players: int, removed: int, turns: int) -> None:
    assert auto_removed(players) == removed
    state = pyengine.new_game("cardcassonne", players, 5)
    assert state.core.removed.__len__() == removed
    assert len(state.core.deck) % players == 0
    assert len(state.core.deck) == 103 - removed - 3 * players
    rnd = random.Random(players)
    played: Counter[int] = Counter()
    for before, action in _history(state, rnd):
        if RULES.facts(before.core, action)["kind"] == "play":
            played[before.current_player] += 1  # type: ignore[index]
    assert set(played.values()) == {turns}


def test_stop_when_deck_empty_ends_with_equal_turns() -> None:
    state = pyengine.new_game("cardcassonne", 3, 8, {"end": "stop-when-deck-empty", "removed": 16})
    assert len(state.core.deck) == 103 - 16 - 9
    rnd = random.Random(1)
    played: Counter[int] = Counter()
    for before, action in _history(state, rnd):
        if RULES.facts(before.core, action)["kind"] == "play":
            played[before.current_player] += 1  # type: ignore[index]
    assert set(played.values()) == {(103 - 16 - 9) // 3}


def _history(start: State, rnd: random.Random) -> list[tuple[State, Any]]:
    *_, end = playout(start, rnd, 2000)
    assert end.is_terminal()
    return end.history()


def test_removed_counts_that_give_unequal_draws_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot share equally"):
        pyengine.new_game("cardcassonne", 2, 1, {"removed": 12})
    with pytest.raises(ValueError, match="removed 12"):
        pyengine.new_game("cardcassonne", 4, 1, {"removed": 12})
    assert RULES.info.allowed_players(3, {"removed": 13}) is None
    assert len(pyengine.new_game("cardcassonne", 4, 1, {"removed": 15, "tokens": 3}).core.removed) == 15
    assert pyengine.new_game("cardcassonne", 4, 1, {"tokens": 3}).core.tokens_left == (3, 3, 3, 3)


# -- hidden information -------------------------------------------------------------------------------


def test_views_hide_other_hands_the_pile_and_the_removed_cards() -> None:
    state = pyengine.new_game("cardcassonne", 3, 2)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    assert view["hand"] == [str(c) for c in state.core.hands[seat]]
    assert view["hand_counts"] == [3, 3, 3] and view["removed"] == 13 and view["draw_count"] == 81
    assert {facts["card"] for facts in view["moves"].values()} == set(view["hand"])
    public = state.view(None)
    assert public["hand"] is None and public["moves"] == {}
    other = state.view((seat + 1) % 3)
    assert other["moves"] == {}
    sample = state.sample_hidden(seat, Rng.from_seed(4))
    assert sample.core.hands[seat] == state.core.hands[seat]
    assert sample.core.board == state.core.board
    everything = Counter(c for h in sample.core.hands for c in h) + Counter(sample.core.deck + sample.core.removed)
    assert sum(everything.values()) == 103 and max(everything.values()) == 2


def test_evaluate_gives_chances_that_sum_to_one_and_favour_the_leader() -> None:
    state = position([(0, 0, "5♣")], [["K♡"], ["2♠"]], scores=[30, 0])
    chances = RULES.evaluate(state.core)
    assert chances is not None and abs(sum(chances) - 1) < 1e-9 and chances[0] > chances[1]


# -- positions: every field checked (hostile input) ------------------------------------------------------------------

FIGURE = dict(RULES.positions["figure-1"].position)


def refused(change: dict[str, Any], *words: str, players: int = 2, options: dict[str, Any] | None = None) -> str:
    """The short message refusing figure 1 with ``change`` (a None value drops the key); it names ``words``."""
    spec = {k: v for k, v in {**FIGURE, **change}.items() if v is not None}
    with pytest.raises(ValueError) as caught:
        pyengine.new_game("cardcassonne", players, 1, options, spec)
    message = str(caught.value)
    assert len(message) < 300, message
    for word in words:
        assert word in message, message
    return message


def test_the_figure_loads_with_every_card_in_one_zone() -> None:
    state = named_position("cardcassonne", "figure-1")
    core = state.core
    assert core.tokens_left == (6, 6) and core.points == (0, 0) and core.turn == 0
    zones = Counter(c for *_, c in core.board) + Counter(c for h in core.hands for c in h)
    zones += Counter(core.deck) + Counter(core.removed)
    assert sum(zones.values()) == 104 and set(zones.values()) == {2}
    assert len(core.removed) == 104 - 7 - 2 and not core.deck
    # tokens_left defaults to the supply less the tokens on the table
    spec = {k: v for k, v in FIGURE.items() if k != "tokens_left"}
    assert pyengine.new_game("cardcassonne", 2, 1, {"tokens": 4}, spec).core.tokens_left == (3, 3)


def test_a_card_named_a_third_time_is_refused() -> None:
    refused({"hands": [["2♣", "5♡", "5♡"], ["3♢", "4♢", "6♢"]]}, "'hands', hand 1", "third 5♡")
    refused({"deck": ["5♡"] * 60}, "'deck'", "third 5♡")
    refused({"hands": [["2♣"] * 500, ["3♢"]]}, "'hands', hand 1", "500 cards")
    refused({"hands": [["2♣"] * 3, ["3♢"] * 3]}, "'hands', hand 1", "third 2♣")
    refused({"hands": [["Jk"], ["3♢"]]}, "'hands', hand 1", "not a card of the game")
    refused({"board": [[0, 0, "5♡"], [1, 0, "5♡"], [2, 0, "5♡"]]}, "'board', entry 3", "third 5♡")


def test_removed_cards_when_given_complete_the_two_decks() -> None:
    state = named_position("cardcassonne", "figure-1")
    removed = [str(c) for c in state.core.removed]
    whole = pyengine.new_game("cardcassonne", 2, 1, None, {**FIGURE, "removed": removed})
    assert whole.core == state.core
    refused({"removed": removed[1:]}, "'removed'", "1 of the 104 cards")
    refused({"removed": [*removed, "5♡"]}, "'removed'", "third 5♡")


@pytest.mark.parametrize("owner", [99, -1, True, "0", 0.5])
def test_token_owners_are_seats(owner: object) -> None:
    refused({"tokens": [[0, 0, owner]]}, "'tokens', entry 1", "owner must be a seat 0..1")


def test_tokens_lie_one_per_occupied_cell_within_the_supply() -> None:
    refused({"tokens": [[5, 5, 0]]}, "'tokens', entry 1", "no card lies on cell 5,5")
    refused({"tokens": [[0, 0, 0], [0, 0, 1]]}, "'tokens', entry 2", "two tokens on cell 0,0")
    refused({"tokens_left": [7, 6]}, "'tokens_left'", "seat 0 would have 8 tokens")
    cells = [[x, y] for x, y, _ in FIGURE["board"]]
    refused({"tokens": [[*cells[i], 0] for i in range(5)]}, "'tokens'", "seat 0 has 5 tokens", options={"tokens": 4})
    # 9♢ at -1,0 closed in on every side is a complete area: its token would have been scored (rule 15)
    board = [[0, 0, "5♡"], [-1, 0, "9♢"], [-2, 0, "2♣"], [-1, -1, "3♣"], [-1, 1, "4♣"]]
    refused({"board": board, "tokens": [[-1, 0, 1]], "tokens_left": [7, 6]}, "'tokens'", "complete area")


@pytest.mark.parametrize("left", [[-1, 6], [6], [6, 6, 6], [], 5, [6, True], [6, 0.5], "66", {"0": 6}])
def test_tokens_left_is_one_count_per_seat(left: object) -> None:
    refused({"tokens_left": left}, "'tokens_left'")


@pytest.mark.parametrize("scores", [[1], [1, 2, 3], [], 5, [-1, 0], [0, 10**6], [0, 1.5], [False, 0]])
def test_scores_are_one_count_per_seat(scores: object) -> None:
    refused({"scores": scores}, "'scores'")


@pytest.mark.parametrize("value", [0.5, 1_000_000, -61, True, "1", None, 2**70])
def test_cells_are_small_whole_numbers(value: object) -> None:
    board = [list(entry) for entry in FIGURE["board"]]
    board[3][0] = value
    refused({"board": board}, "'board', entry 4", "x must be a whole number from -60 to 60")
    refused({"tokens": [[0, value, 0]]}, "'tokens', entry 1", "y must be a whole number")
    far = pyengine.new_game("cardcassonne", 2, 1, None, {**FIGURE, "board": [*FIGURE["board"], [60, -60, "K♠"]]})
    assert (60, -60) in far.core.table.at


def test_shapes_and_unknown_fields_are_named() -> None:
    refused({"bogus": [1] * 1000}, "'bogus'", "not part of a Card-cassonne position")
    refused({"Board": []}, "'Board'")
    refused({"board": None}, "'board' is missing")
    refused({"hands": None}, "'hands' is missing")
    refused({"board": []}, "'board' must be a list of 1 to 104")
    refused({"board": {"0": "5♡"}}, "'board' must be a list")
    refused({"board": [[0, 0]]}, "'board', entry 1 must be [x, y, card]")
    refused({"hands": [["2♣"]]}, "'hands' must be a list of 2 hands")
    refused({"hands": "2♣ 3♢"}, "'hands' must be a list of 2 hands")
    refused({"deck": "5♡"}, "'deck' must be a list of cards")
    refused({"tokens": [[0, 0]]}, "'tokens', entry 1 must be [x, y, owner]")
    refused({"turn": 2}, "'turn' must be a seat 0..1")
    refused({"turn": True}, "'turn'")
    message = refused({"hands": [["x" * 100_000], ["3♢"]]}, "'hands', hand 1", "not a card of the game")
    assert "x" * 41 not in message


def test_every_turn_until_the_end_has_a_card_to_play() -> None:
    refused({"hands": [[], []]}, "'hands'", "seat 0 would have no card to play now")
    refused({"hands": [[], ["3♢"]]}, "'hands'", "seat 0 would have no card to play now")
    refused({"hands": [["2♣"], []], "deck": ["3♣"]}, "'hands'", "seat 1 would have no card on a later turn")
    refused({"hands": [["2♣", "4♣"], ["3♢"]], "turn": 1}, "seat 1 would have no card on a later turn")
    three = {"hands": [["2♣"], [], ["3♣"]], "tokens_left": [6, 6, 7]}
    refused(three, "'hands'", "seat 1 would have no card on a later turn", players=3)
    # when the game stops with the draw pile, a seat never reached may hold nothing
    stop = {"end": "stop-when-deck-empty"}
    state = pyengine.new_game("cardcassonne", 2, 1, stop, {**FIGURE, "hands": [["2♣"], []], "deck": ["3♣"]})
    state = state.apply(state.legal_texts()[0])
    while not state.is_terminal():
        state = state.apply(state.legal_texts()[-1])
    assert state.core.hands == ((Card.parse("3♣"),), ())
    # the seat to play may be any seat that has a card
    assert pyengine.new_game("cardcassonne", 2, 1, None, {**FIGURE, "turn": 1}).current_player == 1


def test_records_with_bad_positions_are_refused_by_field() -> None:
    record = named_position("cardcassonne", "figure-1").apply("2♣ @ 0,-2").record()
    assert pyengine.replay(record).core.board[-1][:2] == (0, -2)
    for change, word in [
        ({"tokens_left": 5}, "'tokens_left'"),
        ({"tokens_left": []}, "'tokens_left'"),
        ({"scores": [1, 2, 3]}, "'scores'"),
        ({"hands": [[], []]}, "'hands'"),
    ]:
        bad = {**record, "position": {**record["position"], **change}}
        for load in (lambda bad=bad: pyengine.replay(bad), lambda bad=bad: pyengine.from_json(json.dumps(bad))):
            with pytest.raises(ValueError) as caught:
                load()
            assert "record field 'position'" in str(caught.value) and word in str(caught.value)


def test_the_rules_page_documents_the_position_format_and_its_example_loads() -> None:
    page = (Path(__file__).resolve().parents[1] / "web" / "rules" / "cardcassonne.html").read_text("utf-8")
    section = page[page.index("Position format") :]
    for name in FIELDS:
        assert f"<code>{name}</code>" in section, name
    example = json.loads(re.search(r"<pre>(.*?)</pre>", section, re.S).group(1))  # type: ignore[union-attr]
    state = pyengine.new_game("cardcassonne", 2, 0, None, example)
    assert state.current_player == 0 and state.scores() == [3, 0] and state.core.tokens == ((1, 0, 1),)
    assert len(state.core.removed) == 104 - 3 - 4 - 2
    assert area(state, 0, 0)["tokens"] == [[1, 0, 1]]


# -- renderer -------------------------------------------------------------------------------------------------


def render(state: State, seat: int | None, selection: tuple | None = None) -> str:
    return render_state(state, seat, selection)


def test_renderer_highlights_the_cells_of_the_chosen_card() -> None:
    state = position(HEARTS_GAP, [["7♠", "K♡"], ["2♠"]])
    page = render(state, 0)
    assert 'class="cc-board zoomable fits-screen' in page and "--cc-cols:5" in page
    assert f'data-select="{esc(selecting(("shown", False, "7♠")))}"' in page
    assert "data-action=" not in page.split("cc-board")[1].split("cc-hand")[0]
    chosen = render(state, 0, ("shown", False, "7♠"))
    assert 'data-action="7♠ @ 1,0"' in chosen and "target" in chosen
    assert 'data-action="K♡ @ 1,0"' not in render(state, 0, ("shown", False, "K♡"))


def test_renderer_lets_a_grid_wider_than_tall_be_drawn_turned() -> None:
    """Every place of the grid carries its column and row (the style draws the grid turned a quarter from them), and
    a grid wider than tall says so (the page turns it where a narrow screen holds too few of its columns), with the
    words that tell a player it is turned."""
    page = render(position(HEARTS_GAP, [["7♠", "K♡"], ["2♠"]]), 0, ("shown", False, "7♠"))
    cols, rows = map(int, re.search(r"--cc-cols:(\d+);--cc-rows:(\d+)", page).groups())
    assert cols > rows and 'class="cc-board zoomable fits-screen turnable"' in page
    assert "turned a quarter" in page.split("</section>")[-1]
    places = re.findall(r'style="--c:(\d+);--r:(\d+)"', page)
    assert sorted((int(c), int(r)) for c, r in places) == [(c, r) for c in range(cols) for r in range(rows)]
    tall = render(position([(0, 0, "5♡"), (0, 1, "3♠"), (0, 2, "4♠")], [["7♠", "K♡"], ["2♠"]]), 0)
    assert 'class="cc-board zoomable fits-screen"' in tall and "turned a quarter" not in tall


def test_renderer_shows_areas_tokens_and_open_counts_on_demand() -> None:
    state = position([(0, 0, "5♡"), (1, 0, "6♡"), (2, 0, "8♣")], [["2♠"], ["3♠"]], tokens=[(1, 0, 1)])
    page = render(state, 0)
    assert "L = 5 open cells" in page and "token of Player 2" in page
    assert 'class="cc-token seat-1"' in page and ">2</span>" in page
    assert "L5" not in page
    shown = render(state, 0, ("shown", True, None))
    assert "L5" in shown and "L3" in shown
    assert f'data-select="{esc(selecting(("shown", True, "2♠")))}"' in shown


def test_renderer_offers_token_and_scoring_choices() -> None:
    board = [(0, 0, "5♡"), (0, -1, "5♣"), (1, 0, "6♠")]
    state = position(board, [["5♢", "2♣"], ["9♣", "3♢"]], tokens=[(0, 0, 1)])
    state = state.apply("5♢ @ -1,0")
    page = render(state, 0)
    assert 'data-action="token"' in page and 'data-action="no token"' in page
    assert 'data-action="token"' not in render(state, 1)
    state = state.apply("no token")
    page = render(state, 0)
    assert 'data-action="score ♡ area at 0,0"' in page and 'data-action="done"' in page
    assert "cc-scorable" in page
    assert "Score the ♡ area of 5♡ (1 card): 1 per token (Player 2)" in page
    moves = state.view(0)["moves"]
    assert moves["score ♡ area at 0,0"] == {
        "kind": "score", "suit": "♡", "x": 0, "y": 0, "area": 0, "card": "5♡", "value": 1,
    }


def test_the_rules_page_figure_shows_a_partially_complete_area() -> None:
    state = named_position("cardcassonne", "figure-1")
    assert state.players == 2
    hearts = area(state, 0, 0)
    assert (hearts["size"], hearts["open"], hearts["partial"], hearts["value"]) == (2, 1, True, 2)
    page = render(state, None)
    assert "token of Player 1" in page and "data-action" not in page


def test_areas_kept_card_by_card_match_a_fresh_search() -> None:
    """The engine updates areas and open cells incrementally; a plain flood fill must agree."""
    rnd = random.Random(9)
    for state in playout(pyengine.new_game("cardcassonne", 4, 9), rnd, 400):
        table = state.core.table
        at = table.at
        for cell, card in at.items():
            cells, open_cells, stack = {cell}, set(), [cell]
            while stack:
                x, y = stack.pop()
                for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if n not in at:
                        open_cells.add(n)
                    elif n not in cells and at[n].suit == card.suit:
                        cells.add(n)
                        stack.append(n)
            assert table.areas[cell].cells == cells and table.areas[cell].open == open_cells
        frontier = {n for x, y in at for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n not in at}
        assert set(table.frontier) == frontier
