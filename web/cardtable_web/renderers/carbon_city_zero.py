"""Carbon City Zero table: carbon tracker and round counter, Global area, marketplace, the turn
in play (specials and links), and every deck's piles.

Clicks: a card in play with one thing to do is a button (its special or its link); with both, it
shows two buttons; a special that needs a choice is a selection (``("special", k)``, k its place in play
from 0) whose targets (cards in
play, marketplace cards, or a picker of deck cards / Global cards) carry the move. Affordable
marketplace cards buy; one button ends the turn. Moves are found by their facts in ``view["moves"]``
(kind, card name, place in play, target), never by their texts.
"""

from __future__ import annotations

from typing import Any

from pyengine.games.carbon_city_zero import words as game_words

from .. import html
from ..selection import Selection

SECTOR_LABEL = {
    "start": "Start",
    "domestic": "Domestic",
    "government": "Government",
    "industry": "Industry",
    "snag": "Snag",
    "global": "Global",
    "rivalry-global": "Global (rivalry)",
}
SPECIAL_TEXT = {
    "discard-in-play": "Discard one of your cards in play",
    "discard-market": "Discard a marketplace card",
    "topdeck-next": "Your next purchase goes on top of your deck",
    "factories-zero": "Factories with carbon count 0 this turn",
    "search-deck": "Put any card of your deck into play",
    "search-global": "Reveal a Global card from the market deck",
}
CHOICE_PROMPT = {
    "discard-in-play": "click one of your cards in play to discard it",
    "discard-market": "click a marketplace card to discard it",
    "search-deck": "click the card of your deck to put into play",
    "search-global": "click the Global card to reveal",
}
EFFECT_TEXT = {
    "no-links": "No links this turn",
    "draw-4": "Draw one card fewer at the end of this turn",
    "draw-6": "Every player draws 6 cards",
    "market-6": "The marketplace holds 6 cards",
    "funding-gift": "Unspent income: give a Budget in play to another player's hand",
    "cost-1": "All costs -1 (minimum 1)",
}


SPECIAL_SHORT = {
    "discard-in-play": "discard one in play",
    "discard-market": "discard a market card",
    "topdeck-next": "next buy on top",
    "factories-zero": "factories 0 CO₂",
    "search-deck": "pick one from deck",
    "search-global": "reveal a Global",
}
"""A special rule in a few words, for a card's face on a phone (the whole rule is read out and long-pressed)."""
EFFECT_SHORT = {
    "no-links": "No links",
    "draw-4": "Draw 1 fewer",
    "draw-6": "All draw 6",
    "market-6": "Market of 6",
    "funding-gift": "Gift a Budget",
    "cost-1": "Costs −1",
}
"""A Global card's effect in a few words."""


def short_words(info: dict[str, Any]) -> str:
    """What a card does, in a few words for its face on a phone: "★ draw 2 · Link −1 CO₂"."""
    parts = []
    special = info.get("special")
    if special:
        parts.append("★ " + (special if special.startswith("draw ") else SPECIAL_SHORT.get(special, special)))
    link = info.get("link")
    if link:
        change = "factories 0" if link == "factories-zero" else f"{int(link.split()[0]):+d}".replace("-", "−")
        parts.append(f"Link {change} CO₂")
    if info.get("effect"):
        parts.append(EFFECT_SHORT.get(info["effect"], info["effect"]))
    return " · ".join(parts)


def _special_text(special: str) -> str:
    if special.startswith("draw "):
        n = special.split()[1]
        return f"Draw {n}: put {n} card{'s' if n != '1' else ''} from your deck into play"
    return SPECIAL_TEXT.get(special, special)


def _link_text(link: str) -> str:
    if link == "factories-zero":
        return "Factories with carbon count 0 this turn"
    change = int(link.split()[0])
    return f"{abs(change)} carbon {'less' if change < 0 else 'more'} this turn"


