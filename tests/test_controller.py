"""The table page's controller, played as a person plays: clicks on what the drawn table offers, the computer's
decisions answered as the page's adapter answers them, whole games of every game to their end, without a browser.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from cardtable_web import address
from cardtable_web.controller import TableController
from cardtable_web.effects import (
    After,
    Click,
    Decided,
    Effect,
    Elsewhere,
    FillLobby,
    LobbyError,
    ReplayScreen,
    SetAddress,
    Share,
    ShowLobby,
    TableScreen,
    Think,
    ThinkTask,
)
from cardtable_web.keeping import HISTORY_KEY, KEPT_PREFIX, SAVES_KEY, Keeper, MemoryStorage

import pyengine
from pyengine.core import named_position
from tests.games import GAME_IDS, settings

CHOICE = re.compile(r'data-(action|select|ui)="([^"]*)"')


def unescape(text: str) -> str:
    return text.replace("&quot;", '"').replace("&#x27;", "'").replace("&lt;", "<").replace("&gt;", ">").replace(
        "&amp;", "&")


def choices(screen: TableScreen) -> list[tuple[str, str]]:
    """The choices the drawn board offers: (kind, value) of each ``data-action``, ``data-select`` and the
    hand-over's ``take-device``."""
    found = [(kind, unescape(value)) for kind, value in CHOICE.findall(screen.board_html)]
    return [(kind, value) for kind, value in found if kind != "ui" or value == "take-device"]


def decide_here(task: ThinkTask) -> Decided:
    """The adapter's thinking, done at once: the bot thinks on the task's state."""
    for _ in task.bot.think(task.state):
        pass
    return Decided(task, str(task.bot.decision), task.bot.iterations_done, 0.0, "page")


def decide_at_random(task: ThinkTask) -> Decided:
    """A quick stand-in for the computer in long games (the search itself is tested elsewhere): a legal move of
    the seat's own, drawn from a generator seeded by the position."""
    legal = task.state.legal_texts()
    return Decided(task, random.Random(len(task.state.history())).choice(legal), 1, 0.0, "page")


class Player:
    """Drives a controller: keeps the last screen and address, answers every computer task at once."""

    def __init__(self, storage: MemoryStorage | None = None, thinker: Any = decide_here) -> None:
        self.storage = storage or MemoryStorage()
        self.thinker = thinker
        self.controller = TableController(Keeper(self.storage))
        self.screen: TableScreen | ReplayScreen | None = None
        self.fragment = ""
        self.seen: list[Effect] = []

    def run(self, effects: list[Effect]) -> None:
        pending = list(effects)
        while pending:
            effect = pending.pop(0)
            self.seen.append(effect)
            if isinstance(effect, (TableScreen, ReplayScreen)):
                self.screen = effect
            elif isinstance(effect, SetAddress):
                self.fragment = effect.fragment
            elif isinstance(effect, ShowLobby):
                self.screen = None
            elif isinstance(effect, Think):
                pending.extend(self.controller.decided(self.thinker(effect.task)))

    def start(self, **settings: Any) -> None:
        self.run(self.controller.start(json.dumps(settings)))

    def decoded(self) -> Any:
        """The game the page's address shows, read as the page reads it (its deal from this browser)."""
        return address.decode(self.fragment, self.controller.keeper.deal)

    def click(self, click: Click) -> None:
        self.run(self.controller.click(click))

    @property
    def table(self) -> TableScreen:
        assert isinstance(self.screen, TableScreen), self.screen
        return self.screen


def held_move(screen: TableScreen) -> str | None:
    """The move the table holds for its second tap (it would show a card), if any."""
    held = screen.hint is not None and screen.hint[0] == "data-action" and "It shows a card" in screen.advice
    return screen.hint[1] if held and screen.hint is not None else None


def click_of(kind: str, value: str) -> Click:
    """The click on an offered choice (a ``ui`` control, an action or a selection, as :func:`choices` gives it)."""
    return Click(ui=value) if kind == "ui" else Click(action=value) if kind == "action" else Click(select=value)


