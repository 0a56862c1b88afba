"""Carbles table: the track drawn as a ring (inline SVG), the hand, and the choices.

The ring holds the 18 spaces of every player, forward running clockwise, with the viewer's stretch at
the bottom. Each player's goal lane leads inwards from their goal entry (two spaces before their
home); their lot (four places, one per marble) sits outside the ring beside their home; their name
is written inside the ring at the middle of their stretch. The last turn of each seat
(``view["recent"]``, when given) is drawn as the path each moved marble took, along the track and
into the goal lane, with knocked-out marbles' way back to their lot.

Clicks: a card (select) -> a marble (select) -> a highlighted destination (action). Moving out
is a click on the marble in the lot once the card is chosen. During a 7 the marbles are chosen directly.
The selection is a :class:`Pick`: the card's rank and the marble (``(player, marble)``), each None until chosen.
A list of buttons repeats every choice of the selected card or marble in words, so nothing hides
behind another target. Targets on the ring are SVG groups with ``role="button"`` and
``tabindex="0"`` (the table's key handler chooses them with Enter or Space).

Every choice is found by its facts (``view["moves"]``: kind, card, marble, from, to, with); the
action text is only ever put into ``data-action``.

The rules page also shows the ring "unrolled" into one strip per player (:func:`unrolled`), which
explains the numbering: a static figure of its first example, kept equal to this function's drawing by a test.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from pyengine.games.carbles import words as game_words
from pyengine.games.carbles.board import MARBLES, SECTOR
from pyengine.games.carbles.notation import rank_text
from pyengine.games.carbles.state import STEPS
from pyengine.games.carbles.view import Place
from pyengine.words import say

from ..html import button, card, chosen_once, esc, last_move_words, legend, selecting, tried
from ..selection import Selection

COLUMN = SECTOR // 2
"""Spaces per column of an unrolled strip: 18p..18p+8 go up the left column, 18p+9..18p+17 down the right."""
OUT_KINDS = ("out", "partner_out")
SIZE = 1000
HIT_MOST = 72.0
"""The largest hit radius of a tappable place (drawing units): 44 CSS px across on a small phone's ring (312 px)."""
TRY_LEAST = 46.0
"""The least hit radius (drawing units, 28 CSS px across on a small phone's ring) of a marble the chosen card cannot
move: one closer to its neighbours is drawn without a tap that says why (on a crowded ring a finger would hit its
neighbour; the choices under the ring name every marble the card can move)."""
"""The ring's drawing is SIZE x SIZE units (the SVG's viewBox); the stylesheet scales it to the space there is."""


STEPS_OF = {**{rank_text(rank): steps for rank, steps in STEPS.items()}, "Jk": 1}
"""How far a card would move a marble when a click tries it (the engine's direct moves, a joker as an ace; the
engine says why that is refused)."""


def tried_move(card_rank: str, marble: list[int]) -> dict[str, Any]:
    """The facts of moving ``marble`` with a card of ``card_rank``, as a click that plays nothing tries it."""
    if card_rank == "4":
        return {"kind": "back", "card": "4", "marble": marble, "steps": 4}
    steps = STEPS_OF.get(card_rank) or int(card_rank)
    return {"kind": "move", "card": card_rank, "marble": marble, "steps": steps, "goal": False}


def rank_of(text: str) -> str:
    """The rank part of a card text (``10♠`` -> ``10``, ``Jk`` -> ``Jk``)."""
    return text if text == "Jk" else text[:-1]


Marble = tuple[int, int]
"""A marble as ``(player, marble)``, both from 0."""


class Pick(NamedTuple):
    """The selection: the chosen card's rank and the chosen marble (None until chosen; no card during a 7)."""

    what: str = "pick"
    card: str | None = None
    marble: Marble | None = None


@dataclass
class Choosing:
    """What the table offers for a selection: the chosen card and marble (each None when it offers none), the
    card's moves by the marble they move, the moves out of the lot (by the lot place) and the other moves."""

    card: str | None
    marble: Marble | None
    pieces: dict[Marble, list[str]]
    outs: dict[Spot, str]
    loose: list[str]

    @staticmethod
    def of(view: dict[str, Any], selection: Selection | None) -> Choosing:
        moves: dict[str, dict[str, Any]] = view.get("moves") or {}
        pick = Pick._make(selection) if selection is not None and selection[:1] == ("pick",) else Pick()
        card_sel = "7" if view.get("seven") and moves else pick.card
        marble_sel = marble_of(pick.marble) if isinstance(pick.marble, tuple) and len(pick.marble) == 2 else None
        card_actions = [t for t, m in moves.items() if m["card"] == card_sel and m["kind"] != "burn"]
        if not card_actions:
            return Choosing(None, None, {}, {}, [])
        pieces: dict[Marble, list[str]] = {}
        outs: dict[Spot, str] = {}
        loose: list[str] = []
        for t in card_actions:
            move = moves[t]
            if move["kind"] in OUT_KINDS:
                outs.setdefault(spot(move["from"], move["marble"][1]), t)  # the marble's lot place
            if "marble" in move and move["kind"] not in OUT_KINDS:
                pieces.setdefault(marble_of(move["marble"]), []).append(t)
            else:
                loose.append(t)
        if marble_sel not in pieces:
            # a card that moves only one marble shows its landing spaces at once
            marble_sel = next(iter(pieces)) if len(pieces) == 1 else None
        return Choosing(card_sel, marble_sel, pieces, outs, loose)

    def offers(self, action: str) -> bool:
        """Whether the table shows ``action`` (with its card and marble chosen as here)."""
        return action in self.loose or self.marble is not None and action in self.pieces[self.marble]


