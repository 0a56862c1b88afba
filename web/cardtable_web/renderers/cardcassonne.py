"""Card-cassonne table: the open grid of cards with its areas and tokens, the score track and the hand.

The actions come from ``view["moves"]`` by their facts: ``play`` (card, x, y), ``token``, ``no-token``,
``score`` (suit, x, y, area, card, value) and ``done``.

The selection is ``Shown(counts, card)``: a hand card (``card``) highlights the cells it may go to;
``counts`` shows each area's open-cell count L.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pyengine.cards import SUIT_NAMES
from pyengine.games.cardcassonne import words as game_words
from pyengine.words import say

from .. import html
from ..selection import Selection

Cell = tuple[int, int]


class Shown(NamedTuple):
    """What the table shows on request: the open-cell counts, the cells of a hand card."""

    what: str = "shown"
    counts: bool = False
    card: str | None = None

    @staticmethod
    def of(selection: Selection | None) -> Shown:
        """The selection's counts and card (nothing shown for another value)."""
        if selection is None or len(selection) != 3 or selection[0] != "shown":
            return Shown()
        return Shown(counts=selection[1] is True, card=selection[2] if isinstance(selection[2], str) else None)

    def value(self) -> Shown | None:
        """This as a selection (None: nothing selected)."""
        return self if self.counts or self.card else None


@dataclass
class Moves:
    """The seat's legal actions, sorted by what they do (each keeps the text it was given)."""

    plays: dict[str, dict[Cell, str]] = field(default_factory=dict)
    """Each hand card's target cells, with the action text of each."""
    token: str | None = None
    no_token: str | None = None
    scores: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    done: str | None = None

    @staticmethod
    def of(view: dict[str, Any]) -> Moves:
        moves = Moves()
        for text, facts in (view.get("moves") or {}).items():
            kind = facts["kind"]
            if kind == "play":
                moves.plays.setdefault(facts["card"], {})[(facts["x"], facts["y"])] = text
            elif kind == "token":
                moves.token = text
            elif kind == "no-token":
                moves.no_token = text
            elif kind == "score":
                moves.scores.append((text, facts))
            elif kind == "done":
                moves.done = text
        return moves

    def any(self) -> bool:
        return bool(self.plays or self.token or self.no_token or self.scores or self.done)


def selection_for(view: dict[str, Any], action: str, selection: Selection | None) -> Selection | None:
    """The next selection toward ``action`` (the table showing ``selection``): a play's card, the counts kept
    as they are; None when the action is shown (every other move is shown whatever is selected)."""
    facts = view["moves"][action]
    shown = Shown.of(selection)
    if facts["kind"] != "play" or shown.card == facts["card"]:
        return None
    return shown._replace(card=facts["card"])


def selection_words(view: dict[str, Any], selection: Selection) -> str:
    """The selection's element, in words: "the 7♡ in your hand" or the counts' button."""
    shown = Shown.of(selection)
    return f"the {shown.card} in your hand" if shown.card else "Show open-cell counts"


def move_words(view: dict[str, Any], action: str) -> str:
    """The legal move ``action`` said to the player who decides: "play the 7♡ below the 3♣"."""
    at = {(entry["x"], entry["y"]): str(entry["card"]) for entry in view["grid"]}
    return game_words.move_words(view["moves"][action], at)


def _area_state(area: dict[str, Any]) -> str:
    if area["complete"]:
        return "complete"
    return "partially complete" if area["partial"] else "open"


LEGEND = html.legend([
    ('<span class="legend-suits"><b class="cc-k-clubs">♣</b> <b class="cc-k-diamonds">♢</b> '
     '<b class="cc-k-hearts">♡</b> <b class="cc-k-spades">♠</b></span>',
     "an area's border, in its suit's colour: touching cards of one suit form an area"),
    ('<span class="cc-token seat-0">1</span>', "a player's token (the number is the seat): it claims its area"),
    ('<span class="cc-supply"><span class="cc-token seat-0">1</span>×7</span>', "tokens a player has left to place"),
    ('<span class="cc-l cc-l-partially">L3</span>',
     "open cells around an area (Show open-cell counts): 0 is complete; at most its number of cards, partially"),
    ('<span class="legend-ring">♡</span>', "ringed in orange: an area you may score now"),
    ('<span class="cc-swatch seat-1"></span>', "a player's latest move, outlined in their colour"),
])
"""What the table's symbols mean (the page shows it under the table: see ``drawing.legend_html``)."""


