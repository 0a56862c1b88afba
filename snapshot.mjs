// Build step (run by build.py under Node, never shipped): a memory snapshot of Pyodide with the engine wheel and the
// browser package unpacked and imported, so a page can start Python from it instead of starting Python anew.
//
//     node snapshot.mjs PYODIDE_DIR OUT ARCHIVE...
//
// Unpacks each archive (zip or wheel) into Pyodide's home folder (the working folder, on sys.path, where the page
// unpacks them too), imports every engine, the computer players and the browser package's modules that need no
// page (the shell itself needs PyScript's `pyscript` module, so the page imports it), then writes the snapshot to OUT.
// The same inputs give the same bytes: the clock and the entropy source are fixed while it runs, and the hash seed
// is 0.
// Nothing else about the interpreter differs from an ordinary start: the page checks the archives' hashes first.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, out, ...archives] = process.argv.slice(2);
if (!pyodideDir || !out || archives.length === 0) {
  console.error("usage: node snapshot.mjs PYODIDE_DIR OUT ARCHIVE...");
  process.exit(2);
}

// Fixed clock and entropy: file times, import caches and the seeds Python draws at start-up come out the same.
const FIXED_TIME = 1_700_000_000_000;
let counter = 0;
function fill(array) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (counter++ * 131 + 7) & 255;
  return array;
}
Date.now = () => FIXED_TIME;
performance.now = () => 0;
createRequire(import.meta.url)("node:crypto").randomFillSync = fill;
Object.defineProperty(globalThis, "crypto", { value: { getRandomValues: fill }, configurable: true });

const IMPORTS = `
import asyncio, json, time, traceback
import pyengine, pyengine.ai, pyengine.takeback, pyengine.thinker
for game in pyengine.GAMES:
    pyengine.GAMES[game]
import cardtable_web.address, cardtable_web.drawing, cardtable_web.embed, cardtable_web.keeping
import cardtable_web.registry, cardtable_web.replay, cardtable_web.session, cardtable_web.trail
from cardtable_web.registry import site_game
for game in pyengine.GAMES:
    site_game(game).render_module()
`;

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ _makeSnapshot: true, env: { PYTHONHASHSEED: "0" }, stdout: () => {} });
for (const archive of archives) {
  py.unpackArchive(new Uint8Array(fs.readFileSync(archive)), "zip", { extractDir: "/home/pyodide" });
}
py.runPython(IMPORTS);
fs.writeFileSync(out, py.makeMemorySnapshot());
