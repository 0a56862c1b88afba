"""Carbles table: the track "unrolled" into one strip per player, the hand, and the choices.

Each strip holds a player's 18 track spaces as a U: up the left column from their home (bottom
left), down the right column, on to the next player's home; their lot and goal sit in the middle
column. Forward runs left to right through the strips.

Clicks: a card (select) -> a marble (select) -> a highlighted destination (action). Moving out
is a click on the lot once the card is chosen. During a 7 the marbles are chosen directly.
A list of buttons repeats every choice of the selected card or marble in words, so nothing hides
behind another target.

Every choice is found by its facts (``view["moves"]``: kind, card, marble, from, to, with); the
action text is only ever put into ``data-action``.
"""

from __future__ import annotations

from typing import Any

from pyengine.words import say

from ..html import button, card, card_back, esc

SECTOR = 18
COLUMN = 9
"""Spaces per column of a strip: 18p..18p+8 go up the left column, 18p+9..18p+17 down the right."""
OUT_KINDS = ("out", "partner_out")


def rank_of(text: str) -> str:
    """The rank part of a card text (``10♠`` -> ``10``, ``Jk`` -> ``Jk``)."""
    return text if text == "Jk" else text[:-1]


def marble_key(pi: list[int]) -> str:
    return f"{pi[0]}.{pi[1]}"


def marble_words(view: dict[str, Any], pi: list[int]) -> str:
    """``marble 2`` for the seat's own marble, ``Player 3's marble 1`` (or ``your marble 1``) for another."""
    p, i = pi
    if p == view.get("seat"):
        return f"marble {i + 1}"
    return say(f"{{{p}:poss}} marble {i + 1}", view["names"], view.get("you"))


def place_words(place: str) -> str:
    if place.startswith("g"):
        return f"goal slot {place[1:]}"
    if place.startswith("t"):
        return f"space {place[1:]}"
    return "the lot"


def choice_words(view: dict[str, Any], move: dict[str, Any]) -> str:
    """A choice in words, from its facts."""
    kind = move["kind"]
    if kind in OUT_KINDS:
        return f"{move['card']}: {marble_words(view, move['marble'])} out"
    if kind == "pass":
        return "Jk: do nothing"
    if kind == "swap":
        return f"swap with {marble_words(view, move['with'])}"
    if kind == "back":
        return f"back to {place_words(move['to'])}"
    if kind in ("move", "move_goal"):
        steps = "1 step" if move["steps"] == 1 else f"{move['steps']} steps"
        return f"{steps} to {place_words(move['to'])}"
    return f"{kind} {move.get('card', '')}".strip()


