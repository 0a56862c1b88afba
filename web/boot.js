// The lobby (plain script: it appears at once) and the start of the Python runtime.
// Everything is loaded from this site's own folder; the page works under any sub-path.

import { keeps, readStored } from "./store.js";
import {
  buildGameCards, cleanName, keepWay, keepYourName, lastSettings, lastWay, MAX_NAME, refreshPlayWords, rememberSettings,
  yourName,
} from "./lobby.js";

// The games, the computer's levels and the storage keys, written into the page at build time by
// `python -m cardtable_web.page_facts` (each fact's one home is in Python: the lobby only reads them here).
const lobbyData = JSON.parse(document.getElementById("games-data")?.textContent || '{"games": [], "levels": []}');
const STORAGE = lobbyData.storage || {};
const games = lobbyData.games;
const LEVELS = lobbyData.levels;
const DEFAULT_LEVEL = (LEVELS.find((l) => l.default) || LEVELS[0] || { name: "normal" }).name;
const $ = (id) => document.getElementById(id);

const bridge = {
  ready: false,
  failed: false,  // Python could not start (pythonFailed)
  pending: null,
  pythonReady() {
    bridge.ready = true;
    setProgress(100, "Ready.");
    $("runtime").classList.add("done");
    document.documentElement.dataset.state = "ready";
    $("start-note").textContent = "";
    refreshKept();  // what Python wrote as it started (earlier versions' games brought in, bad entries put aside)
    const waiting = bridge.pending;
    bridge.pending = null;
    if (waiting) waiting();
  },
  // One message in the lobby (and, for something unexpected, a bug report to copy); the lobby stays usable.
  showLobbyError(text, report) {
    $("lobby-error").textContent = text;
    $("lobby-error-box").hidden = false;
    $("bug-report").value = report || "";
    $("report-row").hidden = !report;
    $("report-note").textContent = "";
    $("table").hidden = true;
    $("lobby").hidden = false;
    if (bridge.ready) document.documentElement.dataset.state = "ready";
  },
  showTrouble(text, report) {
    bridge.showLobbyError(`${text}. Your game was kept as far as it went; you can continue it or start another.`, report);
  },
};
window.cardTable = bridge;

// ---------------------------------------------------------------- runtime progress
function setProgress(value, text) {
  const bar = $("runtime-progress");
  bar.value = Math.max(bar.value, value);
  bar.textContent = `${bar.value}%`;
  if (text && !bridge.failed) $("runtime-status").textContent = text;
}

// The bar follows Python's start as web/python.js marks its phases on the page's timeline.
const phases = { "python-snapshot-read": 35, "python-wasm-compiled": 50, "python-restored": 80, "python-loaded": 88 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (phases[entry.name]) setProgress(phases[entry.name]);
}).observe({ type: "mark", buffered: true });

// Python was asked for by web/start.js, the page's first script (it unpacks the engine wheel and the browser
// package, and starts from the build's memory snapshot once the browser holds it); once it is there, the page's
// program (web/main.py) sets the table up and calls pythonReady.
async function startPython() {
  setProgress(10, "Getting the games ready…");
  const start = await import("./start.js");
  const build = await start.build;
  document.documentElement.dataset.build = build.cache_key;  // invitations to other devices carry it
  const { py, program } = await start.python;
  setProgress(90);
  py.runPython(program, { filename: "main.py" });
}

// ---------------------------------------------------------------- the lobby
const params = new URLSearchParams(location.search);
let current = null;

function gameById(id) {
  return games.find((g) => g.id === id);
}

// The rules drawer from the lobby: the page is fetched at once; its live figures appear once Python is ready.
async function openRules(id) {
  $("rules-lesson").dataset.game = id;
  const body = $("rules-body");
  body.innerHTML = "<p>Loading the rules…</p>";
  bridge.showRules(true);  // open at once: the page may still be busy starting Python
  let response = null;
  try { response = await fetch(`web/rules/${id}.html`); } catch { response = null; }
  body.innerHTML = response && response.ok ? await response.text() : "<p>The rules page could not be loaded.</p>";
  whenReady(() => bridge.drawFigures(id), "");
}

