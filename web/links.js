// Playing at your own pace: each turn travels as a link (the game's half is Python's: cardtable_web.links,
// link_host, link_guest, link_door). This half seals and opens the links, and shows them with Share or Copy.
//
// A link is `<this page>#turn=<table>.<seat>.<h|g>.<sealed>`: made by the host (h) for a seat, or by a seat's
// guest (g) for the host. <sealed> is a fresh 12-byte nonce, then the payload Python packed (deflated JSON)
// encrypted with AES-GCM under the seat's key, the link's header (<table>.<seat>.<h|g>) bound to it as associated
// data: without the key nothing in it can be read, and a changed byte, or the header of another seat, fails to open.
// The seat's key (128 bits) is given in its invitation only (`&key=` after the link), kept in the guest's browser,
// and taken out of the address bar as soon as the link is opened.

const $ = (id) => document.getElementById(id);
const LINK = /^turn=([0-9a-f]{10})\.(\d{1,2})\.([hg])\.([A-Za-z0-9_-]+)(?:&key=([A-Za-z0-9_-]{22}))?$/;
const NONCE_BYTES = 12;
const MAX_SEALED = 4000;
const NOT_SECURE = "This page cannot seal or open links here: it must be opened over a secure connection (https).";

let bridge = null; // window.cardTable once Python is ready
const hostRows = new Map(); // seat -> { name, state, link, invitation }
let guestRow = null; // the guest's reply link: { name, link, title }
let guestText = "";
let shown = 0; // bumped whenever the panel starts again: a link sealed for an earlier one is dropped

// ---------------------------------------------------------------- base64url and the seal
function toBase64(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function secure() {
  return Boolean(globalThis.crypto?.subtle);
}

async function aesKey(key, use) {
  return crypto.subtle.importKey("raw", fromBase64(key), { name: "AES-GCM" }, false, [use]);
}

// The packed payload (base64url) sealed for a seat: nonce + ciphertext + tag, in base64url.
async function seal(key, header, packed) {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: nonce, additionalData: new TextEncoder().encode(header) },
    await aesKey(key, "encrypt"), fromBase64(packed));
  const bytes = new Uint8Array(NONCE_BYTES + sealed.byteLength);
  bytes.set(nonce);
  bytes.set(new Uint8Array(sealed), NONCE_BYTES);
  return toBase64(bytes);
}

// The packed payload back (base64url); throws when the key, the header or any byte is not the sealer's.
async function unseal(key, header, text) {
  const bytes = fromBase64(text);
  if (bytes.length <= NONCE_BYTES + 16) throw new Error("too short");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, NONCE_BYTES), additionalData: new TextEncoder().encode(header) },
    await aesKey(key, "decrypt"), bytes.slice(NONCE_BYTES));
  return toBase64(new Uint8Array(plain));
}

function siteAddress() {
  return `${location.origin}${location.pathname}`;
}

// A Wire "link" effect's link: sealed for its seat, with the key after it for an invitation.
async function makeLink({ table, seat, to, key, packed, invite }) {
  const header = `${table}.${seat}.${to === "host" ? "g" : "h"}`;
  const sealed = await seal(key, header, packed);
  return `${siteAddress()}#turn=${header}.${sealed}${invite ? `&key=${key}` : ""}`;
}