def render(view: dict[str, Any], selection: Selection | None) -> str:
    names = view["names"]
    counts, chosen = Shown.of(selection)[1:]
    moves = Moves.of(view)
    if chosen not in moves.plays:
        chosen = None
    return (
        '<div class="cc-table">'
        + _track(view, names)
        + _prompt(view, moves, names, chosen)
        + _hand(view, counts, chosen, moves.plays)  # above the board: a turn's card and its cells on one screen
        + _board(view, moves, names, counts, chosen)
        + "</div>"
    )


def _track(view: dict[str, Any], names: list[str]) -> str:
    """The score track: each player's score, tokens in supply and hand size; then the piles."""
    scores = view.get("scores") or [0] * view["players"]
    top = max([1, *scores])
    rows = []
    for seat, name in enumerate(names):
        current = seat == view.get("current_player")
        width = round(100 * max(scores[seat], 0) / top)
        rows.append(
            f'<li class="{html.classes("cc-player", f"seat-{seat}", "cc-current" if current else None)}">'
            f'<span class="cc-pname">{html.esc(name)}</span>'
            f'<span class="cc-bar"><span class="cc-fill seat-{seat}" style="width:{width}%"></span></span>'
            f'<span class="cc-score" title="score">{html.esc(scores[seat])}</span>'
            f'<span class="cc-supply" title="tokens in supply">'
            f'<span class="cc-token seat-{seat}" data-piece="tokens {seat}">{seat + 1}</span>'
            f'×{view["tokens_left"][seat]}</span>'
            f'<span class="cc-hcount" title="cards in hand">{view["hand_counts"][seat]}'
            '<span class="cc-in-hand"> in hand</span></span>'
            "</li>"
        )
    piles = (
        '<div class="cc-piles">'
        f'<figure class="cc-pile">{html.card_back(view["draw_count"], "draw pile")}'
        "<figcaption>draw pile</figcaption></figure>"
        f'<figure class="cc-pile">{html.card_back(view["removed"], "out of the game, face down")}'
        "<figcaption>out of the game</figcaption></figure></div>"
    )
    return f'<section class="cc-top"><ol class="cc-track">{"".join(rows)}</ol>{piles}</section>'


def _prompt(view: dict[str, Any], moves: Moves, names: list[str], chosen: str | None) -> str:
    """What is being decided now, with the token and scoring buttons."""
    phase = view["phase"]
    seat = view["current_player"]
    you = view.get("you")
    parts: list[str] = []
    if phase == "over":
        winners = view.get("winners") or []
        who = " and ".join(f"{{{s}}}" for s in winners)
        verb = f"{{{winners[0]}:wins}}" if len(winners) == 1 else "win"
        said = say(f"Game over: {who} {verb}." if winners else "Game over.", names, you)
        parts.append(f'<p class="cc-say">{html.esc(said)}</p>')
    elif not moves.any():
        doing = say(f"{{{seat}}} {{{seat}:is}} {_doing(phase)}.", names, you)
        parts.append(f'<p class="cc-say">{html.esc(doing)}</p>')
    elif moves.plays:
        ask = f"Play {chosen} on a highlighted cell." if chosen else "Choose a card from your hand."
        parts.append(f'<p class="cc-say">{html.esc(ask)}</p>')
    elif moves.token or moves.no_token:
        parts.append('<p class="cc-say">Place a token on the card you just played?</p>')
        parts.append(html.button("Place a token", action=moves.token, extra="cc-go") if moves.token else "")
        parts.append(html.button("No token", action=moves.no_token) if moves.no_token else "")
    else:
        parts.append('<p class="cc-say">Score partially complete areas (outlined), or finish your turn.</p>')
        for text, facts in moves.scores:
            # name the area by the card of the cell the action names: cells are not written on the grid
            area = view["areas"][facts["area"]]
            owners = ", ".join(names[t[2]] for t in area["tokens"])
            size = f"{area['size']} card{'s' if area['size'] != 1 else ''}"
            label = f"Score the {facts['suit']} area of {facts['card']} ({size}): "
            label += f"{facts['value']} per token ({owners})"
            parts.append(html.button(label, action=text, extra="cc-go"))
        if moves.done:
            parts.append(html.button("Done", action=moves.done, title="score no more areas; draw and pass"))
    return f'<section class="cc-prompt">{"".join(parts)}</section>'


