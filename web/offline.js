// Offline after one visit: registers the service worker (sw.js in the site's root folder, so its scope is the
// whole site under any sub-path). When a new build's worker is installed and waiting, the table's header says "A new
// version is ready", with a Reload button that lets the new worker take over and reloads. A new build is a new
// worker only when the site's content changed (build.py hashes the files into the worker's cache key). During a game
// with players on other devices the page never offers Reload: the notice waits for the game's end. An embed (no
// header) registers the worker too, and never shows the notice: it takes the new version on a later visit.
const NOTICE_ID = "update-note";
const root = document.documentElement;
let waitingRegistration = null; // a new version is ready (its registration), once known
let reloading = false;

// A game with players on other devices is on: this page hosts remote seats (their panel shows) or is a guest's
// (the root's "remote-guest" class), and the game is not over.
export function remoteGameOn() {
  const hosting = document.getElementById("remote")?.hidden === false;
  const guesting = root.classList.contains("remote-guest");
  return (hosting || guesting) && root.dataset.state !== "over";
}

function notice(registration) {
  const note = document.createElement("p");
  note.id = NOTICE_ID;
  note.className = "update-note";
  note.setAttribute("role", "status");
  note.textContent = "A new version is ready. ";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn";
  button.id = "update-reload";
  button.textContent = "Reload";
  button.addEventListener("click", () => {
    if (remoteGameOn()) return; // the game started since: the notice is hidden, and waits for its end
    const waiting = registration.waiting;
    if (waiting) {
      reloading = true;
      waiting.postMessage("skip-waiting");
    } else {
      location.reload();
    }
  });
  note.append(button);
  return note;
}

// The notice, shown when a new version is ready and no game with other devices is on (and hidden while one is).
function refresh() {
  const header = document.querySelector("header.site");
  if (!waitingRegistration || !header) return; // an embed shows no notice
  let note = document.getElementById(NOTICE_ID);
  if (!note) {
    note = notice(waitingRegistration);
    header.append(note);
  }
  note.hidden = remoteGameOn();
}

function showUpdate(registration) {
  waitingRegistration = registration;
  refresh();
}

// A remote game's start and end change the root's state and class and the remote panel's visibility.
function watchRemoteGames() {
  const observer = new MutationObserver(() => refresh());
  observer.observe(root, { attributes: true, attributeFilter: ["data-state", "class"] });
  const panel = document.getElementById("remote");
  if (panel) observer.observe(panel, { attributes: true, attributeFilter: ["hidden"] });
}

function watchInstalling(registration, worker) {
  if (!worker) return;
  worker.addEventListener("statechange", () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) showUpdate(registration);
  });
}

async function register() {
  const registration = await navigator.serviceWorker.register(new URL("sw.js", document.baseURI).href);
  if (!registration) return; // registration turned off (an automated browser's setting)
  watchRemoteGames();
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
    else showUpdate(registration); // another tab let the new version take over: this one still runs the old one
  });
  if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration);
  watchInstalling(registration, registration.installing);
  registration.addEventListener("updatefound", () => watchInstalling(registration, registration.installing));
}

// Once Python has started (or half a minute on): the worker's precache (the whole site and the memory snapshot
// for the next visit) then never competes with the page's own start.
function afterStart(action) {
  if (root.dataset.state !== "loading") return action();
  const observer = new MutationObserver(() => {
    if (root.dataset.state !== "loading") done();
  });
  const timer = setTimeout(() => done(), 30000);
  function done() {
    observer.disconnect();
    clearTimeout(timer);
    action();
  }
  observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  afterStart(() => register().catch((error) => console.warn(`Offline play is not available here: ${error}`)));
}
