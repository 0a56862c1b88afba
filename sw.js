// The service worker: after one visit the whole site (Pyodide included) is served from one cache per build.
// It lives in the site's root folder, so its scope is the whole site under any sub-path. build.py writes the
// build's cache key and file list in place of the placeholder below; a new build is a new worker with a new
// cache, which waits until the page asks it to take over (the page's "A new version is ready: Reload").
const BUILD = "__CARDTABLE_BUILD__";
const SCOPE = new URL("./", self.location.href);
const PREFIX = `cardtable:${SCOPE.pathname}:`;
const CACHE = PREFIX + BUILD.cache_key;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Checked with the server ("no-cache"): the HTTP cache may still hold the previous build's files under the same
      // names, but what the page has just fetched is not downloaded a second time (the server answers "not modified").
      // An address whose query names its content (`?v=` and a hash of its bytes: Python's WebAssembly) is taken from
      // the HTTP cache as it is: checking it again would renew that copy's date, and the browser would drop the
      // compiled code it keeps beside it.
      const named = (name) => new URL(name, SCOPE).searchParams.has("v");
      await cache.addAll(BUILD.files.map((name) => new Request(new URL(name, SCOPE), {
        cache: named(name) ? "force-cache" : "no-cache",
      })));
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  // A page asking only for the HTTP cache's copy (Python's WebAssembly, whose compiled code the browser keeps beside
  // it) gets it from there or an error, and then asks again.
  if (request.cache === "only-if-cached") return;
  event.respondWith(
    (async () => {
      let path = url.pathname.slice(SCOPE.pathname.length);
      if (path === "" || path.endsWith("/")) path += "index.html";
      const cache = await caches.open(CACHE);
      // One build's files, whatever the query (`index.html?game=...`, `main.py?v=...`).
      const hit = await cache.match(new URL(path, SCOPE).href, { ignoreSearch: true });
      return hit || fetch(request);
    })(),
  );
});