def _seat_name(view: dict[str, Any], deck: int) -> str:
    """A deck's name: "Deck N" in solo (one player, two decks), else its owner's name."""
    if view.get("solo"):
        return f"Deck {deck + 1}"
    return str(view["names"][deck])


CHOICE_KINDS = ("discard-in-play", "discard-market", "search-deck", "search-global")
"""The move kinds of a special rule that names a target (chosen after selecting its card)."""


class Moves:
    """The legal moves of the view, found by their facts (never by their texts)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.buys: dict[str, str] = {}
        self.end: str | None = None
        self.gifts: list[tuple[int, str]] = []
        self.direct: dict[tuple[int, str], str] = {}
        """(place in play, "special" / "link") -> the move using that ability (every identical card offers it)."""
        self.choosers: dict[int, int] = {}
        """place in play -> the place whose special needs a choice (identical cards are one choice)."""
        self.choices: dict[int, list[tuple[dict[str, Any], str]]] = {}
        """The place of a special that needs a choice -> its (facts, move) targets."""
        for text, facts in view["moves"].items():
            kind = facts["kind"]
            if kind == "buy":
                self.buys[facts["name"]] = text
            elif kind == "end-turn":
                self.end = text
            elif kind in ("gift", "gift-deck"):
                self.gifts.append((facts["gift"], text))
            elif kind in ("special", "link"):
                for k in facts["in_play"]:
                    self.direct[(k, kind)] = text
            elif kind in CHOICE_KINDS:
                for k in facts["in_play"]:
                    self.choosers[k] = facts["index"]
                self.choices.setdefault(facts["index"], []).append((facts, text))


def card_box(
    view: dict[str, Any],
    name: str,
    *,
    cost: int | None = None,
    action: str | None = None,
    select: Selection | None = None,
    extra: str = "",
    status: str = "",
    selected: bool = False,
    attempt: dict[str, Any] | None = None,
    copies: int = 1,
) -> str:
    """A readable card: cost, name, sector, special rule, link, income and carbon.

    ``attempt``: the facts of the move a click tries when the card plays nothing now (the page says why not).
    ``copies``: more than 1, the number of the same card in the same state it stands for at the table (shown
    there beside its name); 0, such a copy (not drawn there)."""
    info = view["cards"].get(name, {})
    sector = info.get("sector", "start")
    price = info.get("cost", 0) if cost is None else cost
    label = SECTOR_LABEL.get(sector, sector)
    rows = [_card_top(name, price, copies), f'<span class="ccz-sector">{html.esc(label)}</span>']
    if info.get("special"):
        rows.append(f'<span class="ccz-rule" title="special rule">★ {html.esc(_special_text(info["special"]))}</span>')
    if info.get("link"):
        rows.append(f'<span class="ccz-link" title="link ability">Link: {html.esc(_link_text(info["link"]))}</span>')
    if info.get("effect"):
        effect = EFFECT_TEXT.get(info["effect"], info["effect"])
        rows.append(f'<span class="ccz-rule ccz-effect">{html.esc(effect)}</span>')
    short = short_words(info)
    if short:  # the compact face's effect in a few words (shown on a phone only; the whole text is read out)
        rows.append(f'<span class="ccz-short" aria-hidden="true">{html.esc(short)}</span>')
    if sector not in ("global", "rivalry-global"):
        income, carbon = info.get("income", 0), info.get("carbon", 0)
        rows.append(
            '<span class="ccz-card-bottom">'
            f'<span class="ccz-income" title="income">{income:+d} ¤</span>'
            f'<span class="ccz-carbon" title="carbon">{carbon:+d} CO₂</span></span>'
        )
    if status:
        rows.append(status)
    clickable = action is not None or select is not None
    trying = attempt is not None and not clickable
    tag = "button" if clickable or trying else "div"
    cls = html.classes(
        "ccz-card", f"ccz-{sector}", "clickable" if clickable else None, "selected" if selected else None,
        "tryable" if trying else None, {0: "ccz-copy", 1: None}.get(copies, "ccz-copies-of"), extra
    )
    attributes = html.attrs(
        class_=cls, type="button" if tag == "button" else None, data_card=name, data_action=action,
        data_select=html.selecting(select), title=f"{name} (cost {price})",
    ) + (html.tried(attempt) if trying else "")
    return f"<{tag}{attributes}>{''.join(rows)}</{tag}>"


def _card_top(name: str, price: int, copies: int) -> str:
    """A card's cost and name, and how many it stands for (``copies`` over 1: see :func:`card_box`)."""
    many = f'<span class="ccz-copies" title="{copies} of this card">×{copies}</span>' if copies > 1 else ""
    long = " ccz-long" if long_name(name) else ""
    return (f'<span class="ccz-card-top"><span class="ccz-cost" title="cost">{html.esc(price)}</span>'
            f'<span class="ccz-name{long}">{html.esc(name)}</span>{many}</span>')