// The set-up's choice of game: one radio button each (the game cards hold the pictures and the other buttons).
function buildGameList() {
  const list = $("game-list");
  for (const game of games) {
    const label = document.createElement("label");
    label.className = "game-choice";
    const players = game.min_players === game.max_players ? `${game.min_players}` : `${game.min_players}–${game.max_players}`;
    label.innerHTML = `<input type="radio" name="game"> <span class="title"></span>
      <span class="meta">${players} players${game.cooperative ? " · cooperative" : ""}</span>`;
    label.querySelector("input").value = game.id;
    label.querySelector(".title").textContent = game.title;
    label.querySelector("input").addEventListener("change", () => chooseGame(game.id, settingsFor(game.id)));
    list.append(label);
  }
}

// ---------------------------------------------------------------- the game cards
// What Play starts for a game: this browser's last settings for it (first time: against the computer).
function settingsFor(id) {
  return lastSettings(gameById(id), LEVELS);
}

// The names of a setup's seats: what the set-up or the last game gave, and the player's own name in the first
// human seat when it has none.
function withYourName(settings) {
  const names = [...Array(settings.players).keys()].map((i) => cleanName(settings.names?.[i]));
  const first = [...Array(settings.players).keys()].find((i) => !settings.bots.includes(i));
  if (first !== undefined && !names[first]) names[first] = yourName();
  return { ...settings, names };
}

const cardActions = {
  play(id) { start({ ...withYourName(settingsFor(id)), seed: "" }); },  // Python deals from a fresh secret seed
  lesson: (id) => startLesson(id),
  others(id) { chooseGame(id, settingsFor(id)); playWithOthers(); },
  rules: (id) => openRules(id),
  setup(id) { chooseGame(id, settingsFor(id)); showSetup(true); },
  settings: settingsFor,
};

// The full set-up (every setting, the seed typed by hand, seats on other devices) in a sheet over the lobby.
function showSetup(open) {
  $("setup").hidden = !open;
  $("open-setup").setAttribute("aria-expanded", String(open));
  if (open) $("setup").querySelector("input[name=game]:checked")?.focus();
}

function wireYourName() {
  const input = $("your-name");
  input.maxLength = MAX_NAME;
  input.value = yourName();
  let kept = input.value;
  input.addEventListener("input", () => {  // kept as it is typed; the set-up's first seat follows it
    const name = keepYourName(input.value);
    const first = $("seats").querySelector("li .name:not([hidden])");
    if (first && cleanName(first.value) === kept) first.value = name;
    kept = name;
  });
  input.addEventListener("change", () => { input.value = yourName(); });
}

// ---------------------------------------------------------------- lessons
// "Learn to play" opens the game's lesson (cardtable_web.lesson) at its first unfinished step. Python keeps the
// finished steps under LESSONS_KEY, {game: [step numbers]}; the lobby only counts them (read like hostile input).
const LESSONS_KEY = STORAGE.lessons;

function startLesson(id) {
  $("lobby-error-box").hidden = true;
  whenReady(() => bridge.startLesson(id), "The lesson opens as soon as the games are ready…");
}

function refreshLessons() {
  const stored = readStored(LESSONS_KEY, 10000);
  for (const button of document.querySelectorAll(".lesson-link")) {
    const steps = stored && typeof stored === "object" ? stored[button.dataset.game] : null;
    const length = gameById(button.dataset.game)?.lesson_steps || 0;
    const done = Array.isArray(steps)
      ? new Set(steps.filter((n) => Number.isInteger(n) && n >= 0 && n < length)).size : 0;
    const said = done ? ` (${done} step${done === 1 ? "" : "s"} done)` : "";
    button.querySelector(".lesson-done").textContent = said;
    button.setAttribute("aria-label", `Learn to play ${button.dataset.title}${said}`);
  }
}

