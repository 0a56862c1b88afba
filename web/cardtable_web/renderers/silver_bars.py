"""100 Silver Bars table: both players' five vaults, the piles, the viewer's hand and the turn's choices.

Turn flow by clicks: pick a card in hand (the selection ``("card", token)``, the card's role token from
``hand_roles``), then a highlighted vault or a button (thief, strike, discard). Lock buttons
sit on vaults that can take a lock; a pending strike or thief choice shows its own buttons and
highlights. Every action comes from ``view["moves"]`` and is placed by its facts: the card's
``token``, the ``vault`` and its ``side`` (the seat whose row it is in).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyengine.games.silver_bars import words as game_words
from pyengine.words import say

from ..html import button, card, card_back, esc, last_label_words, last_move_words, legend, tried
from ..selection import Selection

CARD_MOVES = ("play", "miner", "rubble", "shovel", "lo-thief", "hi-thief", "strike", "discard")
"""Moves reached by first picking a card in hand."""
VAULT_MOVE = {"silver": "play", "miner": "miner", "rubble": "rubble", "shovel": "shovel"}
"""The move a card of each role makes on a vault (what a click on a vault tries with that card chosen)."""


def _stack(cards: list[str], roles: list[str]) -> str:
    return "".join(card(c, extra="sb-stacked", title=f"{c} ({r})") for c, r in zip(cards, roles, strict=True))


def _vault(
    number: int,
    vault: dict[str, Any],
    action: str | None,
    lock_action: str | None,
    small: bool = False,
    attempt: dict[str, Any] | None = None,
    mark: tuple[int, str] | None = None,
    owner: str = "",
    said: str = "",
) -> str:
    """One vault column: header (number, lock badge or lock button), the stack, its silver value.

    ``attempt``: the facts a click on the stack tries when it plays nothing; ``mark``: the seat whose latest
    turn changed this vault, and the label saying so. A vault a card can go to is a button whose name starts with
    "Vault 3, Computer 2:" for screen readers (``owner``: the name of the seat whose row it is in), and whose
    tooltip is its move in words (``said``)."""
    head = f'<span class="sb-vno">Vault {number}</span>'
    if vault["locked"]:
        head += '<span class="sb-lock" title="locked">LOCKED</span>'
    elif lock_action:
        head += button("Lock", action=lock_action, extra="sb-lockbtn", title=f"Place a lock on vault {number}")
    body = _stack(vault["cards"], vault["roles"])
    if vault["rubble"]:
        body += card(vault["rubble"], extra="sb-stacked sb-rubble", title=f"{vault['rubble']} (rubble)")
        body += '<span class="sb-tag">rubble</span>'
    if not vault["cards"] and not vault["rubble"]:
        body += '<span class="sb-empty">empty</span>'
    cls = "sb-stack" + (" target clickable" if action else (" tryable" if attempt else ""))
    attr = f' data-action="{esc(action)}" role="button" tabindex="0" title="{esc(said)}"' if action else ""
    if action:  # its name, read before what the vault holds
        body = f'<span class="sr-only">Vault {number}{", " + esc(owner) if owner else ""}: </span>' + body
    if attempt and not action:
        attr = f' role="button" tabindex="0" title="vault {number}"{tried(attempt)}'
    silver = f'<span class="sb-silver">{vault["silver"]} silver</span>'
    marked = f" last-move seat-{mark[0]}" if mark else ""
    return (
        f'<div class="sb-vault{" sb-locked" if vault["locked"] else ""}{" sb-small" if small else ""}{marked}">'
        f'<div class="sb-vhead">{head}</div>'
        f'<div class="{cls}"{attr}>{body}</div>{silver}{mark[1] if mark else ""}</div>'
    )


def _mark_label(view: dict[str, Any], who: int) -> str:
    """The label under a vault or the discard pile changed by a seat's latest turn: "last move: Computer 2" or
    "your last move"; on a phone only the name ("Computer 2", "you") is shown, on one line, beside the seat's
    outline (a narrow vault, and a pile that may sit at either edge of the board)."""
    words = last_label_words(view, who)
    short = "you" if who == view.get("you") else words.removeprefix("last move: ")
    return (f'<span class="last-label seat-{who}"><span class="sb-long">{esc(words)}</span>'
            f'<span class="sb-short">{esc(short)}</span></span>')


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


LEGEND = legend([
    ("<b>Vault 1</b>–<b>5</b>", "a player's five vaults, numbered from the left"),
    ('<span class="sb-locks"><i class="sb-pip"></i><i class="sb-pip sb-used"></i></span>',
     "locks: five per player; a used one is dimmed"),
    ('<span class="sb-lock">LOCKED</span>', "a locked vault: no more cards, safe from thieves and strikes; it scores"),
    ('<span class="sb-tag">rubble</span>', "rubble: the vault takes no card and no lock until a shovel clears it"),
    ("silver", "A, 2, 3, 4, 6: silver bars worth 1, 2, 3, 4 or 6, into an empty vault or onto a miner"),
    ("miner", "7 to 10: onto silver; only richer silver may follow on it"),
    ("rubble, shovel", "K blocks a rival's empty vault; Q clears rubble from yours"),
    ("lo thief, hi thief", "J and joker: take the lowest or the highest top bar from a rival's unlocked vault"),
    ("strike", "Q♠: discards the miners on top of a rival's vaults; they spend their next turn clearing it"),
])
"""What the table's symbols and card roles mean (the page shows it under the table: see ``drawing.legend_html``)."""


