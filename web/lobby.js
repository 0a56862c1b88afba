// The lobby's game cards: each game's picture (a static page of its table, web/pictures/, drawn at build time by the
// game's renderer), its name, players and one line, and the buttons: Play (against the computer, at this player's
// last settings for the game), Learn to play, Play with others, Rules and the full set-up. Also the player's own
// name and each game's last settings, kept in the browser (read like hostile input: Python checks them again).

import { readStored, storage } from "./store.js";

const NAME_KEY = "cardtable.name";
const LAST_KEY = "cardtable.last-settings";
const WAY_KEY = "cardtable.remote-way";
export const MAX_NAME = 20;

// A name as typed: one line, no control characters, at most MAX_NAME characters ("" when none).
export function cleanName(text) {
  return String(text ?? "").replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ").trim().slice(0, MAX_NAME);
}

// How this browser last played with others on their own devices: "live" (at the same moment) or "links".
export function lastWay() {
  try { return storage.getItem(WAY_KEY) === "links" ? "links" : "live"; } catch { return "live"; }
}

export function keepWay(way) {
  try { storage.setItem(WAY_KEY, way === "links" ? "links" : "live"); } catch { /* the default way next time */ }
}

export function yourName() {
  try { return cleanName(storage.getItem(NAME_KEY)); } catch { return ""; }
}

export function keepYourName(text) {
  const name = cleanName(text);
  try {
    if (name) storage.setItem(NAME_KEY, name); else storage.removeItem(NAME_KEY);
  } catch { /* storage refused: the name lasts while the page does */ }
  return name;
}

function readLast() {
  const value = readStored(LAST_KEY, 20000);
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}

// The settings Play uses for a game the first time: the player against the computer at its default level (two
// players, or alone in a cooperative game that can be played solo).
export function firstSettings(game, level) {
  const players = game.cooperative ? game.min_players : Math.min(Math.max(2, game.min_players), game.max_players);
  const bots = [...Array(players).keys()].slice(1);
  const options = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
  return { game: game.id, players, bots, levels: Object.fromEntries(bots.map((i) => [i, level])), options, delay: 600,
    names: [] };
}

// The game's last settings started from this browser (seed aside: Play deals anew), when they still fit the game;
// `levels` are the computer's levels ({name, default}).
export function lastSettings(game, levels) {
  const level = (levels.find((l) => l.default) || levels[0] || { name: "normal" }).name;
  const fallback = firstSettings(game, level);
  const last = readLast()[game.id];
  if (!last || typeof last !== "object") return fallback;
  const players = Number(last.players);
  if (!Number.isInteger(players) || players < game.min_players || players > game.max_players) return fallback;
  const bots = Array.isArray(last.bots) ? last.bots.filter((b) => Number.isInteger(b) && b >= 0 && b < players) : [];
  const known = new Set(levels.map((l) => l.name));
  const seatLevels = {};
  for (const b of bots) seatLevels[b] = known.has(last.levels?.[b]) ? last.levels[b] : level;
  const options = { ...fallback.options };
  for (const option of game.options) {
    const value = last.options?.[option.name];
    if (option.choices.some((c) => c === value)) options[option.name] = value;
  }
  const delay = Number.isInteger(last.delay) && last.delay >= 0 && last.delay <= 10000 ? last.delay : 600;
  const names = Array.isArray(last.names) ? last.names.slice(0, players).map(cleanName) : [];
  return { game: game.id, players, bots: [...new Set(bots)], levels: seatLevels, options, delay, names };
}

// Keep what was started, for the next Play of the same game (never the seed: a deal is always new).
export function rememberSettings(settings) {
  const all = readLast();
  const { game, players, bots, levels, options, delay, names } = settings;
  all[game] = { players, bots, levels, options, delay, names };
  try { storage.setItem(LAST_KEY, JSON.stringify(all)); } catch { /* not kept: Play falls back to the first settings */ }
}

// What Play starts, in a few words: "You against the computer (normal)", "Solo", "You and 2 computers (easy)".
export function playWords(settings) {
  const computers = settings.bots.length;
  const humans = settings.players - computers;
  if (!computers) return humans === 1 ? "Solo" : `${humans} players on this device`;
  const levels = [...new Set(settings.bots.map((b) => settings.levels[b]))].join(", ");
  const who = humans === 1 ? "You" : `${humans} players`;
  if (!humans) return `${computers} computers (${levels})`;
  return computers === 1 ? `${who} against the computer (${levels})` : `${who} against ${computers} computers (${levels})`;
}

