"""PyScript entry point: the engine and the browser package are unpacked beside this script."""

from js import document, performance

performance.mark("main-py")
from cardtable_web import standard_library_modules  # noqa: E402
from cardtable_web.shell import main  # noqa: E402

performance.mark("shell-imported")

# The standard library's modules this start compiled from their source, space-separated: none when the site's
# standard library (build.py: write_stdlib) holds every module the start imports compiled.
compiled_here = sorted(name for name, path in standard_library_modules().items() if path.endswith(".py"))
document.documentElement.dataset.compiledAtStart = " ".join(compiled_here)
main()
