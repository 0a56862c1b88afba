// The table's redraw: the new HTML is morphed into the page in place (idiomorph), so elements keep their identity
// (the focus stays where it was), and then what moved travels from where it was to where it lands (FLIP).
//
// What moves is found by its key: a card's `data-card` (its text, "4♣", or a card's name) or a piece's
// `data-piece` ("marble 2.1"). Before the morph each keyed element's box is read; after it, each key found exactly
// once before and once after slides from its old place to its new one. A key drawn twice (two decks) does not move.
// Keyed elements that newly appear fade in, unless a whole new screen appears. With `prefers-reduced-motion: reduce`
// nothing moves. The animations never hold up the game: the new state is in the page as soon as `redraw` returns.

import { Idiomorph } from "../vendor/idiomorph/idiomorph.esm.js";

const KEYS = ["data-card", "data-piece"];
const SELECTOR = KEYS.map((name) => `[${name}]`).join(", ");
const SLIDE_MS = 300;
const APPEAR_MS = 200;
const MOST_APPEARING = 6; // more than this appearing at once is a new screen (a hand-over, another game): no fade
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const pending = new Map(); // element -> the keyed boxes before its first redraw not yet animated

function keyOf(element) {
  for (const name of KEYS) {
    const value = element.getAttribute(name);
    if (value !== null) return `${name}=${value}`;
  }
  return null;
}

// Each key with its element and its place in `root` (null when the key is drawn more than once); elements not
// drawn are left out. Places are measured from the root's corner: when a line of text above the table comes or
// goes, the table moves as a whole and nothing in it slides.
function places(root) {
  const found = new Map();
  const origin = root.getBoundingClientRect();
  for (const element of root.querySelectorAll(SELECTOR)) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const key = keyOf(element);
    const place = { left: box.left - origin.left, top: box.top - origin.top };
    found.set(key, found.has(key) ? null : { element, place });
  }
  return found;
}

// The element's own offset (its `translate`) that moves it by (dx, dy) on the screen: measured, so that zoom, an
// SVG's scale and a rotated parent are all taken into account. Null when it cannot be measured.
function ownOffset(element, dx, dy) {
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
  return [(dx * d - dy * c) / det, (dy * a - dx * b) / det];
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
  const origin = root.getBoundingClientRect();
  const onScreen = { left: origin.left + from.left, top: origin.top + from.top };
  if (getComputedStyle(element).transform === "none" && clipperOnTheWay(element, root, onScreen)) {
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

function settle(root) {
  const before = pending.get(root);
  pending.delete(root);
  if (!before || before.size === 0 || !root.isConnected) return;
  for (const animation of root.getAnimations({ subtree: true })) {
    if (["card-move", "card-appear", "card-unseen"].includes(animation.id)) animation.cancel();
  }
  for (const ghost of ghosts) ghost.remove();
  ghosts.clear();
  const after = places(root);
  const appearing = [];
  for (const [key, now] of after) {
    const then = before.get(key);
    if (now === null || then === null) continue;
    if (then === undefined) appearing.push(now.element);
    else slide(now.element, then.place, now.place, root);
  }
  if (appearing.length <= MOST_APPEARING) appearing.forEach(appear);
}

// Morph `element`'s content into `content` (HTML text, or a node such as a template's content) and animate.
function redraw(element, content) {
  let fresh = content;
  if (typeof content === "string") {
    const template = document.createElement("template");
    template.innerHTML = content;
    fresh = template.content;
  }
  const moving = !reducedMotion.matches && element.isConnected;
  if (moving && !pending.has(element)) {
    pending.set(element, places(element));
    // Measured once the page's own code has finished this turn (zoom controls added, highlights set), before paint.
    queueMicrotask(() => settle(element));
  }
  Idiomorph.morph(element, fresh, { morphStyle: "innerHTML" });
}

window.cardTableMotion = { redraw };
