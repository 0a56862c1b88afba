"""Card-cassonne in the browser: whole games by clicking (one and three computers), the turn flow, hidden hands.

A human turn is played the way a person plays it: a card from the hand, one of the cells it lights up on the grid,
then the token question and the areas to score when the table asks. Set ``CARDTABLE_SHOTS`` to a folder to keep
screenshots of the table along the way.

When the game ends the page moves it from the kept games into its history, with the finished game's record; the
last line of the page's log must be that record's last entry in the table's words.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from playwright.sync_api import Page, expect

import pyengine
from e2e.conftest import finished_record, saved_record, shot, wait_settled
from e2e.keys import mid_game
from e2e.play import near_the_end, play_move, steady_dice

GAME = "index.html?game=cardcassonne&level=easy"
def open_game(page: Page, query: str) -> None:
    page.goto(f"{GAME}&{query}")
    wait_settled(page)
    expect(page.locator("#table-title")).to_have_text("Card-cassonne")


def replayed(page: Page) -> pyengine.State:
    """The game in progress, replayed in CPython from the record the page saved."""
    return pyengine.replay(saved_record(page))


def plays_of(state: pyengine.State, card: str) -> list[str]:
    """The engine's legal plays of ``card`` (found by their facts)."""
    moves = state.view(state.current_player)["moves"]
    return sorted(t for t, f in moves.items() if f["kind"] == "play" and f["card"] == card)


def offered(page: Page, selector: str = "[data-action]") -> list[str]:
    """The ``data-action`` texts of the visible elements of the board matching ``selector``."""
    found = page.locator(f"#board {selector}:visible")
    return [str(t) for t in found.evaluate_all("els => els.map(e => e.dataset.action)")]


def click_action(page: Page, text: str) -> str:
    """Click the one element of the board that offers ``text``; wait for the table and return its state."""
    texts = offered(page)
    assert texts.count(text) == 1, f"{text!r} is offered {texts.count(text)} times: {texts}"
    play_move(page, page.locator("#board [data-action]:visible").nth(texts.index(text)))
    return wait_settled(page)


def playable_cards(page: Page) -> list[str]:
    """The hand cards that can be chosen, like ``7♡`` (each the last item of its selection: counts, card)."""
    cards = page.locator("#board .cc-hand [data-select]:visible")
    return [str(t) for t in cards.evaluate_all("els => els.map(e => JSON.parse(e.dataset.select).at(-1))")]


def choose_card(page: Page, card: str) -> list[str]:
    """Click a hand card; return the cells the grid lights up for it (as actions)."""
    page.locator(f"""#board .cc-hand [data-select$=',"{card}"]']""").first.click()
    wait_settled(page)
    expect(page.locator("#board .cc-hand .card.selected")).to_have_count(1)
    expect(page.locator("#board .cc-say")).to_have_text(f"Play {card} on a highlighted cell.")
    return offered(page, ".cc-grid .cc-slot.target")


def play_turn(page: Page, rnd: random.Random, check: bool = False) -> list[str]:
    """One human turn by clicking: a card, a lit cell, the token question, the areas to score.

    Returns the actions made. With ``check``, every step's buttons are compared with the engine's legal actions.
    """
    made: list[str] = []
    cards = playable_cards(page)
    assert cards, "a human is to play but no hand card can be chosen"
    card = rnd.choice(cards)
    cells = choose_card(page, card)
    assert cells, card
    if check:
        assert sorted(cells) == plays_of(replayed(page), card), card
    made.append(rnd.choice(cells))
    settled = click_action(page, made[-1])
    while settled == "ready" and not playable_cards(page):
        # the same human decides again: the token question, then the areas to score
        buttons = offered(page)
        if check:
            state = replayed(page)
            assert sorted(buttons) == sorted(state.legal_texts()), "every choice is offered once, and no more"
            view = state.view(0)
            ringed = sum(view["areas"][entry["area"]]["size"] for entry in view["scorable"])
            expect(page.locator("#board .cc-grid .cc-cell.cc-scorable")).to_have_count(ringed)
        if "token" in buttons or "no token" in buttons:
            made.append("token" if "token" in buttons and rnd.random() < 0.6 else "no token")
        else:
            assert "done" in buttons, f"the table offers {buttons}"
            scores = [b for b in buttons if b.startswith("score ")]
            made.append(rnd.choice(scores) if scores and rnd.random() < 0.7 else "done")
        settled = click_action(page, made[-1])
    return made


