"""The computer's thinking away from the page (the site runs it in a Web Worker).

A :class:`Thinker` follows one game by its record and decides for a computer seat. A
request is JSON: ``{"record": <the game's record>, "bot": <level name>, "seed": <bot seed>}``;
the reply is JSON: ``{"action", "iterations", "seconds", "actions"}``. Only the actions it has
not seen yet are applied, so following a game costs one step a move; a take-back or another
game makes it replay the record from the start. The bot decides from its seat's view only
(see :mod:`pyengine.ai`): the record holds the seed, but the search re-deals what the seat
cannot see, exactly as it does in the page.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .ai import Bot, make_bot
from .core import State, read_json, replay


class Thinker:
    """Follows one game at a time and decides for its computer seats."""

    def __init__(self) -> None:
        self.state: State | None = None
        self.head: dict[str, Any] | None = None
        self.actions: list[str] = []
        self.bots: dict[tuple[str, int], Bot] = {}

    def follow(self, record: dict[str, Any]) -> State:
        """The game's state after the record's actions (applying only the new ones when it can)."""
        actions = record.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("the record's 'actions' must be a list of action texts")
        head = {key: value for key, value in record.items() if key != "actions"}
        known = len(self.actions)
        if self.state is None or head != self.head or actions[:known] != self.actions:
            self.state = replay(record)
        else:
            for text in actions[known:]:
                self.state = self.state.apply(text)
        self.head, self.actions = head, list(actions)
        return self.state

    def bot(self, name: str, seed: int) -> Bot:
        """One bot per name and seed, kept between decisions (as the page keeps its bots)."""
        key = (name, seed)
        if key not in self.bots:
            self.bots[key] = make_bot(name, seed)
        return self.bots[key]

    def decide(self, request_json: str) -> str:
        """The reply to one request: the chosen action's text and what the search cost."""
        request = read_json(request_json, "request")
        if not isinstance(request, dict) or not isinstance(request.get("record"), dict):
            raise ValueError("a request is an object with the game's 'record'")
        name, seed = request.get("bot"), request.get("seed")
        if not isinstance(name, str) or not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("a request names its 'bot' (a level) and its whole-number 'seed'")
        state = self.follow(request["record"])
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to choose")
        bot = self.bot(name, seed)
        started = time.perf_counter()
        action = bot.choose(state)
        reply = {
            "action": str(action),
            "iterations": bot.iterations_done,
            "seconds": round(time.perf_counter() - started, 4),
            "actions": len(self.actions),
        }
        return json.dumps(reply)
