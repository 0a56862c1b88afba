"""Carbondale's judgement: how good a position looks from one seat's view, and how useful a card is to a network.
Shared by the computer's search (``CarbondaleRules.judgement``) and the rule-based yardstick
(``tests/bench/rulebased.py``)."""

from __future__ import annotations

from typing import Any

View = dict[str, Any]
BLACK, RED = "♣♠", "♡♢"
BUILDS = {("♣", "♣"): 2, ("♠", "♠"): 2, ("♣", "♠"): 1, ("♠", "♣"): 1, ("♣", "♡"): 0, ("♠", "♢"): 0}
"""Rule 10: (source suit, new suit) -> how far above the source's rank the new card may go."""


def rank(card: str) -> int:
    """A card's rank as a number (an ace is 1)."""
    return 1 if card[:-1] == "A" else int(card[:-1])


def progress(hearts: int, diamonds: int) -> int:
    """Rule 27: the larger of hearts up to 7 plus diamonds up to 3, and the other way round."""
    return max(min(hearts, 7) + min(diamonds, 3), min(diamonds, 7) + min(hearts, 3))


def _wanted(net: View, suit: str) -> bool:
    """Whether one more card of this red suit raises the network's progress."""
    h, d = net["hearts"], net["diamonds"]
    return progress(h + (suit == "♡"), d + (suit == "♢")) > progress(h, d)


def _sources(net: View, zone: int) -> list[tuple[str, bool, bool]]:
    """Each black card of the network with (card, room for a black card, room for a red card) next to it."""
    cells = {(c["x"], c["y"]): c["cards"] for c in net["cells"]}
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    found = []
    for (x, y), cards in cells.items():
        card = cards[0]["card"]
        if card[-1] not in BLACK:
            continue
        black = red = False
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            here = cells.get((x + dx, y + dy))
            if here is None:
                nx, ny = x + dx, y + dy
                fits = (max(xs + [nx]) - min(xs + [nx]) < zone) and (max(ys + [ny]) - min(ys + [ny]) < zone)
                black = black or fits
                red = red or fits
            elif len(here) == 1 and here[0]["card"][-1] in RED:
                red = True
        found.append((card, black, red))
    return found


def _limit(source: str, card: str, any_red: bool) -> int | None:
    step = BUILDS.get((source[-1], card[-1]))
    if step is None and any_red and card[-1] in RED:
        step = 0
    return None if step is None else rank(source) + step


def use(card: str, net: View, zone: int, any_red: bool) -> float:
    """How useful a card is to a network: a red card that raises its progress and can be built now is worth
    most, a black card that can be built a little, anything else little."""
    buildable = False
    for source, black, red in _sources(net, zone):
        limit = _limit(source, card, any_red)
        room = red if card[-1] in RED else black
        if limit is not None and room and rank(card) <= limit:
            buildable = True
            break
    if card[-1] in RED:
        if not _wanted(net, card[-1]):
            return 0.1
        return 3.0 if buildable else 0.9
    return (1.0 + 0.1 * rank(card)) if buildable else 0.3 + 0.05 * rank(card)


def network(net: View, zone: int) -> float:
    """Progress, then sources with room to build from, less the red cards a rival could claim."""
    result = 10.0 * net["progress"]
    for source, black, red in _sources(net, zone):
        if red:
            result += 0.8 + 0.1 * rank(source)
        if black:
            result += 0.4 + 0.05 * rank(source)
    for cell in net["cells"]:
        for placed in cell["cards"]:
            if placed["vulnerable"] and placed["card"][-1] in RED:
                result -= 2.0 + max(0, 6 - rank(placed["card"])) * 0.3
    return float(result)


def value(view: View, seat: int) -> float:
    """The seat's network and hand against the best rival's network, less what the stock offers the rivals."""
    zone, any_red = view["zone"], view["any_black_to_red"]
    nets = view["networks"]
    if view["over"]:
        return 1000.0 if seat in view["winners"] else -1000.0
    mine = network(nets[seat], zone)
    mine += sum(use(card, nets[seat], zone, any_red) for card in view["hand"] or [])
    if view["draw_to"] > 4 and view["current_player"] == seat:
        mine += 2.5  # the bonus card of rule 11
    others = [s for s in range(view["players"]) if s != seat]
    best = max(network(nets[s], zone) for s in others)
    gift = sum(max(use(c["card"], nets[s], zone, any_red) for s in others) for c in view["stock"])
    return mine - best - 0.5 * gift
