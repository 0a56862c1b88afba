// Offline after one visit: registers the service worker (sw.js in the site's root folder, so its scope is the
// whole site under any sub-path), and when a new build's worker is installed and waiting, shows a small notice in
// the header, "A new version is ready", with a Reload button that lets the new worker take over and reloads.
const NOTICE_ID = "update-note";

function showUpdate(registration) {
  if (document.getElementById(NOTICE_ID)) return;
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
    const waiting = registration.waiting;
    if (waiting) {
      reloading = true;
      waiting.postMessage("skip-waiting");
    } else {
      location.reload();
    }
  });
  note.append(button);
  (document.querySelector("header.site") || document.body).append(note);
}

let reloading = false;

function watchInstalling(registration, worker) {
  if (!worker) return;
  worker.addEventListener("statechange", () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) showUpdate(registration);
  });
}

async function register() {
  const registration = await navigator.serviceWorker.register(new URL("sw.js", document.baseURI).href);
  if (!registration) return; // registration turned off (an automated browser's setting)
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
  const root = document.documentElement;
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