def play_out(player: Player, rnd: random.Random, max_clicks: int = 20_000) -> int:
    """Click random offered choices (mostly actions) until the game is over; the number of clicks."""
    for clicks in range(max_clicks):
        screen = player.table
        if screen.over:
            return clicks
        if held_move(screen):  # a move that shows a card waits for its second tap
            player.click(Click(action=held_move(screen)))
            continue
        offered = choices(screen)
        assert offered, f"a human is to move but the table offers nothing:\n{screen.board_html[:500]}"
        actions = [c for c in offered if c[0] == "action"]
        player.click(click_of(*rnd.choice(actions if actions and rnd.random() < 0.9 else offered)))
        assert not player.table.message.startswith("It is not"), player.table.message
    raise AssertionError("the game did not end")


def one_move(player: Player) -> None:
    """Play the first move the table offers (choosing its first selection first when it takes one)."""
    before = player.table.moves
    for _ in range(5):
        offered = choices(player.table)
        kind, value = next((c for c in offered if c[0] == "action"), offered[0])
        player.click(Click(action=value) if kind == "action" else Click(select=value))
        if player.table.moves != before:
            return
    raise AssertionError("no move was played")


GAMES = [(game, players, list(bots)) for game in GAME_IDS for players, bots in settings(game).games(game)]
"""Every registered game's whole games: (game, players, the computer's seats), from ``tests/games.py``."""


@pytest.mark.parametrize(("game", "players", "bots"), GAMES)
def test_whole_games_through_the_controller(game: str, players: int, bots: list[int]) -> None:
    """Every game to its end by clicks: each address holds the game shown, the kept game follows every move,
    and the finished game goes into the history with its result."""
    player = Player(thinker=decide_at_random)
    player.start(game=game, players=players, seed=11, bots=bots, level="easy", delay=0)
    play_out(player, random.Random(5))
    screen = player.table
    assert screen.marker == "over" and screen.over
    final = player.decoded().state
    assert final.is_terminal()
    assert len(final.history()) == screen.moves
    history = json.loads(player.storage.items[HISTORY_KEY])
    assert history[0]["game"] == game and history[0]["record"] == final.record()
    assert json.loads(player.storage.items[SAVES_KEY]) == {}
    assert len(screen.log_lines) == len(final.log())


def test_every_move_is_kept_and_the_address_follows() -> None:
    player = Player()
    player.start(game="silver-bars", players=2, seed=3, bots=[1], level="easy", delay=0)
    rnd = random.Random(1)
    for _ in range(25):
        offered = choices(player.table)
        kind, value = rnd.choice([c for c in offered if c[0] == "action"] or offered)
        kind, value = ("action", held_move(player.table) or value) if held_move(player.table) else (kind, value)
        player.click(Click(action=value) if kind == "action" else Click(select=value))
        (key,) = json.loads(player.storage.items[SAVES_KEY])
        kept = json.loads(player.storage.items[KEPT_PREFIX + key])
        assert kept["record"] == player.controller.session.state.record()
        assert player.decoded().state.history() == player.controller.session.state.history()


def test_a_refused_move_is_said_and_changes_nothing() -> None:
    player = Player()
    player.start(game="carbondale", players=2, seed=1, bots=[1], level="easy", delay=0)
    before = player.table.moves
    player.click(Click(action="no such move"))
    assert player.table.moves == before
    assert player.table.message


def test_the_computer_thinks_in_its_worker_and_the_page_takes_over_when_it_fails() -> None:
    player = Player()
    effects = player.controller.start(json.dumps({"game": "silver-bars", "players": 2, "seed": 4, "bots": [0, 1],
                                                  "level": "normal", "delay": 0}))
    thinks = [e for e in effects if isinstance(e, Think)]
    assert len(thinks) == 1 and thinks[0].task.request is not None  # normal thinks in the worker
    retry = player.controller.decided(Decided(thinks[0].task, None, 0, 0.0, "worker"))
    assert [type(e) for e in retry] == [Think] and retry[0].task.request is None  # the page decides instead
    stale = player.controller.decided(Decided(thinks[0].task, "not a move", 0, 0.0, "worker"))
    assert [type(e) for e in stale] == [Think]