def play_to_the_end(page: Page, rnd: random.Random, check: bool = False, max_turns: int = 60) -> int:
    """Play every human turn by clicking until the game is over; return the number of human turns."""
    for turn in range(max_turns):
        if wait_settled(page) == "over":
            return turn
        if turn == 20:
            shot(page, "cardcassonne", f"{len(saved_record(page)['actions'])}-actions")
        play_turn(page, rnd, check)
    raise AssertionError(f"the game did not end within {max_turns} human turns")


def final_record(page: Page) -> dict[str, Any]:
    """The record of the finished game, from the page's history; the page's last log line is its last entry."""
    record = finished_record(page)
    final = pyengine.replay(record)
    names = page.locator("#board .cc-track .cc-pname").all_inner_texts()
    assert final.log(last=1)[0].say(names, 0) == page.locator("#log li").last.inner_text()
    return record


def check_game_over(page: Page, players: int) -> pyengine.State:
    """The game-over table: its scores are those of the finished record, which replays to the end."""
    expect(page.locator("#game-over")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.state") == "over"
    assert page.evaluate("localStorage.getItem('cardtable.saves')") == "{}", "the finished game is no longer kept"
    final = pyengine.replay(final_record(page))
    assert final.is_terminal(), "the record replays to the end of the game"
    assert final.legal_texts() == []
    view = final.view(None)
    assert view["hand_counts"] == [0] * players and view["draw_count"] == 0, "every card was played"
    scores = [int(s) for s in final.scores()]
    shown = [int(s) for s in page.locator("#game-over-text .score b").all_inner_texts()]
    assert shown == scores, f"the dialog shows {shown}, the record scores {scores}"
    track = [int(s) for s in page.locator("#board .cc-track .cc-score").all_inner_texts()]
    assert track == scores, f"the score track shows {track}, the record scores {scores}"
    winners = final.winners()
    assert winners and all(scores[w] == max(scores) for w in winners)
    headline = page.locator("#game-over-text .headline").inner_text()
    assert headline.endswith(("wins!", "win!")), headline
    expect(page.locator("#board .cc-say")).to_contain_text("Game over:")
    expect(page.locator("#board [data-action]")).to_have_count(0)
    return final


# ----------------------------------------------------------------------------- whole games


def test_a_whole_two_player_game_against_the_computer(page: Page) -> None:
    """The last turns of a two-player game by clicking (the rest played in CPython): every turn checked."""
    steady_dice(page, 3)
    page.goto(near_the_end("cardcassonne", 2, 3, [1], left=30))
    wait_settled(page)
    expect(page.locator("#table-title")).to_have_text("Card-cassonne")
    record = saved_record(page)
    assert record["game"] == "cardcassonne" and record["seed"] == 3 and record["players"] == 2
    expect(page.locator("#board .cc-track .cc-player")).to_have_count(2)
    expect(page.locator("#board .cc-grid .cc-cell")).to_have_count(len(replayed(page).view(0)["grid"]))
    started = time.perf_counter()
    turns = play_to_the_end(page, random.Random(3), check=True)
    print(f"\n2 players: {turns} human turns, {time.perf_counter() - started:.0f} s")
    assert turns >= 5
    shot(page, "cardcassonne", "2p-over")
    final = check_game_over(page, 2)
    # every card played lies on the grid
    expect(page.locator("#board .cc-grid .cc-cell")).to_have_count(104 - 11)
    assert len(final.view(None)["grid"]) == 104 - 11


def test_a_whole_four_player_game_against_three_computers(page: Page) -> None:
    """The end of a four-player game by clicking (its start made in CPython): 51 cards removed (a rule option)
    make it 13 turns each, and the finished record shows every player played exactly their share (rule 4)."""
    page.goto(near_the_end("cardcassonne", 4, 4, [1, 2, 3], left=24, options={"removed": 51}))
    wait_settled(page)
    assert saved_record(page)["options"]["removed"] == 51
    expect(page.locator("#board .cc-track .cc-player")).to_have_count(4)
    names = page.locator("#board .cc-track .cc-pname").all_inner_texts()
    assert names == ["You", "Computer 2 (easy)", "Computer 3 (easy)", "Computer 4 (easy)"]
    started = time.perf_counter()
    turns = play_to_the_end(page, random.Random(4))
    print(f"\n4 players: {turns} human turns, {time.perf_counter() - started:.0f} s")
    assert turns >= 2
    shot(page, "cardcassonne", "4p-over")
    final = check_game_over(page, 4)
    expect(page.locator("#board .cc-grid .cc-cell")).to_have_count(104 - 51)
    assert len(final.view(None)["grid"]) == 104 - 51
    plays = [before.current_player for before, action in final.history()
             if final.rules.facts(before.core, action)["kind"] == "play"]
    assert [plays.count(seat) for seat in range(4)] == [(104 - 1 - 51) // 4] * 4


# ----------------------------------------------------------------------------- the turn


def token_colour(page: Page, selector: str) -> str:
    return str(page.locator(selector).first.evaluate("e => getComputedStyle(e).backgroundColor"))


def test_a_card_lights_up_exactly_its_legal_cells_and_a_token_shows_in_the_players_colour(page: Page) -> None:
    # a pause before each computer move: the human's token is seen before the computer can score it
    open_game(page, "players=2&seed=2&bots=1&delay=1500")
    state = replayed(page)
    assert state.current_player == 0, "seed 2: the human starts"
    hand = state.view(0)["hand"]
    legal = state.legal_texts()
    assert playable_cards(page) == hand, "with one card on the table, every hand card can be played"
    expect(page.locator("#board .cc-grid .cc-slot.target")).to_have_count(0)
    lit: list[str] = []
    for card in dict.fromkeys(hand):
        cells = choose_card(page, card)
        assert sorted(cells) == plays_of(state, card), card
        assert len(cells) == 4, "the start card alone has four free sides"
        expect(page.locator(f"""#board .cc-hand [data-select$=',"{card}"]'].selected""")).to_have_count(1)
        lit += cells
    assert sorted(lit) == sorted(legal), "the cards' lit cells are the engine's legal placements"
    card = hand[-1]
    # the open-cell counts keep the chosen card; clicking the chosen card again puts it back
    page.locator("#board .cc-counts").click()
    wait_settled(page)
    expect(page.locator("#board .cc-grid .cc-l")).to_have_count(1)
    assert sorted(offered(page, ".cc-slot.target")) == plays_of(state, card)
    page.locator("#board .cc-hand .card.selected").click()
    wait_settled(page)
    expect(page.locator("#board .cc-grid .cc-slot.target")).to_have_count(0)
    expect(page.locator("#board .cc-grid .cc-l")).to_have_count(1)
    page.locator("#board .cc-counts").click()
    wait_settled(page)
    expect(page.locator("#board .cc-grid .cc-l")).to_have_count(0)
    # play the highest card to the right of the start card, and put a token on it
    cells = choose_card(page, card)
    action = f"{card} @ 1,0"
    assert action in cells
    assert click_action(page, action) == "ready"
    assert offered(page) == ["token", "no token"]
    assert replayed(page).legal_texts() == ["token", "no token"]
    expect(page.locator("#board .cc-say")).to_have_text("Place a token on the card you just played?")
    placed = page.locator(f"#board .cc-grid .cc-cell[data-cell='1,0'][title^='{card};']")
    expect(placed).to_have_count(1)
    expect(placed.locator(".cc-token")).to_have_count(0)
    expect(page.locator("#board .cc-player.seat-0 .cc-supply")).to_have_text("1×7")
    play_move(page, page.locator("#board [data-action='token']"))
    assert page.evaluate("document.documentElement.dataset.state") == "thinking"
    # the computer waits 1.5 s before its move: the table now shows the token
    token = placed.locator(".cc-token")
    expect(token).to_have_count(1)
    expect(token).to_have_class(re.compile(r"\bseat-0\b"))
    expect(token).to_have_text("1")
    expect(page.locator("#board .cc-grid .cc-token")).to_have_count(1)
    expect(page.locator("#board .cc-player.seat-0 .cc-supply")).to_have_text("1×6")
    mine = token_colour(page, "#board .cc-player.seat-0 .cc-token")
    theirs = token_colour(page, "#board .cc-player.seat-1 .cc-token")
    assert mine != theirs, "the seats' tokens differ in colour"
    assert token_colour(page, f"#board .cc-grid .cc-cell[data-cell='1,0'][title^='{card};'] .cc-token") == mine
    shot(page, "cardcassonne", "token")
    assert wait_settled(page) == "ready"
    view = replayed(page).view(0)
    assert [1, 0, 0] in [[g["x"], g["y"], g["token"]] for g in view["grid"]], "the engine has the token at 1,0"
    expect(page.locator("#board .cc-grid .cc-token.seat-0")).to_have_count(1)


# ----------------------------------------------------------------------------- hidden information

CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])(?:\s|<[^>]*>)*([♣♢♡♠])")
"""A card as the page may write it: ``7♡`` (text, attributes) or rank and suit in neighbouring elements."""