function chooseGame(id, wanted = {}) {
  current = gameById(id);
  if (!current) return;
  document.querySelector(`input[name=game][value="${id}"]`).checked = true;
  const select = $("players");
  select.innerHTML = "";
  for (let n = current.min_players; n <= current.max_players; n++) {
    select.append(new Option(String(n), String(n)));
  }
  const players = wanted.players ?? current.default_players;
  select.value = String(players);
  buildSeats(players, wanted.bots, wanted.levels, wanted.bots ? withYourName({ ...wanted, players }).names : null);
  buildOptions(wanted.options || {});
}

function buildSeats(players, bots, levels, names) {
  const seats = $("seats");
  const old = [...seats.querySelectorAll("li")].map((li) => ({
    kind: li.querySelector(".kind").value, level: li.querySelector(".level").value, name: li.querySelector(".name").value,
  }));
  seats.innerHTML = "";
  for (let i = 0; i < players; i++) {
    const li = document.createElement("li");
    const computer = bots ? bots.includes(i) : (old[i] ? old[i].kind === "computer" : i > 0);
    const seatLevel = (levels && levels[i]) || (old[i] ? old[i].level : DEFAULT_LEVEL);
    li.innerHTML = `<span class="seat-name seat-${i}">Player ${i + 1}</span>
      <select class="kind" aria-label="Player ${i + 1} is"><option value="human">Human</option><option value="computer">Computer</option><option value="remote">Another device</option></select>
      <select class="level" aria-label="Player ${i + 1} level">${LEVELS.map((l) => `<option value="${l.name}" title="${l.help}">${l.label}</option>`).join("")}</select>
      <input class="name" type="text" maxlength="${MAX_NAME}" spellcheck="false" autocomplete="off" placeholder="Player ${i + 1}" aria-label="Player ${i + 1}'s name">`;
    li.querySelector(".kind").value = computer ? "computer" : "human";
    li.querySelector(".level").value = seatLevel;
    li.querySelector(".level").hidden = !computer;
    li.querySelector(".name").value = names ? names[i] || "" : (old[i] ? old[i].name : (i === 0 ? yourName() : ""));
    li.querySelector(".name").hidden = computer;
    li.querySelector(".kind").addEventListener("change", (e) => {
      li.querySelector(".level").hidden = e.target.value !== "computer";
      li.querySelector(".name").hidden = e.target.value === "computer";
    });
    seats.append(li);
  }
}

function buildOptions(values) {
  const box = $("options");
  box.innerHTML = "";
  $("options-box").hidden = current.options.length === 0;
  for (const option of current.options) {
    const label = document.createElement("label");
    label.className = "option";
    const value = option.name in values ? values[option.name] : option.default;
    if (option.choices.length === 2 && option.choices.every((c) => typeof c === "boolean")) {
      label.innerHTML = `<input type="checkbox" data-option="${option.name}"> <span></span>`;
      label.querySelector("input").checked = value === true;
    } else {
      label.innerHTML = `<span></span> <select data-option="${option.name}"></select>`;
      const select = label.querySelector("select");
      option.choices.forEach((choice, i) => select.append(new Option(choiceLabel(option, i), String(i))));
      select.value = String(Math.max(0, option.choices.findIndex((c) => String(c) === String(value))));
    }
    label.querySelector("span").textContent = option.label;
    box.append(label);
    if (option.help) {
      const help = document.createElement("p");
      help.className = "hint option-help";
      help.textContent = option.help;
      box.append(help);
    }
  }
}