def marble_of(pi: list[int] | Marble) -> Marble:
    return (int(pi[0]), int(pi[1]))


def selection_for(view: dict[str, Any], action: str, selection: Selection | None) -> Selection | None:
    """The next selection toward ``action`` (the table showing ``selection``): its card, then its marble; None
    when the action is shown (a burn is shown whatever is selected)."""
    facts = view["moves"][action]
    if facts["kind"] == "burn":
        return None
    seven = bool(view.get("seven"))
    chosen = Choosing.of(view, selection)
    if chosen.card != facts["card"]:
        return Pick(card=facts["card"])
    if chosen.offers(action):
        return None
    return Pick(card=None if seven else chosen.card, marble=marble_of(facts["marble"]))


def selection_words(view: dict[str, Any], selection: Selection) -> str:
    """The selection's element in words: the chosen marble ("your second marble"), else the card ("the 7♠")."""
    pick = Pick._make(selection)
    if pick.marble is not None:
        return marble_words(view, list(pick.marble))
    return "the " + next((text for text in view.get("hand") or [] if rank_of(text) == pick.card), str(pick.card))


def move_words(view: dict[str, Any], action: str) -> str:
    """The legal move ``action`` said to the player who decides, seats as placeholders: "play a 5 to move your
    first marble five steps, to space 12"."""
    return game_words.move_words(view["moves"][action])


def marble_words(view: dict[str, Any], pi: list[int]) -> str:
    """A marble by its place in its owner's row: ``your second marble`` for the seat's own (the seat on show
    when no single human is "you"), ``Player 3's first marble`` for another."""
    p, i = pi
    you = view.get("you")
    said = say(game_words.marble_words(p, i), view["names"], view.get("seat") if you is None else you)
    return "your" + said[4:] if said.startswith("Your ") else said  # said mid-sentence too


def place_words(place: Spot) -> str:
    if place.kind == "goal":
        return f"goal slot {place.number + 1}"
    if place.kind == "track":
        return f"space {place.number}"
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
        return f"back to {place_words(spot(move['to']))}"
    if kind in ("move", "move_goal"):
        steps = "1 step" if move["steps"] == 1 else f"{move['steps']} steps"
        return f"{steps} to {place_words(spot(move['to']))}"
    return f"{kind} {move.get('card', '')}".strip()


# ----------------------------------------------------------------------------------- geometry


class Spot(NamedTuple):
    """A place on the ring, as a value: a track space (``owner`` None), or a goal slot or a lot place of
    ``owner`` (a lot has one place per marble)."""

    kind: str
    """``track``, ``goal`` or ``lot``."""
    number: int
    """The space, the goal slot, or the lot place (the marble's number), from 0."""
    owner: int | None = None

    @property
    def key(self) -> str:
        """The drawing's name of the place (``data-place``, ``data-route``): ``t5``, ``2:g1``, ``2:lot0``."""
        if self.kind == "track":
            return f"t{self.number}"
        return f"{self.owner}:{'g' if self.kind == 'goal' else 'lot'}{self.number}"


def spot(place: Place, marble: int = 0) -> Spot:
    """Where the view's ``place`` (``{"track": 5}``, ``{"goal": [2, 1]}``, ``{"lot": 2}``) is drawn: the lot
    place is that of marble number ``marble`` (a lot is drawn with one place per marble)."""
    if "track" in place:
        return Spot("track", place["track"])
    if "goal" in place:
        owner, slot = place["goal"]
        return Spot("goal", slot, owner)
    return Spot("lot", marble, place["lot"])


@dataclass(frozen=True)
class Ring:
    """Where everything of a ``players``-player ring is drawn, with ``bottom``'s stretch at the bottom."""

    players: int
    bottom: int
    radius: float
    """The track's radius."""
    space: float
    """The radius of a space (and of a marble)."""
    gap: float
    """The distance between neighbouring lane or lot places."""

    @classmethod
    @functools.lru_cache(maxsize=64)
    def of(cls, players: int, bottom: int) -> Ring:
        radius = SIZE / 2 - 10.0
        for _ in range(
            4
        ):  # the margin outside the ring (the lot) depends on the spaces' size, which depends on the radius
            pitch = 2 * math.pi * radius / (SECTOR * players)
            space = min(0.48 * pitch, 26.0)
            gap = max(2.3 * space, 2 * space + 8, 22.0)
            radius = SIZE / 2 - gap - space - 8
        return cls(players, bottom, radius, space, gap)

    @property
    def size(self) -> int:
        return SECTOR * self.players

    def angle(self, position: float) -> float:
        """The angle (radians, clockwise on screen from the right) of a track position (may be fractional)."""
        middle = SECTOR * self.bottom + (SECTOR - 1) / 2
        return math.pi / 2 + (position - middle) * 2 * math.pi / self.size

    def at(self, position: float, radius: float) -> tuple[float, float]:
        a = self.angle(position)
        return SIZE / 2 + radius * math.cos(a), SIZE / 2 + radius * math.sin(a)

    def entry(self, p: int) -> int:
        return (SECTOR * p - 2) % self.size

    @functools.lru_cache(maxsize=4096)  # noqa: B019 (rings are few, small and cached themselves)
    def point(self, place: Spot) -> tuple[float, float]:
        """The centre of a place."""
        if place.kind == "track":
            return self.at(place.number, self.radius)
        p = int(place.owner or 0)
        if place.kind == "goal":
            return self.at(self.entry(p), self.radius - self.gap * (place.number + 1))
        return self.lot_point(p, place.number)

    def lot_point(self, p: int, slot: int) -> tuple[float, float]:
        """Lot places (``2:lot1``): outside the ring, centred on the home, one per marble, spaced as the lane."""
        step = self.gap / (2 * math.pi * (self.radius + self.gap) / self.size)
        return self.at(SECTOR * p + (slot - 1.5) * step, self.radius + self.gap)


