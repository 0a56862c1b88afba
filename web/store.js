// The site's storage, one object for the lobby's scripts and Python's Keeper (window.cardTableStorage): the browser's
// localStorage or, where the browser refuses the site any (its data blocked in the settings, a sandboxed frame), a
// store that lasts as long as the page. The site then still plays; the lobby says that nothing is kept.

function pageOnly() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(String(key), String(value)); },
    removeItem: (key) => { items.delete(String(key)); },
    get length() { return items.size; },
    key: (index) => [...items.keys()][index] ?? null,
  };
}

function open() {
  try {
    const storage = window.localStorage;  // a SecurityError where the site may keep nothing
    void storage.length;
    return { storage, keeps: true };
  } catch {
    return { storage: pageOnly(), keeps: false };
  }
}

export const { storage, keeps } = open();

// A stored JSON value, or null when there is none, it is longer than ``limit`` characters, it is not JSON or the
// storage refuses: what the page reads back is hostile input, checked by its reader.
export function readStored(key, limit) {
  try {
    const text = storage.getItem(key);
    return text && text.length < limit ? JSON.parse(text) : null;
  } catch { return null; }
}
window.cardTableStorage = storage;

// PyScript keeps its package cache in IndexedDB and does not start where the browser refuses the site a database.
// There it gets a stand-in holding that cache in the page's memory: just what PyScript's cache asks of a database
// (open, one store, count, get, put, delete, keys, clear). Nothing of the site's own is kept in it.
function pageOnlyDatabase() {
  const databases = new Map();
  const answer = (result) => {
    const request = { result };
    queueMicrotask(() => request.onsuccess?.({ type: "success", target: request }));
    return request;
  };
  const store = (entries) => ({
    count: () => answer(entries.size),
    clear: () => answer(entries.clear()),
    get: (key) => answer(entries.get(key)),
    getKey: (key) => answer(entries.has(key) ? key : undefined),
    getAllKeys: () => answer([...entries.keys()]),
    put: (value, key) => answer(entries.set(key, value) && key),
    delete: (key) => answer(entries.delete(key) && undefined),
  });
  return {
    open(name) {
      if (!databases.has(name)) databases.set(name, new Map());
      const entries = databases.get(name);
      return answer({
        objectStoreNames: { length: 1, contains: () => true },
        transaction: () => ({ objectStore: () => store(entries) }),
        close() {},
      });
    },
  };
}

if (!keeps || !("indexedDB" in window)) {
  Object.defineProperty(window, "indexedDB", { value: pageOnlyDatabase(), configurable: true });
}
