"""The table's program, run by ``web/boot.js`` once Python has started (``web/start.js``): the engine and the browser
package are unpacked in Python's working folder."""

import sys

from js import document, performance

performance.mark("main-py")
imported_before = set(sys.modules)
from cardtable_web import standard_library_modules  # noqa: E402
from cardtable_web.shell import main  # noqa: E402

performance.mark("shell-imported")

# The site's modules this start imported (compiled, or from source when the archive has no bytecode for them): all of
# them on an ordinary start; on a start from the memory snapshot only the adapters that need the page's DOM.
document.documentElement.dataset.importedAtStart = " ".join(
    sorted(name for name in set(sys.modules) - imported_before if name.startswith(("cardtable_web", "pyengine")))
)

# The standard library's modules this start compiled from their source, space-separated: none when the site's
# standard library (build.py: write_stdlib) holds every module the start imports compiled.
compiled_here = sorted(name for name, path in standard_library_modules().items() if path.endswith(".py"))
document.documentElement.dataset.compiledAtStart = " ".join(compiled_here)
main()