def render(view: dict[str, Any], selection: str | None) -> str:
    players: int = view["players"]
    names: list[str] = view["names"]
    moves: dict[str, dict[str, Any]] = view.get("moves") or {}
    seven = view.get("seven")

    # -- what is selected ---------------------------------------------------------------
    card_sel: str | None = None
    marble_sel: str | None = None
    for part in (selection or "").split("|"):
        if part.startswith("card:"):
            card_sel = part[5:]
        elif part.startswith("m:"):
            marble_sel = part[2:]
    if seven and moves:
        card_sel = "7"
    burning = bool(moves) and all(m["kind"] == "burn" for m in moves.values())
    card_actions = [t for t, m in moves.items() if m["card"] == card_sel and m["kind"] != "burn"]
    if not card_actions:
        card_sel, marble_sel = None, None
    piece_actions: dict[str, list[str]] = {}
    lot_actions: dict[int, str] = {}
    loose: list[str] = []
    for t in card_actions:
        move = moves[t]
        if move["kind"] in OUT_KINDS:
            lot_actions.setdefault(move["marble"][0], t)
        if "marble" in move and move["kind"] not in OUT_KINDS:
            piece_actions.setdefault(marble_key(move["marble"]), []).append(t)
        else:
            loose.append(t)
    if marble_sel not in piece_actions:
        # a card that moves only one marble shows its landing spaces at once
        marble_sel = next(iter(piece_actions)) if len(piece_actions) == 1 else None
    prefix = "" if seven else f"card:{card_sel}|"

    # -- targets on the board for the selected marble -------------------------------------
    space_action: dict[str, str] = {}
    if marble_sel is not None:
        for t in piece_actions[marble_sel]:
            move = moves[t]
            if move["kind"] == "swap":
                target = marble_place(view, move["with"])
            elif move["to"].startswith("g"):
                target = f"{move['marble'][0]}:{move['to']}"
            else:
                target = move["to"]
            space_action.setdefault(target, t)

    where: dict[str, list[int]] = {}
    for p, locations in enumerate(view["marbles"]):
        for i, loc in enumerate(locations):
            if loc.startswith("g"):
                where[f"{p}:{loc}"] = [p, i]
            elif loc.startswith("t"):
                where[loc] = [p, i]

    def marble(pi: list[int]) -> str:
        p, i = pi
        wide = " cbl-two" if p >= 9 else ""
        return (
            f'<span class="cbl-marble seat-{p}{wide}" title="{esc(names[p])}, marble {i + 1}">'
            f"{p + 1}<small>{i + 1}</small></span>"
        )

    def cell(key: str, number: str, extra: str, title: str) -> str:
        pi = where.get(key)
        classes = ["cbl-space", extra]
        attrs = ""
        if key in space_action:
            classes.append("target")
            attrs = f' data-action="{esc(space_action[key])}"'
            title = f"{title}: {choice_words(view, moves[space_action[key]])}"
        elif pi is not None and marble_key(pi) in piece_actions:
            token = prefix + "m:" + marble_key(pi)
            classes.append("selected" if marble_key(pi) == marble_sel else "target")
            attrs = f' data-select="{esc(token)}"'
        tag = "button" if attrs else "div"
        kind = ' type="button"' if attrs else ""
        inner = marble(pi) if pi is not None else f'<span class="cbl-num">{esc(number)}</span>'
        return f'<{tag}{kind} class="{" ".join(c for c in classes if c)}" title="{esc(title)}"{attrs}>{inner}</{tag}>'

    homes: list[int] = view["homes"]
    entries: list[int] = view["entries"]
    entry_of = {e: q for q, e in enumerate(entries)}

    # -- the strips ------------------------------------------------------------------------
    strips = []
    for p in range(players):
        parts = []
        for offset in range(SECTOR):
            space = SECTOR * p + offset
            if offset < COLUMN:
                col, row = 1, COLUMN - offset
            else:
                col, row = 3, offset - COLUMN + 1
            extra = f"cbl-c{col} cbl-r{row}"
            title = f"space {space}"
            if space in homes:
                extra += f" cbl-home seat-{homes.index(space)}"
                title += f", {{{homes.index(space)}:poss}} home"
            if space in entry_of:
                q = entry_of[space]
                extra += f" cbl-entry seat-{q}"
                title += f", {{{q}:poss}} goal entry"
            parts.append(cell(f"t{space}", str(space), extra, say(title, names, view.get("you"))))
        for slot in range(4):
            title = say(f"{{{p}:poss}} goal slot {slot}", names, view.get("you"))
            parts.append(cell(f"{p}:g{slot}", f"F{slot}", f"cbl-goal seat-{p} cbl-c2 cbl-r{8 - slot}", title))
        parts.append(lot_html(view, p, names, lot_actions.get(p), marble))
        head = strip_head(view, p, names)
        strips.append(
            f'<section class="cbl-strip seat-{p}{" cbl-turn" if p == view.get("current_player") else ""}"'
            f' aria-label="{esc(names[p])}">{head}<div class="cbl-grid">{"".join(parts)}</div>'
            f"{open_hand(view, p)}</section>"
        )

    board = f'<div class="cbl-board zoomable">{"".join(strips)}</div>'
    return (
        '<div class="cbl-table">'
        + info_html(view, names)
        + hand_html(view, moves, card_sel, burning)
        + choices_html(view, card_sel, marble_sel, piece_actions, loose, seven, prefix)
        + board
        + "</div>"
    )


def marble_place(view: dict[str, Any], pi: list[int]) -> str:
    loc: str = view["marbles"][pi[0]][pi[1]]
    return f"{pi[0]}:{loc}" if loc.startswith("g") else loc


def lot_html(view: dict[str, Any], p: int, names: list[str], action: str | None, marble: Any) -> str:
    inside = [marble([p, i]) for i, loc in enumerate(view["marbles"][p]) if loc == "lot"]
    body = "".join(inside) or '<span class="cbl-num">lot</span>'
    title = say(f"{{{p}:poss}} lot ({len(inside)})", names, view.get("you"))
    if action is not None:
        words = choice_words(view, view["moves"][action])
        return (
            f'<button type="button" class="cbl-lot cbl-c2 target" data-action="{esc(action)}"'
            f' title="{esc(title)}: {esc(words)}">{body}</button>'
        )
    return f'<div class="cbl-lot cbl-c2" title="{esc(title)}">{body}</div>'


