// Starting Python, for the table (as PyScript's interpreter module: it exports `loadPyodide` and `version` as
// Pyodide's own module does), for the embed and for the computer's worker (web/think.js): Pyodide from the site's
// own copy, the engine wheel and the browser package unpacked into Python's working folder (on sys.path), and, once
// the build's memory snapshot is in the service worker's cache (from the second visit on), Python restored from
// that snapshot with every engine already imported instead of started anew (started anew, it takes the modules
// compiled ahead of time for it: the common ones and the game's, and the site's standard library, whose modules
// that Python imports as it starts come compiled too). A snapshot made from other archives or another
// Pyodide is refused: Python then starts the ordinary way. `document.documentElement.dataset.python` says which
// way it started (in a page), and so does `startedFrom()`; `data-bytecode` how many compiled archives it took.
import { loadPyodide as loadRuntime, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const HOME = "/home/pyodide"; // Python's working folder: where build.py's snapshot step unpacked the archives too
const settings = {
  build: null, snapshot: "cached", base: globalThis.document?.baseURI, game: null, way: null, refused: null,
};

// The build's manifest (build.json); when to use the snapshot: "cached" (when the service worker's cache holds it:
// the default), "always" (fetch it if need be) or "never"; the site's address (a worker has no document); the game
// the address asks for, if any (an ordinary start then takes that game's compiled modules too).
export function configure(build, snapshot = "cached", base = settings.base, game = null) {
  settings.build = build;
  settings.snapshot = snapshot;
  settings.base = base;
  settings.game = game;
}

// "snapshot" or "ordinary" once Python has started, and why a snapshot was refused (or null).
export function startedFrom() {
  return { way: settings.way, refused: settings.refused };
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
    return response?.ok ? response : null;
  } catch {
    return null; // no cache here (not a secure context)
  }
}

// The modules compiled ahead of time for this Python (build.py: write_bytecode), for an ordinary start: the common
// archive and the chosen game's. They only save compiling, so one that cannot be fetched is simply left out.
function bytecode() {
  const groups = settings.build.bytecode || {};
  const game = Object.hasOwn(groups, settings.game ?? "") ? groups[settings.game] : null;
  const wanted = [groups.common, game].filter(Boolean);
  return Promise.all(wanted.map((path) => bytes(path).catch(() => null)));
}

async function sha256(data) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Pyodide's snapshot inside a Card Table snapshot file, or the reason it is refused (see build.py: snapshot_header).
async function checked(file, wheel, zip) {
  const magic = settings.build.snapshot_magic; // the header's first words, as build.py writes them (build.json)
  const head = new TextDecoder().decode(file.subarray(0, 64)).split("\n", 1)[0];
  const length = magic ? Number(head.slice(magic.length + 1)) : 0;
  if (!magic || !head.startsWith(magic + " ") || !(length > 0 && length % 16 === 0)) {
    return { refused: "not a Card Table snapshot" };
  }
  let facts;
  try {
    facts = JSON.parse(new TextDecoder().decode(file.subarray(head.length + 1, length)));
  } catch {
    return { refused: "its header is unreadable" };
  }
  if (!globalThis.crypto?.subtle) return { refused: "this page cannot check its hashes (no secure context)" };
  const expected = { pyodide: version, engine_wheel: await sha256(wheel), web_zip: await sha256(zip) };
  if (facts.stdlib || settings.build.stdlib_sha256) expected.stdlib = settings.build.stdlib_sha256;
  for (const [key, value] of Object.entries(expected)) {
    const what = key === "stdlib" ? "standard library" : key.replace("_", " ");
    if (facts[key] !== value) return { refused: `it was made from another ${what}` };
  }
  return { image: file.subarray(length) };
}

// Pyodide only warns when its WebAssembly cannot be fetched, and its start then never ends. While it starts, a fetch
// of that file that fails (a first visit that lost the network, say) fails the start here instead.
function watchRuntimeFetch() {
  const fetchBefore = globalThis.fetch;
  let fail = null;
  const failed = new Promise((_, reject) => { fail = reject; });
  globalThis.fetch = function (input, init) {
    const answer = fetchBefore.call(this, input, init);
    if (String(input?.url ?? input).endsWith("/pyodide.asm.wasm")) {
      answer.then(
        (response) => { if (!response.ok) fail(new Error(`Python's runtime could not be fetched (${response.status})`)); },
        (error) => fail(new Error(`Python's runtime could not be fetched: ${error}`)),
      );
    }
    return answer;
  };
  return { failed, stop: () => { globalThis.fetch = fetchBefore; } };
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
  const archives = Promise.all([bytes(build.engine_wheel), bytes(build.web_zip)]);
  const root = globalThis.document?.documentElement || { dataset: {} };
  // The snapshot is read and checked before Pyodide starts fetching its runtime: measured, that is faster than
  // overlapping the two (they compete for the page's thread).
  const response = await snapshotResponse();
  let image = null;
  if (response) {
    const result = await checked(new Uint8Array(await response.arrayBuffer()), ...(await archives));
    image = result.image || null;
    if (result.refused) {
      root.dataset.snapshotRefused = settings.refused = result.refused;
      console.warn(`Python starts the ordinary way: the snapshot is refused (${result.refused}).`);
    }
  }
  performance.mark("python-snapshot-read");
  const compiled = image ? Promise.resolve([]) : bytecode(); // a restored Python has imported everything already
  // The site's standard library (build.py: write_stdlib), whose start-up modules come compiled, else Pyodide's.
  const stdlib = build.stdlib ? { stdLibURL: at(build.stdlib) } : {};
  const watch = watchRuntimeFetch();
  const py = await Promise.race([
    loadRuntime({ ...options, indexURL: at(build.pyodide), ...stdlib, ...(image ? { _loadSnapshot: image } : {}) }),
    watch.failed,
  ]).finally(watch.stop);
  const [wheel, zip] = await archives;
  py.unpackArchive(wheel, "zip", { extractDir: HOME });
  py.unpackArchive(zip, "zip", { extractDir: HOME });
  const unpacked = (await compiled).filter(Boolean);
  for (const archive of unpacked) py.unpackArchive(archive, "zip", { extractDir: HOME });
  root.dataset.bytecode = String(unpacked.length);
  root.dataset.python = settings.way = image ? "snapshot" : "ordinary";
  performance.mark("python-loaded");
  return py;
}
