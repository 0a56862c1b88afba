"""Carbon City Zero in the browser: whole games by clicking (solo, three players with two computers, Friendly
Rivalry), and one turn looked at closely (trackers, a special rule used once, a purchase).

Every click is made on what the table offers (``data-action`` / ``data-select`` in ``#board``); at every step of the
solo game the offered clicks are checked against the engine's legal actions (replayed in CPython from the record the
page saved), so an action that cannot be reached by clicking fails the test.

The page forgets its saved game once the game is over, so an init script keeps the last record the page saved; the
final action is then the one legal action whose log line is the page's last log line.

Set ``CARDTABLE_SHOTS`` to a folder to keep screenshots of the table along the way.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import finished_record, saved_record, shot, wait_settled
from e2e.play import near_the_end, play_move, steady_dice

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from cardtable_web import selection  # noqa: E402
from cardtable_web.renderers.carbon_city_zero import long_name  # noqa: E402
from cardtable_web.renderers.carbon_city_zero import score_words as carbon_cut_words  # noqa: E402

GAME = "index.html?game=carbon-city-zero&delay=0&level=easy"
ACTIONS = "#board [data-action]:visible"
SELECTS = "#board [data-select]:visible"
CHOICE_KINDS = ("discard-in-play", "discard-market", "search-deck", "search-global")


def open_game(page: Page, query: str) -> pyengine.State:
    """Open a game by its address; the state the page shows, replayed from its record."""
    page.goto(f"{GAME}&{query}")
    assert wait_settled(page) == "ready"
    expect(page.locator("#table-title")).to_have_text("Carbon City Zero")
    record = saved_record(page)
    assert record["game"] == "carbon-city-zero"
    return pyengine.replay(record)


NAMES_OVER = """(names) => {
  // each card on the table given each card's name in turn: the names whose text passes the card's inner edge
  const over = new Set();
  for (const card of document.querySelectorAll('#board .ccz-card')) {
    const name = card.querySelector('.ccz-name');
    if (!name || !card.getBoundingClientRect().width) continue;
    const kept = [name.textContent, name.className];
    for (const [text, long] of names) {
      name.textContent = text;
      name.className = long ? 'ccz-name ccz-long' : 'ccz-name';
      const range = document.createRange();
      range.selectNodeContents(name);
      const right = Math.max(...[...range.getClientRects()].map((r) => r.right));
      const style = getComputedStyle(card);
      const edge = parseFloat(style.borderRightWidth) + parseFloat(style.paddingRight);
      const inner = card.getBoundingClientRect().right - edge;
      if (right > inner + 0.5) over.add(`${text} (${(right - inner).toFixed(1)} px)`);
    }
    [name.textContent, name.className] = kept;
  }
  return [...over];
}"""


def names_over_their_cards(page: Page) -> list[str]:
    """The card names that would pass the edge of a card drawn on the table now (every name tried on every card)."""
    names = sorted(pyengine.new_game("carbon-city-zero", 1, 1, {}).view(0)["cards"])
    return list(page.evaluate(NAMES_OVER, [[name, long_name(name)] for name in names]))


def names_of(players: int, bots: set[int]) -> list[str]:
    """The shell's seat names: "You" for the one human, "Computer N (easy)" for the others."""
    return ["You" if p not in bots else f"Computer {p + 1} (easy)" for p in range(players)]


YOU = 0
"""The one human's seat in every game here (the log says "you" for it)."""


def page_lines(state: pyengine.State, names: list[str], last: int | None = None) -> list[str]:
    """The engine's log entries as the page writes them (seat names, "you" for the human)."""
    return [entry.say(names, YOU) for entry in state.log(last=last)]


def offered(page: Page) -> tuple[list[str], list[str]]:
    """The actions and selections the table offers now."""
    actions = page.locator(ACTIONS).evaluate_all("els => els.map(e => e.dataset.action)")
    selects = page.locator(SELECTS).evaluate_all("els => els.map(e => e.dataset.select)")
    return [str(a) for a in actions], [str(s) for s in selects]


def open_selection(page: Page) -> str | None:
    """The special rule waiting for its choice (the selected card's ``data-select``), if any."""
    chosen = page.locator("#board [data-select].selected")
    return str(chosen.first.get_attribute("data-select")) if chosen.count() else None