def test_a_task_of_an_earlier_game_is_dropped() -> None:
    player = Player()
    effects = player.controller.start(json.dumps({"game": "silver-bars", "players": 2, "seed": 4, "bots": [0, 1],
                                                  "level": "easy", "delay": 0}))
    task = next(e for e in effects if isinstance(e, Think)).task
    player.run(player.controller.leave())
    assert player.controller.decided(decide_here(task)) == []


def test_take_back_returns_to_the_last_decision() -> None:
    player = Player()
    player.start(game="carbles", players=2, seed=2, bots=[1], level="easy", delay=0, options={"open_hands": True})
    rnd = random.Random(3)
    for _ in range(40):
        if held_move(player.table):  # a held move is played by its second tap
            player.click(Click(action=held_move(player.table)))
            continue
        if player.table.undo_enabled:
            break
        offered = [c for c in choices(player.table) if c[0] == "action"] or choices(player.table)
        kind, value = rnd.choice(offered)
        player.click(Click(action=value) if kind == "action" else Click(select=value))
    assert player.table.undo_enabled
    before = player.table.moves
    player.click(Click(ui="undo"))
    assert player.table.moves < before
    assert "takebacks=1" in player.fragment


def test_a_suggestion_is_found_from_the_players_view_and_shown() -> None:
    player = Player()
    player.start(game="cardcassonne", players=2, seed=8, bots=[1], level="easy", delay=0)
    effects = player.controller.click(Click(ui="suggest"))
    task = next(e for e in effects if isinstance(e, Think)).task
    assert task.kind == "hint"
    assert task.state is not player.controller.session.state  # a re-dealt sample, never the real state
    player.run(effects)
    screen = player.table
    assert screen.hint is not None and screen.advice.startswith("Suggested move")
    name, value = screen.hint
    assert f'{name}="' in screen.board_html


def test_another_tab_moving_the_game_on_is_noticed() -> None:
    storage = MemoryStorage()
    first, second = Player(storage), Player(storage)
    first.start(game="silver-bars", players=2, seed=9, bots=[1], level="easy", delay=0)
    second.run(second.controller.open_address(first.fragment))
    one_move(second)
    assert first.controller.storage_changed() == [Elsewhere(True)]
    first.run(first.controller.click(Click(ui="load-newer")))
    assert first.table.moves == second.table.moves


def test_the_replay_viewer_steps_through_a_finished_game() -> None:
    player = Player()
    player.start(game="carbon-city-zero", players=1, seed=2, bots=[], level="easy", delay=0)
    play_out(player, random.Random(2))
    player.run(player.controller.click(Click(ui="replay")))
    replay = player.screen
    assert isinstance(replay, ReplayScreen) and replay.index == replay.moves
    player.click(Click(ui="replay-first"))
    assert isinstance(player.screen, ReplayScreen) and player.screen.index == 0
    effects = player.controller.click(Click(ui="replay-play"))
    ticks = [e for e in effects if isinstance(e, After)]
    assert ticks
    steps = player.controller.tick(ticks[0].tick)
    assert isinstance(steps[0], ReplayScreen) and steps[0].index == 1
    assert any(isinstance(e, Share) for e in player.controller.click(Click(ui="share")))