def _counts_toggle(counts: bool, chosen: str | None) -> str:
    """The button that shows or hides each area's open-cell count on the grid (set beside the grid's zoom). A click
    toggles the counts; with only the counts shown, it is the selection again (the session unselects it)."""
    toggle = Shown(counts=not counts, card=chosen).value() if chosen else Shown(counts=True)
    return html.button(
        "Hide open-cell counts" if counts else "Show open-cell counts",
        select=toggle,
        extra=html.classes("cc-counts", "selected" if counts else None),
        title="L: the empty cells next to each area",
    )


def _doing(phase: str) -> str:
    return {"play": "playing a card", "token": "deciding on a token", "score": "choosing areas to score"}.get(
        phase, "playing"
    )


def _board(view: dict[str, Any], moves: Moves, names: list[str], counts: bool, chosen: str | None) -> str:
    """The grid: bounding box of the cards plus one cell all round (where the legal cells are)."""
    grid = view["grid"]
    areas = view["areas"]
    cells = {(g["x"], g["y"]): g for g in grid}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    scorable = {entry["area"] for entry in view.get("scorable", [])}
    open_cells = {cell for cells_ in moves.plays.values() for cell in cells_}
    chosen_cells = moves.plays.get(chosen, {}) if chosen else {}
    marks = _marks(view)
    anchors = {tuple(area["cells"][0]): i for i, area in enumerate(areas)}
    at = {cell: str(entry["card"]) for cell, entry in cells.items()}
    out = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            place = f'style="--c:{x - x0};--r:{y - y0}"'  # its column and row, for the grid drawn turned
            entry = cells.get((x, y))
            if entry is None:
                if (x, y) in chosen_cells:
                    said = f"Play {chosen} {game_words.place_words(at, (x, y))}"
                    out.append(
                        f'<button type="button" class="cc-slot target clickable" {place} '
                        f'data-action="{html.esc(chosen_cells[(x, y)])}" title="{html.esc(said)}">+</button>'
                    )
                elif chosen:
                    attempt = {"kind": "play", "card": chosen, "x": x, "y": y}
                    kind = "cc-slot cc-open" if (x, y) in open_cells else "cc-void"
                    spot = game_words.place_words(at, (x, y))
                    name = html.spoken(f"play {chosen} {spot}?", keep_shown=True)
                    out.append(f'<button type="button" class="{kind} tryable" {place} title="{html.esc(spot)}" '
                               f'aria-label="{html.esc(name)}"{html.tried(attempt)}></button>')
                elif (x, y) in open_cells:
                    title = html.esc(game_words.place_words(at, (x, y)))
                    out.append(f'<div class="cc-slot cc-open" {place} title="{title}"></div>')
                else:
                    out.append(f'<div class="cc-void" {place}></div>')
                continue
            out.append(_card_cell(view, entry, cells, areas, counts, scorable, marks, anchors, place))
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    turnable = " turnable" if cols > rows else ""  # the shell turns it on a screen too narrow for its columns
    return (
        _recent_legend(view)
        + _counts_toggle(counts, chosen)
        + f'<section class="cc-board zoomable fits-screen{turnable}" aria-label="table">'
        f'<div class="cc-grid" style="--cc-cols:{cols};--cc-rows:{rows}">{"".join(out)}</div></section>'
        + (TURNED if turnable else "")
    )


TURNED = ('<p class="cc-turned-note">The table is turned a quarter to fit your screen: what the log calls above is '
          "on the right.</p>")
"""Said under a grid drawn turned (its style shows it only then)."""


def _recent_legend(view: dict[str, Any]) -> str:
    """Each seat's latest turn in words beside its outline on the grid (the cells are too small for labels)."""
    items = []
    for who, turn in sorted((view.get("recent") or {}).items()):
        did = []
        for facts in turn:
            if facts.get("kind") == "play":
                did.append(f"played {facts['card']}")
            elif facts.get("kind") == "token":
                did.append("placed a token on it")
            for area in facts.get("scored") or []:
                did.append(f"scored the {area['suit']} area outlined dashed")
        if did:
            words = html.last_move_words(view, who)
            items.append(f'<li class="last-legend seat-{who}"><span class="cc-swatch seat-{who}"></span>'
                         f"{html.esc(words[:1].upper() + words[1:])}: {html.esc(', '.join(did))}</li>")
    return f'<ul class="cc-recent" aria-label="last moves">{"".join(items)}</ul>' if items else ""