LONG_WORD = 12
"""A name with a word of this many letters ("Communication") is set smaller on a phone's narrow card, where it
would not fit its width even on a line of its own."""


def long_name(name: str) -> bool:
    """Whether a card's name has a word too long for a narrow card at the usual size (it is set smaller)."""
    return max(len(word) for word in name.split()) >= LONG_WORD


def _status(view: dict[str, Any]) -> str:
    carbon, top = view["carbon"], view.get("carbon_max", 65)
    parts = ['<section class="ccz-status">']
    if view["variant"] == "rivalry":
        parts.append('<div class="ccz-trackers">')
        for i, deck in enumerate(view["decks"]):
            parts.append(
                f'<div class="ccz-tracker seat-{i}"><span class="ccz-label">{html.esc(_seat_name(view, i))}</span>'
                f'<span class="ccz-big">{deck["carbon"]}</span>{_meter(deck["carbon"], top)}</div>'
            )
        parts.append(
            '<div class="ccz-tracker"><span class="ccz-label">Round</span>'
            f'<span class="ccz-big">{view["round"]}</span></div>'
        )
        parts.append("</div>")
    else:
        parts.append(
            '<div class="ccz-trackers">'
            f'<div class="ccz-tracker ccz-carbon-tracker"><span class="ccz-label">Carbon</span>'
            f'<span class="ccz-big">{carbon}</span><span class="ccz-small">of {top}; zero wins</span>'
            f"{_meter(carbon, top)}</div>"
            '<div class="ccz-tracker ccz-round-tracker"><span class="ccz-label">Rounds left</span>'
            f'<span class="ccz-big">{view["rounds_left"]}</span>'
            f'<span class="ccz-small">round {view["round"]}</span></div>'
            "</div>"
        )
    result = view.get("result")
    if result == "won":
        parts.append('<p class="ccz-result ccz-won">Carbon zero: the city is carbon neutral. Everyone wins!</p>')
    elif result == "lost":
        parts.append("<p class=\"ccz-result ccz-lost\">Time's up: the city did not reach zero.</p>")
    elif result == "over":
        names = ", ".join(_seat_name(view, w) for w in view.get("winners", []))
        parts.append(f'<p class="ccz-result ccz-won">Game over: {html.esc(names)} won.</p>')
    parts.append("</section>")
    return "".join(parts)


def _meter(value: int, top: int) -> str:
    return (
        f'<meter class="ccz-meter" min="0" max="{top}" low="15" high="50" optimum="0" value="{value}">'
        f"{value}</meter>"
    )


def _globals(view: dict[str, Any]) -> str:
    cards = "".join(card_box(view, name, cost=0, extra="ccz-small-card") for name in view["global_area"])
    return (
        '<section class="ccz-globals"><h3>Global area</h3>'
        f'<div class="ccz-row">{cards or "<p class=ccz-empty>No Global card yet.</p>"}</div></section>'
    )


