"""Card Table's browser layer: the shell (DOM bindings) and one renderer per game.

Renderers are pure functions from a player's view to HTML, so they run (and are
tested) under CPython as well as in the page.
"""

import pkgutil
import sys

DOM_ADAPTERS = (
    "cardtable_web.dom",
    "cardtable_web.embed_page",
    "cardtable_web.figures",
    "cardtable_web.remote_page",
    "cardtable_web.shell",
)
"""Every module that touches the DOM: the adapters that run the page's effects on it (they import ``js``), so cannot
be imported ahead of time. Every other module of the package is pure and runs under CPython; a test checks this list
against the code and against ``docs/architecture.md``."""


def preload() -> list[str]:
    """Every module of the browser package but :data:`DOM_ADAPTERS`, by name, sorted: the memory snapshot
    (``snapshot.mjs``) imports them ahead of time, so a page started from it imports only its adapters."""
    found = {__name__, *(module.name for module in pkgutil.walk_packages(__path__, f"{__name__}."))}
    return sorted(found - set(DOM_ADAPTERS))


def standard_library_modules() -> dict[str, str]:
    """Each imported module that came from the standard library's zip on ``sys.path`` (Pyodide's, or the site's:
    build.py's write_stdlib), with its file's path inside that zip (``json/decoder.py``, or ``.pyc`` when compiled)."""
    mounted = next((p for p in sys.path if p.endswith(".zip")), None)
    if mounted is None:
        return {}
    found = {}
    for name, module in list(sys.modules.items()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(mounted + "/"):
            found[name] = origin[len(mounted) + 1 :]
    return found
