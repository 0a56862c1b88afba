"""Card-cassonne table: the open grid of cards with its areas and tokens, the score track and the hand.

Selections: a hand card (``7♡``) highlights the cells it may go to; ``counts`` shows each area's
open-cell count L; both at once are written ``counts|7♡``.
"""

from __future__ import annotations

from typing import Any

from .. import html

SUIT_NAME = {"♣": "clubs", "♢": "diamonds", "♡": "hearts", "♠": "spades"}
COUNTS = "counts"


def _names(view: dict[str, Any]) -> list[str]:
    names = view.get("names") or []
    return [names[s] if s < len(names) else f"Player {s + 1}" for s in range(view["players"])]


def _selection(selection: str | None) -> tuple[bool, str | None]:
    """(show counts, chosen hand card) from a selection token."""
    if not selection:
        return False, None
    counts = selection == COUNTS or selection.startswith(COUNTS + "|")
    card = selection.split("|", 1)[1] if selection.startswith(COUNTS + "|") else (None if counts else selection)
    return counts, card


def _token(counts: bool, card: str | None) -> str | None:
    """The selection token for a combination (None: nothing selected)."""
    if counts and card:
        return f"{COUNTS}|{card}"
    return COUNTS if counts else card


def _area_state(area: dict[str, Any]) -> str:
    if area["complete"]:
        return "complete"
    return "partially complete" if area["partial"] else "open"


def render(view: dict[str, Any], legal: list[str], selection: str | None) -> str:
    names = _names(view)
    counts, chosen = _selection(selection)
    targets: dict[str, set[tuple[int, int]]] = {}
    for text in legal:
        card, sep, cell = text.partition(" @ ")
        if sep:
            x, y = cell.split(",")
            targets.setdefault(card, set()).add((int(x), int(y)))
    if chosen not in targets:
        chosen = None
    return (
        '<div class="cc-table">'
        + _track(view, names)
        + _prompt(view, legal, names, counts, chosen)
        + _board(view, legal, names, counts, chosen, targets)
        + _hand(view, counts, chosen, targets)
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
            f'<span class="cc-token seat-{seat}">{seat + 1}</span>×{view["tokens_left"][seat]}</span>'
            f'<span class="cc-hcount" title="cards in hand">{view["hand_counts"][seat]} in hand</span>'
            "</li>"
        )
    piles = (
        '<div class="cc-piles">'
        f'<figure class="cc-pile">{html.card_back(view["draw_pile"], "draw pile")}'
        "<figcaption>draw pile</figcaption></figure>"
        f'<figure class="cc-pile">{html.card_back(view["removed"], "removed unseen")}'
        "<figcaption>removed unseen</figcaption></figure></div>"
    )
    return f'<section class="cc-top"><ol class="cc-track">{"".join(rows)}</ol>{piles}</section>'


def _prompt(view: dict[str, Any], legal: list[str], names: list[str], counts: bool, chosen: str | None) -> str:
    """What is being decided now, with the token and scoring buttons."""
    phase = view["phase"]
    turn = view["turn"]
    parts: list[str] = []
    if phase == "over":
        winners = view.get("winners") or []
        who = " and ".join(names[s] for s in winners)
        parts.append(f'<p class="cc-say">Game over: {html.esc(who)} {"win" if len(winners) > 1 else "wins"}.</p>')
    elif not legal:
        parts.append(f'<p class="cc-say">{html.esc(names[turn])} is {_doing(phase)}.</p>')
    elif phase == "play":
        ask = f"Play {chosen} on a highlighted cell." if chosen else "Choose a card from your hand."
        parts.append(f'<p class="cc-say">{html.esc(ask)}</p>')
    elif phase == "token":
        last = view["last"]
        parts.append(f'<p class="cc-say">Place a token on the card you just played at {last[0]},{last[1]}?</p>')
        parts.append(html.button("Place a token", action="token", extra="cc-go") if "token" in legal else "")
        parts.append(html.button("No token", action="no token") if "no token" in legal else "")
    elif phase == "score":
        parts.append('<p class="cc-say">Score partially complete areas (outlined), or finish your turn.</p>')
        info = {entry["action"]: view["areas"][entry["area"]] for entry in view["scorable"]}
        at = {(g["x"], g["y"]): g["card"] for g in view["grid"]}
        for text in legal:
            if text.startswith("score "):
                area = info.get(text)
                label = text[0].upper() + text[1:]
                if area is not None:
                    # name the area by the card of the cell the action names: cells are not written on the grid
                    x, y = (int(n) for n in text.rsplit(" ", 1)[1].split(","))
                    owners = ", ".join(names[t[2]] for t in area["tokens"])
                    size = f"{area['size']} card{'s' if area['size'] != 1 else ''}"
                    label = f"Score the {area['suit']} area of {at[(x, y)]} at {x},{y} ({size}): "
                    label += f"{area['value']} per token ({owners})"
                parts.append(html.button(label, action=text, extra="cc-go"))
        if "done" in legal:
            parts.append(html.button("Done", action="done", title="score no more areas; draw and pass"))
    toggle = _token(not counts, chosen) if not (counts and not chosen) else COUNTS
    parts.append(
        html.button(
            "Hide open-cell counts" if counts else "Show open-cell counts",
            select=toggle,
            extra=html.classes("cc-counts", "selected" if counts else None),
            title="L: the empty cells next to each area",
        )
    )
    return f'<section class="cc-prompt">{"".join(parts)}</section>'


