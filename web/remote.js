// Playing on separate devices: the connection half (the game's half is Python's, cardtable_web.remote*).
//
// Host and guest are joined by a WebRTC data channel with no server in between. The host's page makes an offer
// for each remote seat, gathers its network candidates to the end (no trickling: there is nobody to trickle to),
// and writes it, compressed, into an invitation link (`#join=...`) drawn as a QR code. The guest's page answers
// with a reply link (`#reply=...`) and code of its own. The host takes the reply by the camera, by pasting it,
// or by opening the reply link in this browser: that tab hands it to the hosting tab on a BroadcastChannel.
// By default no ICE server is asked (a local network; no request leaves it); the lobby's setting adds a STUN or
// TURN server for playing across the internet.

import { storage } from "./store.js";
import { yourName } from "./lobby.js";

const $ = (id) => document.getElementById(id);
const LINK_VERSION = 1;
const CHANNEL_NAME = "card-table-remote";
const ICE_KEY = "cardtable.remote.ice";
const GATHER_MS = 8000;
const HANDOVER_WAIT_MS = 1500;
const STILL_WAITING_MS = 2 * 60 * 1000; // a guest not connected by then is told what may be wrong

let bridge = null; // window.cardTable once Python is ready
let buildKey = null;
const peers = new Map(); // the host's seats: seat -> { pc, channel, token, link }
const replies = new Map(); // token -> the reply's answer, while Python checks it
let guest = null; // the guest's connection: { pc, channel, seat, game }
let seats = []; // the host's remote seats, as Python last listed them

async function key() {
  if (buildKey === null) buildKey = (await (await fetch("build.json", { cache: "no-cache" })).json()).cache_key;
  return buildKey;
}

// ---------------------------------------------------------------- links: JSON, deflated, base64url
async function pack(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const packed = new Uint8Array(await new Response(stream).arrayBuffer());
  let text = "";
  for (const byte of packed) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function unpack(text) {
  if (typeof text !== "string" || text.length > 8000 || !/^[A-Za-z0-9_-]+$/.test(text)) throw new Error("not a link of this site");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const value = JSON.parse(await new Response(stream).text());
  if (!value || typeof value !== "object" || typeof value.sdp !== "string") throw new Error("not a link of this site");
  return value;
}

// Only the lines a data channel needs: TCP candidates and media-only lines are left out to keep the code small.
function trimmed(sdp) {
  const dropped = /^a=(extmap-allow-mixed|msid-semantic|ice-options)|^a=candidate:.* tcp /i;
  return sdp.split(/\r?\n/).filter((line) => line && !dropped.test(line)).join("\r\n") + "\r\n";
}

function siteAddress(fragment) {
  return `${location.origin}${location.pathname}#${fragment}`;
}

function linkPayload(text, name) {
  const match = String(text || "").trim().match(new RegExp(`(?:#|^)${name}=([A-Za-z0-9_-]+)`));
  return match ? match[1] : null;
}

// ---------------------------------------------------------------- ICE servers (the lobby's setting)
// "stun:host:port", "turn:user:password@host:port" or "turns:...", separated by spaces or commas. Empty: none.
function iceServers(text = storage.getItem(ICE_KEY) || "") {
  const servers = [];
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const match = item.match(/^(turns?):([^:@]+):([^@]+)@(.+)$/);
    if (match) servers.push({ urls: `${match[1]}:${match[4]}`, username: match[2], credential: match[3] });
    else if (/^(stun|turns?):/.test(item)) servers.push({ urls: item });
  }
  return servers;
}

function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", done);
    pc.addEventListener("icecandidate", (event) => { if (!event.candidate) resolve(); });
    setTimeout(resolve, GATHER_MS); // a STUN server that does not answer does not hold the invitation up forever
  });
}

// ---------------------------------------------------------------- QR codes (the vendored qr package)
let encoder = null;
async function qrSvg(text) {
  encoder ??= (await import("../vendor/qr/index.js")).default;
  return encoder(text, "svg", { ecc: "low", border: 2 });
}