LEGEND = html.legend([
    ('<span class="ccz-cost">3</span>', "a card's cost, paid from income to buy it"),
    (
        '<span class="legend-chip"><span class="ccz-income">+1 ¤</span></span>',
        "income: what a card in play adds to spend this turn",
    ),
    (
        '<span class="legend-chip"><span class="ccz-carbon">-3 CO₂</span></span>',
        "carbon: what a card in play adds to the city's carbon (below 0 cuts it)",
    ),
    ("★", "a special rule: usable once per turn while the card is in play (ready, used, not now)"),
    ("Link", "a link ability: usable once per turn when its condition holds"),
])
"""What the table's symbols mean (the page shows it under the table: see ``drawing.legend_html``)."""


def _chosen(moves: Moves, selection: Selection | None) -> int:
    """The place in play of the chosen special that needs a choice (-1: none)."""
    if selection is not None and len(selection) == 2 and selection[0] == "special" and selection[1] in moves.choices:
        return int(selection[1])
    return -1


def selection_for(view: dict[str, Any], action: str, selection: Selection | None) -> Selection | None:
    """The next selection toward ``action`` (the table showing ``selection``): the special whose choice it is;
    while another special waits for its choice, that special again (a click cancels it) for a purchase or another
    card's use; None when the action is shown."""
    facts = view["moves"][action]
    chosen = _chosen(Moves(view), selection)
    if facts["kind"] in CHOICE_KINDS:
        if chosen == facts["index"]:
            return None
        return ("special", chosen if chosen >= 0 else facts["index"])
    if chosen >= 0 and facts["kind"] in ("buy", "special", "link"):
        return ("special", chosen)
    return None


def selection_words(view: dict[str, Any], selection: Selection) -> str:
    """The chosen special in words: "the special rule of Stock Exchange"."""
    return f"the special rule of {view['in_play'][selection[1]]['name']}"


def move_words(view: dict[str, Any], action: str) -> str:
    """The legal move ``action`` said to the player who decides, seats as placeholders: "buy Bike Lanes for 2"."""
    return game_words.move_words(view["moves"][action])


def score_words(score: int | float) -> str:
    """A score (the carbon cut so far) in words: "cut 6 carbon", "added 3 carbon", "no carbon cut yet"."""
    cut = int(score)
    if cut > 0:
        return f"cut {cut} carbon"
    if cut < 0:
        return f"added {-cut} carbon"
    return "no carbon cut yet"


def render(view: dict[str, Any], selection: Selection | None) -> str:
    moves = Moves(view)
    in_play: list[dict[str, Any]] = view["in_play"]
    # The selected special that needs a choice: its place in play and its targets.
    chosen = _chosen(moves, selection)
    targets = moves.choices.get(chosen, [])
    special_kind = str(targets[0][0]["kind"]) if targets else ""

    out = ['<div class="ccz">', _status(view), _globals(view)]
    chooser = in_play[chosen]["name"] if chosen >= 0 else ""
    out.append(_market(view, moves, targets, special_kind, chosen, chooser))
    out.append(_turn(view, moves, in_play, chosen, targets, special_kind))
    out.append(_decks(view))
    out.append("</div>")
    return "".join(out)


def _market(
    view: dict[str, Any],
    moves: Moves,
    targets: list[tuple[dict[str, Any], str]],
    special_kind: str,
    chosen: int,
    chooser: str,
) -> str:
    discards = {facts["target"]: text for facts, text in targets if special_kind == "discard-market"}
    deciding = bool(view["moves"])
    boxes = []
    for name, cost in view["market"]:
        action = None
        extra = ""
        attempt: dict[str, Any] | None = None
        if special_kind == "discard-market":
            if name in discards:
                action, extra = discards[name], "target"
            else:
                attempt = {"kind": "discard-market", "name": chooser, "index": chosen, "target": name}
        elif not targets and name in moves.buys:
            action, extra = moves.buys[name], "ccz-affordable"
        elif deciding and not targets:
            attempt = {"kind": "buy", "name": name}
        boxes.append(card_box(view, name, cost=cost, action=action, extra=extra, attempt=attempt))
    discard = view["discard"]
    piles = (
        '<div class="ccz-pile"><span class="ccz-label">Market deck</span>'
        f'{html.card_back(view["market_deck_count"])}</div>'
        f'<div class="ccz-pile"><span class="ccz-label">Discard pile</span>{html.card_back(len(discard))}'
        f'<span class="ccz-small">{html.esc(_counts(discard))}</span></div>'
    )
    return (
        '<section class="ccz-market"><h3>Marketplace</h3>'
        f'<div class="ccz-row">{"".join(boxes)}{piles}</div></section>'
    )


