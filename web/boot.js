// The lobby (plain script: it appears at once) and the start of the Python runtime.
// Everything is loaded from this site's own folder; the page works under any sub-path.

// The games and the computer's levels, written into the page at build time by `python -m pyengine games --json`.
const lobbyData = JSON.parse(document.getElementById("games-data")?.textContent || '{"games": [], "levels": []}');
const games = lobbyData.games;
const LEVELS = lobbyData.levels;
const DEFAULT_LEVEL = (LEVELS.find((l) => l.default) || LEVELS[0] || { name: "normal" }).name;
const $ = (id) => document.getElementById(id);

const bridge = {
  ready: false,
  pending: null,
  pythonReady() {
    bridge.ready = true;
    setProgress(100, "Python is ready.");
    $("runtime").classList.add("done");
    document.documentElement.dataset.state = "ready";
    $("start-note").textContent = "";
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
const steps = {
  "Loading Pyodide": 20, "Loading Storage": 30, "Loaded Storage": 35, "Loading interpreter": 40,
  "Loaded interpreter": 75, "Loading files": 80, "Loaded files": 88, "Loaded Pyodide": 92,
};
function setProgress(value, text) {
  const bar = $("runtime-progress");
  bar.value = Math.max(bar.value, value);
  bar.textContent = `${bar.value}%`;
  if (text) $("runtime-status").textContent = text;
}
addEventListener("py:progress", (event) => {
  const step = steps[event.detail];
  if (step) setProgress(step, `${event.detail}…`);
});

async function startPython() {
  setProgress(10, "Loading the Python runtime…");
  // PyScript loads Python through web/python.js (the same module instance as here): it unpacks the engine wheel and
  // the browser package, and starts from the build's memory snapshot once the browser holds it. Python starts at
  // once (begin), while PyScript itself loads.
  const python = new URL("web/python.js", document.baseURI).href;
  const starter = import(python);
  const build = await (await fetch("build.json", { cache: "no-cache" })).json();
  const here = (path) => new URL(`${path}?v=${build.cache_key}`, document.baseURI).href;
  const module = await starter;
  const game = new URLSearchParams(location.hash.replace(/^#/, "")).get("game") || params.get("game");
  module.configure(build, "cached", document.baseURI, game);
  module.begin().catch(() => {});  // a failure shows when PyScript asks for this Python
  const script = document.createElement("script");
  script.type = "py";
  script.src = here("web/main.py");
  script.setAttribute("config", JSON.stringify({ interpreter: python }));
  document.body.append(script);
  await import(new URL(build.pyscript, document.baseURI).href);
  setProgress(15);
}

// ---------------------------------------------------------------- the lobby
const params = new URLSearchParams(location.search);
let current = null;

function gameById(id) {
  return games.find((g) => g.id === id);
}

// The rules drawer from the lobby: the page is fetched at once; its live figures appear once Python is ready.
async function openRules(id) {
  const body = $("rules-body");
  body.innerHTML = "<p>Loading the rules…</p>";
  bridge.showRules(true);  // open at once: the page may still be busy starting Python
  let response = null;
  try { response = await fetch(`web/rules/${id}.html`); } catch { response = null; }
  body.innerHTML = response && response.ok ? await response.text() : "<p>The rules page could not be loaded.</p>";
  whenReady(() => bridge.drawFigures(id), "");
}

function buildGameList() {
  const list = $("game-list");
  for (const game of games) {
    const label = document.createElement("label");
    label.className = "game-choice";
    const players = game.min_players === game.max_players ? `${game.min_players}` : `${game.min_players}–${game.max_players}`;
    label.innerHTML = `<input type="radio" name="game" value="${game.id}"> <span class="title"></span>
      <span class="meta">${players} players${game.cooperative ? " · cooperative" : ""}</span><span class="blurb"></span>`;
    label.querySelector(".title").textContent = game.title;
    label.querySelector(".blurb").textContent = game.blurb;
    label.querySelector("input").addEventListener("change", () => chooseGame(game.id));
    const rulesButton = document.createElement("button");
    rulesButton.type = "button";
    rulesButton.className = "btn rules-link";
    rulesButton.textContent = "Rules";
    rulesButton.setAttribute("aria-label", `Rules of ${game.title}`);
    rulesButton.addEventListener("click", (event) => { event.preventDefault(); openRules(game.id); });
    label.append(rulesButton);
    list.append(label);
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
  const players = wanted.players ?? Math.min(Math.max(2, current.min_players), current.max_players);
  select.value = String(players);
  buildSeats(players, wanted.bots, wanted.level);
  buildOptions(wanted.options || {});
}

function buildSeats(players, bots, level) {
  const seats = $("seats");
  const old = [...seats.querySelectorAll("li")].map((li) => ({
    kind: li.querySelector(".kind").value, level: li.querySelector(".level").value,
  }));
  seats.innerHTML = "";
  for (let i = 0; i < players; i++) {
    const li = document.createElement("li");
    const computer = bots ? bots.includes(i) : (old[i] ? old[i].kind === "computer" : i > 0);
    const seatLevel = level || (old[i] ? old[i].level : DEFAULT_LEVEL);
    li.innerHTML = `<span class="seat-name seat-${i}">Player ${i + 1}</span>
      <select class="kind" aria-label="Player ${i + 1} is"><option value="human">Human</option><option value="computer">Computer</option></select>
      <select class="level" aria-label="Player ${i + 1} level">${LEVELS.map((l) => `<option value="${l.name}" title="${l.help}">${l.label}</option>`).join("")}</select>`;
    li.querySelector(".kind").value = computer ? "computer" : "human";
    li.querySelector(".level").value = seatLevel;
    li.querySelector(".level").hidden = !computer;
    li.querySelector(".kind").addEventListener("change", (e) => {
      li.querySelector(".level").hidden = e.target.value !== "computer";
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
  const levels = {};
  seats.forEach((li, i) => {
    if (li.querySelector(".kind").value === "computer") bots.push(i);
    levels[i] = li.querySelector(".level").value;
  });
  return {
    game: current.id,
    players: Number($("players").value),
    seed: $("seed").value.trim(),
    bots,
    levels,
    options: readOptions(),
    delay: Number($("pace").value),
  };
}

function randomSeed() {
  return Math.floor(Math.random() * 1e9);
}

function start(settings) {
  $("lobby-error-box").hidden = true;
  if (!/^-?\d{1,30}$/.test(String(settings.seed))) {
    bridge.showLobbyError("The seed must be a whole number of at most 30 digits.");
    return;
  }
  if (bridge.ready) {
    bridge.startGame(JSON.stringify(settings));
  } else {
    bridge.pending = () => bridge.startGame(JSON.stringify(settings));
    $("start-note").textContent = "The game starts as soon as Python is ready…";
  }
}

// The address's settings, read strictly: anything wrong is reported once, in words, and nothing starts.
const ADDRESS_KEYS = ["game", "players", "seed", "bots", "level", "delay"];
let addressDelay = 600;

function settingsFromAddress() {
  const id = params.get("game");
  if (!id) return null;
  const game = gameById(id);
  if (!game) {
    bridge.showLobbyError(`There is no game called "${id.slice(0, 40)}". Pick one of the games below.`);
    return null;
  }
  const problems = [];
  const wanted = { game: id, options: {} };
  const known = new Set([...ADDRESS_KEYS, ...game.options.map((o) => o.name)]);
  for (const key of params.keys()) {
    if (!known.has(key)) problems.push(`"${key.slice(0, 30)}" is not a setting of ${game.title}`);
  }
  let players = Math.min(Math.max(2, game.min_players), game.max_players);
  if (params.has("players")) {
    const raw = params.get("players");
    const n = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (n >= game.min_players && n <= game.max_players) players = n;
    else problems.push(`${game.title} takes ${game.min_players} to ${game.max_players} players`);
  }
  wanted.players = players;
  const bots = [];
  for (const raw of (params.get("bots") || "").split(",").filter((s) => s !== "")) {
    const seat = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(seat < players)) problems.push(`computer seats are numbers from 0 to ${players - 1}`);
    else if (bots.includes(seat)) problems.push(`computer seat ${seat} is listed twice`);
    else bots.push(seat);
  }
  wanted.bots = bots;
  const level = params.get("level") || DEFAULT_LEVEL;
  if (LEVELS.some((l) => l.name === level)) wanted.level = level;
  else problems.push(`the computer's level is one of ${LEVELS.map((l) => l.name).join(", ")}`);
  for (const option of game.options) {
    if (!params.has(option.name)) continue;
    const raw = params.get(option.name);
    const match = option.choices.find((c) => String(c) === raw);
    if (match === undefined) problems.push(`${option.label} is one of ${option.choices.join(", ")}`);
    else wanted.options[option.name] = match;
  }
  wanted.seed = String(randomSeed());
  if (params.has("seed")) {
    const raw = params.get("seed");
    if (/^-?\d{1,30}$/.test(raw)) wanted.seed = raw;
    else problems.push("the seed is a whole number of at most 30 digits");
  }
  if (params.has("delay")) {
    const raw = params.get("delay");
    if (/^\d{1,5}$/.test(raw) && Number(raw) <= 10000) {
      addressDelay = Number(raw);
      const pace = $("pace");
      if (![...pace.options].some((o) => o.value === raw)) pace.append(new Option(`${raw} ms`, raw));
      pace.value = raw;
    }
    else problems.push("the computer's pause (delay) is 0 to 10000 milliseconds");
  }
  wanted.levels = {};
  for (let i = 0; i < players; i++) wanted.levels[i] = wanted.level || DEFAULT_LEVEL;
  wanted.delay = addressDelay;
  if (problems.length) {
    bridge.showLobbyError(`This address cannot start a game: ${[...new Set(problems)].join("; ")}. ` +
      "The lobby below holds the rest of its settings.");
    wanted.invalid = true;
  }
  return wanted;
}

// ---------------------------------------------------------------- kept games, history and statistics
// Read straight from the browser's storage, so the lobby lists them before Python is ready.
const SAVES_KEY = "cardtable.saves";
const HISTORY_KEY = "cardtable.history";

function readKept(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value && typeof value === "object" ? value : fallback;
  } catch {
    return fallback;
  }
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
  else {
    bridge.pending = action;
    $("start-note").textContent = note;
  }
}

function openAddress(fragment) {
  whenReady(() => bridge.openAddress(fragment), "The game in the address opens as soon as Python is ready…");
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
  let saves = {}, done = [];
  try {
    saves = readKept(SAVES_KEY, {});
    done = readKept(HISTORY_KEY, []);
  } catch { /* storage switched off: nothing kept */ }
  const kept = $("kept");
  kept.innerHTML = "";
  const entries = Object.entries(saves).filter(([, s]) => s && typeof s.address === "string")
    .sort(([, a], [, b]) => (b.updated || 0) - (a.updated || 0));
  for (const [key, save] of entries) {
    const text = `${save.title} ${save.against}, ${save.progress}, ${ago(save.updated)}`;
    kept.append(item(text, [
      ["Continue", () => whenReady(() => bridge.continueSaved(key), "Continuing as soon as Python is ready…"), "primary"],
      ["Discard", () => {
        if (!confirm(`Discard ${save.title} ${save.against}? It cannot be brought back.`)) return;
        const now = readKept(SAVES_KEY, {});
        delete now[key];
        localStorage.setItem(SAVES_KEY, JSON.stringify(now));
        refreshKept();
      }],
    ]));
  }
  $("kept-box").hidden = entries.length === 0;
  const list = $("history");
  list.innerHTML = "";
  const finished = Array.isArray(done) ? done.filter((h) => h && typeof h.address === "string") : [];
  for (const game of finished.slice(0, 10)) {
    const when = new Date(game.date).toLocaleString();
    const marks = game.takebacks ? " (with take-backs)" : "";
    list.append(item(`${game.title} ${game.against}: ${game.result}${marks} · ${when}`, [
      ["Replay", () => { history.pushState("table", "", `${location.pathname}#${game.address}`); openAddress(game.address); }],
    ]));
  }
  $("history-box").hidden = finished.length === 0;
  drawStatistics(finished);
}

function drawStatistics(finished) {
  const rows = new Map();
  for (const game of finished) {
    const row = rows.get(game.title) || { played: 0, won: 0, takebacks: 0, levels: new Map() };
    row.played += 1;
    row.won += game.won === true ? 1 : 0;
    row.takebacks += game.takebacks ? 1 : 0;
    for (const level of (game.levels && game.levels.length ? game.levels : ["humans only"])) {
      const by = row.levels.get(level) || { played: 0, won: 0 };
      by.played += 1;
      by.won += game.won === true ? 1 : 0;
      row.levels.set(level, by);
    }
    rows.set(game.title, row);
  }
  const table = $("statistics");
  table.innerHTML = "<thead><tr><th scope=col>Game</th><th scope=col>Played</th><th scope=col>Won</th>" +
    "<th scope=col>By opponent</th><th scope=col>With take-backs</th></tr></thead>";
  const body = document.createElement("tbody");
  for (const [title, row] of rows) {
    const tr = document.createElement("tr");
    const levels = [...row.levels].map(([level, by]) => `${level}: ${by.won} of ${by.played}`).join(", ");
    for (const cell of [title, row.played, row.won, levels, row.takebacks]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
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

function wire() {
  buildGameList();
  trackBoardTop();
  $("seed").value = String(randomSeed());
  $("new-seed").addEventListener("click", () => { $("seed").value = String(randomSeed()); });
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
  bridge.showRules = showRules;
  $("play-again-bar").addEventListener("click", () => bridge.playAgain());
  wireFolding();
  $("pace-table").addEventListener("change", (event) => bridge.setPace && bridge.setPace(Number(event.target.value)));
  // Keys at the table: Enter or Space chooses the focused choice (some are not buttons), the arrows move
  // from one choice to the next, Escape closes what is open or drops the chosen card.
  $("table").addEventListener("keydown", (event) => {
    const choice = event.target.closest && event.target.closest("#board [data-action], #board [data-select], #board [data-ui]");
    if (!choice) return;
    if ((event.key === "Enter" || event.key === " ") && choice.tagName !== "BUTTON") {
      event.preventDefault();
      // a click event, not click(): SVG targets (the Carbles ring) have no click() method
      choice.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(event.key)) {
      const choices = [...document.querySelectorAll("#board [data-action], #board [data-select], #board [data-ui]")];
      const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : -1;
      event.preventDefault();
      choices[(choices.indexOf(choice) + step + choices.length) % choices.length].focus();
    }
  });
  addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (!$("share-box").hidden) $("share-box").hidden = true;
    else if (!rules.hidden) showRules(false);
    else if (NARROW.matches && $("table-menu").getAttribute("aria-expanded") === "true") $("table-menu").click();
    else if (!$("game-over").hidden) $("game-over").hidden = true;
    else if (bridge.cancel) bridge.cancel();
  });
  refreshKept();
  $("copy-report").addEventListener("click", copyReport);
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
  addEventListener("popstate", () => { if (bridge.ready) bridge.onHistory(); else if (!location.hash) refreshKept(); });
  addEventListener("storage", (event) => {
    if (event.key === SAVES_KEY || event.key === HISTORY_KEY || event.key === null) {
      refreshKept();
      if (bridge.ready) bridge.storageChanged();
    }
  });
  const fragment = location.hash.replace(/^#/, "");
  if (fragment.startsWith("game=")) {
    chooseGame(new URLSearchParams(fragment).get("game") || games[0]?.id, {});
    openAddress(fragment);
    return;
  }
  const wanted = settingsFromAddress();
  chooseGame(wanted ? wanted.game : games[0]?.id, wanted || {});
  if (wanted) {
    $("seed").value = String(wanted.seed);
    if (!wanted.invalid) start(wanted);
  }
}

wire();
startPython().catch((error) => {
  $("runtime-status").textContent = `Python could not start: ${error}`;
  console.error(error);
});
