"""A misclick is undone before it shows a card. A move that would draw or reveal one is held (a second tap plays it,
or its time running out, as the player chooses); any other move can be taken back from the human's move until the
computer's reply is played (its pause at the chosen pace, and its thinking): taking back then drops the pending
reply."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from cardtable_web import drawing, selection
from cardtable_web.controller import TableController
from cardtable_web.effects import After, Click, Decided, Effect, TableScreen, Think, ThinkTask
from cardtable_web.keeping import Keeper, MemoryStorage
from cardtable_web.misclick import CONFIRM, MISCLICK_KEY, POLICIES, WINDOW, shows_a_card
from cardtable_web.misclick import policy as policy_of
from cardtable_web.registry import SITE_GAMES

import pyengine
from tests.test_controller import CHOICE, choices, decide_at_random, decide_here


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

    def reply(self, thinker: Callable[[ThinkTask], Decided] = decide_here) -> None:
        """The computer's held decisions arrive."""
        while self.held:
            self.run(self.controller.decided(thinker(self.held.pop(0).task)))

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


def wrong_move_then_take_back(game: str, seed: int, policy: str) -> tuple[bool, bool]:
    """From a random position of ``game`` against the computer, one move chosen at random (the misclick), then Take
    back: (whether the previous decision is back, whether the move would have shown a card)."""
    rnd = random.Random(seed)
    info = pyengine.GAMES[game]
    players = 1 if info.min_players == 1 else 2
    player = HeldReplies()
    player.controller.keeper.write(MISCLICK_KEY, policy)
    settings = {"game": game, "players": players, "seed": seed, "bots": list(range(1, players)), "level": "easy",
                "delay": 600}
    player.run(player.controller.start(json.dumps(settings)))
    for _ in range(rnd.randrange(0, 30)):  # a random position: the human plays, the computer replies
        player.reply(decide_at_random)
        session = player.controller.session
        assert session is not None
        if session.state.is_terminal():
            break
        player.click(Click(action=rnd.choice(session.state.legal_texts())))
        player.click(Click(action=player.table.hint[1])) if player.table.hint else None  # a held move: tap again
    player.reply(decide_at_random)
    session = player.controller.session
    assert session is not None
    if session.state.is_terminal() or not session.decides_now():
        return True, False
    decision = session.state
    wrong = rnd.choice(decision.legal_texts())
    shows = shows_a_card(session, wrong)
    player.click(Click(action=wrong))
    player.click(Click(ui="undo"))
    back = session.state is decision or (session.state == decision and session.state.played == decision.played)
    return back and player.table.marker == "ready", shows


@pytest.mark.parametrize("game", list(SITE_GAMES))
@pytest.mark.parametrize("policy", POLICIES)
def test_a_misclick_is_always_taken_back_before_it_shows_a_card(game: str, policy: str) -> None:
    """From random positions of every game, one wrong move then Take back returns to the decision before it, in
    every case (a move that shows a card waits for its second tap, or for its time, and is dropped)."""
    outcomes = [wrong_move_then_take_back(game, seed, policy) for seed in range(10)]
    assert all(back for back, _ in outcomes), [i for i, (back, _) in enumerate(outcomes) if not back]
    if game == "silver-bars":
        assert sum(shows for _, shows in outcomes) >= 6, "in 100 Silver Bars most moves draw a card"


def test_a_held_move_is_played_by_a_second_tap_or_when_its_time_is_up() -> None:
    for policy in POLICIES:
        player = HeldReplies()
        player.controller.keeper.write(MISCLICK_KEY, policy)
        player.run(player.controller.start(json.dumps({"game": "silver-bars", "players": 2, "seed": 3, "bots": [1],
                                                       "level": "easy", "delay": 600})))
        player.reply()
        session = player.controller.session
        assert session is not None
        play = next(t for t in session.state.legal_texts() if shows_a_card(session, t))
        moves = player.table.moves
        first = drawing.hint_of(session, play).select  # the card to choose first, as a player does
        if first is not None:
            player.click(Click(select=selection.encode(first)))
        effects = player.controller.click(Click(action=play))
        player.run(effects)
        assert player.table.moves == moves and player.table.hint == ("data-action", play)
        assert "It shows a card" in player.table.advice and player.table.undo_enabled
        assert ("action", play) in CHOICE.findall(player.table.board_html)  # still on offer, for its second tap
        timers = [e for e in effects if isinstance(e, After)]
        if policy == WINDOW:
            (timer,) = timers
            player.run(player.controller.tick(timer.tick))
        else:
            assert timers == []
            player.click(Click(action=play))
        assert player.table.moves == moves + 1, policy


def test_the_choice_is_kept_in_the_browser() -> None:
    player = HeldReplies()
    keeper = player.controller.keeper
    assert policy_of(keeper) == CONFIRM
    assert player.controller.set_misclick("window") == [] and policy_of(keeper) == WINDOW
    assert player.controller.set_misclick("never") == [] and policy_of(keeper) == WINDOW