def _counts(names: list[str]) -> str:
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in sorted(counts.items()))


def _turn(
    view: dict[str, Any],
    moves: Moves,
    in_play: list[dict[str, Any]],
    chosen: int,
    targets: list[tuple[dict[str, Any], str]],
    special_kind: str,
) -> str:
    playing = view["playing_deck"]
    out = [f'<section class="ccz-turn seat-{playing}">']
    who = _seat_name(view, playing)
    change = view["turn_carbon"]
    out.append(
        f'<h3>{html.esc(who)}: cards in play</h3><p class="ccz-turn-facts">'
        f'Income <b>{view["income_left"]}</b> left of {view["income"]} · '
        f'carbon this turn <b>{change:+d}</b>'
        + (f" (links {view['link_bonus']:+d})" if view["link_bonus"] else "")
        + (" · factories count 0" if view["factories_zero"] else "")
        + (f" · next {view['topdeck']} purchase(s) on top of the deck" if view["topdeck"] else "")
        + (" · buying: specials and links are over" if view["buying"] else "")
        + "</p>"
    )
    boxes = "".join(_in_play_boxes(view, moves, in_play, chosen, targets, special_kind))
    empty = "<p class=ccz-empty>No cards in play.</p>"
    out.append(f'<div class="ccz-row ccz-in-play" role="group" aria-label="Cards in play">{boxes or empty}</div>')
    if chosen >= 0:
        name = in_play[chosen]["name"]
        out.append(
            f'<p class="ccz-prompt" role="status">{html.esc(name)}: {CHOICE_PROMPT.get(special_kind, "choose")} '
            f"(or click {html.esc(name)} again to cancel).</p>"
        )
    if special_kind in ("search-deck", "search-global"):
        picks = [
            card_box(view, facts["target"], cost=None, action=text, extra="target ccz-small-card")
            for facts, text in targets
        ]
        title = "Take which card from your deck?" if special_kind == "search-deck" else "Reveal which Global card?"
        out.append(f'<div class="ccz-picker"><h3>{title}</h3><div class="ccz-row">{"".join(picks)}</div></div>')
    # a gift ends the turn too: one short caption, then a button per player named (its full words said to
    # assistive technology), so that three gifts do not push the marketplace off a phone's screen
    buttons = ['<span class="ccz-gift-label">End turn and give Budget to:</span>'] if moves.gifts else []
    for deck, text in moves.gifts:
        name = _seat_name(view, deck)
        said = html.attrs(type="button", class_="btn ccz-gift", data_action=text,
                          aria_label=f"Give Budget to {name} and end turn")
        buttons.append(f"<button{said}>{html.esc(name)}</button>")
    if moves.end is not None:
        buttons.append(html.button("End turn", action=moves.end, extra="ccz-end"))
    if buttons:
        out.append(f'<div class="ccz-controls">{"".join(buttons)}</div>')
    out.append("</section>")
    return "".join(out)


def _in_play_boxes(
    view: dict[str, Any],
    moves: Moves,
    in_play: list[dict[str, Any]],
    chosen: int,
    targets: list[tuple[dict[str, Any], str]],
    special_kind: str,
) -> list[str]:
    """Each card in play; the same card in the same state (drawn alike, as three plain Budgets are) is one card
    with its number at the table, so that a turn's cards take fewer rows (the others are drawn, not shown)."""
    alike = [_in_play_box(view, moves, in_play, k, chosen, targets, special_kind) for k in range(len(in_play))]
    boxes = []
    for k, box in enumerate(alike):
        copies = alike.count(box)
        if copies > 1:
            first = alike.index(box) == k
            box = _in_play_box(view, moves, in_play, k, chosen, targets, special_kind, copies if first else 0)
        boxes.append(box)
    return boxes


