// The page's side of the computer's worker (web/think.js). The table warms it when a game has a computer
// whose search belongs away from the page; until it is ready (or if it cannot start) that computer thinks in
// the page in short slices, so nobody ever waits for the worker.

let worker = null;
let status = "off"; // off, starting, ready or failed
let python = null; // how the worker's Python started: "snapshot" or "ordinary"
let runtime = null; // where its WebAssembly came from: "http-cache" or "file"
let next = 1;
const waiting = new Map();

function fail(error) {
  status = "failed";
  if (worker) worker.terminate();
  worker = null;
  for (const pending of waiting.values()) pending.reject(new Error(String(error)));
  waiting.clear();
}

function warm() {
  if (worker || status === "failed") return;
  if (typeof Worker === "undefined") {
    status = "failed";
    return;
  }
  status = "starting";
  try {
    // the worker takes Python's WebAssembly from where the page took it (web/python.js: fetchRuntime), told by its
    // name: a worker's address is its script's as the service worker answered it, without the query
    const name = `runtime:${document.documentElement.dataset.runtime || "file"}`;
    worker = new Worker(new URL("think.js", import.meta.url), { type: "module", name });
  } catch (error) {
    fail(error);
    return;
  }
  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "ready") {
      status = "ready";
      python = data.python || null;
      runtime = data.runtime || null;
    }
    else if (data.type === "failed") fail(data.error);
    else if (waiting.has(data.id)) {
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if ("reply" in data) pending.resolve(data.reply);
      else pending.reject(new Error(data.error));
    }
  });
  worker.addEventListener("error", (event) => fail(event.message || "the computer's worker stopped"));
}

// One decision: a promise of the worker's JSON reply (rejected if the worker fails on it).
function think(request) {
  if (status !== "ready") return Promise.reject(new Error("the computer's worker is not ready"));
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, request });
  });
}

window.cardTableThinker = { warm, think, status: () => status, python: () => python, runtime: () => runtime };
