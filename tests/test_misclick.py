"""A misclick against the computer can be undone: from a human's move until the computer's reply is played (its
pause at the chosen pace, and its thinking), Take back is offered; taking back then drops the pending reply."""

from __future__ import annotations

import json

from cardtable_web.controller import TableController
from cardtable_web.effects import Click, Effect, TableScreen, Think
from cardtable_web.keeping import Keeper, MemoryStorage

from tests.test_controller import choices, decide_here


class HeldReplies:
    """Drives a controller whose computer's replies are held until the test lets them go."""

    def __init__(self) -> None:
        self.controller = TableController(Keeper(MemoryStorage()))
        self.screen: TableScreen | None = None
        self.held: list[Think] = []

    def run(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, TableScreen):
                self.screen = effect
            elif isinstance(effect, Think):
                self.held.append(effect)

    def click(self, click: Click) -> None:
        self.run(self.controller.click(click))

    def reply(self) -> None:
        """The computer's held decisions arrive."""
        while self.held:
            self.run(self.controller.decided(decide_here(self.held.pop(0).task)))

    @property
    def table(self) -> TableScreen:
        assert self.screen is not None
        return self.screen


def human_moves(player: HeldReplies) -> None:
    """The human plays the first move offered (its first choice made first), leaving the computer to reply."""
    for _ in range(5):
        offered = choices(player.table)
        kind, value = next((c for c in offered if c[0] == "action"), offered[0])
        player.click(Click(action=value) if kind == "action" else Click(select=value))
        if player.held:
            return
    raise AssertionError("no move handed the turn to the computer")


def test_a_move_is_taken_back_before_the_computer_replies() -> None:
    player = HeldReplies()
    settings = {"game": "carbles", "players": 2, "seed": 2, "bots": [1], "level": "easy", "delay": 600}
    player.run(player.controller.start(json.dumps(settings)))
    player.reply()  # the computer's opening moves, if it starts
    moves = player.table.moves
    human_moves(player)
    assert player.table.moves > moves and player.table.marker == "thinking"
    assert player.table.undo_enabled, "the move can be taken back while the computer's reply is pending"
    pending = player.held.pop()
    player.click(Click(ui="undo"))
    assert player.table.moves == moves and player.table.marker == "ready", "back at the human's decision"
    assert player.controller.decided(decide_here(pending.task)) == [], "the pending reply is dropped"
    human_moves(player)
    player.reply()
    assert player.table.moves > moves + 1, "the game goes on: the human moved again and the computer replied"


def test_once_the_computer_has_replied_its_move_is_not_taken_back() -> None:
    """The computer's reply came from its hidden hand: Take back is refused now, and tapping it says why."""
    player = HeldReplies()
    settings = {"game": "carbles", "players": 2, "seed": 2, "bots": [1], "level": "easy", "delay": 600}
    player.run(player.controller.start(json.dumps(settings)))
    player.reply()
    human_moves(player)
    player.reply()
    moves = player.table.moves
    assert not player.table.undo_enabled
    player.click(Click(ui="undo"))
    assert player.table.moves == moves and player.table.message.startswith("Nothing to take back")