def _in_play_box(
    view: dict[str, Any],
    moves: Moves,
    in_play: list[dict[str, Any]],
    k: int,
    chosen: int,
    targets: list[tuple[dict[str, Any], str]],
    special_kind: str,
    copies: int = 1,
) -> str:
    card = in_play[k]
    name = card["name"]
    info = view["cards"].get(name, {})
    flags = _flags(info, card, in_play, view)
    if chosen >= 0:
        # Choosing a target: cards in play are targets of a discard-in-play special.
        if k == chosen:
            return card_box(view, name, select=("special", k), selected=True, status=flags, copies=copies)
        if special_kind == "discard-in-play":
            for facts, text in targets:
                if k in facts["target_in_play"]:
                    return card_box(view, name, action=text, extra="target", status=flags, copies=copies)
            tried = {"kind": "discard-in-play", "name": in_play[chosen]["name"], "index": chosen, "target": name,
                     "target_index": k}
            return card_box(view, name, status=flags, attempt=tried, copies=copies)
        return card_box(view, name, status=flags, copies=copies)
    special_action = moves.direct.get((k, "special"))
    special_select: Selection | None = ("special", moves.choosers[k]) if k in moves.choosers else None
    link_action = moves.direct.get((k, "link"))
    choices = [x for x in (special_action, special_select, link_action) if x]
    if len(choices) == 1:
        return card_box(
            view,
            name,
            action=special_action or link_action,
            select=special_select,
            extra="ccz-usable",
            status=flags,
            copies=copies,
        )
    buttons = ""
    if choices:
        buttons = '<span class="ccz-uses">'
        if special_action:
            buttons += html.button("Special", action=special_action, extra="ccz-use")
        if special_select:
            buttons += html.button("Special…", select=special_select, extra="ccz-use")
        if link_action:
            buttons += html.button("Link", action=link_action, extra="ccz-use")
        buttons += "</span>"
    attempt = None
    if not choices and view["moves"] and (info.get("special") or info.get("link")):
        attempt = {"kind": "special" if info.get("special") else "link", "name": name, "index": k}
    return card_box(view, name, status=flags + buttons, extra="ccz-usable" if choices else "", attempt=attempt,
                    copies=copies)


def _flags(info: dict[str, Any], card: dict[str, Any], in_play: list[dict[str, Any]], view: dict[str, Any]) -> str:
    """Which special rule and link of a card in play are still usable (and why a link is not)."""
    marks = []
    if info.get("special"):
        state = "used" if card["special_used"] else ("ready" if card["special_usable"] else "not now")
        marks.append(f'<span class="ccz-flag ccz-{state.replace(" ", "-")}">★ {state}</span>')
    if info.get("link"):
        state, text = "no-link", "link not now"
        if card["link_used"]:
            state, text = "used", "link used"
        elif card["link_usable"]:
            state, text = "ready", "link ready"
        words = html.esc(text)
        sector = info.get("sector", "")
        partners = sum(1 for other in in_play if view["cards"].get(other["name"], {}).get("sector") == sector)
        if state == "no-link" and partners < 2:  # why, in full; a short phone shows "link not now" (read out whole)
            why = f"link needs another {SECTOR_LABEL.get(sector, sector)} card"
            words = (f'<span class="ccz-why">{html.esc(why)}</span>'
                     f'<span class="ccz-why-short" aria-hidden="true">{words}</span>')
        marks.append(f'<span class="ccz-flag ccz-{state}">{words}</span>')
    return f'<span class="ccz-flags">{"".join(marks)}</span>' if marks else ""


