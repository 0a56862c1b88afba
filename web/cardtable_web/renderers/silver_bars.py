"""100 Silver Bars table: both players' five vaults, the piles, the viewer's hand and the turn's choices.

Turn flow by clicks: pick a card in hand (``data-select`` = its rank/role name), then a highlighted
vault (``play 6 v3``, ``miner 9 v2``, ``rubble v4``, ``shovel v1``) or a button (thief, strike,
discard). Lock buttons sit on vaults that can take a lock; a pending strike or thief choice shows
its own buttons and highlights.
"""

from __future__ import annotations

from typing import Any

from ..html import button, card, card_back, esc

ROLE = {
    "A": "silver", "2": "silver", "3": "silver", "4": "silver", "6": "silver",
    "7": "miner", "8": "miner", "9": "miner", "10": "miner",
    "rubble": "rubble", "shovel": "shovel", "lo-thief": "lo thief", "hi-thief": "hi thief", "strike": "strike",
}
ROLE_WORD = {"lo-thief": "lo thief", "hi-thief": "hi thief", "strike": "worker's strike"}


def token(text: str) -> str:
    """The rank/role name of a card written like ``6♠``, ``Q♠`` or ``Jk`` (as the engine names it)."""
    if text == "Jk":
        return "hi-thief"
    rank, suit = text[:-1], text[-1]
    if rank == "Q":
        return "strike" if suit == "♠" else "shovel"
    return {"J": "lo-thief", "K": "rubble"}.get(rank, rank)


def _name(view: dict[str, Any], seat: int) -> str:
    names = view.get("names") or []
    return str(names[seat]) if seat < len(names) and names[seat] else f"Player {seat + 1}"


def _stack(cards: list[str]) -> str:
    return "".join(card(c, extra="sb-stacked", title=f"{c} ({ROLE.get(token(c), '')})") for c in cards)


def _vault(
    number: int, vault: dict[str, Any], action: str | None, lock_action: str | None, small: bool = False
) -> str:
    """One vault column: header (number, lock badge or lock button), the stack, its silver value."""
    head = f'<span class="sb-vno">V{number}</span>'
    if vault["locked"]:
        head += '<span class="sb-lock" title="locked">LOCKED</span>'
    elif lock_action:
        head += button("Lock", action=lock_action, extra="sb-lockbtn", title=f"Place a lock on vault {number}")
    body = _stack(vault["cards"])
    if vault["rubble"]:
        body += card(vault["rubble"], extra="sb-stacked sb-rubble", title=f"{vault['rubble']} (rubble)")
        body += '<span class="sb-tag">rubble</span>'
    if not vault["cards"] and not vault["rubble"]:
        body += '<span class="sb-empty">empty</span>'
    cls = "sb-stack" + (" target clickable" if action else "")
    attr = f' data-action="{esc(action)}" role="button" tabindex="0" title="{esc(action)}"' if action else ""
    silver = f'<span class="sb-silver">{vault["silver"]} silver</span>'
    return (
        f'<div class="sb-vault{" sb-locked" if vault["locked"] else ""}{" sb-small" if small else ""}">'
        f'<div class="sb-vhead">{head}</div><div class="{cls}"{attr}>{body}</div>{silver}</div>'
    )