def trackers(page: Page) -> dict[str, Any]:
    """What the cooperative table says: carbon, rounds left, round, income left of income."""
    return dict(
        page.evaluate(
            """() => {
              const text = (s) => document.querySelector('#board ' + s)?.textContent ?? null;
              const facts = [...document.querySelectorAll('#board .ccz-turn-facts b')].map((b) => b.textContent);
              return {carbon: text('.ccz-carbon-tracker .ccz-big'), rounds: text('.ccz-round-tracker .ccz-big'),
                      round: text('.ccz-round-tracker .ccz-small'), meter: document.querySelector(
                        '#board .ccz-carbon-tracker meter')?.getAttribute('value') ?? null,
                      facts: text('.ccz-turn-facts'), income_left: facts[0] ?? null};
            }"""
        )
    )


def check_trackers(page: Page, view: dict[str, Any]) -> None:
    """The carbon tracker, round counter and income shown are the engine's."""
    shown = trackers(page)
    assert shown["carbon"] == str(view["carbon"]), (shown, view["carbon"])
    assert shown["meter"] == str(view["carbon"])
    assert shown["rounds"] == str(view["rounds_left"]), (shown, view["rounds_left"])
    assert shown["round"] == f"round {view['round']}"
    if not view["over"]:
        assert shown["income_left"] == str(view["income_left"]), (shown, view["income_left"])
        assert f"left of {view['income']}" in shown["facts"]


def check_offers(page: Page, state: pyengine.State) -> None:
    """Everything offered is legal, and every legal action is offered (a choice behind its card's selection)."""
    actions, selects = offered(page)
    moves = state.view(YOU)["moves"]
    illegal = sorted(set(actions) - set(moves))
    assert not illegal, f"the table offers illegal actions: {illegal}"
    chosen = open_selection(page)
    if chosen is None:
        for text in set(moves) - set(actions):
            facts = moves[text]
            assert facts["kind"] in CHOICE_KINDS and selection.encode(("special", facts["index"])) in selects, (
                f"no click leads to the legal action {text!r}"
            )
    else:
        what, place = selection.decode(chosen)
        assert what == "special", chosen
        targets = {a for a in actions if moves[a]["kind"] in CHOICE_KINDS}
        expected = {t for t, f in moves.items() if f["kind"] in CHOICE_KINDS and f["index"] == place}
        assert targets == expected, f"the choices of {chosen} are not the engine's"


def choose(actions: list[str], selects: list[str], chosen: str | None, rnd: random.Random) -> tuple[str, str]:
    """A random human steered toward using specials and links, then buying, then ending the turn."""
    uses = [a for a in actions if a.startswith("use ")]
    if uses:
        return "action", rnd.choice(uses)
    if selects and chosen is None and rnd.random() < 0.8:
        return "select", rnd.choice(selects)
    buys = [a for a in actions if a.startswith("buy ")]
    if buys and rnd.random() < 0.9:
        return "action", rnd.choice(buys)
    ends = [a for a in actions if a == "end turn" or a.startswith("give Budget")]
    assert ends, f"nothing ends the turn: {actions}"
    return "action", rnd.choice(ends)


def click(page: Page, kind: str, value: str) -> None:
    locator = page.locator(ACTIONS if kind == "action" else SELECTS)
    values = offered(page)[0 if kind == "action" else 1]
    target = locator.nth(values.index(value))
    if kind == "action":
        play_move(page, target)  # a move that shows a card is tapped twice
    else:
        target.click()


def play_out(page: Page, rnd: random.Random, max_clicks: int, checked: bool = False) -> int:
    """Click until the game is over; return the number of clicks. ``checked``: compare the table with the
    engine (offers, carbon, rounds, income) before every click."""
    for clicks in range(max_clicks):
        if wait_settled(page) == "over":
            return clicks
        assert not page.locator("#board [data-ui='take-device']").count(), "one human: no hand-over screen"
        actions, selects = offered(page)
        assert actions or selects, "a human is to move but the table offers nothing to click"
        if checked:
            state = pyengine.replay(saved_record(page))
            check_offers(page, state)
            check_trackers(page, state.view(0))
        kind, value = choose(actions, selects, open_selection(page), rnd)
        click(page, kind, value)
    raise AssertionError(f"the game did not end within {max_clicks} clicks")


def final_state(page: Page, names: list[str]) -> pyengine.State:
    """The finished game, from the record in the page's history; the page's last log line is its last entry."""
    final = pyengine.replay(finished_record(page))  # the whole record replays to the end
    assert final.is_terminal()
    assert page_lines(final, names, last=1) == [page.locator("#log li").last.inner_text()]
    return final


def check_log(page: Page, final: pyengine.State, names: list[str]) -> None:
    shown = page.locator("#log li").all_inner_texts()
    assert shown == page_lines(final, names, last=len(shown))