// ---------------------------------------------------------------- opening a link
async function openLink(fragment) {
  const found = String(fragment || "").replace(/^#/, "").match(LINK);
  if (!found || found[4].length > MAX_SEALED) { call("linkBroken"); return; }
  if (!secure()) { call("linkSays", NOT_SECURE); return; }
  const [, table, seatText, way, sealed, invitationKey] = found;
  const seat = Number(seatText);
  const key = invitationKey || String(bridge.linkKey(table, seat, way) || "");
  if (!key) { call("linkRefused", table, seat, way); return; }
  let packed;
  try {
    packed = await unseal(key, `${table}.${seat}.${way}`, sealed);
  } catch {
    call("linkBroken");
    return;
  }
  if (invitationKey) history.replaceState(history.state, "", `${location.pathname}#turn=${table}.${seat}.${way}.${sealed}`);
  call("linkOpened", table, seat, way, packed, invitationKey || "");
}

// ---------------------------------------------------------------- what the table shows: links to send
const STATE_WORDS = {
  theirs: (row) => (row.joined ? "their turn: send them this link."
    : "their turn: send them this link, their invitation (it holds their key: to them alone)."),
  waiting: () => "waiting for their turn.",
  live: () => "connected: playing live.",
  over: () => "the game is over: send them this last link, with the result.",
};

function drawHost() {
  const panel = $("links");
  const list = $("links-seats");
  if (!panel || !list) return;
  panel.hidden = hostRows.size === 0 && !guestRow && !guestText;
  $("links-host").hidden = hostRows.size === 0;
  list.textContent = "";
  for (const [seat, row] of hostRows) {
    const li = document.createElement("li");
    li.dataset.seat = String(seat);
    li.dataset.state = row.state;
    const head = document.createElement("p");
    head.append(Object.assign(document.createElement("b"), { textContent: row.name }), ": ");
    head.append(Object.assign(document.createElement("span"), { className: "links-state", textContent: (STATE_WORDS[row.state] || (() => ""))(row) }));
    if (!row.invitation) head.append(" ", button(`Invitation for ${row.name}`, () => call("linkInvite", seat), "small"));
    if (!["live", "over"].includes(row.state) && window.cardTableRemote?.canConnect()) {
      head.append(" ", button("Play live", () => call("remoteInvite", seat), "small"));
    }
    li.append(head);
    if (row.link && !["waiting", "live"].includes(row.state)) li.append(linkRow(row.link, `The link for ${row.name}`, "links-turn", row));
    if (row.invitation) {
      li.append(hint(`${row.name}'s invitation holds their key: send it to ${row.name} alone, once.`));
      li.append(linkRow(row.invitation, `Invitation for ${row.name}`, "links-invitation", row));
    }
    list.append(li);
  }
}

function drawGuest() {
  const panel = $("links");
  if (!panel) return;
  panel.hidden = hostRows.size === 0 && !guestRow && !guestText;
  $("links-guest").hidden = !guestRow && !guestText;
  $("links-guest-text").textContent = guestRow ? guestRow.words : guestText;
  const box = $("links-reply");
  box.textContent = "";
  if (guestRow) {
    box.append(linkRow(guestRow.link, `Your link for ${guestRow.name}`, "links-reply-link", guestRow));
    box.append(hint(`It shows nothing to anyone but ${guestRow.name}: send it however you like.`));
  }
}

function hint(text) {
  return Object.assign(document.createElement("p"), { className: "hint", textContent: text });
}

// A link in a box, with the device's share sheet where there is one, and Copy.
function linkRow(link, label, className, row) {
  const box = document.createElement("p");
  box.className = "remote-link";
  const input = Object.assign(document.createElement("input"), { type: "text", readOnly: true, value: link, className });
  input.setAttribute("aria-label", label);
  box.append(input);
  if (typeof navigator.share === "function") {
    box.append(" ", button("Share", async () => {
      try { await navigator.share({ title: row.title || "Card Table", text: label, url: link }); }
      catch (error) { if (error?.name !== "AbortError") copy(link, input); }
    }, "primary"));
  }
  box.append(" ", button("Copy", () => copy(link, input)));
  return box;
}

async function copy(link, input) {
  try {
    await navigator.clipboard.writeText(link);
    note("Copied.");
  } catch {
    input.select();
    note("Select the link and copy it.");
  }
}

function note(text) {
  const box = $("links-note");
  if (box) box.textContent = text;
}

function button(label, action, extra = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `btn ${extra}`.trim();
  b.textContent = label;
  b.addEventListener("click", action);
  return b;
}

// ---------------------------------------------------------------- Python's effects and the page's calls
function call(name, ...args) {
  if (bridge && typeof bridge[name] === "function") bridge[name](...args);
}

const COMMANDS = {
  async link(data) {
    if (!secure()) { note(NOT_SECURE); return; }
    const at = shown;
    const link = await makeLink(data);
    if (at !== shown) return;
    if (data.to === "host") {
      guestRow = { name: data.name, link, title: data.title, words: data.words };
      drawGuest();
      return;
    }
    const row = hostRows.get(data.seat) || { name: data.name, state: "waiting", link: null, invitation: null };
    if (data.row === "invitation") row.invitation = link; else row.link = link;
    row.title = data.title;
    hostRows.set(data.seat, row);
    drawHost();
  },
  "link-seats"(data) {
    const seen = new Set();
    for (const { seat, name, state, joined } of data.rows) {
      const row = hostRows.get(seat) || { link: null, invitation: null };
      hostRows.set(seat, { ...row, name, state, joined });
      seen.add(seat);
    }
    for (const seat of [...hostRows.keys()]) if (!seen.has(seat)) hostRows.delete(seat);
    drawHost();
  },
  "link-guest"(data) {
    guestText = data.waiting || "";
    $("links-guest").dataset.state = data.state;
    document.documentElement.classList.add("link-guest"); // a guest's table: nothing to play again or share
    if (data.waiting) { guestRow = null; shown += 1; }
    drawGuest();
  },
  // The hosted game as a file, to open on another device of the host's (and go on from there only).
  "link-export"(data) {
    const url = URL.createObjectURL(new Blob([data.text], { type: "application/json" }));
    const anchor = Object.assign(document.createElement("a"), { href: url, download: data.name });
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    note(`Saved as ${data.name}: it holds the whole game, its deal too, so keep it to yourself. On the other device, `
      + "choose it in the set-up, under \"Playing with others\"; then play on there only.");
  },
  "links-close"() {
    shown += 1;
    document.documentElement.classList.remove("link-guest");
    hostRows.clear();
    guestRow = null;
    guestText = "";
    note("");
    drawHost();
    drawGuest();
  },
};

let pending = null; // what waits for Python: set by the lobby's whenReady through open()
function whenReadyThen(action) {
  if (bridge) action(); else pending = action;
}

window.cardTableLinks = {
  run(json) {
    const data = JSON.parse(json);
    const command = COMMANDS[data.command];
    if (command) command(data);
  },
  // The lobby's "Play with others", at your own pace.
  start(settings) { call("startLinks", JSON.stringify(settings)); },
  // The address holds a link: true when it is one (it is opened once Python is ready).
  open(fragment, whenReady) {
    if (!String(fragment || "").replace(/^#/, "").startsWith("turn=")) return false;
    whenReady(() => openLink(fragment), "The link opens as soon as the games are ready…");
    return true;
  },
  ready(pythonBridge) {
    bridge = pythonBridge;
    if (pending) { pending(); pending = null; }
  },
  secure,
};

function wire() {
  $("links-export")?.addEventListener("click", () => call("exportHosted"));
  $("links-bring")?.addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const text = file.size <= 2_000_000 ? await file.text() : "";
    whenReadyThen(() => call("bringHosted", text));
  });
  $("links-open")?.addEventListener("click", () => {
    const text = $("links-paste").value.trim();
    const at = text.indexOf("#");
    openLink(at >= 0 ? text.slice(at + 1) : text);
    $("links-paste").value = "";
  });
}

wire();
