"""What leaves the engine about a move holds no card hidden from whoever receives it.

Random games of every game and player count: for every action, what each seat and an onlooker are told of it
(:func:`pyengine.telling.told`), and the embed's ``move`` events made from it, name only cards that receiver
sees in its view just before or just after the move, or that the move itself shows (a card played face up, a
card the rules reveal).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from cardtable_web import embed

import pyengine
from pyengine.telling import told
from tests.games import GAME_IDS, settings

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠♢♡♤♧]")
CASES = [(game, players) for game in GAME_IDS
         for players in sorted({settings(game).two(game), min(4, pyengine.GAMES[game].max_players)})]
"""Every registered game at two seats and at four (where it takes four)."""


REVEALED = {(game, kind) for game in GAME_IDS for kind in settings(game).revealed}
"""Besides a card the move plays face up: moves whose rules show a card from a hand to everyone before it goes
face down (Carbondale's rules 17-18: the challenge card and the defending card are revealed)."""


def cards_in(value: object) -> set[str]:
    return set(CARD.findall(json.dumps(value, ensure_ascii=False)))


def played_face_up(mover: dict[str, object]) -> set[str]:
    """The card the mover plays openly (the public entry's ``card`` of a move of the same kind, not face down)."""
    own, public = mover["own_facts"], mover["facts"]
    assert isinstance(own, dict) and isinstance(public, dict)
    if own.get("face_up") is False or own.get("kind") != public.get("kind") or "draw" in str(own.get("kind")):
        return set()
    return cards_in(public.get("card"))


def receivers(players: int) -> list[int | None]:
    return [None, *range(players)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_move_tells_nobody_a_card_they_cannot_see(game: str, players: int) -> None:
    for seed in range(3):
        rnd = random.Random(seed)
        state = pyengine.new_game(game, players, seed)
        moves = 0
        seen_now = {seat: cards_in(state.view(seat)) for seat in receivers(players)}
        while not state.is_terminal() and moves < 400:
            before = state
            state = state.apply(rnd.choice(state.legal_actions()))
            moves += 1
            shown = played_face_up(told(state, before.current_player))
            seen_before, seen_now = seen_now, {seat: cards_in(state.view(seat)) for seat in receivers(players)}
            for seat in receivers(players):
                message = told(state, seat)
                seen = seen_before[seat] | seen_now[seat] | shown
                if (game, message["facts"].get("kind")) in REVEALED:
                    seen |= cards_in(message["facts"])
                leaked = cards_in(message) - seen
                assert not leaked, f"{game} move {moves}: seat {seat} is told {sorted(leaked)}: {message}"
                if seat != message["seat"]:
                    assert "action" not in message and "own_facts" not in message


@pytest.mark.parametrize(("game", "players"), [(game, settings(game).two(game)) for game in GAME_IDS])
def test_an_embeds_events_hold_no_card_its_seat_cannot_see(game: str, players: int) -> None:
    """An interactive embed played against the computer (and a view-only one): every event it posts."""
    for interactive in (True, False):
        request = embed.from_params({"game": game, "players": str(players), "seed": "7", "level": "easy",
                                     "interactive": "1" if interactive else "0", "seat": "0"})
        frame = embed.Embed(request)
        rnd = random.Random(3)
        for _ in range(150):
            state = frame.state
            if state.is_terminal():
                break
            by = "player" if interactive and state.current_player == 0 else "computer" if interactive else "host"
            action = rnd.choice(state.legal_texts())
            before = state
            for event in frame.play(action, by):
                shown = played_face_up(told(frame.state, before.current_player))
                seen = cards_in(before.view(0)) | cards_in(frame.state.view(0)) | shown
                if (game, event.get("facts", {}).get("kind")) in REVEALED:
                    seen |= cards_in(event["facts"])
                if by == "host":
                    seen |= cards_in(before.moves()[action])  # the host gave this action: it knows its cards
                assert not cards_in(event) - seen, event