def _doing(phase: str) -> str:
    return {"play": "playing a card", "token": "deciding on a token", "score": "choosing areas to score"}.get(
        phase, "playing"
    )


def _board(
    view: dict[str, Any],
    legal: list[str],
    names: list[str],
    counts: bool,
    chosen: str | None,
    targets: dict[str, set[tuple[int, int]]],
) -> str:
    """The grid: bounding box of the cards plus one cell all round (where the legal cells are)."""
    grid = view["grid"]
    areas = view["areas"]
    cells = {(g["x"], g["y"]): g for g in grid}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    scorable = {entry["area"] for entry in view.get("scorable", [])}
    open_cells = {cell for cells_ in targets.values() for cell in cells_}
    chosen_cells = targets.get(chosen, set()) if chosen else set()
    last = tuple(view["last"]) if view.get("last") else None
    anchors = {tuple(area["cells"][0]): i for i, area in enumerate(areas)}
    out = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            entry = cells.get((x, y))
            if entry is None:
                if (x, y) in chosen_cells:
                    out.append(
                        f'<button type="button" class="cc-slot target clickable" '
                        f'data-action="{html.esc(f"{chosen} @ {x},{y}")}" title="play {html.esc(chosen)} at {x},{y}">'
                        f"{x},{y}</button>"
                    )
                elif (x, y) in open_cells:
                    out.append(f'<div class="cc-slot cc-open" title="{x},{y}"></div>')
                else:
                    out.append('<div class="cc-void"></div>')
                continue
            out.append(_card_cell(entry, cells, areas, names, counts, scorable, last, anchors))
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    return (
        f'<section class="cc-board zoomable" aria-label="table">'
        f'<div class="cc-grid" style="--cc-cols:{cols};--cc-rows:{rows}">{"".join(out)}</div></section>'
    )


def _card_cell(
    entry: dict[str, Any],
    cells: dict[tuple[int, int], dict[str, Any]],
    areas: list[dict[str, Any]],
    names: list[str],
    counts: bool,
    scorable: set[int],
    last: tuple[int, ...] | None,
    anchors: dict[tuple[int, ...], int],
) -> str:
    """One card: its area's borders (an edge wherever the neighbour is not in the same area), token and L."""
    x, y = entry["x"], entry["y"]
    index = entry["area"]
    area = areas[index]
    edges = []
    for side, (dx, dy) in (("t", (0, -1)), ("r", (1, 0)), ("b", (0, 1)), ("l", (-1, 0))):
        other = cells.get((x + dx, y + dy))
        if other is None or other["area"] != index:
            edges.append(f"cc-e{side}")
    suit = SUIT_NAME.get(area["suit"], "")
    title = (
        f"{entry['card']} at {x},{y}; {area['suit']} area of {area['size']} card{'s' if area['size'] > 1 else ''}, "
        f"L = {area['open']} open cell{'s' if area['open'] != 1 else ''} ({_area_state(area)})"
    )
    token = ""
    if entry["token"] is not None:
        owner = entry["token"]
        title += f"; token of {names[owner]}"
        token = f'<span class="cc-token seat-{owner}" title="token of {html.esc(names[owner])}">{owner + 1}</span>'
    badge = ""
    if counts and anchors.get((x, y)) == index:
        badge = f'<span class="cc-l cc-l-{html.esc(_area_state(area).split()[0])}">L{area["open"]}</span>'
    cls = html.classes(
        "cc-cell",
        f"cc-{suit}",
        *edges,
        "cc-last" if last == (x, y) else None,
        "cc-start" if (x, y) == (0, 0) else None,
        "cc-scorable" if index in scorable else None,
        "cc-done" if area["complete"] else ("cc-partial" if area["partial"] else None),
    )
    return f'<div class="{cls}" title="{html.esc(title)}">{html.card(entry["card"])}{token}{badge}</div>'


def _hand(view: dict[str, Any], counts: bool, chosen: str | None, targets: dict[str, set[tuple[int, int]]]) -> str:
    hand = view.get("hand")
    if hand is None:
        return ""
    cards = []
    marked = False
    for text in hand:
        if text in targets:
            token = _token(counts, None) if text == chosen else _token(counts, text)
            # Clicking the chosen card again unchooses it (keeping the counts if they are shown).
            token = token if token is not None else text
            selected = text == chosen and not marked  # of two equal cards (two decks), one is shown chosen
            marked = marked or selected
            cards.append(html.card(text, select=token, selected=selected, title=f"play {text}"))
        else:
            cards.append(html.card(text))
    body = "".join(cards) if cards else '<span class="cc-none">no cards</span>'
    return f'<section class="cc-hand"><h3>Your hand</h3><div class="cc-cards">{body}</div></section>'
