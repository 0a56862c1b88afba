"""The command line: ``python -m pyengine games [--json]`` (the games, and the lobby's data for the site's build),
``python -m pyengine position GAME [NAME] [--move TEXT ...] [--seat N] [--json]`` (a game's named positions, one
of them with moves played, as a seat sees it) and ``python -m pyengine simulate GAME --players N ...`` (bots
against bots)."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

from . import GAMES, new_game
from .ai import BOT_NAMES, Bot, levels_json, make_bot
from .core import State, check_seat, check_setup, named_position, rules_for
from .words import say, seat_names


def bots_for_seats(spec: str, players: int) -> list[str]:
    """``normal`` (every seat) or ``normal,random`` (seat by seat, repeated to fill the table)."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    for name in names:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(BOT_NAMES)}")
    if not names:
        raise ValueError("--bot needs at least one bot name")
    return [names[i % len(names)] for i in range(players)]


def _play_one(
    game: str, players: int, seed: int, options: dict[str, Any], agents: Sequence[Bot]
) -> tuple[State, int, float]:
    """One game from ``seed``, a bot per seat: its final state, its length in actions and the bots' thinking seconds."""
    state = new_game(game, players, seed, options)
    length = 0
    think_seconds = 0.0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        t0 = time.perf_counter()
        action = agents[seat].choose(state)
        think_seconds += time.perf_counter() - t0
        state = state.apply(action)
        length += 1
    return state, length, think_seconds


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    options: dict[str, Any] | None = None,
    rotate: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games and summarise them (JSON-safe)."""
    rules = rules_for(game)
    options = check_setup(rules, players, options)
    cooperative = rules.info.cooperative_with(options)
    wins = [0.0] * players
    wins_by_bot: dict[str, float] = {}
    seats_by_bot: dict[str, int] = {}
    lengths: list[int] = []
    think_seconds = 0.0
    started = time.perf_counter()
    for g in range(games):
        shift = g % players if rotate else 0
        seat_bots = [bots[(seat - shift) % players] for seat in range(players)]
        agents = [make_bot(name, seed * 1000 + g * 16 + seat) for seat, name in enumerate(seat_bots)]
        state, length, thought = _play_one(game, players, seed + g, options, agents)
        think_seconds += thought
        outcome = state.outcome()
        assert outcome is not None
        for seat in outcome.winners:
            share = outcome.share(seat)
            wins[seat] += share
            wins_by_bot[seat_bots[seat]] = wins_by_bot.get(seat_bots[seat], 0.0) + share
        for name in seat_bots:
            seats_by_bot[name] = seats_by_bot.get(name, 0) + 1
        lengths.append(length)
    elapsed = time.perf_counter() - started
    return {
        "game": game,
        "players": players,
        "options": options,
        "games": games,
        "bots": list(bots),
        "rotate": rotate,
        "mean_length": round(statistics.fmean(lengths), 1) if lengths else 0,
        "wins_per_seat": wins,
        "win_rate_by_bot": {
            name: round(wins_by_bot.get(name, 0.0) / (games if cooperative else seats_by_bot[name]), 3)
            for name in seats_by_bot
        },
        "actions_per_second": round(sum(lengths) / elapsed, 1) if elapsed else None,
        "seconds": round(elapsed, 2),
        "bot_seconds": round(think_seconds, 2),
    }


def list_games(as_json: bool) -> int:
    """Print the games (one a line, or the lobby's JSON: games and computer levels)."""
    if as_json:
        data = {"games": [info.to_json() for info in GAMES.values()], "levels": levels_json()}
        print(json.dumps(data, ensure_ascii=False))
    else:
        for info in GAMES.values():
            print(f"{info.id}\t{info.min_players}-{info.max_players} players\t{info.title}")
    return 0


def list_positions(game: str) -> int:
    """Print a game's named positions, one a line: name, players, title."""
    rules = rules_for(game)
    if not rules.positions:
        print(f"{rules.info.title} has no named positions")
    for name, found in rules.positions.items():
        print(f"{name}\t{found.players} players\t{found.title}")
    return 0


def play_moves(state: State, moves: Sequence[str]) -> State:
    """``state`` with ``moves`` (action texts) played in turn; ``ValueError`` naming the move that is not legal."""
    for number, move in enumerate(moves, 1):
        try:
            state = state.apply(move)
        except ValueError as exc:
            raise ValueError(f"move {number}, {move!r}: {exc}") from None
    return state


def show_position(game: str, name: str, moves: Sequence[str], seat: int | None, as_json: bool) -> int:
    """Print a named position after ``moves``, as ``seat`` sees it (None: the public view): its view as JSON, or
    a few lines of text (the moves in words, whose turn, the scores, and the seat's legal moves when it decides)."""
    start = named_position(game, name)
    check_seat(seat, start.players)
    state = play_moves(start, moves)
    if as_json:
        print(json.dumps(state.view(seat), ensure_ascii=False))
        return 0
    names = seat_names(state.players)
    print(f"{rules_for(game).info.title}, {rules_for(game).positions[name].title} ({state.players} players)")
    for entry in state.log()[len(start.log()) :]:
        print(f"  {say(entry.text, names, seat)}")
    decider = state.current_player
    print("The game is over." if decider is None else f"{names[decider]} decides.")
    print("Scores: " + ", ".join(f"{names[i]} {score}" for i, score in enumerate(state.scores())))
    if decider is not None and decider == seat:
        print(f"{names[seat]}'s moves:")
        for text in state.legal_texts():
            print(f"  {text}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyengine", description="Card Table engines")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play computer players against each other and print a JSON summary")
    sim.add_argument("game", help="game id: " + ", ".join(GAMES))
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bot", default="random", help="a bot for every seat, or one per seat: normal,random")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=JSON", help="a game option")
    sim.add_argument("--rotate", action="store_true", help="rotate the bots round the seats game by game")
    listing = sub.add_parser("games", help="list the games (with --json: the site's lobby data)")
    listing.add_argument("--json", action="store_true", help="print the games and the computer levels as JSON")
    shown = sub.add_parser("position", help="list a game's named positions, or show one after some moves")
    shown.add_argument("game", help="game id: " + ", ".join(GAMES))
    shown.add_argument("name", nargs="?", help="a named position (without it: the game's named positions)")
    shown.add_argument("--move", action="append", default=[], metavar="TEXT", help="a move to play, in turn")
    shown.add_argument("--seat", type=int, default=None, help="whose view (default: the public view)")
    shown.add_argument("--json", action="store_true", help="print the seat's view as JSON")
    args = parser.parse_args(argv)
    if args.command == "games":
        return list_games(args.json)
    try:
        if args.command == "position":
            if args.name is None:
                if args.move or args.seat is not None or args.json:
                    raise ValueError("--move, --seat and --json need a position's name")
                return list_positions(args.game)
            return show_position(args.game, args.name, args.move, args.seat, args.json)
        options = {}
        for item in args.option:
            name, _, value = item.partition("=")
            try:
                options[name] = json.loads(value)
            except json.JSONDecodeError:
                options[name] = value
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        summary = simulate(
            args.game, args.players, args.games, args.seed, bots_for_seats(args.bot, args.players), options, args.rotate
        )
    except ValueError as exc:
        parser.error(str(exc))
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0