@functools.lru_cache(maxsize=8192)
def empty_place(ring: Ring, place: Spot, classes: str, number: str, words: str) -> str:
    """A place with no marble and nothing to click (most of the ring, the same from one drawing to the next)."""
    x, y = ring.point(place)
    inner = f'<circle class="cbl-spot" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(ring.space)}"/>'
    if number:
        size = fmt(min(ring.space * 0.95, 20))
        inner += f'<text class="cbl-num" x="{fmt(x)}" y="{fmt(y)}" font-size="{size}">{number}</text>'
    return f'<g class="cbl-place {classes}" data-place="{esc(place.key)}"><title>{esc(words)}</title>{inner}</g>'


def fmt(x: float) -> str:
    return f"{x:.1f}"


def route(ring: Ring, owner: int, start: Spot, end: Spot, kind: str) -> list[Spot]:
    """The places a marble of ``owner`` passed on its way (in order, both ends included)."""
    if start.kind == "lot" or kind == "swap":
        return [start, end]
    if start.kind == "goal":
        return [Spot("goal", k, owner) for k in range(start.number, end.number + 1)]
    here = start.number
    places = [start]
    if kind == "back":
        while here != end.number and len(places) <= ring.size:
            here = (here - 1) % ring.size
            places.append(Spot("track", here))
        return places
    stop = ring.entry(owner) if end.kind == "goal" else end.number
    while here != stop and len(places) <= ring.size:
        here = (here + 1) % ring.size
        places.append(Spot("track", here))
    if end.kind == "goal":
        places += [Spot("goal", k, owner) for k in range(end.number + 1)]
    return places


def path_data(ring: Ring, places: list[Spot]) -> str:
    """An SVG path through ``places``: arcs along the track, straight lines elsewhere."""
    points = [ring.point(k) for k in places]
    parts = [f"M{fmt(points[0][0])},{fmt(points[0][1])}"]
    for a, b, (x, y) in zip(places, places[1:], points[1:], strict=False):
        if a.kind == "track" and b.kind == "track" and len(places) > 2:
            sweep = 1 if (b.number - a.number) % ring.size == 1 else 0
            parts.append(f"A{fmt(ring.radius)},{fmt(ring.radius)} 0 0 {sweep} {fmt(x)},{fmt(y)}")
        else:
            parts.append(f"L{fmt(x)},{fmt(y)}")
    return " ".join(parts)


# ----------------------------------------------------------------------------------- the table


def _legend_spot(classes: str) -> str:
    """A small picture of one kind of place on the ring, drawn with the ring's own classes."""
    return (f'<svg class="legend-svg" viewBox="-14 -14 28 28" aria-hidden="true"><g class="{classes}">'
            '<circle class="cbl-spot" r="10"/></g></svg>')


LEGEND = legend([
    ('<svg class="legend-svg" viewBox="-14 -14 28 28" aria-hidden="true"><g class="cbl-marble seat-0">'
     '<circle r="11"/><text text-anchor="middle" dominant-baseline="central" font-size="13">1</text></g></svg>',
     "a marble, numbered by its player (its own number beside it when the ring is large)"),
    (_legend_spot("cbl-home seat-0"), "a player's home: the space where their marbles come out of the lot"),
    (_legend_spot("cbl-entry seat-0"), "a player's goal entry: from here their marbles may turn into the goal"),
    (_legend_spot("cbl-goal seat-0"), "a goal slot (four per player, off the track)"),
    (_legend_spot("cbl-lot seat-0"), "a place in the lot, where a player's marbles wait to come out"),
    ('<svg class="legend-svg" viewBox="-14 -14 28 28" aria-hidden="true"><path class="cbl-path seat-0" '
     'd="M-11,7 Q0,-14 11,7" stroke-width="4"/></svg>', "a player's last turn: the way each marble went"),
    ('<svg class="legend-svg" viewBox="-14 -14 28 28" aria-hidden="true"><g class="cbl-mover seat-1">'
     '<circle r="10"/><text font-size="12">2</text></g></svg>',
     "who made that turn: their number, beside where it ended"),
])
"""What the ring's marks mean (the page shows it under the table: see ``drawing.legend_html``)."""


def render(view: dict[str, Any], selection: Selection | None) -> str:
    players: int = view["players"]
    moves: dict[str, dict[str, Any]] = view.get("moves") or {}
    seven = view.get("seven")

    # -- what is selected ---------------------------------------------------------------
    chosen = Choosing.of(view, selection)
    card_sel, marble_sel, piece_actions = chosen.card, chosen.marble, chosen.pieces
    burning = bool(moves) and all(m["kind"] == "burn" for m in moves.values())
    lot_actions, loose = chosen.outs, chosen.loose
    pick_card = None if seven else card_sel

    # -- targets on the board for the selected marble -------------------------------------
    space_action: dict[Spot, str] = {}
    if marble_sel is not None:
        for t in piece_actions[marble_sel]:
            move = moves[t]
            if move["kind"] == "swap":
                target = marble_place(view, move["with"])
            else:
                target = spot(move["to"])
            space_action.setdefault(target, t)
    space_action.update(lot_actions)
    selectable = {marble: Pick(card=pick_card, marble=marble) for marble in piece_actions}

    ring = ring_svg(view, space_action, selectable, marble_sel, card_sel if card_sel and not seven else None)
    side = (
        info_html(view, view["names"])
        + hand_html(view, moves, card_sel, burning)
        + choices_html(view, card_sel, marble_sel, piece_actions, loose, seven, pick_card)
        + seats_html(view)
    )
    return (
        f'<div class="cbl-table cbl-n{players}"><div class="cbl-ring-area"><div class="cbl-board zoomable">{ring}</div>'
        f'</div><div class="cbl-side">{side}</div></div>'
    )


