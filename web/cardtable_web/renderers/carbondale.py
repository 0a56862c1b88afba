"""Carbondale's table: every network as a grid, the piles and stock, the viewer's hand.

Clicks: a card in hand selects it (the selection ``("hand", "5♣")``); its legal build cells then light up and
the discard buttons appear. A vulnerable card in a rival network selects a claim target
(``("claim", 1, -2, 1)``: its owner and cell); the hand cards that can challenge it then carry the claim. Contributions,
defences, draws and stock cards act directly.
"""

from __future__ import annotations

from typing import Any

from cardtable_web import html
from cardtable_web.selection import Selection
from pyengine.games.carbondale import words as game_words
from pyengine.words import say

ARROWS = {"north": "↑", "east": "→", "south": "↓", "west": "←"}
"""The way a card was built, as seen from its source."""
SOURCE_STEPS = (("north", 0, -1), ("east", -1, 0), ("south", 0, 1), ("west", 1, 0))
"""A cell is ``direction`` of its source at this offset from it (what a click on an open cell tries)."""


class _Moves:
    """The legal moves (``view["moves"]``: text -> facts) sorted by what the table needs to draw them."""

    def __init__(self, moves: dict[str, dict[str, Any]]) -> None:
        self.builds: dict[str, dict[tuple[int, int], list[tuple[str, str, str]]]] = {}
        self.claims: dict[Selection, dict[str, str]] = {}
        self.claimed: dict[Selection, dict[str, Any]] = {}
        """Each claim target's token -> the facts of a claim on it (what a click with another card tries)."""
        self.discards: dict[str, list[tuple[str, bool]]] = {}
        self.contributes: dict[str, str] = {}
        self.defends: dict[str, str] = {}
        self.takes: dict[str, str] = {}
        self.draw: str | None = None
        self.decline: str | None = None
        self.end: str | None = None
        for text, facts in moves.items():
            kind = facts["kind"]
            if kind == "build":
                cells = self.builds.setdefault(facts["card"], {})
                cells.setdefault((facts["x"], facts["y"]), []).append((text, facts["direction"], facts["source"]))
            elif kind == "claim":
                token = _claim_token(facts["owner"], facts["x"], facts["y"])
                self.claims.setdefault(token, {})[facts["challenge"]] = text
                self.claimed[token] = facts
            elif kind == "discard":
                self.discards.setdefault(facts["card"], []).append((text, bool(facts["face_up"])))
            elif kind == "contribute":
                self.contributes[facts["card"]] = text
            elif kind == "defend":
                self.defends[facts["card"]] = text
            elif kind == "take":
                self.takes[facts["card"]] = text
            elif kind == "draw":
                self.draw = text
            elif kind == "decline":
                self.decline = text
            elif kind == "end":
                self.end = text

    def any(self) -> bool:
        return bool(self.builds or self.claims or self.discards or self.contributes or self.defends or self.takes
                    or self.draw or self.decline or self.end)

    def selectable(self, card: str) -> bool:
        return card in self.builds or card in self.discards


def _claim_token(owner: int, x: int, y: int) -> Selection:
    """The selection of a claimable card: its owner's seat and its cell."""
    return ("claim", owner, x, y)


def _chosen(moves: _Moves, selection: Selection | None) -> tuple[str | None, Selection | None]:
    """(the chosen hand card, the chosen claim target) of a selection, each None unless the table offers it."""
    if selection is None:
        return None, None
    if len(selection) == 2 and selection[0] == "hand" and isinstance(selection[1], str):
        return (selection[1], None) if moves.selectable(selection[1]) else (None, None)
    return (None, selection) if selection in moves.claims else (None, None)


def selection_for(view: dict[str, Any], action: str, selection: Selection | None) -> Selection | None:
    """The next selection toward ``action`` (the table showing ``selection``): a build's or a discard's hand card
    (once a claim that card would challenge is unchosen), a claim's target; None when the action is shown (every
    other move is shown whatever is selected)."""
    facts = view["moves"][action]
    moves = _Moves(view["moves"])
    hand_card, claim = _chosen(moves, selection)
    if facts["kind"] in ("build", "discard"):
        if hand_card == facts["card"]:
            return None
        if claim is not None and facts["card"] in moves.claims[claim]:
            return claim  # the card challenges the chosen claim: unchoose the claim first
        return ("hand", facts["card"])
    if facts["kind"] == "claim":
        target = _claim_token(facts["owner"], facts["x"], facts["y"])
        return None if claim == target else target
    return None