def check_cooperative_end(page: Page, players: int, bots: set[int]) -> pyengine.State:
    """The game-over dialog and the table say what the engine says: won or lost, carbon, rounds."""
    assert page.evaluate("document.documentElement.dataset.state") == "over"
    expect(page.locator("#game-over")).to_be_visible()
    names = names_of(players, bots)
    final = final_state(page, names)
    check_log(page, final, names)
    view = final.view(None)
    assert view["result"] in ("won", "lost")
    won = view["result"] == "won"
    assert won == (view["carbon"] == 0)
    assert final.winners() == (list(range(players)) if won else [])
    if not won:
        assert view["rounds_left"] == 0
    check_trackers(page, view)
    headline = page.locator("#game-over-text .headline").inner_text()
    assert headline == ("Everyone wins!" if won else "Time is up: the game is lost.")
    result = page.locator("#board .ccz-result")
    expect(result).to_have_count(1)
    expect(result).to_have_class(re.compile("ccz-won" if won else "ccz-lost"))
    expect(result).to_contain_text("Everyone wins!" if won else "Time's up")
    scores = page.locator("#game-over-text .score b").all_inner_texts()
    assert scores == [carbon_cut_words(50 - view["carbon"])] * players
    assert final.scores() == [50 - view["carbon"]] * players
    last = page.locator("#log li").last.inner_text()
    assert re.search(rf"(to|at) {view['carbon']}\b", last), last
    assert ("everyone wins" in last) if won else ("Time's up" in last)
    # nothing is left to click on the finished table
    assert offered(page) == ([], [])
    return final


def test_a_solo_game_played_to_the_end_by_clicking(page: Page) -> None:
    state = open_game(page, "players=1&seed=7")
    view = state.view(0)
    assert view["solo"] and len(view["decks"]) == 2
    expect(page.locator("#board .ccz-deck")).to_have_count(2)
    expect(page.locator("#board .ccz-deck h3").first).to_have_text("Deck 1 (playing)")
    check_trackers(page, view)
    page.goto(near_the_end("carbon-city-zero", 1, 7, [], left=20))  # the last turns; the first made in CPython
    clicks = play_out(page, random.Random(7), max_clicks=800, checked=True)
    assert clicks > 5
    shot(page, "carbon-city-zero", "solo-over")
    final = check_cooperative_end(page, 1, set())
    lines = page_lines(final, names_of(1, set()))
    assert any(line.startswith("Deck 2 ") for line in lines) and any(" buys " in line for line in lines)
    assert any(" uses the special rule of " in line for line in lines)


def test_three_players_with_two_computer_teammates(page: Page) -> None:
    steady_dice(page, 3)  # the computers' turns, and so the game's length, the same in every run
    state = open_game(page, "players=3&seed=3&bots=1,2")
    assert state.current_player == 0
    expect(page.locator("#board .ccz-deck")).to_have_count(3)
    for seat, name in enumerate(names_of(3, {1, 2})):
        expect(page.locator(f"#board .ccz-deck.seat-{seat} h3")).to_contain_text(name)
    check_trackers(page, state.view(0))
    page.goto(near_the_end("carbon-city-zero", 3, 3, [1, 2], left=30))  # the game's end, its start made in CPython
    clicks = play_out(page, random.Random(3), max_clicks=600)
    assert clicks > 3
    shot(page, "carbon-city-zero", "3p-over")
    final = check_cooperative_end(page, 3, {1, 2})
    lines = page_lines(final, names_of(3, {1, 2}))
    for seat in (1, 2):
        assert any(line.startswith(f"Computer {seat + 1} (easy) ends the turn") for line in lines)
    assert any(line.startswith("You end the turn") for line in lines)
    assert any(line.startswith("Computer 2 (easy) ") for line in page.locator("#log li").all_inner_texts())


def card_names(page: Page, where: str) -> list[str]:
    return page.locator(f"#board {where} .ccz-card .ccz-name").all_inner_texts()


