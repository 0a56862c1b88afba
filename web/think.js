// The computer's worker: its own Pyodide with the engine wheel, so the search never blocks the page (started by
// web/python.js, from the build's memory snapshot when the service worker holds it).
// The page posts {id, request} (a JSON request for pyengine.thinker.Thinker.decide) and gets back
// {id, reply} or {id, error}; {type: "ready"} once Python is up, {type: "failed", error} if it cannot start.

const root = new URL("../", self.location.href);
const at = (path) => new URL(path, root).href;

async function start() {
  const build = await (await fetch(at("build.json"), { cache: "no-cache" })).json();
  // Python as the page starts it (web/python.js): from the build's memory snapshot once the service worker holds it.
  const python = await import(at("web/python.js"));
  // Python's WebAssembly from where the page took it (web/thinking.js says so in the worker's name)
  const httpCache = self.name === "runtime:http-cache";
  python.configure(build, "cached", root.href, null, httpCache);
  const py = await python.loadPyodide();
  started = python.startedFrom();
  return py.runPython("from pyengine.thinker import Thinker\nThinker()");
}

let started = null; // how Python started (web/python.js: startedFrom)

const thinker = start();
thinker.then(
  () => postMessage({ type: "ready", python: started.way, runtime: started.runtime }),
  (error) => postMessage({ type: "failed", error: String(error).slice(0, 300) }),
);

addEventListener("message", async (event) => {
  const { id, request } = event.data || {};
  try {
    const reply = (await thinker).decide(String(request));
    postMessage({ id, reply });
  } catch (error) {
    postMessage({ id, error: String(error).slice(-600) });
  }
});