def chosen_token(view: dict[str, Any], selection: Selection | None) -> str | None:
    """The role token of the chosen hand card (None: none, or no card to choose now). A selection is
    ``("card", token, card)``: the tapped card, where two cards share a role (two 9s); ``("card", token)`` chooses
    the first card of that role."""
    moves: dict[str, dict[str, Any]] = view.get("moves") or {}
    tokens = {r["token"] for r in view.get("hand_roles") or []}
    if selection is None or len(selection) not in (2, 3) or selection[0] != "card" or selection[1] not in tokens:
        return None
    return str(selection[1]) if any(f["kind"] == "discard" for f in moves.values()) else None


def selection_for(view: dict[str, Any], action: str, selection: Selection | None) -> Selection | None:
    """The next selection toward ``action`` (the table showing ``selection``): the card it plays or discards,
    the chosen card again (unchoosing it) for the few moves shown with no card chosen; None when it is shown."""
    facts = view["moves"][action]
    token = chosen_token(view, selection)
    if facts["kind"] in CARD_MOVES:
        return None if facts["token"] == token else card_selection(view, facts["token"])
    if token is not None and selection is not None and facts["kind"] not in ("lock", "steal", "place", "clear"):
        return selection  # the safety net's buttons are shown with no card chosen: a click unchooses it
    return None


def card_selection(view: dict[str, Any], token: str) -> Selection:
    """The selection a tap on the first hand card of role ``token`` makes."""
    hand = view.get("hand") or []
    roles = view.get("hand_roles") or []
    first = next((c for c, r in zip(hand, roles, strict=True) if r["token"] == token), None)
    return ("card", token) if first is None else ("card", token, first)


def selection_words(view: dict[str, Any], selection: Selection) -> str:
    """The chosen card in words, with its role: "the 4♠ (silver)"."""
    for c, role in zip(view.get("hand") or [], view.get("hand_roles") or [], strict=True):
        if role["token"] == selection[1]:
            return f"the {c} ({role['role']})"
    return f"your {selection[1]}"


def move_words(view: dict[str, Any], action: str) -> str:
    """The legal move ``action`` said to the player who decides, seats as placeholders: "put a 6 of silver in
    your middle vault"."""
    return game_words.move_words(view["moves"][action])


def render(view: dict[str, Any], selection: Selection | None) -> str:
    seat = view.get("seat")
    me = seat if isinstance(seat, int) else 0
    chosen = chosen_token(view, selection)
    offers = Offers.of(view.get("moves") or {}, chosen)
    marked, discarded = latest_turns(view)
    prompt = prompt_html(view, chosen, offers)
    parts = [top_html(view, discarded), last_round_html(view), side_html(view, 1 - me, chosen, offers, marked)]
    if prompt:
        parts.append(f'<div class="sb-prompt">{prompt}</div>')
    parts.append(side_html(view, me, chosen, offers, marked))
    if seat is not None:
        parts.append(hand_html(view, chosen, selection[2] if chosen and selection and len(selection) == 3 else None))
    if offers.rest and not chosen:  # the safety net: any other legal action gets a button
        parts.append('<div class="sb-more">' + "".join(button(t, action=t) for t in offers.rest) + "</div>")
    return f'<div class="sb-table">{"".join(parts)}</div>'


def normal_turn(view: dict[str, Any]) -> bool:
    """Whether the seat to move plays or discards a card now (no strike to clear, no thief's choice pending)."""
    return any(f["kind"] == "discard" for f in (view.get("moves") or {}).values())


