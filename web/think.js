// The computer's worker: its own Pyodide with the engine wheel, so the search never blocks the page.
// The page posts {id, request} (a JSON request for pyengine.thinker.Thinker.decide) and gets back
// {id, reply} or {id, error}; {type: "ready"} once Python is up, {type: "failed", error} if it cannot start.

const root = new URL("../", self.location.href);
const at = (path) => new URL(path, root).href;

async function start() {
  const build = await (await fetch(at("build.json"), { cache: "no-cache" })).json();
  const { loadPyodide } = await import(at(build.pyodide + "pyodide.mjs"));
  const [py, wheel] = await Promise.all([
    loadPyodide(),
    fetch(at(build.engine_wheel)).then((response) => {
      if (!response.ok) throw new Error(`${build.engine_wheel}: ${response.status}`);
      return response.arrayBuffer();
    }),
  ]);
  const folder = "/home/pyodide/engine";
  py.unpackArchive(wheel, "zip", { extractDir: folder });
  py.runPython(`import sys\nsys.path.insert(0, "${folder}")`);
  return py.runPython("from pyengine.thinker import Thinker\nThinker()");
}

const thinker = start();
thinker.then(
  () => postMessage({ type: "ready" }),
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
