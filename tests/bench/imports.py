"""What the table's Python imports cost at an ordinary start (a first visit), in Pyodide under Node; prints its figures.

    python tests/bench/imports.py [--site dist] [--runs 5] [--game silver-bars]

Pyodide's WebAssembly runs in the same engine (V8) as in Chromium, so this isolates two of the start's means
that the browser benchmark can only show together: importing only the chosen game's engine and renderer instead
of all five, and the modules compiled ahead of time (the build's ``bytecode-*.zip``) instead of compiled from
source at import. Each figure is the median, over ``--runs`` fresh interpreters, of the milliseconds from the
first import to the last of what the table imports before it draws (the shell itself excepted: it needs the
page's ``pyscript`` module, and is in the common archive like the rest).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [site, runs, ...groups] = process.argv.slice(2);
const build = JSON.parse(fs.readFileSync(path.join(site, "build.json"), "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(site, build.pyodide, "pyodide.mjs")).href);
const read = (file) => new Uint8Array(fs.readFileSync(path.join(site, file)));
const common = `
import time
started = time.perf_counter()
import pyengine, pyengine.ai, pyengine.takeback, pyengine.thinker
import cardtable_web.address, cardtable_web.drawing, cardtable_web.embed, cardtable_web.keeping
import cardtable_web.registry, cardtable_web.replay, cardtable_web.session, cardtable_web.trail
from cardtable_web.registry import site_game
`;
const cases = {};
for (const games of groups) {
  for (const compiled of [false, true]) {
    const label = `${games.replaceAll(",", " ")} ${compiled ? "bytecode" : "source"}`;
    cases[label] = [];
    for (let run = 0; run < Number(runs); run++) {
      const py = await loadPyodide({ stdout: () => {} });
      for (const file of [build.engine_wheel, build.web_zip]) py.unpackArchive(read(file), "zip");
      if (compiled) {
        for (const group of ["common", ...games.split(",")]) py.unpackArchive(read(build.bytecode[group]), "zip");
      }
      const each = games.split(",").map((g) => JSON.stringify(g))
        .map((g) => `pyengine.GAMES[${g}]\nsite_game(${g}).render_module()`);
      py.runPython(common + each.join("\n") + "\nspent = (time.perf_counter() - started) * 1000");
      cases[label].push(py.globals.get("spent"));
    }
  }
}
console.log(JSON.stringify(cases));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", default=str(ROOT / "dist"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="silver-bars")
    args = parser.parse_args()
    site = Path(args.site).resolve()
    build = json.loads((site / "build.json").read_text(encoding="utf-8"))
    if not build.get("bytecode"):
        sys.exit(f"{site} was built without bytecode (build.py --no-bytecode)")
    node = shutil.which("node")
    if node is None:
        sys.exit("node is needed")
    every = ",".join(g for g in build["bytecode"] if g != "common")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "imports.mjs"
        script.write_text(SCRIPT, encoding="utf-8")
        out = subprocess.run([node, str(script), str(site), str(args.runs), args.game, every],
                             capture_output=True, text=True, check=True).stdout
    cases = json.loads(out.strip().splitlines()[-1])
    print(f"Python's imports before the table is drawn, ms (median of {args.runs} fresh interpreters, Pyodide in Node)")
    for label, times in cases.items():
        games, way = label.rsplit(" ", 1)
        which = "every game" if "," in every and games == every.replace(",", " ") else games
        print(f"  {which:28} from {way:8} {sorted(times)[len(times) // 2]:7.0f}")


if __name__ == "__main__":
    main()