def cards_in(markup: str) -> set[str]:
    return {rank + suit for rank, suit in CARD_TEXT.findall(markup)}


def game_markup(page: Page) -> str:
    """The whole page's markup less two fixed texts that are the same in every game: the games' descriptions (JSON,
    naming a card of another game) and the rules panel (worked examples). Read at one instant: the rules panel may
    be drawing its figures meanwhile."""
    return str(page.evaluate("""() => {
      const copy = document.documentElement.cloneNode(true);
      for (const fixed of ["#games-data", "#rules-body"]) {
        const element = copy.querySelector(fixed);
        if (!element) throw new Error("the page has no " + fixed);
        element.textContent = "";
      }
      return copy.outerHTML;
    }"""))


def hidden_from(state: pyengine.State, seat: int) -> set[str]:
    """Cards ``seat`` cannot see (other hands, the draw pile, the removed cards) and that are nowhere in sight."""
    view = state.view(seat)
    unseen = {card for s in range(state.players) if s != seat for card in state.view(s)["hand"]}
    core: Any = state.core
    unseen |= {str(c) for c in (*core.deck, *core.removed)}
    in_sight = {g["card"] for g in view["grid"]} | set(view["hand"])
    return unseen - in_sight


def check_hidden(page: Page, state: pyengine.State) -> int:
    """No card hidden from the human seat 0 is anywhere in the page; return how many were hidden."""
    markup = game_markup(page)
    shown = cards_in(markup)
    view = state.view(0)
    assert set(view["hand"]) <= shown, "the search finds the human's own cards"
    assert {g["card"] for g in view["grid"]} <= shown, "the search finds the cards on the table"
    hidden = hidden_from(state, 0)
    leaked = hidden & shown
    assert not leaked, f"hidden cards in the page: {sorted(leaked)}"
    return len(hidden)