def test_the_address_of_a_game_in_play_holds_no_deal() -> None:
    """The address bar names the table, never the seed: nobody can deal the hidden cards again from it, and
    another browser is told where the deal is. Share gives the full address, and a game opened from it is
    sealed at once and does not count in the statistics."""
    player = Player()
    player.start(game="silver-bars", players=2, seed=4242, bots=[1], level="easy", delay=0)
    one_move(player)
    assert "seed" not in player.fragment and "4242" not in player.fragment
    assert re.search(r"(^|&)table=[0-9a-f]{10}(&|$)", player.fragment)
    assert player.decoded().state == player.controller.session.state
    with pytest.raises(ValueError, match="kept only in the browser where it was played"):
        address.decode(player.fragment, Keeper(MemoryStorage()).deal)
    (share,) = [e for e in player.controller.click(Click(ui="share")) if isinstance(e, Share)]
    assert "seed=4242" in share.fragment and "does not count" in share.note
    elsewhere = Player()
    elsewhere.run(elsewhere.controller.open_address(share.fragment))
    assert elsewhere.table.moves == player.table.moves
    assert "seed" not in elsewhere.fragment and elsewhere.controller.session.counted is False
    play_out(elsewhere, random.Random(3))
    (entry,) = json.loads(elsewhere.storage.items[HISTORY_KEY])
    assert entry["counted"] is False
    assert Keeper(elsewhere.storage).lobby_summary()["statistics"] == []


def test_a_game_from_a_position_does_not_count() -> None:
    """A game started from a position (an address with one, e.g. 7-0 up against the hard computer) is played and
    kept like any other, but its result stays out of the statistics."""
    state = named_position("carbondale", "figure-1")
    fragment = (f"game=carbondale&v={pyengine.GAMES['carbondale'].rules_version}&players={state.players}&seed=1"
                f"&bots=1&level=easy&delay=0&position={json.dumps(state.position)}&moves=")
    player = Player(thinker=decide_at_random)
    player.run(player.controller.open_address(fragment))
    assert player.controller.session.counted is False and "seed" not in player.fragment
    assert player.decoded().state == player.controller.session.state
    play_out(player, random.Random(6))
    assert json.loads(player.storage.items[HISTORY_KEY])[0]["counted"] is False


def test_a_sealed_address_opens_after_the_game_ends_and_in_a_second_tab() -> None:
    storage = MemoryStorage()
    player = Player(storage)
    player.start(game="carbondale", players=2, seed=8, bots=[1], level="easy", delay=0)
    sealed = player.fragment
    other = Player(storage)
    other.run(other.controller.open_address(sealed))
    assert other.table.moves == player.table.moves and other.fragment == sealed
    player.thinker = decide_at_random
    play_out(player, random.Random(4))
    later = Player(storage)
    later.run(later.controller.open_address(sealed))
    assert isinstance(later.screen, TableScreen) and later.controller.session.table == player.controller.session.table


RELOADED = {game: settings(game).link(game) for game in GAME_IDS}
"""Each game with a computer where it has one, as e2e/test_keeping.py opens them."""


@pytest.mark.parametrize("game", list(RELOADED))
def test_a_reload_resumes_an_address_started_game_exactly(game: str) -> None:
    """A game started from its link, played a few clicks, then the page reloaded on the address it shows: the
    same game (its record, moves and address), from what this browser kept. (The browser test reloads two games.)"""
    storage = MemoryStorage()
    player = Player(storage)
    player.run(player.controller.open_query(f"?game={game}&{RELOADED[game]}&level=easy&delay=0", 99))
    rnd = random.Random(game)
    for _ in range(6):
        offered = choices(player.table)
        player.click(click_of(*rnd.choice([c for c in offered if c[0] == "action"] or offered)))
        if held_move(player.table):  # a held move is played by its second tap
            player.click(Click(action=held_move(player.table)))
    assert player.table.moves > 0 and "seed=" not in player.fragment, "the address holds the game, not the link"
    again = Player(storage)
    again.run(again.controller.address_changed("#" + player.fragment))
    assert again.controller.session.state.record() == player.controller.session.state.record()
    assert again.fragment == player.fragment and again.table.moves == player.table.moves


def test_the_banner_survives_a_reload() -> None:
    """The banner tells what the computer did since the player's last move, and a reload tells it again."""
    storage = MemoryStorage()
    player = Player(storage)
    player.start(game="carbondale", players=2, seed=5, bots=[1], level="easy", delay=0)
    while not player.table.banner:
        one_move(player)
    assert player.table.banner.startswith("Computer 2 (easy) ")
    again = Player(storage)
    again.run(again.controller.address_changed("#" + player.fragment))
    assert again.table.banner == player.table.banner