async function drawQr(box, text) {
  try {
    box.innerHTML = await qrSvg(text);
    const svg = box.querySelector("svg");
    if (svg) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", "QR code of the link above"); }
  } catch (error) {
    box.textContent = `The code could not be drawn (${error.message}); the link above works as well.`;
  }
}

// Whether this browser can connect to another device at all (WebRTC may be missing, or turned off by a policy).
function canConnect() {
  return typeof RTCPeerConnection === "function";
}
const NO_CONNECTION = "This browser cannot connect to other devices (it has no WebRTC, or it is turned off), so "
  + "this game cannot be joined from here. Open the invitation in another browser.";

// ---------------------------------------------------------------- the host
async function invite({ seat, token, expires, build, game, players, name, host }) {
  closePeer(seat);
  const ice = iceServers();
  const pc = new RTCPeerConnection({ iceServers: ice });
  const channel = pc.createDataChannel("table", { ordered: true });
  const peer = { pc, channel, token, link: null, name };
  peers.set(seat, peer);
  channel.addEventListener("open", () => call("remoteJoined", seat));
  channel.addEventListener("message", (event) => call("remoteMessage", seat, String(event.data)));
  channel.addEventListener("close", () => { if (peers.get(seat) === peer) call("remoteLeft", seat); });
  pc.addEventListener("connectionstatechange", () => {
    if (["failed", "closed"].includes(pc.connectionState) && peers.get(seat) === peer) call("remoteLeft", seat);
  });
  drawPanel();
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  if (peers.get(seat) !== peer) return;
  const offer = { v: LINK_VERSION, build, seat, token, expires, game, players, name, host, ice, sdp: trimmed(pc.localDescription.sdp) };
  peer.link = siteAddress(`join=${await pack(offer)}`);
  drawPanel();
}

function closePeer(seat) {
  const peer = peers.get(seat);
  if (!peer) return;
  peers.delete(seat);
  try { peer.channel.close(); peer.pc.close(); } catch { /* already closed */ }
}

// A reply from the paste box, the camera or another tab: unpacked here, checked by Python (which seat, used,
// expired, another build, a full table), then connected. Returns whether this tab was waiting for it.
async function takeReply(text) {
  const payload = linkPayload(text, "reply") || linkPayload(`reply=${String(text || "").trim()}`, "reply");
  let reply;
  try {
    if (!payload) throw new Error("no reply");
    reply = await unpack(payload);
  } catch {
    note("That is not a reply link of this site: copy the whole link the guest's page shows.");
    return false;
  }
  if (reply.v !== LINK_VERSION || reply.type !== "answer") {
    note("That reply comes from another version of the site: the guest must reload the invitation's page.");
    return false;
  }
  replies.set(reply.token, reply.sdp);
  call("remoteReply", String(reply.token), String(reply.build), shortText(reply.name));
  return [...peers.values()].some((peer) => peer.token === reply.token);
}

async function connect({ seat, token }) {
  const peer = peers.get(seat);
  const sdp = replies.get(token);
  replies.delete(token);
  if (!peer || peer.token !== token || !sdp) return;
  try {
    await peer.pc.setRemoteDescription({ type: "answer", sdp });
  } catch (error) {
    note(`The reply could not be used (${error.message}): make a new invitation for ${peer.name}.`);
  }
}

function note(text) {
  const box = $("remote-note");
  if (box) box.textContent = text;
}

const SEAT_WORDS = {
  connected: "connected",
  invited: "invited: waiting for their reply",
  away: "not connected",
  links: "playing by links for now (their links are below)",
  computer: "played by the computer",
};