def latest_turns(view: dict[str, Any]) -> tuple[dict[tuple[int, int], int], int | None]:
    """What each seat's latest turn (``view["recent"]``) changed: the seat by the vault (``(side, vault)``) it
    changed, and the seat whose turn ended with a discard (None: no seat's)."""
    marked: dict[tuple[int, int], int] = {}
    discarded: int | None = None
    for who, turn in (view.get("recent") or {}).items():
        for facts in turn:
            if "vault" in facts and "side" in facts:
                marked[(facts["side"], facts["vault"])] = who
            elif facts.get("kind") == "discard":
                discarded = who
    return marked, discarded


@dataclass
class Offers:
    """Where the table offers each action: the chosen card's vault targets (by ``(side, vault)``), the lock
    buttons (by vault), the chosen card's other plays, the thief's tie choices (``(action, vault)``), clearing a
    strike, and the rest (the safety net's buttons)."""

    targets: dict[tuple[int, int], str] = field(default_factory=dict)
    locks: dict[int, str] = field(default_factory=dict)
    plays: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    steals: list[tuple[str, int]] = field(default_factory=list)
    rest: list[str] = field(default_factory=list)
    clear: str | None = None

    @staticmethod
    def of(moves: dict[str, dict[str, Any]], chosen: str | None) -> Offers:
        offers = Offers()
        for text, facts in moves.items():
            kind = facts["kind"]
            if kind in CARD_MOVES:
                if facts.get("token") != chosen:
                    continue
                if "vault" in facts:
                    offers.targets[(facts["side"], facts["vault"])] = text
                else:
                    offers.plays.append((text, facts))
            elif kind == "lock":
                offers.locks[facts["vault"]] = text
            elif kind in ("steal", "place"):
                offers.targets[(facts["side"], facts["vault"])] = text
                if kind == "steal":
                    offers.steals.append((text, facts["vault"]))
            elif kind == "clear":
                offers.clear = text
            else:
                offers.rest.append(text)
        return offers


def top_html(view: dict[str, Any], discarded: int | None) -> str:
    """The round, the dealer and the match, and the two piles (the discard marked when a seat's latest turn
    ended there)."""
    names: list[str] = view["names"]
    top = view.get("discard_top")
    discard = card(top, title=f"discard pile top: {top}") if top else '<span class="sb-empty">empty</span>'
    if discarded is not None and top:
        discard = (f'<span class="last-move seat-{discarded}" title="{esc(last_move_words(view, discarded))}">'
                   f"{discard}{_mark_label(view, discarded)}</span>")
    match = " · ".join(f"{esc(names[s])} {view['match'][s]}" for s in (0, 1))
    dealer = view["dealer"]
    info = (
        f'<div class="sb-info"><span class="sb-round">Round {view["round"]}'
        f' · {esc(say(f"{{{dealer}}} {{{dealer}:deals}}", names, view.get("you")))}</span>'
        f'<span class="sb-match">Match (to {view["target"]}): {match}</span></div>'
    )
    piles = (
        f'<div class="sb-piles"><div class="sb-pile"><span>Draw</span>'
        f'{card_back(view["draw_count"], "draw pile")}</div>'
        f'<div class="sb-pile"><span>Discard ({view["discard_count"]})</span>{discard}</div></div>'
    )
    return f'<div class="sb-top">{info}{piles}</div>'


def last_round_html(view: dict[str, Any]) -> str:
    """How the round before ended and what each seat gained (empty during the first round)."""
    last = view.get("last_round")
    if not last or last["round"] == view["round"] and not view.get("over"):
        return ""
    names: list[str] = view["names"]
    gains = " and ".join(f"{esc(names[s])} {last['points'][s]}" for s in (0, 1))
    why = esc(game_words.ROUND_ENDS.get(last["reason"], last["reason"]))
    return f'<p class="sb-last">Round {last["round"]} ended, as {why}. Points for it: {gains}.</p>'


def prompt_html(view: dict[str, Any], chosen: str | None, offers: Offers) -> str:
    """The prompt between the two sides: a thief's pending choice, a strike to clear, the chosen card's plays."""
    prompt: list[str] = []
    turn = view.get("current_player")
    pending = view.get("pending")
    if pending and turn is not None:
        thief = say(f"{{{turn}:poss}} {pending['thief_name']}", view["names"], view.get("you"))
        if pending["carry"] is None:
            prompt.append(f"<span>{esc(thief)}: tie, choose the vault to steal from</span>")
            for text, vault in offers.steals:
                prompt.append(button(f"Steal from vault {vault + 1}", action=text))
        else:
            prompt.append(f"<span>{esc(thief)} took</span>{card(pending['carry'])}"
                          f"<span>from vault {pending['from'] + 1}: place it in a highlighted vault</span>")
    if offers.clear:
        prompt.append("<span>A worker's strike lies in front of you: this turn you can only clear it.</span>")
        prompt.append(button("Clear the strike", action=offers.clear, extra="primary"))
    if chosen:
        prompt.extend(chosen_card_html(view, chosen, offers.plays))
    elif normal_turn(view):
        prompt.append('<span class="sb-note">Pick a card to play or discard, or lock a vault.</span>')
    return "".join(prompt)