def selection_words(view: dict[str, Any], selection: Selection) -> str:
    """The selection's card in words: "the 5♣ in your hand", or the claim target "the 4♡ in Ann's network"."""
    if selection[0] == "hand":
        return f"the {selection[1]} in your hand"
    _, owner, x, y = selection
    cards = [e for c in view["networks"][owner]["cells"] if (c["x"], c["y"]) == (x, y) for e in c["cards"]]
    card = next((f"the {e['card']}" for e in cards if e["vulnerable"]), "the card")
    return f"{card} in {view['names'][owner]}'s network"


def move_words(view: dict[str, Any], action: str) -> str:
    """The legal move ``action`` said to the player who decides, seats as placeholders: "build the 5♣ north of
    your 4♣"."""
    return game_words.move_words(view["moves"][action])


def _say(view: dict[str, Any], text: str) -> str:
    """``text`` with its seat placeholders resolved for this table, escaped.

    The status speaks to the person at the screen: the seat on show when no single human is "you" (hot seat).
    """
    you = view.get("you")
    return html.esc(say(text, view["names"], view.get("seat") if you is None else you))


LEGEND = html.legend([
    ('<span class="cb-penny">¢</span>', "a starting card (each player begins with two, side by side)"),
    ('<span class="cb-vmark">!</span>',
     "vulnerable: a rival may try to claim this card (its outline is dashed, in red)"),
    ('<span class="card black cb-claimable"><span class="rank">3</span><span class="suit">♣</span></span>',
     "a rival's card you can claim now (ringed): choose it, then a challenge card from your hand"),
    ('<span class="card red cb-buildable"><span class="rank">4</span><span class="suit">♢</span></span>',
     "a card in your hand you can build now (lit); the others can only be discarded"),
    ('<span class="cb-progress"><span class="cb-heart">♡ 4</span> <span class="cb-diamond">♢ 2</span> 6/10</span>',
     "hearts and diamonds in a network, and its progress toward 7 of one red suit and 3 of the other"),
    (html.card_back(4), "cards in a player's hand, or in a pile"),
    ('<span class="cb-tag">new</span>', "put in the communal stock this turn: nobody may take it yet"),
    ('<span class="last-label seat-1">last move</span>', "a player's latest move, outlined in their colour"),
])
"""What the table's symbols mean (the page shows it under the table: see ``drawing.legend_html``)."""


def render(view: dict[str, Any], selection: Selection | None) -> str:
    """The Carbondale table for ``view["seat"]`` (see the module docstring for the clicks)."""
    moves = _Moves(view["moves"])
    seat = view.get("seat")
    players = len(view["networks"])
    hand_card, claim = _chosen(moves, selection)

    # the phase as a class: a phone shows the piles and the stock after the networks while they are not drawn from;
    # End turn beside a hand of up to four cards: a phone keeps it there (a longer hand leaves it no room)
    # and whether the pile or the stock may be drawn from now (a turn that may still build may draw instead)
    beside = moves.end is not None and len(view.get("hand") or []) <= 4
    drawing = moves.draw is not None or bool(moves.takes)
    table = html.classes("cb-table", f"cb-phase-{html.esc(view['phase'])}", "cb-end-beside" if beside else None,
                         "cb-can-draw" if drawing else None)
    hint = _hint(moves, hand_card, claim)
    parts = [f'<div class="{table}">', _status(view, seat, hint)]
    parts.append(_centre(view, moves))
    parts.append(_buttons(moves, hand_card))
    # your hand, then your own network and the others' in turn order: what a turn needs comes first
    if isinstance(seat, int) and view.get("hand") is not None:
        parts.append(_hand(view, moves, hand_card, claim))
    first = seat if isinstance(seat, int) else 0
    order = [(first + step) % players for step in range(players)]
    marks = _marks(view)
    parts.append('<div class="cb-seats">')
    for owner in order:
        parts.append(_seat(view, owner, moves, hand_card, claim, marks))
    parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


# -- pieces -------------------------------------------------------------------------------