def test_one_turn_trackers_a_special_used_once_and_a_purchase(page: Page) -> None:
    state = open_game(page, "players=1&seed=1")
    view = state.view(0)
    # the carbon tracker and round counter are on show, with the engine's numbers
    expect(page.locator("#board .ccz-carbon-tracker")).to_be_visible()
    expect(page.locator("#board .ccz-round-tracker")).to_be_visible()
    expect(page.locator("#board .ccz-carbon-tracker .ccz-big")).to_have_text(str(view["carbon"]))
    expect(page.locator("#board .ccz-round-tracker .ccz-big")).to_have_text(str(view["rounds_left"]))
    assert view["carbon"] == 50 and view["rounds_left"] == 9
    check_trackers(page, view)
    assert card_names(page, ".ccz-market") == [name for name, _ in view["market"]]
    assert card_names(page, ".ccz-in-play") == [slot["name"] for slot in view["in_play"]]
    # the two plain Budgets are one card marked ×2 on a wide screen too (its copy is not drawn)
    expect(page.locator("#board .ccz-in-play .ccz-copies")).to_have_text(["×2"])
    expect(page.locator("#board .ccz-in-play > .ccz-copy")).to_be_hidden()
    assert names_over_their_cards(page) == [], "a card's name passes its edge"
    # every card is drawn with its printed fields
    for card in page.locator("#board .ccz-market .ccz-card").all():
        expect(card.locator(".ccz-cost")).to_be_visible()
        expect(card.locator(".ccz-income")).to_be_visible()
        expect(card.locator(".ccz-carbon")).to_be_visible()
        expect(card.locator(".ccz-sector")).to_be_visible()

    # A special rule that needs a choice: Stock Exchange discards a marketplace card.
    slot = next(i for i, s in enumerate(view["in_play"]) if s["name"] == "Stock Exchange") + 1
    prefix = f"use Stock Exchange #{slot} special: "
    stock = page.locator(f"""#board .ccz-in-play [data-select='["special",{slot - 1}]']""")
    expect(stock).to_be_visible()
    expect(stock.locator(".ccz-flag")).to_have_text("★ ready")
    stock.click()
    wait_settled(page)
    expect(stock).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#board [data-action^='buy ']")).to_have_count(0)  # choosing a target, not buying
    targets = page.locator(f"#board .ccz-market [data-action^='{prefix}']")
    assert sorted(targets.evaluate_all("els => els.map(e => e.dataset.action)")) == sorted(
        a for a in state.legal_texts() if a.startswith(prefix)
    )
    shot(page, "carbon-city-zero", "turn-choosing")
    victim = max(view["market"], key=lambda item: item[1])[0]  # discard the dearest card
    play_move(page, page.locator(f"#board .ccz-market [data-action='{prefix}discard {victim} from the market']"))
    wait_settled(page)
    state = pyengine.replay(saved_record(page))
    assert str(state.history()[-1][1]) == f"{prefix}discard {victim} from the market"
    view = state.view(0)
    assert victim in view["discard"]
    assert card_names(page, ".ccz-market") == [name for name, _ in view["market"]]
    expect(page.locator("#log li").last).to_have_text(
        f"Deck 1 uses the special rule of Stock Exchange, discarding {victim} from the marketplace"
    )
    # used once: no longer offered, by the card or by the engine
    used = page.locator("#board .ccz-in-play .ccz-card").nth(slot - 1)
    expect(used.locator(".ccz-flag")).to_have_text("★ used")
    expect(page.locator(f"""#board [data-select='["special",{slot - 1}]']""")).to_have_count(0)
    expect(page.locator("#board [data-action^='use Stock Exchange']")).to_have_count(0)
    assert not [a for a in state.legal_texts() if a.startswith("use Stock Exchange")]
    assert view["in_play"][slot - 1]["special_used"]
    check_offers(page, state)
    check_trackers(page, view)

    # A purchase: the card leaves the marketplace and income left drops by its cost.
    buyable = page.locator("#board .ccz-market [data-action^='buy ']")
    assert buyable.count() > 0
    card = buyable.first
    name = str(card.get_attribute("data-action")).removeprefix("buy ")
    cost = dict(view["market"])[name]
    assert card.locator(".ccz-cost").inner_text() == str(cost)
    left = view["income_left"]
    assert cost <= left
    market_before = [n for n, _ in view["market"]]
    play_move(page, card)
    wait_settled(page)
    state = pyengine.replay(saved_record(page))
    assert str(state.history()[-1][1]) == f"buy {name}"
    view = state.view(0)
    assert view["income_left"] == left - cost
    expect(page.locator("#board .ccz-turn-facts b").first).to_have_text(str(left - cost))
    market_after = [n for n, _ in view["market"]]
    assert card_names(page, ".ccz-market") == market_after
    hole = market_before.index(name)  # the bought card's place is refilled from the market deck
    assert len(market_after) == len(market_before)
    assert market_after[:hole] + market_after[hole + 1 :] == market_before[:hole] + market_before[hole + 1 :]
    assert view["market_deck_count"] < state.history()[-1][0].view(0)["market_deck_count"]
    assert name in view["decks"][0]["recycle"]
    expect(page.locator("#board .ccz-deck.seat-0")).to_contain_text(name)
    expect(page.locator("#log li").last).to_contain_text(f"Deck 1 buys {name} for {cost}")
    # buying has begun: specials and links are over, and the table says so
    expect(page.locator("#board .ccz-turn-facts")).to_contain_text("specials and links are over")
    expect(page.locator("#board [data-action^='use ']")).to_have_count(0)
    expect(page.locator("#board [data-select]")).to_have_count(0)
    check_offers(page, state)
    check_trackers(page, view)

    # Later turns: a special rule used straight from its card (no choice), then no longer offered.
    rnd = random.Random(7)
    for _ in range(120):
        assert wait_settled(page) == "ready", "the game ended first"
        direct = page.locator("#board .ccz-in-play [data-action$=' special']:visible")
        if direct.count():
            break
        actions, selects = offered(page)
        buys = [a for a in actions if a.startswith("buy ")]
        click(page, "action", rnd.choice(buys) if buys and rnd.random() < 0.8 else "end turn")
    else:
        raise AssertionError("no card with a special rule came into play")
    action = str(direct.first.get_attribute("data-action"))
    state = pyengine.replay(saved_record(page))
    assert action in state.legal_texts()
    before_in_play = len(state.view(0)["in_play"])
    play_move(page, direct.first)
    wait_settled(page)
    state = pyengine.replay(saved_record(page))
    assert str(state.history()[-1][1]) == action
    view = state.view(0)
    index = int(re.fullmatch(r"use .+ #(\d+) special", action).group(1)) - 1  # type: ignore[union-attr]
    assert view["in_play"][index]["special_used"]
    card_name = view["in_play"][index]["name"]
    special = view["cards"][card_name]["special"]
    expect(page.locator("#log li").last).to_contain_text(f"uses the special rule of {card_name}")
    if special.startswith("draw ") and "no card left to draw" not in page.locator("#log li").last.inner_text():
        assert len(view["in_play"]) > before_in_play, "a draw special puts cards into play"
    assert action not in state.legal_texts()
    expect(page.locator(f"#board [data-action='{action}']")).to_have_count(0)
    flags = page.locator("#board .ccz-in-play .ccz-card").nth(index).locator(".ccz-flag").first
    expect(flags).to_have_text("★ used")
    check_offers(page, state)
    check_trackers(page, view)
    shot(page, "carbon-city-zero", "turn-special-used")


