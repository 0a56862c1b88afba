"""PyScript entry point: the engine and the browser package are unpacked beside this script."""

from js import performance

performance.mark("main-py")
from cardtable_web.shell import main  # noqa: E402

performance.mark("shell-imported")

main()