def _last_turns(view: dict[str, Any]) -> dict[int, tuple[int, list[str]]]:
    """Each deck's latest turn (``view["recent"]``, by the ``deck`` of its facts): -> (the seat, what it did)."""
    done: dict[int, tuple[int, list[str]]] = {}
    for who, turn in (view.get("recent") or {}).items():
        for facts in turn:
            deck = facts.get("deck")
            if not isinstance(deck, int):
                continue
            said = done.setdefault(deck, (who, []))[1]
            kind = facts.get("kind")
            if kind == "buy":
                said.append(f"bought {facts['card']}")
            elif kind == "discard-market":
                said.append(f"used {facts['card']}: {facts.get('target', '')} left the marketplace")
            elif kind in ("special", "link", "discard-in-play", "search-deck", "search-global"):
                said.append(f"used {facts['card']}")
            elif kind in ("end-turn", "gift"):
                if kind == "gift":
                    said.append(f"gave a Budget to {_seat_name(view, facts['gift'])}")
                said.append(f"carbon {facts.get('carbon', 0):+d}")
    return done


def _gets(view: dict[str, Any], deck: int, pile: list[str]) -> str:
    """The ``data-gets`` of a deck's pile (its cards ``pile``, or its known top) that holds the card the game's
    latest move bought for that deck: the page flies the card from the marketplace into the pile."""
    latest = None
    for turn in (view.get("recent") or {}).values():
        if turn and turn[-1].get("kind") == "buy" and turn[-1].get("deck") == deck and turn[-1].get("card") in pile:
            latest = turn[-1]["card"]
    return html.attrs(data_gets=latest)


def _decks(view: dict[str, Any]) -> str:
    out = ['<section class="ccz-decks">']
    turns = _last_turns(view)
    for i, deck in enumerate(view["decks"]):
        active = i == view["playing_deck"] and not view.get("over")
        title = _seat_name(view, i) + (" (playing)" if active else "")
        hand = "".join(card_box(view, n, extra="ccz-mini") for n in deck["hand"])
        top = ""
        if deck["known_top"]:
            top = f'<span class="ccz-small">top: {html.esc(", ".join(deck["known_top"]))}</span>'
        draw_count = sum(c for _, c in deck["draw_cards"])
        composition = _counts([n for n, c in deck["draw_cards"] for _ in range(c)])
        rivalry = ""
        if deck.get("carbon") is not None:
            rivalry = (
                f'<span class="ccz-small">carbon marker {deck["carbon"]} · '
                f'its cards total {deck["owned_carbon"]:+d} CO₂</span>'
            )
        last = ""
        mark = ""
        if i in turns:
            who, said = turns[i]
            words = html.last_move_words(view, who)
            last = (f'{html.last_label(view, who)}<p class="ccz-last-turn">'
                    f'{html.esc(words[:1].upper() + words[1:])}: {html.esc("; ".join(said) or "no change")}.</p>')
            mark = f" last-move seat-{who}"
        out.append(
            f'<div class="ccz-deck seat-{i}{" ccz-active" if active else ""}{mark}">{last}'
            f'<h3>{html.esc(title)}</h3>{rivalry}'
            f'<div class="ccz-piles">'
            f'<div class="ccz-pile"{_gets(view, i, deck["known_top"][:1])}><span class="ccz-label">Draw deck</span>'
            f'{html.card_back(draw_count)}{top}'
            f'<span class="ccz-small">{html.esc(composition)}</span></div>'
            f'<div class="ccz-pile"{_gets(view, i, deck["recycle"])}><span class="ccz-label">Recycle pile</span>'
            f'{html.card_back(len(deck["recycle"]))}'
            f'<span class="ccz-small">{html.esc(_counts(deck["recycle"]))}</span></div>'
            "</div>"
            f'<div class="ccz-hand"><span class="ccz-label">Hand ({len(deck["hand"])}, open)</span>'
            f'<div class="ccz-row" role="group" aria-label="{html.esc(_seat_name(view, i))}: hand">{hand}</div>'
            "</div></div>"
        )
    out.append("</section>")
    return "".join(out)
