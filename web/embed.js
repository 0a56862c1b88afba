// embed.html: one game or position for an <iframe> on another page (see cardtable_web/embed.py for the
// address and the postMessage API). Plain Pyodide (no PyScript, started by python.js): the frame is ready as soon
// as possible. It registers the site's service worker as the table does, so a frame opened again starts from the
// memory snapshot and plays offline.

const params = new URLSearchParams(location.search);
const wanted = params.get("origin");
const inFrame = window.parent !== window;
// Events hold only what the frame's seat may see; an invalid origin never gets here (embed-guard.js).
const targetOrigin = window.cardTableEmbedRefused ? "*" : wanted || "*";
const queue = [];
let receive = null;

const bridge = {
  post(text) {
    if (inFrame) window.parent.postMessage(JSON.parse(text), targetOrigin);
    window.dispatchEvent(new CustomEvent("cardtable:event", { detail: text }));
  },
  attach(handler) {
    receive = handler;
    for (const text of queue.splice(0)) receive(text);
  },
};
window.cardTableEmbed = bridge;

function refuse(message) {
  bridge.post(JSON.stringify({ type: "error", message, command: null }));
}

// Commands: from the parent page only (and from `origin` when given); anything else is ignored.
addEventListener("message", (event) => {
  if (!inFrame || event.source !== window.parent) return;
  if (wanted && event.origin !== wanted) return;
  let text;
  try {
    text = JSON.stringify(event.data);
  } catch {
    refuse("a command is a plain object that JSON can hold");
    return;
  }
  if (typeof text !== "string") {
    refuse("a command is a plain object with a type");
    return;
  }
  if (receive) receive(text);
  else if (queue.length < 50) queue.push(text);
  else refuse("too many commands before the frame was ready");
});

// The content's height, whenever it changes, so the host can size the frame.
const content = document.getElementById("embed");
let lastHeight = -1;
bridge.measure = () => {
  const height = Math.ceil(content.getBoundingClientRect().height);
  if (height !== lastHeight) {
    lastHeight = height;
    bridge.post(JSON.stringify({ type: "resize", height }));
  }
};
// After every drawing (Python calls measure), and whenever the layout changes later (fonts, the frame's width).
new ResizeObserver(() => bridge.measure()).observe(content);

async function start() {
  const starter = import(new URL("web/python.js", document.baseURI).href); // fetched while build.json is read
  starter.catch(() => {}); // its failure is the start's, below
  const build = await (await fetch("build.json", { cache: "no-cache" })).json();
  const game = params.get("game") || "";
  const sheet = `web/styles/${game}.css`;
  if (/^[a-z][a-z0-9-]{0,40}$/.test(game) && build.files && sheet in build.files) {
    const link = document.createElement("link");
    link.id = `style-${game}`;
    link.rel = "stylesheet";
    link.href = `${sheet}?v=${build.cache_key}`;
    document.head.append(link);
  }
  const python = await starter;
  python.configure(build, "cached", document.baseURI, game);
  const py = await python.loadPyodide();
  performance.mark("embed-pyodide");
  py.runPython("from cardtable_web.embed_page import start\nstart()");
  // Then offline and quick the next time too: the service worker keeps the site and the memory snapshot (it starts
  // caching once the frame is drawn). An embed shows no notice of a new version: it takes it on a later visit.
  import(new URL("web/offline.js", document.baseURI).href).catch((error) => console.warn(error));
}

if (window.cardTableEmbedRefused) {
  // embed-guard.js said why this frame cannot run the game (and told the host).
} else start().catch((error) => {
  content.textContent = `This embed could not start: ${error}`;
  refuse(`the frame could not start: ${String(error).slice(0, 200)}`);
  console.warn(error);
});