def test_after_a_hot_seat_hand_over_the_banner_says_what_the_others_did() -> None:
    player = Player()
    player.start(game="silver-bars", players=2, seed=3, bots=[], level="easy", delay=0)
    player.click(Click(ui="take-device"))
    first = player.controller.session.state.current_player
    while player.controller.session.state.current_player == first:
        one_move(player)
    player.click(Click(ui="take-device"))
    name = player.controller.session.names[first]
    assert player.table.banner.startswith(f"{name} "), player.table.banner
    said = [line for line in player.table.log_lines if line.startswith(name)]
    assert said and said[-1].split(";")[0].split(". ")[0] in player.table.banner


def test_a_hand_over_banner_tells_the_last_turn_not_the_whole_game() -> None:
    """With nobody on screen (the device being passed) the banner tells the turn just played, never the game."""
    player = Player()
    player.start(game="silver-bars", players=2, seed=3, bots=[], level="easy", delay=0)
    for _ in range(3):  # three turns, each ended by a hand-over
        player.click(Click(ui="take-device"))
        seat = player.controller.session.state.current_player
        while player.controller.session.state.current_player == seat:
            one_move(player)
    last = player.controller.session.names[seat]
    others = [name for name in player.controller.session.names if name != last]
    assert player.table.banner.startswith(f"{last} "), player.table.banner
    assert not any(name in player.table.banner for name in others), player.table.banner


def test_a_refused_take_back_says_why_when_tapped() -> None:
    """At the start nothing can be taken back: the button is drawn refused, and tapping it says why."""
    player = Player()
    player.start(game="silver-bars", players=2, seed=7, bots=[1], level="easy", delay=0)
    assert not player.table.undo_enabled
    moves = player.table.moves
    player.click(Click(ui="undo"))
    assert player.table.message.startswith("Nothing to take back: a take-back never goes past")
    assert player.table.moves == moves


def test_back_to_the_lobby_and_forward_again() -> None:
    player = Player()
    player.start(game="carbondale", players=2, seed=5, bots=[1], level="easy", delay=0)
    fragment = player.fragment
    assert player.controller.leave() == [SetAddress("", "push"), ShowLobby()]
    player.run(player.controller.address_changed("#" + fragment))
    assert player.table.title == pyengine.GAMES["carbondale"].title


def test_the_same_settings_continue_the_kept_game() -> None:
    storage = MemoryStorage()
    first = Player(storage)
    first.start(game="carbles", players=2, seed=6, bots=[1], level="easy", delay=0)
    one_move(first)
    second = Player(storage)
    second.start(game="carbles", players=2, seed=6, bots=[1], level="easy", delay=0)
    assert second.table.moves == first.table.moves
    assert "goes on where you left it" in second.table.message


def test_bad_settings_and_addresses_are_said_in_the_lobby() -> None:
    player = Player()
    effects = player.controller.start(json.dumps({"game": "chess"}))
    assert isinstance(effects[0], LobbyError) and "chess" in effects[0].text
    effects = player.controller.open_address("game=carbles&v=1&players=zz")
    assert isinstance(effects[0], LobbyError)


def test_an_unexpected_failure_leaves_a_usable_lobby_and_a_report() -> None:
    player = Player()
    player.start(game="carbles", players=2, seed=6, bots=[1], level="easy", delay=0)
    effects = player.controller.fail(RuntimeError("boom"))
    assert isinstance(effects[0], ShowLobby)
    report = effects[1]
    assert isinstance(report, LobbyError) and report.trouble and report.report is not None
    assert report.report["record"]["game"] == "carbles"
    assert player.controller.session is None


