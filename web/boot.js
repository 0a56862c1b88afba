// The lobby (plain script: it appears at once) and the start of the Python runtime.
// Everything is loaded from this site's own folder; the page works under any sub-path.

// The games and the computer's levels, written into the page at build time by `python -m pyengine games --json`.
const lobbyData = JSON.parse(document.getElementById("games-data")?.textContent || '{"games": [], "levels": []}');
const games = lobbyData.games;
const LEVELS = lobbyData.levels;
const DEFAULT_LEVEL = (LEVELS.find((l) => l.default) || LEVELS[0] || { name: "normal" }).name;
const $ = (id) => document.getElementById(id);
const SAVE_KEY = "cardtable.current-game";

const bridge = {
  ready: false,
  pending: null,
  pythonReady() {
    bridge.ready = true;
    setProgress(100, "Python is ready.");
    $("runtime").classList.add("done");
    document.documentElement.dataset.state = "ready";
    $("start-note").textContent = "";
    if (bridge.pending) {
      const settings = bridge.pending;
      bridge.pending = null;
      bridge.startGame(JSON.stringify(settings));
    } else if (bridge.resumeRequested) {
      bridge.resumeRequested = false;
      bridge.resumeGame();
    }
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
    bridge.showLobbyError(`${text}. Your game was saved as far as it went; you can resume it or start another.`, report);
    refreshResume();
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
  const build = await (await fetch("build.json", { cache: "no-cache" })).json();
  const here = (path) => new URL(`${path}?v=${build.cache_key}`, document.baseURI).href;
  const config = {
    interpreter: new URL(build.pyodide + "pyodide.mjs", document.baseURI).href,
    // The archives' folder name is their content hash: no query needed (it would hide the file type).
    files: {
      [new URL(build.engine_wheel, document.baseURI).href]: "./*",
      [new URL(build.web_zip, document.baseURI).href]: "./*",
    },
  };
  const script = document.createElement("script");
  script.type = "py";
  script.src = here("web/main.py");
  script.setAttribute("config", JSON.stringify(config));
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
      option.choices.forEach((choice, i) => select.append(new Option(String(choice), String(i))));
      select.value = String(Math.max(0, option.choices.findIndex((c) => String(c) === String(value))));
    }
    label.querySelector("span").textContent = option.label;
    if (option.help) label.title = option.help;
    box.append(label);
  }
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
    delay: addressDelay,
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
    bridge.pending = settings;
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
    if (/^\d{1,5}$/.test(raw) && Number(raw) <= 10000) addressDelay = Number(raw);
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

function refreshResume() {
  $("resume-row").hidden = !localStorage.getItem(SAVE_KEY);
}

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

function wire() {
  buildGameList();
  $("seed").value = String(randomSeed());
  $("new-seed").addEventListener("click", () => { $("seed").value = String(randomSeed()); });
  $("players").addEventListener("change", () => buildSeats(Number($("players").value)));
  $("lobby-form").addEventListener("submit", (event) => {
    event.preventDefault();
    start(readSettings());
  });
  const toLobby = () => { if (bridge.leaveGame) bridge.leaveGame(); refreshResume(); };
  $("to-lobby").addEventListener("click", () => {
    if (document.documentElement.dataset.state === "over" || confirm("Leave this game? It will be lost.")) toLobby();
  });
  $("over-to-lobby").addEventListener("click", toLobby);
  $("play-again").addEventListener("click", () => bridge.playAgain());
  $("over-close").addEventListener("click", () => { $("game-over").hidden = true; });
  const rules = $("rules");
  const showRules = (open) => { rules.hidden = !open; $("show-rules").setAttribute("aria-expanded", String(open)); };
  $("show-rules").addEventListener("click", () => showRules(rules.hidden));
  $("hide-rules").addEventListener("click", () => showRules(false));
  refreshResume();
  $("resume").addEventListener("click", () => {
    if (bridge.ready) bridge.resumeGame();
    else { bridge.resumeRequested = true; $("start-note").textContent = "Resuming as soon as Python is ready…"; }
  });
  $("copy-report").addEventListener("click", copyReport);
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
