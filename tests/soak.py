"""Soak: random games of every game and player count, with every contract invariant checked at every step.

Not part of the default test run (a short run of it is: ``tests/test_soak.py``). Prints what it played::

    python3 tests/soak.py --games 200            # 200 games per game and player count
    python3 tests/soak.py --games 20 --game carbles --seed 7

Each step checks: legal actions unique, in a stable order, and read back by the notation; the deciding
seat's view carries every action's facts; illegal and mutated texts are refused (``RefusedAction``)
and change nothing; views are JSON and unchanged by re-dealing what the seat cannot see; log entries
resolve to words; one score per seat; the game ends within its bound and replays from its record.
Exit status 1 on the first failure, with the game, seed and step to reproduce it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pyengine  # noqa: E402
from pyengine import RefusedAction, Rng  # noqa: E402
from pyengine.words import seat_names  # noqa: E402
from tests.playouts import player_counts, valid_options  # noqa: E402


class SoakFailure(AssertionError):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SoakFailure(message)


def mutate(text: str, rnd: random.Random) -> str:
    """A nearby text: a character changed, dropped or repeated, or digits made huge."""
    if not text:
        return "x"
    i = rnd.randrange(len(text))
    move = rnd.randrange(4)
    if move == 0:
        return text[:i] + rnd.choice("0123456789 -+mvP♣♢♡♠@,x") + text[i + 1 :]
    if move == 1:
        return text[:i] + text[i + 1 :]
    if move == 2:
        return text[:i] + text[i] * 3 + text[i:]
    return "".join("9" * 50 if c.isdigit() else c for c in text)


def step_checks(state: pyengine.State, rnd: random.Random, deep: bool) -> int:
    """Check one position; returns the number of texts refused."""
    actions = state.legal_actions()
    texts = [str(a) for a in actions]
    check(len(set(texts)) == len(texts), "two legal actions share a text")
    check((state.current_player is None) == (not actions) == state.is_terminal(), "legal actions exist until the end")
    check(len(state.scores()) == state.players, "one score per seat")
    notation = state.rules.notation
    for action in actions:
        check(notation.parse(str(action)) == action, f"{action} does not read back")
    refused = 0
    core = state.core
    for text in [mutate(rnd.choice(texts), rnd) for _ in range(2)] if texts else ["anything"]:
        if text in texts:
            continue
        try:
            state.apply(text)
        except RefusedAction as exc:
            check(len(str(exc)) < 400, "a refusal quotes too much")
            refused += 1
        else:
            raise SoakFailure(f"{text!r} was accepted but is not legal")
        check(state.core == core, "a refused action changed the state")
    seat = state.current_player
    if seat is not None:
        moves = state.view(seat)["moves"]
        check(list(moves) == texts, "the deciding seat's moves are its legal actions")
    if deep:
        for viewer in [None, *range(state.players)]:
            view = state.view(viewer)
            check(json.loads(json.dumps(view)) == view, "a view is not JSON")
            sample = state.sample_hidden(viewer, Rng.from_seed(rnd.randrange(1 << 30)))
            check(sample.view(viewer) == view, f"re-dealing changed what seat {viewer} sees")
        names = seat_names(state.players)
        for entry in state.log(last=3):
            line = entry.say(names, 0)
            check("{" not in line, f"an unresolved placeholder: {line}")
    return refused


def soak_game(game_id: str, players: int, seed: int) -> tuple[int, int]:
    """Play one random game with every check; returns (actions, refusals)."""
    rnd = random.Random(f"soak/{game_id}/{players}/{seed}")
    state = pyengine.new_game(game_id, players, seed, valid_options(game_id, players, rnd))
    bound = pyengine.GAMES[game_id].max_actions(players)
    steps = refusals = 0
    while True:
        try:
            refusals += step_checks(state, rnd, deep=steps % 11 == 0)
        except SoakFailure as exc:
            raise SoakFailure(f"{game_id}, {players} players, seed {seed}, step {steps}: {exc}") from None
        if state.is_terminal():
            break
        state = state.apply(rnd.choice(state.legal_actions()))
        steps += 1
        if steps > bound:
            raise SoakFailure(f"{game_id}, {players} players, seed {seed}: no end within {bound} actions")
    again = pyengine.from_json(state.to_json())
    if again != state:
        raise SoakFailure(f"{game_id}, {players} players, seed {seed}: the record does not replay")
    return steps, refusals


def soak(games: int, seed: int, only: str | None = None, every_count: bool = True) -> dict[str, object]:
    """Play ``games`` random games of each game (``only`` one) at every player count (or, without
    ``every_count``, at the counts the test suite plays), checking every step."""
    started = time.perf_counter()
    rows = []
    for game_id in pyengine.GAMES:
        if only and game_id != only:
            continue
        info = pyengine.GAMES[game_id]
        counts = range(info.min_players, info.max_players + 1) if every_count else player_counts(game_id)
        for players in counts:
            actions = refusals = 0
            for n in range(games):
                done, refused = soak_game(game_id, players, seed + n)
                actions += done
                refusals += refused
            rows.append({"game": game_id, "players": players, "games": games, "actions": actions, "refused": refusals})
    return {
        "games": sum(int(r["games"]) for r in rows),  # type: ignore[call-overload]
        "actions": sum(int(r["actions"]) for r in rows),  # type: ignore[call-overload]
        "refused": sum(int(r["refused"]) for r in rows),  # type: ignore[call-overload]
        "failures": 0,
        "seconds": round(time.perf_counter() - started, 1),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games per game and player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=list(pyengine.GAMES), default=None)
    args = parser.parse_args(argv)
    try:
        summary = soak(args.games, args.seed, args.game)
    except SoakFailure as exc:
        print(json.dumps({"failures": 1, "failure": str(exc)}, indent=1))
        return 1
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