def test_an_address_query_starts_its_game_or_fills_the_lobby() -> None:
    player = Player()
    player.run(player.controller.open_query("?game=silver-bars&players=2&seed=4&bots=1&level=easy&delay=0", 99))
    assert player.table.title == pyengine.GAMES["silver-bars"].title
    effects = Player().controller.open_query("?game=silver-bars&players=9", 99)
    assert isinstance(effects[0], FillLobby) and effects[0].error and "2" in effects[0].error
    assert effects[0].settings["game"] == "silver-bars" and len(effects) == 1  # nothing starts


def test_the_lobby_discards_a_kept_game_and_replays_a_finished_one() -> None:
    player = Player(thinker=decide_at_random)
    player.start(game="carbon-city-zero", players=1, seed=3, bots=[], level="easy", delay=0)
    play_out(player, random.Random(1))
    player.run(player.controller.replay_finished(0))
    assert isinstance(player.screen, ReplayScreen) and player.screen.game == "carbon-city-zero"
    other = Player(player.storage)
    other.start(game="carbles", players=2, seed=6, bots=[1], level="easy", delay=0)
    (key,) = json.loads(player.storage.items[SAVES_KEY])
    assert other.controller.discard_kept(key) == [ShowLobby()]
    assert json.loads(player.storage.items[SAVES_KEY]) == {}
    effects = other.controller.replay_finished(5)
    assert isinstance(effects[-1], LobbyError)


def test_a_table_starts_whatever_storage_holds() -> None:
    storage = MemoryStorage()
    for key, text in {SAVES_KEY: '{"x": {"updated": "yesterday"}}', HISTORY_KEY: '[{"levels": {"length": 1}}]',
                      "cardtable.current-game": "[" * 100_000}.items():
        storage.setItem(key, text)
    player = Player(storage)
    player.run(player.controller.migrate())
    player.start(game="carbles", players=2, seed=6, bots=[1], level="easy", delay=0)
    one_move(player)
    assert player.table.moves >= 1


def test_a_quicker_pace_chosen_while_the_computer_waits_ends_the_wait() -> None:
    """The pause a computer's move waits is looked at again as it runs: a quicker pace chosen at the table shortens
    it at once (the instant pace ends it), a slower one counts from the next move; a further step of a turn
    follows the pace's step pause."""
    from cardtable_web.computer import STEP_SECONDS

    control = TableController(Keeper(MemoryStorage()))
    settings = {"game": "carbondale", "players": 2, "seed": 3, "bots": [1], "level": "easy", "delay": 5000}
    waiting = [effect.task for effect in control.start(json.dumps(settings)) if isinstance(effect, Think)]
    assert [task.pause for task in waiting] == [5.0], "the computer moves first, after its pause"
    task = waiting[0]
    assert control.pause_now(task) == 5.0
    control.set_pace(8000)
    assert control.pause_now(task) == 5.0, "a slower pace counts from the next move"
    control.set_pace(1000)
    assert control.pause_now(task) == 1.0
    control.set_pace(0)
    assert control.pause_now(task) == 0.0
    step = replace(task, step=True, pause=STEP_SECONDS)
    control.set_pace(5000)
    assert control.pause_now(step) == STEP_SECONDS
    control.set_pace(0)
    assert control.pause_now(step) == 0.0
    control.leave()
    assert control.pause_now(task) == task.pause, "a task of a game left keeps its own pause"


def test_a_computer_turn_plays_out_step_by_step_at_the_chosen_pace() -> None:
    """The chosen pause comes before a computer's turn; each further step of the turn waits a shorter pause, long
    enough for its slide to be seen (none at the instant pace)."""
    from cardtable_web.computer import STEP_SECONDS, Computer, step_pause
    from cardtable_web.session import Session
    from cardtable_web.setup import Seat, Setup

    assert step_pause(0) == 0 and step_pause(0.6) == STEP_SECONDS and step_pause(1.5) == 0.75
    session = Session(Setup("carbon-city-zero", 2, 3, [Seat(True, "easy"), Seat(True, "easy")], {}, 600))
    computer = Computer()
    first, further = computer.think(session).task, computer.think(session).task
    assert len(session.state.legal_texts()) > 1, "not a forced move"
    assert (first.pause, further.pause) == (0.6, STEP_SECONDS)
