"""The table page's adapter: DOM events into :class:`~cardtable_web.controller.TableController` calls, and the
effects it returns into the DOM.

The lobby is plain HTML and script (it appears before Python is ready); it calls the functions :func:`main`
puts on ``window.cardTable``. Everything the table decides is the controller's; this module only draws, keeps
the keyboard's focus, zooms, fetches the rules page and runs the computer's thinking.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from js import document, window  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

import pyengine

from . import drawing, remote_page
from .controller import TableController
from .dom import byid, decide, guarded, js_object, load_stylesheet, text_or_none
from .effects import (
    After,
    Click,
    Decided,
    Effect,
    Elsewhere,
    FillLobby,
    Fit,
    LobbyError,
    ReplayScreen,
    SetAddress,
    Share,
    ShowLobby,
    TableScreen,
    Think,
    WarmWorker,
    Wire,
)
from .figures import render_live_positions
from .html import esc
from .keeping import Keeper
from .registry import site_game

_FOCUS_ATTRIBUTES = ("data-action", "data-select", "data-ui", "id")
NEXT_CHOICE = "[data-select]:not([disabled]), [data-action]:not([disabled]), [data-ui='take-device']"
"""What gets the focus after a move took the focused choice away: the board's first choice."""
SMALLEST_PLACE = 24.0
"""The least width and height (CSS px) of a place on a board shrunk by itself to fit the first screen: a finger's
target (WCAG 2.2's target size)."""
ZOOM_CONTROLS = (
    '<button type="button" class="btn" data-ui="zoom-out" aria-label="Zoom out">−</button>'
    '<button type="button" class="btn" data-ui="zoom-fit">Fit</button>'
    '<button type="button" class="btn" data-ui="zoom-in" aria-label="Zoom in">+</button>'
)


def draw_hint(screen: TableScreen) -> None:
    """The polite note and the highlight of the move it speaks of (a suggestion, or a held move)."""
    advice = byid("advice")
    advice.textContent = screen.advice
    advice.style.removeProperty("top")
    if screen.hint is not None:
        name, value = screen.hint
        element = byid("board").querySelector(f'[{name}="{window.CSS.escape(value)}"]')
        if element:
            element.classList.add("hinted")
            element.setAttribute("aria-describedby", "advice")
            if screen.held:
                say_beside(advice, element)


def say_beside(advice: Any, element: Any) -> None:
    """A held move's words just under the move (above it when there is no room below), so that what to do next is
    read where the finger is; taps still pass through them."""
    box = element.getBoundingClientRect()
    height = advice.getBoundingClientRect().height
    below = box.bottom + 10
    top = below if below + height < window.innerHeight else max(4, box.top - height - 10)
    advice.style.top = f"{top:.0f}px"


def show_pace(select: Any, pace: int) -> None:
    """The table's pace box shows the pace in play: one the address chose outside its list (up to 10 s) gets an
    entry of its own, written as the lobby writes it, so the box is never blank."""
    value = str(pace)
    select.value = value
    if select.value != value:
        select.append(window.Option.new(f"{value} ms", value))
        select.value = value


