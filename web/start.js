// The table's Python, asked for first thing: this module is the page's first script, so the build's manifest, the
// page's Python program (web/main.py) and Python itself (web/python.js: the snapshot, the WebAssembly, the archives)
// are all on their way while the page's other scripts load. web/boot.js takes the result and runs the program.
// A guest's reply opened in the host's browser only hands the reply over (web/remote.js): no Python there.
const wanted = !location.hash.startsWith("#reply=");
const game = new URLSearchParams(location.hash.replace(/^#/, "")).get("game")
  || new URLSearchParams(location.search).get("game");

// An address that names a game opens its table: the lobby stays out of sight while Python starts (web/table.css),
// rather than showing for a second and giving way, and its pictures are not loaded (web/lobby.js).
if (wanted && game) document.documentElement.dataset.opening = "table";

// The build's manifest (build.json), read once for the whole page. It is asked for before this module's import of
// web/python.js (and Pyodide's loader behind it) is even fetched: a static import would wait for the whole chain.
export const build = fetch("build.json", { cache: "no-cache" }).then((response) => response.json());
const starter = wanted ? import("./python.js") : null;

// Python started and the page's program fetched: `{ py, program }`, or the reason neither can be had.
export const python = !wanted ? null : build.then(async (manifest) => {
  const program = fetch(new URL(`web/main.py?v=${manifest.cache_key}`, document.baseURI)).then((response) => {
    if (!response.ok) throw new Error(`web/main.py: ${response.status}`);
    return response.text();
  });
  program.catch(() => {}); // its failure is the start's, below
  const { begin, configure } = await starter;
  configure(manifest, "cached", document.baseURI, game);
  const py = await begin();
  return { py, program: await program };
});
starter?.catch(() => {}); // and so does a failed import (through `python`)
python?.catch(() => {}); // web/boot.js reports a failure (pythonFailed)
build.catch(() => {});
