// embed.html's first script, a classic one: it runs in any frame, even one whose modules cannot load.
// A frame the game cannot run in is told in a sentence, and the host page gets an error event:
// - a sandbox without allow-same-origin gives the frame an opaque origin, which can neither load the game's
//   modules and Python nor keep anything;
// - an `origin` setting that is not a page's origin (scheme, host and port, nothing else) could never receive events.
(function guard() {
  const wanted = new URLSearchParams(location.search).get("origin");
  let reason = "";
  if (window.origin === "null") {
    reason = 'this frame is sandboxed without "allow-same-origin", so the game cannot load: ' +
      'use sandbox="allow-scripts allow-same-origin"';
  } else if (wanted !== null) {
    const shape = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)(:\d{1,5})?$/i;
    let origin = "";
    try { origin = new URL(wanted).origin; } catch { origin = ""; }
    if (!shape.test(wanted) || origin !== wanted.toLowerCase()) {
      reason = "origin is a page's origin, like https://example.org (scheme, host and port only)";
    }
  }
  if (!reason) return;
  window.cardTableEmbedRefused = reason;
  const show = () => {
    const main = document.getElementById("embed");
    if (main) main.textContent = `This embed cannot be shown: ${reason}.`;
    document.documentElement.dataset.state = "ready";
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
  // Only an error's words go out, to whichever page holds the frame: the game never started.
  if (window.parent !== window) window.parent.postMessage({ type: "error", message: reason, command: null }, "*");
})();