def marble_place(view: dict[str, Any], pi: list[int]) -> Spot:
    return spot(view["marbles"][pi[0]][pi[1]], pi[1])


def ring_svg(
    view: dict[str, Any], space_action: dict[Spot, str], selectable: dict[Marble, Pick], marble_sel: Marble | None,
    trying: str | None = None,
) -> str:
    """The whole track as one SVG: sectors, spaces, lanes, lots, names, the last turns' paths, the marbles
    (``trying``: the chosen card, so a click on a marble it cannot move asks the engine why)."""
    drawing = RingDrawing.of(view, space_action, selectable, marble_sel, trying)
    ring = drawing.ring
    outside = numbered_outside(ring)
    parts = [
        f'<svg class="cbl-ring" viewBox="0 0 {SIZE} {SIZE}" role="group" '
        f'aria-label="The track: {ring.size} spaces, forward runs clockwise">'
    ]
    for p in range(ring.players):
        parts.append(sector_svg(ring, p, p == view.get("current_player")))
        parts.append(lane_svg(ring, p))
    parts.append(names_svg(view, ring))
    parts.append(numbers_svg(ring, outside))
    parts.append(drawing.places_svg(outside))
    parts.append(recent_svg(view, ring))
    parts.append("</svg>")
    return "".join(parts)


def sector_svg(ring: Ring, p: int, turn: bool) -> str:
    """A band in player ``p``'s colour under their 18 spaces, outlined (``turn``) when they are to move."""
    a0, a1 = ring.at(SECTOR * p - 0.5, ring.radius), ring.at(SECTOR * p + SECTOR - 0.5, ring.radius)
    arc = f"M{fmt(a0[0])},{fmt(a0[1])} A{fmt(ring.radius)},{fmt(ring.radius)} 0 0 1 {fmt(a1[0])},{fmt(a1[1])}"
    if ring.players == 1:
        mid = ring.at(SECTOR * p + 8.5, ring.radius)
        arc = (
            f"M{fmt(a0[0])},{fmt(a0[1])} A{fmt(ring.radius)},{fmt(ring.radius)} 0 0 1 {fmt(mid[0])},{fmt(mid[1])}"
            f" A{fmt(ring.radius)},{fmt(ring.radius)} 0 0 1 {fmt(a1[0])},{fmt(a1[1])}"
        )
    outline = " cbl-turn" if turn else ""
    return f'<path class="cbl-sector seat-{p}{outline}" d="{arc}" stroke-width="{fmt(ring.space * 2.6)}"/>'


def lane_svg(ring: Ring, p: int) -> str:
    """Player ``p``'s goal lane: a band from their goal entry inwards to their last goal slot."""
    lane_start = ring.point(Spot("track", ring.entry(p)))
    lane_end = ring.point(Spot("goal", MARBLES - 1, p))
    return (
        f'<line class="cbl-lane seat-{p}" x1="{fmt(lane_start[0])}" y1="{fmt(lane_start[1])}" '
        f'x2="{fmt(lane_end[0])}" y2="{fmt(lane_end[1])}" stroke-width="{fmt(ring.space * 2.4)}"/>'
    )


def numbered_outside(ring: Ring) -> list[int]:
    """The spaces numbered outside the ring: every few spaces, but not the homes (numbered on their place)."""
    every = 3 if ring.players <= 2 else 6
    return [n for n in range(ring.size) if n % every == 0 and n % SECTOR]


def numbers_svg(ring: Ring, outside: list[int]) -> str:
    """The large numbers outside the ring (of the spaces ``outside``)."""
    size = min(ring.gap * 0.75, 34.0)
    numbers = []
    for n in outside:
        x, y = ring.at(n, ring.radius + ring.space + 4 + size * 0.55)
        numbers.append(f'<text x="{fmt(x)}" y="{fmt(y)}">{n}</text>')
    return f'<g class="cbl-numbers" font-size="{fmt(size)}" aria-hidden="true">{"".join(numbers)}</g>'