def render(view: dict[str, Any], legal: list[str], selection: str | None) -> str:
    seat = view.get("seat")
    me = seat if isinstance(seat, int) else 0
    them = 1 - me
    legal_set = set(legal)
    shown: set[str] = set()

    def offer(text: str) -> str | None:
        if text in legal_set:
            shown.add(text)
            return text
        return None

    hand: list[str] = list(view.get("hand") or [])
    hand_tokens = {token(c) for c in hand}
    normal_turn = any(t.startswith("discard ") for t in legal)
    if selection not in hand_tokens or not normal_turn:
        selection = None
    pending = view.get("pending")
    parts: list[str] = []

    # -- the piles and the match ------------------------------------------------------------------
    top = view.get("discard_top")
    discard = card(top, title=f"discard pile top: {top}") if top else '<span class="sb-empty">empty</span>'
    match = " · ".join(f"{esc(_name(view, s))} {view['match'][s]}" for s in (0, 1))
    info = (
        f'<div class="sb-info"><span class="sb-round">Round {view["round"]}'
        f' · {esc(_name(view, view["dealer"]))} deals</span>'
        f'<span class="sb-match">Match (to {view["target"]}): {match}</span></div>'
    )
    piles = (
        f'<div class="sb-piles"><div class="sb-pile"><span>Draw</span>'
        f'{card_back(view["draw_count"], "draw pile")}</div>'
        f'<div class="sb-pile"><span>Discard ({view["discard_count"]})</span>{discard}</div></div>'
    )
    parts.append(f'<div class="sb-top">{info}{piles}</div>')
    last = view.get("last_round")
    if last and (last["round"] != view["round"] or view.get("over")):
        gains = ", ".join(f"{esc(_name(view, s))} +{last['points'][s]}" for s in (0, 1))
        parts.append(f'<p class="sb-last">Round {last["round"]} ended ({esc(last["reason"])}): {gains}.</p>')

    # -- the prompt: strike, thief choices, selected card ---------------------------------------------
    prompt: list[str] = []
    if pending:
        thief = ROLE_WORD.get(pending["thief"], pending["thief"])
        who = _name(view, view["turn"]) if view.get("turn") is not None else ""
        if pending["carry"] is None:
            prompt.append(f'<span>{esc(who)}\'s {esc(thief)}: tie, choose the vault to steal from</span>')
            for number in pending["choices"]:
                act = offer(f"steal v{number}")
                if act:
                    prompt.append(button(f"Steal from vault {number}", action=act))
        else:
            prompt.append(f"<span>{esc(who)}'s {esc(thief)} took</span>{card(pending['carry'])}"
                          f"<span>from vault {pending['from']}: place it in a highlighted vault</span>")
    clear = offer("clear strike")
    if clear:
        prompt.append("<span>A worker's strike lies in front of you: this turn you can only clear it.</span>")
        prompt.append(button("Clear the strike", action=clear, extra="primary"))
    if selection:
        prompt.append(f"<span>{esc(ROLE.get(selection, selection))} {esc(selection)} selected:</span>")
        for kind in ("lo-thief", "hi-thief", "strike"):
            act = offer(kind) if selection == kind else None
            if act:
                prompt.append(button(f"Play the {ROLE_WORD[kind]}", action=act, extra="primary"))
        if selection in ("lo-thief", "hi-thief") and selection not in legal_set:
            prompt.append('<span class="sb-note">(no silver it could steal and place)</span>')
        act = offer(f"discard {selection}")
        if act:
            prompt.append(button(f"Discard {selection}", action=act))
    elif normal_turn:
        prompt.append('<span class="sb-note">Pick a card to play or discard, or lock a vault.</span>')

    # -- the two sides ----------------------------------------------------------------------------------
    def side(s: int) -> str:
        vaults = view["vaults"][s]
        strike = ('<span class="sb-strike">STRIKE pending</span>' if view["strike"][s] else "")
        locks = view["locks_left"][s]
        pips = '<i class="sb-pip"></i>' * locks + '<i class="sb-pip sb-used"></i>' * (5 - locks)
        header = (
            f'<div class="sb-shead"><span class="sb-who seat-{s}">{esc(_name(view, s))}</span>'
            f'<span>match {view["match"][s]}</span><span>locked now {view["round_scores"][s]}</span>'
            f'<span class="sb-locks" title="locks left">{pips} {locks} lock{"" if locks == 1 else "s"} left</span>'
            f'<span>hand {view["hand_counts"][s]}</span>{strike}</div>'
        )
        cols = []
        for i, vault in enumerate(vaults):
            n = i + 1
            action: str | None = None
            if s == me:
                if pending and pending["carry"] is not None:
                    action = offer(f"place v{n}")
                elif selection in ("A", "2", "3", "4", "6"):
                    action = offer(f"play {selection} v{n}")
                elif selection in ("7", "8", "9", "10"):
                    action = offer(f"miner {selection} v{n}")
                elif selection == "shovel":
                    action = offer(f"shovel v{n}")
            else:
                if pending and pending["carry"] is None:
                    action = offer(f"steal v{n}")
                elif selection == "rubble":
                    action = offer(f"rubble v{n}")
            lock = offer(f"lock v{n}") if s == me else None
            cols.append(_vault(n, vault, action, lock))
        return f'<section class="sb-side seat-{s}{" sb-mine" if s == me and seat is not None else ""}">{header}' \
               f'<div class="sb-vaults">{"".join(cols)}</div></section>'

    parts.append(side(them))
    if prompt:
        parts.append(f'<div class="sb-prompt">{"".join(prompt)}</div>')
    parts.append(side(me))

    # -- the viewer's hand ------------------------------------------------------------------------------
    if seat is not None:
        cards = []
        for c in hand:
            tok = token(c)
            select = tok if normal_turn else None
            cards.append(
                f'<div class="sb-hcard">{card(c, select=select, selected=tok == selection, title=f"{c}: {ROLE[tok]}")}'
                f'<span class="sb-role">{esc(ROLE[tok])}</span></div>'
            )
        parts.append(f'<div class="sb-hand hand"><span class="sb-label">Your hand</span>{"".join(cards)}</div>')

    # -- safety net: anything legal not yet on screen gets a button -----------------------------------
    if not selection:
        rest = [t for t in legal if t not in shown and not _needs_selection(t)]
        if rest:
            parts.append('<div class="sb-more">' + "".join(button(t, action=t) for t in rest) + "</div>")
    return f'<div class="sb-table">{"".join(parts)}</div>'


def _needs_selection(text: str) -> bool:
    """Actions reached by first picking a hand card."""
    head = text.split()[0]
    return head in ("play", "miner", "rubble", "shovel", "discard", "lo-thief", "hi-thief", "strike")