class Page:
    """The table page: runs the controller's effects."""

    def __init__(self) -> None:
        # web/store.js: the browser's localStorage, or the page's own where the browser lets the site keep nothing
        self.controller = TableController(Keeper(window.cardTableStorage))
        self.zoom = BoardZoom()
        self.shown: tuple[str, str] | None = None
        """The title and game the table shows (its stylesheet and rules page are loaded once per game)."""
        self.log_key: tuple[int, int] | None = None
        self.log_shown = 0
        self.drawn_moves = -1
        self.marked_ready = False
        self.focus_owed = False
        """True when a move took away the focused choice and nothing could be chosen yet (the computer's turn):
        the next choice gets the focus when it is drawn."""
        self.rules_cache: dict[str, str] = {}
        self.lesson_focus: tuple[str, str] | None = None
        self._click = create_proxy(self.guard(self.on_click))
        byid("table").addEventListener("click", self._click)

    def guard(self, action: Any) -> Any:
        return guarded(action, self.fail)

    def fail(self, exc: BaseException) -> None:
        self.run(self.controller.fail(exc))

    def call(self, method: Any) -> Any:
        """A bridge function for the lobby's script: the controller's method, its effects run."""
        return create_proxy(self.guard(lambda *args: self.run(method(*args))))

    # -- running effects -------------------------------------------------------------------------------------
    def run(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, TableScreen):
                self.draw_table(effect)
            elif isinstance(effect, ReplayScreen):
                self.draw_replay(effect)
            elif isinstance(effect, SetAddress):
                self.set_address(effect)
            elif isinstance(effect, Think):
                asyncio.ensure_future(self.think(effect))
            elif isinstance(effect, After):
                asyncio.ensure_future(self.after(effect))
            elif isinstance(effect, ShowLobby):
                self.show_lobby()
            elif isinstance(effect, LobbyError):
                self.lobby_error(effect)
            elif isinstance(effect, FillLobby):
                window.cardTable.fillLobby(json.dumps(effect.settings), effect.error)
            else:
                self.run_small(effect)

    def run_small(self, effect: Effect) -> None:
        if isinstance(effect, WarmWorker):
            window.cardTableThinker.warm()
        elif isinstance(effect, Elsewhere):
            byid("elsewhere").hidden = not effect.shown
        elif isinstance(effect, Share):
            base = str(window.location.href).split("#", 1)[0].split("?", 1)[0]
            byid("share-address").value = base + "#" + effect.fragment
            byid("share-note").textContent = effect.note
            byid("share-box").hidden = False
        elif isinstance(effect, Fit):
            self.zoom.fit()
        elif isinstance(effect, Wire) and effect.command.startswith("link"):  # at your own pace: web/links.js
            window.cardTableLinks.run(effect.to_json())
        elif isinstance(effect, Wire):  # playing on separate devices: web/remote.js connects
            window.cardTableRemote.run(effect.to_json())

    async def think(self, effect: Think) -> None:
        task = effect.task
        try:
            action, iterations, seconds, where = await decide(task, self.controller.current, self.controller.pause_now)
            if self.controller.current(task):
                self.run(self.controller.decided(Decided(task, action, iterations, seconds, where)))
        except Exception as exc:  # the computer's task: reported like any other trouble
            if self.controller.current(task):
                self.fail(exc)

    async def after(self, effect: After) -> None:
        await asyncio.sleep(effect.seconds)
        self.guard(lambda: self.run(self.controller.tick(effect.tick)))()

    def set_address(self, effect: SetAddress) -> None:
        path = str(window.location.pathname)
        target = path + ("#" + effect.fragment if effect.fragment else "")
        if effect.how == "push":
            if effect.fragment or window.location.hash or window.location.search:
                window.history.pushState("table" if effect.fragment else "lobby", "", target)
        else:
            window.history.replaceState("table", "", target)

    # -- drawing ---------------------------------------------------------------------------------------------
    def show_table(self, title: str, game: str) -> None:
        byid("lobby").hidden = True
        byid("table").hidden = False
        if self.shown == (title, game):
            return
        self.shown = (title, game)
        window.scrollTo(0, 0)  # a table opens at its top (not at the lobby's scroll)
        self.zoom = BoardZoom()
        document.title = f"{title} · Card Table"
        byid("table-title").textContent = title
        sheet = load_stylesheet(game)
        if sheet is not None:  # a table drawn before its game's stylesheet applies is fitted to the screen again
            self._styled = create_proxy(self.guard(lambda _event: self.zoom.shrink_to_screen()))
            sheet.addEventListener("load", self._styled)
        self.load_rules(game)

    def draw_table(self, screen: TableScreen) -> None:
        """Redraw the table: the board is morphed in place (``web/motion.js``), so its elements keep their identity
        and what moved slides there; should the focused element be gone, the one that does the same gets the focus."""
        self.show_table(screen.title, screen.game)
        focused = focus_key()
        byid("status").innerHTML = screen.status_html
        byid("banner").textContent = screen.banner
        show_pace(byid("pace-table"), screen.pace)
        byid("misclick-table").value = screen.misclick
        board = byid("board")
        window.cardTableMotion.redraw(board, self.zoom.zoomed(screen.board_html) if screen.zoomable
                                      else screen.board_html)
        if screen.zoomable:
            self.zoom.shrink_to_screen()
        self.draw_legend(screen.game)
        board.classList.toggle("fresh", screen.moves != self.drawn_moves)
        self.drawn_moves = screen.moves
        if not self.marked_ready:
            self.marked_ready = True
            window.performance.mark("table-ready")
        byid("message").textContent = screen.message
        self.draw_advice(screen)
        self.draw_log(screen)
        byid("game-over").hidden = not screen.over
        if screen.over:
            byid("game-over-text").innerHTML = screen.status_html
        byid("play-again-bar").hidden = not screen.over
        self.place_focus(focused)
        self.focus_lesson(screen)
        undo = byid("undo")
        undo.hidden = False
        undo.setAttribute("aria-disabled", "false" if screen.undo_enabled else "true")  # tapped, it says why
        undo.title = screen.undo_reason
        root = document.documentElement
        root.dataset.moves = str(screen.moves)
        root.dataset.state = screen.marker

    def focus_lesson(self, screen: TableScreen) -> None:
        """A lesson's step just opened or just done: its task or its next button (``data-focus``) gets the focus,
        once."""
        button = byid("status").querySelector("[data-focus]")
        key = (screen.title, screen.status_html)
        if button and self.lesson_focus != key:
            if button.classList.contains("lesson-task"):
                window.scrollTo(0, 0)  # a new step opens at the table's top, its task in view (not at the old scroll)
            button.focus(js_object(preventScroll=True))
        self.lesson_focus = key if button else None

    def place_focus(self, focused: tuple[str, str] | None) -> None:
        """After a redraw the focus goes back to what had it; when a move took that away, to the first choice now
        on the board (or, on the computer's turn, to the first one drawn next), never to the top of the page."""
        restored = restore_focus(focused)
        lost = focused is not None and not restored
        idle = document.activeElement is None or document.activeElement == document.body
        if lost or (self.focus_owed and idle):
            choice = byid("board").querySelector(NEXT_CHOICE)
            if choice:
                choice.focus(js_object(preventScroll=True))
            self.focus_owed = not choice

    def draw_advice(self, screen: TableScreen) -> None:
        """The polite note beside the table, the suggestion's highlight and the "Suggest a move" button."""
        draw_hint(screen)
        button = byid("suggest")
        button.hidden = not screen.suggest_shown
        button.disabled = not screen.suggest_enabled

    def draw_log(self, screen: TableScreen) -> None:
        """The log: only new lines are added (the whole log is drawn again after a take-back or another game)."""
        log = byid("log")
        lines = list(screen.log_lines)
        if screen.log_key != self.log_key or len(lines) < self.log_shown:
            log.innerHTML = drawing.log_items(lines)
        elif len(lines) > self.log_shown:
            log.insertAdjacentHTML("beforeend", drawing.log_items(lines[self.log_shown :]))
        self.log_key, self.log_shown = screen.log_key, len(lines)
        log.scrollTop = log.scrollHeight

    def draw_legend(self, game: str) -> None:
        """The key to the table's symbols, drawn once per game (so it stays open while the table redraws)."""
        box = byid("legend")
        if box.getAttribute("data-game") != game:
            box.innerHTML = drawing.legend_html(game)
            box.setAttribute("data-game", game)

    def draw_replay(self, screen: ReplayScreen) -> None:
        self.show_table(screen.title, screen.game)
        byid("game-over").hidden = True
        byid("status").innerHTML = screen.status_html
        window.cardTableMotion.redraw(byid("board"), screen.board_html)
        self.draw_legend(screen.game)
        byid("message").textContent = ""
        log = byid("log")
        log.innerHTML = screen.log_html
        self.log_key = None
        current = log.querySelector("[aria-current]")
        if current:
            current.scrollIntoView(js_object(block="nearest"))
        for name in ("undo", "suggest", "play-again-bar"):
            byid(name).hidden = True  # a replay has no game on the table to take back, ask about or play again
        byid("advice").textContent = ""
        root = document.documentElement
        root.dataset.moves = str(screen.moves)
        root.dataset.replayIndex = str(screen.index)
        root.dataset.state = screen.marker

    def show_lobby(self) -> None:
        byid("table").hidden = True
        byid("lobby").hidden = False
        self.shown = None
        document.title = "Card Table"
        document.documentElement.dataset.moves = "0"
        document.documentElement.dataset.state = "ready"
        window.cardTable.refreshKept()

    def lobby_error(self, effect: LobbyError) -> None:
        report = ""
        if effect.report is not None:
            report = json.dumps({**effect.report, "browser": str(window.navigator.userAgent),
                                 "address": str(window.location.href)}, indent=1, ensure_ascii=False)
        if effect.trouble:
            window.cardTable.showTrouble(effect.text, report)
        else:
            window.cardTable.showLobbyError(effect.text, report or None)

    # -- input -----------------------------------------------------------------------------------------------
    def on_click(self, event: Any) -> None:
        target = event.target.closest("[data-action], [data-select], [data-ui], [data-try]")
        if not target:
            self.run(self.controller.click(Click()))
            return
        ui, action, select, attempt = (
            text_or_none(target.getAttribute(f"data-{name}")) for name in ("ui", "action", "select", "try"))
        if self.controller.mode is None:
            return
        event.preventDefault()
        if ui == "banner":  # the banner opens to its full text, and closes again
            target.setAttribute("aria-expanded", "false" if target.getAttribute("aria-expanded") == "true" else "true")
            return
        if ui in ("zoom-in", "zoom-out") and self.controller.replay is None:
            self.zoom.step(ui == "zoom-in")
            self.run(self.controller.refresh())
            return
        number = text_or_none(target.getAttribute("data-step" if ui == "jump" else "data-seat")) or "0"
        click = Click(ui, action, select, attempt, int(number) if number.isdigit() else 0)
        self.run(self.controller.click(click))

    # -- the rules panel -------------------------------------------------------------------------------------
    def load_rules(self, game: str) -> None:
        byid("rules-lesson").dataset.game = game  # the drawer's "Learn to play"
        byid("rules-body").innerHTML = f"<p>Loading the rules of {esc(pyengine.GAMES[game].title)}…</p>"
        asyncio.ensure_future(self._load_rules(game))

    async def _load_rules(self, game: str) -> None:
        panel = byid("rules-body")
        if game not in self.rules_cache:
            response = await window.fetch(site_game(game).rules_page)
            if not response.ok:
                panel.innerHTML = "<p>The rules page could not be loaded.</p>"
                return
            self.rules_cache[game] = str(await response.text())
        panel.innerHTML = self.rules_cache[game]
        render_live_positions(panel, game)

    def draw_figures(self, game: str) -> None:
        """The live figures of a rules page opened from the lobby."""
        render_live_positions(byid("rules-body"), str(game))

    def stats(self) -> str:
        return json.dumps(self.controller.decisions)


