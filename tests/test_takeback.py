"""Take-backs, one policy for every game: never past another human's decision or anything shown by chance."""

from __future__ import annotations

import json
import random

import pytest

import pyengine
from pyengine import Rng
from pyengine.takeback import revealed_to, take_back, take_back_point
from tests.playouts import valid_options

GAME_IDS = list(pyengine.GAMES)


def seen(state: pyengine.State, seat: int) -> str:
    view = state.view(seat)
    view.pop("moves")
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def play(game_id: str, players: int, seed: int, steps: int) -> pyengine.State:
    rnd = random.Random(f"takeback/{game_id}/{seed}")
    state = pyengine.new_game(game_id, players, seed, valid_options(game_id, players, rnd))
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_take_back_never_crosses_a_chance_reveal_to_the_human(game_id: str) -> None:
    """Against computers: every step undone showed the human nothing by chance (checked with fresh re-deals)."""
    info = pyengine.GAMES[game_id]
    players = info.min_players
    allowed = 0
    for seed in range(5):
        for steps in range(1, 40, 3):
            state = play(game_id, players, seed, steps)
            human = 0
            point = take_back_point(state, human, computers=set(range(1, players)))
            if point is None:
                continue
            allowed += 1
            assert point.current_player == human, "a take-back returns the human to their own decision"
            undone = state.history()[len(point.history()) :]
            assert undone and undone[0][0] == point
            for before, action in undone:
                # fresh re-deals that look the same to the human (other seeds than the policy's): each undone
                # action is legal in all of them and leaves the human's view the same, so it showed them nothing
                outcomes = set()
                for n in range(12):
                    sample = before.sample_hidden(human, Rng.from_seed(7_000 + n))
                    outcomes.add(seen(sample.apply(str(action)), human))
                assert len(outcomes) == 1, f"{game_id}: undoing {action} would hide a card the human saw"
    assert allowed > 0, "some take-backs are allowed"


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if pyengine.GAMES[g].max_players >= 2])
def test_against_humans_a_take_back_never_undoes_another_humans_decision(game_id: str) -> None:
    info = pyengine.GAMES[game_id]
    players = max(2, info.min_players)
    for seed in range(4):
        state = play(game_id, players, seed, 17)
        for human in range(players):
            point = take_back_point(state, human, computers=set())
            if point is None:
                continue
            for before, _action in state.history()[len(point.history()) :]:
                assert before.current_player == human, "only the human's own decisions are undone"
                assert not revealed_to(before, _action, range(players))


def test_a_draw_is_a_reveal_and_a_lock_is_not() -> None:
    """Silver Bars: a play draws a card (its player sees it) and shows a card from a hand the other could not
    see; a lock draws nothing and shows nothing, so it can be taken back."""
    state = pyengine.new_game("silver-bars", 2, 1)
    seat = state.current_player
    assert seat is not None
    play_card = next(a for a in state.legal_actions() if str(a).startswith("play"))
    assert revealed_to(state, play_card, [0, 1]) == {0, 1}
    with pytest.raises(ValueError, match="nothing to take back"):
        take_back(state.apply(str(play_card)), seat, computers={1 - seat})
    rnd = random.Random(3)
    while not any(str(a).startswith("lock") for a in state.legal_actions()):
        state = state.apply(rnd.choice([a for a in state.legal_actions() if not str(a).startswith("lock")]))
    lock = next(a for a in state.legal_actions() if str(a).startswith("lock"))
    mover = state.current_player
    assert revealed_to(state, lock, [0, 1]) == set()
    assert take_back(state.apply(str(lock)), mover, computers={1 - mover}) == state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_take_back_availability_is_computed_once_per_state(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking again about the same state replays nothing and answers the same; after one more move, only the
    new steps are replayed; a fresh computation agrees with the kept answers."""
    from pyengine import takeback

    replays: list[str] = []
    shows = takeback._shows

    def counted(before: pyengine.State, text: str, seat: int) -> bool:
        replays.append(text)
        return shows(before, text, seat)

    monkeypatch.setattr(takeback, "_shows", counted)
    players = pyengine.GAMES[game_id].min_players
    computers = set(range(1, players))
    for seed in range(3):
        state = play(game_id, players, seed, 12 + 5 * seed)
        takeback._POINTS.clear()
        takeback._REVEALS.clear()
        first = take_back_point(state, 0, computers)
        done = len(replays)
        assert take_back_point(state, 0, computers) is first
        if first is not None:
            assert take_back(state, 0, computers) is first
        assert len(replays) == done, "a second question about the same state replays nothing"
        if not state.is_terminal():
            after = state.apply(state.legal_actions()[0])
            take_back_point(after, 0, computers)
            assert len(replays) - done <= len(after.history()) - len(state.history()), "old steps are not replayed"
        takeback._POINTS.clear()
        takeback._REVEALS.clear()
        assert take_back_point(state, 0, computers) is first, "the kept answer is the one computed afresh"