def test_the_computers_hands_never_reach_the_page(page: Page) -> None:
    # a short game (43 cards removed, the game stops when the draw pile runs out): the computers still hold
    # cards, and many cards lie unseen, when it ends
    steady_dice(page, 6)  # the computers' play, and so the game's length, the same in every run
    page.goto(near_the_end("cardcassonne", 3, 6, [1, 2], left=45,
                           options={"end": "stop-when-deck-empty", "removed": 43}))
    wait_settled(page)
    options = saved_record(page)["options"]
    assert options["end"] == "stop-when-deck-empty" and options["removed"] == 43
    # the search would see a leak: a hidden card written the way the table writes cards is found
    hidden = sorted(hidden_from(replayed(page), 0))
    rank, suit = hidden[0][:-1], hidden[0][-1]
    page.evaluate(
        f"""() => {{ const leak = document.createElement('i'); leak.id = 'leak';
        leak.innerHTML = '<span class="rank">{rank}</span><span class="suit">{suit}</span>';
        document.body.append(leak); }}"""
    )
    assert hidden[0] in cards_in(game_markup(page))
    page.evaluate("document.getElementById('leak').remove()")
    rnd = random.Random(6)
    checks = 0
    while wait_settled(page) != "over":
        assert check_hidden(page, replayed(page)) > 0
        checks += 1
        card = rnd.choice(playable_cards(page))
        choose_card(page, card)
        check_hidden(page, replayed(page))  # a chosen card lights up cells (titles name the card)
        page.locator(f"""#board .cc-hand [data-select$=',"{card}"]']""").first.click()  # and unchoose it
        wait_settled(page)
        play_turn(page, rnd)
    assert checks >= 4  # every turn of the game's end (its start made in CPython)
    final = pyengine.replay(final_record(page))
    assert final.is_terminal()
    assert final.view(None)["hand_counts"] == [3, 3, 3], "the game stopped with the hands still full"
    assert check_hidden(page, final) > 0
    # behind the game-over dialog, the board and the log show the finished game: still no hidden card
    page.locator("#over-close").click()
    expect(page.locator("#game-over")).to_be_hidden()
    check_hidden(page, final)


GROWN = """() => {
  const board = document.querySelector('#board .cc-board');
  const box = board.getBoundingClientRect();
  const cells = [...board.querySelectorAll('.cc-cell, .cc-slot, .cc-void')].map((c) => c.getBoundingClientRect());
  return {bottom: box.bottom + scrollY, right: box.right, sideways: board.scrollWidth > board.clientWidth + 1,
          smallest: Math.min(...cells.map((c) => Math.min(c.width, c.height))), zoom: Number(board.style.zoom || 1)};
}"""
"""Where a grown grid's board ends on the page, whether it scrolls sideways, its smallest cell and its zoom."""
STYLED = "document.getElementById('style-cardcassonne')?.sheet != null"
"""Whether the game's stylesheet applies (the page fits the grid to the screen again when it comes)."""