// A choice in words: the game's own label for it, else the value with its dashes turned into spaces.
function choiceLabel(option, i) {
  if (option.labels && option.labels[i]) return option.labels[i];
  const text = String(option.choices[i]).replace(/[-_]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function readOptions() {
  const options = {};
  for (const option of current.options) {
    const input = document.querySelector(`[data-option="${option.name}"]`);
    options[option.name] = input.type === "checkbox" ? input.checked : option.choices[Number(input.value)];
  }
  return options;
}

function readSettings() {
  const seats = [...$("seats").querySelectorAll("li")];
  const bots = [];
  const remote = [];  // seats played on another device (web/remote.js)
  const levels = {};
  const names = [];
  seats.forEach((li, i) => {
    if (li.querySelector(".kind").value === "computer") bots.push(i);
    if (li.querySelector(".kind").value === "remote") remote.push(i);
    levels[i] = li.querySelector(".level").value;
    names.push(li.querySelector(".kind").value === "computer" ? "" : cleanName(li.querySelector(".name").value));
  });
  return {
    game: current.id,
    players: Number($("players").value),
    seed: $("seed").value.trim(),
    bots,
    levels,
    options: readOptions(),
    delay: Number($("pace").value),
    names,
    remote,
  };
}

// Whether seats may play on other devices from this browser (web/remote.js: it has WebRTC).
function canConnect() {
  return Boolean(window.cardTableRemote?.canConnect());
}

// "Play with others": every human seat but the first plays on another device (unless some seat says so already),
// at the same moment (web/remote.js, WebRTC) or at your own pace (web/links.js, a link per turn). The way chosen is
// kept for the next time; a browser without WebRTC plays with others by links only.
function wireRemote() {
  const way = $("remote-way");
  way.value = lastWay();
  if (!canConnect()) {  // no WebRTC here: with others by links only
    way.value = "links";
    way.querySelector("option[value=live]").disabled = true;
    $("no-connection").hidden = false;
  }
  way.addEventListener("change", () => keepWay(way.value));
  $("play-others").addEventListener("click", playWithOthers);
  const ice = $("remote-ice");
  ice.value = window.cardTableRemote?.iceSetting || "";
  ice.addEventListener("change", () => { if (window.cardTableRemote) window.cardTableRemote.iceSetting = ice.value.trim(); });
}

function playWithOthers() {
  const kinds = [...$("seats").querySelectorAll(".kind")];
  if (!kinds.some((k) => k.value === "remote")) kinds.slice(1).forEach((k) => { if (k.value === "human") k.value = "remote"; });
  if (!kinds.some((k) => k.value === "remote") && kinds.length > 1) kinds[kinds.length - 1].value = "remote";
  start({ ...readSettings(), way: $("remote-way").value });  // no seed typed: Python draws a fresh one
}

function start(settings) {
  $("lobby-error-box").hidden = true;
  showSetup(false);
  if (!settings.remote?.length) {
    rememberSettings(settings);
    refreshPlayWords($("game-cards"), cardActions);
  }
  if (settings.remote && settings.remote.length) {  // some seats play on other devices: this page hosts
    const links = (settings.way ?? $("remote-way").value) === "links" || !canConnect();
    const { way, ...hosted } = settings;
    whenReady(() => (links ? window.cardTableLinks : window.cardTableRemote).start(hosted),
      "The game starts as soon as the games are ready…");
    return;
  }
  whenReady(() => bridge.startGame(JSON.stringify(settings)), "The game starts as soon as the games are ready…");
}

// The address's query (`?game=...&players=...`) is read by Python (cardtable_web.setup), the one reader of a
// game's setup: it starts the game, or calls fillLobby with the settings it could read and what is wrong.
function openQuery() {
  bridge.openQuery(location.search);
}

// The lobby set to settings Python read from the address (the lobby's own JSON form), with what is wrong, said once.
bridge.fillLobby = (settingsJSON, errorText) => {
  const wanted = JSON.parse(settingsJSON || "{}");
  if (wanted.game && gameById(wanted.game)) {
    chooseGame(wanted.game, wanted);
    $("seed").value = wanted.seed === undefined ? "" : String(wanted.seed);  // only a seed the address chose
    const raw = String(wanted.delay ?? "");
    const pace = $("pace");
    if (/^\d+$/.test(raw) && ![...pace.options].some((o) => o.value === raw)) pace.append(new Option(`${raw} ms`, raw));
    if (raw) pace.value = raw;
    if (errorText) showSetup(true);  // the set-up shows what the address gave, beside what is wrong with it
  }
  if (errorText) bridge.showLobbyError(errorText);
};

// ---------------------------------------------------------------- kept games, history and statistics
// Python keeps the games and writes what the lobby shows (cardtable_web.keeping: Keeper.lobby_summary) as plain
// text under LOBBY_KEY, so the lobby lists them before Python is ready. This script only displays that text
// (textContent only: it is stored text) and hands every button to Python.
const SAVES_KEY = STORAGE.saves;
const HISTORY_KEY = STORAGE.history;
const LOBBY_KEY = STORAGE.lobby;
const LINKS_KEY = STORAGE.links;

// The games at your own pace (cardtable_web.link_store writes their rows), or none: read like hostile input.
function readLinks() {
  const rows = readStored(LINKS_KEY, 50000);
  const ok = (r) => r && typeof r.text === "string" && typeof r.key === "string" && Number.isFinite(r.since)
    && ["you", "others", "over"].includes(r.waiting) && ["kept", "held"].includes(r.open);
  return Array.isArray(rows) ? rows.filter(ok).slice(0, 30) : [];
}

// The games at your own pace: waiting for you, or for someone else since when; a hosted one is also a kept game,
// listed here only (and only while it is kept).
function refreshLinks(kept) {
  const keys = new Set(kept.map((row) => row.key));
  const rows = readLinks().filter((row) => row.open === "held" || keys.has(row.key));
  const list = $("links-list");
  list.textContent = "";
  for (const row of rows) {
    const open = row.open === "kept"
      ? () => callPython("continueSaved", "Continuing as soon as the games are ready…", row.key)
      : () => callPython("openHeld", "Opening as soon as the games are ready…", row.key);
    const label = row.waiting === "over" ? "Show" : row.waiting === "you" ? "Play" : "Open";
    const li = item(`${row.text}, ${ago(row.since)}`, [[label, open, row.waiting === "you" ? "primary" : ""]]);
    li.dataset.waiting = row.waiting;
    list.append(li);
  }
  $("links-box").hidden = rows.length === 0;
  return new Set(rows.filter((row) => row.open === "kept").map((row) => row.key));
}

// The stored summary, or an empty one: anything of another shape is ignored, never trusted.
function readLobby() {
  const empty = { kept: [], finished: [], statistics: [], aside: "" };
  const value = readStored(LOBBY_KEY, 200000);
  if (!value || typeof value !== "object") return empty;
  const list = (rows, ok) => (Array.isArray(rows) ? rows.filter(ok).slice(0, 50) : []);
  const isText = (x) => typeof x === "string";
  return {
    kept: list(value.kept, (r) => r && isText(r.key) && isText(r.text) && Number.isFinite(r.updated)),
    finished: list(value.finished, (r) => r && Number.isInteger(r.index) && isText(r.text) && Number.isFinite(r.date)),
    statistics: list(value.statistics, (r) => Array.isArray(r) && r.length === 5 && r.every(isText)),
    aside: isText(value.aside) ? value.aside : "",
  };
}

function ago(ms) {
  const minutes = Math.round((Date.now() - ms) / 60000);
  if (!(minutes >= 1)) return "just now";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  return new Date(ms).toLocaleDateString();
}

// When Python is ready, or now if it is.
function whenReady(action, note) {
  if (bridge.ready) action();
  else if (bridge.failed) $("start-note").textContent = PYTHON_FAILED;
  else {
    bridge.pending = action;
    $("start-note").textContent = note;
  }
}

function openAddress(fragment) {
  whenReady(() => bridge.openAddress(fragment), "The game in the address opens as soon as the games are ready…");
}

// A bridge function of the page's Python, called when Python is ready; the lobby then shows what Python wrote.
function callPython(name, note, ...args) {
  whenReady(() => {
    if (typeof bridge[name] === "function") bridge[name](...args);
    refreshKept();
  }, note);
}

function item(text, buttons) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  span.textContent = text;
  li.append(span);
  for (const [label, action, extra] of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `btn ${extra || ""}`;
    button.textContent = label;
    button.addEventListener("click", action);
    li.append(" ", button);
  }
  return li;
}

function refreshKept() {
  const lobby = readLobby();
  const linked = refreshLinks(lobby.kept);
  const kept = $("kept");
  kept.textContent = "";
  for (const row of lobby.kept.filter((r) => !linked.has(r.key))) {
    kept.append(item(`${row.text}, ${ago(row.updated)}`, [
      ["Continue", () => callPython("continueSaved", "Continuing as soon as the games are ready…", row.key), "primary"],
      ["Discard", () => {
        if (confirm(`Discard ${row.text}? It cannot be brought back.`)) {
          callPython("discardKept", "Discarding as soon as the games are ready…", row.key);
        }
      }],
    ]));
  }
  $("kept-box").hidden = kept.children.length === 0;
  const list = $("history");
  list.textContent = "";
  for (const row of lobby.finished) {
    list.append(item(`${row.text} · ${new Date(row.date).toLocaleString()}`, [
      ["Replay", () => callPython("replayFinished", "The replay opens as soon as the games are ready…", row.index)],
    ]));
  }
  $("history-box").hidden = lobby.finished.length === 0;
  const table = $("statistics");
  table.textContent = "";
  const head = table.createTHead().insertRow();
  for (const title of ["Game", "Played", "Won", "By opponent", "With take-backs"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const cells of lobby.statistics) {
    const tr = body.insertRow();
    for (const cell of cells) tr.insertCell().textContent = cell;
  }
  $("aside-text").textContent = lobby.aside;
  $("aside-box").hidden = !lobby.aside;
  refreshLessons();
}
bridge.refreshKept = refreshKept;

async function copyReport() {
  const text = $("bug-report").value;
  try {
    await navigator.clipboard.writeText(text);
    $("report-note").textContent = "Copied.";
  } catch {
    const area = $("bug-report");
    area.hidden = false;
    area.select();
    $("report-note").textContent = "Select the text below and copy it.";
  }
}

// On a narrow screen the table's buttons fold behind "Menu" and the game log folds to its heading, so the hand,
// the board and the turn's controls share the first screen. A folded log stays readable by screen readers.
const NARROW = matchMedia("(max-width: 700px)");
function wireFolding() {
  const fold = (button, target, open) => {
    button.setAttribute("aria-expanded", String(open));
    target.classList.toggle("folded", !open);
  };
  const menu = $("table-menu"), buttons = $("table-buttons");
  const log = $("log-toggle"), side = log.closest(".side");
  const byWidth = () => { fold(menu, buttons, !NARROW.matches); fold(log, side, !NARROW.matches); };
  byWidth();
  NARROW.addEventListener("change", byWidth);
  menu.addEventListener("click", () => fold(menu, buttons, menu.getAttribute("aria-expanded") !== "true"));
  log.addEventListener("click", () => fold(log, side, log.getAttribute("aria-expanded") !== "true"));
  buttons.addEventListener("click", (event) => {  // a chosen button folds the menu again on a narrow screen
    if (NARROW.matches && event.target.closest("button")) fold(menu, buttons, false);
  });
}

// How far down the page the board starts (the headline, the scores and any notice above it), as the CSS
// variable --above-board: a board sized to the window's height less this fits on the first screen however
// many seats the scores list (twelve Carbles players take two rows of them).
function trackBoardTop() {
  const table = $("table"), board = $("board");
  const measure = () => {
    if (table.hidden) return;
    const top = Math.round(board.getBoundingClientRect().top + window.scrollY);
    table.style.setProperty("--above-board", `${top}px`);
  };
  const observer = new ResizeObserver(measure);
  for (const element of table.children) {
    if (!element.classList.contains("table-main")) observer.observe(element);
  }
  observer.observe(table);
}

// The lobby's form and the table's bars: starting, leaving, playing again, the rules panel and the pace.
function wireLobbyAndBars() {
  // The seed box stays empty unless the player types a seed: Start then deals from a fresh secret seed that
  // Python draws (cardtable_web.setup), so no screen ever shows the seed of a game in play or about to be dealt.
  $("seed").value = "";
  $("new-seed").addEventListener("click", () => { $("seed").value = ""; });
  $("open-setup").addEventListener("click", () => {
    chooseGame(current?.id || games[0]?.id, settingsFor(current?.id || games[0]?.id));
    showSetup(true);
  });
  $("setup-close").addEventListener("click", () => showSetup(false));
  $("setup").addEventListener("click", (event) => { if (event.target === $("setup")) showSetup(false); });
  $("players").addEventListener("change", () => buildSeats(Number($("players").value)));
  $("lobby-form").addEventListener("submit", (event) => {
    event.preventDefault();
    start(readSettings());
  });
  const toLobby = () => { if (bridge.leaveGame) bridge.leaveGame(); refreshKept(); };
  $("to-lobby").addEventListener("click", toLobby);  // the game stays kept: Continue in the lobby, or Forward
  $("over-to-lobby").addEventListener("click", toLobby);
  $("play-again").addEventListener("click", () => bridge.playAgain());
  $("over-close").addEventListener("click", () => { $("game-over").hidden = true; });
  const rules = $("rules");
  const showRules = (open) => {
    rules.hidden = !open;
    $("show-rules").setAttribute("aria-expanded", String(open));
    if (open) $("hide-rules").focus();
  };
  $("show-rules").addEventListener("click", () => showRules(rules.hidden));
  $("hide-rules").addEventListener("click", () => showRules(false));
  $("rules-lesson").addEventListener("click", () => {
    showRules(false);
    if ($("rules-lesson").dataset.game) startLesson($("rules-lesson").dataset.game);
  });
  bridge.showRules = showRules;
  $("play-again-bar").addEventListener("click", () => bridge.playAgain());
  $("pace-table").addEventListener("change", (event) => bridge.setPace && bridge.setPace(Number(event.target.value)));
}

// Keys at the table: Enter or Space chooses the focused choice (some are not buttons), the arrows move from one
// choice to the next, Escape closes what is open or drops the chosen card.
function wireKeys() {
  const CHOICES = "#board [data-action], #board [data-select], #board [data-ui]";
  $("table").addEventListener("keydown", (event) => {
    const choice = event.target.closest && event.target.closest(CHOICES);
    if (!choice) return;
    if ((event.key === "Enter" || event.key === " ") && choice.tagName !== "BUTTON") {
      event.preventDefault();
      // a click event, not click(): SVG targets (the Carbles ring) have no click() method
      choice.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(event.key)) {
      // a choice not drawn (Carbon City Zero's copy of a card in play, on a phone) is passed over
      const choices = [...document.querySelectorAll(CHOICES)].filter((e) => e === choice || e.getClientRects().length);
      const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : -1;
      event.preventDefault();
      choices[(choices.indexOf(choice) + step + choices.length) % choices.length].focus();
    }
  });
  addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (!$("setup").hidden) showSetup(false);
    else if (!$("share-box").hidden) $("share-box").hidden = true;
    else if (!$("rules").hidden) bridge.showRules(false);
    else if (NARROW.matches && $("table-menu").getAttribute("aria-expanded") === "true") $("table-menu").click();
    else if (!$("game-over").hidden) $("game-over").hidden = true;
    else if (bridge.cancel) bridge.cancel();
  });
}