@dataclass
class RingDrawing:
    """The places of one drawing of the ring: what stands on each, what a click on it does, and its name."""

    view: dict[str, Any]
    ring: Ring
    space_action: dict[Spot, str]
    """The action a click on a place plays (a landing space of the chosen marble, a lot place to move out of)."""
    selectable: dict[Marble, Pick]
    """The selection a click on a marble makes."""
    marble_sel: Marble | None
    trying: str | None
    """The chosen card: a click on a marble it cannot move asks the engine why."""
    where: dict[Spot, list[int]]
    """The marble (``[player, marble]``) on each place that holds one."""
    home_of: dict[int, int]
    entry_of: dict[int, int]
    poss: list[str]
    """Each player's possessive, mid-sentence: "your", "Player 2's"."""
    hit: float
    """The least radius of the invisible circle that makes a small target easier to hit."""
    routes: dict[Marble, list[Spot]]
    """The places each marble passed on its latest move along the track or into its goal (at least one between
    where it was and where it is): the page slides it through them."""

    @staticmethod
    def of(
        view: dict[str, Any], space_action: dict[Spot, str], selectable: dict[Marble, Pick],
        marble_sel: Marble | None, trying: str | None,
    ) -> RingDrawing:
        players: int = view["players"]
        seat, you = view.get("seat"), view.get("you")
        bottom = seat if seat is not None else you if you is not None else 0
        ring = Ring.of(players, int(bottom))
        where: dict[Spot, list[int]] = {}
        for p, locations in enumerate(view["marbles"]):
            for i, loc in enumerate(locations):
                where[spot(loc, i)] = [p, i]
        poss = [say(f"- {{{p}:poss}}", view["names"], you)[2:] for p in range(players)]
        hit = min(max(ring.space * 1.5, 16.0), 0.95 * min(2 * math.pi * ring.radius / ring.size, ring.gap))
        return RingDrawing(
            view, ring, space_action, selectable, marble_sel, trying, where,
            home_of={h: q for q, h in enumerate(view["homes"])}, entry_of={e: q for q, e in enumerate(view["entries"])},
            poss=poss, hit=hit, routes=latest_routes(view, ring, where),
        )

    def places(self, outside: list[int]) -> Iterator[tuple[Spot, str, str]]:
        """Every place with its classes and its small number: the track's spaces (homes and goal entries marked,
        a number inside the spaces not numbered ``outside`` when it fits, and inside every home), then each
        player's goal (four slots) and lot (a place for each marble)."""
        for n in range(self.ring.size):
            classes = ""
            if n in self.home_of:
                classes += f" cbl-home seat-{self.home_of[n]}"
            if n in self.entry_of:
                classes += f" cbl-entry seat-{self.entry_of[n]}"
            small = self.ring.space >= 16 and n not in outside or n in self.home_of
            yield Spot("track", n), classes.strip(), str(n) if small else ""
        for p in range(self.ring.players):
            yield from ((Spot("goal", slot, p), f"cbl-goal seat-{p}", "") for slot in range(MARBLES))
            yield from ((Spot("lot", slot, p), f"cbl-lot seat-{p}", "") for slot in range(MARBLES))

    def places_svg(self, outside: list[int]) -> str:
        """Every place, the ones a tap does something on drawn last, so that their hit circles (larger than the
        place) lie over the neighbouring places and take the taps near them."""
        quiet: list[str] = []
        tappable: list[str] = []
        for place, classes, number in self.places(outside):
            (tappable if self.taps(place) else quiet).append(self.place_svg(place, classes, number))
        return "".join(quiet + tappable)

    def taps(self, place: Spot) -> bool:
        """Whether a tap on ``place`` does something: a target, a marble to choose, or one whose tap says why the
        chosen card cannot move it."""
        pi = self.where.get(place)
        if place in self.space_action:
            return True
        return pi is not None and (marble_of(pi) in self.selectable or self.tried(place))

    def tried(self, place: Spot) -> bool:
        """Whether a tap on the marble at ``place`` says why the chosen card cannot move it (with room for a
        finger, and not a lot's second marble)."""
        return self.trying is not None and not self.spare(place) and self.roomy(place)

    def label(self, place: Spot) -> str:
        """A place in words: ``space 18, your home``, ``Player 2's goal slot 1`` (counted from 1), ``your lot``."""
        poss = self.poss
        if place.kind == "track":
            n = place.number
            words = f"space {n}"
            if n in self.home_of:
                words += f", {poss[self.home_of[n]]} home"
            if n in self.entry_of:
                words += f", {poss[self.entry_of[n]]} goal entry"
            return words
        if place.kind == "goal":
            return f"{poss[int(place.owner or 0)]} goal slot {place.number + 1}"
        return f"{poss[int(place.owner or 0)]} lot"

    def marble_svg(self, pi: list[int], x: float, y: float) -> str:
        """A marble at ``(x, y)``: its player's number, and its own number beside it when the ring is large."""
        p, i = pi
        r = self.ring.space
        text = ""
        if r >= 9:
            size = r * (0.95 if p >= 9 else 1.15)
            text = f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}">{p + 1}</text>'
        mark = ""
        if r >= 16:
            at = f'x="{fmt(x + r * 0.62)}" y="{fmt(y + r * 0.55)}" font-size="{fmt(r * 0.6)}"'
            mark = f'<text class="cbl-mi" {at}>{i + 1}</text>'
        title = f"{self.poss[p]} marble {i + 1}"
        way = self.routes.get((p, i))
        route = f' data-route="{" ".join(place.key for place in way)}"' if way else ""
        return (
            f'<g class="cbl-marble seat-{p}" data-marble="{p}.{i}" data-piece="marble {p}.{i}"{route}>'
            f"<title>{esc(title)}</title>"
            f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r * 0.92)}"/>{text}{mark}</g>'
        )

    @functools.cached_property
    def tappable(self) -> list[tuple[float, float]]:
        """The centres of the places a tap does something on: targets, and marbles (selectable, or saying why the
        chosen card cannot move them)."""
        places = set(self.space_action)
        places |= {place for place, pi in self.where.items()
                   if marble_of(pi) in self.selectable or (self.trying and not self.spare(place))}
        return [self.ring.point(place) for place in places]

    def spare(self, place: Spot) -> bool:
        """Whether ``place`` is a lot place behind another marble of that lot: a tap on the lot's first marble says
        why the chosen card brings none out (the lot's marbles are alike), and the others leave it room."""
        return place.kind == "lot" and any(
            other.kind == "lot" and other.owner == place.owner and other.number < place.number for other in self.where)

    def hit_radius(self, place: Spot) -> float:
        """A tappable place's hit radius: as large as a finger needs (:data:`HIT_MOST`), but short of half the way
        to the nearest other tappable place (two hit areas never overlap), and never under :attr:`hit`."""
        x, y = self.ring.point(place)
        nearest = min((math.dist((x, y), other) for other in self.tappable if other != (x, y)), default=2 * HIT_MOST)
        return max(self.hit, min(HIT_MOST, 0.48 * nearest))

    def roomy(self, place: Spot) -> bool:
        """Whether a tappable place has room for a finger: its hit circle reaches :data:`TRY_LEAST` around it, and
        twice that across where the drawing's edge cuts it (a lot at the top or the bottom of the ring)."""
        x, y = self.ring.point(place)
        radius = self.hit_radius(place)
        edge = min(x, y, SIZE - x, SIZE - y)
        return radius >= TRY_LEAST and radius + min(radius, edge) >= 2 * TRY_LEAST

    def place_svg(self, place: Spot, classes: str, number: str = "") -> str:
        """One place (space, goal slot or lot place) with its marble, clickable when it is a target or selectable."""
        view, r = self.view, self.ring.space
        pi = self.where.get(place)
        words = self.label(place)
        if pi is None and place not in self.space_action:
            return empty_place(self.ring, place, classes, number, words)
        x, y = self.ring.point(place)
        attrs = ""
        cls = f"cbl-place {classes}"
        action = self.space_action.get(place)
        if action is not None:
            cls += " target"
            words = f"{words}: {choice_words(view, view['moves'][action])}"
            attrs = f' data-action="{esc(action)}"'
        elif pi is not None and marble_of(pi) in self.selectable:
            cls += " selected" if marble_of(pi) == self.marble_sel else " target"
            words = f"{marble_words(view, pi)} on {words}"
            attrs = f' data-select="{esc(selecting(self.selectable[marble_of(pi)]))}"'
        if attrs:
            attrs += ' role="button" tabindex="0"'  # its name is its <title>: the same words
        elif pi is not None and self.trying is not None and self.tried(place):
            # the chosen card cannot move this marble: a click says why
            attrs = tried(tried_move(self.trying, pi))
        inner = f'<circle class="cbl-spot" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}"/>'
        if attrs:  # a larger, invisible circle makes a small target easier to hit (never over a neighbour's centre)
            inner = f'<circle class="cbl-hit" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(self.hit_radius(place))}"/>' + inner
        if pi is not None:
            inner += self.marble_svg(pi, x, y)
        elif number:
            inner += (
                f'<text class="cbl-num" x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(min(r * 0.95, 20))}">{number}</text>'
            )
        return f'<g class="{cls}" data-place="{esc(place.key)}"{attrs}><title>{esc(words)}</title>{inner}</g>'


