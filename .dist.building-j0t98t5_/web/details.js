// A card's details: on a phone the table draws compact card faces (Carbon City Zero's cards show their cost, name,
// income and carbon; their rules and links are read out but not drawn). Holding a finger on a card for half a
// second, a right-click, or the context-menu key (Shift+F10) on a focused card opens its full face in a dialog,
// without playing it. A tap still chooses or plays the card. The dialog takes the focus; Close, Escape or a tap
// outside it closes it, and the focus goes back to the card.

const HOLD_MS = 500;
const SLACK_PX = 10; // a finger that moves further is scrolling, not holding
const CARDS = "#board [data-card]";
const ACTIVE = ["data-action", "data-select", "data-try", "data-ui", "data-card", "data-piece", "data-gets", "id",
  "tabindex", "title", "aria-label", "aria-pressed", "role", "type"];

let dialog = null;
let held = null; // { card, x, y, timer } while a finger rests on a card
let swallowClick = false; // the click that ends a long-press opens nothing and plays nothing

function makeDialog() {
  dialog = document.createElement("dialog");
  dialog.id = "card-details";
  dialog.className = "card-details";
  dialog.setAttribute("aria-labelledby", "card-details-title");
  dialog.innerHTML = '<h2 id="card-details-title"></h2><div class="card-details-face"></div>'
    + '<p><button type="button" class="btn" id="card-details-close">Close</button></p>';
  document.body.append(dialog);
  dialog.querySelector("#card-details-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => { // a tap on the backdrop (outside the dialog's box) closes it
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right
      && event.clientY >= box.top && event.clientY <= box.bottom;
    if (event.target === dialog && !inside) dialog.close();
  });
  dialog.addEventListener("close", () => { if (dialog.opener?.isConnected) dialog.opener.focus(); });
}

// The card drawn again in full: a copy with nothing left that plays, moves or takes the focus.
function fullFace(card) {
  const copy = card.cloneNode(true);
  for (const element of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of ACTIVE) element.removeAttribute(name);
  }
  const face = document.createElement("div");
  face.className = `${copy.className} card-full`;
  face.replaceChildren(...copy.childNodes);
  face.querySelectorAll("button").forEach((button) => button.replaceWith(...button.childNodes));
  return face;
}

// The card's name: a playing card's in words ("10 of spades", from its label "play 10♠ (10 of spades)?"),
// another card's title ("Bike Lanes (cost 2)").
function cardName(card) {
  const label = card.getAttribute("aria-label") || "";
  const words = label.match(/\(([^()]+)\)\??$/);
  return (words && words[1]) || label || card.getAttribute("title") || card.dataset.card;
}

function show(card) {
  if (!dialog) makeDialog();
  if (dialog.open) return;
  dialog.querySelector("#card-details-title").textContent = cardName(card);
  // the game's own classes (its stylesheet's colours) around the copy
  const game = card.closest("#board > *");
  dialog.querySelector(".card-details-face").className = `card-details-face ${game ? game.className : ""}`;
  dialog.querySelector(".card-details-face").replaceChildren(fullFace(card));
  dialog.opener = card;
  dialog.showModal();
  dialog.querySelector("#card-details-close").focus();
}

function letGo() {
  if (held) clearTimeout(held.timer);
  held = null;
}

function wire() {
  addEventListener("pointerdown", (event) => {
    swallowClick = false;
    letGo();
    const card = event.target.closest?.(CARDS);
    if (!card || event.pointerType === "mouse") return;
    held = { card, x: event.clientX, y: event.clientY };
    held.timer = setTimeout(() => { swallowClick = true; show(card); held = null; }, HOLD_MS);
  }, true);
  addEventListener("pointermove", (event) => {
    if (held && Math.hypot(event.clientX - held.x, event.clientY - held.y) > SLACK_PX) letGo();
  }, true);
  for (const name of ["pointerup", "pointercancel"]) {
    addEventListener(name, () => {
      letGo();
      // the click a long-press ends with comes at once, if at all: later clicks (a key on Close) are clicks
      if (swallowClick) setTimeout(() => { swallowClick = false; }, 600);
    }, true);
  }
  addEventListener("click", (event) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
    if (dialog?.open) dialog.querySelector("#card-details-close").focus(); // not the backdrop the finger left
  }, true);
  addEventListener("contextmenu", (event) => {
    const card = event.target.closest?.(CARDS);
    if (!card) return;
    event.preventDefault(); // no browser menu over the card: its details instead
    letGo();
    show(card);
  });
  addEventListener("keydown", (event) => {
    const card = event.target.closest?.(CARDS);
    if (!card || !(event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey))) return;
    event.preventDefault();
    show(card);
  });
}

wire();