def test_friendly_rivalry_has_a_tracker_per_player(page: Page) -> None:
    steady_dice(page, 5)  # the computers' turns, and so the game's length, the same in every run
    state = open_game(page, "players=2&seed=5&bots=1&variant=rivalry")
    assert state.options["variant"] == "rivalry"
    view = state.view(0)
    names = names_of(2, {1})
    expect(page.locator("#board .ccz-carbon-tracker")).to_have_count(0)
    for seat in range(2):
        tracker = page.locator(f"#board .ccz-tracker.seat-{seat}")
        expect(tracker).to_be_visible()
        expect(tracker.locator(".ccz-label")).to_have_text(names[seat])
        expect(tracker.locator(".ccz-big")).to_have_text(str(view["decks"][seat]["carbon"]))
        assert view["decks"][seat]["carbon"] == 40
        expect(page.locator(f"#board .ccz-deck.seat-{seat}")).to_contain_text("carbon marker 40")
    shot(page, "carbon-city-zero", "rivalry-start")
    page.goto(near_the_end("carbon-city-zero", 2, 5, [1], left=30, options={"variant": "rivalry"}))
    clicks = play_out(page, random.Random(5), max_clicks=600)
    assert clicks > 3
    shot(page, "carbon-city-zero", "rivalry-over")
    assert page.evaluate("document.documentElement.dataset.state") == "over"
    final = final_state(page, names)
    check_log(page, final, names)
    view = final.view(None)
    assert view["result"] == "over"
    winners = final.winners()
    assert winners
    for seat in range(2):
        expect(page.locator(f"#board .ccz-tracker.seat-{seat} .ccz-big")).to_have_text(
            str(view["decks"][seat]["carbon"])
        )
    if min(d["carbon"] for d in view["decks"]) == 0:
        assert all(view["decks"][w]["carbon"] == 0 for w in winners)
    shown = " and ".join(names[w] for w in winners)
    plural = len(winners) > 1 or names[winners[0]] == "You"
    expect(page.locator("#game-over-text .headline")).to_have_text(shown + (" win!" if plural else " wins!"))
    expect(page.locator("#board .ccz-result")).to_have_text(f"Game over: {', '.join(names[w] for w in winners)} won.")
    scores = page.locator("#game-over-text .score b").all_inner_texts()
    assert scores == [carbon_cut_words(40 - d["carbon"]) for d in view["decks"]]
    assert final.scores() == [40 - d["carbon"] for d in view["decks"]]
    assert offered(page) == ([], [])