def chosen_card_html(view: dict[str, Any], chosen: str, plays: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The chosen card's buttons: play it (when it goes to no vault) and discard it."""
    name = {r["token"]: r["name"] for r in view.get("hand_roles") or []}[chosen]
    out = [f"<span>{esc(_capital(name))} selected:</span>"]
    discards = [text for text, facts in plays if facts["kind"] == "discard"]
    for text, facts in plays:
        if facts["kind"] != "discard":
            out.append(button(f"Play the {name}", action=text, extra="primary"))
    if chosen in ("lo-thief", "hi-thief") and len(plays) == len(discards):
        out.append('<span class="sb-note">(no silver it could steal and place)</span>')
    for text in discards:
        out.append(button(f"Discard the {name}", action=text))
    return out


def side_html(
    view: dict[str, Any], s: int, chosen: str | None, offers: Offers, marked: dict[tuple[int, int], int]
) -> str:
    """Seat ``s``'s side of the table: its header (match, locked silver, locks left, hand, a pending strike)
    and its five vaults."""
    seat = view.get("seat")
    me = seat if isinstance(seat, int) else 0
    names: list[str] = view["names"]
    strike = ('<span class="sb-strike">STRIKE pending</span>' if view["strike"][s] else "")
    left = view["locks_left"][s]
    pips = '<i class="sb-pip"></i>' * left + '<i class="sb-pip sb-used"></i>' * (5 - left)
    header = (
        f'<div class="sb-shead"><span class="sb-who seat-{s}">{esc(names[s])}</span>'
        f'<span>match {view["match"][s]}</span><span>locked now {view["round_scores"][s]}</span>'
        f'<span class="sb-locks" title="locks left">{pips} {left} lock{"" if left == 1 else "s"} left</span>'
        f'<span>hand {view["hand_counts"][s]}</span>{strike}</div>'
    )
    role_of = {r["token"]: r["role"] for r in view.get("hand_roles") or []}
    kind = VAULT_MOVE.get(role_of.get(chosen or "", ""))
    cols = []
    for i, vault in enumerate(view["vaults"][s]):
        attempt = {"kind": kind, "token": chosen, "vault": i, "side": s} if kind else None
        who = marked.get((s, i))
        mark = (who, _mark_label(view, who)) if who is not None else None
        target = offers.targets.get((s, i))
        said = _capital(say(move_words(view, target), names, seat)) if target else ""
        cols.append(_vault(i + 1, vault, target, offers.locks.get(i) if s == me else None,
                           attempt=attempt, mark=mark, owner=names[s], said=said))
    return f'<section class="sb-side seat-{s}{" sb-mine" if s == me and seat is not None else ""}">{header}' \
           f'<div class="sb-vaults">{"".join(cols)}</div></section>'


def hand_html(view: dict[str, Any], chosen: str | None, tapped: str | None = None) -> str:
    """The viewer's hand, each card with its role: chosen by a click on a normal turn, else a click says why not.
    Only one card shows chosen: the ``tapped`` one, else the first of the ``chosen`` role (two 9s play alike)."""
    moves = view.get("moves") or {}
    normal = normal_turn(view)
    hand = view.get("hand") or []
    roles = view.get("hand_roles") or []
    first = next((c for c, r in zip(hand, roles, strict=True) if r["token"] == chosen), None)
    shown = tapped if tapped in hand else first
    cards = []
    for c, role in zip(hand, roles, strict=True):
        tok, word = role["token"], role["role"]
        select = ("card", tok, c) if normal else None
        attempt = {"kind": "discard", "token": tok} if moves and not normal else None
        face = card(c, select=select, selected=tok == chosen and c == shown, title=f"{c}: {word}", attempt=attempt)
        cards.append(
            f'<div class="sb-hcard">{face}'
            f'<span class="sb-role">{esc(word)}</span></div>'
        )
    return (
        '<div class="sb-hand hand" role="group" aria-label="Your hand">'
        f'<span class="sb-label" aria-hidden="true">Your hand</span>{"".join(cards)}</div>'
    )