def strip_head(view: dict[str, Any], p: int, names: list[str]) -> str:
    """Name, dealer / starter / finished marks, partner and hand size, in two fixed lines."""
    marks = []
    if p == view.get("dealer"):
        marks.append('<span class="cbl-mark" title="dealer">D</span>')
    if p == view.get("starter"):
        marks.append('<span class="cbl-mark" title="started this hand">S</span>')
    if p in view.get("finished", []):
        marks.append('<span class="cbl-mark" title="all marbles in the goal">✓</span>')
    for team in view.get("teams") or []:
        if p in team:
            other = team[1] if team[0] == p else team[0]
            title = f"partner: {esc(names[other])}"
            marks.append(f'<span class="cbl-mate seat-{other}" title="{title}">⚭{other + 1}</span>')
    count = view["hand_counts"][p]
    marks.append(card_back(count, f"{count} cards in hand"))
    return (
        f'<header class="cbl-head"><div class="cbl-line"><span class="cbl-badge seat-{p}">{p + 1}</span>'
        f'<span class="cbl-name" title="{esc(names[p])}">{esc(names[p])}</span></div>'
        f'<div class="cbl-line">{"".join(marks)}</div></header>'
    )


def open_hand(view: dict[str, Any], p: int) -> str:
    """With open hands, a player's cards under their strip (the viewer's own hand is shown above the board)."""
    hands = view.get("hands")
    if hands is None or p == view.get("seat"):
        return ""
    return f'<div class="cbl-cards">{"".join(card(c) for c in hands[p])}</div>'


def info_html(view: dict[str, Any], names: list[str]) -> str:
    bits = [
        f"Deck: {view['draw_count']} cards",
        f"deck {view['decks_opened']} of at most {view['deck_cap']}",
        f"hand {view['hand_number']}",
        f"dealer {names[view['dealer']]}",
        f"turns {view['turn_count']}",
    ]
    if view.get("discard_top"):
        bits.append(f"last card {view['discard_top']}")
    text = " · ".join(esc(b) for b in bits)
    seven = view.get("seven")
    extra = ""
    if seven:
        moved = ", ".join(marble_words(view, pi) for pi in seven["moved"]) or "none yet"
        splitting = f"{{{seven['player']}}} {{{seven['player']}:is}} splitting a 7"
        extra = (
            f'<p class="cbl-seven" role="status">{esc(say(splitting, names, view.get("you")))}: '
            f"<b>{seven['left']}</b> step(s) left (moved: {esc(moved)})</p>"
        )
    if view.get("capped"):
        extra += '<p class="cbl-seven">The deck limit was reached: the most marbles in goal won.</p>'
    return f'<div class="cbl-info"><p class="hint">{text}</p>{extra}</div>'


def hand_html(view: dict[str, Any], moves: dict[str, dict[str, Any]], card_sel: str | None, burning: bool) -> str:
    hand = view.get("hand")
    if hand is None:
        return ""
    playable = {m["card"] for m in moves.values() if m["kind"] != "burn"}
    burns = {m["card"]: t for t, m in moves.items() if m["kind"] == "burn"}
    cards = []
    for text in hand:
        rank = rank_of(text)
        if burning and text in burns:
            cards.append(card(text, action=burns[text], title=f"burn {text}"))
        elif rank in playable and not view.get("seven"):
            cards.append(card(text, select=f"card:{rank}", selected=rank == card_sel))
        else:
            cards.append(card(text))
    note = ""
    if burning:
        note = '<p class="cbl-note">No card can move a marble: pick a card to burn.</p>'
    elif moves and not view.get("seven") and card_sel is None:
        note = '<p class="hint">Pick a card, then a marble, then where it goes.</p>'
    return f'<div class="cbl-hand-area"><div class="hand">{"".join(cards) or "no cards"}</div>{note}</div>'


def choices_html(
    view: dict[str, Any],
    card_sel: str | None,
    marble_sel: str | None,
    piece_actions: dict[str, list[str]],
    loose: list[str],
    seven: Any,
    prefix: str,
) -> str:
    if card_sel is None:
        return ""
    moves: dict[str, dict[str, Any]] = view["moves"]
    rows = []
    if loose:
        rows.append("".join(button(choice_words(view, moves[t]), action=t) for t in loose))
    pieces = []
    for key in piece_actions:
        pi = [int(x) for x in key.split(".")]
        extra = "cbl-pick selected" if key == marble_sel else "cbl-pick"
        pieces.append(button(marble_words(view, pi), select=prefix + "m:" + key, extra=extra))
    if pieces:
        rows.append('<span class="hint">Marble:</span>' + "".join(pieces))
    if marble_sel is not None:
        choices = "".join(button(choice_words(view, moves[t]), action=t) for t in piece_actions[marble_sel])
        rows.append('<span class="hint">Move:</span>' + choices)
    lead = "7 steps: choose a marble and how far" if seven else f"Playing {card_sel}"
    body = "".join(f'<div class="cbl-row">{r}</div>' for r in rows)
    return f'<div class="cbl-choices"><p class="hint">{esc(lead)}</p>{body}</div>'
