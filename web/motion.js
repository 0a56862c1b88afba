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

function slide(element, from, to) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
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
    if (animation.id === "card-move" || animation.id === "card-appear") animation.cancel();
  }
  const after = places(root);
  const appearing = [];
  for (const [key, now] of after) {
    const then = before.get(key);
    if (now === null || then === null) continue;
    if (then === undefined) appearing.push(now.element);
    else slide(now.element, then.place, now.place);
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