def names_svg(view: dict[str, Any], ring: Ring) -> str:
    """Each player's name inside the ring at the middle of their stretch, with a line of marks under it.

    Each name block is sized to fit a circle that stays inside the track and clear of its neighbours' circles.
    """
    players: int = view["players"]
    names: list[str] = view["names"]
    outer = ring.radius - ring.space - 12  # the names stay inside this circle
    share = math.sin(math.pi / players) * 0.95 if players > 1 else 1.0
    out = []
    partner = {}
    for team in view.get("teams") or []:
        partner[team[0]], partner[team[1]] = team[1], team[0]
    for p in range(players):
        name = names[p]
        lines = [name]
        if len(name) > 12 and " " in name:  # two lines: before a bracket, else at the space nearest the middle
            cut = name.find(" (") if " (" in name[1:] else -1
            if cut < 1:
                cut = min((i for i, c in enumerate(name) if c == " "), key=lambda i: abs(i - len(name) / 2))
            lines = [name[:cut], name[cut + 1 :]]
        count = view["hand_counts"][p]
        marks = ["1 card" if count == 1 else f"{count} cards"]
        if p == view.get("dealer"):
            marks.append("dealer")
        if p in view.get("finished", []):
            marks.append("✓ all in goal")
        if p in partner:
            marks.append(f"⚭ {partner[p] + 1}")
        mark_text = " · ".join(marks)
        # the block's half-width and half-height per unit of font size (bold text: about 0.7 of the size a letter)
        wide = 0.35 * max(max(len(line) for line in lines), 0.62 * len(mark_text))
        high = 0.5 * (len(lines) + 0.8)
        reach = math.hypot(wide, high)
        size = max(14.0, min(44.0, outer * share / (reach * (1 + share))))
        centre = outer - size * reach
        x, y = ring.at(SECTOR * p + 8.5, centre)
        top = y - size * high
        rows = "".join(
            f'<tspan x="{fmt(x)}" y="{fmt(top + size * (k + 0.5))}">{esc(line)}</tspan>' for k, line in enumerate(lines)
        )
        small = size * 0.62
        turn = " cbl-turn" if p == view.get("current_player") else ""
        out.append(
            f'<g class="cbl-who seat-{p}{turn}" data-seat="{p}"><text class="cbl-name" text-anchor="middle" '
            f'font-size="{fmt(size)}">{rows}</text><text class="cbl-marks" text-anchor="middle" x="{fmt(x)}" '
            f'y="{fmt(top + size * len(lines) + small * 0.6)}" font-size="{fmt(small)}">{esc(mark_text)}</text></g>'
        )
    return "".join(out)


