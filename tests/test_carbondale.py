"""Carbondale: golden scenarios of the rules page's numbered rules, the figure, the log and the renderer."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cardtable_web.drawing import render_state, render_view
from cardtable_web.html import esc, selecting

from pyengine.cards import Card
from pyengine.core import IllegalAction, RefusedAction, State, named_position, new_game
from pyengine.games.carbondale import (
    FIGURE_1,
    ROUND_LIMIT,
    RULES,
    CarbondaleState,
    build_limit,
    network,
)
from pyengine.games.carbondale.position import NETWORK_ENTRY_FIELDS, POSITION_FIELDS
from pyengine.games.carbondale.state import DECK
from pyengine.rng import Rng
from pyengine.words import Entry, seat_names

DEFAULT = {"any_black_to_red": False}
VARIANT = {"any_black_to_red": True}


def card(text: str) -> Card:
    return Card.parse(text)


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(sorted(card(t) for t in texts))


def start(x: int = 0, y: int = 0) -> list[dict[str, Any]]:
    """The starting pair A♣ (west) and 2♠."""
    return [{"card": "A♣", "x": x, "y": y, "start": True}, {"card": "2♠", "x": x + 1, "y": y, "start": True}]


def put(text: str, x: int, y: int, sx: int, sy: int) -> dict[str, Any]:
    return {"card": text, "x": x, "y": y, "from": [sx, sy]}


def table(
    networks: list[list[dict[str, Any]]],
    hands: list[list[str]],
    *,
    options: dict[str, Any] | None = None,
    current: int = 0,
    **changes: Any,
) -> State:
    """A state built from a position, with any core fields replaced."""
    players = len(hands)
    opts = dict(options or DEFAULT)
    core = RULES.load_position(players, opts, {"networks": networks, "hands": hands, "current": current})
    core = replace(core, **changes)
    return State(RULES, players, opts, 0, core)


def why(state: State, text: str) -> str:
    """Why ``text`` is refused now (the engine's message; unreadable, or illegal now)."""
    with pytest.raises(RefusedAction) as refused:
        state.apply(text)
    return str(refused.value)


def said(state: State, you: int | None = None, index: int = -1) -> str:
    """A log entry of ``state`` as seat ``you`` reads it (names Player 1, Player 2, ...)."""
    entry = state.log()[index]
    assert isinstance(entry, Entry)
    return entry.say(seat_names(state.players), you)


def core_of(state: State) -> CarbondaleState:
    assert isinstance(state.core, CarbondaleState)
    return state.core


# -- setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_starting_pairs_segments_and_four_cards(players: int) -> None:
    core = core_of(new_game("carbondale", players, 11))
    for net in core.networks:
        assert [(p.x, p.y) for p in net] == [(0, 0), (1, 0)]
        assert {str(p.card) for p in net} in ({"A♠", "2♣"}, {"A♣", "2♠"})
        assert net[0].card.rank == 1 and all(p.start for p in net)  # the ace lies west
    assert all(len(hand) == 4 for hand in core.hands)
    assert all(c.rank <= 4 for hand in core.hands for c in hand)
    assert len(core.pile) == 14 * players - 4 * players and all(c.rank <= 4 for c in core.pile)
    assert sorted({c.rank for c in core.spares[0]}) == [5, 6, 7] and len(core.spares[0]) == 12 * players
    assert sorted({c.rank for c in core.spares[1]}) == [8, 9, 10] and len(core.spares[1]) == 12 * players
    everything = [p.card for n in core.networks for p in n] + [c for h in core.hands for c in h] + list(core.pile)
    everything += [c for s in core.spares for c in s]
    assert len(everything) == 40 * players


def test_first_player_is_random_and_a_seed_deals_the_same_game() -> None:
    firsts = {core_of(new_game("carbondale", 4, seed)).current for seed in range(30)}
    assert len(firsts) > 1
    assert new_game("carbondale", 3, 5).core == new_game("carbondale", 3, 5).core


# -- the build table -----------------------------------------------------------------------

TABLE_ROWS = [
    # source, highest legal, lowest illegal (or None: the whole suit pair is forbidden)
    ("3♣", "5♣", "6♣"),  # ♣ -> ♣: N+2
    ("3♠", "5♠", "6♠"),  # ♠ -> ♠: N+2
    ("3♣", "4♠", "5♠"),  # ♣ -> ♠: N+1
    ("3♠", "4♣", "5♣"),  # ♠ -> ♣: N+1
    ("3♣", "3♡", "4♡"),  # ♣ -> ♡: N
    ("3♠", "3♢", "4♢"),  # ♠ -> ♢: N
]


def _source_table(source: str, hand: list[str], options: dict[str, Any] | None = None) -> State:
    """A network with ``source`` at (0,1), built north of the starting A♣ or 2♠ column."""
    x = 0 if source.endswith("♣") else 1
    net = start() + [put(source, x, 1, x, 0)]
    return table([net, start()], [hand, ["9♣", "9♠", "9♡", "9♢"]], options=options)


@pytest.mark.parametrize("source,highest,too_high", TABLE_ROWS)
def test_build_table_row_by_row(source: str, highest: str, too_high: str) -> None:
    x = 0 if source.endswith("♣") else 1
    state = _source_table(source, [highest, too_high, "10♢"])
    legal = state.legal_texts()
    assert f"build {highest} at {x},2 north of {source}" in legal
    assert f"build {too_high} at {x},2 north of {source}" not in legal
    assert "card only up to" in why(state, f"build {too_high} at {x},2 north of {source}")
    assert build_limit(card(source), card(highest)) == card(highest).rank


@pytest.mark.parametrize("source,red", [("3♣", "2♢"), ("3♠", "2♡")])
def test_clubs_build_only_hearts_and_spades_only_diamonds_unless_the_variant(source: str, red: str) -> None:
    x = 0 if source.endswith("♣") else 1
    text = f"build {red} at {x},2 north of {source}"
    state = _source_table(source, [red, "10♢"])
    assert text not in state.legal_texts()
    assert "cannot be built from" in why(state, text)
    variant = _source_table(source, [red, "10♢"], VARIANT)
    assert text in variant.legal_texts()
    assert build_limit(card(source), card(red), True) == 3 and build_limit(card(source), card(red)) is None


def test_red_cards_share_a_cell_but_are_never_sources_and_black_needs_an_empty_cell() -> None:
    net = start() + [put("3♣", 0, 1, 0, 0), put("2♡", -1, 1, 0, 1)]
    state = table([net, start()], [["3♡", "3♠", "2♣", "10♢"], ["9♣"]])
    legal = state.legal_texts()
    assert "build 3♡ at -1,1 west of 3♣" in legal  # a second red in the cell
    assert "build 2♣ at -1,1 west of 3♣" not in legal  # a black card needs an empty cell
    assert not any(" of 2♡" in text for text in legal)  # red cards are never sources
    assert "only into an empty place" in why(state, "build 2♣ at -1,1 west of 3♣")
    full = state.apply("build 3♡ at -1,1 west of 3♣").apply("contribute 10♢")
    core = core_of(full)
    assert len(network(core.networks[0]).cells[(-1, 1)]) == 2


def test_the_network_fits_five_by_five() -> None:
    # five wide: -2..2
    net = start() + [put("2♣", -1, 0, 0, 0), put("3♣", -2, 0, -1, 0), put("3♠", 2, 0, 1, 0)]
    state = table([net, start()], [["4♣", "4♠", "10♢"], ["9♣"]])
    legal = state.legal_texts()
    assert "build 4♣ at -3,0 west of 3♣" not in legal
    assert "build 4♠ at 3,0 east of 3♠" not in legal
    assert "build 4♠ at 2,1 north of 3♠" in legal
    assert "wider or taller" in why(state, "build 4♠ at 3,0 east of 3♠")


def test_a_build_needs_a_card_left_to_contribute() -> None:
    state = table([start(), start()], [["2♣"], ["9♣"]])
    assert not any(t.startswith("build") for t in state.legal_texts())
    assert "contribute" in why(state, "build 2♣ at 0,1 north of A♣")
    state = table([start(), start()], [["2♣", "9♢"], ["9♣"]])
    after = state.apply("build 2♣ at 0,1 north of A♣")
    assert after.legal_texts() == ["contribute 9♢"]
    after = after.apply("contribute 9♢")
    assert [str(c) for c in core_of(after).stock] == ["9♢"]


# -- the figure ------------------------------------------------------------------------------


def _figure(hand: list[str] | None = None) -> State:
    state = new_game("carbondale", 2, 1, VARIANT, FIGURE_1.position)
    if hand is not None:
        core = core_of(state)
        state = State(RULES, 2, VARIANT, 1, replace(core, hands=(cards(*hand), core.hands[1])))
    return state


def test_figure_1_is_five_wide_three_tall_with_exactly_four_vulnerable_cards() -> None:
    state = _figure()
    net = state.view(None)["networks"][0]
    assert (net["width"], net["height"]) == (5, 3)
    vulnerable = sorted(c["card"] for cell in net["cells"] for c in cell["cards"] if c["vulnerable"])
    assert vulnerable == sorted(["3♢", "4♡", "6♢", "5♠"])
    starts = sorted(c["card"] for cell in net["cells"] for c in cell["cards"] if c["start"])
    assert starts == ["2♠", "A♣"]
    shared = [cell for cell in net["cells"] if len(cell["cards"]) == 2]
    assert sorted(sorted(c["card"] for c in cell["cards"]) for cell in shared) == [["2♡", "2♢"], ["3♡", "5♡"]]
    two_diamonds = next(c for cell in shared for c in cell["cards"] if c["card"] == "2♢")
    assert two_diamonds["dir"] == "west" and two_diamonds["from"] == [1, 1]
    assert (net["hearts"], net["diamonds"]) == (4, 3)


def test_figure_1_allows_a_4_of_spades_south_of_the_2_of_spades() -> None:
    state = _figure(["4♠", "9♣"])
    assert "build 4♠ at 0,-1 south of 2♠" in state.legal_texts()
    after = state.apply("build 4♠ at 0,-1 south of 2♠")
    assert after.view(None)["networks"][0]["height"] == 4


def test_figure_1_loads_without_the_variant_too() -> None:
    state = new_game("carbondale", 2, 1, DEFAULT, FIGURE_1.position)
    assert state.view(None)["networks"][0]["width"] == 5


# -- claims --------------------------------------------------------------------------------

CLUB_TARGET = start() + [put("3♣", 0, 1, 0, 0)]  # 3♣ alone on the starting A♣: vulnerable


def test_claiming_a_3_of_clubs_needs_a_black_5_or_higher() -> None:
    state = table([start(), CLUB_TARGET], [["4♣", "4♠", "5♡", "5♠", "6♣"], ["9♣"]])
    claims = [t for t in state.legal_texts() if t.startswith("claim")]
    assert claims == ["claim 3♣ at 0,1 from P2 with 5♠", "claim 3♣ at 0,1 from P2 with 6♣"]
    assert "black card of a 5 or higher" in why(state, "claim 3♣ at 0,1 from P2 with 4♠")
    assert "black card of a 5" in why(state, "claim 3♣ at 0,1 from P2 with 5♡")
    assert "not vulnerable" in why(state, "claim A♣ at 0,0 from P2 with 5♠")
    with pytest.raises(IllegalAction, match="only from an opponent's network"):
        state.apply("claim 3♣ at 0,1 from P1 with 5♠")


def test_a_defended_claim_fails_and_both_cards_go_face_down_then_a_second_try() -> None:
    state = table([start(), CLUB_TARGET], [["5♠", "6♣", "7♣", "2♡"], ["4♠", "5♣", "8♠", "9♡"]])
    state = state.apply("claim 3♣ at 0,1 from P2 with 5♠")
    assert state.current_player == 1
    assert state.legal_texts() == ["defend with 5♣", "defend with 8♠", "decline"]
    assert state.view(0)["pending"]["challenge"] == "5♠"
    state = state.apply("defend with 5♣")
    core = core_of(state)
    assert state.current_player == 0 and core.pending is None
    assert core.discards == cards("5♠", "5♣") and state.view(0)["discard_count"] == 2
    assert core.hands[1] == cards("4♠", "8♠", "9♡") and core.hands[0] == cards("6♣", "7♣", "2♡")
    assert any(p.card == card("3♣") for p in core.networks[1])
    # the second attempt, defended again: no third
    state = state.apply("claim 3♣ at 0,1 from P2 with 6♣").apply("defend with 8♠")
    assert not any(t.startswith("claim") for t in state.legal_texts())
    assert "two claim attempts" in why(state, "claim 3♣ at 0,1 from P2 with 7♣")


def test_an_undefended_claim_moves_the_card_to_the_challenger_and_it_can_be_built() -> None:
    target = start() + [put("3♠", 1, 1, 1, 0), put("4♠", 1, 2, 1, 1)]
    state = table([start(), target], [["6♠", "9♢", "2♡"], ["9♡"]])
    assert core_of(state).networks[1][2].card == card("3♠")
    assert not RULES.view(state.core, 0)["networks"][1]["cells"][2]["cards"][0]["vulnerable"]
    state = state.apply("claim 4♠ at 1,2 from P2 with 6♠")
    assert state.legal_texts() == ["decline"]
    state = state.apply("decline")
    core = core_of(state)
    assert core.hands[0] == cards("4♠", "9♢", "2♡") and core.discards == cards("6♠") and core.claimed
    assert all(p.card != card("4♠") for p in core.networks[1])
    # the 3♠ has nothing built on it any more: vulnerable again
    assert [str(p.card) for p in network(core.networks[1]).vulnerable] == ["3♠"]
    # no second attempt after a success, but the claimed card may be built
    legal = state.legal_texts()
    assert not any(t.startswith("claim") for t in legal)
    assert "a second attempt follows only a failed one" in why(state, "claim 3♠ at 1,1 from P2 with 9♢"
    )
    assert "build 4♠ at 1,1 north of 2♠" in legal
    assert said(state) == "Player 2 does not defend; Player 1 takes 4♠"
    assert said(state, you=1) == "You do not defend; Player 1 takes 4♠"
    assert said(state, you=0) == "Player 2 does not defend; you take 4♠"
    assert state.log()[-1].facts == {
        "kind": "decline", "owner": 1, "taker": 0, "target": "4♠", "x": 1, "y": 2, "challenge": "6♠"
    }


def test_claims_come_before_building_or_discarding() -> None:
    state = table([start(), CLUB_TARGET], [["5♠", "6♣", "9♢"], ["9♡"]])
    state = state.apply("discard 9♢ face down")
    assert not any(t.startswith("claim") for t in state.legal_texts())
    assert "claims come first" in why(state, "claim 3♣ at 0,1 from P2 with 5♠")


# -- builds, bonus and discards -----------------------------------------------------------------


def test_a_one_step_club_or_spade_climb_earns_an_extra_card() -> None:
    state = table([start(), start()], [["2♣", "9♢", "9♡"], ["9♣"]])
    state = state.apply("build 2♣ at 0,1 north of A♣")
    assert core_of(state).draw_to == 5 and "extra card" in said(state) and state.log()[-1].facts["bonus"]
    state = state.apply("contribute 9♢")
    for _ in range(4):  # 1 card in hand: draw four, one at a time
        assert core_of(state).current == 0
        state = state.apply("draw from pile")
    core = core_of(state)
    assert len(core.hands[0]) == 5 and core.current == 1 and core.draw_to == 4


def test_a_two_step_climb_or_a_cross_build_earns_nothing() -> None:
    state = table([start(), start()], [["3♣", "A♠", "9♢"], ["9♣"]])
    assert core_of(state.apply("build 3♣ at 0,1 north of A♣")).draw_to == 4
    assert core_of(state.apply("build A♠ at 0,1 north of A♣")).draw_to == 4
    assert core_of(table([start(), start()], [["4♠", "9♢"], ["9♣"]]).apply("build 4♠ at 1,1 north of 2♠")).draw_to == 4


def test_discards_go_face_up_to_the_stock_or_face_down_and_block_building() -> None:
    state = table([start(), start()], [["2♣", "3♣", "9♢", "9♡", "8♠"], ["9♣"]])
    state = state.apply("discard 9♢ face up").apply("discard 9♡ face down")
    core = core_of(state)
    assert core.stock == cards("9♢") and core.discards == cards("9♡")
    legal = state.legal_texts()
    assert not any(t.startswith("build") for t in legal)
    assert "discard 8♠ face up" in legal and "take 9♢ from stock" not in legal
    assert said(state) == "Player 1 discards a card face down" and said(state, you=0) == "You discard a card face down"
    assert state.log()[-1].facts == {"kind": "discard", "face_up": False}
    assert "9♡" not in " ".join(said(state, index=i) for i in range(len(state.log())))
    assert "9♡" not in str([entry.to_json() for entry in state.log()])  # the log is public
    view = state.view(1)
    assert view["discard_count"] == 1 and view["stock"] == [{"card": "9♢", "fresh": True}]


# -- drawing -------------------------------------------------------------------------------------


def test_draws_come_one_at_a_time_from_the_pile_or_stock_never_a_fresh_or_face_down_card() -> None:
    state = table(
        [start(), start()],
        [["9♢", "9♡", "8♠", "7♠"], ["9♣"]],
        stock=cards("5♣", "6♡"),
        discards=cards("10♣"),
    )
    state = state.apply("discard 9♢ face up").apply("discard 9♡ face up")
    legal = state.legal_texts()
    assert "take 5♣ from stock" in legal and "take 6♡ from stock" in legal
    assert "take 9♢ from stock" not in legal and "take 10♣ from stock" not in legal
    assert "may not draw it back" in why(state, "take 9♢ from stock")
    assert "no 10♣ in the communal stock" in why(state, "take 10♣ from stock")
    assert "must first draw" in why(state, "end turn")
    state = state.apply("take 6♡ from stock")
    assert core_of(state).phase == "draw" and not any(t.startswith("discard") for t in state.legal_texts())
    pile = core_of(state).pile
    state = state.apply("draw from pile")
    core = core_of(state)
    assert core.current == 1 and card("6♡") in core.hands[0] and pile[-1] in core.hands[0]
    assert core.stock == cards("5♣", "9♡", "9♢") and core.fresh == ()
    # the next player may take what the last one put down
    assert "take 9♢ from stock" in state.legal_texts()


def test_a_full_hand_draws_nothing_and_ends_the_turn() -> None:
    state = table([start(), start()], [["9♢", "9♡", "8♠", "7♠"], ["9♣"]])
    legal = state.legal_texts()
    assert "end turn" in legal and "draw from pile" not in legal
    assert "draw nothing" in why(state, "draw from pile")
    assert core_of(state.apply("end turn")).current == 1


def test_the_draw_pile_is_re_formed_only_when_someone_draws_from_it_empty() -> None:
    spare_a, spare_b = cards("5♣", "6♣", "7♣"), cards("8♣", "9♣")
    state = table(
        [start(), start()],
        [["9♢", "9♡"], ["9♣"]],
        pile=(card("3♡"),),
        spares=(spare_a, spare_b),
        stock=cards("4♣"),
        discards=cards("10♡", "10♢"),
    )
    state = state.apply("draw from pile")  # the last card: no re-forming yet
    core = core_of(state)
    assert core.pile == () and core.spares == (spare_a, spare_b) and core.stock == cards("4♣")
    state = state.apply("draw from pile")  # now the pile is empty: re-form, then draw
    core = core_of(state)
    assert core.spares == (spare_b,) and core.stock == () and core.discards == ()
    assert len(core.pile) == 3 + 1 + 2 - 1 and core.current == 1
    drawn = [c for c in core.hands[0] if c not in cards("9♢", "9♡", "3♡")]
    assert sorted(list(core.pile) + drawn) == sorted(spare_a + cards("4♣", "10♡", "10♢"))
    assert "re-formed" in said(state) and state.log()[-1].facts == {"kind": "draw", "reformed": True}


def test_taking_from_the_stock_with_an_empty_pile_does_not_re_form_it() -> None:
    state = table([start(), start()], [["9♢", "9♡", "8♠"], ["9♣"]], pile=(), stock=cards("4♣"))
    spares = core_of(state).spares
    state = state.apply("take 4♣ from stock")
    assert core_of(state).spares == spares and core_of(state).pile == ()


def test_with_nothing_left_to_draw_the_turn_can_only_end() -> None:
    state = table([start(), start()], [["9♢"], ["9♣"]], pile=(), spares=(), stock=(), discards=())
    assert state.legal_texts() == ["discard 9♢ face up", "discard 9♢ face down", "end turn"]
    assert "nothing to re-form" in why(state, "draw from pile")


def test_cards_put_down_this_turn_stay_out_of_a_re_formed_pile() -> None:
    # rule 17: with everything else empty, the contributed 9♢ may not come straight back (rule 16)
    state = table([start(), start()], [["2♣", "9♢"], ["9♣"]], pile=(), spares=(), stock=(), discards=())
    state = state.apply("build 2♣ at 0,1 north of A♣").apply("contribute 9♢")
    core = core_of(state)
    assert core.current == 1 and core.hands[0] == () and core.stock == cards("9♢")  # nothing to draw: turn over
    assert "take 9♢ from stock" in state.legal_texts()  # the next player may take it
    # a discard alone cannot re-form the pile either
    state = table([start(), start()], [["9♢"], ["9♣"]], pile=(), spares=(), stock=(), discards=())
    state = state.apply("discard 9♢ face up")
    assert state.legal_texts() == ["end turn"]
    assert "the cards you put down this turn stay out of it" in why(state, "draw from pile")
    # the same with a face-down discard and a card to re-form from: only that card is drawn
    state = table([start(), start()], [["2♣", "9♢"], ["9♣"]], pile=(), spares=(), stock=(), discards=cards("5♡"))
    state = state.apply("build 2♣ at 0,1 north of A♣").apply("contribute 9♢")
    assert state.legal_texts() == ["draw from pile"]
    state = state.apply("draw from pile")
    core = core_of(state)
    assert core.hands[0] == cards("5♡") and core.stock == cards("9♢") and core.pile == () and core.current == 1
    assert "not the cards put down this turn" in said(state)
    # discards, face up and face down, stay out too and join the stock and the discards afterwards
    state = table([start(), start()], [["9♢", "9♡", "8♠"], ["9♣"]], pile=(), spares=(), stock=cards("4♣"),
                  discards=cards("10♡"))
    state = state.apply("discard 9♢ face up").apply("discard 9♡ face down").apply("discard 8♠ face down")
    state = state.apply("draw from pile")
    core = core_of(state)
    assert sorted(core.hands[0] + core.pile) == sorted(cards("4♣", "10♡"))
    assert core.stock == cards("9♢") and core.discards == cards("9♡", "8♠") and core.buried == core.discards
    state = state.apply("draw from pile")  # the last re-formed card; nothing else may be drawn: the turn ends
    core = core_of(state)
    assert core.hands[0] == cards("4♣", "10♡") and core.current == 1 and core.buried == () and core.fresh == ()
    assert core.discards == cards("9♡", "8♠") and core.stock == cards("9♢")  # now in the discards and stock as usual
    assert "take 9♢ from stock" in state.legal_texts()


def test_a_challenge_card_put_down_this_turn_stays_out_of_a_re_formed_pile() -> None:
    state = table([start(), CLUB_TARGET], [["5♠", "2♡"], ["6♣", "9♡"]], pile=(), spares=(), stock=(),
                  discards=cards("7♢"))
    state = state.apply("claim 3♣ at 0,1 from P2 with 5♠").apply("defend with 6♣")
    core = core_of(state)
    assert core.discards == cards("5♠", "6♣", "7♢") and core.buried == cards("5♠")
    state = state.apply("discard 2♡ face down").apply("draw from pile")
    core = core_of(state)  # 7♢ and the defender's 6♣ were re-formed; the 5♠ and 2♡ stay face down
    assert core.discards == cards("5♠", "2♡") and sorted(core.hands[0] + core.pile) == sorted(cards("6♣", "7♢"))


# -- the end -------------------------------------------------------------------------------------

HEART_TOWN = start() + [
    put("3♣", 0, 1, 0, 0),
    put("5♣", 0, 2, 0, 1),
    put("7♣", 0, 3, 0, 2),
    put("A♡", -1, 1, 0, 1),
    put("2♡", -1, 1, 0, 1),
    put("3♡", -1, 2, 0, 2),
    put("4♡", -1, 2, 0, 2),
    put("5♡", -1, 3, 0, 3),
    put("6♡", -1, 3, 0, 3),
    put("A♢", 2, 0, 1, 0),
    put("2♢", 2, 0, 1, 0),
]


def test_seven_hearts_and_three_diamonds_win_at_once() -> None:
    town = HEART_TOWN + [put("2♢", 1, -1, 1, 0)]
    state = table([town, start()], [["7♡", "9♠"], ["9♣"]])
    assert state.scores() == [9, 0]
    state = state.apply("build 7♡ at 1,3 east of 7♣")
    assert state.is_terminal() and state.winners() == [0] and state.legal_texts() == []
    assert core_of(state).hands[0] == cards("9♠")  # no contribution after the winning build
    assert state.scores() == [10, 0]
    assert said(state).endswith(". Player 1 wins with 7 of one red suit and 3 of the other!")
    assert said(state, you=0).endswith("You win with 7 of one red suit and 3 of the other!")
    assert state.log()[-1].facts["ending"] == "goal" and state.log()[-1].facts["winners"] == [0]
    assert RULES.evaluate(state.core) == [1.0, 0.0]


def test_seven_hearts_and_two_diamonds_is_not_yet_a_win() -> None:
    state = table([HEART_TOWN, start()], [["7♡", "9♠"], ["9♣"]])
    state = state.apply("build 7♡ at 1,3 east of 7♣")
    assert not state.is_terminal() and state.legal_texts() == ["contribute 9♠"]


def test_seven_diamonds_and_three_hearts_win_too() -> None:
    town = start() + [
        put("4♠", 1, 1, 1, 0),
        put("6♠", 1, 2, 1, 1),
        put("8♠", 1, 3, 1, 2),
        put("A♢", 2, 1, 1, 1),
        put("2♢", 2, 1, 1, 1),
        put("3♢", 2, 2, 1, 2),
        put("4♢", 2, 2, 1, 2),
        put("5♢", 2, 3, 1, 3),
        put("6♢", 2, 3, 1, 3),
        put("3♣", 0, 1, 0, 0),
        put("2♡", -1, 1, 0, 1),
        put("3♡", -1, 1, 0, 1),
        put("A♡", -1, 0, 0, 0),
    ]
    state = table([start(), town], [["9♣"], ["7♢", "9♠"]], current=1)
    state = state.apply("build 7♢ at 0,3 west of 8♠")
    assert state.is_terminal() and state.winners() == [1]


def test_the_stalemate_guard_ends_the_game_after_three_rounds_without_a_build() -> None:
    hearts = start() + [put("3♣", 0, 1, 0, 0), put("2♡", -1, 1, 0, 1)]
    full = ["9♢", "9♡", "8♠", "7♠"]
    state = table([hearts, start()], [full, list(full)], spares=(), idle=4)
    state = state.apply("end turn")
    assert not state.is_terminal() and core_of(state).idle == 5
    state = state.apply("end turn")  # six turns = three rounds of two players
    assert state.is_terminal() and state.winners() == [0] and core_of(state).ending == "stalemate"
    assert "Three rounds without a build" in said(state) and said(state).endswith("best progress: Player 1")
    # ties are shared
    tie = table([start(), start()], [full, list(full)], spares=(), idle=5)
    assert tie.apply("end turn").winners() == [0, 1]


def test_a_build_resets_the_stalemate_count_and_it_waits_for_both_spare_piles() -> None:
    state = table([start(), start()], [["2♣", "9♢", "9♡", "8♠"], ["9♣"]], spares=(), idle=5)
    state = state.apply("build 2♣ at 0,1 north of A♣").apply("contribute 9♢")
    for _ in range(3):  # a bonus build: up to five cards
        state = state.apply("draw from pile")
    assert core_of(state).current == 1 and core_of(state).idle == 0
    spare = (cards("5♣"),)
    waiting = table([start(), start()], [["9♢", "9♡", "8♠", "7♠"], ["9♣"]], spares=spare, idle=0)
    assert core_of(waiting.apply("end turn")).idle == 0


def test_the_stalemate_count_starts_after_the_turn_that_brings_in_the_last_spare_pile() -> None:
    full = ["9♢", "9♡", "8♠", "7♠"]
    state = table([start(), start()], [["9♢", "9♡", "8♠"], list(full)], pile=(), spares=(cards("5♣", "6♣"),),
                  stock=(), discards=(), idle=0)
    state = state.apply("draw from pile")  # the last spare pile comes in, after this turn's chance to build
    core = core_of(state)
    assert core.spares == () and core.current == 1 and core.idle == 0 and not core.last_spare_in
    for turn in range(1, 6):
        state = state.apply("end turn")
        assert not state.is_terminal() and core_of(state).idle == turn
    state = state.apply("end turn")  # three full rounds after the spare pile came in
    assert state.is_terminal() and core_of(state).ending == "stalemate"


def test_the_round_limit_ends_any_game() -> None:
    full = ["9♢", "9♡", "8♠", "7♠"]
    state = table([start(), start()], [full, list(full)], turns=2 * ROUND_LIMIT - 1)
    state = state.apply("end turn")
    assert state.is_terminal() and core_of(state).ending == "limit" and state.winners() == [0, 1]
    assert RULES.info.max_actions(4) >= 4 * ROUND_LIMIT * 14


# -- information ---------------------------------------------------------------------------------


def test_views_hide_hands_piles_and_face_down_cards() -> None:
    state = table([start(), CLUB_TARGET], [["5♠", "6♣", "9♢"], ["9♡", "8♡"]], discards=cards("10♣"))
    public, mine = state.view(None), state.view(0)
    assert public["hand"] is None and mine["hand"] == ["5♠", "6♣", "9♢"]
    assert public["hand_counts"] == [3, 2] and public["discard_count"] == 1
    assert "10♣" not in str(public) and "9♡" not in str(mine)
    assert isinstance(public["draw_count"], int) and public["spares"] == [22, 21]


def test_sample_hidden_keeps_the_view_and_the_spare_piles_segments() -> None:
    state = new_game("carbondale", 3, 8)
    for seat in (None, 0, 1, 2):
        sample = state.sample_hidden(seat, Rng.from_seed(3))
        assert sample.view(seat) == state.view(seat)
        core = core_of(sample)
        assert {c.rank for c in core.spares[0]} == {5, 6, 7} and {c.rank for c in core.spares[1]} == {8, 9, 10}
    assert core_of(state.sample_hidden(0, Rng.from_seed(3))).hands[0] == core_of(state).hands[0]


def test_evaluate_favours_progress() -> None:
    state = table([HEART_TOWN, start()], [["9♠"], ["9♣"]])
    values = RULES.evaluate(state.core)
    assert values[0] > values[1] and all(0.0 <= v <= 1.0 for v in values)
    assert abs(sum(values) - 1.0) < 1e-9


def test_why_illegal_explains_unknown_text() -> None:
    state = new_game("carbondale", 2, 1)
    assert "actions look like" in why(state, "jump")
    assert "no challenge to answer" in why(state, "decline")
    with pytest.raises(IllegalAction, match="Carbondale card"):
        state.apply("discard K♣ face up")


@pytest.mark.parametrize(
    "text",
    [
        "build 5♣ at 0,1 north of 4♣",
        "build 4♠ at 0,-1 south of 2♠",
        "claim 3♡ at 1,0 from P2 with 4♠",
        "claim 5♠ at -2,1 from P4 with 7♣",
        "discard 9♢ face down",
        "discard 10♣ face up",
        "draw from pile",
        "take 5♣ from stock",
        "end turn",
        "defend with 5♠",
        "decline",
        "contribute 9♢",
    ],
)
def test_every_action_text_reads_back_as_itself(text: str) -> None:
    action = RULES.notation.parse(text)
    assert action is not None and str(action) == text


def test_moves_carry_what_the_table_needs_to_place_them() -> None:
    state = table([start(), CLUB_TARGET], [["5♠", "4♣", "9♢", "2♣"], ["6♣", "9♡"]])
    moves = state.view(0)["moves"]
    assert moves["claim 3♣ at 0,1 from P2 with 5♠"] == {
        "kind": "claim", "target": "3♣", "x": 0, "y": 1, "owner": 1, "challenge": "5♠"
    }
    assert moves["build 2♣ at 0,1 north of A♣"] == {
        "kind": "build", "card": "2♣", "x": 0, "y": 1, "direction": "north", "source": "A♣"
    }
    assert moves["discard 9♢ face down"] == {"kind": "discard", "card": "9♢", "face_up": False}
    assert state.view(1)["moves"] == {}
    after = state.apply("claim 3♣ at 0,1 from P2 with 5♠")
    assert said(after) == "Player 1 challenges for the 3♣ in Player 2's network with 5♠"
    assert said(after, you=1) == "Player 1 challenges for the 3♣ in your network with 5♠"
    assert after.view(1)["moves"] == {"defend with 6♣": {"kind": "defend", "card": "6♣"},
                                      "decline": {"kind": "decline"}}


def test_figure_1_is_a_named_position_with_the_option() -> None:
    assert FIGURE_1.players == 2 and FIGURE_1.options == VARIANT
    state = named_position("carbondale", "figure-1")
    assert state.options == VARIANT and state.view(None)["networks"][0]["width"] == 5


@pytest.mark.parametrize(
    "position,words",
    [
        ({"bogus": [1] * 1000}, "'bogus' is not part of a Carbondale position"),
        ({"seed": True}, "'seed'"),
        ({"seed": 2**70}, "'seed'"),
        ({"current": 2}, "'current'"),
        ({"current": True}, "'current'"),
        ({"networks": [[], []]}, "network 1 needs exactly one starting pair"),
        ({"networks": [start(), start(), start()]}, "at most 2 networks"),
        ({"networks": [start() + start()]}, "exactly one starting pair"),
        ({"networks": [[{"card": "A♣", "x": 0, "y": 0, "start": True},
                        {"card": "2♠", "x": 0, "y": 1, "start": True}]]}, "side by side"),
        ({"networks": [[{"card": "x" * 500, "x": 0, "y": 0, "start": True}]]}, "not a card"),
        ({"networks": [[{"card": 5, "x": 0, "y": 0, "start": True}]]}, "a card is text"),
        ({"networks": [start() + [{**put("3♣", 0, 1, 0, 0), "colour": "red"}]]}, "'colour' is not a field"),
        ({"networks": [start() + [{**put("3♣", 0, 1, 0, 0), "x": True}]]}, "'x' must be an integer"),
        ({"networks": [start() + [put("3♣", 0, 10**6, 0, 10**6 - 1)]]}, "'y' must be an integer"),
        ({"networks": [start() + [{**put("3♣", 0, 1, 0, 0), "from": [0.5, 0]}]]}, "'from' must be an integer"),
        ({"networks": [start() + [{**put("3♣", 0, 1, 0, 0), "start": 1}]]}, "'start' must be true or false"),
        ({"networks": [start() + [put("3♣", 0, 1, 0, 2), put("4♣", 0, 2, 0, 1)]]}, "not built from the starting"),
        ({"networks": [HEART_TOWN + [put("2♢", 1, -1, 1, 0), put("7♡", 1, 3, 0, 3)]]}, "rule 24"),
        ({"hands": [["5♡"] * 6, []]}, "hand 1 must be a list of at most 5 cards"),
        ({"hands": [["5♡", "5♡"], ["5♡"]]}, "hand 2: no 5♡ is left"),
        ({"hands": [["J♡"], []]}, "ace to 10 only"),
        ({"hands": [[]]}, "'hands' must be a list of 2 hands"),
        ({"stock": "5♡"}, "'stock'"),
        ({"stock": ["A♣", "A♣", "A♣"]}, "'stock': no A♣ is left"),
        ({"spares_used": 3}, "'spares_used'"),
        ({"spares_used": False}, "'spares_used'"),
    ],
)
def test_bad_positions_are_refused_with_a_short_message_naming_the_field(position: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError) as refused:
        new_game("carbondale", 2, 1, DEFAULT, position)
    assert words in str(refused.value) and len(str(refused.value)) < 200


def test_a_loaded_position_holds_every_card_once() -> None:
    state = new_game("carbondale", 3, 1, DEFAULT, {"networks": [None, start()], "hands": [["5♡"], [], ["10♣"] * 3],
                                                   "stock": ["9♢"], "current": 2, "spares_used": 1})
    core = core_of(state)
    placed = [p.card for n in core.networks for p in n] + [c for h in core.hands for c in h] + list(core.pile)
    placed += list(core.stock) + [c for s in core.spares for c in s]
    assert sorted(placed) == sorted(DECK * 3) and core.current == 2 and len(core.spares) == 1
    for name in RULES.positions:
        assert named_position("carbondale", name).legal_actions()


def test_the_rules_page_documents_the_position_format_and_its_example_loads() -> None:
    page = (Path(__file__).resolve().parents[1] / "web" / "rules" / "carbondale.html").read_text("utf-8")
    section = page[page.index("Position format") :]
    for field in POSITION_FIELDS + NETWORK_ENTRY_FIELDS:
        assert f"<code>{field}</code>" in section or f'"{field}"' in section, field
    example = json.loads(re.search(r"<pre>(.*?)</pre>", section, re.S).group(1))  # type: ignore[union-attr]
    state = new_game("carbondale", 2, 0, DEFAULT, example)
    core = core_of(state)
    assert [str(p.card) for p in core.networks[0]] == ["A♣", "2♠", "3♣"] and core.stock == cards("9♢")
    assert core.hands[0] == cards("4♣", "2♡", "6♠") and "build 2♡ at -1,1 west of 3♣" in state.legal_texts()


def test_positions_are_checked() -> None:
    with pytest.raises(ValueError, match="next to its source"):
        RULES.load_position(2, DEFAULT, {"networks": [start() + [put("3♣", 0, 2, 0, 0)]]})
    with pytest.raises(ValueError, match="black card"):
        RULES.load_position(2, DEFAULT, {"networks": [start() + [put("A♡", 0, 1, 0, 0), put("2♡", 0, 2, 0, 1)]]})
    with pytest.raises(ValueError, match="5 x 5"):
        wide = start() + [put("2♣", -1, 0, 0, 0), put("3♣", -2, 0, -1, 0), put("3♠", 2, 0, 1, 0)]
        RULES.load_position(2, DEFAULT, {"networks": [wide + [put("4♠", 3, 0, 2, 0)]]})


# -- the renderer ------------------------------------------------------------------------------------


def _render(state: State, seat: int | None, selection: tuple | None = None) -> str:
    return render_state(state, seat, selection, ["Ann", "Bob"])


def test_renderer_marks_starting_and_vulnerable_cards_and_lays_east_west_reds_sideways() -> None:
    page = _render(_figure(), None)
    assert page.count('class="cb-penny"') == 2 + 2
    assert page.count('class="cb-vmark"') == 4
    assert page.count("cb-sideways") == 3  # 2♢, 5♡ and 6♢ were built east or west
    assert "data-action" not in page and "data-select" not in page


def test_renderer_selecting_a_hand_card_lights_its_build_cells_and_discards() -> None:
    state = _figure(["4♠", "9♣"])
    page = _render(state, 0)
    assert f'data-select="{esc(selecting(("hand", "4♠")))}"' in page and "build 4♠" not in page
    page = _render(state, 0, ("hand", "4♠"))
    assert 'data-action="build 4♠ at 0,-1 south of 2♠"' in page
    assert 'data-action="discard 4♠ face up"' in page and 'data-action="discard 4♠ face down"' in page


def test_renderer_shows_one_of_two_identical_hand_cards_chosen() -> None:
    """Two decks can deal a hand two copies of one card: choosing it shows one of them chosen, not both."""
    page = _render(_figure(["4♠", "4♠", "9♣"]), 0, ("hand", "4♠"))
    hand = page.split('class="hand cb-hand"')[1].split("</div>")[0]
    copies = re.findall(r'<button [^>]*data-card="4♠"[^>]*>', hand)
    assert len(copies) == 2 and all("data-select" in tag for tag in copies)
    assert ["selected" in tag.split('class="')[1].split('"')[0].split() for tag in copies] == [True, False]
    assert 'data-action="build 4♠ at 0,-1 south of 2♠"' in page


def test_renderer_claim_then_challenge_card_then_defence() -> None:
    state = table([start(), CLUB_TARGET], [["5♠", "4♣", "9♢"], ["6♣", "9♡"]])
    page = _render(state, 0)
    assert f'data-select="{esc(selecting(("claim", 1, 0, 1)))}"' in page
    page = _render(state, 0, ("claim", 1, 0, 1))
    assert 'data-action="claim 3♣ at 0,1 from P2 with 5♠"' in page
    assert "with 4♣" not in page
    state = state.apply("claim 3♣ at 0,1 from P2 with 5♠")
    page = _render(state, 1)
    assert 'data-action="defend with 6♣"' in page and 'data-action="decline"' in page
    assert "data-action" not in _render(state, 0)


def _hand_card(page: str, text: str) -> str:
    """The opening tag of the hand card ``text`` on a drawn table."""
    hand = page.split('class="hand cb-hand"')[1].split("</div>")[0]
    found = re.search(rf'<button [^>]*data-card="{text}"[^>]*>', hand)
    assert found, f"{text} is not a button in the hand"
    return found.group(0)


def _status_of(page: str) -> str:
    return page.split('class="cb-status">')[1].split("</div>")[0]


def test_renderer_lights_the_hand_cards_that_can_be_built_now_and_says_what_to_tap_next() -> None:
    """What can be played now: a card with a cell to build on is lit, one that can only be discarded is not. Once a
    card is chosen, what to tap next is said in the place of the turn's line (one message, nothing under it moves)."""
    state = _figure(["4♠", "9♣", "9♢", "8♡"])
    page = _render(state, 0)
    assert "cb-buildable" in _hand_card(page, "4♠")
    assert "cb-buildable" not in _hand_card(page, "9♣") and "discard" in _hand_card(page, "9♣")
    assert "may claim, then build or discard" in _status_of(page)
    chosen = _render(state, 0, ("hand", "4♠"))
    assert _status_of(chosen) == "<p>Pick a highlighted cell in your network (arrows point away from the source).</p>"
    assert 'class="hint"' not in chosen


def test_renderer_keeps_end_turn_apart_from_a_chosen_cards_discards() -> None:
    """The discards of a chosen card come in their own group before End turn, and a hand of up to four cards marks
    the table so that a phone keeps End turn beside the hand whether or not the discards show."""
    state = _figure(["4♠", "9♣", "9♢", "8♡"])
    assert "end turn" in state.legal_texts()
    page = _render(state, 0, ("hand", "4♠"))
    assert re.search(r'<div class="cb-table [^"]*\bcb-end-beside\b', page)
    buttons = page.split('<div class="cb-buttons">')[1]
    assert buttons.startswith('<div class="cb-choices"><button')
    assert buttons.index('data-action="discard 4♠ face down"') < buttons.index("</div>") < buttons.index(
        'data-action="end turn"')
    assert '<div class="cb-choices">' not in _render(state, 0)


def test_renderer_a_chosen_claim_outlines_its_challenge_cards_and_greys_the_others() -> None:
    """A rival's card that can be claimed now is ringed; once it is chosen, the hand cards that can challenge it are
    outlined and the others look as an unplayable card does (they still choose a build or a discard)."""
    state = table([start(), CLUB_TARGET], [["5♠", "4♣", "9♢"], ["6♣", "9♡"]])
    assert "cb-claimable" in _render(state, 0)
    page = _render(state, 0, ("claim", 1, 0, 1))
    assert "target" in _hand_card(page, "5♠") and "cb-dim" not in _hand_card(page, "5♠")
    for other in ("4♣", "9♢"):
        assert "cb-dim" in _hand_card(page, other) and "not a challenge" in _hand_card(page, other)
    assert "Pick a challenge card" in _status_of(page)


@pytest.mark.parametrize(
    "facts",
    [{"kind": "defend", "card": "4♢"}, {"kind": "discard", "face_up": False}],
)
def test_renderer_marks_the_face_down_pile_after_a_defence_or_a_face_down_discard(facts: dict[str, Any]) -> None:
    """After a defence (both cards go face down, rule 19) or a face-down discard nothing of the move is left on
    show: the face-down pile is outlined as that seat's latest move, with its label."""
    state = _figure()
    view = state.view(0) | {"names": ["Ann", "Bob"], "you": 0, "recent": {1: [facts]}}
    page = render_view("carbondale", view, None)
    pile = re.search(r'<div class="cb-pile">((?:(?!</div>).)*)<span>face down</span></div>', page)
    assert pile and 'class="last-move seat-1"' in pile.group(1) and "last move: Bob" in pile.group(1)
    quiet = render_view("carbondale", view | {"recent": {1: [{"kind": "end"}]}}, None)
    assert "last-move" not in quiet
