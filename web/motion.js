// The table's redraw: the new HTML is morphed into the page in place (idiomorph), so elements keep their identity
// (the focus stays where it was), and then what moved travels from where it was to where it lands (FLIP).
//
// What moves is found by its key: a card's `data-card` (its text, "4♣", or a card's name) or a piece's
// `data-piece` ("marble 2.1"). Before the morph each keyed element's box is read; after it, each key found exactly
// once before and once after slides from its old place to its new one. A key drawn more than once (two decks) pairs
// by identity: each element the morph kept slides from where it was; the others pair up nearest first (a twin
// drawn again where it was pairs with itself, so the card that went from the hand to the board slides there).
// Keyed elements that newly appear fade in, unless a whole new screen appears. With `prefers-reduced-motion: reduce`
// nothing moves. The animations never hold up the game: the new state is in the page as soon as `redraw` returns.
//
// Three attributes tell a slide more than the two places:
// - `data-route` on a moved element: the places it passed (their `data-place` names, in order). It slides through
//   each of them (a marble along the track), when the first is where it was.
// - `data-from` on an element that newly appears: the `data-piece` of where it comes from (a token from its
//   player's supply). It slides from there instead of fading in.
// - `data-gets` on a pile: the key value (`data-card` or `data-piece`) of what it just took in (a bought card
//   going to its deck's pile). When that element leaves the table, a copy of it flies into the pile.

import { Idiomorph } from "../vendor/idiomorph/idiomorph.esm.js";

const KEYS = ["data-card", "data-piece"];
const SELECTOR = KEYS.map((name) => `[${name}]`).join(", ");
const SLIDE_MS = 200; // a computer's further step comes 0.2 s after the last at the normal pace
const ROUTE_MS = { least: 200, most: 300, perPlace: 8 }; // a longer way takes a little longer, never over 300 ms
const APPEAR_MS = 200;
const MOST_APPEARING = 6; // more than this appearing at once is a new screen (a hand-over, another game): no fade
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const pending = new Map(); // element -> the keyed boxes before its first redraw not yet animated
const leaving = new Map(); // element -> [key value, a copy of the element, its box on the screen] that a pile gets

function keyOf(element) {
  for (const name of KEYS) {
    const value = element.getAttribute(name);
    if (value !== null) return `${name}=${value}`;
  }
  return null;
}

// Each key with its elements and their places in `root`; elements not drawn are left out. Places are measured
// from the root's corner: when a line of text above the table comes or goes, the table moves as a whole and
// nothing in it slides.
function places(root) {
  const found = new Map();
  const origin = root.getBoundingClientRect();
  for (const element of root.querySelectorAll(SELECTOR)) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const key = keyOf(element);
    const place = { left: box.left - origin.left, top: box.top - origin.top, width: box.width, height: box.height };
    if (!found.has(key)) found.set(key, []);
    found.get(key).push({ element, place });
  }
  return found;
}

// What slides ([then, now] pairs) and what newly appears, key by key (see the top of this file).
function pairUp(before, after) {
  const moved = [];
  const appearing = [];
  for (const [key, nows] of after) {
    const thens = before.get(key) || [];
    if (thens.length === 1 && nows.length === 1) {
      moved.push([thens[0], nows[0]]);
      continue;
    }
    const kept = (now) => thens.find((then) => then.element === now.element);
    for (const now of nows) if (kept(now)) moved.push([kept(now), now]);
    const newly = nows.filter((now) => !kept(now));
    const gone = thens.filter((then) => !nows.some((now) => now.element === then.element));
    while (newly.length && gone.length) { // the nearest two first: a twin redrawn in place pairs with itself
      let best = null;
      for (const now of newly) {
        for (const then of gone) {
          const far = Math.hypot(now.place.left - then.place.left, now.place.top - then.place.top);
          if (!best || far < best.far) best = { now, then, far };
        }
      }
      moved.push([best.then, best.now]);
      newly.splice(newly.indexOf(best.now), 1);
      gone.splice(gone.indexOf(best.then), 1);
    }
    appearing.push(...newly);
  }
  return { moved, appearing };
}

// The element's own offset (its `translate`) that moves it by (dx, dy) on the screen: measured, so that zoom, an
// SVG's scale and a rotated parent are all taken into account. Null when it cannot be measured.
function ownOffset(element, dx, dy) {
  const offset = offsetter(element);
  return offset && offset(dx, dy);
}

// The function from a move on the screen to the element's own offset (see ownOffset), measured once.
function offsetter(element) {
  const base = element.getBoundingClientRect();
  element.style.translate = "100px 0px";
  const across = element.getBoundingClientRect();
  element.style.translate = "0px 100px";
  const down = element.getBoundingClientRect();
  element.style.translate = "";
  const [a, b] = [(across.left - base.left) / 100, (across.top - base.top) / 100];
  const [c, d] = [(down.left - base.left) / 100, (down.top - base.top) / 100];
  const det = a * d - b * c;
  if (Math.abs(det) < 1e-6) return null;
  return (dx, dy) => [(dx * d - dy * c) / det, (dy * a - dx * b) / det];
}

