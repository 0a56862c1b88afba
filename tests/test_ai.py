"""The computer players: seeded, fair (only their seat's view), and better than random."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

import pyengine
from pyengine import Rng
from pyengine.ai import LEVELS, Level, SearchBot, make_bot
from pyengine.core import Action, Core
from pyengine.planning import plan_turn
from pyengine.simulate import simulate
from tests.playouts import playout, valid_options

GAME_IDS = list(pyengine.GAMES)
QUICK = Level(iterations=30, rollout_depth=6, max_seconds=None)
NARROW = replace(QUICK, root_width=3)


def some_states(game_id: str, count: int = 4) -> list[pyengine.State]:
    info = pyengine.GAMES[game_id]
    rnd = random.Random(game_id)
    players = max(info.min_players, min(2, info.max_players))
    state = pyengine.new_game(game_id, players, 11, valid_options(game_id, players, rnd))
    states = [s for s in playout(state, rnd, 60) if not s.is_terminal() and len(s.legal_actions()) > 1]
    return states[:: max(1, len(states) // count)][:count]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_same_choice(game_id: str) -> None:
    for state in some_states(game_id):
        first = SearchBot(QUICK, seed=5).choose(state)
        assert str(SearchBot(QUICK, seed=5).choose(state)) == str(first)
        assert first in state.legal_actions()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_choice_depends_only_on_what_the_seat_sees(game_id: str) -> None:
    """Re-deal every card the bot's seat cannot see: the bot must choose the same."""
    for state in some_states(game_id):
        seat = state.current_player
        other_world = state.sample_hidden(seat, Rng.from_seed(1234))
        assert other_world.view(seat) == state.view(seat)
        for level in (QUICK, NARROW):
            assert str(SearchBot(level, seed=9).choose(other_world)) == str(SearchBot(level, seed=9).choose(state))


def ranking(state: pyengine.State, world: Core) -> list[Action] | None:
    """The root's ranking as the search makes it: the game's ``rank_actions``, else the judgement's plans."""
    rules, seat = state.rules, state.current_player
    weighed = rules.search_actions(world)
    ranked = rules.rank_actions(world, weighed)
    if ranked is None and rules.judgement(world, seat) is not None:
        return [action for _, action in plan_turn(rules, world, seat) if action in set(weighed)]
    return ranked


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_root_width_weighs_the_best_ranked_actions(game_id: str) -> None:
    """A level's root width keeps the search to the game's best-ranked actions (its ``rank_actions``, else its
    judgement's plans); where the game does not rank (or the choice is narrow already) the level decides exactly
    as without it."""
    for state in some_states(game_id, 6):
        seat = state.current_player
        world = state.sample_hidden(seat, Rng.from_seed(77)).core
        weighed = state.rules.search_actions(world)
        ranked = ranking(state, world)
        choice = str(SearchBot(NARROW, seed=4).choose(state))
        if ranked is None or len(weighed) <= NARROW.root_width:
            assert choice == str(SearchBot(QUICK, seed=4).choose(state))
        else:
            assert sorted(map(str, ranked)) == sorted(map(str, weighed)), "a ranking orders the same actions"
            assert choice in {str(a) for a in ranked[: NARROW.root_width]}


def test_plan_turn_judges_each_action_through_the_turn() -> None:
    """The plan's first action is what the judgement at the end of the seat's turn prefers: every legal action
    once, best first, each valued by the best line through the rest of the turn."""
    state = some_states("cardcassonne", 2)[1]
    rules, seat = state.rules, state.current_player
    plan = plan_turn(rules, state.core, seat)
    assert sorted(str(a) for _, a in plan) == sorted(map(str, state.legal_actions()))
    assert [v for v, _ in plan] == sorted((v for v, _ in plan), reverse=True)


def test_a_prior_tries_the_best_ranked_first() -> None:
    """With a prior and no root width, every root action stays weighed, the ranking's best tried first, and the
    choice is still reproducible and fair."""
    for game_id in ("carbles", "silver-bars"):
        for state in some_states(game_id, 3):
            level = replace(QUICK, prior=2.0)
            seat = state.current_player
            choice = str(SearchBot(level, seed=3).choose(state))
            other = state.sample_hidden(seat, Rng.from_seed(5))
            assert choice == str(SearchBot(level, seed=3).choose(other))
            assert choice in state.legal_texts()