function drawPanel() {
  const panel = $("remote");
  const list = $("remote-seats");
  if (!panel || !list) return;
  panel.hidden = seats.length === 0 || guest !== null;
  $("remote-title").textContent = "Players on other devices";
  if (seats.some((s) => s.state === "connected") && /^Connecting/.test($("remote-note").textContent)) note("");
  $("remote-host").hidden = seats.length === 0;
  $("remote-guest").hidden = true;
  list.innerHTML = "";
  for (const { seat, name, state } of seats) {
    const li = document.createElement("li");
    li.dataset.seat = String(seat);
    li.dataset.state = state;
    const head = document.createElement("p");
    head.innerHTML = `<b></b>: <span class="remote-state"></span> `;
    head.querySelector("b").textContent = name;
    head.querySelector(".remote-state").textContent = SEAT_WORDS[state] || state;
    li.append(head);
    const peer = peers.get(seat);
    if (state === "invited" && peer) {
      if (peer.link) {
        li.append(linkRow(peer.link, `Invitation for ${name}`, "remote-invitation"));
        const qr = document.createElement("div");
        qr.className = "remote-qr";
        li.append(qr);
        drawQr(qr, peer.link);
        const hint = document.createElement("p");
        hint.className = "hint";
        hint.textContent = `${name} scans this code or opens the link on their device, then shows you their reply.`;
        li.append(hint);
      } else {
        li.append(Object.assign(document.createElement("p"), { className: "hint", textContent: "Making the invitation…" }));
      }
    }
    const buttons = document.createElement("p");
    if (state !== "connected" && state !== "computer") {
      buttons.append(button(state === "invited" ? "New invitation" : "Invite again", () => call("remoteInvite", seat)));
    }
    if (state !== "computer") {
      buttons.append(" ", button("Let the computer play this seat", () => {
        if (confirm(`Let the computer play ${name}'s seat for the rest of the game?`)) call("remoteGiveSeat", seat);
      }));
    }
    li.append(buttons);
    list.append(li);
  }
  $("remote-take").hidden = seats.length === 0;  // a reply may also come late, or twice (it is then refused)
}

function linkRow(link, label, className) {
  const row = document.createElement("p");
  row.className = "remote-link";
  const input = document.createElement("input");
  input.type = "text";
  input.readOnly = true;
  input.value = link;
  input.className = className;
  input.setAttribute("aria-label", label);
  row.append(input, " ", button("Copy", async () => {
    try { await navigator.clipboard.writeText(link); note("Copied."); } catch { input.select(); note("Select the link and copy it."); }
  }));
  return row;
}

function button(label, action) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn";
  b.textContent = label;
  b.addEventListener("click", action);
  return b;
}

// ---------------------------------------------------------------- the camera (where the browser has one)
let scanning = null;
async function scan(onText) {
  stopScan();
  const video = $("remote-video");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch (error) {
    note(`The camera could not be opened (${error.message}): paste the reply instead.`);
    return;
  }
  video.srcObject = stream;
  video.hidden = false;
  await video.play();
  const native = "BarcodeDetector" in window ? new window.BarcodeDetector({ formats: ["qr_code"] }) : null;
  const decode = native ? null : (await import("../vendor/qr/decode.js")).default;
  const canvas = document.createElement("canvas");
  scanning = { stream, timer: setInterval(async () => {
    if (!video.videoWidth) return;
    let text = null;
    try {
      if (native) text = (await native.detect(video))[0]?.rawValue || null;
      else {
        canvas.width = video.videoWidth; canvas.height = video.videoHeight;
        const context = canvas.getContext("2d", { willReadFrequently: true });
        context.drawImage(video, 0, 0);
        text = decode(context.getImageData(0, 0, canvas.width, canvas.height));
      }
    } catch { text = null; } // no code in this frame
    if (text) { stopScan(); onText(text); }
  }, 250) };
  note("Hold the reply's code in front of the camera…");
}

function stopScan() {
  if (!scanning) return;
  clearInterval(scanning.timer);
  for (const track of scanning.stream.getTracks()) track.stop();
  scanning = null;
  $("remote-video").hidden = true;
}

