// Starting Python, for the table (as PyScript's interpreter module: it exports `loadPyodide` and `version` as
// Pyodide's own module does), for the embed and for the computer's worker (web/think.js): Pyodide from the site's
// own copy, the browser package unpacked into Python's working folder (on sys.path), and, once the build's memory
// snapshot is in the service worker's cache (from the second visit on), Python restored from that snapshot with
// every engine already imported instead of started anew (started anew, it unpacks the engine wheel too and takes the
// modules compiled ahead of time for it: the common ones and the game's, and the site's standard library, whose
// modules that Python imports as it starts come compiled too). A snapshot made from other archives or another
// Pyodide is refused: Python then starts the ordinary way. `document.documentElement.dataset.python` says which
// way it started (in a page), and so does `startedFrom()`; `data-bytecode` how many compiled archives it took.
import { loadPyodide as loadRuntime, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const HOME = "/home/pyodide"; // Python's working folder: where build.py's snapshot step unpacked the archives too
const settings = {
  build: null, snapshot: "cached", base: globalThis.document?.baseURI, game: null, httpCache: undefined, way: null,
  refused: null, runtime: null,
};

// The build's manifest (build.json); when to use the snapshot: "cached" (when the service worker's cache holds it:
// the default), "always" (fetch it if need be) or "never"; the site's address (a worker has no document); the game
// the address asks for, if any (an ordinary start then takes that game's compiled modules too); whether to take
// Python's WebAssembly from the browser's HTTP cache (undefined: as `fetchRuntime` decides for a page).
export function configure(build, snapshot = "cached", base = settings.base, game = null, httpCache = undefined) {
  settings.build = build;
  settings.snapshot = snapshot;
  settings.base = base;
  settings.game = game;
  settings.httpCache = httpCache;
}

// Where the start is recorded for the page (`data-python`, `data-runtime`, ...): a stand-in in a worker.
const root = globalThis.document?.documentElement || { dataset: {} };

const MISSED = "cardtable:runtime-missed"; // the tab's HTTP cache did not hold this address of the runtime

// "snapshot" or "ordinary" once Python has started, why a snapshot was refused (or null), and where its WebAssembly
// came from: "http-cache" or "file" (see fetchRuntime).
export function startedFrom() {
  return { way: settings.way, refused: settings.refused, runtime: settings.runtime };
}

const at = (path) => new URL(path, settings.base).href;

async function bytes(path) {
  const response = await fetch(at(path));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// The snapshot's response from the service worker's cache ("cached": a first visit does not wait for it; the worker
// stores it in the background for the next visit), or from the network too ("always"); null when there is none.
async function snapshotResponse() {
  const path = settings.build.snapshot;
  if (!path || settings.snapshot === "never") return null;
  try {
    const response = settings.snapshot === "always" ? await fetch(at(path)) : await globalThis.caches?.match(at(path));
    return response?.ok && response.body ? response : null;
  } catch {
    return null; // no cache here (not a secure context)
  }
}

// The modules compiled ahead of time for this Python (build.py: write_bytecode): on an ordinary start the common
// archive, the chosen game's and the page's DOM adapters'; on a start from the snapshot, which imported the rest
// already, the adapters' alone (none in a worker, which never imports them). They only save compiling, so one that
// cannot be fetched is simply left out.
function bytecode(restored) {
  const groups = settings.build.bytecode || {};
  const game = Object.hasOwn(groups, settings.game ?? "") ? groups[settings.game] : null;
  const adapters = globalThis.document ? groups.adapters : null;
  const wanted = restored ? [adapters] : [groups.common, game, adapters];
  return Promise.all(wanted.filter(Boolean).map((path) => bytes(path).catch(() => null)));
}

async function sha256(data) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// A snapshot file read as it streams in: its header first (checked before Python starts), then the rest.
class SnapshotStream {
  constructor(response) {
    this.reader = response.body.getReader();
    this.held = new Uint8Array(0); // read but not yet taken
  }

  // The next `length` bytes (fewer at the file's end), into `into` when given.
  async take(length, into = new Uint8Array(length)) {
    let filled = Math.min(length, this.held.length);
    into.set(this.held.subarray(0, filled));
    this.held = this.held.subarray(filled);
    while (filled < length) {
      const { done, value } = await this.reader.read();
      if (done) return into.subarray(0, filled);
      const used = Math.min(length - filled, value.length);
      into.set(value.subarray(0, used), filled);
      this.held = value.subarray(used);
      filled += used;
    }
    return into;
  }

  cancel() {
    this.reader.cancel().catch(() => {});
  }
}

// A Card Table snapshot's header (see build.py: snapshot_header): what it was made from and how its image is
// stored, or the reason it is refused.
async function header(stream) {
  const magic = settings.build.snapshot_magic; // the header's first words, as build.py writes them (build.json)
  const first = await stream.take(64);
  const head = new TextDecoder().decode(first).split("\n", 1)[0];
  const length = magic ? Number(head.slice(magic.length + 1)) : 0;
  if (!magic || !head.startsWith(magic + " ") || !(length >= 64 && length % 16 === 0)) {
    return { refused: "not a Card Table snapshot" };
  }
  const all = new Uint8Array(length);
  all.set(first);
  await stream.take(length - 64, all.subarray(64));
  try {
    return { facts: JSON.parse(new TextDecoder().decode(all.subarray(head.length + 1)).trim()) };
  } catch {
    return { refused: "its header is unreadable" };
  }
}

// Why a snapshot made from `facts` cannot restore this Python with these archives, or null when it can.
async function mismatch(facts, wheel, zip) {
  if (!globalThis.crypto?.subtle) return "this page cannot check its hashes (no secure context)";
  const expected = { pyodide: version, engine_wheel: await sha256(wheel), web_zip: await sha256(zip) };
  if (facts.stdlib || settings.build.stdlib_sha256) expected.stdlib = settings.build.stdlib_sha256;
  for (const [key, value] of Object.entries(expected)) {
    const what = key === "stdlib" ? "standard library" : key.replace("_", " ");
    if (facts[key] !== value) return `it was made from another ${what}`;
  }
  return null;
}

// Pyodide's memory image from the rest of the file: a map of its pages (a bit each: stored or all zeros), padded to
// 16 bytes, then the stored pages (build.py: sparse_image). Nearly half of the image is zeros, never stored. Each run
// of stored pages is read straight into its place in the image.
async function image(stream, { size, page, stored }, out) {
  const pages = Math.ceil(size / page);
  const mapLength = Math.ceil(Math.ceil(pages / 8) / 16) * 16;
  const map = await stream.take(mapLength);
  if (map.length !== mapLength) throw new Error("the snapshot is cut short");
  const kept = (i) => map[i >> 3] & (1 << (i & 7));
  let taken = map.length;
  for (let first = 0; first < pages; ) {
    if (!kept(first)) {
      first++;
      continue;
    }
    let last = first;
    while (last + 1 < pages && kept(last + 1)) last++;
    const run = out.subarray(first * page, Math.min((last + 1) * page, size));
    const whole = (last + 1 - first) * page; // the file holds whole pages, the image's last one perhaps cut
    if ((await stream.take(run.length, run)).length !== run.length) throw new Error("the snapshot is cut short");
    if (whole > run.length) await stream.take(whole - run.length);
    taken += whole;
    first = last + 1;
  }
  if (taken !== stored) throw new Error("the snapshot's page map does not match its pages");
  performance.mark("python-snapshot-read");
  return out;
}

// The snapshot, once its header is checked against the archives and the loaded Pyodide: `{ image, read }`, its
// image (of the size the header gives) and a promise of it filled, or null (none cached, or refused: why is
// recorded). The image is read from the moment the header is, while the archives come and their hashes are
// checked, and while Pyodide instantiates its WebAssembly into a memory of the image's size (startPyodide).
async function snapshot(archives) {
  const response = await snapshotResponse();
  if (!response) return null;
  const stream = new SnapshotStream(response);
  const { facts, refused } = await header(stream);
  const memory = facts ? new Uint8Array(facts.image.size) : null;
  const read = facts ? image(stream, facts.image, memory) : null;
  read?.catch(() => {}); // a failure is the start's (startPyodide)
  const reason = refused || (await mismatch(facts, ...(await archives)));
  if (reason) {
    stream.cancel();
    refuse(reason);
    return null;
  }
  return { image: memory, read };
}

function refuse(reason) {
  root.dataset.snapshotRefused = settings.refused = reason;
  console.warn(`Python starts the ordinary way: the snapshot is refused (${reason}).`);
}

// Python's WebAssembly, fetched and compiled (or taken from the browser's code cache) from the start on, while the
// snapshot is read. A failed fetch fails the start (Pyodide itself only warns, and its start never ends).
function compileRuntime() {
  const url = at(settings.build.pyodide) + "pyodide.asm.wasm";
  const module = fetchRuntime(at(settings.build.runtime))
    .then((response) => {
      if (!response.ok) throw new Error(`Python's runtime could not be fetched (${response.status})`);
      return WebAssembly.compileStreaming(response);
    }, (error) => { throw new Error(`Python's runtime could not be fetched: ${error}`); });
  module.then(() => performance.mark("python-wasm-compiled"), () => {}); // a failure is the start's (startPyodide)
  return { url, module };
}

// Python's WebAssembly from the browser's HTTP cache when it holds it (the service worker lets such a request through
// to that cache), else as any file (the service worker's copy after a first visit). The browser keeps the compiled
// code beside its HTTP cache's copy from the first visit on, but beside the service worker's copy only once a start
// in a new browser compiled it from there, so a first return would compile it. Its address holds a hash of its bytes
// (build.json's `runtime`): the HTTP cache answers without asking the server, so another build's copy must not match.
// A page no service worker controls yet (a first visit) fetches it at once, and so does a tab whose HTTP cache did
// not hold it (a private window keeps that cache in memory, too small for it). The computer's worker takes the copy
// the page took (`httpCache` in `configure`): the browser drops the compiled code kept for an address when a copy of
// another date is fetched from it.
async function fetchRuntime(url) {
  const missed = () => { try { return sessionStorage.getItem(MISSED) === url; } catch { return false; } };
  const ask = settings.httpCache ?? (Boolean(globalThis.navigator?.serviceWorker?.controller) && !missed());
  root.dataset.runtime = settings.runtime = ask ? "http-cache" : "file";
  if (!ask) return fetch(url);
  const cached = await fetch(url, { cache: "only-if-cached", mode: "same-origin" }).catch(() => null);
  if (cached?.ok) return cached;
  root.dataset.runtime = settings.runtime = "file";
  try { sessionStorage.setItem(MISSED, url); } catch { /* a worker, or a browser that keeps nothing: asks each time */ }
  return fetch(url);
}

// While Pyodide starts, its own fetch of the WebAssembly gets an empty stand-in, and its instantiation the module
// compiled by compileRuntime.
function lendRuntime(runtime) {
  const fetchBefore = globalThis.fetch;
  const instantiateBefore = WebAssembly.instantiateStreaming;
  const standIns = new WeakSet();
  globalThis.fetch = function (input, init) {
    if (String(input?.url ?? input) !== runtime.url) return fetchBefore.call(this, input, init);
    const standIn = new Response(new Uint8Array(0), { headers: { "Content-Type": "application/wasm" } });
    standIns.add(standIn);
    return Promise.resolve(standIn);
  };
  WebAssembly.instantiateStreaming = async function (source, imports) {
    const response = await source;
    if (!standIns.has(response)) return instantiateBefore.call(this, response, imports);
    const module = await runtime.module;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  return () => {
    globalThis.fetch = fetchBefore;
    WebAssembly.instantiateStreaming = instantiateBefore;
  };
}

// Pyodide started (from the `stored` snapshot's image when given: see `snapshot`), or the start's failure: Pyodide
// only warns when its WebAssembly cannot be had, and its start then never ends, so a failed compile fails it here
// instead. Pyodide takes the snapshot's image at once, for its memory's size, and restores it once its WebAssembly
// is instantiated and its files are in place: its file-system hook (`fsInit`, which it waits for before that) waits
// for the image to be read, and never ends when the read fails (the start's failure then).
async function startPyodide(options, runtime, stored) {
  const stdlib = settings.build.stdlib ? { stdLibURL: at(settings.build.stdlib) } : {};
  const failed = Promise.all([runtime.module, stored?.read]).then(() => new Promise(() => {}));
  const restoring = stored
    ? { _loadSnapshot: stored.image, fsInit: () => stored.read.catch(() => new Promise(() => {})) }
    : {};
  const restore = lendRuntime(runtime);
  try {
    const loading = loadRuntime({ ...options, indexURL: at(settings.build.pyodide), ...stdlib, ...restoring });
    return await Promise.race([loading, failed]);
  } finally {
    restore();
  }
}

let early = null; // Python started by begin(), before PyScript asked for it

// Start Python at once, as soon as the page has the build's manifest: fetching and restoring it then overlaps
// with loading PyScript, and PyScript's own call to loadPyodide receives this Python (with its output wired).
export function begin() {
  if (!early) early = start({});
  return early;
}

// Python, ready to import the engines. `options` go to Pyodide's loadPyodide (PyScript passes its stdout and stderr).
export async function loadPyodide(options = {}) {
  if (early) {
    const py = await early;
    early = null;
    if (options.stdout) py.setStdout({ batched: options.stdout });
    if (options.stderr) py.setStderr({ batched: options.stderr });
    return py;
  }
  return start(options);
}

async function start(options) {
  const build = settings.build;
  if (!build) throw new Error("python.js: configure(build) first");
  performance.mark("python-start");
  // Pyodide's own loader script, asked for now: Pyodide imports it (the same module) only once the snapshot's header
  // is checked, and by then it is loaded and compiled.
  import(at(build.pyodide) + "pyodide.asm.mjs").catch(() => {}); // a failure is the start's (loadRuntime)
  const archives = Promise.all([bytes(build.engine_wheel), bytes(build.web_zip)]);
  const runtime = compileRuntime();
  // The snapshot's header is checked first (against the archives); its image is read while Pyodide loads and its
  // WebAssembly compiles, and restored once both are there.
  const stored = await snapshot(archives);
  if (!stored) performance.mark("python-snapshot-read"); // none, or refused
  let restored = Boolean(stored);
  let compiled = bytecode(restored);
  let py;
  try {
    py = await startPyodide(options, runtime, stored);
  } catch (error) {
    if (!restored) throw error;
    refuse(`it could not be read: ${error.message ?? error}`); // then the ordinary way
    restored = false;
    compiled = bytecode(false);
    py = await startPyodide(options, runtime, null);
  }
  performance.mark("python-restored");
  // A restored Python has imported every engine module already (pyengine.games.preload(): all but the command
  // line's), so only the browser package is unpacked then, for the adapters that need the page's DOM.
  const [wheel, zip] = await archives;
  if (!restored) py.unpackArchive(wheel, "zip", { extractDir: HOME });
  py.unpackArchive(zip, "zip", { extractDir: HOME });
  const unpacked = (await compiled).filter(Boolean);
  for (const archive of unpacked) py.unpackArchive(archive, "zip", { extractDir: HOME });
  root.dataset.bytecode = String(unpacked.length);
  root.dataset.python = settings.way = restored ? "snapshot" : "ordinary";
  performance.mark("python-loaded");
  return py;
}