def _marks(view: dict[str, Any]) -> dict[tuple[Any, ...], int]:
    """What each seat's latest turn (``view["recent"]``) put on the table: a built card by its owner and cell
    (``(owner, x, y, card)``), a card put into the stock (``("stock", card)``), cards put on the face-down pile
    (``("face down",)``: a face-down discard, or a defence, after which both cards go there); -> the seat."""
    marks: dict[tuple[Any, ...], int] = {}
    for who, turn in (view.get("recent") or {}).items():
        for facts in turn:
            kind = facts.get("kind")
            if kind == "build":
                marks[(who, facts["x"], facts["y"], facts["card"])] = who
            elif kind == "contribute" or kind == "discard" and facts.get("face_up"):
                marks[("stock", facts["card"])] = who
            elif kind == "discard" or kind == "defend":  # a face-down discard, or a defence: both cards face down
                marks[("face down",)] = who
    return marks


def _marked(view: dict[str, Any], face: str, who: int | None) -> str:
    """``face`` outlined as a seat's latest move, with its label (or as it is)."""
    if who is None:
        return face
    words = html.esc(html.last_move_words(view, who))
    return f'<span class="last-move seat-{who}" title="{words}">{face}{html.last_label(view, who)}</span>'


def _hint(moves: _Moves, hand_card: str | None, claim: Selection | None) -> str | None:
    """What to tap next once a hand card or a claim target is chosen (None: nothing chosen that needs one)."""
    if claim is not None and moves.claims.get(claim):
        return "Pick a challenge card from your hand (outlined: same colour, two ranks higher)."
    if hand_card is not None and moves.builds.get(hand_card):
        return "Pick a highlighted cell in your network (arrows point away from the source)."
    return None


def _status(view: dict[str, Any], seat: int | None, hint: str | None = None) -> str:
    """What is going on: whose turn, the phase, a pending challenge, the end. ``hint``: what to tap next, said in
    place of the turn's line (one message at a time, in the same place: nothing under it moves)."""
    current = view["current_player"]
    phase = view["phase"]
    pending = view.get("pending")
    lines = []
    if pending:
        challenger, owner = pending["challenger"], pending["owner"]
        answer = (
            "Defend with a card of the same colour and at least its rank, or decline."
            if seat == owner
            else f"{{{owner}}} {{{owner}:answers}}."
        )
        text = (
            f"{{{challenger}}} {{{challenger}:challenges}} for @target@ in "
            f"{{{owner}:poss}} network with @challenge@. {answer}"
        )
        lines.append(
            _say(view, text)
            .replace("@target@", html.card(pending["target"]))
            .replace("@challenge@", html.card(pending["challenge"], extra="cb-challenge"))
        )
    elif phase == "over":
        ending = {
            "goal": "reached 7 of one red suit and 3 of the other",
            "stalemate": "three rounds passed without a build: best progress wins",
            "limit": "the round limit was reached: best progress wins",
        }.get(view.get("ending", ""), "the game is over")
        lines.append(f"Game over: {html.esc(ending)}.")
    else:
        draws = f"{{{current}:draws}}"
        doing = {
            "act": f"may claim, then build or discard, then {draws} up to {view['draw_to']} cards",
            "contribute": f"must contribute a card to the communal stock, then {draws}",
            "discard": f"may discard more cards, then {draws} up to {view['draw_to']} cards",
            "draw": f"{draws} up to {view['draw_to']} cards from the pile or the stock",
        }.get(phase, "")
        lines.append(html.esc(hint) if hint else _say(view, f"{{{current}}} {doing}."))
        if phase == "act" and view.get("claims_made"):
            lines.append(f"Claim attempts this turn: {view['claims_made']} of 2.")
        if view.get("draw_to", 4) > 4:
            lines.append("Bonus: one extra card at this draw.")
    if not view.get("spares") and phase != "over":
        lines.append(
            f"Both spare piles are used: {view['idle_turns']} of {view['stalemate_turns']} turns without a build "
            "end the game."
        )
    return '<div class="cb-status">' + "".join(f"<p>{line}</p>" for line in lines) + "</div>"


