// What a player would call a layout defect, found in the table page (#table) as it is drawn now; a list of
// sentences, empty when there is none. Read by e2e/test_overlap.py (mid-game) and e2e/test_keyboard.py (the end).
//  - two runs of text drawn over each other (the middle three fifths of each line's box: a line's spacing may
//    touch the next line's);
//  - a text drawn over a card or a control it is no part of (a mark placed on a card, such as a penny or a token,
//    and a card lying on another in a stack are meant);
//  - a text cut off by a box that neither scrolls nor clamps its lines on purpose, or cut short with "…" (the
//    banner is one line until tapped, on purpose);
//  - the page scrolling sideways.
// Only what can be seen counts: a box that scrolls or clamps its text cuts the text (and a card or control in it)
// to the part it shows, and what is held in place (a sticky hand, a dialog) covers what scrolls under it by
// design, so the two are not compared.
() => {
  // what is held in place (sticky) covers what scrolls under it by design: the two are not compared
  const heldBy = new Map();
  const held = (e) => {
    if (!e || e === document.body) return null;
    if (!heldBy.has(e)) {
      heldBy.set(e, ["sticky", "fixed"].includes(getComputedStyle(e).position) ? e : held(e.parentElement));
    }
    return heldBy.get(e);
  };
  const seen = new Map();
  const shown = (e) => {
    if (!e || e === document.body) return true;
    if (!seen.has(e)) {
      const s = getComputedStyle(e);
      const hidden = s.display === "none" || s.visibility === "hidden" || s.opacity === "0"
        || s.clipPath.startsWith("inset(50%") || (e.parentElement?.matches("details:not([open])") && !e.matches("summary"));
      seen.set(e, !hidden && shown(e.parentElement));
    }
    return seen.get(e);
  };
  const name = (e) => {
    const t = (e.getAttribute("aria-label") || e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${e.tagName.toLowerCase()}${[...e.classList].map((c) => "." + c).join("")} "${t}"`;
  };
  const meet = (a, b) => ({ left: Math.max(a.left, b.left), right: Math.min(a.right, b.right),
    top: Math.max(a.top, b.top), bottom: Math.min(a.bottom, b.bottom) });
  const empty = (r) => r.right - r.left < 1 || r.bottom - r.top < 1;
  const problems = [];
  // a text's ink: its line's box less a fifth at the top and at the bottom (line spacing may touch the next line)
  const ink = (r) => { const h = (r.bottom - r.top) / 5; return { ...r, top: r.top + h, bottom: r.bottom - h }; };
  // the part of a rectangle that can be seen: every box around it that does not let its content overflow cuts it
  const seenPart = (rect, from) => {
    let r = { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom };
    for (let n = from.parentElement; n && n !== document.body && !empty(r); n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") r = meet(r, n.getBoundingClientRect());
    }
    return r;
  };
  // every run of text, as the part of it that can be seen: boxes that scroll or clamp their text cut it to their size
  const texts = [];
  const walker = document.createTreeWalker(document.querySelector("#table"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !shown(node.parentElement)) continue;
    const owner = node.parentElement;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const drawn of range.getClientRects()) {
      let r = { left: drawn.left, right: drawn.right, top: drawn.top, bottom: drawn.bottom };
      for (let n = owner; n && n !== document.body && !empty(r); n = n.parentElement) {
        const s = getComputedStyle(n);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const box = n.getBoundingClientRect();
        const cut = meet(r, box);
        const meant = ["auto", "scroll"].includes(s.overflowX) || ["auto", "scroll"].includes(s.overflowY)
          || s.webkitLineClamp !== "none" || n.dataset.ui === "banner";
        if (!meant && (cut.left > r.left + 1 || cut.right < r.right - 1 || cut.top > r.top + 1 || cut.bottom < r.bottom - 1)) {
          problems.push(`text cut off by its box: ${name(owner)} in ${name(n)}`);
        }
        r = cut;
      }
      if (!empty(r)) {
        const unit = owner.closest(".card, button, text, [data-action], [data-select]") || owner;
        texts.push({ owner, unit, r, held: held(owner), ink: ink(r) });
      }
    }
  }
  // two texts drawn over each other
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], b = texts[j];
      if (a.unit === b.unit || a.owner.contains(b.owner) || b.owner.contains(a.owner)) continue;
      if (a.held !== b.held || empty(meet(a.ink, b.ink))) continue;
      problems.push(`text over text: ${name(a.owner)} and ${name(b.owner)}`);
    }
  }
  // a text drawn over a card or a control it is no part of
  const controls = [...document.querySelectorAll("#table .card, #table button, #table [data-action], #table [data-select]")]
    .filter((e) => shown(e)).map((e) => ({ e, r: seenPart(e.getBoundingClientRect(), e), held: held(e) }))
    .filter((c) => !empty(c.r));  // a card scrolled out of its box's sight is under nothing
  for (const t of texts) {
    for (const c of controls) {
      if (t.held !== c.held || empty(meet(t.ink, c.r))) continue;
      if (c.e.contains(t.owner) || t.owner.contains(c.e) || (t.unit !== t.owner && t.unit.contains(c.e))) continue;
      if (t.owner.closest("svg") || (t.owner.closest(".card") && c.e.matches(".card"))) continue;  // a ring's numbers; a stack
      const on = t.owner.offsetParent;
      if (on && getComputedStyle(t.owner).position === "absolute"
        && (on.contains(c.e) || !empty(meet(on.getBoundingClientRect(), c.r)))) continue;  // a mark on it, or on a card on it
      problems.push(`text over a card or control: ${name(t.owner)} over ${name(c.e)}`);
    }
  }
  for (const e of document.querySelectorAll("#table *")) {
    const s = getComputedStyle(e);
    if (s.textOverflow === "ellipsis" && e.dataset.ui !== "banner" && e.scrollWidth > e.clientWidth + 1 && shown(e)) {
      problems.push(`text cut short: ${name(e)}`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
  }
  return [...new Set(problems)];
}
