"""100 Silver Bars: golden scenarios from the rules page (rule numbers are its anchors) and the table's turn flow."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

import pyengine
from pyengine import IllegalAction, RefusedAction, Rng, State
from pyengine.cards import Card
from pyengine.games.silver_bars import MAX_ROUNDS, RULES, SilverBarsState, Vault, deck
from pyengine.words import seat_names

DEFAULT = {"thief": "lowest-overall", "strikes": 2}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def vault(text: str = "", locked: bool = False, rubble: str | None = None) -> Vault:
    return Vault(cards(text), Card.parse(rubble) if rubble else None, locked)


def row(*vaults: Vault) -> tuple[Vault, ...]:
    return tuple(vaults) + (Vault(),) * (5 - len(vaults))


FILLER = "2♣ 2♢ 3♣ 3♢ 4♣ 4♢ 7♣"


def fill(n: int) -> str:
    """The first ``n`` filler cards."""
    return " ".join(FILLER.split()[:n])


PILE = "8♣ 8♢ 9♣ 9♢ 10♣ 10♢ 7♢ 7♡ 8♡ 9♡"


def position(
    mine: tuple[Vault, ...] = row(),
    theirs: tuple[Vault, ...] = row(),
    hand: str = FILLER,
    their_hand: str = FILLER,
    pile: str = PILE,
    options: dict[str, Any] | None = None,
    **changes: Any,
) -> State:
    """Player 1 (seat 0) to move with ``hand``; the opponent is seat 1."""
    opts = {**DEFAULT, **(options or {})}
    core: SilverBarsState = RULES.setup(2, opts, Rng.from_seed(1))
    base = {"turn": 0, "dealer": 1, "vaults": (mine, theirs), "draw": cards(pile), "discard": (),
            "hands": (tuple(sorted(cards(hand))), tuple(sorted(cards(their_hand))))}
    core = replace(core, **(base | changes))
    return State(RULES, 2, opts, 1, core)


def play(state: State, *texts: str) -> State:
    for text in texts:
        state = state.apply(text)
    return state


def refusal(state: State, text: str) -> str:
    """Why ``text`` is refused now (it must be refused: unreadable, or illegal now)."""
    with pytest.raises(RefusedAction) as refused:
        state.apply(text)
    return str(refused.value)


EMPTY = {"cards": [], "roles": [], "rubble": None, "locked": False, "silver": 0}


def tops(state: State, seat: int) -> list[str | None]:
    return [v["cards"][-1] if v["cards"] else None for v in state.view(seat)["vaults"][seat]]


# -- scoring (rule 12) --------------------------------------------------------------------------------
def test_a_m_3_m_4_m_6_locked_scores_14() -> None:
    locked2 = vault("2♠", locked=True)
    state = position(mine=row(vault("A♠ 7♠ 3♣ 8♣ 4♡ 9♢"), locked2, locked2, locked2, locked2), hand="6♠ " + fill(6))
    assert "play 6 v1" in state.legal_texts()
    state = play(state, "play 6 v1", "discard 7")
    assert state.view(0)["vaults"][0][0]["cards"] == ["A♠", "7♠", "3♣", "8♣", "4♡", "9♢", "6♠"]
    assert state.view(0)["vaults"][0][0]["silver"] == 14
    state = state.apply("lock v1")  # fifth lock: the round ends at once (rule 11)
    last = state.view(0)["last_round"]
    assert last["points"] == [14 + 4 * 2, 0] and last["reason"] == "fifth lock"
    assert state.scores() == [22, 0]
    assert state.view(0)["round"] == 2


def test_both_players_score_their_locked_vaults_and_unlocked_score_nothing() -> None:
    mine = row(*(vault("6♠", locked=True) for _ in range(4)), vault("4♠"))
    theirs = row(vault("A♣ 7♣ 6♣", locked=True), vault("4♣ 8♣ 6♢"), vault("3♣", locked=True))
    state = position(mine=mine, theirs=theirs).apply("lock v5")
    assert state.view(0)["last_round"]["points"] == [28, 10]


# -- silver, miners (rules 4, 5) ------------------------------------------------------------------------
def test_silver_goes_on_empty_or_on_a_miner_over_lower_silver() -> None:
    mine = row(vault("3♠"), vault("3♠ 7♠"), vault("6♠ 7♠"), vault("2♠ 8♠"), vault("", locked=False, rubble="K♣"))
    state = position(mine=mine, hand="4♠ 9♠ A♡ " + fill(4))
    legal = state.legal_texts()
    assert "play 4 v2" in legal and "play 4 v4" in legal
    assert "play 4 v1" not in legal and "play 4 v3" not in legal and "play 4 v5" not in legal
    assert "play A v2" not in legal and "play A v4" not in legal  # strictly higher
    assert "play 3 v2" not in legal and "play 2 v4" not in legal and "play 3 v4" in legal  # equal is not higher
    assert [t for t in legal if t.startswith("miner 9")] == ["miner 9 v1"]  # only onto silver
    assert "straight onto silver" in refusal(state, "play 4 v1")
    assert "must be higher" in refusal(state, "play 4 v3")
    assert "rubble" in refusal(state, "play 4 v5")


def test_equivalent_cards_give_one_action() -> None:
    state = position(hand="6♠ 6♡ 6♣ 9♠ 9♡ 7♣ 7♢")
    legal = state.legal_texts()
    assert legal.count("play 6 v1") == 1 and legal.count("discard 6") == 1 and legal.count("discard 9") == 1


# -- rubble and shovel (rules 6, 7) -----------------------------------------------------------------------
def test_rubble_only_into_an_opponents_empty_vault_and_a_shovel_removes_it() -> None:
    theirs = row(vault("3♣"), vault("", rubble="K♢"))
    state = position(theirs=theirs, hand="K♣ " + fill(6))
    assert [t for t in state.legal_texts() if t.startswith("rubble")] == ["rubble v3", "rubble v4", "rubble v5"]
    state = state.apply("rubble v3")
    view = state.view(1)
    assert view["vaults"][1][2]["rubble"] == "K♣" and state.current_player == 1
    # the opponent can neither play nor lock there, but can shovel it out
    state = replace_hand(state, 1, "Q♡ 4♠ 2♣ 3♣ 4♣ 4♢ 7♣")
    legal = state.legal_texts()
    assert "play 4 v3" not in legal and "lock v3" not in legal
    assert [t for t in legal if t.startswith("shovel")] == ["shovel v2", "shovel v3"]
    state = state.apply("shovel v3")
    assert state.view(0)["vaults"][1][2] == EMPTY
    assert state.view(0)["discard"][-2:] == ["K♣", "Q♡"]


def test_a_shovel_without_rubble_cannot_be_played() -> None:
    state = position(hand="Q♣ " + fill(6))
    assert not [t for t in state.legal_texts() if t.startswith("shovel")]
    assert "discard shovel" in state.legal_texts()
    assert "no rubble" in refusal(state, "shovel v1")


def replace_hand(state: State, seat: int, hand: str) -> State:
    hands = list(state.core.hands)
    hands[seat] = tuple(sorted(cards(hand)))
    return State(RULES, 2, state.options, 1, replace(state.core, hands=tuple(hands)))


# -- thieves (rule 8) -------------------------------------------------------------------------------------
THEIRS = row(vault("A♣ 7♣ 3♣"), vault("2♣", locked=True), vault("6♣"), vault("A♢ 8♢"), vault("4♢"))


def test_lo_thief_steals_the_lowest_unlocked_top_silver_and_places_it() -> None:
    state = position(theirs=THEIRS, hand="J♣ " + fill(6))
    state = state.apply("lo-thief")
    assert state.current_player == 0 and len(state.core.hands[0]) == 6
    assert state.view(1)["pending"] == {"thief": "lo-thief", "thief_name": "lo thief", "choices": [], "carry": "3♣",
                                        "from": 0}
    assert state.legal_texts() == ["place v1", "place v2", "place v3", "place v4", "place v5"]
    state = state.apply("place v2")
    assert tops(state, 0)[1] == "3♣"
    assert tops(state, 1)[0] == "7♣"  # the victim's vault falls back to its previous top card
    assert len(state.core.hands[0]) == 7 and state.current_player == 1
    assert state.view(0)["discard_top"] == "J♣"


def test_hi_thief_steals_the_highest() -> None:
    state = play(position(theirs=THEIRS, hand="Jk " + fill(6)), "hi-thief", "place v5")
    assert tops(state, 0)[4] == "6♣" and tops(state, 1)[2] is None


def test_thief_tie_is_the_thiefs_choice() -> None:
    theirs = row(vault("3♣"), vault("A♢ 9♢ 3♡"), vault("6♣"))
    state = position(theirs=theirs, hand="J♣ " + fill(6)).apply("lo-thief")
    assert state.legal_texts() == ["steal v1", "steal v2"]
    assert state.view(1)["pending"]["choices"] == [0, 1]  # vault indexes, 0-based like the view's lists
    state = play(state, "steal v2", "place v1")
    assert tops(state, 1)[:3] == ["3♣", "9♢", "6♣"] and tops(state, 0)[0] == "3♡"


def test_a_thief_whose_silver_cannot_be_placed_cannot_be_played() -> None:
    full = row(*(vault("3♠ 7♠") for _ in range(5)))  # only silver above 3 fits
    theirs = row(vault("2♣"), vault("4♣"))
    state = position(mine=full, theirs=theirs, hand="J♣ Jk " + fill(5))
    legal = state.legal_texts()
    assert "lo-thief" not in legal and "hi-thief" in legal and "discard lo-thief" in legal
    assert "cannot be placed" in refusal(state, "lo-thief")
    # variant: the lo thief aims at the lowest silver it can place
    variant = position(mine=full, theirs=theirs, hand="J♣ Jk " + fill(5), options={"thief": "lowest-placeable"})
    state = variant.apply("lo-thief")
    assert state.view(0)["pending"]["carry"] == "4♣"


def test_lowest_placeable_with_nothing_placeable_and_no_targets() -> None:
    full = row(*(vault("6♠ 7♠") for _ in range(5)))
    state = position(mine=full, theirs=row(vault("2♣")), hand="J♣ " + fill(6), options={"thief": "lowest-placeable"})
    assert "lo-thief" not in state.legal_texts()
    empty_side = position(theirs=row(vault("2♣", locked=True)), hand="Jk " + fill(6))
    assert "hi-thief" not in empty_side.legal_texts()
    assert "nothing to steal" in refusal(empty_side, "hi-thief")


def test_a_locked_vault_is_immune() -> None:
    theirs = row(vault("6♣", locked=True), vault("2♣ 9♣ 4♣", locked=True))
    state = position(theirs=theirs, hand="J♣ Jk Q♠ " + fill(4))
    assert "lo-thief" not in state.legal_texts() and "hi-thief" not in state.legal_texts()
    state = state.apply("strike")
    assert state.view(0)["vaults"][1][:2] == RULES.view(position(theirs=theirs).core, 0)["vaults"][1][:2]
    mine = row(vault("4♠", locked=True))
    state = position(mine=mine, hand="6♠ 9♠ " + fill(5))
    assert not [t for t in state.legal_texts() if t.endswith("v1") and not t.startswith("rubble")]
    assert "locked" in refusal(state, "miner 9 v1")


# -- worker's strike (rules 3, 9) -------------------------------------------------------------------------
def test_strike_discards_top_miners_and_the_next_turn_only_clears_it() -> None:
    theirs = row(vault("3♣ 8♣"), vault("A♣ 7♢"), vault("2♣"), vault("A♡ 9♡ 4♡ 10♡"))
    state = position(theirs=theirs, hand="Q♠ " + fill(6))
    draw_before = len(state.core.draw)
    state = state.apply("strike")
    assert tops(state, 1)[:4] == ["3♣", "A♣", "2♣", "4♡"]
    assert state.view(0)["discard"] == ["8♣", "7♢", "10♡"]
    assert state.view(0)["strike"] == [False, True]
    assert len(state.core.hands[0]) == 7 and len(state.core.draw) == draw_before - 1  # the striker draws
    assert state.current_player == 1 and state.legal_texts() == ["clear strike"]
    assert "clear it" in refusal(state, "discard 2")
    with pytest.raises(IllegalAction):
        state.apply("lock v1")
    state = state.apply("clear strike")
    assert state.current_player == 0 and state.view(0)["strike"] == [False, False]
    assert len(state.core.hands[1]) == 7 and len(state.core.draw) == draw_before - 1  # no draw
    assert state.view(0)["discard_top"] == "Q♠"


def test_strike_count_option() -> None:
    for strikes, pile in ((2, 81), (1, 80)):
        state = pyengine.new_game("silver-bars", 2, 7, {"strikes": strikes})
        assert state.view(0)["draw_count"] == pile
        assert deck(strikes).count(Card(12, "♠")) == strikes
    assert len(deck(2)) == 95


# -- locks (rule 10) -------------------------------------------------------------------------------------
def test_locks_go_only_on_silver() -> None:
    mine = row(vault("3♠"), vault("3♠ 7♠"), vault("", rubble="K♣"), vault(), vault("6♠", locked=True))
    state = position(mine=mine)
    assert [t for t in state.legal_texts() if t.startswith("lock")] == ["lock v1"]
    assert "miner" in refusal(state, "lock v2")
    assert "rubble" in refusal(state, "lock v3")
    assert "empty" in refusal(state, "lock v4")
    assert "already locked" in refusal(state, "lock v5")
    draw = len(state.core.draw)
    state = state.apply("lock v1")
    assert len(state.core.draw) == draw and len(state.core.hands[0]) == 7 and state.current_player == 1
    assert state.view(0)["locks_left"] == [3, 5]


# -- round end (rule 11), next round (rule 13) -----------------------------------------------------------
def test_round_ends_at_the_end_of_the_turn_that_empties_the_draw_pile() -> None:
    state = position(mine=row(vault("6♠", locked=True), vault("4♠")), pile="9♠ 8♠")
    state = state.apply("discard 7")
    assert state.view(0)["round"] == 1 and state.view(0)["draw_count"] == 1
    state = state.apply("discard 7")
    view = state.view(0)
    assert view["round"] == 2 and view["last_round"]["reason"] == "draw pile empty"
    assert state.scores() == [6, 0]
    # the next round: everything reshuffled and dealt, the dealer alternates, the non-dealer starts
    assert view["dealer"] == 0 and state.current_player == 1
    assert view["draw_count"] == 81 and view["hand_counts"] == [7, 7] and view["discard_count"] == 0
    assert all(v == EMPTY for r in view["vaults"] for v in r)


def test_first_dealer_is_random_and_alternates() -> None:
    dealers = {pyengine.new_game("silver-bars", 2, seed).view(None)["dealer"] for seed in range(12)}
    assert dealers == {0, 1}
    state = pyengine.new_game("silver-bars", 2, 3)
    assert state.current_player == 1 - state.view(None)["dealer"]
    rnd = random.Random(3)
    seen = []
    while not state.is_terminal() and len(seen) < 4:
        view = state.view(None)
        if not seen or seen[-1][0] != view["round"]:
            seen.append((view["round"], view["dealer"], state.current_player))
        state = state.apply(rnd.choice(state.legal_actions()))
    assert [d for _, d, _ in seen] == [seen[0][1], 1 - seen[0][1], seen[0][1], 1 - seen[0][1]]
    assert all(p == 1 - d for _, d, p in seen)


# -- the match (rule 14) ------------------------------------------------------------------------------------
FOUR_LOCKED = row(*(vault("3♠", locked=True) for _ in range(4)), vault("6♠"))


def test_reaching_100_ends_the_match_with_the_higher_total() -> None:
    theirs = row(vault("6♣", locked=True))
    state = position(mine=FOUR_LOCKED, theirs=theirs, totals=(82, 96)).apply("lock v5")
    assert state.is_terminal() and state.scores() == [100, 102] and state.winners() == [1]
    state = position(mine=FOUR_LOCKED, totals=(90, 50)).apply("lock v5")
    assert state.is_terminal() and state.winners() == [0]
    entry = state.log()[-1]
    assert entry.say(["Ann", "Bob"]).endswith("Ann wins the match")
    assert entry.say(["Ann", "Bob"], you=0).endswith("You win the match")
    assert entry.facts["winners"] == [0] and entry.facts["round_end"]["points"] == [18, 0]


def test_an_exact_tie_at_100_plays_another_round() -> None:
    theirs = row(vault("6♣ 7♣ 6♢", locked=True), vault("6♡", locked=True))
    state = position(mine=FOUR_LOCKED, theirs=theirs, totals=(82, 82)).apply("lock v5")
    assert state.scores() == [100, 100] and not state.is_terminal() and state.view(0)["round"] == 2


def test_round_guard_ends_a_stalled_match() -> None:
    state = position(mine=row(vault("2♠", locked=True)), pile="9♠", round=MAX_ROUNDS, totals=(10, 13))
    state = state.apply("discard 7")
    assert state.is_terminal() and state.winners() == [1]
    state = position(mine=row(vault("A♠", locked=True)), pile="9♠", round=MAX_ROUNDS, totals=(10, 11))
    assert play(state, "discard 7").winners() == [0, 1]


# -- every turn, hidden information -----------------------------------------------------------------------
def test_hands_are_seven_after_every_turn_and_views_hide_the_opponent() -> None:
    for seed in range(3):
        rnd = random.Random(seed)
        state = pyengine.new_game("silver-bars", 2, seed, {"strikes": 1 + seed % 2})
        while not state.is_terminal():
            state = state.apply(rnd.choice(state.legal_actions()))
            if state.core.pending is None:
                assert [len(h) for h in state.core.hands] == [7, 7]
            view = state.view(0)
            assert view["hand_counts"] == [len(h) for h in state.core.hands] and view["hand"] is not None
            assert state.view(None)["hand"] is None
            total = sum(len(h) for h in state.core.hands) + len(state.core.draw) + len(state.core.discard)
            total += sum(len(v.cards) + (v.rubble is not None) for r in state.core.vaults for v in r)
            total += sum(state.core.strike) + (state.core.pending is not None and state.core.pending.carry is not None)
            assert total == 95 - (2 - state.options["strikes"])
        assert len(state.history()) <= RULES.info.max_actions(2)


def test_log_entries_name_cards_played_but_not_cards_drawn() -> None:
    state = position(hand="6♠ " + fill(6), pile="A♡ 9♠")
    state = state.apply("play 6 v1")
    [entry] = state.log()
    assert entry.seat == 0
    assert entry.say(seat_names(2)) == "Player 1 puts silver 6♠ in their leftmost vault and draws"
    assert entry.say(["Ann", "Bob"], you=0) == "You put silver 6♠ in your leftmost vault and draw"
    assert entry.facts == {"kind": "play", "vault": 0, "side": 0, "card": "6♠"}
    assert "9♠" not in entry.say(seat_names(2)) and "9♠" not in str(entry.facts)


def test_log_entries_agree_with_you() -> None:
    """"You deal", "your vault": the log reads right for the person at the screen."""
    state = position(theirs=row(vault("3♣")), hand="K♣ " + fill(6), pile="9♠ 8♠")
    state = state.apply("rubble v2")
    assert state.log()[-1].say(["Ann", "Bob"], you=1) == "Ann drops rubble K♣ into your second vault and draws"
    assert state.log()[-1].facts == {"kind": "rubble", "vault": 1, "side": 1, "card": "K♣"}
    state = state.apply("discard 7")  # empties the draw pile: the round ends (rule 11), seat 0 deals next
    text = state.log()[-1].say(["Ann", "Bob"], you=0)
    assert text.endswith(". You deal round 2"), text
    assert "You scores" not in text and "You deals" not in text
    assert state.log()[-1].facts["round_end"] == {"round": 1, "reason": "draw pile empty", "points": [0, 0],
                                                  "totals": [0, 0]}


def test_moves_carry_the_card_role_the_vault_and_its_side() -> None:
    theirs = row(vault("3♣"))
    state = position(theirs=theirs, hand="4♠ K♣ J♣ Jk 2♣ 3♣ 7♣")
    moves = state.view(0)["moves"]
    assert moves["play 4 v2"] == {"kind": "play", "token": "4", "role": "silver", "vault": 1, "side": 0}
    assert moves["rubble v2"] == {"kind": "rubble", "token": "rubble", "role": "rubble", "vault": 1, "side": 1}
    assert moves["lo-thief"] == {"kind": "lo-thief", "token": "lo-thief", "role": "lo thief"}
    assert moves["discard hi-thief"] == {"kind": "discard", "token": "hi-thief", "role": "hi thief"}
    view = state.view(0)
    assert view["hand"][:2] == ["Jk", "2♣"]
    assert view["hand_roles"][:2] == [{"token": "hi-thief", "role": "hi thief", "name": "hi thief"},
                                      {"token": "2", "role": "silver", "name": "silver 2"}]
    assert state.view(1)["moves"] == {} and state.view(1)["hand_roles"] is not None
    assert state.view(None)["hand_roles"] is None and "turn" not in state.view(0)


def test_why_illegal_names_the_problem() -> None:
    state = position()
    assert "actions look like" in refusal(state, "fly away")
    assert "no such vault" in refusal(state, "play 2 v9")
    assert "hold no silver 6" in refusal(state, "play 6 v1")
    assert "7 is a miner" in refusal(state, "play 7 v1")
    assert "hold no rubble" in refusal(state, "discard rubble")
    assert "only a thief you have just played" in refusal(state, "steal v2")
    assert "no strike" in refusal(state, "clear strike")


# -- the table ------------------------------------------------------------------------------------------------
def rendered(state: State, selection: tuple | None = None, seat: int | None = None) -> str:
    from cardtable_web.drawing import render_state

    seat = state.current_player if seat is None else seat
    return render_state(state, seat, selection, names=["Ann", "Bob"])


def test_renderer_select_a_card_then_a_target_vault() -> None:
    theirs = row(vault("3♣"))
    state = position(mine=row(vault("2♠"), vault("2♠ 7♠")), theirs=theirs, hand="4♠ K♣ Q♠ J♣ 2♣ 3♣ 7♣")
    html = rendered(state)
    assert 'data-select="[&quot;card&quot;,&quot;4&quot;,&quot;4♠&quot;]"' in html
    assert 'data-select="[&quot;card&quot;,&quot;rubble&quot;,&quot;K♣&quot;]"' in html
    assert 'data-action="lock v1"' in html and 'data-action="play 4 v2"' not in html
    html = rendered(state, ("card", "4"))
    for n in (2, 3, 4, 5):
        assert f'data-action="play 4 v{n}"' in html
    assert 'data-action="play 4 v1"' not in html and 'data-action="discard 4"' in html
    assert "Silver 4 selected" in html and "Discard the silver 4" in html
    html = rendered(state, ("card", "rubble"))
    assert 'data-action="rubble v2"' in html and 'data-action="rubble v1"' not in html
    assert 'data-action="strike"' in rendered(state, ("card", "strike"))
    html = rendered(state, ("card", "lo-thief"))
    assert 'data-action="lo-thief"' in html and "Lo thief selected" in html and "Discard the lo thief" in html
    assert "lo-thief selected" not in html
    assert "Ann" in html and "Bob" in html


def test_tapping_one_of_two_cards_of_a_role_chooses_only_that_card() -> None:
    """Two 6s play alike, but a tap on one chooses that card: only it shows chosen, and its vaults are offered."""
    state = position(mine=row(vault("2♠"), vault("2♠ 7♠")), theirs=row(vault("3♣")), hand="6♠ 6♣ K♣ Q♠ J♣ 2♣ 3♣")
    for tapped in ("6♠", "6♣"):
        html = rendered(state, ("card", "6", tapped))
        chosen = re.findall(r'<button class="card [^"]*\bselected\b[^"]*" data-card="([^"]+)"', html)
        assert chosen == [tapped], f"tapping {tapped}: chosen {chosen}"
        assert 'data-action="play 6 v' in html
    html = rendered(state, ("card", "6"))  # a role alone (an older address): the first such card shows chosen
    assert re.findall(r'<button class="card [^"]*\bselected\b[^"]*" data-card="([^"]+)"', html) == ["6♠"]


def test_renderer_speaks_to_you() -> None:
    state = position(theirs=row(vault("3♣"), vault("3♡")), hand="J♣ " + fill(6))
    state = state.apply("lo-thief")
    html = rendered(state)
    assert "Your lo thief: tie" in html and "Ann&#x27;s" not in html
    assert "Ann&#x27;s lo thief" in rendered(state, seat=1)
    dealt = rendered(state)
    assert "Bob deals" in dealt
    assert "You deal" in rendered(position(dealer=0))


def test_renderer_strike_and_thief_choices() -> None:
    theirs = row(vault("3♣"), vault("3♡"))
    state = position(theirs=theirs, hand="Q♠ J♣ " + fill(5))
    struck = state.apply("strike")
    html = rendered(struck)
    assert 'data-action="clear strike"' in html and "data-select" not in html
    assert "STRIKE pending" in rendered(struck, seat=0)
    thief = state.apply("lo-thief")
    html = rendered(thief)
    assert 'data-action="steal v1"' in html and 'data-action="steal v2"' in html
    placing = thief.apply("steal v2")
    html = rendered(placing)
    assert 'data-action="place v1"' in html and "3♡" in html and "from vault 2" in html
    assert 'data-action' not in rendered(placing, seat=1)


def test_a_position_with_an_empty_hand_is_refused() -> None:
    """A player with no card has no move once their locks are placed (found by the mutated positions' test): a
    position gives every hand at least one card."""
    hands = [[], ["2♣", "3♡", "7♡", "8♢", "9♡", "10♣", "Q♣"]]
    with pytest.raises(ValueError, match="hand 1: a hand holds at least one card"):
        pyengine.new_game("silver-bars", 2, 725, None, {"hands": hands, "vaults": [[["4♣"]], [["3♣"], ["2♡"]]]})
    state = pyengine.new_game("silver-bars", 2, 725, None, {"hands": [["4♡"], hands[1]]})
    assert state.legal_actions()