// ---------------------------------------------------------------- the guest
async function join(payload) {
  if (guest?.pc) { guest.pc.close(); clearTimeout(guest.waiting); } // an earlier invitation in this tab gives way
  $("remote-reply").innerHTML = ""; // and so does its reply
  $("remote-note").textContent = "";
  showGuestPanel();
  const say = (text) => { $("remote-guest-step").textContent = text; };
  let offer;
  try {
    offer = await unpack(payload);
  } catch {
    say("This invitation link is broken: ask the host to copy it again, whole.");
    return;
  }
  const build = await key();
  const reason = String(bridge.remoteCheck(JSON.stringify({ ...offer, sdp: undefined }), build) || "");
  if (reason) { say(reason); return; }
  if (!canConnect()) { say(NO_CONNECTION); return; }
  const { title, host } = nameInvitation(offer);
  say(`You are invited to play ${title} with ${host}, in ${shortText(offer.name) || "your"}'s seat. Making your reply…`);
  const pc = new RTCPeerConnection({ iceServers: Array.isArray(offer.ice) ? offer.ice : [] });
  guest = { pc, channel: null, seat: offer.seat, game: offer.game };
  pc.addEventListener("datachannel", (event) => {
    const channel = event.channel;
    guest.channel = channel;
    channel.addEventListener("open", () => {
      clearTimeout(guest.waiting);
      $("remote-note").textContent = "";
      hideGuestPanel();
      document.documentElement.classList.add("remote-guest"); // the host deals again, not a guest
      call("remoteGuestOpen", offer.seat, offer.game, build);
    });
    channel.addEventListener("message", (e) => call("remoteGuestMessage", String(e.data)));
    channel.addEventListener("close", () => call("remoteGuestClosed"));
  });
  pc.addEventListener("connectionstatechange", () => {
    if (pc.connectionState === "failed") call("remoteGuestClosed");
  });
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: offer.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
  } catch (error) {
    say(`This invitation cannot be answered (${error.message}): ask the host for a new one.`);
    return;
  }
  await gathered(pc);
  const reply = { v: LINK_VERSION, type: "answer", build, token: offer.token, name: yourName(), sdp: trimmed(pc.localDescription.sdp) };
  const link = siteAddress(`reply=${await pack(reply)}`);
  say(`Show this reply to the host: they scan the code, or you send them the link (they paste it, or open it on their device). Your cards appear here once they take it.`);
  const box = $("remote-reply");
  box.innerHTML = "";
  box.append(linkRow(link, "Your reply for the host", "remote-reply-link"));
  const qr = document.createElement("div");
  qr.className = "remote-qr";
  box.append(qr);
  drawQr(qr, link);
  stillWaiting(Number(offer.expires));
}

// The host's refusal of a reply (an invitation already used, expired, a full table) cannot reach a guest that is
// not connected: a guest still waiting after a while, or past the invitation's expiry, is told what to do.
function stillWaiting(expires) {
  const due = Math.min(Date.now() + STILL_WAITING_MS, Number.isFinite(expires) ? expires : Infinity);
  guest.waiting = setTimeout(() => {
    if (guest.channel && guest.channel.readyState === "open") return;
    $("remote-note").textContent = Date.now() >= expires
      ? "This invitation has expired before the host took your reply: ask the host for a new invitation and open it here."
      : "Still not connected. If the host's page says this invitation was already used, or the reply never reached " +
        "them, ask for a new invitation. On different networks the host needs a STUN address (a setting in the lobby).";
  }, Math.max(0, due - Date.now()));
}

// The guest's page names the game and who invites, at once (the page title, the panel's heading).
function nameInvitation(offer) {
  const title = gameTitle(offer.game);
  const host = shortText(offer.host) || "The host";
  document.title = `${title} with ${host} · Card Table`;
  $("remote-title").textContent = `${host} invites you to play ${title}`;
  $("table-title").textContent = title;
  return { title, host };
}

// A game's title from the lobby's list of games (written into the page at build time).
function gameTitle(id) {
  try {
    const games = JSON.parse(document.getElementById("games-data")?.textContent || "{}").games || [];
    return games.find((g) => g.id === id)?.title || "a game";
  } catch { return "a game"; }
}

// Text another device wrote (a name): one line, at most 20 characters, shown only as text.
function shortText(value) {
  return typeof value === "string" ? value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, "").trim().slice(0, 20) : "";
}

function showGuestPanel() {
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("remote").hidden = false;
  $("remote-host").hidden = true;
  $("remote-guest").hidden = false;
  $("remote-title").textContent = "Joining a game";
  $("board").innerHTML = "";
  document.title = "Joining a game · Card Table";
}

function hideGuestPanel() {
  $("remote-guest").hidden = true;
  $("remote").hidden = true;
}