def _centre(view: dict[str, Any], moves: _Moves) -> str:
    """The draw pile, spare piles, face-down discards and the communal stock."""
    marks = _marks(view)
    parts = ['<div class="cb-centre">', '<div class="cb-piles">']
    count = view["draw_count"]
    pile_label = f"draw pile: {count} cards"
    if moves.draw is not None:
        note = f"Draw ({count})" if count else "Re-form the pile and draw"
        button = html.button(note, action=moves.draw, extra="cb-draw target", title=pile_label)
        parts.append(f'<div class="cb-pile">{button}<span>draw pile</span></div>')
    else:
        parts.append(f'<div class="cb-pile">{html.card_back(count, pile_label)}<span>draw pile</span></div>')
    spare_names = ("5-7", "8-10")
    spares = view.get("spares", [])
    used = 2 - len(spares)
    for index, cards in enumerate(spares):
        label = f"spare pile {spare_names[used + index]}: {cards} cards"
        parts.append(
            f'<div class="cb-pile">{html.card_back(cards, label)}<span>spare {spare_names[used + index]}</span></div>'
        )
    face_down = view["discard_count"]
    discards = _marked(view, html.card_back(face_down, f"face-down discards: {face_down}"), marks.get(("face down",)))
    parts.append(f'<div class="cb-pile">{discards}<span>face down</span></div>')
    parts.append("</div>")
    parts.append('<div class="cb-stock"><span class="cb-label">Communal stock</span><div class="cb-cards">')
    if not view["stock"]:
        parts.append('<span class="cb-empty-note">empty</span>')
    for entry in view["stock"]:
        card = entry["card"]
        if entry["fresh"]:
            parts.append(
                '<span class="cb-fresh">'
                + html.card(card, title=f"{card} (put down this turn: not drawable now)")
                + '<span class="cb-tag">new</span></span>'
            )
        elif card in moves.takes:
            parts.append(html.card(card, action=moves.takes[card], extra="target", title=f"take {card}"))
        else:
            parts.append(_marked(view, html.card(card), marks.get(("stock", card))))
    parts.append("</div></div></div>")
    return "".join(parts)


def _buttons(moves: _Moves, hand_card: str | None) -> str:
    """The discard buttons of the selected hand card and decline (together, so that a phone can keep End turn in
    its place beside the hand while they come and go), then End turn."""
    choices = []
    if hand_card is not None:
        for text, face_up in moves.discards.get(hand_card, []):
            face = "face up" if face_up else "face down"
            where = "to the communal stock" if face_up else "to the face-down pile"
            choices.append(html.button(f"Discard {hand_card} {face}", action=text,
                                       title=f"Discard {hand_card} {face}, {where}"))
    if moves.decline is not None:
        choices.append(html.button("Decline (let the card go)", action=moves.decline))
    end = html.button("End turn", action=moves.end, extra="primary") if moves.end is not None else ""
    if not choices and not end:
        return ""
    group = f'<div class="cb-choices">{"".join(choices)}</div>' if choices else ""
    return f'<div class="cb-buttons">{group}{end}</div>'


def _progress(net: dict[str, Any]) -> str:
    hearts, diamonds = net["hearts"], net["diamonds"]
    progress = net["progress"]
    return (
        f'<span class="cb-progress" title="♡ {hearts}, ♢ {diamonds}: progress {progress} of 10 toward the goal, '
        f'7 of one red suit and 3 of the other">'
        f'<span class="cb-heart">♡ {hearts}</span> <span class="cb-diamond">♢ {diamonds}</span>'
        f'<span class="cb-meter" aria-hidden="true"><span style="width:{progress * 10}%"></span></span>'
        f" {progress}/10</span>"
    )


def _seat(
    view: dict[str, Any],
    owner: int,
    moves: _Moves,
    hand_card: str | None,
    claim: Selection | None,
    marks: dict[tuple[Any, ...], int],
) -> str:
    """One player's area: name, hand size, progress and network."""
    net = view["networks"][owner]
    seat = view.get("seat")
    deciding = view["current_player"]  # a challenged owner answers during another's turn
    classes = html.classes("cb-seat", f"seat-{owner}", "cb-turn" if owner == deciding else None)
    name = view["names"][owner]
    you = " (you)" if owner == seat and name != "You" else ""
    head = (
        f'<div class="cb-head"><span class="seat-name">{html.esc(name)}{you}</span>'
        f'{_progress(net)}<span class="cb-handcount">{html.card_back(view["hand_counts"][owner], "cards in hand")}'
        f" in hand</span></div>"
    )
    builds = moves.builds.get(hand_card, {}) if hand_card is not None and owner == seat else {}
    built = [str(key[3]) for key, by in marks.items() if len(key) == 4 and key[0] == owner]
    if built:  # in the seat's own box, under its name: "Last move" says whose
        words = "Your last move" if owner == view.get("you") else "Last move"
        head += f'<p class="cb-recent">{words}: built {html.esc(", ".join(built))} (outlined)</p>'
    trying = hand_card if hand_card is not None and owner == seat else None
    return f'<section class="{classes}">{head}{_grid(view, owner, builds, moves, claim, marks, trying)}</section>'