def focus_key() -> tuple[str, str] | None:
    """What the focused element does (its action, selection, control or id), to find it after a redraw."""
    active = document.activeElement
    if not active or not active.getAttribute:
        return None
    for name in _FOCUS_ATTRIBUTES:
        value = text_or_none(active.getAttribute(name))
        if value:
            return name, value
    return None


def restore_focus(key: tuple[str, str] | None) -> bool:
    """Give the focus back to the element that does the same thing after a redraw; False when it is gone."""
    if key is None:
        return False
    name, value = key
    element = document.querySelector(f'[{name}="{window.CSS.escape(value)}"]')
    if not element:
        return False
    if document.activeElement != element:
        element.focus(js_object(preventScroll=True))
    return True


def fresh_seed() -> int:
    """A new deal's seed: 128 bits from the browser's cryptographic generator (see :func:`pyengine.rng.fresh_seed`)."""
    return pyengine.rng.fresh_seed()


PAGE: Page | None = None


def main() -> None:
    """Set up the table and tell the lobby that Python is ready."""
    global PAGE
    PAGE = page = Page()
    control = page.controller
    bridge = window.cardTable
    bridge.startGame = page.call(control.start)
    bridge.openAddress = page.call(control.open_address)
    bridge.openQuery = page.call(lambda search: control.open_query(str(search), fresh_seed()))
    bridge.continueSaved = page.call(control.continue_kept)
    bridge.discardKept = page.call(control.discard_kept)
    bridge.replayFinished = page.call(lambda index: control.replay_finished(int(index)))
    bridge.clearPutAside = page.call(control.clear_put_aside)
    bridge.exportPutAside = create_proxy(page.guard(control.keeper.export_put_aside))
    bridge.onHistory = page.call(lambda: control.address_changed(str(window.location.hash or "")))
    bridge.storageChanged = page.call(control.storage_changed)
    bridge.leaveGame = page.call(control.leave)
    bridge.playAgain = page.call(lambda: control.play_again(fresh_seed()))
    bridge.setPace = page.call(lambda delay: control.set_pace(int(delay)))
    bridge.cancel = page.call(control.cancel)
    byid("misclick-table").addEventListener("change", page.call(lambda event: control.set_misclick(
        str(event.target.value))))
    bridge.startLesson = page.call(lambda game: control.start_lesson(str(game)))
    bridge.drawFigures = create_proxy(page.guard(page.draw_figures))
    bridge.decisionStats = create_proxy(page.stats)
    page.run(control.migrate())
    remote_page.install(page, bridge)
    bridge.pythonReady()