// The report of what was put aside, and the share box's address.
function wireReportAndSharing() {
  $("copy-report").addEventListener("click", copyReport);
  $("aside-export").addEventListener("click", () => whenReady(() => {
    const text = typeof bridge.exportPutAside === "function" ? String(bridge.exportPutAside() || "") : "";
    bridge.showLobbyError("What was put aside, for a bug report:", text);
  }, "As soon as the games are ready…"));
  $("aside-clear").addEventListener("click", () => {
    if (confirm("Clear what was put aside? It cannot be brought back.")) callPython("clearPutAside", "");
  });
  $("copy-address").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share-address").value);
      $("share-copied").textContent = "Copied.";
    } catch {
      $("share-address").select();
      $("share-copied").textContent = "Select the address and copy it.";
    }
  });
  $("share-close").addEventListener("click", () => { $("share-box").hidden = true; $("share-copied").textContent = ""; });
}

// What the window tells: the address changed (back, forward, a pasted link), or another tab kept a game.
function wireWindow() {
  addEventListener("popstate", () => {
    // a new invitation opened in this tab (a guest whose connection ended pastes the host's new link)
    if (location.hash.startsWith("#join=") && window.cardTableRemote?.open(location.hash.slice(1), whenReady)) return;
    // a link of a game at your own pace pasted into this tab's address bar
    if (location.hash.startsWith("#turn=") && window.cardTableLinks?.open(location.hash.slice(1), whenReady)) return;
    if (bridge.ready) bridge.onHistory(); else if (!location.hash) refreshKept();
  });
  addEventListener("storage", (event) => {  // another tab kept a game
    if (event.key === LOBBY_KEY || event.key === null) refreshKept();
    if ((event.key === SAVES_KEY || event.key === HISTORY_KEY || event.key === null) && bridge.ready) {
      bridge.storageChanged();
    }
  });
}

