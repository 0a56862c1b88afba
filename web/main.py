"""PyScript entry point: the engine and the browser package are unpacked beside this script."""

import sys

from js import document, performance

performance.mark("main-py")
from cardtable_web.shell import main  # noqa: E402

performance.mark("shell-imported")


def compiled_at_start() -> str:
    """The standard library's modules this start compiled from their source, space-separated: none when the site's
    standard library (build.py: write_stdlib) holds every module the start imports compiled."""
    stdlib = next((p for p in sys.path if p.endswith(".zip")), None)
    names = [
        name
        for name, module in list(sys.modules.items())
        if stdlib
        and (getattr(getattr(module, "__spec__", None), "origin", None) or "").startswith(stdlib + "/")
        and module.__spec__.origin.endswith(".py")
    ]
    return " ".join(sorted(names))


document.documentElement.dataset.compiledAtStart = compiled_at_start()
main()
