"""Carbon City Zero: golden scenarios from the rules, the card table validator and the renderer."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import replace
from typing import Any

import pytest
from cardtable_web.drawing import render_state

import pyengine
from pyengine import IllegalAction, Rng, UnreadableAction
from pyengine.ai import LEVELS, SearchBot
from pyengine.core import State
from pyengine.games import carbon_city_zero as ccz
from pyengine.games.carbon_city_zero import CARDS, NOTATION, RULES, Deck, load_table, validate_table
from pyengine.words import seat_names

GAME = "carbon-city-zero"


def deck(
    draw: tuple[str, ...] = (), hand: tuple[str, ...] = (), recycle: tuple[str, ...] = (), carbon: int = 0
) -> Deck:
    return Deck(draw=draw, known_top=0, hand=hand, recycle=recycle, carbon=carbon)


FIVE = ("Budget", "Budget", "Budget", "Budget", "Budget")


def position(
    players: int = 2,
    options: dict[str, Any] | None = None,
    in_play: tuple[str, ...] = (),
    **changes: Any,
) -> State:
    """A set-up game with some fields replaced; ``in_play`` lists card names (abilities unused)."""
    state = pyengine.new_game(GAME, players, 7, options or {})
    core = state.core
    defaults: dict[str, Any] = {
        "in_play": tuple((n, False, False) for n in in_play),
        "decks": tuple(deck(draw=FIVE * 2, hand=FIVE if i else ()) for i in range(len(core.decks))),
        "market": ("Public Awareness", "Car Share", "Bike Lanes", "Small Factory", "Hydropower"),
        "market_deck": ("Retrofit Buildings", "Train not Plane", "Biogas Plant", "Charging Points"),
        "discard": (),
        "global_area": (),
    }
    if "in_play" in changes:
        raise TypeError("give in_play as names")
    defaults.update(changes)
    return State(RULES, players, state.options, 7, replace(core, **defaults))


def texts(state: State) -> list[str]:
    return state.legal_texts()


def why(state: State, text: str) -> str:
    """The refusal of a well-written action that is not legal now."""
    action = NOTATION.parse(text)
    assert action is not None and text not in texts(state)
    return RULES.why_illegal(state.core, action)


def last_line(state: State, you: int | None = None) -> str:
    return state.log()[-1].say(seat_names(state.players), you)


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


def test_setup_start_decks_market_and_counter() -> None:
    state = pyengine.new_game(GAME, 3, 13)
    core = state.core
    assert core.carbon == 50 and core.rounds_left == 9 and core.round == 1
    start = sorted(load_table().start_deck)
    assert start.count("Budget") == 5 and start.count("Stock Exchange") == 2 and len(start) == 9
    for i, d in enumerate(core.decks):
        cards = list(d.draw + d.hand + d.recycle) + ([s[0] for s in core.in_play] if i == 0 else [])
        assert sorted(cards) == start
        assert len(d.draw) == 4
    assert len(core.in_play) == 5  # the first player's hand is in play (rule 4 i)
    assert len(core.market) == 5 and all(CARDS[n].sector in ccz.MARKET_SECTORS for n in core.market)
    # seed 13 reveals a snag and a Global at setup (rule 3): discard pile and Global area
    assert core.discard == ("Poor Communication",) and core.global_area == ("Global Funding",)
    total = len(core.market) + len(core.market_deck) + len(core.discard) + len(core.global_area)
    assert total == 60  # 45 market cards + 9 snags + 6 Globals


def test_rounds_option_and_global_opportunities_at_setup() -> None:
    assert pyengine.new_game(GAME, 2, 1, {"rounds": 8}).core.rounds_left == 8
    assert pyengine.new_game(GAME, 2, 1, {"rounds": 10}).core.rounds_left == 10
    for seed in range(300):
        state = pyengine.new_game(GAME, 2, seed)
        if "Global Opportunities" in state.core.global_area:
            break
    else:
        raise AssertionError("no seed revealed Global Opportunities at setup")
    core = state.core
    # rule 3: five market cards face up, even with Global Opportunities revealed during the deal
    assert len(core.market) == 5 and all(CARDS[n].sector in ccz.MARKET_SECTORS for n in core.market)
    total = len(core.market) + len(core.market_deck) + len(core.discard) + len(core.global_area)
    assert total == 60
    # its sixth card comes with the first refill (rules 8 and 25)
    buy = next(t for t in texts(state) if t.startswith("buy "))
    assert len(state.apply(buy).core.market) == 6


def test_the_opening_marketplace_is_always_five_cards() -> None:
    """Rule 3 (golden): about a fifth of the setups reveal Global Opportunities; the deal still stops at five."""
    seen = 0
    for seed in range(200):
        for players in (1, 2, 3, 4):
            core = pyengine.new_game(GAME, players, seed).core
            seen += "Global Opportunities" in core.global_area
            assert len(core.market) == 5, (players, seed)
            assert all(CARDS[n].sector in ccz.MARKET_SECTORS for n in core.market)
    assert seen > 50


def test_a_bad_position_description_is_refused_naming_the_field() -> None:
    """A position (the rules page's "Position format") is checked field by field: a short ValueError."""
    for described, field in (({"x": 1}, "'x'"), ({}, "'in_play'"), ({"in_play": ["Budget"], "carbon": 0}, "'carbon'"),
                             ({"in_play": ["Budget"] * 6}, "no Budget is left"),
                             ({"in_play": ["Budget"], "market": ["Bad Press"]}, "cannot lie there")):
        with pytest.raises(ValueError, match=field) as refused:
            pyengine.new_game(GAME, 2, 1, None, described)
        assert len(str(refused.value)) < 200
    with pytest.raises(ValueError):
        pyengine.new_game(GAME, 2, 1, None, "carbon 0")  # type: ignore[arg-type]
    state = pyengine.new_game(GAME, 2, 1, None, {"in_play": ["Budget", "Bike Lanes"], "carbon": 3})
    assert state.view(0)["carbon"] == 3 and state.legal_texts()


def test_solo_plays_two_decks_and_rivalry_needs_two_players() -> None:
    state = pyengine.new_game(GAME, 1, 3)
    assert len(state.core.decks) == 2
    state = state.apply("end turn")
    assert state.core.active == 1 and state.current_player == 0
    state = state.apply("end turn")
    assert state.core.active == 0 and state.core.rounds_left == 8
    with pytest.raises(ValueError, match="Friendly Rivalry"):
        pyengine.new_game(GAME, 1, 3, {"variant": "rivalry"})
    rival = pyengine.new_game(GAME, 2, 3, {"variant": "rivalry"})
    assert [d.carbon for d in rival.core.decks] == [40, 40]
    pile = rival.core.market_deck + rival.core.global_area
    assert {CARDS[n].sector for n in pile if CARDS[n].sector.endswith("global")} == {"rivalry-global"}


# ---------------------------------------------------------------------------------------------
# Special rules (one test per kind)
# ---------------------------------------------------------------------------------------------


def test_draw_brings_cards_into_play_whose_specials_can_be_used() -> None:
    state = position(in_play=("Bike Lanes",), decks=(deck(draw=("Retrofit Buildings", "Budget")), deck(hand=FIVE)))
    state = state.apply("use Bike Lanes #1 special")
    assert [s[0] for s in state.core.in_play] == ["Bike Lanes", "Retrofit Buildings"]
    assert state.core.in_play[0] == ("Bike Lanes", True, False)
    assert "use Retrofit Buildings #2 special" in texts(state)  # brought into play: usable this turn
    assert "use Bike Lanes #1 special" not in texts(state)  # once per card
    state = state.apply("use Retrofit Buildings #2 special")
    assert state.core.in_play[-1][0] == "Budget" and state.core.decks[0].draw == ()


def test_draw_reshuffles_the_recycle_pile() -> None:
    decks = (deck(draw=("Car Share",), recycle=("Budget", "Budget")), deck(hand=FIVE))
    state = position(in_play=("Lobby Ministers",), decks=decks)
    state = state.apply("use Lobby Ministers #1 special")  # draw 2: one from the deck, one after a reshuffle
    d = state.core.decks[0]
    assert [s[0] for s in state.core.in_play] == ["Lobby Ministers", "Car Share", "Budget"]
    assert d.draw == ("Budget",) and d.recycle == ()


def test_discard_in_play_removes_income_carbon_and_the_unused_special() -> None:
    state = position(in_play=("Wind Power", "Poor Transport", "Bike Lanes", "Budget"))
    before = ccz.turn_carbon(state.core)
    assert "use Wind Power #1 special: discard Wind Power #1" not in texts(state)
    state2 = state.apply("use Wind Power #1 special: discard Poor Transport #2")
    assert state2.core.discard == ("Poor Transport",)
    assert ccz.turn_carbon(state2.core) == before - CARDS["Poor Transport"].carbon
    # a card discarded before its rule is used loses it
    state3 = state.apply("use Wind Power #1 special: discard Bike Lanes #3")
    assert not any(t.startswith("use Bike Lanes") for t in texts(state3))
    assert ccz.income(state3.core) == 1
    state4 = state.apply("use Wind Power #1 special: discard Budget #4")
    assert ccz.income(state4.core) == 0


def test_discard_market_refills_at_once() -> None:
    state = position(in_play=("Stock Exchange",))
    state = state.apply("use Stock Exchange #1 special: discard Car Share from the market")
    core = state.core
    assert core.discard == ("Car Share",)
    assert core.market == ("Public Awareness", "Retrofit Buildings", "Bike Lanes", "Small Factory", "Hydropower")
    assert core.market_deck == ("Train not Plane", "Biogas Plant", "Charging Points")


def test_topdeck_next_puts_the_purchase_on_top_of_the_draw_deck() -> None:
    decks = (deck(draw=("Budget",) * 3), deck(hand=FIVE))
    state = position(in_play=("Green Mortgages",) + FIVE, decks=decks)
    state = state.apply("use Green Mortgages #1 special")
    state = state.apply("buy Car Share")
    d = state.core.decks[0]
    assert d.draw[0] == "Car Share" and d.known_top == 1 and "Car Share" not in d.recycle
    assert state.view(1)["decks"][0]["known_top"] == ["Car Share"]
    # the known top card survives re-dealing the hidden order
    sample = state.sample_hidden(1, Rng.from_seed(5))
    assert sample.core.decks[0].draw[0] == "Car Share"
    state = state.apply("buy Bike Lanes")  # only the next purchase
    assert state.core.decks[0].recycle == ("Bike Lanes",)


def test_factories_zero_special_and_link() -> None:
    state = position(in_play=("District Heating", "Large Factory", "Small Factory", "Net Zero Hub"))
    before = ccz.turn_carbon(state.core)
    after = state.apply("use District Heating #1 special")
    assert ccz.turn_carbon(after.core) == before - CARDS["Large Factory"].carbon - CARDS["Small Factory"].carbon
    assert not any(t.startswith("use Heat Pumps") for t in texts(after))
    linked = position(in_play=("Heat Pumps", "Large Factory"))
    assert "use Heat Pumps #1 link" in texts(linked)
    linked = linked.apply("use Heat Pumps #1 link")
    assert ccz.turn_carbon(linked.core) == CARDS["Heat Pumps"].carbon


def test_search_deck_takes_any_card_then_shuffles() -> None:
    draw = ("Budget", "Budget", "Ecohouses", "Poor Transport")
    state = position(in_play=("Building Inspectors",), decks=(deck(draw=draw), deck(hand=FIVE)))
    choices = [t for t in texts(state) if t.startswith("use Building Inspectors")]
    assert choices == [
        "use Building Inspectors #1 special: take Budget from the deck",
        "use Building Inspectors #1 special: take Ecohouses from the deck",
        "use Building Inspectors #1 special: take Poor Transport from the deck",
    ]
    state = state.apply("use Building Inspectors #1 special: take Ecohouses from the deck")
    assert state.core.in_play[-1] == ("Ecohouses", False, False)
    assert sorted(state.core.decks[0].draw) == ["Budget", "Budget", "Poor Transport"]
    assert "use Ecohouses #2 special" in texts(state)


def test_search_global_reveals_a_global_and_the_market_grows() -> None:
    state = position(
        in_play=("Eco Councillors",),
        market_deck=("Car Share", "Global Opportunities", "Global Funding", "Retrofit Buildings"),
    )
    choices = [t for t in texts(state) if t.startswith("use Eco")]
    assert choices == [
        "use Eco Councillors #1 special: reveal Global Funding",
        "use Eco Councillors #1 special: reveal Global Opportunities",
    ]
    state = state.apply("use Eco Councillors #1 special: reveal Global Opportunities")
    assert state.core.global_area[0] == "Global Opportunities"
    assert len(state.core.market) == 6  # refilled at once (the refill may reveal Global Funding too)
    assert "use Eco Councillors #1 special" not in " ".join(texts(state))


# ---------------------------------------------------------------------------------------------
# Links, buying, snags and Globals during refills
# ---------------------------------------------------------------------------------------------


def test_links_need_a_card_of_the_same_sector_and_count_at_end_of_turn() -> None:
    alone = position(in_play=("Public Awareness", "Hydropower"))
    assert not any(t.endswith("link") for t in texts(alone))
    assert "needs another domestic card" in why(alone, "use Public Awareness #1 link")
    pair = position(in_play=("Public Awareness", "Public Awareness", "Car Share"), carbon=30)
    # identical cards are one choice; each card's link once
    assert [t for t in texts(pair) if t.endswith("link")] == ["use Public Awareness #1 link", "use Car Share #3 link"]
    for text in ("use Public Awareness #1 link", "use Public Awareness #2 link", "use Car Share #3 link"):
        pair = pair.apply(text)
    assert pair.core.link_bonus == 3 * CARDS["Public Awareness"].link_bonus
    expected = 30 + 2 * CARDS["Public Awareness"].carbon + CARDS["Car Share"].carbon + pair.core.link_bonus
    assert pair.apply("end turn").core.carbon == expected
    blocked = position(in_play=("Public Awareness", "Car Share", "Local Opposition"))
    assert not any(t.endswith("link") for t in texts(blocked))
    assert "Local Opposition" in why(blocked, "use Car Share #2 link")


def test_buying_ends_specials_and_costs_income() -> None:
    market = ("Public Awareness", "Car Share", "Bike Lanes", "Small Factory", "Ecohouses")
    state = position(in_play=("Budget", "Budget", "Bike Lanes", "Small Factory"), market=market)
    income = 2 * CARDS["Budget"].income + CARDS["Bike Lanes"].income + CARDS["Small Factory"].income
    assert ccz.income(state.core) == income
    buys = [t for t in texts(state) if t.startswith("buy ")]
    assert buys == [f"buy {n}" for n in market if CARDS[n].cost <= income]
    state = state.apply("buy Car Share")
    left = income - CARDS["Car Share"].cost
    assert state.core.decks[0].recycle == ("Car Share",) and state.core.spent == CARDS["Car Share"].cost
    assert state.core.market[1] == "Retrofit Buildings"  # refilled at once, in the same slot
    assert not any(t.startswith("use ") for t in texts(state))
    assert "before buying" in why(state, "use Bike Lanes #3 special")
    assert "buy Ecohouses" not in texts(state)
    message = f"Ecohouses costs {CARDS['Ecohouses'].cost} and you have {left} income left"
    assert message in why(state, "buy Ecohouses")
    state = state.apply("buy Public Awareness").apply("end turn")
    assert state.core.active == 1


def test_snags_and_globals_revealed_during_a_refill() -> None:
    state = position(
        in_play=("Budget", "Budget", "Budget"),
        market_deck=("Bad Press", "Global Funding", "Global Funding", "Car Share", "Train not Plane"),
    )
    state = state.apply("buy Car Share")
    core = state.core
    assert core.decks[0].recycle == ("Car Share", "Bad Press")  # the active player's recycle pile
    assert core.global_area == ("Global Funding",)
    assert core.discard == ("Global Funding",)  # a duplicate name goes to the discard pile
    assert core.market[1] == "Car Share" and core.market_deck == ("Train not Plane",)
    line = last_line(state)
    assert "Bad Press" in line and "Global Funding" in line
    entry = state.log()[-1]
    assert entry.seat == 0 and entry.facts["kind"] == "buy" and entry.facts["card"] == "Car Share"
    assert entry.facts["snags"] == ["Bad Press"] and entry.facts["globals"] == ["Global Funding"]


def test_an_empty_market_deck_is_the_shuffled_discard_pile() -> None:
    state = position(in_play=("Budget", "Budget"), market_deck=(), discard=("Ecohouses", "Bike Lanes"))
    state = state.apply("buy Public Awareness")
    core = state.core
    assert core.discard == () and len(core.market) == 5 and len(core.market_deck) == 1
    assert sorted((core.market[0],) + core.market_deck) == ["Bike Lanes", "Ecohouses"]


def test_global_collaboration_and_poor_communication_hand_sizes() -> None:
    state = position(in_play=("Budget",), global_area=("Global Collaboration",))
    assert len(state.apply("end turn").core.decks[0].hand) == 6
    state = position(in_play=("Budget", "Poor Communication"))
    assert len(state.apply("end turn").core.decks[0].hand) == 4


def test_global_funding_gift() -> None:
    state = position(in_play=("Budget", "Budget", "Poor Transport"), global_area=("Global Funding",))
    assert "give Budget to player 2 and end turn" in texts(state)
    after = state.apply("give Budget to player 2 and end turn")
    assert [s[0] for s in after.core.in_play] == list(FIVE) + ["Budget"]  # player 2 plays 6 cards
    mine = after.core.decks[0]
    assert (mine.recycle + mine.hand + mine.draw).count("Budget") == 11
    spent = state.apply("buy Public Awareness")
    assert not any(t.startswith("give") for t in texts(spent))  # no unspent income left
    assert "unspent income" in why(spent, "give Budget to player 2 and end turn")
    no_funding = position(in_play=("Budget",))
    assert "Global Funding" in why(no_funding, "give Budget to player 2 and end turn")


# ---------------------------------------------------------------------------------------------
# Carbon, the 65 cap, winning and losing
# ---------------------------------------------------------------------------------------------


def test_the_65_cap_costs_an_extra_round() -> None:
    state = position(in_play=("Large Factory", "Medium Factory"), carbon=62, rounds_left=5)
    after = state.apply("end turn")
    assert after.core.carbon == 65 and after.core.rounds_left == 4  # mid-round: only the extra space
    last = position(in_play=("Large Factory",), carbon=64, rounds_left=5, active=1)
    after = last.apply("end turn")
    assert after.core.carbon == 65 and after.core.rounds_left == 3  # extra space and end of round
    doom = position(in_play=("Large Factory",), carbon=64, rounds_left=1)
    assert doom.apply("end turn").core.result == "lost"


def test_a_loss_at_the_65_cap_mid_round_cleans_up_the_turn() -> None:
    """Rules 10, 11, 14, 15 (golden): time runs out through the 65 penalty in the middle of a round;
    the turn ends as any turn does (cards recycled, next hand drawn), then the game is lost."""
    played = ("Large Factory", "Budget", "Poor Transport")
    state = position(in_play=played, carbon=60, rounds_left=1, round=8, active=0)
    state = state.apply("use Large Factory #1 special").apply("buy Car Share")
    in_play = [s[0] for s in state.core.in_play]
    after = state.apply("end turn")
    core = after.core
    assert after.is_terminal() and core.result == "lost" and core.carbon == 65 and core.rounds_left == 0
    assert core.in_play == () and core.spent == 0 and not core.buying and core.link_bonus == 0
    mine = core.decks[0]
    assert sorted(mine.recycle) == sorted(["Car Share", *in_play])  # rule 10: every card in play recycled
    assert len(mine.hand) == 5  # rule 11: the next hand drawn
    assert core.active == 0 and core.round == 8  # the round in which time ran out (mid-round)
    assert "Time's up" in last_line(after)
    # the same with Global Funding's gift: the Budget goes to the other hand instead
    gift = position(in_play=played, carbon=60, rounds_left=1, global_area=("Global Funding",))
    core = gift.apply("give Budget to player 2 and end turn").core
    assert core.result == "lost" and core.in_play == ()
    assert core.decks[1].hand == FIVE + ("Budget",)
    assert sorted(core.decks[0].recycle) == ["Large Factory", "Poor Transport"]


def test_winning_at_zero_mid_round() -> None:
    state = position(3, in_play=("Ecohouses", "Solar Thermal Panels"), carbon=11)
    after = state.apply("end turn")
    assert after.is_terminal() and after.core.carbon == 0
    assert after.winners() == [0, 1, 2] and after.scores() == [50, 50, 50]
    assert after.legal_actions() == [] and "everyone wins" in last_line(after)


def test_losing_at_times_up() -> None:
    state = position(in_play=("Budget",), carbon=30, rounds_left=1, active=1)
    after = state.apply("end turn")
    assert after.is_terminal() and after.core.result == "lost" and after.winners() == []
    mid = position(in_play=("Budget",), carbon=30, rounds_left=1, active=0).apply("end turn")
    assert not mid.is_terminal()  # the round is not over yet


def test_a_game_lost_on_time_shows_the_round_in_which_time_ran_out() -> None:
    """Rules 13 and 15 (golden): the final state shows the last round played, with the counter at 0."""
    def lose(state: State) -> tuple[State, list[int]]:
        rounds_seen = []
        while not state.is_terminal():
            rounds_seen.append(state.core.round)
            state = state.apply("end turn")  # buy nothing: the city never reaches zero
        return state, rounds_seen

    # Budgets only (carbon 0): time runs out at the end of round 8, the counter's last round
    state, rounds_seen = lose(position(in_play=FIVE, carbon=30, rounds_left=8, round=1))
    core = state.core
    assert core.result == "lost" and core.rounds_left == 0 and core.carbon == 30
    assert core.round == 8 == max(rounds_seen)  # "round 8" of 8, not a ninth round never played
    assert core.in_play == () and all(len(d.hand) == 5 for d in core.decks)
    view = state.view(0)
    assert view["round"] == 8 and view["rounds_left"] == 0
    # the start decks push the city to 65, which costs extra spaces: time runs out sooner
    state, rounds_seen = lose(pyengine.new_game(GAME, 2, 5, {"rounds": 8}))
    core = state.core
    assert core.result == "lost" and core.carbon == 65 and core.rounds_left == 0
    assert core.round == max(rounds_seen) < 8 and core.in_play == ()
    # the end-of-round loss of a position in round 9 (counter 9 from the start, no 65 penalty)
    last = position(in_play=("Budget",), carbon=30, rounds_left=1, round=9, active=1).apply("end turn")
    assert last.core.result == "lost" and last.core.round == 9 and last.core.in_play == ()
    # the end of a round at 65 with one space left: the extra space and the round's space both go
    both = position(in_play=("Large Factory",), carbon=64, rounds_left=2, round=7, active=1).apply("end turn")
    assert both.core.result == "lost" and both.core.rounds_left == 0 and both.core.round == 7


def test_evaluate_prefers_lower_carbon_and_more_rounds() -> None:
    def chance(**changes: Any) -> float:
        value = RULES.evaluate(position(in_play=("Budget",), **changes).core)
        assert value is not None and len(value) == 2 and value[0] == value[1]
        return value[0]

    assert chance(carbon=20, rounds_left=5) > chance(carbon=40, rounds_left=5)
    assert chance(carbon=30, rounds_left=7) > chance(carbon=30, rounds_left=3)
    assert 0.0 <= chance(carbon=65, rounds_left=1) < chance(carbon=5, rounds_left=9) <= 1.0


def test_the_computer_never_ends_a_turn_with_a_carbon_cutter_affordable() -> None:
    """Ending the turn (or giving a Budget away) is not weighed while a card that cuts carbon is
    affordable; with only factories affordable it is, and the computer's choice follows."""
    market = ("Public Awareness", "Car Share", "Bike Lanes", "Small Factory", "Ecohouses")
    state = position(in_play=("Budget", "Budget"), market=market, global_area=("Global Funding",))
    weighed = [str(a) for a in RULES.search_actions(state.core)]
    assert "end turn" in texts(state) and not any("end turn" in t for t in weighed)
    assert "buy Public Awareness" in weighed and set(weighed) < set(texts(state))
    choice = SearchBot(replace(LEVELS["normal"], iterations=60, max_seconds=None), seed=3).choose(state)
    assert str(choice).startswith("buy ")
    cheap = position(in_play=("Budget",), market=("Small Factory", "Ecohouses", "Ecohouses", "Ecohouses", "Ecohouses"))
    assert [str(a) for a in RULES.search_actions(cheap.core)] == texts(cheap)


# ---------------------------------------------------------------------------------------------
# Friendly Rivalry
# ---------------------------------------------------------------------------------------------


def rival(**changes: Any) -> State:
    return position(3, {"variant": "rivalry"}, **changes)


def test_rivalry_end_rule_the_round_is_finished() -> None:
    decks = tuple(deck(draw=FIVE * 2, hand=() if i == 0 else FIVE, carbon=c) for i, c in enumerate((4, 30, 30)))
    state = rival(in_play=("Ecohouses",), decks=decks, active=0)
    state = state.apply("end turn")
    assert state.core.decks[0].carbon == 0 and state.core.ender == 0 and not state.is_terminal()
    state = state.apply("end turn")
    assert not state.is_terminal()  # players who have not yet had this round's turn take it
    state = state.apply("end turn")
    assert state.is_terminal() and state.winners() == [0]
    assert state.scores() == [40, 10, 10]


def test_rivalry_tie_at_zero_goes_to_the_lowest_carbon_owned() -> None:
    decks = (
        deck(draw=FIVE, carbon=0),
        deck(draw=FIVE, carbon=0),
        deck(draw=("Ecohouses",) + FIVE, carbon=-2 * CARDS["Ecohouses"].carbon),
    )
    state = rival(in_play=("Ecohouses", "Ecohouses"), decks=decks, active=2, ender=0)
    state = state.apply("end turn")
    core = state.core
    assert core.decks[2].carbon == 0 and state.is_terminal()
    assert state.winners() == [2]  # three at zero: player 3 owns the most negative carbon


def test_rivalry_increased_funding_and_own_trackers() -> None:
    state = rival(in_play=("Budget", "Budget"), global_area=("Increased Funding",))
    assert ccz.cost_of(state.core, "Car Share") == CARDS["Car Share"].cost - 1
    assert ccz.cost_of(state.core, "Small Factory") == 1
    assert "buy Car Share" in texts(state)
    state = rival(in_play=("Large Factory",), decks=tuple(deck(draw=FIVE, hand=FIVE, carbon=40) for _ in range(3)))
    after = state.apply("end turn")
    assert after.core.decks[0].carbon == 40 + CARDS["Large Factory"].carbon and after.core.carbon == 50


# ---------------------------------------------------------------------------------------------
# Hidden information, notation, errors
# ---------------------------------------------------------------------------------------------


def test_sample_hidden_reorders_only_unseen_orders() -> None:
    state = pyengine.new_game(GAME, 2, 9)
    for text in ["end turn", "end turn", "end turn"]:
        state = state.apply(text)
    sample = state.sample_hidden(0, Rng.from_seed(3))
    for a, b in zip(state.core.decks, sample.core.decks, strict=True):
        assert sorted(a.draw) == sorted(b.draw) and a.hand == b.hand and a.recycle == b.recycle
    assert sorted(state.core.market_deck) == sorted(sample.core.market_deck)
    assert sample.view(0) == state.view(0)
    assert sample.core.rng != state.core.rng
    view = state.view(None)
    assert "market_deck" not in view and view["market_deck_count"] == len(state.core.market_deck)
    json.dumps(view)


def test_why_illegal_speaks_the_games_words() -> None:
    state = position(in_play=("Bike Lanes", "Budget"))
    with pytest.raises(IllegalAction, match="no such Bike Lanes in play"):
        state.apply("use Bike Lanes #7 special")
    with pytest.raises(IllegalAction, match="is Budget, not Bike Lanes"):
        state.apply("use Bike Lanes #2 special")
    with pytest.raises(IllegalAction, match="not in the marketplace"):
        state.apply("buy Ecohouses")
    with pytest.raises(IllegalAction, match="no card called"):
        state.apply("buy Moon Base")
    with pytest.raises(UnreadableAction, match="actions look like"):
        state.apply("plant trees")
    used = state.apply("use Bike Lanes #1 special")
    with pytest.raises(IllegalAction, match="already been used"):
        used.apply("use Bike Lanes #1 special")


# ---------------------------------------------------------------------------------------------
# The card table
# ---------------------------------------------------------------------------------------------


def raw_table() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("pyengine.games.carbon_city_zero").joinpath("cards.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def broken(card: str, field: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(raw_table())
    for row in data["cards"]:
        if row["name"] == card:
            if value is KeyError:
                del row[field]
            else:
                row[field] = value
    return data


@pytest.mark.parametrize(
    "card,field,value,message",
    [
        ("Car Share", "cost", "three", r"'Car Share', field 'cost'"),
        ("Car Share", "sector", "transport", r"'Car Share', field 'sector'"),
        ("Bike Lanes", "special", "draw 9", r"'Bike Lanes', field 'special'"),
        ("Bike Lanes", "special", "teleport", r"'Bike Lanes', field 'special'"),
        ("Hydropower", "link", "+2", r"'Hydropower', field 'link'"),
        ("Bad Press", "cost", 2, r"'Bad Press', field 'cost'"),
        ("Global Funding", "effect", None, r"'Global Funding', field 'effect'"),
        ("Small Factory", "copies", 0, r"'Small Factory', field 'copies'"),
        ("Small Factory", "effect", "draw-6", r"'Small Factory', field 'effect'"),
        ("Ecohouses", "carbon", KeyError, r"'Ecohouses', field 'carbon'"),
        ("Budget", "copies", 2, r"'Budget', field 'copies'"),
    ],
)
def test_a_bad_card_table_names_the_card_and_field(card: str, field: str, value: Any, message: str) -> None:
    validate_table(raw_table())  # the real one is fine
    with pytest.raises(ValueError, match=message):
        validate_table(broken(card, field, value))


def test_card_table_inconsistencies() -> None:
    data = copy.deepcopy(raw_table())
    data["cards"].append(dict(data["cards"][5]))
    with pytest.raises(ValueError, match="appears twice"):
        validate_table(data)
    data = copy.deepcopy(raw_table())
    data["start_deck"]["Moon Base"] = 1
    with pytest.raises(ValueError, match="'Moon Base', field 'start_deck'"):
        validate_table(data)
    data = copy.deepcopy(raw_table())
    data["cards"][0]["colour"] = "pink"
    with pytest.raises(ValueError, match="'Budget', field 'colour'"):
        validate_table(data)
    with pytest.raises(ValueError, match="cards"):
        validate_table({"start_deck": {}, "cards": []})
    table = validate_table(raw_table())
    assert len(table.market_cards) == 45 and len(table.snags) == 9 and len(table.globals_cooperative) == 6


# ---------------------------------------------------------------------------------------------
# The renderer
# ---------------------------------------------------------------------------------------------


def rendered(state: State, selection: tuple | None = None, seat: int | None = 0) -> str:
    from cardtable_web.drawing import render_state

    return render_state(state, seat, selection, ["Ann", "Bob", "Cy"][: state.players])


def test_renderer_shows_trackers_market_and_turn() -> None:
    market = ("Public Awareness", "Car Share", "Bike Lanes", "Small Factory", "Ecohouses")
    in_play = ("Budget", "Budget", "Bike Lanes", "Public Awareness")
    state = position(in_play=in_play, carbon=42, rounds_left=6, market=market)
    page = rendered(state)
    assert "ccz-carbon-tracker" in page and ">42<" in page and ">6<" in page
    assert 'data-action="buy Bike Lanes"' in page and 'data-action="buy Ecohouses"' not in page
    assert 'data-action="end turn"' in page
    assert "Draw 1" in page and "1 carbon less this turn" in page  # card boxes show special and link
    # a card with both a special and a link shows two buttons
    assert 'data-action="use Bike Lanes #3 special"' in page and 'data-action="use Bike Lanes #3 link"' in page
    # someone else's screen offers nothing
    assert "data-action" not in rendered(state, seat=1)


def test_renderer_choice_specials_use_selections() -> None:
    state = position(in_play=("Wind Power", "Poor Transport", "Budget"))
    page = rendered(state)
    assert 'data-select="[&quot;special&quot;,0]"' in page and "discard Poor Transport" not in page
    first = ("special", 0)  # the selection of the special of the card in play at place 0
    chosen = rendered(state, first)
    assert 'data-action="use Wind Power #1 special: discard Poor Transport #2"' in chosen
    assert 'data-action="buy Car Share"' not in chosen
    market = position(in_play=("Stock Exchange",))
    assert 'data-action="use Stock Exchange #1 special: discard Car Share from the market"' in rendered(market, first)
    search = position(in_play=("Building Inspectors",), decks=(deck(draw=("Ecohouses", "Budget")), deck(hand=FIVE)))
    assert 'data-action="use Building Inspectors #1 special: take Ecohouses from the deck"' in rendered(search, first)
    gift = position(in_play=("Budget", "Budget"), global_area=("Global Funding",))
    page = rendered(gift)
    assert 'data-action="give Budget to player 2 and end turn"' in page and "Give Budget to Bob and end turn" in page


# ---------------------------------------------------------------------------------------------
# The log and the refusals
# ---------------------------------------------------------------------------------------------


def test_log_entries_say_who_bought_and_played_what_and_the_carbon_change() -> None:
    state = position(in_play=("Budget", "Budget", "Bike Lanes"), carbon=30).apply("buy Car Share")
    entry = state.log()[-1]
    names = ["Ann", "Bob"]
    assert entry.say(names, 0).startswith("You buy Car Share for 2")
    assert entry.say(names, None).startswith("Ann buys Car Share for 2")
    assert entry.facts["card"] == "Car Share" and entry.facts["cost"] == 2
    ended = state.apply("end turn").log()[-1]
    change = 2 * CARDS["Budget"].carbon + CARDS["Bike Lanes"].carbon
    moved = f"falls by {-change}" if change < 0 else f"rises by {change}"
    assert ended.say(names, 0) == f"You end the turn: carbon {moved} to {30 + change}"
    assert ended.facts["played"] == ["Budget", "Budget", "Bike Lanes"] and ended.facts["carbon"] == change
    solo = position(1, in_play=("Budget",)).apply("end turn").log()[-1]
    assert solo.seat == 0 and solo.say(["Ann"], 0).startswith("Deck 1 ends the turn")
    decks = tuple(deck(draw=FIVE * 2, hand=() if i == 0 else FIVE, carbon=c) for i, c in enumerate((4, 30, 30)))
    won = rival(in_play=("Ecohouses",), decks=decks).apply("end turn").apply("end turn").apply("end turn")
    assert won.log()[-1].say(seat_names(3), 0).endswith("The game is over: you win.")
    assert won.log()[-1].say(seat_names(3), 1).endswith("The game is over: Player 1 wins.")


def test_refusals_of_identical_cards_and_choices() -> None:
    pair = position(in_play=("Public Awareness", "Public Awareness", "Car Share"))
    assert "one choice: use the first Public Awareness" in why(pair, "use Public Awareness #2 link")
    wind = position(in_play=("Wind Power", "Budget", "Budget"))
    assert "one choice" in why(wind, "use Wind Power #1 special: discard Budget #3")
    assert "needs a card to be chosen" in why(wind, "use Wind Power #1 special")
    assert "is: discard another card in play" in why(wind, "use Wind Power #1 special: reveal Global Funding")
    assert "not Wind Power itself" in why(wind, "use Wind Power #1 special: discard Wind Power #1")


def in_play_cards(html: str) -> tuple[list[list[str]], list[str]]:
    """The cards in play of a drawn table: each card box's classes, and the numbers ("×3") shown on them."""
    row = html.split('aria-label="Cards in play">', 1)[1].split('<div class="ccz-controls">', 1)[0]
    classes = [cls.split() for cls in re.findall(r'<(?:div|button) class="(ccz-card [^"]*)"', row)]
    return classes, re.findall(r'<span class="ccz-copies"[^>]*>(×\d+)</span>', row)


def test_the_same_card_in_play_in_the_same_state_is_one_card_with_its_number() -> None:
    """Three plain Budgets are one card marked ×3 (the other two drawn as its copies, which the table hides at
    every size); a card unlike them stays itself; the Budgets a chosen special may discard are one target with its
    number."""
    wind = position(in_play=("Budget", "Wind Power", "Budget", "Budget"))
    classes, numbers = in_play_cards(render_state(wind, 0))
    assert len(classes) == 4, "every card in play is drawn (the copies hidden by the table's style)"
    assert numbers == ["×3"] and "ccz-copies-of" in classes[0]
    assert "ccz-copy" in classes[2] and "ccz-copy" in classes[3]
    assert not {"ccz-copy", "ccz-copies-of"} & set(classes[1]), "Wind Power is like no other card in play"
    classes, numbers = in_play_cards(render_state(wind, 0, ("special", 1)))
    assert numbers == ["×3"] and "target" in classes[0] and "ccz-copy" in classes[2] and "ccz-copy" in classes[3]
    classes, numbers = in_play_cards(render_state(position(in_play=("Budget", "Bike Lanes")), 0))
    assert not numbers and not any({"ccz-copy", "ccz-copies-of"} & set(cls) for cls in classes)