def test_paired_levels_compare_the_ranked_moves_on_the_same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """A paired level plays every ranked root move once on each deal, best-ranked first, each from the same rollout
    generator, and chooses the best valued (plus the prior's bias); its choice is reproducible and fair."""
    level = replace(NARROW, prior=2.0, paired=True)
    width = level.root_width
    state = next(s for s in some_states("cardcassonne", 6) if len(s.rules.search_actions(s.core)) > 2 * width)
    calls: list[tuple[Core, str, float]] = []  # the deals kept, so no two share an id
    iterate = SearchBot._iterate

    def watched(self: SearchBot, rules: object, core: Core, players: int, root: object, rnd: random.Random,
                level: Level, priors: dict[Action, float] | None) -> None:
        assert priors is not None and len(priors) == 1
        ahead = random.Random()
        ahead.setstate(rnd.getstate())  # the generator's next number, without drawing it
        calls.append((core, str(next(iter(priors))), ahead.random()))
        iterate(self, rules, core, players, root, rnd, level, priors)

    monkeypatch.setattr(SearchBot, "_iterate", watched)
    choice = str(SearchBot(level, seed=6).choose(state))
    monkeypatch.undo()  # the same choice unwatched, below
    assert len(calls) == -(-level.iterations // width) * width  # whole rounds, at least the budget
    world = state.sample_hidden(state.current_player, Rng.from_seed(0)).core
    for start in range(0, len(calls), width):
        deal = calls[start : start + width]
        assert len({id(core) for core, _, _ in deal}) == 1  # one deal a round
        assert len({first for _, _, first in deal}) == 1  # the same rollout generator for each move
        assert len({move for _, move, _ in deal}) == width  # every ranked move once
    assert [move for _, move, _ in calls[:width]] == [str(a) for a in ranking(state, world)[:width]]
    assert choice == str(SearchBot(level, seed=6).choose(state))
    assert choice == str(SearchBot(level, seed=6).choose(state.sample_hidden(state.current_player, Rng.from_seed(8))))
    assert choice in {move for _, move, _ in calls}


def test_levels_and_names() -> None:
    assert set(LEVELS) == {"easy", "normal", "hard"}
    assert LEVELS["easy"].iterations < LEVELS["normal"].iterations < LEVELS["hard"].iterations
    with pytest.raises(ValueError, match="random, easy, normal, hard"):
        make_bot("genius")


def test_a_level_tuned_for_a_game_plays_only_that_game_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's rules tune a level for that game alone (``ai_tuning``, by level name), its budget only where the
    game says so; the rollouts' depth is the level's everywhere."""
    tuning = {game_id: pyengine.core.rules_for(game_id).ai_tuning for game_id in GAME_IDS}
    assert tuning["carbles"] == {
        "normal": {"prior": 2.0, "from_players": {3: {"exploration": 0.4}}},
        "hard": {"exploration": 0.4, "prior": 2.0},
    }
    assert tuning["cardcassonne"] == {
        "normal": {"iterations": 720, "root_width": 8, "prior": 10.0, "paired": True,
                   "from_players": {3: {"iterations": 300, "paired": False, "prior": 2.0}, 4: {"exploration": 0.4}}},
        "hard": {"root_width": 8, "prior": 2.0, "paired": True, "from_players": {3: {"paired": False}}},
    }
    assert tuning["silver-bars"] == {"normal": {"iterations": 450}}
    for game_id in GAME_IDS:
        rules = pyengine.core.rules_for(game_id)
        budgets = [level.for_rules(rules).iterations for level in LEVELS.values()]
        assert budgets == sorted(set(budgets)), f"{game_id}: each level searches more than the one below"
        for name, level in LEVELS.items():
            tuned = level.for_rules(rules)
            assert tuned.iterations == tuning[game_id].get(name, {}).get("iterations", level.iterations)
            assert tuned.rollout_depth == level.rollout_depth
            if name not in tuning[game_id]:
                assert tuned is level
            else:
                settings = {k: v for k, v in tuning[game_id][name].items() if k != "from_players"}
                assert {key: getattr(tuned, key) for key in settings} == settings
    carbles = pyengine.core.rules_for("carbles")
    assert LEVELS["normal"].for_rules(carbles, 2).exploration == LEVELS["normal"].exploration  # two players: as is
    assert LEVELS["normal"].for_rules(carbles, 3).exploration == 0.4
    assert LEVELS["normal"].for_rules(carbles, 12).exploration == 0.4
    cardcassonne = pyengine.core.rules_for("cardcassonne")
    assert LEVELS["normal"].for_rules(cardcassonne, 2).paired and LEVELS["hard"].for_rules(cardcassonne, 2).paired
    assert LEVELS["normal"].for_rules(cardcassonne, 2).iterations == 720
    assert LEVELS["normal"].for_rules(cardcassonne, 3).iterations == LEVELS["normal"].iterations
    assert not LEVELS["normal"].for_rules(cardcassonne, 3).paired
    assert not LEVELS["hard"].for_rules(cardcassonne, 4).paired
    assert LEVELS["normal"].for_rules(cardcassonne, 3).exploration == LEVELS["normal"].exploration
    assert LEVELS["normal"].for_rules(cardcassonne, 4).exploration == 0.4
    state = some_states("carbles", 2)[1]
    level = replace(QUICK, name="quick")
    monkeypatch.setattr(state.rules, "ai_tuning", {"quick": {"exploration": 0.0}})
    greedy = replace(QUICK, exploration=0.0)
    assert str(SearchBot(level, seed=2).choose(state)) == str(SearchBot(greedy, seed=2).choose(state))
    other = some_states("silver-bars", 1)[0]
    assert str(SearchBot(level, seed=2).choose(other)) == str(SearchBot(QUICK, seed=2).choose(other))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_easy_bot_beats_random(game_id: str) -> None:
    """A small sample (the benchmark reports the large one): easy must win most games against random."""
    info = pyengine.GAMES[game_id]
    players = 2 if info.min_players <= 2 <= info.max_players else info.min_players
    if info.cooperative:
        bot = simulate(game_id, players, 3, 1, ["easy"] * players)["win_rate_by_bot"]["easy"]
        rnd = simulate(game_id, players, 3, 1, ["random"] * players)["win_rate_by_bot"]["random"]
        assert bot > rnd
    else:  # each seat once, both games won; Carbles, where the cards' luck beats easy now and then, 3 of 4
        games = {"silver-bars": 1, "carbles": 4}.get(game_id, 2)  # a 100 Silver Bars match is long: one
        summary = simulate(game_id, players, games, 1, ["easy", "random"], rotate=True)
        assert summary["win_rate_by_bot"]["easy"] >= (0.75 if games > 2 else 1.0), summary


def test_the_budget_is_the_level() -> None:
    """A level is its iteration budget: the search uses all of it, and time spent by the page between
    two slices of ``think`` does not count toward the safety cap."""
    state = some_states("silver-bars", 1)[0]
    level = Level(iterations=24, rollout_depth=4, max_seconds=0.5)
    bot = SearchBot(level, seed=3)
    for _ in bot.think(state):
        time.sleep(0.3)  # the page draws and answers clicks: not the bot's thinking
    assert bot.iterations_done == 24
    assert str(bot.decision) == str(SearchBot(replace(level, max_seconds=None), seed=3).choose(state))


def test_a_level_decides_the_same_on_repeat() -> None:
    """Same position and seed, same move, at the lobby's level (budget, rollouts and all)."""
    state = some_states("carbles", 2)[1]
    choices = {str(SearchBot(replace(LEVELS["easy"], max_seconds=None), seed=8).choose(state)) for _ in range(2)}
    assert len(choices) == 1


def test_strength_benchmark_runs() -> None:
    """The benchmark's greedy yardstick plays a whole game (the benchmark itself is not a test)."""
    from tests.bench.strength import match

    result = match("silver-bars", 2, 1, 1, "random", "greedy")
    assert result["n"] == 1 and 0.0 <= result["low"] <= result["rate"] <= result["high"] <= 1.0


def test_cardcassonne_judges_from_the_core_as_from_the_view() -> None:
    """The search reads Card-cassonne's judgement straight from the core: the same figures as the view gives."""
    from pyengine.estimate import seen
    from pyengine.games.cardcassonne import judgement

    rules = pyengine.core.rules_for("cardcassonne")
    for players in (2, 3):
        rnd = random.Random(players)
        start = pyengine.new_game("cardcassonne", players, 3)
        for state in playout(start, rnd, 400):
            assert judgement.worths_of(state.core) == judgement.worths(seen(rules, state.core, None))
            if not state.is_terminal():
                seat = state.current_player
                assert rules.judgement(state.core, seat) == judgement.value(seen(rules, state.core, seat), seat)


def test_silver_bars_ranks_as_the_rule_based_player_plays() -> None:
    """100 Silver Bars ranks the root as its rule-based player weighs its plays (the judgement with what a card is
    worth in hand and when a lock is due): the ranking's first is the rule-based choice."""
    from tests.bench.rulebased import silver_choose

    for state in some_states("silver-bars", 6):
        rules, seat = state.rules, state.current_player
        ranked = rules.rank_actions(state.core, rules.search_actions(state.core))
        assert ranked is not None and sorted(map(str, ranked)) == sorted(state.legal_texts())
        assert str(ranked[0]) == str(silver_choose(rules, state.core, seat))
