// Build steps (run by build.py under Node, never shipped): with --bytecode, the archives' modules compiled ahead of
// time for Pyodide's Python (see below); otherwise a memory snapshot of Pyodide with the engine wheel and the
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

const bytecode = process.argv[2] === "--bytecode";
const [pyodideDir, out, ...archives] = process.argv.slice(bytecode ? 3 : 2);
if (!pyodideDir || !out || archives.length === 0) {
  console.error("usage: node snapshot.mjs [--bytecode] PYODIDE_DIR OUT ARCHIVE...");
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
if (bytecode) {
  // Compile every module of the archives for this Pyodide's Python, as hash-checked .pyc files (no time stamps,
  // so the same sources give the same bytes; Python still checks each against its source's hash), and copy them
  // out to OUT under the same relative paths (pkg/__pycache__/mod.cpython-3XX.pyc): build.py adds them to the
  // archives, and the page then imports without compiling.
  const compiled = py.runPython(`
import compileall, os, py_compile
home = "/home/pyodide"
for name in sorted(os.listdir(home)):
    if os.path.isdir(os.path.join(home, name)) and not name.endswith(".dist-info"):
        compileall.compile_dir(os.path.join(home, name), quiet=2,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
found = sorted(os.path.relpath(os.path.join(top, f), home) for top, _, files in os.walk(home)
               for f in files if f.endswith(".pyc"))
"\\n".join(found)
`);
  for (const relative of compiled.split("\n").filter(Boolean)) {
    fs.mkdirSync(path.dirname(path.join(out, relative)), { recursive: true });
    fs.writeFileSync(path.join(out, relative), py.FS.readFile(`/home/pyodide/${relative}`));
  }
} else {
  py.runPython(IMPORTS);
  fs.writeFileSync(out, py.makeMemorySnapshot());
}