def latest_routes(view: dict[str, Any], ring: Ring, where: dict[Spot, list[int]]) -> dict[Marble, list[Spot]]:
    """Each marble's way on its latest recorded move that ended where it stands (``view["recent"]``), when it passed
    a place on the way: along the track, backwards with a 4, into the goal. A move out of the lot, a swap and a
    marble knocked back to its lot go straight, so they have none."""
    routes: dict[Marble, list[Spot]] = {}
    for entries in (view.get("recent") or {}).values():
        for facts in entries:
            for p, i, _, end, places in moved_marbles(ring, facts):
                if len(places) > 2 and where.get(end) == [p, i]:
                    routes[(p, i)] = places
    return routes


def moved_marbles(ring: Ring, facts: dict[str, Any]) -> Iterator[tuple[int, int, Spot, Spot, list[Spot]]]:
    """Each marble a recorded move moved: its owner, its number, where it was, where it went, and the places it
    passed on the way (both ends included)."""
    for step in facts.get("moved") or []:
        p, i = step["marble"]
        start, end = spot(step["from"], i), spot(step["to"], i)
        yield p, i, start, end, route(ring, p, start, end, facts.get("kind", ""))


def mover_badge(view: dict[str, Any], ring: Ring, seat: int, landed: Spot) -> str:
    """Whose last turn ended at ``landed``, not by colour alone: the mover's number in a badge beside it (inside
    the track, or beside the goal lane), named in words ("last move of Computer 2")."""
    r = max(ring.space * 0.62, 9.0)
    (cx, cy), away = ring.point(landed), ring.space * 2.1
    if landed.kind == "track":
        a = ring.angle(landed.number)
        x, y = cx - away * math.cos(a), cy - away * math.sin(a)
    else:
        a = ring.angle(ring.entry(int(landed.owner or 0)))
        x, y = cx - away * math.sin(a), cy + away * math.cos(a)
    words = last_move_words(view, seat)
    return (
        f'<g class="cbl-mover seat-{seat}" data-seat="{seat}" role="img" aria-label="{esc(words)}">'
        f"<title>{esc(words)}</title>"
        f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}"/>'
        f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(r * (1.1 if seat < 9 else 0.9))}">{seat + 1}</text></g>'
    )


def recent_svg(view: dict[str, Any], ring: Ring) -> str:
    """Each seat's last turn: every moved marble's path (marked, drawn briefly), and knocked-out marbles' way home."""
    out = []
    names = view["names"]
    for seat, entries in sorted((view.get("recent") or {}).items(), key=lambda kv: int(kv[0])):
        ended: Spot | None = None  # where the turn's last marble landed
        for facts in entries:
            moved = facts.get("moved") or []
            for p, i, start, end, places in moved_marbles(ring, facts):
                (sx, sy), (x, y) = ring.point(places[0]), ring.point(places[-1])
                words = say(
                    f"{{{int(seat)}:poss}} last turn: {game_words.marble_words(p, i)} from {place_words(start)}"
                    f" to {place_words(end)}",
                    names,
                    view.get("you"),
                )
                out.append(
                    f'<g class="cbl-recent seat-{p}" data-seat="{int(seat)}"><title>{esc(words)}</title>'
                    f'<path class="cbl-path" pathLength="1" data-marble="{p}.{i}" '
                    f'data-route="{" ".join(place.key for place in places)}" d="{path_data(ring, places)}" '
                    f'stroke-width="{fmt(max(ring.space * 0.7, 6))}"/>'
                    f'<circle class="cbl-from" cx="{fmt(sx)}" cy="{fmt(sy)}" r="{fmt(ring.space * 0.55)}"/>'
                    f'<circle class="cbl-to" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(ring.space * 1.25)}"/></g>'
                )
                ended = end
            for q, i in facts.get("killed") or []:
                # a knocked-out marble was on the mover's landing space, except during a 7 (any space on the way)
                lx, ly = ring.lot_point(q, i)
                line = ""
                if moved and facts.get("card") != "7":
                    landed = moved[0]
                    fx, fy = ring.point(spot(landed["to"]))
                    way = f"M{fmt(fx)},{fmt(fy)} L{fmt(lx)},{fmt(ly)}"
                    line = f'<path class="cbl-path cbl-back" pathLength="1" d="{way}"/>'
                words = say(f"{{{q}:poss}} marble {i + 1} knocked out, back to the lot", names, view.get("you"))
                out.append(
                    f'<g class="cbl-recent cbl-killed seat-{q}" data-seat="{int(seat)}" data-marble="{q}.{i}">'
                    f"<title>{esc(words)}</title>{line}"
                    f'<circle class="cbl-to" cx="{fmt(lx)}" cy="{fmt(ly)}" r="{fmt(ring.space * 1.25)}"/></g>'
                )
        if ended is not None:
            out.append(mover_badge(view, ring, int(seat), ended))
    return f'<g class="cbl-recents">{"".join(out)}</g>' if out else ""


# ----------------------------------------------------------------------------------- beside the ring


def seats_html(view: dict[str, Any]) -> str:
    """With open hands, every other player's cards (the viewer's own hand is shown above)."""
    hands = view.get("hands")
    if hands is None:
        return ""
    names = view["names"]
    rows = []
    for p, cards in enumerate(hands):
        if p == view.get("seat"):
            continue
        rows.append(
            f'<li class="cbl-open seat-{p}" data-seat="{p}"><span class="cbl-badge">{p + 1}</span>'
            f'<span class="cbl-open-name">{esc(names[p])}</span>'
            f'<span class="cbl-cards">{"".join(card(c) for c in cards) or "no cards"}</span></li>'
        )
    return f'<ul class="cbl-hands" aria-label="Open hands">{"".join(rows)}</ul>'