class BoardZoom:
    """The board's zoom (the page alone can measure the board): the player's − and +, Fit, and a board that grew
    past the first screen shrunk to it while the player has not zoomed by hand."""

    def __init__(self) -> None:
        self.zoom = 1.0
        self.by_hand = False
        """True once the player zoomed with − or +: the board is then never shrunk to the screen (Fit ends it)."""
        self.turned = False
        """Whether a ``turnable`` board is drawn turned a quarter (see :meth:`shrink_to_screen`)."""

    def step(self, closer: bool) -> None:
        """The player's + (``closer``) or −."""
        self.by_hand = True
        self.zoom = min(2.0, self.zoom * 1.25) if closer else max(0.3, self.zoom / 1.25)

    def zoomed(self, html: str) -> Any:
        """The board's new content (a template's, to be morphed into the board) with every zoomable part at the
        table's zoom and its zoom controls before it: drawn each time, so a redraw keeps them once and in place."""
        template = document.createElement("template")
        template.innerHTML = html
        for element in template.content.querySelectorAll(".zoomable"):
            element.style.zoom = str(self.zoom)
            if self.turned and element.classList.contains("turnable"):
                element.classList.add("turned")  # as it was: what did not move does not slide
            controls = document.createElement("div")
            controls.className = "zoom-controls"
            controls.innerHTML = ZOOM_CONTROLS
            element.parentNode.insertBefore(controls, element)
        return template.content

    def fit(self) -> None:
        """Fit: the board as wide as its room (up to 1.5 times), then shrunk to the first screen if it is too tall."""
        self.by_hand = False
        for element in document.querySelectorAll("#board .zoomable"):
            element.style.zoom = "1"
            width, available = element.scrollWidth, element.parentNode.clientWidth
            if width and available:
                self.zoom = max(0.3, min(1.5, available / width))
            element.style.zoom = str(self.zoom)
        self.shrink_to_screen()

    def shrink_to_screen(self) -> None:
        """A board that fits the screen (``fits-screen``: Card-cassonne's grid, which grows all game) is drawn at the
        zoom that fits it in its room and above the first screen's bottom, never so small that a place is under
        :data:`SMALLEST_PLACE` (a finger's size) nor above 1; not once the player zoomed by hand. The zoom is found
        again from the board's own size at each drawing, so a board fitted while the page above it was taller grows
        back; it grows only by more than a few percent (or to its full size), so a line of words coming and going
        does not make the grid breathe, and shrinks by any amount, so its last row is never cut by the screen's
        foot. A board that may be drawn turned a quarter (``turnable``: its renderer's style draws it so, with the
        class ``turned``) is turned while it is wider than its room holds at a finger's size and turned it is
        narrower (a wide grid on a narrow phone)."""
        if self.by_hand:
            return
        for element in document.querySelectorAll("#board .zoomable.fits-screen"):
            turnable = element.classList.contains("turnable")
            element.classList.remove("turned")
            fitting = self.fitting(element)
            if fitting is None:
                continue
            fits, by_width, smallest = fitting
            self.turned = False
            if turnable and by_width < smallest:
                element.classList.add("turned")
                turned = self.fitting(element)
                if turned is not None and turned[1] > by_width:
                    fits, self.turned = turned[0], True
                else:
                    element.classList.remove("turned")
            if fits < self.zoom * 0.999 or fits > self.zoom * 1.05 or (fits == 1.0 and self.zoom < 1.0):
                self.zoom = fits
                element.style.zoom = str(self.zoom)

    def fitting(self, element: Any) -> tuple[float, float, float] | None:
        """The zoom that fits a board in its room and above the first screen's bottom (see :meth:`shrink_to_screen`),
        the zoom that fits its width alone and the least zoom that keeps its places a finger's size; None for an
        empty board."""
        box = element.getBoundingClientRect()  # as drawn, at the zoom
        room_height = window.innerHeight - (box.top + window.scrollY) - 8
        content = element.firstElementChild  # the grid at its own size (lengths inside are unzoomed)
        if not content:
            return None
        style = window.getComputedStyle(element)
        wide = content.offsetWidth + float(style.paddingLeft[:-2]) + float(style.paddingRight[:-2])
        tall = content.offsetHeight + float(style.paddingTop[:-2]) + float(style.paddingBottom[:-2])
        # the board's width is its room's; a pixel short of it, so that the columns' rounding never passes it
        by_width = (box.width - 1) / wide if wide else 1.0
        by_height = room_height / tall if tall and room_height > 0 else self.zoom
        place = content.firstElementChild  # the board's first place: none shrinks below a finger's size
        drawn = window.getComputedStyle(place) if place else None  # its own size, unrounded and unzoomed
        size = min(float(drawn.width[:-2]), float(drawn.height[:-2])) if drawn else 0
        smallest = min(1.0, SMALLEST_PLACE / size) if size else 1.0
        return max(smallest, min(1.0, by_width, by_height)), by_width, smallest