// ---------------------------------------------------------------- a reply link opened in the host's browser
async function handOver(payload) {
  document.title = "Reply · Card Table";
  $("lobby").hidden = true;
  const box = $("remote-handover");
  box.hidden = false;
  const channel = new BroadcastChannel(CHANNEL_NAME);
  const id = crypto.randomUUID();
  const taken = await new Promise((resolve) => {
    channel.addEventListener("message", (event) => { if (event.data?.taken === id) resolve(true); });
    channel.postMessage({ reply: payload, id });
    setTimeout(() => resolve(false), HANDOVER_WAIT_MS);
  });
  channel.close();
  box.querySelector("p").textContent = taken
    ? "The reply was handed to your hosting tab. You can close this tab."
    : "No tab of this browser is hosting a game waiting for this reply. Open the link on the host's device, or paste it into the host's table.";
  document.documentElement.dataset.state = taken ? "handed" : "not-handed";
  if (taken) window.close();
}

function listen() {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.addEventListener("message", async (event) => {
    const { reply, id } = event.data || {};
    if (typeof reply !== "string" || !peers.size) return;
    if (await takeReply(`reply=${reply}`)) channel.postMessage({ taken: id });
  });
}

// ---------------------------------------------------------------- Python's effects and the page's calls
function call(name, ...args) {
  if (bridge && typeof bridge[name] === "function") bridge[name](...args);
}

const COMMANDS = {
  host() { peers.forEach((_, seat) => closePeer(seat)); },
  invite,
  connect,
  seats(data) { seats = data.seats; drawPanel(); },
  note(data) { note(data.text); },
  send(data) { const peer = peers.get(data.seat); if (peer?.channel.readyState === "open") peer.channel.send(data.text); },
  close(data) { setTimeout(() => closePeer(data.seat), 200); }, // the farewell message goes out first
  "close-all"() {
    peers.forEach((_, seat) => closePeer(seat));
    seats = [];
    if (guest) { try { guest.pc.close(); } catch { /* closed */ } guest = null; }
    drawPanel();
    setTimeout(() => call("remoteLeftPage"), 0); // nothing is played live from here now: the lobby's rows say so
  },
  "send-host"(data) { if (guest?.channel?.readyState === "open") guest.channel.send(data.text); },
};

window.cardTableRemote = {
  // Python's effect (cardtable_web.remote.Wire), as JSON.
  run(json) {
    const data = JSON.parse(json);
    const command = COMMANDS[data.command];
    if (command) command(data);
  },
  token() {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  },
  async start(settings) {
    call("startRemote", JSON.stringify(settings), await key());
  },
  // The address holds an invitation or a reply: true when this page takes it (the lobby then does nothing more).
  open(fragment, whenReady) {
    const joining = linkPayload(fragment, "join");
    const replying = linkPayload(fragment, "reply");
    if (replying) { handOver(replying); return true; }
    if (joining) {
      showGuestPanel();
      $("remote-guest-step").textContent = "Opening the invitation as soon as the page is ready…";
      unpack(joining).then(nameInvitation).catch(() => {});  // a broken link is said once the page is ready
      whenReady(() => join(joining));
      return true;
    }
    return false;
  },
  ready(pythonBridge) { bridge = pythonBridge; },
  iceServers,
  canConnect,
  get iceSetting() { return storage.getItem(ICE_KEY) || ""; },
  set iceSetting(text) { if (text) storage.setItem(ICE_KEY, text); else storage.removeItem(ICE_KEY); },
};

function wire() {
  listen();
  // Leaving the page closes its connections at once, so the other side hears of it now, not after a timeout.
  addEventListener("pagehide", () => {
    call("remoteLeftPage"); // before the connections close: the lobby's rows say the game is not live any more
    peers.forEach((_, seat) => closePeer(seat));
    if (guest) { try { guest.pc.close(); } catch { /* closed */ } }
  });
  $("remote-paste-take")?.addEventListener("click", () => takeReply($("remote-paste").value));
  $("remote-scan")?.addEventListener("click", () => scan((text) => takeReply(text)));
  const scanButton = $("remote-scan");
  if (scanButton) scanButton.hidden = !navigator.mediaDevices?.getUserMedia;
}

wire();