def deck_words(view: dict[str, Any]) -> list[str]:
    """Which deck the game is on, said only when it matters: from the second deck on, and on the last one, whose
    end ends the game (rule 24)."""
    opened, last = view["decks_opened"], view["deck_cap"]
    if opened >= last:
        return ["the last deck: the game ends when it runs out"]
    return [f"deck {opened}"] if opened > 1 else []


def info_html(view: dict[str, Any], names: list[str]) -> str:
    bits = [
        f"Draw pile: {view['draw_count']} cards",
        *deck_words(view),
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
    shows_chosen = chosen_once(card_sel)  # a card is chosen by its rank: the first of that rank shows it
    for text in hand:
        rank = rank_of(text)
        if burning and text in burns:
            cards.append(card(text, action=burns[text], title=f"burn {text}"))
        elif rank in playable and not view.get("seven"):
            cards.append(card(text, select=Pick(card=rank), selected=shows_chosen(rank)))
        elif moves and not burning and isinstance(view.get("seat"), int):
            # it moves nothing now (or a 7 is being split): a click says why, in the engine's words
            cards.append(card(text, attempt=tried_move(rank, [view["seat"], 0])))
        else:
            cards.append(card(text))
    note = ""
    if burning:
        note = '<p class="cbl-note">No card can move a marble: pick a card to burn.</p>'
    elif moves and not view.get("seven") and card_sel is None:
        note = '<p class="hint">Pick a card, then a marble, then where it goes.</p>'
    return (f'<div class="cbl-hand-area"><div class="hand" role="group" aria-label="Your hand">'
            f'{"".join(cards) or "no cards"}</div>{note}</div>')


def choices_html(
    view: dict[str, Any],
    card_sel: str | None,
    marble_sel: Marble | None,
    piece_actions: dict[Marble, list[str]],
    loose: list[str],
    seven: Any,
    pick_card: str | None,
) -> str:
    if card_sel is None:
        return ""
    moves: dict[str, dict[str, Any]] = view["moves"]
    rows = []
    if loose:
        rows.append("".join(button(choice_words(view, moves[t]), action=t) for t in loose))
    pieces = []
    for marble in piece_actions:
        extra = "cbl-pick selected" if marble == marble_sel else "cbl-pick"
        pieces.append(button(marble_words(view, list(marble)), select=Pick(card=pick_card, marble=marble), extra=extra))
    if pieces:
        rows.append('<span class="hint">Marble:</span>' + "".join(pieces))
    if marble_sel is not None:
        choices = "".join(button(choice_words(view, moves[t]), action=t) for t in piece_actions[marble_sel])
        rows.append('<span class="hint">Move:</span>' + choices)
    lead = "7 steps: choose a marble and how far" if seven else f"Playing {card_sel}"
    body = "".join(f'<div class="cbl-row">{r}</div>' for r in rows)
    return f'<div class="cbl-choices"><p class="hint">{esc(lead)}</p>{body}</div>'


# ----------------------------------------------------------------------------------- the unrolled figure


def unrolled(view: dict[str, Any]) -> str:
    """The ring cut open into one strip per player (a figure of the rules page, nothing to click).

    Each strip holds a player's 18 spaces as a U: up the left column from their home (bottom left), down the
    right column, on to the next player's home; their lot and goal sit in the middle column.
    """
    players: int = view["players"]
    names: list[str] = view["names"]
    homes: list[int] = view["homes"]
    entry_of = {e: q for q, e in enumerate(view["entries"])}
    where: dict[Spot, list[int]] = {}
    for p, locations in enumerate(view["marbles"]):
        for i, loc in enumerate(locations):
            if "lot" not in loc:
                where[spot(loc, i)] = [p, i]

    def marble(pi: list[int]) -> str:
        p, i = pi
        wide = " cbl-two" if p >= 9 else ""
        return f'<span class="cbl-m seat-{p}{wide}">{p + 1}<small>{i + 1}</small></span>'

    def cell(place: Spot, number: str, extra: str) -> str:
        pi = where.get(place)
        inner = marble(pi) if pi is not None else f'<span class="cbl-n">{esc(number)}</span>'
        return f'<div class="cbl-space {extra}">{inner}</div>'

    strips = []
    for p in range(players):
        parts = []
        for offset in range(SECTOR):
            space = SECTOR * p + offset
            col, row = (1, COLUMN - offset) if offset < COLUMN else (3, offset - COLUMN + 1)
            extra = f"cbl-c{col} cbl-r{row}"
            if space in homes:
                extra += f" cbl-uhome seat-{homes.index(space)}"
            if space in entry_of:
                extra += f" cbl-uentry seat-{entry_of[space]}"
            parts.append(cell(Spot("track", space), str(space), extra))
        for slot in range(MARBLES):
            parts.append(cell(Spot("goal", slot, p), f"F{slot}", f"cbl-ugoal seat-{p} cbl-c2 cbl-r{8 - slot}"))
        lot = "".join(marble([p, i]) for i, loc in enumerate(view["marbles"][p]) if "lot" in loc)
        parts.append(f'<div class="cbl-ulot cbl-c2">{lot or "lot"}</div>')
        strips.append(
            f'<section class="cbl-strip seat-{p}"><header class="cbl-head">'
            f'<span class="cbl-badge">{p + 1}</span> {esc(names[p])}</header>'
            f'<div class="cbl-grid">{"".join(parts)}</div></section>'
        )
    rows = "\n".join(strips)
    return (
        '<figure class="cbl-unrolled"><figcaption>The same board unrolled: one strip per player, forward from left'
        f' to right.</figcaption>\n<div class="cbl-strips">\n{rows}\n</div></figure>\n'
    )