function button(text, className, onClick, label) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = `btn ${className}`;
  element.textContent = text;
  if (label) element.setAttribute("aria-label", label);
  element.addEventListener("click", onClick);
  return element;
}

// One card per game; `act` holds the lobby's actions: play, lesson, others, rules, setup (each takes a game's id),
// and `settings` (a game's id: what Play starts).
export function buildGameCards(list, games, act) {
  for (const game of games) {
    const card = document.createElement("li");
    card.className = "game-card";
    card.dataset.game = game.id;
    const picture = document.createElement("div");
    picture.className = "game-picture";
    picture.setAttribute("aria-hidden", "true");
    picture.dataset.src = `web/pictures/${game.id}.html`; // its frame made once the card nears the screen
    picture.dataset.title = `A table of ${game.title}`;
    const text = document.createElement("div");
    text.className = "game-text";
    const title = document.createElement("h2");
    title.className = "title";
    title.textContent = game.title;
    const players = game.min_players === game.max_players ? `${game.min_players}` : `${game.min_players}–${game.max_players}`;
    const meta = document.createElement("p");
    meta.className = "meta";
    meta.textContent = `${players} players${game.cooperative ? " · cooperative" : ""}`;
    const blurb = document.createElement("p");
    blurb.className = "blurb";
    blurb.textContent = game.blurb;
    text.append(title, meta, blurb);
    const play = button("Play", "primary play", () => act.play(game.id));
    const plays = document.createElement("span");
    plays.className = "play-words";
    const playRow = document.createElement("p");
    playRow.className = "play-row";
    playRow.append(play, plays);
    const lesson = button("Learn to play", "lesson-link", () => act.lesson(game.id));
    lesson.dataset.game = game.id;
    lesson.dataset.title = game.title;
    lesson.innerHTML = 'Learn to play<span class="lesson-done"></span>';
    const more = document.createElement("p");
    more.className = "game-more";
    more.append(
      lesson,
      button("Play with others", "others-link", () => act.others(game.id), `Play with others: ${game.title}`),
      button("Rules", "rules-link", () => act.rules(game.id), `Rules of ${game.title}`),
      button("Set up", "setup-link", () => act.setup(game.id), `Set up ${game.title}`),
    );
    card.append(picture, text, playRow, more);
    list.append(card);
  }
  refreshPlayWords(list, act);
  fitPictures(list);
  showPictures(list);
}

// Each card's words for what Play starts (after a game, the last settings change).
export function refreshPlayWords(list, act) {
  for (const card of list.querySelectorAll(".game-card")) {
    const words = playWords(act.settings(card.dataset.game));
    card.querySelector(".play-words").textContent = words;
    card.querySelector(".play").setAttribute("aria-label", `Play ${card.querySelector(".title").textContent}: ${words}`);
  }
}

// A picture's page is loaded only once its card comes near the screen: a page opened at a table never loads them
// (the browser loads a hidden frame at once, even a lazy one, and each is a page to lay out beside the table's
// start), and a phone loads the lower cards as the lobby scrolls.
function showPictures(list) {
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const box = entry.target;
      const frame = document.createElement("iframe");
      frame.title = box.dataset.title;
      frame.tabIndex = -1;
      frame.inert = true;
      frame.src = box.dataset.src;
      box.append(frame);
      fitPicture(box, box.getBoundingClientRect().width);
      observer.unobserve(box);
    }
  }, { rootMargin: "200px" });
  for (const box of list.querySelectorAll(".game-picture")) observer.observe(box);
}

// The picture pages are laid out at their frame's width (the stylesheet's) and scaled down to their box.
function fitPictures(list) {
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) fitPicture(entry.target, entry.contentRect.width);
  });
  for (const box of list.querySelectorAll(".game-picture")) observer.observe(box);
}

function fitPicture(box, width) {
  const frame = box.querySelector("iframe");
  if (frame?.offsetWidth) box.style.setProperty("--picture-scale", String(width / frame.offsetWidth));
}
