// Build steps (run by build.py under Node, never shipped): with --bytecode, the archives' modules compiled ahead of
// time for Pyodide's Python (see below); with --stdlib, the site's own copy of Pyodide's standard library (see
// below); otherwise a memory snapshot of Pyodide with the engine wheel and the browser package unpacked and
// imported, so a page can start Python from it instead of starting Python anew.
//
//     node snapshot.mjs [--bytecode | --stdlib] PYODIDE_DIR OUT ARCHIVE... [--stdlib-zip ZIP]
//
// --stdlib-zip starts Pyodide from the site's standard library (ZIP) instead of Pyodide's own.
// Unpacks each archive (zip or wheel) into Pyodide's home folder (the working folder, on sys.path, where the page
// unpacks them too), imports every engine module a page may import (pyengine.games.preload(): each game's package,
// the computer players, take-backs) and the browser package's modules that need no page (the shell itself needs
// PyScript's `pyscript` module, so the page imports it), then writes the snapshot to OUT.
// The same inputs give the same bytes, wherever the repository lies: the clock and the entropy source are fixed
// while it runs, the hash seed is 0, and the program's name is a browser's.
// Nothing else about the interpreter differs from an ordinary start: the page checks the archives' hashes first.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const mode = ["--bytecode", "--stdlib"].includes(process.argv[2]) ? process.argv[2] : "--snapshot";
const args = process.argv.slice(mode === "--snapshot" ? 2 : 3);
const zipAt = args.indexOf("--stdlib-zip");
const stdLibURL = zipAt >= 0 ? args.splice(zipAt, 2)[1] : undefined;
const [pyodideDir, out, ...archives] = args;
if (!pyodideDir || !out || archives.length === 0) {
  console.error("usage: node snapshot.mjs [--bytecode | --stdlib] PYODIDE_DIR OUT ARCHIVE... [--stdlib-zip ZIP]");
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
import asyncio, importlib, json, time, traceback
import pyengine.games
for name in pyengine.games.preload():  # every engine module a page may import, every game's among them
    importlib.import_module(name)
import cardtable_web
for name in cardtable_web.preload():  # the browser package, all but the adapters that need the page's DOM
    importlib.import_module(name)
`;

// What else a page imports from the standard library as it starts: PyScript's own package, and the shell.
const PAGE_IMPORTS = `
import asyncio, base64, collections, functools, html, inspect, io, json, pathlib, re, weakref
`;

// Never part of the site's standard library: what a page cannot use (the REPL, the debugger, process pools, GUI
// and terminal toolkits, package installers) or the site never imports (test frameworks, documentation, e-mail,
// XML, mail and server protocols). Top-level names in Pyodide's python_stdlib.zip.
const LEFT_OUT = [
  "_pyrepl/", "curses/", "dbm/", "doctest.py", "email/", "ensurepip/", "ftplib.py", "idlelib/", "imaplib.py",
  "lib2to3/", "mailbox.py", "multiprocessing/", "pdb.py", "poplib.py", "pydoc.py", "pydoc_data/", "smtplib.py",
  "sqlite3/", "tkinter/", "turtle.py", "turtledemo/", "unittest/", "venv/", "wsgiref/", "xml/", "xmlrpc/",
];

// The only text codecs the site keeps (all else in encodings/ is left out: the site reads and writes UTF-8 alone).
// Unicode's own forms, ASCII and Latin-1, the escapes Python's own modules use, IDNA, and cp437, in which a zip file
// names its entries when they are not marked as UTF-8 (the page unpacks its archives with zipfile).
const CODECS_KEPT = [
  "__init__", "aliases", "ascii", "base64_codec", "charmap", "cp437", "hex_codec", "idna", "latin_1", "punycode",
  "raw_unicode_escape", "undefined", "unicode_escape", "utf_16", "utf_16_be", "utf_16_le", "utf_32", "utf_32_be",
  "utf_32_le", "utf_7", "utf_8", "utf_8_sig", "zlib_codec",
].map((name) => `encodings/${name}.py`);

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
// The program's name is the one a browser gives (Node's would be this script's path): the memory image then does
// not depend on where the repository lies (its length moved every allocation after it).
const py = await loadPyodide({
  _makeSnapshot: mode === "--snapshot", env: { PYTHONHASHSEED: "0" }, stdout: () => {}, stdLibURL,
  _sysExecutable: "./this.program",
});
for (const archive of archives) {
  py.unpackArchive(new Uint8Array(fs.readFileSync(archive)), "zip", { extractDir: "/home/pyodide" });
}
if (mode === "--bytecode") {
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
} else if (mode === "--stdlib") {
  // The site's standard library: Pyodide's python_stdlib.zip less LEFT_OUT, with every module that a page imports
  // as it starts (Pyodide's own start, PyScript's and the site's) compiled ahead of time in place of its source, as
  // unchecked hash-based .pyc files (no time stamps: the same sources give the same bytes; the zip never changes,
  // so Python need not check them against a source). Compiling those modules at start would be most of a
  // first visit's start. Entries are deflated, as in Pyodide's zip: a host need not compress a zip file.
  py.runPython(IMPORTS + PAGE_IMPORTS);
  py.FS.writeFile("/tmp/stdlib-in.zip", new Uint8Array(fs.readFileSync(path.join(pyodideDir, "python_stdlib.zip"))));
  const report = py.runPython(`
import importlib.util, marshal, sys, zipfile
from cardtable_web import standard_library_modules
left_out = tuple(${JSON.stringify(LEFT_OUT)})
codecs_kept = set(${JSON.stringify(CODECS_KEPT)})
mounted = next(p for p in sys.path if p.endswith(".zip"))
started = set(standard_library_modules().values())
compiled = set()
with zipfile.ZipFile("/tmp/stdlib-in.zip") as source, zipfile.ZipFile("/tmp/stdlib-out.zip", "w") as target:
    for entry in source.infolist():
        if entry.filename.startswith(left_out):
            continue
        if entry.filename.startswith("encodings/") and entry.filename not in codecs_kept:
            continue
        data = source.read(entry)
        name = entry.filename
        if name in started:
            code = compile(data, f"{mounted}/{name}", "exec", dont_inherit=True)
            flags = (0b01).to_bytes(4, "little")  # hash-based, unchecked
            data = importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(data) + marshal.dumps(code)
            compiled.add(name)
            name = name[:-3] + ".pyc"
        info = zipfile.ZipInfo(name, entry.date_time)
        info.external_attr = entry.external_attr
        target.writestr(info, data, zipfile.ZIP_DEFLATED, 9)
" ".join([str(len(compiled)), *sorted(started - compiled)])
`);
  const [compiled, ...missing] = report.split(" ");
  if (!(Number(compiled) > 0) || missing.length) {
    console.error(`the start's modules were not all compiled: missing ${missing.join(" ") || "all"}`);
    process.exit(1);
  }
  fs.writeFileSync(out, py.FS.readFile("/tmp/stdlib-out.zip"));
} else {
  py.runPython(IMPORTS);
  fs.writeFileSync(out, py.makeMemorySnapshot());
}