def _marks(view: dict[str, Any]) -> dict[Cell, tuple[int, bool]]:
    """The cells of each seat's latest turn (``view["recent"]``): -> (the seat, whether it is the card played:
    the cells of an area it scored are outlined dashed)."""
    marks: dict[Cell, tuple[int, bool]] = {}
    for who, turn in (view.get("recent") or {}).items():
        for facts in turn:
            if facts.get("kind") in ("play", "token") and facts.get("cell"):
                marks[(facts["cell"][0], facts["cell"][1])] = (who, True)
            for area in facts.get("scored") or []:
                for cell in area.get("cells", []):
                    marks.setdefault((cell[0], cell[1]), (who, False))
    return marks


def _card_cell(
    view: dict[str, Any],
    entry: dict[str, Any],
    cells: dict[tuple[int, int], dict[str, Any]],
    areas: list[dict[str, Any]],
    counts: bool,
    scorable: set[int],
    marks: dict[Cell, tuple[int, bool]],
    anchors: dict[tuple[int, ...], int],
    place: str,
) -> str:
    """One card (``place``: its column and row, as a style): its area's borders (an edge wherever the neighbour is
    not in the same area), token and L; outlined when a seat's latest turn played it or scored its area."""
    names: list[str] = view["names"]
    you = view.get("you")
    x, y = entry["x"], entry["y"]
    index = entry["area"]
    area = areas[index]
    edges = []
    for side, (dx, dy) in (("t", (0, -1)), ("r", (1, 0)), ("b", (0, 1)), ("l", (-1, 0))):
        other = cells.get((x + dx, y + dy))
        if other is None or other["area"] != index:
            edges.append(f"cc-e{side}")
    suit = SUIT_NAMES.get(area["suit"], "")
    title = (
        f"{entry['card']}; {area['suit']} area of {area['size']} card{'s' if area['size'] > 1 else ''}, "
        f"L = {area['open']} open cell{'s' if area['open'] != 1 else ''} ({_area_state(area)})"
    )
    token = ""
    if entry["token"] is not None:
        owner = entry["token"]
        whose = "your token" if owner == you else f"token of {names[owner]}"
        title += f"; {whose}"
        token = (f'<span class="cc-token seat-{owner}" data-piece="token {x},{y}" data-from="tokens {owner}" '
                 f'title="{html.esc(whose)}">'
                 f"{owner + 1}</span>")
    badge = ""
    if counts and anchors.get((x, y)) == index:
        badge = f'<span class="cc-l cc-l-{html.esc(_area_state(area).split()[0])}">L{area["open"]}</span>'
    mark = marks.get((x, y))
    if mark is not None:
        who, labelled = mark
        title += f"; {html.last_move_words(view, who)}" + ("" if labelled else ", which scored this area")
    cls = html.classes(
        "cc-cell",
        f"cc-{suit}",
        *edges,
        f"last-move seat-{mark[0]}" if mark else None,
        "cc-scored" if mark and not mark[1] else None,
        "cc-start" if (x, y) == (0, 0) else None,
        "cc-scorable" if index in scorable else None,
        "cc-done" if area["complete"] else ("cc-partial" if area["partial"] else None),
    )
    return (f'<div class="{cls}" data-cell="{x},{y}" {place} title="{html.esc(title)}">{html.card(entry["card"])}'
            f"{token}{badge}</div>")


def _hand(view: dict[str, Any], counts: bool, chosen: str | None, targets: dict[str, dict[Cell, str]]) -> str:
    hand = view.get("hand")
    if hand is None:
        return ""
    cards = []
    shows_chosen = html.chosen_once(chosen)  # of two equal cards (two decks), one is shown chosen
    # a card that cannot be played now tries an open cell (or the card just played, after a play)
    open_cell = next((cell for cells in targets.values() for cell in cells), None)
    for text in hand:
        if text in targets:
            # Clicking the chosen card again unchooses it (keeping the counts if they are shown): without the
            # counts it is the selection again (the session unselects it).
            token = Shown(counts=counts, card=None if text == chosen else text).value() or Shown(card=text)
            cards.append(html.card(text, select=token, selected=shows_chosen(text), title=f"play {text}"))
        elif view.get("moves") and (open_cell or view.get("last")):
            x, y = open_cell or view["last"]
            attempt = {"kind": "play", "card": text, "x": x, "y": y}
            cards.append(html.card(text, attempt=attempt, title=f"play {text}?"))
        else:
            cards.append(html.card(text))
    body = "".join(cards) if cards else '<span class="cc-none">no cards</span>'
    return (
        '<section class="cc-hand" role="group" aria-label="Your hand"><h3>Your hand</h3>'
        f'<div class="cc-cards">{body}</div></section>'
    )