// What the address opens: an invitation or a guest's reply, a game or lesson in the fragment, or a starting query.
function openFromAddress() {
  const fragment = location.hash.replace(/^#/, "");
  if (window.cardTableRemote?.open(fragment, whenReady)) return;
  if (window.cardTableLinks?.open(fragment, whenReady)) return;
  if (fragment.startsWith("game=") || fragment.startsWith("lesson=")) {
    const named = new URLSearchParams(fragment);
    const id = named.get("game") || named.get("lesson");
    chooseGame(gameById(id) ? id : games[0]?.id, {});
    openAddress(fragment);
    return;
  }
  const first = gameById(params.get("game")) ? params.get("game") : games[0]?.id;
  chooseGame(first, settingsFor(first));
  if (params.has("game")) whenReady(openQuery, "The game in the address starts as soon as the games are ready…");
}

function wire() {
  buildGameList();
  buildGameCards($("game-cards"), games, cardActions);
  wireYourName();
  trackBoardTop();
  wireLobbyAndBars();
  wireFolding();
  wireKeys();
  refreshKept();
  wireReportAndSharing();
  wireWindow();
  $("no-storage").hidden = keeps;
  wireRemote();
  openFromAddress();
}

const PYTHON_FAILED = "The games could not start in this browser. Reload the page to try again.";

// Python could not start (its runtime not fetched, say, on a first visit that lost the network): the lobby says so
// instead of waiting for ever.
function pythonFailed(error) {
  if (bridge.failed) return;
  bridge.failed = true;
  bridge.pending = null;
  $("runtime-status").textContent = "The games could not start.";
  $("start-note").textContent = PYTHON_FAILED;
  document.documentElement.dataset.state = "failed";
  console.error("Python could not start:", error);
}

wire();
// A guest's reply opened in the host's browser only hands the reply over (web/remote.js): no Python there.
if (!location.hash.startsWith("#reply=")) startPython().catch(pythonFailed);