function centre(box) {
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

// The way through the places of the element's `data-route`, as moves from where it lands (screen pixels), when the
// route starts where the element was (`moved`: from there to where it is); null otherwise.
function routeOf(element, root, moved) {
  const names = (element.getAttribute("data-route") || "").split(" ").filter(Boolean);
  if (names.length < 3) return null;
  const points = [];
  for (const name of names) {
    const place = root.querySelector(`[data-place="${CSS.escape(name)}"]`);
    if (!place) return null;
    points.push(centre(place.getBoundingClientRect()));
  }
  const end = points[points.length - 1];
  const way = points.map((point) => ({ x: point.x - end.x, y: point.y - end.y }));
  const { width, height } = element.getBoundingClientRect();
  const near = Math.max(width, height, 8) / 2;
  if (Math.hypot(way[0].x - moved.x, way[0].y - moved.y) > near) return null;
  return way;
}

// Along a route: one keyframe per place, spaced by the distance covered, so the pace is even.
function slideAlong(element, way) {
  const offset = offsetter(element);
  if (!offset) return false;
  const lengths = [0];
  for (let k = 1; k < way.length; k += 1) {
    lengths.push(lengths[k - 1] + Math.hypot(way[k].x - way[k - 1].x, way[k].y - way[k - 1].y));
  }
  const total = lengths[lengths.length - 1] || 1;
  const keyframes = way.map((point, k) => {
    const [x, y] = offset(point.x, point.y);
    return { translate: `${x}px ${y}px`, offset: lengths[k] / total };
  });
  const duration = Math.min(ROUTE_MS.most, ROUTE_MS.least + ROUTE_MS.perPlace * (way.length - 2));
  const animation = element.animate(keyframes, { duration, easing: "ease-in-out" });
  animation.id = "card-move";
  element.classList.add("moving");
  const done = () => element.classList.remove("moving");
  animation.finished.then(done, done);
  return true;
}

// The box between the element and the root that clips it (a scrolled grid) and that its old place lies outside
// of: sliding inside that box would cut the card off on its way. Null when nothing clips it.
function clipperOnTheWay(element, root, from) {
  const { width, height } = element.getBoundingClientRect();
  for (let box = element.parentElement; box && box !== root; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const edge = box.getBoundingClientRect();
    if (from.left < edge.left || from.top < edge.top || from.left + width > edge.right || from.top + height > edge.bottom) {
      return box;
    }
  }
  return null;
}

const ghosts = new Set(); // copies flying over the page (see fly), removed when they land or the table redraws again

// A copy of the element flies over the page from `from` to where the element is (screen places), while the
// element itself stays unseen: a card coming from the hand into a scrolled grid is not cut off by the grid's edge.
function fly(element, from) {
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const ghost = element.cloneNode(true);
  for (const node of [ghost, ...ghost.querySelectorAll("*")]) {
    for (const name of ["id", "tabindex", "role", "title", "data-card", "data-piece", "data-action", "data-select", "data-ui"]) {
      node.removeAttribute(name);
    }
  }
  ghost.setAttribute("aria-hidden", "true");
  ghost.classList.add("moving", "flying");
  Object.assign(ghost.style, {
    position: "fixed", left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`,
    margin: "0", zIndex: "50", pointerEvents: "none", fontSize: style.fontSize, color: style.color,
  });
  document.body.append(ghost);
  ghosts.add(ghost);
  const flight = ghost.animate(
    [{ translate: `${from.left - box.left}px ${from.top - box.top}px` }, { translate: "0px 0px" }],
    { duration: SLIDE_MS, easing: "ease-out" },
  );
  flight.id = "card-move";
  const unseen = element.animate([{ opacity: 0 }, { opacity: 0 }], { duration: SLIDE_MS });
  unseen.id = "card-unseen";
  const land = () => { ghost.remove(); ghosts.delete(ghost); unseen.cancel(); };
  flight.finished.then(land, land);
}

function slide(element, from, to, root) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  const way = element.hasAttribute("data-route") && routeOf(element, root, { x: dx, y: dy });
  if (way && slideAlong(element, way)) return;
  const origin = root.getBoundingClientRect();
  const onScreen = { left: origin.left + from.left, top: origin.top + from.top };
  const html = element instanceof HTMLElement; // a copy of an SVG shape would not be drawn outside its drawing
  if (html && getComputedStyle(element).transform === "none" && clipperOnTheWay(element, root, onScreen)) {
    fly(element, onScreen);
    return;
  }
  const offset = ownOffset(element, dx, dy);
  if (!offset) return;
  const animation = element.animate(
    [{ translate: `${offset[0]}px ${offset[1]}px` }, { translate: "0px 0px" }],
    { duration: SLIDE_MS, easing: "ease-out" },
  );
  animation.id = "card-move";
  element.classList.add("moving");
  animation.finished.then(() => element.classList.remove("moving"), () => element.classList.remove("moving"));
}

function appear(element) {
  const animation = element.animate(
    [{ opacity: 0, scale: "0.85" }, { opacity: 1, scale: "1" }],
    { duration: APPEAR_MS, easing: "ease-out" },
  );
  animation.id = "card-appear";
}

// A copy of what left the table flies from where it was (`box`, on the screen) into the pile that got it.
function intoPile(copy, box, pile) {
  const target = pile.getBoundingClientRect();
  if (target.width === 0 && target.height === 0) return;
  copy.setAttribute("aria-hidden", "true");
  copy.classList.add("moving", "flying");
  Object.assign(copy.style, {
    position: "fixed", left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`,
    margin: "0", zIndex: "50", pointerEvents: "none", transformOrigin: "center",
  });
  document.body.append(copy);
  ghosts.add(copy);
  const [from, to] = [centre(box), centre(target)];
  const shrink = Math.min(1, target.width / Math.max(box.width, 1));
  const flight = copy.animate(
    [{ translate: "0px 0px", scale: "1" }, { translate: `${to.x - from.x}px ${to.y - from.y}px`, scale: `${shrink}` }],
    { duration: SLIDE_MS, easing: "ease-in-out" },
  );
  flight.id = "card-move";
  const land = () => { copy.remove(); ghosts.delete(copy); };
  flight.finished.then(land, land);
}

// Before a morph: a copy of each element that a pile of the new content gets (see `data-gets`), with its box.
function departing(element, fresh) {
  const found = [];
  for (const pile of fresh.querySelectorAll("[data-gets]")) {
    const value = pile.getAttribute("data-gets");
    const matches = [...element.querySelectorAll(SELECTOR)].filter((node) => KEYS.some((name) => node.getAttribute(name) === value));
    if (matches.length !== 1) continue;
    const box = matches[0].getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const { fontSize, color } = getComputedStyle(matches[0]);
    const copy = matches[0].cloneNode(true);
    Object.assign(copy.style, { fontSize, color });
    for (const node of [copy, ...copy.querySelectorAll("*")]) {
      for (const name of ["id", "tabindex", "role", "title", ...KEYS, "data-action", "data-select", "data-ui", "data-try"]) {
        node.removeAttribute(name);
      }
    }
    found.push([value, copy, box]);
  }
  return found;
}

function settle(root) {
  const before = pending.get(root);
  const gone = leaving.get(root) || [];
  pending.delete(root);
  leaving.delete(root);
  if (!before || before.size === 0 || !root.isConnected) return;
  for (const animation of root.getAnimations({ subtree: true })) {
    if (["card-move", "card-appear", "card-unseen"].includes(animation.id)) animation.cancel();
  }
  for (const ghost of ghosts) ghost.remove();
  ghosts.clear();
  const after = places(root);
  const { moved, appearing } = pairUp(before, after);
  for (const [then, now] of moved) slide(now.element, then.place, now.place, root);
  const fading = appearing.filter((now) => !comeFrom(now, before, root)).map((now) => now.element);
  if (fading.length <= MOST_APPEARING) fading.forEach(appear);
  for (const [value, copy, box] of gone) {
    if (KEYS.some((name) => after.has(`${name}=${value}`))) continue; // still on the table: it slid there
    const pile = [...root.querySelectorAll("[data-gets]")].find((node) => node.getAttribute("data-gets") === value);
    if (pile) intoPile(copy, box, pile);
  }
}

// A newly drawn element with `data-from` slides from where its source was (centre on centre); false without one.
function comeFrom(now, before, root) {
  const source = now.element.getAttribute("data-from");
  const sources = source !== null && before.get(`data-piece=${source}`);
  if (!sources || sources.length !== 1) return false;
  const then = sources[0];
  const from = { left: then.place.left + (then.place.width - now.place.width) / 2,
                 top: then.place.top + (then.place.height - now.place.height) / 2 };
  slide(now.element, from, now.place, root);
  return true;
}

// Morph `element`'s content into `content` (HTML text, or a node such as a template's content) and animate.
function redraw(element, content) {
  let fresh = content;
  if (typeof content === "string") {
    const template = document.createElement("template");
    template.innerHTML = content;
    fresh = template.content;
  }
  // Nothing keyed drawn yet (a table's first drawing): nothing can slide, and measuring would lay the page out
  // once more before the morph.
  const moving = !reducedMotion.matches && element.isConnected && element.querySelector(SELECTOR) !== null;
  if (moving && !pending.has(element)) {
    pending.set(element, places(element));
    leaving.set(element, departing(element, fresh));
    // Measured once the page's own code has finished this turn (zoom controls added, highlights set), before paint.
    queueMicrotask(() => settle(element));
  }
  Idiomorph.morph(element, fresh, { morphStyle: "innerHTML" });
}

window.cardTableMotion = { redraw };