def _grid(
    view: dict[str, Any],
    owner: int,
    builds: dict[tuple[int, int], list[tuple[str, str, str]]],
    moves: _Moves,
    claim: Selection | None,
    marks: dict[tuple[Any, ...], int],
    trying: str | None,
) -> str:
    """The network as a grid (:func:`_bounds`).

    ``trying``: the chosen hand card, when a click on an open cell where it cannot go asks why."""
    net = view["networks"][owner]
    low_x, high_x, low_y, high_y = _bounds(view, owner)
    cells = {(c["x"], c["y"]): c["cards"] for c in net["cells"]}
    pending = view.get("pending")
    columns = high_x - low_x + 1
    rows = [
        f'<div class="cb-grid cb-cols-{columns}" role="group" aria-label="network of {html.esc(view["names"][owner])}">'
    ]
    for y in range(high_y, low_y - 1, -1):
        for x in range(low_x, high_x + 1):
            cards = cells.get((x, y), [])
            options = builds.get((x, y), [])
            inner = []
            for entry in cards:
                mark = _mark_of(view, marks.get((owner, x, y, entry["card"])))
                inner.append(_placed(entry, owner, x, y, len(cards) == 2, moves, claim, pending, mark,
                                     _source(entry, cells)))
            if options:
                inner.append('<span class="cb-builds">')
                for text, direction, source in options:
                    inner.append(
                        html.button(
                            f"{ARROWS[direction]}{source}",
                            action=text,
                            extra="cb-build target",
                            title=f"build here, {direction} of {source}",
                        )
                    )
                inner.append("</span>")
            leans_south = any(entry["dir"] == "north" for entry in cards)  # its build buttons go on top
            cls = html.classes(
                "cb-cell",
                "cb-open" if not cards else None,
                "cb-can" if options else None,
                "cb-builds-top" if options and leans_south else None,
            )
            attempt = _build_attempt(trying, x, y, cells) if trying and not cards and not options else None
            if attempt:
                rows.append(f'<button type="button" class="{cls} tryable" title="build {html.esc(trying)} here?"'
                            f"{html.tried(attempt)}></button>")
            else:
                rows.append(f'<div class="{cls}">{"".join(inner)}</div>')
    rows.append("</div>")
    return "".join(rows)


def _bounds(view: dict[str, Any], owner: int) -> tuple[int, int, int, int]:
    """The cells a network is drawn over (low x, high x, low y, high y). The network its viewer builds in (their
    own; every one when no seat looks on) has one ring of room around it where the zone (5 x 5) allows, for its
    builds; the others are drawn tight around their cards, so that they take less of the screen."""
    net, zone = view["networks"][owner], view["zone"]
    ring = 1 if view.get("seat") in (owner, None) else 0
    return (max(net["min_x"] - ring, net["max_x"] - zone + 1), min(net["max_x"] + ring, net["min_x"] + zone - 1),
            max(net["min_y"] - ring, net["max_y"] - zone + 1), min(net["max_y"] + ring, net["min_y"] + zone - 1))


def _mark_of(view: dict[str, Any], who: int | None) -> tuple[int, str] | None:
    """The seat whose latest turn built a card, and those words (None: nobody's latest turn)."""
    return (who, html.last_move_words(view, who)) if who is not None else None


def _source(entry: dict[str, Any], cells: dict[tuple[int, int], list[Any]]) -> str:
    """The card a placed card was built from ("" for a starting card)."""
    return str(cells.get(tuple(entry["from"]), [{}])[-1].get("card", "")) if entry["dir"] else ""