def test_a_grown_grid_is_shrunk_to_the_first_screen_until_the_player_zooms(page: Page) -> None:
    """A grid that grew past the first screen is drawn smaller to fit it (never below a finger's 24 px a cell), and
    larger again when there is room; a player's own + is kept (nothing shrinks it back), and Fit fits it again."""
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("index.html#" + mid_game("cardcassonne", 4, 5, 120))  # 13 by 13 cells and one all round
        wait_settled(page)
        page.wait_for_function(STYLED)  # on a busy machine the table may be drawn before its style came
        grown = page.evaluate(GROWN)
        assert grown["zoom"] < 1, f"at {width}x{height} the grid of 120 moves is shrunk"
        assert grown["bottom"] <= height + 1 and not grown["sideways"], grown
        assert grown["smallest"] >= 24, grown
        # with more room the next drawing fits it again, larger; back in less room, smaller again
        page.set_viewport_size({"width": width + 200, "height": height + 500})
        page.locator("#board [data-select]").first.click()
        assert page.evaluate(GROWN)["zoom"] > grown["zoom"]
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#board [data-select]").first.click()
        assert page.evaluate(GROWN)["bottom"] <= height + 1
        page.locator("#board [data-ui='zoom-in']").click()
        closer = page.evaluate(GROWN)
        assert closer["zoom"] > grown["zoom"]
        page.locator("#board [data-select]").first.click()  # a redraw keeps the player's zoom
        assert page.evaluate(GROWN)["zoom"] == closer["zoom"]
        page.locator("#board [data-ui='zoom-fit']").click()
        assert page.evaluate(GROWN)["bottom"] <= height + 1


TURNED = """() => {
  const board = document.querySelector('#board .cc-board');
  const at = (cell) => board.querySelector(`[data-cell="${cell}"]`).getBoundingClientRect();
  const cells = [...board.querySelectorAll('.cc-cell, .cc-slot, .cc-void')].map((c) => c.getBoundingClientRect());
  const note = document.querySelector('#board .cc-turned-note').getBoundingClientRect();
  return {turned: board.classList.contains('turned'), note: note.height > 0, sideways: scrollX > 0
          || document.documentElement.scrollWidth > innerWidth, smallest: Math.min(...cells.map((c) => Math.min(c.width,
          c.height))), lower: at('0,0'), upper: at('0,-1')};
}"""
"""Whether the grid is drawn turned (and says so), whether the page scrolls sideways, its smallest cell, and where
the start card and the card above it (in the table's own words) are drawn."""


def test_a_grid_wider_than_a_narrow_phone_holds_is_drawn_turned_a_quarter(page: Page) -> None:
    """A grid of 17 columns and 13 rows does not fit 360 px at a finger's 24 px a cell: it is drawn turned a quarter
    clockwise (what the log calls above the start card is at its right), with every cell the chosen card may go to
    on the first screen and no sideways scrolling; the words under it say so. A wide screen draws it as it is."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("index.html#" + mid_game("cardcassonne", 2, 3, 120))
    wait_settled(page)
    page.wait_for_function(STYLED)
    card = playable_cards(page)[0]
    targets = choose_card(page, card)
    page.evaluate("scrollTo(0, 0)")
    shot(page, "cardcassonne", "turned-small")
    turned = page.evaluate(TURNED)
    assert turned["turned"] and turned["note"] and not turned["sideways"], turned
    assert turned["smallest"] >= 24, turned
    lower, upper = turned["lower"], turned["upper"]
    assert upper["left"] >= lower["right"] - 1 and abs(upper["top"] - lower["top"]) < 1, "above is drawn at the right"
    expect(page.locator("#board .cc-turned-note")).to_have_text(re.compile("turned a quarter"))
    in_view = "(e) => { const b = e.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }"
    assert len(targets) > 1 and all(
        page.locator(f'#board [data-action="{target}"]').evaluate(in_view) for target in targets
    ), "a cell the card may go to is off the first screen"
    page.set_viewport_size({"width": 1366, "height": 768})
    page.locator(f"""#board .cc-hand [data-select$=',"{card}"]']""").first.click()  # unchosen: drawn again
    wait_settled(page)
    wide = page.evaluate(TURNED)
    assert not wide["turned"] and not wide["note"], wide
    upper, lower = wide["upper"], wide["lower"]
    assert abs(upper["left"] - lower["left"]) < 1 and upper["bottom"] <= lower["top"] + 1, "above is drawn above"