def _placed(
    entry: dict[str, Any],
    owner: int,
    x: int,
    y: int,
    pair: bool,
    moves: _Moves,
    claim: Selection | None,
    pending: dict[str, Any] | None,
    mark: tuple[int, str] | None = None,
    source: str = "",
) -> str:
    """A card in a network: red cards lean toward their source, marks for start and vulnerable; ``mark``: the
    seat whose latest turn built it and those words (the slot is outlined; the seat's head says it in words);
    ``source``: the card it was built from, named in its tooltip."""
    card = entry["card"]
    token = _claim_token(owner, x, y)
    notes = []
    if entry["start"]:
        notes.append("starting card")
    if entry["dir"]:
        notes.append(f"built {entry['dir']} of the {source}" if source else f"built {entry['dir']}")
    if entry["vulnerable"]:
        notes.append("vulnerable")
    if mark:
        notes.append(mark[1])
    title = f"{card}: {', '.join(notes)}" if notes else card
    is_pending = pending is not None and pending["owner"] == owner and (pending["x"], pending["y"]) == (x, y)
    if token in moves.claims:
        face = html.card(card, select=token, selected=claim == token, extra="cb-claimable", title=f"{title}. Claim it")
    else:
        face = html.card(card, title=title, extra="cb-claimed" if is_pending else "")
    is_red = card[-1] in "♡♢"
    classes = html.classes(
        "cb-slot",
        "cb-red" if is_red else "cb-black",
        f"cb-from-{_opposite(entry['dir'])}" if is_red and entry["dir"] else None,
        "cb-sideways" if is_red and entry["dir"] in ("east", "west") else None,
        "cb-pair" if pair else None,
        "cb-vuln" if entry["vulnerable"] else None,
        f"last-move seat-{mark[0]}" if mark else None,
    )
    marks = ""
    if entry["start"]:
        marks += '<span class="cb-penny" title="starting card">¢</span>'
    if entry["vulnerable"]:
        marks += '<span class="cb-vmark" title="vulnerable">!</span>'
    return f'<span class="{classes}">{face}{marks}</span>'


def _build_attempt(card: str, x: int, y: int, cells: dict[tuple[int, int], list[Any]]) -> dict[str, Any] | None:
    """The build of ``card`` on the open cell x,y from a neighbouring card (None: no neighbour to build from)."""
    for direction, dx, dy in SOURCE_STEPS:
        near = cells.get((x + dx, y + dy))
        if near:
            return {"kind": "build", "card": card, "x": x, "y": y, "direction": direction,
                    "source": near[-1]["card"]}
    return None


def _opposite(direction: str) -> str:
    return {"north": "south", "south": "north", "east": "west", "west": "east"}[direction]


def _hand(view: dict[str, Any], moves: _Moves, hand_card: str | None, claim: Selection | None) -> str:
    """The viewer's hand: each card selects, challenges, contributes or defends as the moment allows. Two decks
    can deal two copies of one card: choosing either chooses that card, and the first copy shows the choice."""
    challenges = moves.claims.get(claim, {}) if claim else {}
    shows_chosen = html.chosen_once(hand_card)
    parts = ['<div class="cb-hand-area"><span class="cb-label" aria-hidden="true">Your hand</span>'
             '<div class="hand cb-hand" role="group" aria-label="Your hand">']
    for card in view["hand"]:
        if card in challenges:
            parts.append(html.card(card, action=challenges[card], extra="target", title=f"challenge with {card}"))
        elif card in moves.defends:
            parts.append(html.card(card, action=moves.defends[card], extra="target", title=f"defend with {card}"))
        elif card in moves.contributes:
            parts.append(
                html.card(card, action=moves.contributes[card], extra="target", title=f"contribute {card} to the stock")
            )
        elif moves.selectable(card):
            parts.append(html.card(card, select=("hand", card), selected=shows_chosen(card),
                                   extra=_lit(card, moves, claim), title=_hand_title(card, moves, claim)))
        elif claim:
            attempt = dict(moves.claimed[claim], challenge=card)
            parts.append(html.card(card, attempt=attempt, title=f"challenge with {card}?"))
        elif moves.any():
            parts.append(html.card(card, attempt={"kind": "discard", "card": card, "face_up": True}))
        else:
            parts.append(html.card(card))
    parts.append("</div></div>")
    return "".join(parts)


def _lit(card: str, moves: _Moves, claim: Selection | None) -> str:
    """How a selectable hand card looks: lit when it can be built now, dimmed while a claim is chosen that it
    cannot challenge (it still selects, for a build or a discard); plain when it can only be discarded."""
    if claim is not None:
        return "cb-dim"
    return "cb-buildable" if card in moves.builds else ""


def _hand_title(card: str, moves: _Moves, claim: Selection | None) -> str:
    """A selectable hand card's tooltip: what choosing it leads to."""
    if claim is not None:
        return f"{card}: not a challenge for this claim (choose it to build or discard)"
    return f"{card}: build or discard" if card in moves.builds else f"{card}: discard (no cell to build it on now)"
